"""Where a unit may move (6.1, 7.4, 7.5): every step one hex, terrain and units only forbid.

Land units (6.1): up to their mobility; never into a river hex but at a bridge; through friendly land
units and the own live Command Posts (NOTES.md, open question 2) but never through enemy land units or
enemy Command Posts; they end in a hex with no land unit and no live Command Post. Aircraft do not
hinder land units (7.4: aircraft stand over land units). Supply units step only along a road's own
hexsides (7.5). Aircraft (7.4) fly anywhere within their mobility and end in a hex with no other
aircraft. A land unit granted cross_rivers (Combat Engineers, 9) may pass river hexes but not end on one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .effects import forbidden, granted, stat
from .state import OFF, SaintLoState
from .tables import AIR_MOVER, AIRCRAFT, CROSSING_MOVER, LAND_MOVER, MOBILITY_STAT, SUPPLY, SUPPLY_MOVER, Tables, picker


class Occupancy(NamedTuple):
    """For one army's units, as bit masks over the hexes (bit h: hex h): which hexes a land unit may pass
    (no enemy land unit, no enemy live Command Post), which may end its move (no land unit, no live Command
    Post), and which hold an aircraft (where no other aircraft may end: 7.4): all a reach depends on
    besides the board; and which hold an enemy land unit or an enemy aircraft (what an aircraft may attack:
    7.4)."""

    passable: int
    endable: int
    aircraft: int
    enemy_land: int
    enemy_air: int

    def signature(self, n_hexes: int) -> int:
        """The five masks as one number, each `n_hexes` bits on from the last (the order of the fields): two
        occupancies differ where a unit's choices depend on them iff their signatures do under its
        `depends_on` mask (listing.py)."""
        return (
            self.passable
            | self.endable << n_hexes
            | self.aircraft << 2 * n_hexes
            | self.enemy_land << 3 * n_hexes
            | self.enemy_air << 4 * n_hexes
        )


def occupancy(t: Tables, s: SaintLoState, army: int) -> Occupancy:
    """The army's Occupancy now: made once per legal list, the units' hexes from `SaintLoState.unit_masks`."""
    masks = kept_unit_masks(t, s)
    bit = t.hex_bit
    own_posts = enemy_posts = 0
    for p, h in enumerate(s.post_hex):
        if h >= 0:
            if p // 8 == army:
                own_posts |= bit[h]
            else:  # NOTES.md, open question 2
                enemy_posts |= bit[h]
    own, enemy, enemy_air = masks[army], masks[1 - army], masks[3 - army]
    blocked = enemy | enemy_posts  # 6.1: through own land units, never through the enemy's
    everything = t.all_hexes_mask
    return Occupancy(
        everything & ~blocked, everything & ~(blocked | own | own_posts), masks[2] | masks[3], enemy, enemy_air
    )


def kept_unit_masks(t: Tables, s: SaintLoState) -> list[int]:
    """`SaintLoState.unit_masks`, made now if the state has none yet (setup.put and lift keep them after)."""
    masks = s.unit_masks
    if masks is None:
        masks = s.unit_masks = unit_masks(t, s)
    return masks


def unit_masks(t: Tables, s: SaintLoState) -> list[int]:
    """`SaintLoState.unit_masks` made from the units' hexes."""
    masks = [0, 0, 0, 0]
    pos, bit, index = s.pos, t.hex_bit, t.mask_index
    for u in range(t.n_units):
        h = pos[u]
        if h != OFF:
            masks[index[u]] |= bit[h]
    return masks


def reach(t: Tables, s: SaintLoState, u: int, occupied: Occupancy | None = None) -> Sequence[int]:
    """The hexes unit u may end a move in now (its own hex excluded: staying is not a move), nearest first
    and in hex order within a distance; `occupied`: the army's `occupancy`, when the caller has it. Often a
    tuple shared with a cache: read it, never change it (`destinations` is the caller's own copy)."""
    moving = _movement(t, s, u)
    if moving is None:
        return ()
    start, mobility, mover = moving
    occ = occupied if occupied is not None else occupancy(t, s, t.unit_army[u])
    return _reach(t, s, start, mobility, mover, occ)


