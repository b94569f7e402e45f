"""Major Battles and Campaigns of General George S. Patton: the Ruleset, for all three scenarios.

Two players: "Allied" (the rulebook's American or Allied player, blue) and "Axis" (German or
Axis, red). Decisions belong to whoever the rules say: the side not moving chooses its
casualties, its retreat roads and whether to retreat from a tie, in the middle of the other's
turn. Movement cards and dice are chance nodes. The card order is not hidden information: it
is decided as each card is turned (uniformly among the cards not yet seen), which is what a
face-down shuffled pack is to both players; see NOTES.md.

Rule citations name the rulebook's sections (it has no numbers): "Patton: Retreating".
"""

from __future__ import annotations

from typing import Any

from warroom.engine.errors import IllegalActionError, UnknownScenarioError, WarroomError
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
    ActionTable,
)
from .board import SCENARIOS, SIDES, Board, load_board, mix_text
from .objectives import score, update_relief
from .options import OPTIONS, PLACEMENTS, option_specs
from .position import state_from_json, state_to_json
from .state import (
    AFTER_DEFECTION,
    AFTER_RESERVES,
    AFTER_STACKING,
    BATTLE_ORDER,
    CARD,
    CASUALTY,
    DEFECTION,
    DICE,
    END_TURN,
    MOVING,
    OVER,
    PHASE_NAMES,
    PLACING,
    RESERVE_ASK,
    RESERVE_DICE,
    RESERVE_PLACE,
    RETREATING,
    STACKING,
    START_TURN,
    TIE,
    PattonState,
)

D6 = [(face, 1 / 6) for face in range(1, 7)]
CHANCE_PHASES = (CARD, DICE, RESERVE_DICE)
# Decisions the rules take on the player's behalf when only one choice exists.
AUTO_PHASES = frozenset((PLACING, MOVING, BATTLE_ORDER, CASUALTY, RESERVE_PLACE, DEFECTION, STACKING))


