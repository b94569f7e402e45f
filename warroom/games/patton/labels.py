"""Plain-language labels for Patton actions, and the reason an action is illegal (naming the rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.errors import examples, quoted

from . import battle as battle_mod
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
    SEGMENT_LIMIT,
    STAND,
    TIE_RETREAT,
    WAIT,
    Action,
    Kind,
)
from .board import mix_text
from .combat import dice_for
from .movement import movable, trapped_town
from .sequence import reserves_rule
from .state import (
    BATTLE_ORDER,
    CARD,
    CASUALTY,
    DEFECTION,
    DICE,
    MOVING,
    OVER,
    PHASE_NAMES,
    PLACING,
    RESERVE_ASK,
    RESERVE_DICE,
    RESERVE_PLACE,
    RETREATING,
    STACKING,
    TIE,
    PattonState,
)

if TYPE_CHECKING:
    from .rules import PattonRules

PHASE_OF = {
    MOVE: (MOVING,),
    LAND: (MOVING,),
    END: (MOVING,),
    BATTLE: (BATTLE_ORDER,),
    CASUALTIES: (CASUALTY,),
    TIE_RETREAT: (TIE,),
    STAND: (TIE,),
    RETREAT: (RETREATING,),
    ROLL: (RESERVE_ASK,),
    WAIT: (RESERVE_ASK,),
    RESERVE: (RESERVE_PLACE,),
    DEFECT: (DEFECTION,),
    REMOVE: (STACKING,),
    PLACE: (PLACING,),
    PLACE_DEFAULT: (PLACING,),
}


def _ends(s: PattonState, d: int) -> tuple[int, int]:
    x, y = s.board.road_ends[d >> 1]
    return (y, x) if d & 1 else (x, y)


def describe(rules: PattonRules, s: PattonState, action: str) -> str:
    b = s.board
    act = rules.table(b).parse(action)
    if act is None:
        return action
    kind = act.kind
    names = b.side_names
    if kind == END:
        return f"End movement ({s.mp} MP unused) and fight the battles"
    if kind == MOVE:
        x, y = _ends(s, act.where)
        a, i = act.armor, act.infantry
        cost = (a + i) * b.road_cost[act.where >> 1]
        if s.side[y] == 1 - s.mover:
            return f"Attack {b.towns[y].name} from {b.towns[x].name} with {mix_text(a, i)} ({cost} MP)"
        return f"Move {mix_text(a, i)} from {b.towns[x].name} to {b.towns[y].name} ({cost} MP)"
    if kind == LAND:
        town = b.landing_town[act.where]
        a, i = act.armor, act.infantry
        fight = " and fight for it (losers are eliminated)" if s.side[town] == 1 else ""
        return f"Land {mix_text(a, i)} at {b.landings[act.where].id} into {b.towns[town].name}{fight} ({a + i} MP)"
    if kind == BATTLE:
        return f"Fight the battle for {b.towns[act.where].name} next"
    if kind == CASUALTIES:
        return "Take the casualties: " + ", ".join(
            f"{mix_text(c.armor, c.infantry)} from the stack from {c.source}" for c in act.casualties
        )
    if kind in (TIE_RETREAT, STAND):
        battle = s.battle
        if kind == TIE_RETREAT:
            return "Retreat voluntarily from the tie"
        if battle is not None:
            from .odds import round_odds

            aa, ai = battle_mod.attacker_force(s)
            da, di = battle_mod.defender_force(s)
            n, m = dice_for(aa, ai), dice_for(da, di, battle.bonus)
            p = round_odds(n, m)
            mine = p[0] if s.actor == battle.attacker else p[2]
            return f"Stand: refight with {n} against {m} dice ({mine:.0%} to throw the higher total)"
        return "Stand"
    if kind == RETREAT:
        x, y = _ends(s, act.where)
        mix = mix_text(act.armor, act.infantry)
        if s.side[y] == 1 - s.actor:
            return (
                f"Retreat {mix} from {b.towns[x].name} towards enemy-held {b.towns[y].name} "
                "and fight for it (enemy +2 dice)"
            )
        return f"Retreat {mix} from {b.towns[x].name} to {b.towns[y].name}"
    if kind == ROLL:
        return "Throw 3 dice for reserves (a double brings them in)"
    if kind == WAIT:
        return "Wait: do not throw for reserves this turn"
    if kind == RESERVE:
        a, i = s.reserve_pending
        return f"Reserves {mix_text(a, i)} enter {b.towns[act.where].name}"
    if kind == DEFECT:
        unit = "1 Armored Unit (for 2 Infantry)" if act.armor else "1 Infantry Unit"
        return f"Remove {unit} from {b.towns[act.where].name} (Italian defection)"
    if kind == REMOVE:
        return f"Remove {mix_text(act.armor, act.infantry)} from {b.towns[act.where].name} (more than 10 Units)"
    if kind == PLACE:
        return f"{names[s.actor]}: place {mix_text(act.armor, act.infantry)} in {b.towns[act.where].name}"
    if kind == PLACE_DEFAULT:
        return f"{names[s.actor]}: use the default setup"
    return action


def why_illegal(rules: PattonRules, s: PattonState, action: object) -> str:
    """A message naming the action, the phase and the rule that forbids it."""
    b = s.board
    phase = s.phase
    if phase == OVER:
        return f"{quoted(action)}: the game is over"
    if phase in (CARD, DICE, RESERVE_DICE):
        return (
            f"{quoted(action)} is not legal: a {'card' if phase == CARD else 'die'} is pending; "
            "no decision is asked for now"
        )
    act = rules.table(b).parse(action) if isinstance(action, str) else None
    legal = rules.legal_actions(s)
    sample = examples(legal)
    if act is None:
        return f"{quoted(action)} is not a Patton action; legal now ({PHASE_NAMES[phase]}): {sample}"
    kind = act.kind
    if phase not in PHASE_OF.get(kind, ()):
        return (
            f"{quoted(action)} is not legal in the phase {PHASE_NAMES[phase]!r}: {_when(s, kind)}; legal now: {sample}"
        )
    if kind == MOVE:
        return _why_move(s, act, str(action))  # a str: it parsed
    if kind == LAND:
        k, a, i = act.where, act.armor, act.infantry
        if s.mover != 0 or not b.landings:
            return f"{quoted(action)}: only the Allied player lands, in Sicily — Patton: Sicily — Allied Landings"
        if a > s.offboard[0] or i > s.offboard[1]:
            return (
                f"{quoted(action)}: only {mix_text(*s.offboard) or 'no Units'} are still off the island — "
                "Patton: Sicily — Allied Landings"
            )
        if s.land_used[k] + a + i > b.landing_capacity[k]:
            return (
                f"{quoted(action)}: {b.landings[k].id} handles at most {_units(b.landing_capacity[k])} a turn "
                f"({s.land_used[k]} used) — Patton: Sicily — Allied Landings"
            )
        return f"{quoted(action)}: it costs {a + i} MP, {s.mp} left — Patton: Sicily — Allied Landings"
    if kind == RETREAT:
        return (
            f"{quoted(action)}: retreat only along a road clear of enemy Units, with at most "
            f"{_units(s.retreat.quota if s.retreat else 5)} — Patton: Retreating"
        )
    if kind == CASUALTIES:
        return (
            f"{quoted(action)}: the casualties must be exactly those the dice inflicted, Infantry first; "
            f"choices: {sample} — Patton: Casualties"
        )
    if kind == PLACE:
        return (
            f"{quoted(action)}: not an allowed town, more than 10 Units, more Units than are left to place, "
            f"or a town owed a Unit left empty — {_start_rule(s)}"
        )
    if kind == BATTLE:
        return f"{quoted(action)}: no battle for that town is waiting to be fought; waiting: {sample} — Patton: Battles"
    if kind in (TIE_RETREAT, STAND):
        return (
            f"{quoted(action)}: in a tie each player in turn may retreat voluntarily or stand; "
            f"choices now: {sample} — Patton: Battles"
        )
    if kind in (ROLL, WAIT, RESERVE):
        return f"{quoted(action)}: reserves enter only as the scenario says; choices now: {sample} — {reserves_rule(s)}"
    if kind == DEFECT:
        return (
            f"{quoted(action)}: defecting Units are Infantry from any town but Messina, "
            f"an Armored Unit only for want of Infantry; choices: {sample} — Patton: Sicily — Italian Defection"
        )
    if kind == REMOVE:
        return (
            f"{quoted(action)}: remove exactly the Units over 10 from an overstacked town of your own; "
            f"choices: {sample} — Patton: Positioning of Units"
        )
    return f"{quoted(action)} is not legal now; legal: {sample} — {_when(s, kind)}"


# When each kind of action is taken, and the rule that says so: the reason given for an action
# tried in the wrong phase (a move after the first battle, a retreat before any battle, ...).
_WHEN = {
    MOVE: "moves are made in the mover's Movement phase, all of them before the first battle — Patton: Battles",
    END: "movement is ended once, by the mover, before the battles — Patton: Using Movement Points",
    LAND: "landings are made with Movement Points in the Allied Movement phase — Patton: Sicily — Allied Landings",
    BATTLE: "the mover picks the next battle once all his moves are made — Patton: Battles",
    CASUALTIES: "casualties are taken after the dice of a battle are thrown — Patton: Casualties",
    TIE_RETREAT: "a voluntary retreat is offered only after a tie — Patton: Battles",
    STAND: "standing to refight is offered only after a tie — Patton: Battles",
    RETREAT: "Units retreat only after losing a battle (or choosing to after a tie) — Patton: Retreating",
    DEFECT: "Italian defection is taken at the end of the Axis turn after a yellow town was held — "
    "Patton: Sicily — Italian Defection",
    REMOVE: "excess Units are removed after a turn is completed — Patton: Positioning of Units",
}


def _when(s: PattonState, kind: Kind) -> str:
    if kind in (ROLL, WAIT, RESERVE):
        return f"reserves are thrown for and entered at the end of a turn — {reserves_rule(s)}"
    if kind in (PLACE, PLACE_DEFAULT):
        return f"Units are placed before the first turn — {_start_rule(s)}"
    return _WHEN.get(kind, "not now — Patton: General Rules")


def _start_rule(s: PattonState) -> str:
    from .placement import starting_rule

    return starting_rule(s)


def _why_move(s: PattonState, act: Action, action: str) -> str:
    """Which of the rules `movement.legal_moves` applies refuses this move (it is not among them)."""
    b = s.board
    d, a, i = act.where, act.armor, act.infantry
    x, y = _ends(s, d)
    r = d >> 1
    if s.side[x] != s.mover:
        return (
            f"{quoted(action)}: the {b.side_names[s.mover]} have no Units in {b.towns[x].name} — "
            "Patton: Using Movement Points"
        )
    if x == trapped_town(s):
        return (
            f"{quoted(action)}: the Units trapped in {b.towns[x].name} cannot move until relieved — "
            "Patton: The Bulge — Objective"
        )
    ma, mi = movable(s, x)
    if a > ma or i > mi:
        landed = " (Units landed this turn cannot move along roads)" if s.frozen_a[x] + s.frozen_i[x] else ""
        return (
            f"{quoted(action)}: only {mix_text(ma, mi) or 'no Units'} can move from {b.towns[x].name}{landed} — "
            "Patton: Using Movement Points"
        )
    if s.seg[r] + a + i > SEGMENT_LIMIT:
        return (
            f"{quoted(action)}: at most 5 Units can use one road segment a turn ({s.seg[r]} already have) — "
            "Patton: Using Movement Points"
        )
    cost = (a + i) * b.road_cost[r]
    if cost > s.mp:
        return (
            f"{quoted(action)}: it costs {cost} MP ({b.road_kind[r]} road), only {s.mp} left — "
            "Patton: Using Movement Points"
        )
    if s.mover == 1 and y == trapped_town(s):
        return (
            f"{quoted(action)}: the Units trapped in {b.towns[y].name} cannot take part in any battle until relieved — "
            "Patton: The Bulge — Objective"
        )
    return f"{quoted(action)} is not legal now — Patton: Using Movement Points"


def _units(n: int) -> str:
    """ "1 Unit", "3 Units": a count of Units as the rules word it."""
    return f"{n} Unit{'s' if n != 1 else ''}"
