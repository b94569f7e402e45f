"""Patton's First Victory: Tunisia — the Ruleset: who acts, what is legal, and what each decision and die
does, tying the modules of the rules together (7.0's sequence is declared in sequence.py).

Rule citations are the rulebook's section numbers ("8.3", "14.2C"). Helpers report to an event sink
(warroom.engine.events): `apply(..., log=False)` hands them the silent one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warroom.engine.errors import GameOverError, IllegalActionError, UnknownScenarioError, quoted
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import arrivals, battle, breakthrough
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
from .air import air_in_range, base_options
from .board import Board, load_board
from .catalog import ALLIED, AXIS, SIDE_NAMES, Catalog
from .combat import targets
from .losses import eliminate, loss_candidates
from .movement import enemy_occupied, moves_of
from .options import parse_options
from .overstack import Closure
from .position import screen_events
from .replacements import axis_ports, base_capacity, rebuild_options, replace_options
from .retreat import retreat_options
from .sequence import ACTOR, DICE, NOBODY, OTHER, PHASE_NAMES, PHASING, RULE_OF
from .setup import SETUP_RULE, default_setup, free_setup, setup_options
from .stacking import occupants, unit_at
from .state import DEAD, REMOVED, RETURN_TO_BASE, Phase, TunisiaState
from .supply import supply_phase
from .victory import allied_ports, end_of_turn, sudden_death
from .zoc import enemy_zoc

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
            legal = s.legal = self._choices(s)
        return list(legal)

    def apply(self, s: TunisiaState, action: str, log: bool = True) -> list[Event]:
        legal = s.legal
        if legal is None:
            legal = s.legal = self._choices(s)
        if action not in legal:
            raise IllegalActionError(self.why_illegal(s, action))
        events = Events() if log else SILENT
        s.legal = None
        self._decide(s, Action.from_id(action), events)
        self._settle(s, events)
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
        self._settle(s, events)
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

    # -- the legal choices of each step ---------------------------------------------------------------
    def _choices(self, s: TunisiaState) -> tuple[str, ...]:
        phase = s.phase
        if phase == Phase.MOVEMENT:
            return tuple(self.move_choices(s))
        if phase == Phase.ATTACK:
            return (*self.attack_choices(s, [p for p in self.cat.by_side[s.player] if not s.attacked[p]]), END)
        if phase == Phase.BREAKTHROUGH:
            return (*breakthrough.choices(self, s), END)
        cat = self.cat
        b = s.battle
        if phase == Phase.DEFENSIVE_AIR:
            assert b is not None
            return (
                *(f"air {cat.ids[p]}" for p in air_in_range(cat, s, 1 - s.player, b.target, defending=True)),
                NO_AIR,
            )
        if phase == Phase.DEFENDER_LOSS:
            assert b is not None
            pieces = (
                loss_candidates(cat, s, b.target, b.defender)
                if b.defender >= 0
                else [p for p, w in enumerate(s.loc) if w == b.target and not cat.is_air[p]]
            )
            return tuple(f"loss {cat.ids[p]}" for p in pieces)
        if phase == Phase.ATTACKER_LOSS:
            assert b is not None
            return tuple(f"loss {cat.ids[p]}" for p in loss_candidates(cat, s, b.origin, b.attacker))
        if phase == Phase.RETREAT:
            assert b is not None
            piece = s.retreating[0]
            frm = self.labels[b.target]
            return tuple(
                f"retreat {cat.ids[piece]} {frm} {self.labels[h]}"
                for h in retreat_options(cat, s, piece, b.target, occupants(s))
            )
        if phase == Phase.ADVANCE:
            assert b is not None
            return f"advance {self.labels[b.origin]} {self.labels[b.target]}", NO_ADVANCE
        if phase in (Phase.RETURN_ATTACKER, Phase.RETURN_DEFENDER):
            occ = occupants(s)  # 7.6A: any returning asset to any free own airfield, in the order the owner wishes
            return tuple(
                f"base {cat.ids[piece]} {self.labels[h]}"
                for piece in self._returning(s)
                for h in base_options(cat, s, piece, occ)
            )
        if phase == Phase.REPLACEMENT:
            out = [f"rebuild {cat.ids[p]}" for p in rebuild_options(cat, s)]
            out += [f"replace {cat.ids[p]} {self.labels[h]}" for p, h in replace_options(cat, s, occupants(s))]
            return (*out, END)
        if phase == Phase.PLACEMENT:
            piece = s.placing[0]
            return tuple(f"place {cat.ids[piece]} {self.labels[h]}" for h in arrivals.placement_options(cat, s, piece))
        if phase == Phase.SETUP:
            piece = s.placing[0]
            return tuple(f"place {cat.ids[piece]} {self.labels[h]}" for h in setup_options(cat, s, piece))
        return ()

    def move_choices(self, s: TunisiaState) -> list[str]:
        """8.0: every piece that may still move, to every hex it can reach and end in; then `end` when the
        phase may end (6.0D: no hex overstacked; overstack.py for the moves into a full hex)."""
        cat = self.cat
        side = s.player
        loc = s.loc
        unit_kind, air_kind = cat.is_unit, cat.is_air
        # 6.0: the friendly hexes a moving unit (one there already), or a moving non-air support asset (two
        # there, three with an air asset), would overstack
        units_at: set[int] = set()
        supports_at: dict[int, int] = {}
        air_at: set[int] = set()
        pieces = []
        moved = s.moved
        doubled = False  # two units in one hex: a Movement Phase's overstack (6.0D)
        for q in cat.by_side[side]:
            h = loc[q]
            if h < 0:
                continue
            if unit_kind[q]:
                if h in units_at:
                    doubled = True
                units_at.add(h)
            else:
                supports_at[h] = supports_at.get(h, 0) + 1
                if air_kind[q]:
                    air_at.add(h)
                    continue
            if not moved[q]:
                pieces.append(q)  # 8.1A-B: not an air asset, not moved yet
        full_for_support = {h for h, n in supports_at.items() if n >= (3 if h in air_at else 2)}
        cache = s.reach
        if any(q not in cache for q in pieces):  # the enemy stands still: computed once a phase per piece
            ezoc, blocked = enemy_zoc(cat, s, side), enemy_occupied(cat, s, side)
        else:
            ezoc = blocked = set()
        movers = [(q, moves_of(cat, s, q, ezoc, blocked)) for q in pieces]
        closure: Closure | None = None
        stakes = (lambda r: cache[r].reach, units_at, full_for_support)
        if doubled or any(n > (3 if h in air_at else 2) for h, n in supports_at.items()):
            closure = Closure(cat, s, *stakes)
        out: list[str] = []
        if closure is None or not closure.over:
            for q, moves in movers:
                full = (units_at if unit_kind[q] else full_for_support) & moves.hexes
                if full:
                    if closure is None:
                        closure = Closure(cat, s, *stakes)
                    full = closure.closed_into_full(q, full)  # 6.0D: open while a chain can mend it
                out.extend(moves.ids_avoiding(full) if full else moves.ids)
            out.append(END)
            return out
        x = closure.over[0]  # 6.0D: the moves that keep x mendable (overstack.py)
        critical = closure.critical_exits()
        for q, moves in movers:
            by_hex = moves.by_hex
            full = units_at if unit_kind[q] else full_for_support
            if loc[q] == x:
                if closure.resolves(q):  # its leaving mends x: any hex it fits in, the full ones checked
                    out.extend([by_hex[d] for d in moves.reach if d not in full or closure.allows(q, d)])
                else:  # a piece of the other kind (a unit, a support asset): x's chains are not its own
                    out.extend(moves.ids_avoiding(full & moves.hexes))
                continue
            hexes = moves.hexes
            closed = full & hexes  # a second hex overstacked
            for d in (*(critical or ()), x):
                if d in hexes and d not in closed and not closure.allows(q, d):
                    closed.add(d)  # it would fill the one hex with room x's chains come to, or crowd x
            out.extend(moves.ids_avoiding(closed) if closed else moves.ids)
        return out

    def attack_choices(self, s: TunisiaState, attackers: list[int]) -> list[str]:
        """7.2, 11.1: each unit that may attack, against each adjacent enemy hex, alone or with one air asset
        in range (7.3A-B)."""
        cat, labels = self.cat, self.labels
        occ = occupants(s)
        out: list[str] = []
        for u in attackers:
            where = s.loc[u]
            if where < 0 or not cat.is_unit[u]:
                continue
            hexes = targets(cat, s, u, occ)
            if not hexes:
                continue
            planes = air_in_range(cat, s, s.player, where)
            for t in hexes:
                base = f"attack {labels[where]} {labels[t]}"
                out.append(base)
                out.extend(f"{base} +air {cat.ids[a]}" for a in planes)
        return out

    def _returning(self, s: TunisiaState) -> list[int]:
        side = s.player if s.phase == Phase.RETURN_ATTACKER else 1 - s.player
        return [p for p in self.cat.by_side[side] if s.loc[p] == RETURN_TO_BASE]

    # -- decisions -------------------------------------------------------------------------------------
    def _decide(self, s: TunisiaState, act: Action, events: Events) -> None:
        phase, kind, cat = s.phase, act.kind, self.cat
        if phase == Phase.MOVEMENT:
            if kind == END:
                if events.on:
                    events.emit("phase", f"{SIDE_NAMES[s.player]} Attack Phase.", "7.2")
                s.phase = Phase.ATTACK
            else:
                self.move(s, self.piece(act.piece), self.hex(act.target), events)
        elif phase in (Phase.ATTACK, Phase.BREAKTHROUGH):
            if kind == END:
                if phase == Phase.BREAKTHROUGH:
                    for p in breakthrough.conducting(self, s, s.breakthrough):
                        s.attacked[p] = True  # 15.0E: no more attacks by its support assets this phase
                    s.breakthrough = -1
                    s.phase = Phase.ATTACK
                else:
                    self.end_attacks(s, events)
            elif kind == MOVE:
                breakthrough.move(self, s, self.hex(act.target), events)
            else:
                origin = self.hex(act.origin)
                unit = next(p for p in cat.by_side[s.player] if s.loc[p] == origin and cat.is_unit[p])
                battle.declare(self, s, unit, self.hex(act.target), self.piece(act.air) if act.air else -1, events)
        elif phase == Phase.DEFENSIVE_AIR:
            battle.defensive_air(self, s, self.piece(act.piece) if kind == AIR else -1, events)
        elif phase == Phase.DEFENDER_LOSS:
            s.phase = Phase.ATTACK
            battle.apply_defender_loss(self, s, self.piece(act.piece), events)
            battle.continue_battle(self, s, events)
        elif phase == Phase.ATTACKER_LOSS:
            s.phase = Phase.ATTACK
            battle.apply_attacker_loss(self, s, self.piece(act.piece), events)
            battle.continue_battle(self, s, events)
        elif phase == Phase.RETREAT:
            s.phase = Phase.ATTACK
            s.retreating = s.retreating[1:]
            battle.retreat_to(self, s, self.piece(act.piece), self.hex(act.target), events)
            battle.next_retreats(self, s, events)
            if not s.retreating:
                battle.continue_battle(self, s, events)
        elif phase == Phase.ADVANCE:
            s.phase = Phase.ATTACK
            if kind == ADVANCE:
                battle.advance(self, s, events)
            battle.continue_battle(self, s, events)
        elif phase in (Phase.RETURN_ATTACKER, Phase.RETURN_DEFENDER):
            self.to_base(s, self.piece(act.piece), self.hex(act.target), events)
            self.next_return(s, events)
        elif phase == Phase.REPLACEMENT:
            self.replacement(s, act, events)
        elif phase == Phase.PLACEMENT:
            arrivals.place(self, s, self.piece(act.piece), self.hex(act.target), events)
            self.next_placement(s, events)
        elif phase == Phase.SETUP:
            self.place_in_setup(s, self.piece(act.piece), self.hex(act.target), events)

    def move(self, s: TunisiaState, piece: int, dest: int, events: Events) -> None:
        """8.1: the piece moves to `dest` along its cheapest legal way, its move complete."""
        cost = s.reach[piece].reach[dest]
        if events.on:
            events.emit(
                "move",
                f"{self.cat.name[piece]} moves from {self.labels[s.loc[piece]]} to {self.labels[dest]} ({cost:g} MP).",
                "8.1",
                piece=self.cat.ids[piece],
            )
        s.mp_spent[piece], s.moved_from[piece] = cost, s.loc[piece]
        s.loc[piece] = dest
        s.moved[piece] = True

    def end_attacks(self, s: TunisiaState, events: Events) -> None:
        """The Attack Phase ends: the Return to Base Phase (7.6)."""
        s.phase = Phase.RETURN_ATTACKER
        self.next_return(s, events)

    def to_base(self, s: TunisiaState, piece: int, hex_: int, events: Events) -> None:
        s.loc[piece] = hex_
        if events.on:
            events.emit(
                "return_to_base", f"{self.cat.name[piece]} returns to the airfield in {self.labels[hex_]}.", "7.6A"
            )

    def next_return(self, s: TunisiaState, events: Events) -> None:
        """7.6: the attacker's air assets first, then the defender's. The owner sends each to a free own
        airfield of his choice, in the order he wishes (7.6A: where fewer fields are free than assets return,
        he chooses which assets take them); one left with no free field is eliminated (7.6B: fields only fill
        up while the assets return, so it never gets one); a single asset with a single field takes it."""
        cat = self.cat
        while True:
            pending = self._returning(s)
            if not pending:
                if s.phase == Phase.RETURN_ATTACKER:
                    s.phase = Phase.RETURN_DEFENDER
                    continue
                self.start_replacements(s, events)
                return
            occ = occupants(s)
            options = {piece: base_options(cat, s, piece, occ) for piece in pending}
            stranded = [piece for piece in pending if not options[piece]]
            for piece in stranded:
                eliminate(cat, s, piece)
                if events.on:
                    events.emit("eliminated", f"{cat.name[piece]} finds no free airfield and is eliminated.", "7.6B")
            if stranded:
                continue
            if len(pending) > 1 or len(options[pending[0]]) > 1:
                return
            self.to_base(s, pending[0], options[pending[0]][0], events)

    def start_replacements(self, s: TunisiaState, events: Events) -> None:
        """7.7B-D: the side's replacements; the Axis rolls for a port replacement when it could matter."""
        cat = self.cat
        s.replacements_left = base_capacity(s, cat)
        if s.player == AXIS and s.replacements_left > 0 and axis_ports(cat, s) > 1:
            s.phase = Phase.REPLACEMENT_ROLL
            return
        self.next_replacement(s, events)

    def roll_replacement(self, s: TunisiaState, roll: int, events: Events) -> None:
        ports = axis_ports(self.cat, s)
        if roll < ports:
            s.replacements_left += 1
        if events.on:
            events.emit(
                "port_roll",
                f"Axis port roll: {roll} against {ports} ports: {s.replacements_left} replacements.",
                "7.7C",
                roll=roll,
            )
        self.next_replacement(s, events)

    def next_replacement(self, s: TunisiaState, events: Events) -> None:
        cat = self.cat
        if s.replacements_left > 0 and (rebuild_options(cat, s) or replace_options(cat, s, occupants(s))):
            s.phase = Phase.REPLACEMENT
            return
        self.end_player_turn(s, events)

    def replacement(self, s: TunisiaState, act: Action, events: Events) -> None:
        """7.7F-I: one rebuild or replacement (7.7J: what is not used is lost)."""
        if act.kind == END:
            self.end_player_turn(s, events)
            return
        piece = self.piece(act.piece)
        if act.kind == REBUILD:
            s.reduced[piece] = False
            text, rule = f"{self.cat.name[piece]} is rebuilt to full strength.", "7.7F"
        else:
            s.loc[piece], s.reduced[piece] = self.hex(act.target), False
            text, rule = f"{self.cat.name[piece]} is replaced in {act.target}.", "7.7G"
        s.replacements_left -= 1
        if events.on:
            events.emit("replacement", text, rule)
        self.next_replacement(s, events)

    def end_player_turn(self, s: TunisiaState, events: Events) -> None:
        """7.8: the Supply Phase, then the next player-turn, or the end of the turn after the Allies'."""
        s.replacements_left = 0
        supply_phase(self.cat, s, events)
        self._settle(s, events)
        if s.outcome is not None:
            return
        if s.player == AXIS:
            s.player = ALLIED
            self.start_player_turn(s, events)
            return
        if not s.patton_arrived:
            if s.turn < self.patton_turn:
                s.phase = Phase.PATTON_ROLL
                return
            if events.on:
                events.emit("patton", f"Turn {s.turn}: Patton arrives whatever the dice.", "16.0B")
            if arrivals.arrive(self, s, events):
                return
        self.after_patton(s, events)

    def next_placement(self, s: TunisiaState, events: Events) -> None:
        """16.0: place the arriving pieces one by one; a swapped eliminated piece no village can take is lost."""
        cat = self.cat
        while s.placing:
            piece = s.placing[0]
            options = arrivals.placement_options(cat, s, piece)
            if len(options) > 1:
                s.phase = Phase.PLACEMENT
                return
            if options:
                arrivals.place(self, s, piece, options[0], events)
            else:
                s.placing = s.placing[1:]
                s.loc[piece], s.reduced[piece] = DEAD, False
                if events.on:
                    events.emit(
                        "eliminated", f"{cat.name[piece]} finds no Allied village free of EZOC and is lost.", "16.0C"
                    )
        self.after_patton(s, events)

    def after_patton(self, s: TunisiaState, events: Events) -> None:
        if s.turn >= self.first_recall_turn and s.loc[self.cat.rommel] != REMOVED:
            s.phase = Phase.ROMMEL_ROLL
            return
        self.after_rommel(s, events)

    def after_rommel(self, s: TunisiaState, events: Events) -> None:
        """The turn ends: 4.0B's end-of-turn checks, then the next turn, the Axis first (7.0)."""
        outcome = end_of_turn(self.cat, s, self.last_turn)
        if outcome is not None:
            self._finish(s, outcome, events)
            return
        s.turn += 1
        s.player = AXIS
        if events.on:
            events.emit("turn", f"Turn {s.turn} begins.", "7.0")
        self.start_player_turn(s, events)

    def start_player_turn(self, s: TunisiaState, events: Events) -> None:
        n = self.cat.n
        s.moved, s.attacked = [False] * n, [False] * n
        s.mp_spent, s.moved_from = [0.0] * n, [-1] * n
        s.reach = {}
        s.breakthrough = -1
        s.phase = Phase.MOVEMENT
        if events.on:
            events.emit("phase", f"Turn {s.turn}: {SIDE_NAMES[s.player]} Movement Phase.", "7.1")

    def _settle(self, s: TunisiaState, events: Events) -> None:
        """After every step: 17.0B's record of Axis units in the 8th Army hexes, and the sudden wins (4.0)."""
        if s.outcome is not None or s.phase == Phase.SETUP:
            return
        cat = self.cat
        if not s.axis_entered_eighth_army:
            hexes = self.eighth_army_hexes
            s.axis_entered_eighth_army = any(s.loc[p] in hexes for p in cat.by_side[AXIS] if cat.is_unit[p])
        outcome = sudden_death(cat, s)
        if outcome is not None:
            self._finish(s, outcome, events)

    def _finish(self, s: TunisiaState, outcome: tuple[int, str, str], events: Events) -> None:
        s.outcome = outcome
        s.phase = Phase.OVER
        s.battle, s.retreating, s.placing = None, (), ()
        if events.on:
            events.emit("game_over", f"{SIDE_NAMES[outcome[0]]} victory: {outcome[1]}", outcome[2])

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
    Phase.REPLACEMENT_ROLL: TunisiaRules.roll_replacement,
    Phase.PATTON_ROLL: arrivals.roll_patton,
    Phase.ROMMEL_ROLL: arrivals.roll_rommel,
}
"""The handler of each die (sequence.py's DICE steps)."""
if set(_ROLLS) != {p for p, role in ACTOR.items() if role == DICE}:
    raise RuntimeError("every die step needs its handler")

__all__ = ["D6", "D12", "RULE_OF", "TunisiaRules"]
