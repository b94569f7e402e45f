"""Operation Dragoon 1944: the Ruleset. Allied decisions, the German BOT as chance nodes.

This module holds the contract, the action ids and the Sequence of Play (`SEQUENCE_OF_PLAY`, at the
end: each phase with who acts and the handler that carries it out); the Allied phases' handlers and the
moves between phases live in phases.py, the attacks, the German movement and the BOT chart in attacks.py,
movement.py and bot.py. Rule citations name the rulebook's
sections (it has no numbers): "Dragoon: <section>". The helpers report what happens to an event
sink (warroom.engine.events); `apply(..., log=False)` hands them the silent one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from warroom.engine.errors import IllegalActionError, UnknownScenarioError
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import attacks, bot, phases
from .actions import ACCEPT, ACTIVATE, ATTACK, END, FFI, INVADE, REROLL_ID, Action
from .advance import advance_restriction
from .board import Board, load_board
from .options import option_specs, parse_options
from .position import state_from_json, state_to_json
from .sections import VICTORY
from .state import (
    ARRIVAL_BOX,
    IN_BOX,
    PHASE_NAMES,
    DragoonState,
    Phase,
)

ALLIED, GERMAN = "Allied", "German"
D6 = tuple((face, 1 / 6) for face in range(1, 7))
"""One shared, immutable d6: the dice source checks once that its faces are equally likely."""
FFI_CHOICE = (REROLL_ID, ACCEPT)
"""The decision after a roll an FFI marker may re-roll (FFI)."""
END_ONLY = (END,)
"""The Allied actions with no RP left: only ending them."""


class DragoonRules:
    """The Ruleset for Operation Dragoon 1944 (solitaire: the Allied player against the BOT)."""

    info: ClassVar[GameInfo] = GameInfo(
        id="dragoon", title="Operation Dragoon 1944", scenarios=("campaign",), sides=(ALLIED,)
    )

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()
        self._build_tables()

    # -- action ids and route lookups, built once ---------------------------------------------------
    def _build_tables(self) -> None:
        b = self.board
        names = [loc.id for loc in b.locations]
        self.invade_id = [Action(INVADE, u.id, target=names[b.routes[i][0]]).id for i, u in enumerate(b.allied)]
        self.activate_id = [Action(ACTIVATE, u.id).id for u in b.allied]
        self.ffi_id = [Action(FFI, u.id).id for u in b.allied]
        # per Allied unit: its route, then the place it may attack but never enter (Montelimar), if any
        self.route_stops: list[tuple[int, ...]] = []
        # per Allied unit, per route position + 1 (0: still in its box): the location it attacks next (-1: none)
        self.next_stop: list[tuple[int, ...]] = []
        # per Allied unit and route position: the ids of its attack from there, plain and with Air ("" where none)
        self.attack_id: list[list[tuple[str, str]]] = []
        for i, unit in enumerate(b.allied):
            route = b.routes[i]
            stops = (*route, *([b.attack_only[i]] if b.attack_only[i] >= 0 else []))
            self.route_stops.append(stops)
            self.next_stop.append((route[0], *(stops[p + 1] if p + 1 < len(stops) else -1 for p in range(len(route)))))
            ids = []
            for p in range(len(route)):
                if p + 1 < len(stops):
                    plain = Action(ATTACK, unit.id, names[stops[p]], names[stops[p + 1]])
                    ids.append((plain.id, Action(ATTACK, unit.id, plain.origin, plain.target, air=True).id))
                else:
                    ids.append(("", ""))
            self.attack_id.append(ids)
        # per location: the (Allied unit, route position) pairs that stand there (`allied_at`), and those
        # that attack it next (`facing`), by unit; the box (IN_BOX) is neither
        self.stands_at: dict[int, tuple[tuple[int, int], ...]] = {}
        self.facing: dict[int, tuple[tuple[int, int], ...]] = {}
        for i, route in enumerate(b.routes):
            for p, loc in enumerate(route):
                self.stands_at[loc] = (*self.stands_at.get(loc, ()), (i, p))
                target = self.next_stop[i][p + 1]
                if target >= 0:
                    self.facing[target] = (*self.facing.get(target, ()), (i, p))
        self.landings: dict[int, tuple[int, ...]] = {}
        """Per turn, the Allied units that land on it (French landings), in unit order."""
        for i, turn in enumerate(b.landing_turn):
            if turn is not None:
                self.landings[turn] = (*self.landings.get(turn, ()), i)
        known = [END, REROLL_ID, ACCEPT, *self.invade_id, *self.activate_id, *self.ffi_id]
        known += [text for ids in self.attack_id for pair in ids for text in pair if text]
        self.actions: dict[str, Action] = {text: Action.from_id(text) for text in known}
        """Every action id this board can offer, read once (`action_of`)."""

    def action_of(self, action: str) -> Action | None:
        """The Action an id names, if this board ever offers it (None: not a Dragoon action here)."""
        return self.actions.get(action)

    def unit_of(self, action: Action) -> int:
        """The index of the Allied unit an action names."""
        return self.board.allied_index[action.unit]

    # -- the contract ---------------------------------------------------------------------------
    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> DragoonState:
        if scenario not in (None, "campaign"):
            raise UnknownScenarioError(f"Operation Dragoon has one scenario, 'campaign', not {scenario!r}")
        b = self.board
        s = DragoonState()
        s.options = parse_options(options)  # an unknown option or reading is refused, naming the choices
        s.turn = b.first_turn
        n_allied = len(b.allied)
        s.allied_pos = [IN_BOX] * n_allied
        s.stalled, s.ffi, s.spent = [False] * n_allied, [False] * n_allied, [False] * n_allied
        s.german_loc = [b.loc_index[g.start] if g.start else ARRIVAL_BOX for g in b.german]
        s.desperate = [g.desperate_at_start for g in b.german]  # 11th PzD at start: rulebook Desperate Defense
        s.control = [False] * len(b.locations)
        phases.start_turn(self, s, SILENT)
        return s

    def to_act(self, s: DragoonState) -> str | None:
        return _ACTORS[s.phase]

    def chance_outcomes(self, s: DragoonState) -> tuple[tuple[int, float], ...]:
        if SEQUENCE_OF_PLAY[s.phase].roll is None:
            raise IllegalActionError("no die roll is pending")
        return D6

    def die_sides(self, s: DragoonState) -> int:
        return 6

    def legal_actions(self, s: DragoonState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = _CHOICES[s.phase](self, s)
        return list(legal)

    def allied_choices(self, s: DragoonState) -> tuple[str, ...]:
        """The Allied Actions phase's choices, in a fixed order: per unit invade, activate or attack (with
        Air where it may), FFI; then end (Using Action Charts: every action costs 1 RP)."""
        if s.rp <= 0:
            return END_ONLY
        out: list[str] = []
        append = out.append
        air_ok = not s.air_used and not s.air_grounded
        german_loc, next_stop, attack_id = s.german_loc, self.next_stop, self.attack_id
        stalled, spent, ffi, landing = s.stalled, s.spent, s.ffi, self.board.landing_turn
        for i, p in enumerate(s.allied_pos):
            if p == IN_BOX:
                if landing[i] is None:
                    append(self.invade_id[i])
                continue
            if stalled[i]:
                append(self.activate_id[i])
            elif not spent[i]:
                target = next_stop[i][p + 1]
                if target >= 0:
                    if target in german_loc:
                        plain, air = attack_id[i][p]
                        append(plain)
                        if air_ok:
                            append(air)
                    elif advance_restriction(self, s, i, target) is None and not self.allied_at(s, target):
                        # may_advance_into, whose German test was just made
                        append(attack_id[i][p][0])
            if not ffi[i]:
                append(self.ffi_id[i])
        out.append(END)
        return tuple(out)

    def apply(self, s: DragoonState, action: str, log: bool = True) -> list[Event]:
        legal = s.legal
        if legal is None:
            legal = _CHOICES[s.phase](self, s)
        if action not in legal:
            s.legal = legal
            raise IllegalActionError(self._why_illegal(s, action))
        s.legal = None
        events = Events() if log else SILENT
        _DECIDERS[s.phase](self, s, self.actions[action], events)  # a phase with choices has a decider
        return events.items if log else []

    def apply_chance(self, s: DragoonState, roll: int, log: bool = True) -> list[Event]:
        handler = _ROLLERS[s.phase]
        if handler is None:
            raise IllegalActionError("no die roll is pending")
        if not 1 <= roll <= 6:
            raise IllegalActionError(f"a d6 shows 1 to 6, not {roll}")
        s.legal = None
        events = Events() if log else SILENT
        handler(self, s, roll, events)
        return events.items if log else []

    def result(self, s: DragoonState) -> Result | None:
        if s.phase != Phase.OVER:
            return None
        vp, parts = self.victory_points(s)
        b = self.board
        ports = [loc for loc in (b.marseilles, b.toulon) if loc >= 0]
        score = {"VP": vp, "breakdown": parts}
        # the one seat's return (win_returns): +1 Allied victory, 0 the 7 VP draw, -1 German victory
        if not any(s.control[loc] for loc in ports):
            winner, reason = GERMAN, "Neither Marseilles nor Toulon is Allied-controlled: automatic German victory."
        elif vp <= 6:
            winner, reason = GERMAN, f"{vp} VP: 6 VP or less is a German victory."
        elif vp == 7:
            winner, reason = None, "7 VP: a draw, the historical result."
        else:
            winner, reason = ALLIED, f"{vp} VP: 8 VP or more is an Allied victory."
        return Result(winner, score, reason, VICTORY, win_returns(self.info, winner))

    def victory_points(self, s: DragoonState) -> tuple[int, dict[str, int]]:
        """VP as the rulebook counts them: ports and Cannes held, plus German units eliminated."""
        b = self.board
        parts: dict[str, int] = {}
        for loc, vp in enumerate(b.vp):
            if vp and s.control[loc]:
                parts[b.locations[loc].name] = vp
        if s.eliminated:
            parts["German units eliminated"] = len(s.eliminated)
        return sum(parts.values()), parts

    def observation(self, s: DragoonState, side: str | None = None) -> dict[str, Any]:
        """The whole position, for every side: nothing in Dragoon's state is hidden (NOTES.md, Observations).

        Solitaire against a BOT whose charts are rolled in the open; every counter is face up. The one
        thing a player may not know, the dice to come, is not in the state (the match's seeded dice),
        so the spec declares no hidden field and needs no determinize."""
        return state_to_json(self.board, s)

    def state_to_json(self, s: DragoonState) -> dict[str, Any]:
        return state_to_json(self.board, s)

    def state_from_json(self, data: Any) -> DragoonState:
        return state_from_json(self.board, data)

    def clone(self, s: DragoonState) -> DragoonState:
        return s.clone()

    def turn_and_phase(self, s: DragoonState) -> tuple[int, str]:
        return s.turn, PHASE_NAMES[s.phase]

    # -- queries the AI, odds and front ends share -------------------------------------------
    def allied_location(self, s: DragoonState, i: int) -> int:
        p = s.allied_pos[i]
        return self.board.routes[i][p] if p >= 0 else -1

    def target_of(self, s: DragoonState, i: int) -> int:
        """The location Allied unit i would attack next (-1: none); from its box, its first location."""
        return self.next_stop[i][s.allied_pos[i] + 1]

    def allied_at(self, s: DragoonState, loc: int) -> bool:
        """Whether an Allied unit stands in `loc` (only the units whose route passes there are asked)."""
        pos = s.allied_pos
        for i, p in self.stands_at.get(loc, ()):  # noqa: SIM110 - a loop: any() over a generator costs more here
            if pos[i] == p:
                return True
        return False

    def germans_at(self, s: DragoonState, loc: int) -> list[int]:
        return [g for g, where in enumerate(s.german_loc) if where == loc]

    def top_unit(self, s: DragoonState, loc: int) -> int:
        """The unit an Allied attack on `loc` hits (-1: empty): only the top of a stack (11th PzD Special Rules)."""
        here = self.germans_at(s, loc)
        if not here:
            return -1
        if len(here) == 1:
            return here[0]
        panzer = self.board.panzer
        others = [g for g in here if g != panzer]
        # the desperate PzD is placed on top; once defeated it goes under the infantry
        return panzer if panzer in here and s.desperate[panzer] else others[0]

    def attack_drm(self, s: DragoonState, target: int, defender: int, air: bool) -> int:
        b = self.board
        drm = b.fortress_drm if b.fortress[target] else 0  # fortress -1 (Resolving Unit Attacks)
        if s.desperate[defender]:
            drm += b.desperate_drm[defender]  # cumulative with fortress (Desperate Defense)
        if air:
            drm += b.air_drm
        return drm

    def option_specs(self) -> tuple[dict[str, Any], ...]:
        """The rules options described for a front end (the contested readings; see options.py and NOTES.md)."""
        return option_specs()

    def bot_target(self, s: DragoonState, g: int) -> int:
        """The Allied unit German unit g would counterattack (-1: none it may attack)."""
        return bot.bot_target(self, s, g)

    def describe_action(self, s: DragoonState, action: str) -> str:
        from .labels import describe

        return describe(self, s, action)

    def action_odds(self, s: DragoonState, action: str) -> dict[str, Any] | None:
        """Exact odds of an action that involves a die, for a player about to commit (None: no die)."""
        from .odds import action_odds

        return action_odds(self, s, action)

    def _why_illegal(self, s: DragoonState, action: str) -> str:
        from .labels import why_illegal

        return why_illegal(self, s, action)

    # -- the moves between phases other modules hand on to (phases.py carries them out) ----------------
    def after_action(self, s: DragoonState, events: Events) -> None:
        """An Allied action is done: the next, or the end of the actions when every RP is spent."""
        phases.after_action(self, s, events)

    def turn_end(self, s: DragoonState, events: Events) -> None:
        """Turn End: the game ends after 29 August; else the turn marker advances and the Air returns."""
        phases.turn_end(self, s, events)


def _no_choices(rules: DragoonRules, s: DragoonState) -> tuple[str, ...]:
    return ()


def _ffi_choice(rules: DragoonRules, s: DragoonState) -> tuple[str, ...]:
    return FFI_CHOICE


def _no_decision(rules: DragoonRules, s: DragoonState, act: Action, events: Events) -> None:
    raise IllegalActionError("no decision is pending")  # never reached: such a phase has no choices


@dataclass(frozen=True, slots=True)
class Step:
    """One phase of the Sequence of Play: who acts, and the handler that carries it out.

    A die phase has `roll(rules, state, roll, events)`; a decision phase has `choices(rules, state)`
    (the legal action ids) and `decide(rules, state, action, events)`."""

    phase: Phase
    actor: str | None
    """CHANCE for a die, ALLIED for a decision, None once the game is over."""
    roll: Callable[[DragoonRules, DragoonState, int, Events], None] | None = None
    decide: Callable[[DragoonRules, DragoonState, Action, Events], None] | None = None
    choices: Callable[[DragoonRules, DragoonState], tuple[str, ...]] = _no_choices


SEQUENCE_OF_PLAY: tuple[Step, ...] = (
    # Allied RPs: the RP chart (designated RP on some turns, a roll on the others)
    Step(Phase.RP_ROLL, CHANCE, roll=phases.roll_rp),
    # Allied Actions: invade, attack, activate, FFI, until the RP are spent or the player ends
    Step(Phase.ACTIONS, ALLIED, decide=phases.take_action, choices=DragoonRules.allied_choices),
    Step(Phase.ATTACK_ROLL, CHANCE, roll=attacks.resolve_attack_roll),  # an attack's die (Resolving Unit Attacks)
    Step(Phase.ATTACK_REROLL, ALLIED, decide=phases.attack_reroll, choices=_ffi_choice),  # its FFI re-roll?
    # German Movement: carried out as the Allied actions end (phases.end_actions)
    # German BOT Actions: the BOT chart's line, then each counterattack it orders
    Step(Phase.BOT_ROLL, CHANCE, roll=bot.bot_action),
    Step(Phase.BOT_ATTACK_ROLL, CHANCE, roll=bot.resolve_bot_roll),
    Step(Phase.BOT_REROLL, ALLIED, decide=phases.bot_reroll, choices=_ffi_choice),  # the defender's FFI re-roll?
    # Turn End: carried out when the BOT's counterattacks are done (phases.turn_end)
    Step(Phase.OVER, None),
)
"""The turn as the rulebook's Sequence of Play Each Turn lists it, one entry per `Phase`, in its order."""
if [step.phase for step in SEQUENCE_OF_PLAY] != list(Phase):
    raise RuntimeError("SEQUENCE_OF_PLAY must list every Phase in order")
_ACTORS = tuple(step.actor for step in SEQUENCE_OF_PLAY)
"""Who acts in each phase, by phase (`to_act`, asked at every step of every search)."""
_CHOICES = tuple(step.choices for step in SEQUENCE_OF_PLAY)
_DECIDERS = tuple(step.decide or _no_decision for step in SEQUENCE_OF_PLAY)
_ROLLERS = tuple(step.roll for step in SEQUENCE_OF_PLAY)
"""The handlers by phase, read from SEQUENCE_OF_PLAY once: the hot path indexes a tuple."""
