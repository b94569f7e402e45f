"""15.0 Breakthroughs: a unit stacked with a general, after a successful attack that cleared the hex, may
move again with its general and attack a second time (battle.py opens the step; this module lists and
makes the breakthrough's moves and attacks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import Events

from .movement import compute_reach, enemy_occupied
from .stacking import may_join, occupants
from .state import TunisiaState
from .zoc import enemy_zoc

if TYPE_CHECKING:
    from .rules import TunisiaRules


def group(rules: TunisiaRules, s: TunisiaState, unit: int) -> tuple[int, list[int]]:
    """15.0: the general stacked with the breakthrough unit, and the other non-air support assets with it."""
    cat = rules.cat
    where = s.loc[unit]
    general, others = -1, []
    for p, w in enumerate(s.loc):
        if w == where and p != unit and cat.side[p] == cat.side[unit] and not cat.is_unit[p] and not cat.is_air[p]:
            if general < 0 and cat.is_general[p]:
                general = p
            else:
                others.append(p)
    return general, others


def conducting(rules: TunisiaRules, s: TunisiaState, unit: int) -> list[int]:
    """15.0C: the support assets conducting the breakthrough with `unit`, those stacked with it (its general
    and the others that made its attack; 11.1A's exception lets them attack a second time, and 15.0E no
    more once it is done)."""
    general, others = group(rules, s, unit)
    return [general, *others] if general >= 0 else others


def moves(rules: TunisiaRules, s: TunisiaState) -> dict[int, list[int]]:
    """15.0C: where the unit may move again with its general (who must stay with it), and which pieces go.

    Every hex both can reach and end in together (6.0) is offered. The other support assets that made the
    attack with them go along where they can reach the hex and it has room for them (each in turn, NOTES.md
    reading 12): an asset that cannot keep up, or would overstack the hex, stays, and never bars the move."""
    cat = rules.cat
    unit = s.breakthrough
    general, others = group(rules, s, unit)
    if general < 0:
        return {}
    side = s.player
    ezoc, blocked = enemy_zoc(cat, s, side), enemy_occupied(cat, s, side)
    unit_reach = compute_reach(cat, s, unit, ezoc, blocked)
    general_reach = compute_reach(cat, s, general, ezoc, blocked)
    other_reach = [(p, compute_reach(cat, s, p, ezoc, blocked)) for p in others]
    occ = occupants(s)
    out: dict[int, list[int]] = {}
    for dest in unit_reach:
        if dest not in general_reach:
            continue
        here = occ.get(dest)
        going = [unit, general]
        if not may_join(cat, here, going):
            continue
        for p, r in other_reach:
            if dest in r and may_join(cat, here, [*going, p]):
                going.append(p)
        out[dest] = going
    return out


def choices(rules: TunisiaRules, s: TunisiaState) -> list[str]:
    """15.0D: a move (before any attack), an attack from where it stands, both, or neither."""
    cat = rules.cat
    unit = s.breakthrough
    out: list[str] = []
    if s.bt_attacked:
        return out
    if not s.bt_moved:
        head = f"move {cat.ids[unit]} {rules.labels[s.loc[unit]]} "
        out.extend(head + rules.labels[d] for d in moves(rules, s))
    if group(rules, s, unit)[0] >= 0:
        out.extend(rules.attack_choices(s, [unit]))
    return out


def move(rules: TunisiaRules, s: TunisiaState, dest: int, events: Events) -> None:
    """15.0C: the unit moves again with its general (and any support asset that can keep up)."""
    going = moves(rules, s)[dest]
    if events.on:
        events.emit(
            "breakthrough_move",
            f"{' and '.join(rules.cat.name[p] for p in going)} break through to {rules.labels[dest]}.",
            "15.0C",
        )
    for p in going:
        s.loc[p] = dest
    s.bt_moved = True
