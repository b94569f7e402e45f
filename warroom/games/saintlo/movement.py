"""Where a unit may move (6.1, 7.4, 7.5): every step one hex, terrain and units only forbid.

Land units (6.1): up to their mobility; never into a river hex but at a bridge; through friendly land
units and the own live Command Posts (NOTES.md, open question 2) but never through enemy land units or
enemy Command Posts; they end in a hex with no land unit and no live Command Post. Aircraft do not
hinder land units (7.4: aircraft stand over land units). Supply units step only along a road's own
hexsides (7.5). Aircraft (7.4) fly anywhere within their mobility and end in a hex with no other
aircraft. A land unit granted cross_rivers (Combat Engineers, 9) may pass river hexes but not end on one.
"""

from __future__ import annotations

from typing import NamedTuple

from .effects import forbidden, granted, stat
from .state import OFF, SaintLoState
from .tables import AIRCRAFT, MOBILITY_STAT, SUPPLY, Tables


class Occupancy(NamedTuple):
    """For one army's land units, as bit masks over the hexes (bit h: hex h): which hexes may be passed (no
    enemy land unit, no enemy live Command Post) and which may end a move (no land unit, no live Command
    Post). All a land reach depends on besides the board."""

    passable: int
    endable: int


def occupancy(t: Tables, s: SaintLoState, army: int) -> Occupancy:
    """The army's Occupancy now: made once per legal list."""
    passable = endable = t.all_hexes_mask
    pos, land_units, bit = s.pos, t.land_units, t.hex_bit
    for side in (0, 1):
        for u in land_units[side]:
            h = pos[u]
            if h != OFF:
                endable &= ~bit[h]
                if side != army:  # 6.1: through own land units, never through the enemy's
                    passable &= ~bit[h]
    for p, h in enumerate(s.post_hex):
        if h >= 0:
            endable &= ~bit[h]
            if p // 8 != army:  # NOTES.md, open question 2
                passable &= ~bit[h]
    return Occupancy(passable, endable)


def destinations(t: Tables, s: SaintLoState, u: int, occupied: Occupancy | None = None) -> list[int]:
    """The hexes unit u may end a move in now (its own hex excluded: staying is not a move), nearest first
    and in hex order within a distance; `occupied`: the army's `occupancy`, when the caller has it."""
    start = s.pos[u]
    if start == OFF:
        return []
    if s.effects:
        if forbidden(t, s, u, "move"):
            return []
        mobility = stat(t, s, u, MOBILITY_STAT)
    else:  # no Battle Report in play: the printed value (the common case, kept cheap for playouts)
        mobility = t.base[u][MOBILITY_STAT]
    if mobility <= 0:
        return []
    kind = t.unit_type[u]
    if kind == AIRCRAFT:
        air_at = s.air_at
        return [j for j in t.air_reach(start, mobility) if air_at[j] == OFF]
    occ = occupied if occupied is not None else occupancy(t, s, t.unit_army[u])
    if kind == SUPPLY:
        return _land_reach(t, start, mobility, SUPPLY_MOVER, occ.passable, occ.endable)
    if s.effects and granted(t, s, u, "cross_rivers"):  # cross, never stop on a river
        return _land_reach(t, start, mobility, CROSSING_MOVER, occ.passable, occ.endable & t.land_mask)
    return _land_reach(t, start, mobility, LAND_MOVER, occ.passable, occ.endable)


LAND_MOVER, SUPPLY_MOVER, CROSSING_MOVER = range(3)
_CACHE_LIMIT = 200_000


def _land_reach(t: Tables, start: int, mobility: int, mover: int, passable: int, endable: int) -> list[int]:
    """The breadth-first reach of a land mover over bit masks, remembered by what it depends on: the
    occupancy of the hexes within its mobility (a unit that has not moved, among units that have not, is
    answered from the cache)."""
    region = t.region_mask(start, mobility)
    key = (start, mobility, mover, passable & region, endable & region)
    cache = t.reach_cache
    found = cache.get(key)
    if found is not None:
        return list(found)
    steps = t.step_masks[mover]
    bit = t.hex_bit
    seen = bit[start]
    frontier = [start]
    out = []
    for _ in range(mobility):
        reached = 0
        for i in frontier:
            reached |= steps[i]
        entered = reached & ~seen & passable  # 6.1 f8: never through enemy land units or Command Posts
        if not entered:
            break
        seen |= entered
        frontier = _hexes_of(entered)
        ends = entered & endable
        if ends:
            out.extend(_hexes_of(ends))
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = tuple(out)
    return out


def _hexes_of(mask: int) -> list[int]:
    """The hexes of a bit mask, in hex order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