def destinations(t: Tables, s: SaintLoState, u: int, occupied: Occupancy | None = None) -> list[int]:
    """`reach` as the caller's own list."""
    return list(reach(t, s, u, occupied))


def moves_and_region(t: Tables, s: SaintLoState, u: int, occupied: Occupancy) -> tuple[Sequence[str], int, bool]:
    """Unit u's move action ids now (`reach` as ids, in its order), the hexes whose occupancy they depend on,
    and whether that is the aircraft's (`Occupancy.aircraft`, for a unit that flies) or else where land units
    may pass and end (`passable` and `endable`).

    A Movement phase lists every unit's moves again after each one is used, and most have not changed: a
    unit's last answer stands while it is on the same hex with the same mobility and way of moving, and the
    occupancy of the hexes its reach depends on (those its search looked at, or an aircraft's range) is the
    same, which a mask or two compares at once. Otherwise the reach's own ids are remembered with it."""
    moving = _movement(t, s, u)
    if moving is None:
        return (), 0, False
    start, mobility, mover = moving
    air = mover == AIR_MOVER
    first, second = (occupied.aircraft, 0) if air else (occupied.passable, occupied.endable)
    last = t.last_moves[u]
    if (
        last is not None
        and last[0] == start
        and last[1] == mobility
        and last[2] == mover
        and not ((last[3] ^ first) | (last[4] ^ second)) & last[5]
    ):
        return last[6], last[5], air
    if air:
        region = t.region_mask(start, mobility)
        hexes: Sequence[int] = t.air_reach(start, mobility)
        ids = _ids_of(t, u, hexes)
        blocked = _aircraft_in_range(t, occupied, start, mobility)
        if blocked:  # its hexes cut out of the whole range's ids
            ids = _without(ids, sorted(map(t.air_reach_order(start, mobility).__getitem__, t.hexes_of(blocked))))
    else:  # `region`: the hexes whose occupancy the search looked at (`land_levels`)
        endable = occupied.endable & t.land_mask if mover == CROSSING_MOVER else occupied.endable
        # the reach read straight as ids: a unit's moves are asked for again only when the occupancy around
        # it changed, so its reach is seldom one a cache has seen
        levels, region = land_levels(
            t, start, mobility, mover, occupied.passable & t.terrain_reach(start, mobility, mover)
        )
        ids = tuple(level_move_ids(t.move_ids[u], levels, endable))
    t.last_moves[u] = (start, mobility, mover, first, second, region, ids)
    return ids, region, air


def _ids_of(t: Tables, u: int, hexes: Sequence[int]) -> tuple[str, ...]:
    """Unit u's move ids to `hexes`, a reach shared with a cache: remembered with it."""
    cache = t.move_choice_cache
    found = cache.get((u, id(hexes)))
    if found is None or found[0] is not hexes:  # an id reused by a reach made since: build anew
        if len(cache) >= _IDS_CACHE_LIMIT:
            cache.clear()
        found = cache[u, id(hexes)] = (hexes, picker(hexes)(t.move_ids[u]))
    return found[1]


def _without(ids: tuple[str, ...], cuts: list[int]) -> tuple[str, ...]:
    """`ids` less the entries at the positions `cuts` (ascending), by slices."""
    parts: list[str] = []
    begin = 0
    for cut in cuts:
        parts.extend(ids[begin:cut])
        begin = cut + 1
    parts.extend(ids[begin:])
    return tuple(parts)


def _movement(t: Tables, s: SaintLoState, u: int) -> tuple[int, int, int] | None:
    """Unit u's hex, mobility and how it moves (LAND_MOVER, SUPPLY_MOVER, CROSSING_MOVER for a land unit a
    card lets cross rivers, AIR_MOVER); None when it may not move now."""
    start = s.pos[u]
    if start == OFF:
        return None
    kind = t.unit_type[u]
    crossing = False
    if s.effects:
        if forbidden(t, s, u, "move"):
            return None
        mobility = stat(t, s, u, MOBILITY_STAT)
        crossing = kind != SUPPLY and granted(t, s, u, "cross_rivers")
    else:  # no Battle Report in play: the printed value (the common case, kept cheap for playouts)
        mobility = t.base[u][MOBILITY_STAT]
    if mobility <= 0:
        return None
    if kind == AIRCRAFT:
        return start, mobility, AIR_MOVER
    if kind == SUPPLY:
        return start, mobility, SUPPLY_MOVER
    return start, mobility, CROSSING_MOVER if crossing else LAND_MOVER


