"""Major Battles and Campaigns of General George S. Patton: the Ruleset, for all three scenarios.

Two players: "Allied" (the rulebook's American or Allied player, blue) and "Axis" (German or
Axis, red). Decisions belong to whoever the rules say: the side not moving chooses its
casualties, its retreat roads and whether to retreat from a tie, in the middle of the other's
turn. Movement cards and dice are chance nodes. The card order is not hidden information: it
is decided as each card is turned (uniformly among the cards not yet seen), which is what a
face-down shuffled pack is to both players; see NOTES.md.

This module holds the contract and, at the end, the Sequence of Play (`SEQUENCE_OF_PLAY`: each
phase with what it asks, the handler that carries out a choice or a roll, and the step the rules
take on their own); movement, battles, retreats, the turn's end and the objectives live in their
modules. The helpers report what happens to an event sink (warroom.engine.events); `apply(..., log=False)`
hands them the silent one. Rule citations name the rulebook's sections (it has no numbers):
"Patton: Retreating".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from warroom.engine.errors import IllegalActionError, UnknownScenarioError, WarroomError
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import battle as battle_mod
from . import movement, placement, retreat, sequence
from .actions import (
    BATTLE,
    CASUALTIES,
    DEFECT,
    END,
    LAND,
    MOVE,
    PLACE,
    PLACE_DEFAULT,
    REMOVE,
    RESERVE,
    RETREAT,
    ROLL,
    STAND,
    TIE_RETREAT,
    WAIT,
    Action,
    ActionTable,
    Casualty,
    Kind,
)
from .board import SCENARIO_RULE, SCENARIOS, SIDES, Board, load_board
from .objectives import score, update_relief
from .options import OPTIONS, PLACEMENTS, option_specs
from .position import state_from_json, state_to_json
from .state import (
    AFTER_RESERVES,
    BATTLE_ORDER,
    CHANCE_PHASES,
    OVER,
    PHASE_NAMES,
    PLACING,
    RESERVE_DICE,
    START_TURN,
    PattonState,
    Phase,
)

D6 = tuple((face, 1 / 6) for face in range(1, 7))
"""One shared, immutable d6 (the dice source checks once that its faces are equally likely)."""


class PattonRules:
    """The Ruleset for Major Battles and Campaigns of General George S. Patton."""

    info: ClassVar[GameInfo] = GameInfo(  # ClassVar: a class compiled by mypyc keeps it on the class
        id="patton",
        title="Major Battles and Campaigns of General George S. Patton",
        scenarios=SCENARIOS,
        sides=SIDES,
    )

    def __init__(self) -> None:
        self._tables: dict[str, ActionTable] = {}
        self._last_table: ActionTable | None = None  # the last asked for: a playout asks for one board's again

    def board(self, scenario: str) -> Board:
        if scenario not in SCENARIOS:
            raise UnknownScenarioError(f"Patton has no scenario {scenario!r}; scenarios: {', '.join(SCENARIOS)}")
        return load_board(scenario)

    def table(self, board: Board) -> ActionTable:
        """The board's action ids (built once per board, cached)."""
        tab = self._last_table
        if tab is not None and tab.board is board:
            return tab
        tab = self._tables.get(board.id)
        if tab is None or tab.board is not board:
            tab = self._tables[board.id] = ActionTable(board)
        self._last_table = tab
        return tab

    # -- the contract ---------------------------------------------------------------------------
    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> PattonState:
        options = dict(options or {})
        unknown = set(options) - OPTIONS
        if unknown:
            raise WarroomError(f"unknown Patton option(s) {sorted(unknown)}; options: {', '.join(sorted(OPTIONS))}")
        board = self.board(scenario or SCENARIOS[0])
        s = PattonState(board)
        advanced = options.get("advanced_retreat", False)
        if not isinstance(advanced, bool):
            raise WarroomError(f"advanced_retreat must be true or false, not {advanced!r}")
        s.advanced = advanced
        limit = options.get("turn_limit")
        if limit is not None:
            # 0 is no limit (the rule in Sicily: "The game continues until one player has achieved his objective")
            if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
                raise WarroomError(f"turn_limit must be a whole number of turns (0: no limit), not {limit!r}")
            if board.game_ends_card:
                raise WarroomError(
                    f"turn_limit is for Sicily: in {board.title} the Game Ends card ends the game after "
                    f"{board.turns} turns ({SCENARIO_RULE[board.id]} — Duration of Game)"
                )
            s.turn_limit = limit
        mode = options.get("placement", "default")
        if mode not in PLACEMENTS:
            raise WarroomError(f"placement must be one of {', '.join(PLACEMENTS)}, not {mode!r}")
        manual = {"default": (), "manual": (0, 1), "Allied": (0,), "Axis": (1,)}[mode]
        for side in (0, 1):
            if board.sides[side].placement.zone == "offboard":
                s.offboard = [board.force[side][0], board.force[side][1]] if side == 0 else s.offboard
            elif side in manual:
                placement.begin_manual(s, side)
            else:
                placement.place_default(s, side)
        waiting = [side for side in (0, 1) if sum(s.placing[side])]
        if waiting:
            s.phase = PLACING
            s.actor = waiting[0]
        else:
            s.phase = START_TURN
        self.settle(s, SILENT)
        return s

    def to_act(self, s: PattonState) -> str | None:
        fixed = _ACTOR[s.phase]  # None over, CHANCE at a chance node, "" where a side acts
        return fixed if fixed != "" else SIDES[s.actor]

    def chance_outcomes(self, s: PattonState) -> tuple[tuple[int, float], ...]:
        outcomes = _OUTCOMES[s.phase]
        if outcomes is None:
            raise IllegalActionError("no card or die is pending")
        return outcomes(s)

    def die_sides(self, s: PattonState) -> int:
        """6 for dice; 12 for a movement card (its values run from 1 to at most 12)."""
        return 12 if s.phase == Phase.CARD else 6

    def legal_actions(self, s: PattonState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = _CHOICES[s.phase](self, s)
        return list(legal)

    def choices(self, s: PattonState) -> Sequence[str]:
        """The legal action ids, cached in the state: the phase's fresh list, only ever read (so clones may
        share it; `legal_actions` hands out copies)."""
        legal = s.legal
        if legal is None:
            legal = s.legal = _CHOICES[s.phase](self, s)
        return legal

    def action_of(self, s: PattonState, action: str) -> Action | None:
        """The Action an id names on this state's board (its board index set), None if it names none."""
        return self.table(s.board).parse(action)

    def apply(self, s: PattonState, action: object, log: bool = True) -> list[Event]:
        # `object`, not `str`: a compiled module (compile.toml) enforces its annotations, and an id of another
        # type must be an IllegalActionError like any other id that names no action
        phase = s.phase
        if phase == OVER or phase in CHANCE_PHASES:
            raise IllegalActionError(self.why_illegal(s, action))
        act = self.table(s.board).parse(action)
        legal = s.legal
        if legal is None:
            legal = s.legal = _CHOICES[phase](self, s)
        if act is None or action not in legal:  # legal_actions is the one test: moves included
            raise IllegalActionError(self.why_illegal(s, action))
        s.legal = None
        events = Events() if log else SILENT
        DO[act.kind](self, s, act, events)
        self.settle(s, events)
        return events.items if log else []

    def apply_chance(self, s: PattonState, outcome: int, log: bool = True) -> list[Event]:
        roll = _ROLLS[s.phase]
        if roll is None:
            raise IllegalActionError("no card or die is pending")
        s.legal = None
        events = Events() if log else SILENT
        roll(s, outcome, events)
        self.settle(s, events)
        return events.items if log else []

    def settle(self, s: PattonState, events: Events) -> None:
        """Run every step that needs no decision and no chance, and every forced single choice, until a
        side must decide or a card or die must be turned (each phase's `step` in SEQUENCE_OF_PLAY)."""
        steps = _STEPS
        while True:
            step = steps[s.phase]
            if step is None or not step(self, s, events):
                return
            s.legal = None

    def forced_choice(self, s: PattonState, events: Events) -> bool:
        """Take the only legal choice for the player (True), or leave the choice to him (False)."""
        legal = s.legal
        if legal is None:
            legal = s.legal = _CHOICES[s.phase](self, s)
        if len(legal) != 1:
            return False
        s.legal = None
        act = self.table(s.board).parse(legal[0])
        assert act is not None
        DO[act.kind](self, s, act, events)
        return True

    # -- the rest of the contract -----------------------------------------------------------------
    def result(self, s: PattonState) -> Result | None:
        if s.phase != OVER:
            return None
        winner = SIDES[s.winner] if s.winner is not None else None
        return Result(winner, score(s), s.reason, s.result_rule, win_returns(self.info, winner))

    def observation(self, s: PattonState, side: str | None = None) -> dict[str, Any]:
        """The whole position and the viewer: nothing in Patton's state is hidden (NOTES.md, Observations).

        Every Unit is on the open board. The movement packs hold no face-down order: a card's value is
        chance, decided when it is turned up, and `cards_unseen` is what both players can count (the
        deck less the face-up cards). The dice and cards to come live in the match's seeded dice, not
        in the state, so the spec declares no hidden field and needs no determinize."""
        data = state_to_json(s)
        data["viewer"] = side
        return data

    def state_to_json(self, s: PattonState) -> dict[str, Any]:
        return state_to_json(s)

    def state_from_json(self, data: Any) -> PattonState:
        return state_from_json(data, self.board)

    def clone(self, s: PattonState) -> PattonState:
        return s.clone()

    def turn_and_phase(self, s: PattonState) -> tuple[int, str]:
        if s.phase == OVER:
            return s.turn, PHASE_NAMES[OVER]
        who = s.board.side_names[s.mover]
        return s.turn, f"{who} turn: {PHASE_NAMES[s.phase]}" if s.phase < len(PHASE_NAMES) else who

    def action_odds(self, s: PattonState, action: str) -> dict[str, Any] | None:
        """Exact odds of the battle `action` starts, joins or refights (shown before a player commits)."""
        from .odds import action_odds

        return action_odds(self, s, action)

    def option_specs(self) -> tuple[dict[str, Any], ...]:
        """The rules options described for a front end (labels, kinds, defaults, the rule; see options.py)."""
        return option_specs()

    def battle_odds(self, s: PattonState, side: str | None) -> list[dict[str, Any]]:
        """Exact odds of the battle being fought and of each attack set up, from `side`'s view (every seat sees
        them)."""
        from .odds import battle_odds

        return battle_odds(s, side)

    def describe_action(self, s: PattonState, action: str) -> str:
        from .labels import describe

        return describe(self, s, action)

    def why_illegal(self, s: PattonState, action: object) -> str:
        """The message of the IllegalActionError `apply` raises: the action, the phase and the rule."""
        from .labels import why_illegal

        return why_illegal(self, s, action)


# -- the choices of each decision --------------------------------------------------------------------
def _moves(rules: PattonRules, s: PattonState) -> list[str]:
    out: list[str] = []
    movement.legal_moves(s, rules.table(s.board), out)
    out.append("end")
    return out


def _battles(rules: PattonRules, s: PattonState) -> list[str]:
    ids = rules.table(s.board).battle_id
    return [ids[t] for t in movement.pending_targets(s)]


def _casualties(rules: PattonRules, s: PattonState) -> list[str]:
    return [casualties_id(rules, s, parts) for parts in battle_mod.casualty_options(s, *battle_mod.attacker_losses(s))]


def casualties_id(rules: PattonRules, s: PattonState, parts: tuple[tuple[int, int, int], ...]) -> str:
    """The id of a casualty option (stack index, armor, infantry): each stack named by where it came from."""
    return rules.table(s.board).casualties_id(
        [Casualty(battle_mod.source_name(s, s.stacks[k].source), a, i) for k, a, i in parts]
    )


def _tie(rules: PattonRules, s: PattonState) -> list[str]:
    return ["retreat", "stand"]


def _retreats(rules: PattonRules, s: PattonState) -> list[str]:
    return retreat.legal_retreats(s, rules.table(s.board))


def _reserve_ask(rules: PattonRules, s: PattonState) -> list[str]:
    return ["roll reserves", "wait"]


def _reserve_towns(rules: PattonRules, s: PattonState) -> list[str]:
    ids = rules.table(s.board).reserve_id
    return [ids[t] for t in sequence.reserve_towns(s)]


def _defections(rules: PattonRules, s: PattonState) -> list[str]:
    towns, kind = sequence.defection_choices(s)
    ids = rules.table(s.board).defect_id
    return [ids[t][kind] for t in towns]


def _excess(rules: PattonRules, s: PattonState) -> list[str]:
    tab, town = rules.table(s.board), s.stacking_queue[0]
    return [tab.action(REMOVE, town, a, i).id for a, i in sequence.excess_choices(s)]


def _placements(rules: PattonRules, s: PattonState) -> list[str]:
    return placement.legal_placements(s, rules.table(s.board))


def _nothing(rules: PattonRules, s: PattonState) -> list[str]:
    return []


# -- carrying out a choice ---------------------------------------------------------------------------
def _end_moves(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    if events.on:
        battles = ", ".join(s.board.towns[t].name for t in movement.pending_targets(s)) or "none"
        events.emit(
            "end_moves",
            f"{s.board.side_names[s.mover]} moves complete ({s.mp} MP unused); battles: {battles}.",
            "Patton: Battles",
        )
    s.frozen_a = [0] * s.board.n
    s.frozen_i = [0] * s.board.n
    s.phase = BATTLE_ORDER


def _move(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    first = s.road_used_at == 0
    emptied = movement.apply_move(s, act.where, act.armor, act.infantry, events)
    if s.mover == 1 and s.board.relieve >= 0 and (first or emptied):
        # A German move can open the relief path only by leaving its town empty: the town it enters or stops
        # outside only closes one more. So after the turn's first move (which sees whatever the Allied turn
        # changed) the path is looked for again only when a town was left (the same answer, less searching).
        update_relief(s, events)


def _land(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    movement.apply_land(s, act.where, act.armor, act.infantry, events)


def _battle(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    battle_mod.start_battle(s, act.where, events)


def _take_casualties(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    wanted = act.id
    for parts in battle_mod.casualty_options(s, *battle_mod.attacker_losses(s)):
        if casualties_id(rules, s, parts) == wanted:
            battle_mod.apply_casualties(s, parts, events)
            return


def _tie_decision(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    battle_mod.tie_decision(s, act.kind == TIE_RETREAT, events)


def _retreat(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    retreat.apply_retreat(s, act.where, act.armor, act.infantry, events)


def _roll_reserves(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    s.phase = RESERVE_DICE


def _wait(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    if events.on:
        events.emit(
            "reserves_wait",
            f"The {s.board.side_names[s.mover]} wait before throwing for reserves.",
            sequence.reserves_rule(s),
        )
    s.phase = AFTER_RESERVES


def _reserves(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    sequence.place_reserves(s, act.where, events)


def _defect(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    sequence.defect(s, act.where, act.armor, events)


def _remove(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    sequence.remove_excess(s, act.armor, act.infantry, events)


def _place(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    placement.apply_place(s, act.where, act.armor, act.infantry, events)


def _place_default(rules: PattonRules, s: PattonState, act: Action, events: Events) -> None:
    placement.apply_place_default(s, events)


Do = Callable[[PattonRules, PattonState, Action, Events], None]
DO: dict[Kind, Do] = {
    END: _end_moves,
    MOVE: _move,
    LAND: _land,
    BATTLE: _battle,
    CASUALTIES: _take_casualties,
    TIE_RETREAT: _tie_decision,
    STAND: _tie_decision,
    RETREAT: _retreat,
    ROLL: _roll_reserves,
    WAIT: _wait,
    RESERVE: _reserves,
    DEFECT: _defect,
    REMOVE: _remove,
    PLACE: _place,
    PLACE_DEFAULT: _place_default,
}
"""What each kind of action does (a legal action's kind always has its handler here)."""
if set(DO) != set(Kind):
    raise RuntimeError("every kind of action needs its handler in DO")


# -- the steps the rules take on their own (True: the position moved on) ------------------------------
_forced = PattonRules.forced_choice
"""The step of a phase with choices: the only legal one is taken."""


def _placing(rules: PattonRules, s: PattonState, events: Events) -> bool:
    """The side placing has placed all: the other places, or (both done) the first turn begins."""
    if sum(s.placing[s.actor]):
        return rules.forced_choice(s, events)
    waiting = [side for side in (0, 1) if sum(s.placing[side])]
    if waiting:
        s.actor = waiting[0]
    else:
        update_relief(s, events)
        s.phase = START_TURN
    return True


def _last_card(rules: PattonRules, s: PattonState, events: Events) -> bool:
    """One kind of card left unseen: it is turned up without a draw."""
    outcomes = sequence.card_outcomes(s)
    if len(outcomes) != 1:
        return False
    sequence.apply_card(s, outcomes[0][0], events)
    return True


def _next_battle(rules: PattonRules, s: PattonState, events: Events) -> bool:
    """No battle left: the turn ends; one: it is fought; more: the mover chooses (Patton: Battles)."""
    targets = movement.pending_targets(s)
    if not targets:
        s.phase = Phase.END_TURN
    elif len(targets) == 1:
        battle_mod.start_battle(s, targets[0], events)
    else:
        s.actor = s.mover
        return False
    return True


def _retreat_step(rules: PattonRules, s: PattonState, events: Events) -> bool:
    """No road or Unit left: the retreat ends (the rest surrender); one choice: it is taken."""
    tab = rules.table(s.board)
    legal = retreat.legal_retreats(s, tab)
    if not legal:
        retreat.finish(s, events)
    elif len(legal) == 1:
        act = tab.parse(legal[0])
        assert act is not None
        retreat.apply_retreat(s, act.where, act.armor, act.infantry, events)
    else:
        s.legal = tuple(legal)
        return False
    return True


def _start_turn(rules: PattonRules, s: PattonState, events: Events) -> bool:
    sequence.start_turn(s, events)
    return True


def _end_turn(rules: PattonRules, s: PattonState, events: Events) -> bool:
    sequence.start_reserves(s, events)
    return True


def _after_reserves(rules: PattonRules, s: PattonState, events: Events) -> bool:
    sequence.start_defection(s, events)
    return True


def _after_defection(rules: PattonRules, s: PattonState, events: Events) -> bool:
    sequence.start_stacking(s)
    return True


def _after_stacking(rules: PattonRules, s: PattonState, events: Events) -> bool:
    sequence.finish_turn(s, events)
    return True


def _battle_die(s: PattonState, outcome: int, events: Events) -> None:
    _check_die(outcome)
    battle_mod.roll(s, outcome, events)


def _reserve_die(s: PattonState, outcome: int, events: Events) -> None:
    _check_die(outcome)
    sequence.reserve_die(s, outcome, events)


def _check_die(outcome: int) -> None:
    if not 1 <= outcome <= 6:
        raise IllegalActionError(f"a die shows 1 to 6, not {outcome}")


def _card(s: PattonState, value: int, events: Events) -> None:
    if not (0 <= value < len(s.pool)) or not s.pool[value]:
        left = sorted({v for v, _ in sequence.card_outcomes(s)})
        raise IllegalActionError(f"no card {value} is left to turn up; left: {left}")
    sequence.apply_card(s, value, events)


def _d6(s: PattonState) -> tuple[tuple[int, float], ...]:
    return D6


@dataclass(frozen=True, slots=True)
class PhaseRule:
    """What a phase asks and how the rules carry it out: `choices` a side's legal actions (a decision),
    `outcomes` and `roll` a chance node's card or die, `step` what the rules do on their own there
    (True: the position moved on; False: a side or the dice must answer first)."""

    phase: Phase
    choices: Callable[[PattonRules, PattonState], list[str]] = _nothing
    outcomes: Callable[[PattonState], tuple[tuple[int, float], ...]] | None = None
    roll: Callable[[PattonState, int, Events], None] | None = None
    step: Callable[[PattonRules, PattonState, Events], bool] | None = None


SEQUENCE_OF_PLAY: tuple[PhaseRule, ...] = (
    # before the first turn: the Starting Forces (each scenario's default setup, or placed by hand)
    PhaseRule(Phase.PLACING, choices=_placements, step=_placing),
    # The Movement Deck: a card turned up, plus the opponent's face-up card, gives the Movement Points
    PhaseRule(Phase.CARD, outcomes=sequence.card_outcomes, roll=_card, step=_last_card),
    # Using Movement Points: moves, attacks (stopping outside enemy towns) and landings, then `end`
    PhaseRule(Phase.MOVING, choices=_moves, step=_forced),
    # Battles: the mover picks which attacked town is fought for next
    PhaseRule(Phase.BATTLE_ORDER, choices=_battles, step=_next_battle),
    # Battles: the attacker's dice, then the defender's, one die at a time
    PhaseRule(Phase.DICE, outcomes=_d6, roll=_battle_die),
    # Casualties: the attacker chooses which stacks lose the Units his enemy's dice took
    PhaseRule(Phase.CASUALTY, choices=_casualties, step=_forced),
    # Retreating: a tie, each side in turn may retreat voluntarily or stand (a refight)
    PhaseRule(Phase.TIE, choices=_tie),
    # Retreating: the loser's Units leave, road by road, up to 5; the rest surrender
    PhaseRule(Phase.RETREATING, choices=_retreats, step=_retreat_step),
    # <scenario> — Reserves: throw for them now, or wait
    PhaseRule(Phase.RESERVE_ASK, choices=_reserve_ask),
    PhaseRule(Phase.RESERVE_DICE, outcomes=_d6, roll=_reserve_die),
    PhaseRule(Phase.RESERVE_PLACE, choices=_reserve_towns, step=_forced),
    # Sicily — Italian Defection: the Axis removes the defecting Units
    PhaseRule(Phase.DEFECTION, choices=_defections, step=_forced),
    # Positioning of Units: more than 10 Units in a town once the turn is complete
    PhaseRule(Phase.STACKING, choices=_excess, step=_forced),
    PhaseRule(Phase.OVER),
    # the steps between: the turn begins (the Game Ends card, the next card), the battles are over
    # (reserves), then defection, stacking, and the objectives before the next player's turn
    PhaseRule(Phase.START_TURN, step=_start_turn),
    PhaseRule(Phase.END_TURN, step=_end_turn),
    PhaseRule(Phase.AFTER_RESERVES, step=_after_reserves),
    PhaseRule(Phase.AFTER_DEFECTION, step=_after_defection),
    PhaseRule(Phase.AFTER_STACKING, step=_after_stacking),
)
"""Every phase, in the order of `Phase` (checked below): a turn read top to bottom, as the rulebook tells it."""
if [rule.phase for rule in SEQUENCE_OF_PLAY] != list(Phase):
    raise RuntimeError("SEQUENCE_OF_PLAY must list every Phase in order")
if {rule.phase for rule in SEQUENCE_OF_PLAY if rule.roll is not None} != CHANCE_PHASES:
    raise RuntimeError("the chance phases of SEQUENCE_OF_PLAY must be state.CHANCE_PHASES")

# SEQUENCE_OF_PLAY's columns as tuples indexed by phase, for the hot path (every decision reads them)
_CHOICES = tuple(rule.choices for rule in SEQUENCE_OF_PLAY)
_OUTCOMES = tuple(rule.outcomes for rule in SEQUENCE_OF_PLAY)
_ROLLS = tuple(rule.roll for rule in SEQUENCE_OF_PLAY)
_STEPS = tuple(rule.step for rule in SEQUENCE_OF_PLAY)
_ACTOR: tuple[str | None, ...] = tuple(
    None if rule.phase == OVER else CHANCE if rule.phase in CHANCE_PHASES else "" for rule in SEQUENCE_OF_PLAY
)
"""Who acts by phase where the phase alone says it (None: the game is over; CHANCE); "": the side `actor`."""
