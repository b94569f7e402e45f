"""Why an action is refused: a message naming the action, the phase and the rule that forbids it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.errors import quoted

from .actions import AIR, ATTACK, END, MOVE, Action
from .catalog import SIDE_NAMES
from .movement import compute_reach, enemy_occupied
from .overstack import Closure, overstacked, side_stacks
from .sequence import PHASE_NAMES, RULE_OF
from .stacking import occupants
from .state import Phase, TunisiaState
from .zoc import enemy_zoc

if TYPE_CHECKING:
    from .rules import TunisiaRules

KINDS_OF: dict[Phase, tuple[str, ...]] = {
    Phase.MOVEMENT: (MOVE, END),
    Phase.ATTACK: (ATTACK, END),
    Phase.BREAKTHROUGH: (MOVE, ATTACK, END),
    Phase.DEFENSIVE_AIR: ("air", "no air"),
    Phase.DEFENDER_LOSS: ("loss",),
    Phase.ATTACKER_LOSS: ("loss",),
    Phase.RETREAT: ("retreat",),
    Phase.ADVANCE: ("advance", "no advance"),
    Phase.RETURN_ATTACKER: ("base",),
    Phase.RETURN_DEFENDER: ("base",),
    Phase.REPLACEMENT: ("rebuild", "replace", END),
    Phase.PLACEMENT: ("place",),
    Phase.SETUP: ("place",),
}


def reason(rules: TunisiaRules, s: TunisiaState, act: Action, text: str) -> str:
    now = f"{rules.to_act(s)} to act in the {SIDE_NAMES[s.player]} {PHASE_NAMES[s.phase]} ({RULE_OF[s.phase]})"
    if act.kind not in KINDS_OF.get(s.phase, ()):
        return f"{quoted(text)} is not an action of this step: {now}"
    cat, grid = rules.cat, rules.board.grid
    for name in (act.piece, act.air):
        if name and name not in cat.index:
            return f"{quoted(text)}: there is no piece {quoted(name)} in this game (1.0): {now}"
    for label in (act.origin, act.target):
        if label and label not in grid.by_label:
            return f"{quoted(text)}: there is no hex {quoted(label)} on the map (3.0, 8.7A)"
    if act.kind == MOVE and s.phase == Phase.MOVEMENT:
        return _why_not_move(rules, s, act, text)
    if act.kind == END and s.phase == Phase.MOVEMENT:
        over = overstacked(cat, side_stacks(cat, s, s.player))
        if over:
            return (
                f"{quoted(text)}: hex {rules.labels[over[0]]} is overstacked; the stacking limit is enforced when "
                "the Movement Phase's moves are done, so a piece must leave it first (6.0A-D)"
            )
    if act.kind == ATTACK:
        return _why_not_attack(rules, s, act, text)
    if act.kind == AIR and s.phase == Phase.DEFENSIVE_AIR:
        return _why_not_air(rules, s, act, text)
    if s.phase == Phase.SETUP:
        piece = cat.index[act.piece]
        if not s.placing or piece != s.placing[0]:
            return f"{quoted(text)}: the next piece to set up is {cat.ids[s.placing[0]]} (5.0)"
        rule = "5.1" if cat.side[piece] == 1 else "5.2"
        return f"{quoted(text)}: {act.piece} may not set up in {act.target} ({rule}, 6.0)"
    return f"{quoted(text)} is not one of the legal choices: {now}"


def _why_not_move(rules: TunisiaRules, s: TunisiaState, act: Action, text: str) -> str:
    cat, grid = rules.cat, rules.board.grid
    p = cat.index[act.piece]
    origin, dest = grid.by_label[act.origin], grid.by_label[act.target]
    side = s.player
    if cat.side[p] != side:
        return f"{quoted(text)}: only the phasing side moves in its Movement Phase (7.1A)"
    if cat.is_air[p]:
        return f"{quoted(text)}: air support assets do not move in the Movement Phase (8.1A)"
    if s.loc[p] != origin:
        return f"{quoted(text)}: {act.piece} is not in {act.origin} (8.1C)"
    if s.moved[p]:
        return f"{quoted(text)}: {act.piece} has completed its move this phase (8.1B, 8.7B)"
    if dest not in rules.board.land:
        return f"{quoted(text)}: {act.target} is not a hex a piece may enter (8.7A)"
    blocked = enemy_occupied(cat, s, side)
    if dest in blocked:
        return f"{quoted(text)}: no piece may move into a hex holding an enemy piece (8.7A)"
    ezoc = enemy_zoc(cat, s, side)
    reach = compute_reach(cat, s, p, ezoc, blocked)
    if dest not in reach:
        return (
            f"{quoted(text)}: {act.piece} cannot reach {act.target} with its MA (8.2-8.6), stopping on entering an "
            "enemy zone of control (9.1C)"
        )
    closure = Closure(cat, s, lambda r: compute_reach(cat, s, r, ezoc, blocked))
    after = closure.overstacked_after(p, dest)
    labels = rules.labels
    if len(after) > 1:
        return (
            f"{quoted(text)}: the move would leave {' and '.join(labels[h] for h in after)} overstacked; a move may "
            "leave only one hex overstacked at a time (6.0D, NOTES.md)"
        )
    if after and not closure.way_out_after(p, dest, after[0]):
        return (
            f"{quoted(text)}: the move would leave {labels[after[0]]} overstacked with no way to mend it: no piece "
            "there that has yet to move can leave it for a hex with room, nor start a chain of such moves that ends "
            "in one (6.0A-D: the limit holds when the Movement Phase's moves are done)"
        )
    return f"{quoted(text)} is not legal now (8.0)"


def _why_not_attack(rules: TunisiaRules, s: TunisiaState, act: Action, text: str) -> str:
    cat, grid = rules.cat, rules.board.grid
    origin, target = grid.by_label[act.origin], grid.by_label[act.target]
    side = s.player
    unit = next((p for p in cat.by_side[side] if s.loc[p] == origin and cat.is_unit[p]), -1)
    if unit < 0:
        return f"{quoted(text)}: no unit of the attacker's in {act.origin}; support assets alone never attack (7.2B)"
    if grid.distance(origin, target) != 1:
        return f"{quoted(text)}: a unit attacks an adjacent hex (11.1B)"
    here = occupants(s).get(target)
    if not here or cat.side[here[0]] == side:
        return f"{quoted(text)}: {act.target} holds no enemy piece (7.2A)"
    if s.attacked[unit] and s.breakthrough != unit:
        return f"{quoted(text)}: {cat.ids[unit]} has attacked this Combat Phase (11.1A)"
    if act.air:
        a = cat.index[act.air]
        if cat.side[a] != side or not cat.is_air[a]:
            return f"{quoted(text)}: {act.air} is not one of the attacker's air support assets (7.3A)"
        if s.loc[a] < 0 or grid.distance(s.loc[a], origin) > cat.range[a]:
            return f"{quoted(text)}: {act.air} is not on an airfield within range of {act.origin} (7.3A)"
    return f"{quoted(text)} is not legal now (7.2, 15.0)"


def _why_not_air(rules: TunisiaRules, s: TunisiaState, act: Action, text: str) -> str:
    """The defender's air choice (7.3C-E): his own air asset, on an airfield within range of the defended hex."""
    cat, b = rules.cat, s.battle
    a = cat.index[act.piece]
    if b is None or cat.side[a] == s.player or not cat.is_air[a]:
        return f"{quoted(text)}: {act.piece} is not one of the defender's air support assets (7.3C)"
    where = s.loc[a]
    if where < 0:
        return f"{quoted(text)}: {act.piece} is not on an airfield; it has flown or is out of play (7.3C, 7.4D)"
    if where == b.target:
        return (
            f"{quoted(text)}: {act.piece} stands in the attacked hex with no unit of its side: it is one of the lone "
            "support assets attacked, not a supporter flying in (7.3D, 12.4)"
        )
    return f"{quoted(text)}: {act.piece} is not on an airfield within range of {rules.labels[b.target]} (7.3C)"
