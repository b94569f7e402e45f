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
    """For one army's land units: which hexes may be passed (no enemy land unit, no enemy live Command
    Post) and which may end a move (no land unit, no live Command Post); `code` both in one byte a hex
    (passable + 2 * endable), what a reach depends on."""

    passable: bytearray
    endable: bytearray
    code: bytes


def occupancy(t: Tables, s: SaintLoState, army: int) -> Occupancy:
    """The army's Occupancy now: made once per legal list."""
    n = t.n_hexes
    passable, endable = bytearray(b"\x01") * n, bytearray(b"\x01") * n
    pos, unit_type = s.pos, t.unit_type
    for side in (0, 1):
        for u in t.army_units[side]:
            h = pos[u]
            if h != OFF and unit_type[u] != AIRCRAFT:
                endable[h] = 0
                if side != army:
                    passable[h] = 0
    for p, h in enumerate(s.post_hex):
        if h >= 0:
            endable[h] = 0
            if p // 8 != army:
                passable[h] = 0
    return Occupancy(passable, endable, bytes(map(_code, passable, endable)))


def _code(passable: int, endable: int) -> int:
    return passable | endable << 1


def destinations(t: Tables, s: SaintLoState, u: int, occupied: Occupancy | None = None) -> list[int]:
    """The hexes unit u may end a move in now (its own hex excluded: staying is not a move); `occupied`:
    the army's `occupancy`, when the caller has it."""
    start = s.pos[u]
    if start == OFF or forbidden(t, s, u, "move"):
        return []
    mobility = stat(t, s, u, MOBILITY_STAT)
    if mobility <= 0:
        return []
    kind = t.unit_type[u]
    if kind == AIRCRAFT:
        air_at = s.air_at
        return [j for j in t.air_reach(start, mobility) if air_at[j] == OFF]
    occ = occupied if occupied is not None else occupancy(t, s, t.unit_army[u])
    if kind == SUPPLY:
        return _land_reach(t, start, mobility, SUPPLY_MOVER, occ)
    if granted(t, s, u, "cross_rivers"):
        land_ok = t.land_ok
        endable = bytearray(e and land_ok[h] for h, e in enumerate(occ.endable))  # cross, never stop on a river
        return _land_reach(
            t,
            start,
            mobility,
            CROSSING_MOVER,
            Occupancy(occ.passable, endable, bytes(map(_code, occ.passable, endable))),
        )
    return _land_reach(t, start, mobility, LAND_MOVER, occ)


LAND_MOVER, SUPPLY_MOVER, CROSSING_MOVER = range(3)
_CACHE_LIMIT = 200_000


def _land_reach(t: Tables, start: int, mobility: int, mover: int, occ: Occupancy) -> list[int]:
    """The breadth-first reach of a land mover, remembered by what it depends on: the hexes within its
    mobility that may not be passed or ended in (a unit that has not moved, among units that have not,
    is answered from the cache)."""
    key = (start, mobility, mover, bytes(t.region_getter(start, mobility)(occ.code)))
    cache = t.reach_cache
    found = cache.get(key)
    if found is not None:
        return list(found)
    steps = (t.land_steps, t.supply_steps, t.air_steps)[mover]
    passable, endable = occ.passable, occ.endable
    seen = bytearray(len(passable))
    seen[start] = 1
    frontier = [start]
    out = []
    for _ in range(mobility):
        nxt = []
        for i in frontier:
            for j in steps[i]:
                if seen[j]:
                    continue
                seen[j] = 1
                if passable[j]:  # 6.1 f8: never through enemy land units or Command Posts
                    nxt.append(j)
                    if endable[j]:
                        out.append(j)
        if not nxt:
            break
        frontier = nxt
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = tuple(out)
    return out
