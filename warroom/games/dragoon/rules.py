"""Operation Dragoon 1944: the Ruleset. Allied decisions, the German BOT as chance, every rule.

Rule citations name the rulebook's sections (it has no numbers): "Dragoon: <section>".
"""

from __future__ import annotations

from typing import Any

from warroom.engine.errors import IllegalActionError
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result

from .board import Board, load_board
from .position import state_from_json, state_to_json
from .state import (
    ACTIONS,
    ARRIVAL_BOX,
    ATTACK_REROLL,
    ATTACK_ROLL,
    BEYOND,
    BOT_ATTACK_ROLL,
    BOT_REROLL,
    BOT_ROLL,
    ELIMINATED,
    ESCAPED,
    IN_BOX,
    INVADE,
    OPPOSED,
    OVER,
    PANZER_HELD,
    PANZER_MOVING,
    PANZER_PINNED,
    PHASE_NAMES,
    RP_ROLL,
    UNOPPOSED,
    DragoonState,
)

ALLIED, GERMAN = "Allied", "German"
SEQUENCE = "Dragoon: Sequence of Play Each Turn"
ACTION_CHARTS = "Dragoon: Using Action Charts"
ATTACKS = "Dragoon: Resolving Unit Attacks"
FFI_RULE = "Dragoon: French Forces of the Interior (FFI)"
AIR_RULE = "Dragoon: Air Support"
DESPERATE = "Dragoon: German Desperate Defense"
MOVEMENT = "Dragoon: German Movement / Movement Phase Sequence"
PANZER_RULE = "Dragoon: 11th PzD Special Rules"
RESTRICTIONS = "Dragoon: Allied Advance/German Retreat Restrictions"
VICTORY = "Dragoon: How to Win"
D6 = [(face, 1 / 6) for face in range(1, 7)]
CHANCE_PHASES = (RP_ROLL, ATTACK_ROLL, BOT_ROLL, BOT_ATTACK_ROLL)