class PattonRules:
    """The Ruleset for Major Battles and Campaigns of General George S. Patton."""

    info = GameInfo(
        id="patton",
        title="Major Battles and Campaigns of General George S. Patton",
        scenarios=SCENARIOS,
        sides=SIDES,
    )

    def __init__(self) -> None:
        self._tables: dict[str, ActionTable] = {}

    def board(self, scenario: str) -> Board:
        if scenario not in SCENARIOS:
            raise UnknownScenarioError(f"Patton has no scenario {scenario!r}; scenarios: {', '.join(SCENARIOS)}")
        return load_board(scenario)

    def table(self, board: Board) -> ActionTable:
        tab = self._tables.get(board.id)
        if tab is None or tab.board is not board:
            tab = self._tables[board.id] = ActionTable(board)
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
                raise WarroomError(f"turn_limit is for Sicily: in {board.title} the Game Ends card ends the game after "
                                   f"{board.turns} turns ({sequence.SCENARIO_RULE[board.id]} — Duration of Game)")
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
        events: list[Event] = []
        waiting = [side for side in (0, 1) if sum(s.placing[side])]
        if waiting:
            s.phase = PLACING
            s.actor = waiting[0]
        else:
            s.phase = START_TURN
        self._settle(s, events, False)
        return s

    def to_act(self, s: PattonState) -> str | None:
        phase = s.phase
        if phase == OVER:
            return None
        if phase in CHANCE_PHASES:
            return CHANCE
        return SIDES[s.actor]

    def chance_outcomes(self, s: PattonState) -> list[tuple[int, float]]:
        if s.phase == CARD:
            return sequence.card_outcomes(s)
        if s.phase in (DICE, RESERVE_DICE):
            return D6
        raise IllegalActionError("no card or die is pending")

    def die_sides(self, s: PattonState) -> int:
        """6 for dice; 12 for a movement card (its values run from 1 to at most 12)."""
        return 12 if s.phase == CARD else 6

    def legal_actions(self, s: PattonState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = self._legal(s)
        return legal

    def _legal(self, s: PattonState) -> list[str]:
        phase = s.phase
        tab = self.table(s.board)
        if phase == MOVING:
            out: list[str] = []
            movement.legal_moves(s, tab, out)
            out.append("end")
            return out
        if phase == RETREATING:
            return retreat.legal_retreats(s, tab)
        if phase == BATTLE_ORDER:
            return [tab.battle_id[t] for t in movement.pending_targets(s)]
        if phase == CASUALTY:
            la, li = battle_mod.attacker_losses(s)
            return [self._casualty_id(s, tab, parts) for parts in battle_mod.casualty_options(s, la, li)]
        if phase == TIE:
            return ["retreat", "stand"]
        if phase == RESERVE_ASK:
            return ["roll reserves", "wait"]
        if phase == RESERVE_PLACE:
            return [tab.reserve_id[t] for t in sequence.reserve_towns(s)]
        if phase == DEFECTION:
            towns, kind = sequence.defection_choices(s)
            return [tab.defect_id[t][kind] for t in towns]
        if phase == STACKING:
            t = s.stacking_queue[0]
            excess = s.armor[t] + s.inf[t] - sequence.STACK_LIMIT
            low = max(0, excess - s.inf[t])
            return [_remove_id(s, t, a, excess - a) for a in range(low, min(excess, s.armor[t]) + 1)]
        if phase == PLACING:
            return placement.legal_placements(s, tab)
        return []

    def _casualty_id(self, s: PattonState, tab: ActionTable, parts: tuple[tuple[int, int, int], ...]) -> str:
        return tab.casualties_id([(battle_mod.source_name(s, s.stacks[k][1]), a, i) for k, a, i in parts])

    def apply(self, s: PattonState, action: str, log: bool = True) -> list[Event]:
        phase = s.phase
        if phase == OVER or phase in CHANCE_PHASES:
            raise IllegalActionError(self._why_illegal(s, action))
        tab = self.table(s.board)
        parsed = tab.parse(action)
        if parsed is None:
            raise IllegalActionError(self._why_illegal(s, action))
        kind = parsed[0]
        if kind == MOVE and phase == MOVING:
            if not movement.move_ok(s, parsed[1], parsed[2], parsed[3]):
                raise IllegalActionError(self._why_illegal(s, action))
        else:
            legal = s.legal if s.legal is not None else self.legal_actions(s)
            if action not in legal:
                raise IllegalActionError(self._why_illegal(s, action))
        s.legal = None
        events: list[Event] = []
        self._do(s, tab, parsed, action, events, log)
        self._settle(s, events, log)
        return events

    def _do(self, s: PattonState, tab: ActionTable, parsed: tuple[Any, ...], action: str, events: list[Event], log: bool) -> None:
        kind = parsed[0]
        if kind == MOVE:
            movement.apply_move(s, parsed[1], parsed[2], parsed[3], events, log)
            if s.mover == 1 and s.board.relieve >= 0:
                update_relief(s, events, log)
        elif kind == END:
            if log:
                targets = movement.pending_targets(s)
                battles = ", ".join(s.board.towns[t].name for t in targets) or "none"
                events.append({"type": "end_moves", "text": f"{s.board.side_names[s.mover]} moves complete ({s.mp} MP unused); battles: {battles}.",
                               "rule": "Patton: Battles"})
            s.frozen_a = [0] * s.board.n
            s.frozen_i = [0] * s.board.n
            s.phase = BATTLE_ORDER
        elif kind == LAND:
            movement.apply_land(s, parsed[1], parsed[2], parsed[3], events, log)
        elif kind == BATTLE:
            battle_mod.start_battle(s, parsed[1], events, log)
        elif kind == CASUALTIES:
            la, li = battle_mod.attacker_losses(s)
            for parts in battle_mod.casualty_options(s, la, li):
                if self._casualty_id(s, tab, parts) == action:
                    battle_mod.apply_casualties(s, parts, events, log)
                    break
        elif kind in (TIE_RETREAT, STAND):
            battle_mod.tie_decision(s, kind == TIE_RETREAT, events, log)
        elif kind == RETREAT:
            retreat.apply_retreat(s, parsed[1], parsed[2], parsed[3], events, log)
        elif kind == ROLL:
            s.phase = RESERVE_DICE
        elif kind == WAIT:
            if log:
                events.append({"type": "reserves_wait", "text": f"The {s.board.side_names[s.mover]} wait before throwing for reserves.",
                               "rule": sequence.reserves_rule(s)})
            s.phase = AFTER_RESERVES
        elif kind == RESERVE:
            sequence.place_reserves(s, parsed[1], events, log)
        elif kind == DEFECT:
            sequence.defect(s, parsed[1], parsed[2], events, log)
        elif kind == REMOVE:
            sequence.remove_excess(s, parsed[2], parsed[3], events, log)
        elif kind == PLACE:
            placement.apply_place(s, parsed[1], parsed[2], parsed[3], events, log)
        elif kind == PLACE_DEFAULT:
            placement.apply_place_default(s, events, log)

    def apply_chance(self, s: PattonState, outcome: int, log: bool = True) -> list[Event]:
        phase = s.phase
        if phase not in CHANCE_PHASES:
            raise IllegalActionError("no card or die is pending")
        events: list[Event] = []
        s.legal = None
        if phase == CARD:
            if not (0 <= outcome < len(s.pool)) or not s.pool[outcome]:
                raise IllegalActionError(f"no card {outcome} is left to turn up; left: {sorted({v for v, _ in sequence.card_outcomes(s)})}")
            sequence.apply_card(s, outcome, events, log)
        else:
            if not 1 <= outcome <= 6:
                raise IllegalActionError(f"a die shows 1 to 6, not {outcome}")
            if phase == DICE:
                battle_mod.roll(s, outcome, events, log)
            else:
                sequence.reserve_die(s, outcome, events, log)
        self._settle(s, events, log)
        return events

    # -- the automatic steps between decisions ------------------------------------------------------
    def _settle(self, s: PattonState, events: list[Event], log: bool) -> None:
        """Run every step that needs no decision and no chance, and every forced single choice."""
        tab = self.table(s.board)
        while True:
            phase = s.phase
            if phase == START_TURN:
                sequence.start_turn(s, events, log)
            elif phase == BATTLE_ORDER:
                targets = movement.pending_targets(s)
                if not targets:
                    s.phase = END_TURN
                elif len(targets) == 1:
                    battle_mod.start_battle(s, targets[0], events, log)
                else:
                    s.actor = s.mover
                    return
            elif phase == END_TURN:
                sequence.start_reserves(s, events, log)
            elif phase == AFTER_RESERVES:
                sequence.start_defection(s, events, log)
            elif phase == AFTER_DEFECTION:
                sequence.start_stacking(s)
            elif phase == AFTER_STACKING:
                sequence.finish_turn(s, events, log)
            elif phase == CARD:
                outcomes = sequence.card_outcomes(s)
                if len(outcomes) != 1:
                    return
                sequence.apply_card(s, outcomes[0][0], events, log)
            elif phase == RETREATING:
                legal = retreat.legal_retreats(s, tab)
                if not legal:
                    retreat.finish(s, events, log)
                elif len(legal) == 1:
                    parsed = tab.parse(legal[0])
                    assert parsed is not None
                    retreat.apply_retreat(s, parsed[1], parsed[2], parsed[3], events, log)
                else:
                    s.legal = legal
                    return
            elif phase == PLACING and not sum(s.placing[s.actor]):
                waiting = [side for side in (0, 1) if sum(s.placing[side])]
                if waiting:
                    s.actor = waiting[0]
                else:
                    update_relief(s, events, log)
                    s.phase = START_TURN
            elif phase in AUTO_PHASES:
                legal = self.legal_actions(s)
                if len(legal) != 1:
                    return
                s.legal = None
                parsed = tab.parse(legal[0])
                assert parsed is not None
                self._do(s, tab, parsed, legal[0], events, log)
            else:
                return
            s.legal = None

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

    def state_from_json(self, data: dict[str, Any]) -> PattonState:
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
        """Exact odds of the battle being fought and of each attack set up, from `side`'s view (every seat sees them)."""
        from .odds import battle_odds

        return battle_odds(s, side)

    def describe_action(self, s: PattonState, action: str) -> str:
        from .labels import describe

        return describe(self, s, action)

    def _why_illegal(self, s: PattonState, action: str) -> str:
        from .labels import why_illegal

        return why_illegal(self, s, action)


def _remove_id(s: PattonState, town: int, armor: int, infantry: int) -> str:
    return f"remove {mix_text(armor, infantry)} {s.board.names[town]}"
