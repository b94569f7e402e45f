"""Panzer Saint-Lo 1944: the Ruleset (two players, and the four-player team variant of 10).

This module holds the contract, the setup's decisions (4), the Battle Report plays and windows (9) and the
Sequence of Play (`SEQUENCE_OF_PLAY`, at the end: each phase with who acts and its handlers). The phases'
handlers live beside it: turn.py (the turn's frame: 4's starting dice, 5.1, 5.2, the turn's end),
activation.py (5.3, 6, 7, 10.2, 10.3), reorganization.py (5.4, 8); and their pieces: setup.py (4),
movement.py (6.1, 7.4, 7.5), attack.py (6.2, 7.1-7.4), effects.py and reports.py (9), odds.py (the dice),
position.py (JSON and observations), labels.py (words and refusals). Rule citations name the rulebook's
sections: "Saint-Lo 5.3".
Dice, card draws and the starting player's dice are chance nodes; the ruleset never draws a number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from warroom.engine.errors import IllegalActionError, UnknownScenarioError, WarroomError, quoted
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import activation, placement, reorganization, reports, setup, turn
from . import attack as attacks
from .actions import DEPLOY, FIRE, PASS, PLAY, READY, Action
from .board import load_board, load_components, load_units
from .cards import load_cards
from .effects import play_ids
from .names import kind_name
from .odds import throw_outcomes, win_probability
from .seats import ARMIES, army_of, seats_of
from .state import OFF, PHASE_NAMES, Phase, SaintLoState
from .tables import Tables

TEAM_SIDES = ("Allied A", "Allied B", "Axis A", "Axis B")
D6 = tuple((face, 1 / 6) for face in range(1, 7))
OBJECTIVES = (4, 6, 8)


class SaintLoRules:
    """The Ruleset for Panzer Saint-Lo 1944, two players (Allied, Axis)."""

    info = GameInfo(id="saintlo", title="Panzer Saint-Lo 1944", scenarios=("standard",), sides=ARMIES)
    seats = 2

    def __init__(self) -> None:
        self.t = Tables(load_board(), load_units(), load_components(), load_cards())
        self.sides = self.info.sides
        self.seat_index = {side: k for k, side in enumerate(self.sides)}

    # -- the contract ---------------------------------------------------------------------------------
    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> SaintLoState:
        if scenario not in (None, "standard"):
            raise UnknownScenarioError(f"Panzer Saint-Lo has one scenario, 'standard', not {scenario!r}")
        objective, turn_limit = parse_options(options)
        t = self.t
        s = SaintLoState()
        s.seats, s.objective, s.turn_limit = self.seats, objective, turn_limit
        s.pos, s.used = [OFF] * t.n_units, [False] * t.n_units
        s.land_at, s.air_at, s.post_at = [OFF] * t.n_hexes, [OFF] * t.n_hexes, [OFF] * t.n_hexes
        s.post_hex, s.lost_posts, s.supplies = [OFF] * 16, [0, 0], [0, 0]
        s.hands = [[] for _ in range(self.seats)]
        s.deck = [list(t.deck_counts[0]), list(t.deck_counts[1])]
        s.discard = [[0] * len(t.deck_counts[0]), [0] * len(t.deck_counts[1])]
        s.swapped, s.ended = [0, 0], [False] * self.seats
        s.phase, s.active, s.seat = Phase.POSTS, 0, seats_of(s, 0)[0]
        return s

    def to_act(self, s: SaintLoState) -> str | None:
        actor = _ACTORS[s.phase]
        if actor is _SEAT:
            return self.sides[s.seat] if s.bulk == OFF else CHANCE  # a deployment in bulk waits for its die
        return actor

    def legal_actions(self, s: SaintLoState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = SEQUENCE_OF_PLAY[s.phase].choices(self, s)
        return list(legal)

    def chance_outcomes(self, s: SaintLoState) -> tuple[tuple[int, float], ...]:
        phase = s.phase
        if phase == Phase.START_ROLL:
            return D6
        if phase == Phase.DRAW:
            army = army_of(s, s.draw_queue[0])
            deck = s.deck[army]
            total = sum(deck)
            return tuple((c, n / total) for c, n in enumerate(deck) if n)
        if phase in (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL):
            a = s.attack
            assert a is not None
            dice = (
                attacks.attack_dice(self.t, s, a) if phase == Phase.ATTACK_ROLL else attacks.defense_dice(self.t, s, a)
            )
            return throw_outcomes(dice)
        if phase == Phase.DEPLOY and s.bulk != OFF:
            return D6  # the dice that deal a deployment in bulk, then the die that varies it (placement.py)
        raise IllegalActionError("no chance event is pending")

    def die_sides(self, s: SaintLoState) -> int:
        return 6

    def apply(self, s: SaintLoState, action: str, log: bool = True) -> list[Event]:
        legal = s.legal
        if legal is None:
            legal = s.legal = SEQUENCE_OF_PLAY[s.phase].choices(self, s)
        if action not in legal:
            raise IllegalActionError(self.why_illegal(s, action))
        s.legal = None
        events = Events() if log else SILENT
        act = Action.from_id(action)
        if act.kind == PLAY:
            self.play_card(s, act, events)
        else:
            decide = SEQUENCE_OF_PLAY[s.phase].decide
            assert decide is not None
            decide(self, s, act, events)
        return events.items if log else []

    def apply_chance(self, s: SaintLoState, outcome: int, log: bool = True) -> list[Event]:
        roll = SEQUENCE_OF_PLAY[s.phase].roll
        if roll is None:
            raise IllegalActionError("no chance event is pending")
        if not self._is_outcome(s, outcome):
            raise IllegalActionError(f"{quoted(outcome)} is not an outcome of this chance event")
        s.legal = None
        events = Events() if log else SILENT
        roll(self, s, outcome, events)
        return events.items if log else []

    def _is_outcome(self, s: SaintLoState, outcome: int) -> bool:
        """Whether `outcome` is one of `chance_outcomes(s)`, asked without building them where that is cheap
        (a die's face, a card kind left in the deck: every draw of a playout comes this way)."""
        phase = s.phase
        if phase == Phase.START_ROLL:
            return type(outcome) is int and 1 <= outcome <= 6
        if phase == Phase.DRAW:
            deck = s.deck[army_of(s, s.draw_queue[0])]
            return type(outcome) is int and 0 <= outcome < len(deck) and deck[outcome] > 0
        return outcome in (o for o, _ in self.chance_outcomes(s))

    def result(self, s: SaintLoState) -> Result | None:
        if s.phase != Phase.OVER:
            return None
        score = {ARMIES[a]: s.lost_posts[1 - a] for a in (0, 1)}
        if s.winner == OFF:
            return Result(
                None,
                {"Command Posts destroyed": score},
                turn.limit_reached(s.turn_limit),
                "Saint-Lo 3",
                win_returns(self.info, None),
            )
        winner = ARMIES[s.winner]
        return Result(
            winner,
            {"Command Posts destroyed": score},
            f"The {winner} army destroyed {s.lost_posts[1 - s.winner]} enemy Command Posts "
            f"(the objective is {s.objective}).",
            "Saint-Lo 3",
            win_returns(self.info, winner),
        )

    def observation(self, s: SaintLoState, side: str | None = None) -> dict[str, Any]:
        from .position import observation

        return observation(self, s, side)

    def clone(self, s: SaintLoState) -> SaintLoState:
        return s.clone()

    def state_to_json(self, s: SaintLoState) -> dict[str, Any]:
        from .position import state_to_json

        return state_to_json(self, s)

    def state_from_json(self, data: dict[str, Any]) -> SaintLoState:
        from .position import state_from_json

        return state_from_json(self, data)

    def turn_and_phase(self, s: SaintLoState) -> tuple[int, str]:
        return s.turn, PHASE_NAMES[s.phase]

    def describe_action(self, s: SaintLoState, action: str) -> str:
        from .labels import describe

        return describe(self, s, action)

    def why_illegal(self, s: SaintLoState, action: str) -> str:
        from .labels import why_illegal

        return why_illegal(self, s, action)

    def attack_odds(self, s: SaintLoState, action: str) -> float | None:
        """The exact chance that a legal `attack` (or, during support, `fire`) destroys its target with the
        dice it would throw now (6.2, re-rolls included); None for any other action."""
        t = self.t
        if action == FIRE and s.attack is not None:
            a = s.attack
        else:
            act = Action.from_id(action)
            if act.kind != "attack" or action not in self.legal_actions(s):
                return None
            a = attacks.target_in(t, s, t.unit_index[act.subject], t.hex_of[act.where])
        return win_probability(attacks.attack_dice(t, s, a), attacks.defense_dice(t, s, a))

    # -- names ----------------------------------------------------------------------------------------
    def unit_of(self, name: str) -> int:
        """The index of the unit an id names (`us_m5.3`), for callers outside the legal list."""
        u = self.t.unit_index.get(name)
        if u is None:
            raise IllegalActionError(f"no unit {quoted(name)}")
        return u

    def hex_of(self, label: str) -> int:
        h = self.t.hex_of.get(label)
        if h is None:
            raise IllegalActionError(f"no hex {quoted(label)} on the Saint-Lo board")
        return h

    # -- setup (4: the starting player's dice are in turn.py) and the Battle Report window (9) -----------
    def post_choices(self, s: SaintLoState) -> list[str]:
        """4.2: each post on each hex, then `ready` (the rest the computer's way, placement.py)."""
        return [*setup.post_choices(self.t, s), *placement.post_ready(self.t, s)]

    def do_post(self, s: SaintLoState, act: Action, events: Events) -> None:
        """4.2: one Command Post placed (or, `ready`, all the army has left); when the army has placed all 8,
        the next army, then deployment."""
        if act.kind == READY:
            placed = placement.place_rest_of_posts(self.t, s)
        else:
            h = self.hex_of(act.subject)
            setup.place_post(self.t, s, h, int(act.where))
            placed = [(h, int(act.where))]
        if events.on:
            for h, value in placed:
                events.emit(
                    "post",
                    f"{ARMIES[s.active]} places a Command Post of defence {value} on {self.t.labels[h]}.",
                    "Saint-Lo 4",
                )
        if setup.posts_left(s, s.active):
            return
        if s.active == 0:
            s.active, s.seat = 1, seats_of(s, 1)[0]
            return
        order = setup.deploy_order(s)
        s.phase, s.seat, s.active = Phase.DEPLOY, order[0], army_of(s, order[0])

    def deploy_choices(self, s: SaintLoState) -> list[str]:
        """4.3: each kind on each hex, then the deployments in bulk (`ready`, `sector NAME`: placement.py), last so
        that the first choice is still a single counter; none while a deployment in bulk waits for its die."""
        if s.bulk != OFF:
            return []
        return [*setup.deploy_choices(self.t, s), *placement.deploy_bulk_choices(self.t, s)]

    def do_deploy(self, s: SaintLoState, act: Action, events: Events) -> None:
        """4.3: one unit deployed face down; the next seat when this one is done; all revealed at the end. A
        deployment in bulk (`ready`, `sector NAME`) waits for its dice (`roll_bulk`)."""
        if act.kind != DEPLOY:
            s.bulk = placement.bulk_code(act.subject)
            return
        t = self.t
        u = setup.deploy(t, s, t.kind_index[act.subject], self.hex_of(act.where))
        if events.on:
            team = [self.sides[k] for k in seats_of(s, s.active)]
            events.emit(
                "deploy",
                f"{self.sides[s.seat]} deploys {kind_name(t, t.unit_kind[u])} face down on {act.where}.",
                "Saint-Lo 4",
                visible_to=team,
            )
        self._next_to_deploy(s, events)

    def roll_bulk(self, s: SaintLoState, die: int, events: Events) -> None:
        """4.3: a die of a deployment in bulk: `placement.shuffle_dice` dice that deal the seat's counters among
        its roles' hexes, then one whose face varies the hexes; at the last, every counter the seat has left,
        face down (placement.py). Seen by the seat's team only, as single deployments are: no event tells the
        other army a die, nor which counter went where."""
        t = self.t
        dice = (*s.bulk_dice, die)
        dealing = placement.shuffle_dice(t, s)
        if len(dice) <= dealing:
            s.bulk_dice = dice
            return
        code, s.bulk, s.bulk_dice = s.bulk, OFF, ()
        placed = placement.deploy_rest(t, s, code, die, placement.deal_index(t, s, dice[:dealing]))
        if events.on:
            team = [self.sides[k] for k in seats_of(s, s.active)]
            dealt = f"dealt by {' '.join(map(str, dice[:dealing]))}, " if dealing else ""
            events.emit(
                "deploy",
                f"{self.sides[s.seat]} deploys {len(placed)} counters face down in "
                f"{placement.area_words(t, code)}, placed by the computer ({dealt}die {die}).",
                "Saint-Lo 4",
                visible_to=team,
            )
        self._next_to_deploy(s, events)

    def _next_to_deploy(self, s: SaintLoState, events: Events) -> None:
        """4.3: the next seat once this one has deployed all; when every seat has, the reveal and the draws."""
        if not setup.seat_done_deploying(self.t, s):
            return
        order = setup.deploy_order(s)
        k = order.index(s.seat)
        if k + 1 < len(order):
            s.seat = order[k + 1]
            s.active = army_of(s, s.seat)
            return
        if events.on:
            events.emit("reveal", "Both armies are deployed: every unit is flipped face up.", "Saint-Lo 4")
        s.draw_queue = tuple(seat for seat in range(s.seats) for _ in range(self.t.rules.starting_hand))
        turn.next_draw(self, s, events)

    def play_card(self, s: SaintLoState, act: Action, events: Events) -> None:
        """9: a Battle Report played by the seat deciding (in its decisions or a window)."""
        army = army_of(s, s.seat)
        c = self.t.card_index[army][act.subject]
        unit = self.t.unit_index[act.where] if act.where else OFF
        reports.play(self.t, s, s.seat, c, unit, events, self.sides[s.seat])
        in_window = s.phase == Phase.WINDOW
        if in_window:
            reports.after_play(self.t, s)  # may close the window and move on to the attack's roll
            if s.phase == Phase.ATTACK_ROLL:
                activation.enter_roll(self, s, events)

    def window_choices(self, s: SaintLoState) -> list[str]:
        return [*play_ids(self.t, s, s.seat, army_of(s, s.seat)), PASS]

    def do_pass(self, s: SaintLoState, act: Action, events: Events) -> None:
        w = s.window
        assert w is not None
        reports.advance(self.t, s, w)
        if s.phase == Phase.ATTACK_ROLL:
            activation.enter_roll(self, s, events)


class SaintLoTeamRules(SaintLoRules):
    """The four-player variant (10): two teams of two, Player A infantry and aircraft, Player B artillery
    and tanks, Supply units and Supplies shared."""

    info = GameInfo(
        id="saintlo-teams",
        title="Panzer Saint-Lo 1944 (2 v 2)",
        scenarios=("standard",),
        sides=TEAM_SIDES,
        teams=(("Allied", TEAM_SIDES[:2]), ("Axis", TEAM_SIDES[2:])),
    )
    seats = 4


def parse_options(options: dict[str, Any] | None) -> tuple[int, int]:
    """3: the objective (4, or 6 or 8 for a longer game); `turn_limit`: turns each army plays before a draw
    (0, the rulebook's: none; for simulations)."""
    options = dict(options or {})
    objective = options.pop("objective", 4)
    turn_limit = options.pop("turn_limit", 0)
    if options:
        raise WarroomError(f"unknown Panzer Saint-Lo option {sorted(options)[0]!r}; options: objective, turn_limit")
    if type(objective) is not int or objective not in OBJECTIVES:  # 4.0 or True would compare equal
        raise WarroomError(f"objective must be 4, 6 or 8 Command Posts (Saint-Lo 3), not {objective!r}")
    if not isinstance(turn_limit, int) or isinstance(turn_limit, bool) or turn_limit < 0:
        raise WarroomError(f"turn_limit must be a whole number of turns, 0 for none, not {turn_limit!r}")
    return objective, turn_limit


def _no_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    return []


_SEAT = "seat"


@dataclass(frozen=True, slots=True)
class Step:
    """One phase: who acts (CHANCE, a seat, or None once over) and its handlers."""

    phase: Phase
    actor: str | None
    roll: Callable[[SaintLoRules, SaintLoState, int, Events], None] | None = None
    decide: Callable[[SaintLoRules, SaintLoState, Action, Events], None] | None = None
    choices: Callable[[SaintLoRules, SaintLoState], list[str]] = _no_choices


SEQUENCE_OF_PLAY: tuple[Step, ...] = (
    Step(Phase.POSTS, _SEAT, decide=SaintLoRules.do_post, choices=SaintLoRules.post_choices),  # 4.2
    Step(
        Phase.DEPLOY,
        _SEAT,
        roll=SaintLoRules.roll_bulk,
        decide=SaintLoRules.do_deploy,
        choices=SaintLoRules.deploy_choices,
    ),  # 4.3 (the roll: the die of a deployment in bulk)
    Step(Phase.DRAW, CHANCE, roll=turn.draw),  # 4.5, 5.2
    Step(Phase.START_ROLL, CHANCE, roll=turn.start_roll),  # 4
    Step(Phase.DISCARD, _SEAT, decide=turn.do_discard, choices=turn.discard_choices),  # 5.2
    Step(Phase.WINDOW, _SEAT, decide=SaintLoRules.do_pass, choices=SaintLoRules.window_choices),  # 9
    Step(Phase.ACTIONS, _SEAT, decide=activation.do_action, choices=activation.action_choices),  # 5.3, 6
    Step(Phase.SUPPORT, _SEAT, decide=activation.do_support, choices=activation.support_choices),  # 7.3
    Step(Phase.SUPPORT_REPLY, _SEAT, decide=activation.do_reply, choices=activation.reply_choices),  # 10.3
    Step(Phase.ATTACK_ROLL, CHANCE, roll=activation.roll_attack),  # 6.2
    Step(Phase.DEFENSE_ROLL, CHANCE, roll=activation.roll_defense),  # 6.2
    Step(
        Phase.REORGANIZE, _SEAT, decide=reorganization.do_reorganize, choices=reorganization.reorganize_choices
    ),  # 5.4, 8
    Step(Phase.OVER, None),
)
"""The setup and the turn as the rulebook orders them (4, 5.1-5.4), one entry per `Phase`. Re-supplying
(5.1) needs no decision: it is carried out as the turn starts (`start_turn`)."""
if [step.phase for step in SEQUENCE_OF_PLAY] != list(Phase):
    raise RuntimeError("SEQUENCE_OF_PLAY must list every Phase in order")
_ACTORS = tuple(step.actor for step in SEQUENCE_OF_PLAY)
