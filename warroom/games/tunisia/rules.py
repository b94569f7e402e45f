"""Patton's First Victory: Tunisia — the Ruleset: who acts, what is legal, and what each decision and die
does, tying the modules of the rules together (7.0's sequence is declared in sequence.py): the legal choices of
each step are choices.py's, what each decision does decisions.py's, each die's handler is named here (`_ROLLS`),
and the player-turn after its battles and the turn's end are player_turn.py's.

Rule citations are the rulebook's section numbers ("8.3", "14.2C"). Helpers report to an event sink
(warroom.engine.events): `apply(..., log=False)` hands them the silent one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warroom.engine.errors import GameOverError, IllegalActionError, UnknownScenarioError, quoted
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import arrivals, battle, choices, player_turn
from .actions import (
    ADVANCE,
    AIR,
    ATTACK,
    BASE,
    END,
    LOSS,
    MOVE,
    NO_ADVANCE,
    NO_AIR,
    PLACE,
    REBUILD,
    REPLACE,
    RETREAT,
    Action,
)
from .board import Board, load_board
from .catalog import ALLIED, AXIS, SIDE_NAMES, Catalog
from .choices import legal_choices
from .decisions import decide
from .options import parse_options
from .player_turn import settle
from .position import screen_events
from .sequence import ACTOR, DICE, NOBODY, OTHER, PHASE_NAMES, PHASING, RULE_OF
from .setup import SETUP_RULE, default_setup, free_setup, setup_options
from .stacking import occupants, unit_at
from .state import Phase, TunisiaState
from .victory import allied_ports

D12 = tuple((face, 1 / 12) for face in range(1, 13))
"""One shared d12 (10.2, 11.2, 12.1, 16.0A, 17.0A)."""
D6 = tuple((face, 1 / 6) for face in range(1, 7))
"""One shared d6: the Axis port roll (7.7C)."""
SCENARIO = "campaign"


class TunisiaRules:
    """The Ruleset for Patton's First Victory: Tunisia (two players: Axis and Allied)."""

    info = GameInfo(id="tunisia", title="Patton's First Victory: Tunisia", scenarios=(SCENARIO,), sides=SIDE_NAMES)

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()
        self.cat = Catalog(self.board)
        self.labels = self.board.grid.labels
        self.last_turn = self.board.counters.game.turns
        self.patton_turn = self.board.counters.game.patton_forced_arrival_turn
        self.first_recall_turn = self.last_turn - self.board.counters.game.rommel_recall_turns + 1
        self.eighth_army_hexes = frozenset(self.board.eighth_army | {self.board.airbase})
        cat = self.cat
        # the units that never come back once eliminated (7.7E): all but the generic battlegroup counters
        self.ordinary_units = tuple(p for p in range(cat.n) if cat.is_unit[p] and not cat.is_battlegroup[p])

    # -- the contract ------------------------------------------------------------------------------
    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> TunisiaState:
        if scenario not in (None, SCENARIO):
            raise UnknownScenarioError(f"Tunisia has one scenario, {SCENARIO!r}, not {scenario!r}")
        choice = parse_options(options)
        s = default_setup(self.cat)
        s.free_setup = (choice["axis_setup"] == "free", choice["allied_setup"] == "free")
        if s.free_setup[AXIS]:  # 5.2A: the Axis sets up after the Allies: nothing of it on the map before
            free_setup(self.cat, s, AXIS)
        if s.free_setup[ALLIED]:  # 5.2A: the Allies set up first
            self.begin_setup(s, ALLIED)
        elif s.free_setup[AXIS]:
            self.begin_setup(s, AXIS)
        else:
            self.start_player_turn(s, SILENT)
        return s

    def begin_setup(self, s: TunisiaState, side: int) -> None:
        """5.1-5.2: `side` takes its pieces off their default hexes and places them one by one."""
        s.player = side
        s.placing = free_setup(self.cat, s, side)
        s.phase = Phase.SETUP

    def place_in_setup(self, s: TunisiaState, piece: int, hex_: int, events: Events) -> None:
        s.loc[piece] = hex_
        s.placing = s.placing[1:]
        if events.on:
            events.emit("setup", f"{self.cat.name[piece]} sets up in {self.labels[hex_]}.", SETUP_RULE[s.player])
        while s.placing and not setup_options(self.cat, s, s.placing[0]):  # never on this map; a safeguard
            if events.on:
                events.emit(
                    "setup",
                    f"{self.cat.name[s.placing[0]]} finds no hex to set up in and stays out.",
                    SETUP_RULE[s.player],
                )
            s.placing = s.placing[1:]
        if s.placing:
            return
        if s.player == ALLIED and s.free_setup[AXIS]:
            self.begin_setup(s, AXIS)
            return
        s.player = AXIS  # 7.0: the Axis moves first
        self.start_player_turn(s, events)

    def to_act(self, s: TunisiaState) -> str | None:
        role = ACTOR[s.phase]
        if role == PHASING:
            return SIDE_NAMES[s.player]
        if role == OTHER:
            return SIDE_NAMES[1 - s.player]
        if role == DICE:
            return CHANCE
        if role == NOBODY:
            return None
        return SIDE_NAMES[ALLIED]

    def chance_outcomes(self, s: TunisiaState) -> tuple[tuple[int, float], ...]:
        if ACTOR[s.phase] != DICE:
            raise IllegalActionError(f"no die roll is pending: it is the {PHASE_NAMES[s.phase]}")
        return D6 if s.phase == Phase.REPLACEMENT_ROLL else D12

    def die_sides(self, s: TunisiaState) -> int:
        return 6 if s.phase == Phase.REPLACEMENT_ROLL else 12

    def legal_actions(self, s: TunisiaState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = legal_choices(self, s)
        return list(legal)

    def apply(self, s: TunisiaState, action: str, log: bool = True) -> list[Event]:
        legal = s.legal
        if legal is None:
            legal = s.legal = legal_choices(self, s)
        if action not in legal:
            raise IllegalActionError(self.why_illegal(s, action))
        events = Events() if log else SILENT
        s.legal = None
        decide(self, s, Action.from_id(action), events)
        settle(self, s, events)
        return screen_events(self, s, events.items) if log else []

    def apply_chance(self, s: TunisiaState, outcome: int, log: bool = True) -> list[Event]:
        if ACTOR[s.phase] != DICE:
            raise IllegalActionError(f"no die roll is pending: it is the {PHASE_NAMES[s.phase]}")
        sides = self.die_sides(s)
        if not 1 <= outcome <= sides:
            raise IllegalActionError(f"a d{sides} shows 1 to {sides}, not {outcome}")
        events = Events() if log else SILENT
        s.legal = None
        _ROLLS[s.phase](self, s, outcome, events)
        settle(self, s, events)
        return screen_events(self, s, events.items) if log else []

    def result(self, s: TunisiaState) -> Result | None:
        if s.outcome is None:
            return None
        winner, reason, rule = s.outcome
        name = SIDE_NAMES[winner]
        score = {"turn": s.turn, "allied_ports": allied_ports(self.cat, s)}
        return Result(name, score, reason, rule, win_returns(self.info, name))

    def observation(self, s: TunisiaState, side: str | None = None) -> dict[str, Any]:
        from .position import observation

        return observation(self, s, side)

    def state_to_json(self, s: TunisiaState) -> dict[str, Any]:
        from .position import state_to_json

        return state_to_json(self, s)

    def state_from_json(self, data: dict[str, Any]) -> TunisiaState:
        from .position import state_from_json

        return state_from_json(self, data)

    def clone(self, s: TunisiaState) -> TunisiaState:
        return s.clone()

    def turn_and_phase(self, s: TunisiaState) -> tuple[int, str]:
        if s.phase == Phase.OVER:
            return s.turn, PHASE_NAMES[s.phase]
        return s.turn, f"{SIDE_NAMES[s.player]} {PHASE_NAMES[s.phase]}"

    def describe_action(self, s: TunisiaState, action: str) -> str:
        """A plain-language label for an action id, for menus (names from the counter sheet)."""
        act = Action.from_id(action)
        name = self.cat.name[self.cat.index[act.piece]] if act.piece in self.cat.index else act.piece
        air = f" with {self.cat.name[self.cat.index[act.air]]}" if act.air in self.cat.index else ""
        kind = act.kind
        if kind == MOVE:
            return f"Move {name} from {act.origin} to {act.target}"
        if kind == ATTACK:
            return f"Attack from {act.origin} into {act.target}{self._sides_of_attack(s, act)}{air}"
        if kind == RETREAT:
            return f"Retreat {name} from {act.origin} to {act.target}"
        if kind == ADVANCE:
            return f"Advance from {act.origin} into {act.target}"
        if kind in (BASE, REPLACE, PLACE):
            verb = {BASE: "Return", REPLACE: "Replace", PLACE: "Place"}[kind]
            return f"{verb} {name} {'to' if kind == BASE else 'in'} {act.target}"
        if kind == AIR:
            return f"Fly {name} to the defence"
        if kind == LOSS:
            return f"{name} takes the loss"
        if kind == REBUILD:
            return f"Rebuild {name}"
        return {END: "End this phase", NO_AIR: "No air support", NO_ADVANCE: "Do not advance"}[kind]

    def _sides_of_attack(self, s: TunisiaState, act: Action) -> str:
        """The two sides of an attack, for its label (`: 15th Panzer against 1st Armored`): the one unit of the
        attacker's hex (2.0) and the one of the target's, whom the attacker's unit, adjacent to it, sees (6.0E);
        empty where a hex is not on the map."""
        cat, labels = self.cat, self.board.grid.by_label
        if act.origin not in labels or act.target not in labels:
            return ""
        origin, target = labels[act.origin], labels[act.target]
        here = occupants(s)
        attacker = unit_at(cat, [p for p in here.get(origin, []) if cat.side[p] == s.player])
        if attacker < 0:
            return ""
        defender = unit_at(cat, here.get(target, []))
        against = cat.name[defender] if defender >= 0 else "support assets"
        return f": {cat.name[attacker]} against {against}"

    # -- reading ids ---------------------------------------------------------------------------------
    def piece(self, piece_id: str) -> int:
        return self.cat.index[piece_id]

    def hex(self, label: str) -> int:
        return self.board.grid.by_label[label]

    # -- the legal choices of each step (choices.py) -------------------------------------------------------
    def move_choices(self, s: TunisiaState) -> list[str]:
        """8.0: every move legal now, then `end` when the phase may end (choices.py)."""
        return choices.move_choices(self, s)

    def attack_choices(self, s: TunisiaState, attackers: list[int]) -> list[str]:
        """7.2, 11.1: each of `attackers`' attacks, alone or with one air asset in range (choices.py)."""
        return choices.attack_choices(self, s, attackers)

    # -- the player-turn's steps other modules carry on with (player_turn.py) -----------------------------------
    def start_player_turn(self, s: TunisiaState, events: Events) -> None:
        """7.1: the side's player-turn begins with its Movement Phase (player_turn.py)."""
        player_turn.start_player_turn(self, s, events)

    def start_replacements(self, s: TunisiaState, events: Events) -> None:
        """7.7B-D: the side's replacements (player_turn.py)."""
        player_turn.start_replacements(self, s, events)

    def end_player_turn(self, s: TunisiaState, events: Events) -> None:
        """7.8: the Supply Phase, then the next player-turn or the turn's end (player_turn.py)."""
        player_turn.end_player_turn(self, s, events)

    def next_placement(self, s: TunisiaState, events: Events) -> None:
        """16.0: the arriving pieces placed one by one (player_turn.py)."""
        player_turn.next_placement(self, s, events)

    def after_patton(self, s: TunisiaState, events: Events) -> None:
        """After Patton's roll or arrival: Rommel's recall roll, or the turn's end (player_turn.py)."""
        player_turn.after_patton(self, s, events)

    def after_rommel(self, s: TunisiaState, events: Events) -> None:
        """The turn ends (player_turn.py)."""
        player_turn.after_rommel(self, s, events)

    # -- refusals --------------------------------------------------------------------------------------
    def why_illegal(self, s: TunisiaState, action: str) -> str:
        """Why an id is refused, naming the rule (the state is never changed)."""
        if s.phase == Phase.OVER:
            raise GameOverError(f"{quoted(action)}: the game is over (4.0)")
        act = Action.from_id(action)  # an id of no form says so
        from .refusals import reason

        return reason(self, s, act, action)


_ROLLS: dict[Phase, Callable[[TunisiaRules, TunisiaState, int, Events], None]] = {
    Phase.AIR_ROLL_ATTACKER: battle.roll_air_attacker,
    Phase.AIR_ROLL_DEFENDER: battle.roll_air_defender,
    Phase.ATTACK_ROLL: battle.roll_attack,
    Phase.DEFENSE_ROLL: battle.roll_defense,
    Phase.REPLACEMENT_ROLL: player_turn.roll_replacement,
    Phase.PATTON_ROLL: arrivals.roll_patton,
    Phase.ROMMEL_ROLL: arrivals.roll_rommel,
}
"""The handler of each die (sequence.py's DICE steps)."""
if set(_ROLLS) != {p for p, role in ACTOR.items() if role == DICE}:
    raise RuntimeError("every die step needs its handler")

__all__ = ["D6", "D12", "RULE_OF", "TunisiaRules"]