class DragoonRules:
    """The Ruleset for Operation Dragoon 1944 (solitaire: the Allied player against the BOT)."""

    info = GameInfo(id="dragoon", title="Operation Dragoon 1944", scenarios=("campaign",), sides=(ALLIED,))

    def __init__(self, board: Board | None = None) -> None:
        self.board = board or load_board()
        self._build_action_tables()

    # -- action ids, built once ---------------------------------------------------------------
    def _build_action_tables(self) -> None:
        b = self.board
        names = [loc.id for loc in b.locations]
        self.invade_id = [f"invade {u.id} {names[b.routes[i][0]]}" for i, u in enumerate(b.allied)]
        self.activate_id = [f"activate {u.id}" for u in b.allied]
        self.ffi_id = [f"ffi {u.id}" for u in b.allied]
        self.attack_id: list[list[tuple[str, str]]] = []
        for i, unit in enumerate(b.allied):
            stops = list(b.routes[i]) + ([b.attack_only[i]] if b.attack_only[i] >= 0 else [])
            ids = []
            for p in range(len(b.routes[i])):
                if p + 1 < len(stops):
                    plain = f"attack {unit.id} {names[stops[p]]}->{names[stops[p + 1]]}"
                    ids.append((plain, plain + " +air"))
                else:
                    ids.append(("", ""))
            self.attack_id.append(ids)
        self.parse: dict[str, tuple[str, int, int]] = {"end": ("end", -1, 0), "reroll ffi": ("reroll", -1, 0), "accept": ("accept", -1, 0)}
        for i in range(len(b.allied)):
            self.parse[self.invade_id[i]] = ("invade", i, 0)
            self.parse[self.activate_id[i]] = ("activate", i, 0)
            self.parse[self.ffi_id[i]] = ("ffi", i, 0)
            for plain, air in self.attack_id[i]:
                if plain:
                    self.parse[plain] = ("attack", i, 0)
                    self.parse[air] = ("attack", i, 1)

    # -- the contract ---------------------------------------------------------------------------
    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> DragoonState:
        if scenario not in (None, "campaign"):
            from warroom.engine.errors import UnknownScenarioError

            raise UnknownScenarioError(f"Operation Dragoon has one scenario, 'campaign', not {scenario!r}")
        b = self.board
        s = DragoonState()
        s.turn = b.first_turn
        n_allied = len(b.allied)
        s.allied_pos = [IN_BOX] * n_allied
        s.stalled, s.ffi, s.spent = [False] * n_allied, [False] * n_allied, [False] * n_allied
        s.german_loc = [b.loc_index[g.start] if g.start else ARRIVAL_BOX for g in b.german]
        s.desperate = [g.desperate_at_start for g in b.german]  # 11th PzD at start: rulebook Desperate Defense
        s.control = [False] * len(b.locations)
        self._start_turn(s, [], False)
        return s

    def to_act(self, s: DragoonState) -> str | None:
        phase = s.phase
        if phase == OVER:
            return None
        if phase in CHANCE_PHASES:
            return CHANCE
        return ALLIED

    def chance_outcomes(self, s: DragoonState) -> list[tuple[int, float]]:
        if s.phase not in CHANCE_PHASES:
            raise IllegalActionError("no die roll is pending")
        return D6

    def die_sides(self, s: DragoonState) -> int:
        return 6

    def legal_actions(self, s: DragoonState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = self._legal(s)
        return legal

    def _legal(self, s: DragoonState) -> list[str]:
        if s.phase in (ATTACK_REROLL, BOT_REROLL):
            return ["reroll ffi", "accept"]
        if s.phase != ACTIONS:
            return []
        b = self.board
        out: list[str] = []
        air_ok = not s.air_used and not s.air_grounded
        for i in range(len(b.allied)):
            p = s.allied_pos[i]
            if p == IN_BOX:
                if b.landing_turn[i] is None:
                    out.append(self.invade_id[i])
                continue
            if s.stalled[i]:
                out.append(self.activate_id[i])
            elif not s.spent[i]:
                target = self._target(i, p)
                if target >= 0:
                    if self._occupied(s, target):
                        plain, air = self.attack_id[i][p]
                        out.append(plain)
                        if air_ok:
                            out.append(air)
                    elif target != b.attack_only[i] and not (target == b.avignon and not s.entered_198) and not self._allied_at(s, target):
                        out.append(self.attack_id[i][p][0])
            if not s.ffi[i]:
                out.append(self.ffi_id[i])
        out.append("end")
        return out

    def apply(self, s: DragoonState, action: str, log: bool = True) -> list[Event]:
        legal = s.legal if s.legal is not None else self.legal_actions(s)
        if action not in legal:
            raise IllegalActionError(self._why_illegal(s, action))
        kind, i, air = self.parse[action]
        s.legal = None
        events: list[Event] = []
        b = self.board
        unit = b.allied[i].id if i >= 0 else ""
        if kind == "end":
            if log:
                events.append({"type": "end_actions", "text": f"Allied player ends actions with {s.rp} RP unused (RP cannot be saved).", "rule": ACTION_CHARTS})
            self._end_actions(s, events, log)
        elif kind == "activate":
            s.rp -= 1
            s.stalled[i] = False
            if log:
                events.append({"type": "activate", "text": f"{unit} flips from stalled to active (1 RP).", "rule": ACTION_CHARTS})
            self._after_action(s, events, log)
        elif kind == "ffi":
            s.rp -= 1
            s.ffi[i] = True
            if log:
                events.append({"type": "ffi", "text": f"An FFI marker joins {unit} (1 RP).", "rule": FFI_RULE})
            self._after_action(s, events, log)
        elif kind == "invade":
            s.rp -= 1
            s.spent[i] = True
            s.attack = [i, b.routes[i][0], INVADE, -1, 0, 0, 0, 0]
            s.phase = ATTACK_ROLL
            if log:
                events.append({"type": "invade", "text": f"{unit} invades {b.locations[b.routes[i][0]].name} (1 RP): roll, a 1 stalls it.", "rule": ATTACKS})
        elif kind == "attack":
            s.rp -= 1
            s.spent[i] = True
            target = self._target(i, s.allied_pos[i])
            defender = self._top_unit(s, target)
            if defender < 0:
                s.attack = [i, target, UNOPPOSED, -1, 0, 0, 0, 0]
                if log:
                    events.append({"type": "attack", "text": f"{unit} makes an unopposed attack on empty {b.locations[target].name} (1 RP): it advances; a 1 stalls it.", "rule": ATTACKS})
            else:
                drm = self.attack_drm(s, target, defender, bool(air))
                if air:
                    s.air_used = True
                s.attack = [i, target, OPPOSED, defender, drm, air, 0, 0]
                if log:
                    events.append({"type": "attack", "text": f"{unit} attacks {b.german[defender].name} in {b.locations[target].name} (1 RP){' with Air support' if air else ''}: DRM {drm:+d}, needs {b.advance_on - drm}+ on the die to advance.", "rule": ATTACKS})
            s.phase = ATTACK_ROLL
        elif kind == "reroll":
            if s.phase == ATTACK_REROLL:
                assert s.attack is not None
                s.ffi[s.attack[0]] = False
                s.attack[6] = 1
                s.phase = ATTACK_ROLL
                who = b.allied[s.attack[0]].id
            else:
                assert s.bot_attack is not None
                s.ffi[s.bot_attack[1]] = False
                s.bot_attack[2] = 1
                s.phase = BOT_ATTACK_ROLL
                who = b.allied[s.bot_attack[1]].id
            if log:
                events.append({"type": "ffi_reroll", "text": f"{who} uses its FFI to re-roll the die; the FFI marker is removed from play.", "rule": FFI_RULE})
        else:  # accept
            if s.phase == ATTACK_REROLL:
                assert s.attack is not None
                self._finish_attack(s, s.attack[7], events, log)
            else:
                assert s.bot_attack is not None
                self._finish_bot_attack(s, True, events, log)
        return events

    def apply_chance(self, s: DragoonState, roll: int, log: bool = True) -> list[Event]:
        if s.phase not in CHANCE_PHASES:
            raise IllegalActionError("no die roll is pending")
        if not 1 <= roll <= 6:
            raise IllegalActionError(f"a d6 shows 1 to 6, not {roll}")
        s.legal = None
        events: list[Event] = []
        phase = s.phase
        if phase == RP_ROLL:
            s.rp = self.board.rp_roll[roll]
            if log:
                events.append({"type": "rp", "text": f"Turn {s.turn}: the RP roll is {roll}: {s.rp} RP this turn.", "rule": "Dragoon: Sequence of Play (Allied RPs) — RP chart"})
            self._open_actions(s, events, log)
        elif phase == ATTACK_ROLL:
            self._resolve_attack_roll(s, roll, events, log)
        elif phase == BOT_ROLL:
            self._bot_action(s, roll, events, log)
        else:
            self._resolve_bot_roll(s, roll, events, log)
        return events

    def result(self, s: DragoonState) -> Result | None:
        if s.phase != OVER:
            return None
        vp, parts = self.victory_points(s)
        b = self.board
        ports = [loc for loc in (b.marseilles, b.toulon) if loc >= 0]
        score = {"VP": vp, "breakdown": parts}
        if not any(s.control[loc] for loc in ports):
            return Result(GERMAN, score, "Neither Marseilles nor Toulon is Allied-controlled: automatic German victory.", VICTORY)
        if vp <= 6:
            return Result(GERMAN, score, f"{vp} VP: 6 VP or less is a German victory.", VICTORY)
        if vp == 7:
            return Result(None, score, "7 VP: a draw, the historical result.", VICTORY)
        return Result(ALLIED, score, f"{vp} VP: 8 VP or more is an Allied victory.", VICTORY)

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
        # Solitaire with open information: the BOT hides nothing; every side sees everything.
        return state_to_json(self.board, s)

    def state_to_json(self, s: DragoonState) -> dict[str, Any]:
        return state_to_json(self.board, s)

    def state_from_json(self, data: dict[str, Any]) -> DragoonState:
        return state_from_json(self.board, data)

    def clone(self, s: DragoonState) -> DragoonState:
        return s.clone()

    def turn_and_phase(self, s: DragoonState) -> tuple[int, str]:
        return s.turn, PHASE_NAMES[s.phase]

    # -- queries the AI, odds and front ends share -------------------------------------------
    def allied_location(self, s: DragoonState, i: int) -> int:
        p = s.allied_pos[i]
        return self.board.routes[i][p] if p >= 0 else -1

    def _target(self, i: int, p: int) -> int:
        route = self.board.routes[i]
        if p == IN_BOX:
            return route[0]
        if p + 1 < len(route):
            return route[p + 1]
        return self.board.attack_only[i]

    def target_of(self, s: DragoonState, i: int) -> int:
        """The location Allied unit i would attack next (-1: none)."""
        return self._target(i, s.allied_pos[i])

    def _occupied(self, s: DragoonState, loc: int) -> bool:
        return loc in s.german_loc

    def _allied_at(self, s: DragoonState, loc: int) -> bool:
        routes = self.board.routes
        return any(p >= 0 and routes[i][p] == loc for i, p in enumerate(s.allied_pos))

    def germans_at(self, s: DragoonState, loc: int) -> list[int]:
        return [g for g, where in enumerate(s.german_loc) if where == loc]

    def _top_unit(self, s: DragoonState, loc: int) -> int:
        """Only the top unit of a stack may be attacked (11th PzD Special Rules)."""
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

    def describe_action(self, s: DragoonState, action: str) -> str:
        from .labels import describe

        return describe(self, s, action)

    def _why_illegal(self, s: DragoonState, action: str) -> str:
        from .labels import why_illegal

        return why_illegal(self, s, action)

    # -- sequence of play ---------------------------------------------------------------------
    def _after_action(self, s: DragoonState, events: list[Event], log: bool) -> None:
        s.phase = ACTIONS
        s.attack = None
        if s.rp <= 0:
            if log:
                events.append({"type": "end_actions", "text": "All RP are spent: the Allied actions end.", "rule": ACTION_CHARTS})
            self._end_actions(s, events, log)

    def _start_turn(self, s: DragoonState, events: list[Event], log: bool) -> None:
        b = self.board
        designated = b.rp_designated.get(s.turn)
        if designated is None:
            s.phase = RP_ROLL
            return
        s.rp = designated
        if log:
            events.append({"type": "rp", "text": f"Turn {s.turn} ({s.turn} August): the RP chart gives {designated} RP.", "rule": "Dragoon: Sequence of Play (Allied RPs) — RP chart"})
        self._open_actions(s, events, log)

    def _open_actions(self, s: DragoonState, events: list[Event], log: bool) -> None:
        b = self.board
        for i, turn in enumerate(b.landing_turn):
            if turn == s.turn and s.allied_pos[i] == IN_BOX:
                # French landings: free, no die roll, stackable; a landing unit may not attack this turn
                s.allied_pos[i] = 0
                s.spent[i] = True
                self._enter(s, b.routes[i][0], i)
                if log:
                    events.append({"type": "landing", "text": f"{b.allied[i].name} lands on {b.locations[b.routes[i][0]].name} (free, no roll).", "rule": "Dragoon: Resolving Unit Attacks (French landings)"})
        s.phase = ACTIONS
        if s.rp <= 0:
            self._end_actions(s, events, log)

    def _end_actions(self, s: DragoonState, events: list[Event], log: bool) -> None:
        s.attack = None
        self._german_movement(s, events, log)
        s.phase = BOT_ROLL

    def _turn_end(self, s: DragoonState, events: list[Event], log: bool) -> None:
        b = self.board
        s.bot_attack = None
        s.bot_queue = []
        if s.turn >= b.last_turn:
            s.phase = OVER
            if log:
                result = self.result(s)
                assert result is not None
                events.append({"type": "game_over", "text": f"End of the 29 August turn. {result.reason}", "rule": VICTORY, "result": result.to_json()})
            return
        s.turn += 1
        s.air_used = False
        s.air_grounded = s.bad_weather_next
        s.bad_weather_next = False
        s.spent = [False] * len(s.spent)
        if log:
            events.append({"type": "turn", "text": f"Turn end: the turn marker advances to {s.turn} August.", "rule": SEQUENCE})
        self._start_turn(s, events, log)

    # -- Allied attacks -----------------------------------------------------------------------
    def _resolve_attack_roll(self, s: DragoonState, roll: int, events: list[Event], log: bool) -> None:
        b = self.board
        attack = s.attack
        assert attack is not None
        i, target, mode, defender, drm, _air, rerolled, _ = attack
        attack[7] = roll
        if mode == OPPOSED:
            good = roll + drm >= b.advance_on
            if log:
                events.append({"type": "die", "text": f"Attack roll {roll}, modified {roll + drm}: {'Advance' if good else 'No Advance'} (needs {b.advance_on}+).", "rule": ATTACKS, "roll": roll})
        else:
            good = roll != b.stall_on
            if log:
                events.append({"type": "die", "text": f"Roll {roll}: {'advance' if good else 'advance, but the unit is stalled'}.", "rule": ATTACKS, "roll": roll})
        if not good and s.ffi[i] and not rerolled:
            s.phase = ATTACK_REROLL
            return
        self._finish_attack(s, roll, events, log)

    def _finish_attack(self, s: DragoonState, roll: int, events: list[Event], log: bool) -> None:
        b = self.board
        attack = s.attack
        assert attack is not None
        i, target, mode, defender, drm = attack[0], attack[1], attack[2], attack[3], attack[4]
        name = b.allied[i].id
        if mode != OPPOSED:
            s.allied_pos[i] = 0 if mode == INVADE else s.allied_pos[i] + 1
            s.stalled[i] = roll == b.stall_on
            self._enter(s, target, i)
            if log:
                events.append({"type": "advance", "text": f"{name} advances into {b.locations[target].name}{' and is stalled' if s.stalled[i] else ''}.", "rule": ATTACKS})
        elif roll + drm >= b.advance_on:
            self._defeat(s, i, target, defender, events, log)
        elif log:
            events.append({"type": "no_advance", "text": f"No Advance: {b.german[defender].name} holds {b.locations[target].name}.", "rule": ATTACKS})
        self._after_action(s, events, log)

    def _defeat(self, s: DragoonState, i: int, target: int, defender: int, events: list[Event], log: bool) -> None:
        """An Allied attack succeeded: the defender retreats (or is eliminated); the attacker advances."""
        b = self.board
        if defender == b.panzer:
            # 11th PzD never retreats: flipped from desperate and placed under the infantry
            s.desperate[defender] = False
            if log:
                events.append({"type": "panzer_defeated", "text": f"{b.german[defender].name} is defeated: it flips to normal status and does not retreat.", "rule": PANZER_RULE})
        else:
            self._german_retreat(s, defender, events, log)
        if target in s.german_loc:
            return
        if target == b.attack_only[i]:
            if log:
                events.append({"type": "no_entry", "text": f"Allied units can never advance into {b.locations[target].name}.", "rule": RESTRICTIONS})
            return
        if target == b.avignon and not s.entered_198:
            return
        s.allied_pos[i] += 1
        self._enter(s, target, i)
        if log:
            events.append({"type": "advance", "text": f"{b.allied[i].id} advances into {b.locations[target].name}.", "rule": ATTACKS})

    def _german_retreat(self, s: DragoonState, g: int, events: list[Event], log: bool) -> None:
        b = self.board
        here = s.german_loc[g]
        s.desperate[g] = False  # a defeated unit flips to its non-desperate side (Desperate Defense)
        dest, why = self._retreat_destination(s, g, here)
        name = b.german[g].name
        if dest >= 0:
            s.german_loc[g] = dest
            s.control[dest] = False
            text = f"{name} retreats from {b.locations[here].name} to {b.locations[dest].name}"
            if b.desperate_for[dest] == g:
                s.desperate[g] = True
                text += " and turns to desperate defense"
            if g == b.id_198 and dest == b.avignon:
                s.entered_198 = True
            if log:
                events.append({"type": "retreat", "text": text + ".", "rule": ATTACKS if b.route_of[g] >= 0 else RESTRICTIONS})
        elif dest == BEYOND:
            s.german_loc[g] = BEYOND
            if log:
                events.append({"type": "retreat", "text": f"{name} retreats off the map to {b.retreat_beyond[g]}; it is never eliminated.", "rule": ATTACKS})
        else:
            s.german_loc[g] = ELIMINATED
            s.eliminated[g] = s.turn
            if log:
                events.append({"type": "eliminated", "text": f"{name} is eliminated: {why} (+1 VP).", "rule": ATTACKS if b.route_of[g] >= 0 else RESTRICTIONS})

    def _retreat_destination(self, s: DragoonState, g: int, here: int) -> tuple[int, str]:
        """Where a defeated German unit goes: a location index, BEYOND, or ELIMINATED with the reason."""
        b = self.board
        route = b.german_route[g]
        if route:
            k = route.index(here) if here in route else -1
            if k < 0 or k + 1 >= len(route):
                if b.never_eliminated[g]:
                    return BEYOND, ""
                return ELIMINATED, "it has reached the last location on its track"
            dest = route[k + 1]
        else:
            k = b.escape_pos.get(here, -1)
            if here == b.montelimar:
                dest = b.bollene  # forced retreats from Montelimar go south to Bollene
            elif k < 0:
                return ELIMINATED, "it has no location to retreat into"
            else:
                dest = b.escape_track[k + 1]  # north, to the next lower-numbered location
        if self._allied_at(s, dest):
            return ELIMINATED, f"its retreat into {b.locations[dest].name} is blocked by an Allied unit"
        if not b.is_panzer[g] and any(other != g and where == dest and not b.is_panzer[other] for other, where in enumerate(s.german_loc)):
            return ELIMINATED, f"it would retreat into {b.locations[dest].name}, already held by German infantry"
        return dest, ""

    def _enter(self, s: DragoonState, loc: int, i: int) -> None:
        """An Allied unit enters a location: it is Allied-controlled until a German unit enters."""
        b = self.board
        if not s.control[loc]:
            s.control[loc] = True
            s.captured.setdefault(loc, s.turn)
        if i == b.vi_corps and loc == b.crest:
            s.vi_corps_in_crest = True

    # -- German movement (automatic) ----------------------------------------------------------
    def _german_movement(self, s: DragoonState, events: list[Event], log: bool) -> None:
        b = self.board
        panzer = b.panzer
        track, pos = b.escape_track, b.escape_pos
        if panzer >= 0 and s.panzer_mode != PANZER_PINNED and s.vi_corps_in_crest and s.turn >= 21 and s.german_loc[panzer] not in (ELIMINATED, ESCAPED):
            s.german_loc[panzer] = b.montelimar
            s.desperate[panzer] = True
            s.panzer_mode = PANZER_PINNED
            if log:
                events.append({"type": "panzer", "text": f"VI Corps holds Crest: {b.german[panzer].name} is placed in Montelimar in desperate (-2) status for the rest of the game.", "rule": PANZER_RULE})
        column = [g for g in range(len(b.german)) if b.route_of[g] < 0 and s.german_loc[g] in pos]
        column.sort(key=lambda g: -pos[s.german_loc[g]])  # lowest-numbered location first
        for g in column:
            here = s.german_loc[g]
            if g == panzer and s.panzer_mode != PANZER_MOVING:
                continue
            k = pos[here]
            name = b.german[g].name
            if k + 1 >= len(track):
                s.german_loc[g] = ESCAPED
                if log:
                    events.append({"type": "escaped", "text": f"{name} moves from {b.locations[here].name} to the Escaped to German Frontier box.", "rule": MOVEMENT})
                continue
            dest = track[k + 1]
            blocked = self._allied_at(s, dest) or (
                g != panzer and any(o != g and w == dest and o != panzer for o, w in enumerate(s.german_loc))
            )
            if blocked:
                if log:
                    events.append({"type": "blocked", "text": f"{name} cannot move: {b.locations[dest].name} is occupied.", "rule": MOVEMENT})
                continue
            s.german_loc[g] = dest
            s.control[dest] = False
            if g == b.id_198 and dest == b.avignon:
                s.entered_198 = True
            if log:
                events.append({"type": "move", "text": f"{name} moves north from {b.locations[here].name} to {b.locations[dest].name}.", "rule": MOVEMENT})
            if g == panzer and dest == b.avignon:
                s.panzer_mode = PANZER_HELD
                if log:
                    events.append({"type": "panzer", "text": f"{name} enters Avignon and stops there until US VI Corps enters Crest.", "rule": PANZER_RULE})
        # an arrival blocked by a unit stuck in Arles waits in the box and tries again next turn
        arrivals = [g for g in range(len(b.german)) if s.german_loc[g] == ARRIVAL_BOX and (b.german[g].arrival_turn or 99) <= s.turn]
        arles = track[0]
        for g in sorted(arrivals, key=lambda g: b.german[g].arrival_turn or 0):
            crowded = self._allied_at(s, arles) or (
                g != panzer and any(o != g and w == arles and o != panzer for o, w in enumerate(s.german_loc))
            )
            if crowded:
                if log:
                    events.append({"type": "arrival_delayed", "text": f"{b.german[g].name} cannot arrive: Arles is occupied; it waits.", "rule": MOVEMENT})
                continue
            s.german_loc[g] = arles
            if log:
                events.append({"type": "arrival", "text": f"{b.german[g].name} arrives at Arles from the west (it does not move this turn).", "rule": MOVEMENT})

    # -- the German BOT -----------------------------------------------------------------------
    def _bot_action(self, s: DragoonState, roll: int, events: list[Event], log: bool) -> None:
        b = self.board
        line = b.bot_lines[roll]
        s.bot_roll = roll
        if log:
            events.append({"type": "bot", "text": f"German BOT rolls {roll}: {line.title}. {line.text}", "rule": "Dragoon: German BOT Actions (BOT chart)", "roll": roll})
        queue: list[int] = []
        for effect in line.effects:
            if effect.kind == "bad_weather":
                s.bad_weather_next = True
            elif effect.kind == "stall":
                for uid in effect.units or []:
                    i = b.allied_index[uid]
                    if s.allied_pos[i] != IN_BOX and not s.stalled[i]:
                        s.stalled[i] = True
                        if log:
                            events.append({"type": "stalled", "text": f"{uid} is stalled.", "rule": ACTION_CHARTS})
            elif effect.kind == "desperate":
                for g in range(len(b.german)):
                    if not s.desperate[g] and self._faces_allied(s, g):
                        s.desperate[g] = True
                        if log:
                            events.append({"type": "desperate", "text": f"{b.german[g].name} flips to desperate defense ({b.desperate_drm[g]:+d}).", "rule": DESPERATE})
            elif effect.units == "adjacent":
                queue.extend(g for g in b.bot_attackers if g not in queue)
            else:
                queue.extend(b.german_index[u] for u in effect.units or [] if u in b.german_index)
        s.bot_queue = queue
        self._next_bot_attack(s, events, log)

    def _faces_allied(self, s: DragoonState, g: int) -> bool:
        loc = s.german_loc[g]
        return loc >= 0 and any(p != IN_BOX and self._target(i, p) == loc for i, p in enumerate(s.allied_pos))

    def bot_target(self, s: DragoonState, g: int) -> int:
        """The Allied unit German unit g would counterattack (-1: none it may attack)."""
        loc = s.german_loc[g]
        if loc < 0:
            return -1
        best = -1
        for i, p in enumerate(s.allied_pos):
            if p == IN_BOX or self._target(i, p) != loc:
                continue
            if s.stalled[i] and p == 0:
                continue  # a stalled unit on a beach or drop zone may not be attacked
            if best < 0 or (s.stalled[i] and not s.stalled[best]):
                best = i  # the BOT prefers a stalled unit it can push back
        return best

    def _next_bot_attack(self, s: DragoonState, events: list[Event], log: bool) -> None:
        b = self.board
        while s.bot_queue:
            g = s.bot_queue.pop(0)
            target = self.bot_target(s, g)
            if target < 0:
                if log and s.german_loc[g] >= 0:
                    events.append({"type": "no_target", "text": f"{b.german[g].name} has no Allied unit it may attack.", "rule": ATTACKS})
                continue
            s.bot_attack = [g, target, 0, 0]
            s.phase = BOT_ATTACK_ROLL
            if log:
                outcome = "retreat it" if s.stalled[target] else "stall it"
                events.append({"type": "counterattack", "text": f"{b.german[g].name} attacks {b.allied[target].id} in {b.locations[self.allied_location(s, target)].name}: {b.advance_on}+ to {outcome}.", "rule": ATTACKS})
            return
        self._turn_end(s, events, log)

    def _resolve_bot_roll(self, s: DragoonState, roll: int, events: list[Event], log: bool) -> None:
        b = self.board
        attack = s.bot_attack
        assert attack is not None
        target, rerolled = attack[1], attack[2]
        attack[3] = roll
        success = roll >= b.advance_on  # desperate defense has no effect on German counterattacks
        if log:
            events.append({"type": "die", "text": f"German attack roll {roll}: {'success' if success else 'no result'}.", "rule": ATTACKS, "roll": roll})
        if success and s.ffi[target] and not rerolled:
            s.phase = BOT_REROLL
            return
        self._finish_bot_attack(s, success, events, log)

    def _finish_bot_attack(self, s: DragoonState, success: bool, events: list[Event], log: bool) -> None:
        b = self.board
        attack = s.bot_attack
        assert attack is not None
        g, target = attack[0], attack[1]
        if success:
            if not s.stalled[target]:
                s.stalled[target] = True
                if log:
                    events.append({"type": "stalled", "text": f"{b.allied[target].id} is stalled.", "rule": ATTACKS})
            else:
                vacated = self.allied_location(s, target)
                s.allied_pos[target] -= 1
                if log:
                    events.append({"type": "allied_retreat", "text": f"{b.allied[target].id} retreats from {b.locations[vacated].name} to {b.locations[self.allied_location(s, target)].name}.", "rule": ATTACKS})
                if g != b.panzer and not self._allied_at(s, vacated):
                    s.german_loc[g] = vacated
                    s.control[vacated] = False
                    if log:
                        events.append({"type": "german_advance", "text": f"{b.german[g].name} advances into {b.locations[vacated].name}.", "rule": ATTACKS})
        s.bot_attack = None
        self._next_bot_attack(s, events, log)
