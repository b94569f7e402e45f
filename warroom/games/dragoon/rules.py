"""Operation Dragoon 1944: the Ruleset. Allied decisions, the German BOT as chance nodes.

This module holds the contract, the action ids and the Sequence of Play; the attacks, the German
movement and the BOT chart live in attacks.py, movement.py and bot.py. Rule citations name the
rulebook's sections (it has no numbers): "Dragoon: <section>".
"""

from __future__ import annotations

from typing import Any

from warroom.engine.errors import IllegalActionError
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import attacks, bot, movement
from .board import Board, load_board
from .odds import win_effect
from .options import option_specs, parse_options
from .position import state_from_json, state_to_json
from .sections import ACTION_CHARTS, ATTACKS, FFI_RULE, LANDINGS, RP_CHART, SEQUENCE, VICTORY
from .state import (
    ACTIONS,
    ARRIVAL_BOX,
    ATTACK_REROLL,
    ATTACK_ROLL,
    BOT_ATTACK_ROLL,
    BOT_REROLL,
    BOT_ROLL,
    IN_BOX,
    INVADE,
    OPPOSED,
    OVER,
    PHASE_NAMES,
    RP_ROLL,
    UNOPPOSED,
    DragoonState,
)

ALLIED, GERMAN = "Allied", "German"
D6 = tuple((face, 1 / 6) for face in range(1, 7))
"""One shared, immutable d6: the dice source checks once that its faces are equally likely."""
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
        s.options = parse_options(options)  # an unknown option or reading is refused, naming the choices
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

    def chance_outcomes(self, s: DragoonState) -> tuple[tuple[int, float], ...]:
        if s.phase not in CHANCE_PHASES:
            raise IllegalActionError("no die roll is pending")
        return D6

    def die_sides(self, s: DragoonState) -> int:
        return 6

    def legal_actions(self, s: DragoonState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = tuple(self._legal(s))
        return list(legal)

    def _legal(self, s: DragoonState) -> list[str]:
        if s.phase in (ATTACK_REROLL, BOT_REROLL):
            return ["reroll ffi", "accept"]
        if s.phase != ACTIONS:
            return []
        if s.rp <= 0:
            return ["end"]  # Using Action Charts: every action costs 1 RP
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
        if s.legal is None:
            s.legal = tuple(self._legal(s))
        if action not in s.legal:
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
            defender = self.top_unit(s, target)
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
                    takes, win = win_effect(self, s, i)
                    goal = "to advance" if takes else f"to win; the attack {win}"
                    events.append({"type": "attack", "text": f"{unit} attacks {b.german[defender].name} in {b.locations[target].name} (1 RP){' with Air support' if air else ''}: DRM {drm:+d}, needs {b.advance_on - drm}+ on the die {goal}.", "rule": ATTACKS})
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
                attacks.finish_attack(self, s, s.attack[7], events, log)
            else:
                assert s.bot_attack is not None
                bot.finish_bot_attack(self, s, True, events, log)
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
                events.append({"type": "rp", "text": f"Turn {s.turn}: the RP roll is {roll}: {s.rp} RP this turn.", "rule": RP_CHART})
            self._open_actions(s, events, log)
        elif phase == ATTACK_ROLL:
            attacks.resolve_attack_roll(self, s, roll, events, log)
        elif phase == BOT_ROLL:
            bot.bot_action(self, s, roll, events, log)
        else:
            bot.resolve_bot_roll(self, s, roll, events, log)
        return events

    def result(self, s: DragoonState) -> Result | None:
        if s.phase != OVER:
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
            events.append({"type": "rp", "text": f"Turn {s.turn} ({s.turn} August): the RP chart gives {designated} RP.", "rule": RP_CHART})
        self._open_actions(s, events, log)

    def _open_actions(self, s: DragoonState, events: list[Event], log: bool) -> None:
        b = self.board
        for i, turn in enumerate(b.landing_turn):
            if turn == s.turn and s.allied_pos[i] == IN_BOX:
                # French landings: free, no die roll, stackable; a landing unit may not attack this turn
                s.allied_pos[i] = 0
                s.spent[i] = True
                attacks.enter(self, s, b.routes[i][0], i)
                if log:
                    events.append({"type": "landing", "text": f"{b.allied[i].name} lands on {b.locations[b.routes[i][0]].name} (free, no roll).", "rule": LANDINGS})
        s.phase = ACTIONS
        if s.rp <= 0:
            self._end_actions(s, events, log)

    def _end_actions(self, s: DragoonState, events: list[Event], log: bool) -> None:
        s.attack = None
        s.rp = 0  # Using Action Charts: "RP cannot be saved from turn to turn"
        movement.german_movement(self, s, events, log)
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