def _reach(t: Tables, s: SaintLoState, start: int, mobility: int, mover: int, occ: Occupancy) -> Sequence[int]:
    if mover == AIR_MOVER:
        hexes = t.air_reach(start, mobility)
        if _aircraft_in_range(t, occ, start, mobility):
            air_at = s.air_at
            return [j for j in hexes if air_at[j] == OFF]
        return hexes
    if mover == CROSSING_MOVER:  # cross, never stop on a river
        return _land_reach(t, start, mobility, mover, occ.passable, occ.endable & t.land_mask)[0]
    return _land_reach(t, start, mobility, mover, occ.passable, occ.endable)[0]


_CACHE_LIMIT = 200_000
_IDS_CACHE_LIMIT = 50_000
"""The caches' sizes, cleared when full: a long study or a server's many games stay within tens of MB."""


def _aircraft_in_range(t: Tables, occ: Occupancy, start: int, mobility: int) -> int:
    """The hexes within an aircraft's range, its own hex aside, that hold another aircraft (7.4), as a mask."""
    return occ.aircraft & ~t.hex_bit[start] & t.region_mask(start, mobility)


def _land_reach(
    t: Tables, start: int, mobility: int, mover: int, passable: int, endable: int
) -> tuple[tuple[int, ...], int]:
    """The breadth-first reach of a land mover over bit masks, and the hexes whose occupancy it looked at (a
    reach stands while theirs does), remembered by what it depends on: the occupancy of the hexes it could
    enter on an empty board (a unit that has not moved, among units that have not, is answered from the
    cache: the same tuple, shared, so never changed)."""
    region = t.terrain_reach(start, mobility, mover)
    key = (start, mobility, mover, passable & region, endable & region)
    cache = t.reach_cache
    found = cache.get(key)
    if found is not None:
        return found
    levels, looked_at = land_levels(t, start, mobility, mover, passable & region)
    out: list[int] = []
    for entered, hexes in levels:
        ends = entered & endable
        if ends == entered:
            out.extend(hexes)
        elif ends:
            out.extend([h for h in hexes if ends >> h & 1])
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    found = cache[key] = (tuple(out), looked_at)
    return found


def level_move_ids(move_ids: list[str], levels: tuple[tuple[int, tuple[int, ...]], ...], endable: int) -> list[str]:
    """A land unit's move ids (`move_ids`: its per-hex ids) to the hexes its search entered (`land_levels`)
    where a move may end, nearest first and in hex order within a distance."""
    out: list[str] = []
    for entered, level in levels:
        ends = entered & endable
        if ends == entered:
            out.extend(map(move_ids.__getitem__, level))
        elif ends:
            out.extend([move_ids[h] for h in level if ends >> h & 1])
    return out


def land_levels(
    t: Tables, start: int, mobility: int, mover: int, passable: int
) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int]:
    """The hexes a land mover enters at each step (as a mask and in hex order), and every hex it looked at on
    the way, whatever may end a move there: a unit moving elsewhere in the army changes only where moves may
    end, so the steps themselves are remembered by the hexes that may be passed (`passable`, within the
    terrain's reach)."""
    key = (start, mobility, mover, passable)
    cache = t.level_cache
    found = cache.get(key)
    if found is not None:
        return found
    seen = frontier = t.hex_bit[start]
    looked_at = 0
    levels: list[tuple[int, tuple[int, ...]]] = []
    for _ in range(mobility):
        ahead = t.step_out(frontier, mover) & ~seen
        looked_at |= ahead
        entered = ahead & passable  # 6.1 f8: never through enemy units or posts
        if not entered:
            break
        seen |= entered
        frontier = entered
        levels.append((entered, tuple(t.hexes_of(entered))))  # tuples of ints: the collector untracks them
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    found = cache[key] = (tuple(levels), looked_at)
    return found
