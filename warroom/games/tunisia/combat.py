"""11.0 Attacking and 12.0 Defending: who may attack what, the modifiers, and whether a roll succeeds.

An attack and its defence are simultaneous d12 rolls (12.3): each succeeds on a final result at or under
its unit's printed combat factor (11.5A, 12.2A), always on a natural 1 and never on a natural 12 (11.5C,
12.2C). The attack adds the single highest terrain modifier of the defender's hex and the hexside
(11.3); both add the DRMs of their involved support assets: the non-air ones stacked with the unit (two
at most, 11.4, 12.1B: the stacking limit already allows no more) and one air asset (7.3B).
"""

from __future__ import annotations

from .air import drm_of
from .catalog import Catalog
from .state import TunisiaState

ATTACKING, TERRAIN, SUPPORT, DEFENDING, SIMULTANEOUS, LONE = "11.1", "11.3", "11.4", "12.1", "12.3", "12.4"


def combat_factor(cat: Catalog, s: TunisiaState, unit: int) -> int:
    return cat.reduced_cf[unit] if s.reduced[unit] else cat.cf[unit]


def succeeds(roll: int, modifier: int, combat_factor: int) -> bool:
    """11.5, 12.2: a natural 1 always succeeds, a natural 12 always fails, else roll + modifier <= CF."""
    if roll == 1:
        return True
    if roll == 12:
        return False
    return roll + modifier <= combat_factor


def supporting_assets(cat: Catalog, s: TunisiaState, hex_: int, side: int) -> list[int]:
    """The non-air support assets of `side` in `hex_` that add their DRM to its roll (at most two: 11.4,
    12.1B): those that have not attacked this Combat Phase (11.1A: no support asset attacks twice, a
    breakthrough's own aside, which `breakthrough.conducting` makes ready again: 15.0C)."""
    out = []
    loc, attacked, is_unit, is_air, owner = s.loc, s.attacked, cat.is_unit, cat.is_air, cat.side
    for p, where in enumerate(loc):
        if where == hex_ and owner[p] == side and not is_unit[p] and not is_air[p] and not attacked[p]:
            out.append(p)
            if len(out) == 2:
                break
    return out


def support_drm(cat: Catalog, s: TunisiaState, hex_: int, side: int, air: int) -> int:
    """The DRMs of `supporting_assets` plus the air asset's, if one joined the battle."""
    total = sum(drm_of(cat, s, p) for p in supporting_assets(cat, s, hex_, side))
    if air >= 0:
        total += drm_of(cat, s, air)
    return total


def attack_modifier(cat: Catalog, s: TunisiaState, origin: int, target: int, side: int, air: int) -> int:
    """11.3-11.4: the terrain modifier (defender's hex or the hexside, the highest), then the supports."""
    return cat.board.combat_modifier(origin, target) + support_drm(cat, s, origin, side, air)


def targets(cat: Catalog, s: TunisiaState, unit: int, occupants: dict[int, list[int]]) -> list[int]:
    """11.1B: the adjacent hexes holding enemy pieces (every land hexside is passable on this map)."""
    side = cat.side[unit]
    out = []
    for h in cat.board.grid.neighbour_table[s.loc[unit]]:
        here = occupants.get(h)
        if here and cat.side[here[0]] != side:
            out.append(h)
    return out
