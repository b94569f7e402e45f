"""The Movement and Attack list when no unit is in use (5.3, 6, 7, 9): every usable unit's moves and attacks,
made from what the last list found wherever the board around a unit has not changed.

Between two such lists one unit was used: it moved, attacked, or both, and a card may have been played. A
unit's moves and attacks depend on its hex and on the occupancy of the hexes its search looked at (and of
those beside it), which `movement.Occupancy.signature` holds as one number: they stand while those bits
stand, one mask a unit. When only where moves may end changed around a land unit (an own unit moved through
its reach), its moves are mended id by id rather than searched again: a unit that left frees a hex, one that
arrived fills one, and the search's steps stay the same. A unit a Battle Report in play changes is listed
afresh every time (`effects.affected_units`); every other unit acts as if no card were in play.
"""

from __future__ import annotations

from . import attack as attacks
from .effects import affected_units
from .movement import Occupancy, land_levels, level_move_ids, moves_and_region
from .state import OFF, SaintLoState
from .tables import ADJACENT_STEPS, AIRCRAFT, INFANTRY, LAND_MOVER, MOBILITY_STAT, SUPPLY, SUPPLY_MOVER, TANK, Tables

Levels = tuple[tuple[int, tuple[int, ...]], ...]
"""A land unit's breadth-first search: per step, the hexes entered as a mask and in hex order."""
Known = tuple[int, bool, int, int, list[str], Levels | None]
"""A unit's remembered choices (`Tables.last_choices`): hex, Supply left, `Occupancy.signature`, the
signature's bits they depend on, ids (moves first, nearest first, then attacks), a land unit's search steps."""


def unused_units_choices(t: Tables, s: SaintLoState, seat: int, army: int, occupied: Occupancy) -> list[str]:
    """The moves and attacks of every unit the seat may still use this turn, unit by unit in army order."""
    out: list[str] = []
    pos, used = s.pos, s.used
    supplied = s.supplies[army] >= 1
    last = t.last_choices
    changed = affected_units(t, s)
    n = t.n_hexes
    signature = occupied.signature(n)
    # 10: in the team game a player uses only his own units (`seats.may_use`)
    for v in t.army_units[army] if s.seats == 2 else t.role_units[army][seat % 2]:
        h = pos[v]
        if h == OFF or used[v]:
            continue
        if v in changed:
            out.extend(unit_choices(t, s, v, occupied, supplied)[0])
            continue
        known = last[v]
        if known is not None and known[0] == h and known[1] is supplied:
            moved = (known[2] ^ signature) & known[3]
            if not moved:
                out.extend(known[4])
                continue
            levels = known[5]
            if levels is not None and not moved & t.all_hexes_mask:  # only where moves may end changed
                ids = _mended(t, v, known, moved >> n, occupied.endable)
                last[v] = (h, supplied, signature, known[3], ids, levels)
                out.extend(ids)
                continue
        entry = last[v] = _listed(t, s, v, occupied, supplied, signature)
        out.extend(entry[4])
    return out


def unit_choices(t: Tables, s: SaintLoState, v: int, occupied: Occupancy, supplied: bool) -> tuple[list[str], int]:
    """Unit v's move and attack ids when no unit is in use (5.3: with Supply left, or a free move for foot
    infantry: 7.1), Battle Reports in play applied, and the bits of `Occupancy.signature` they depend on."""
    n = t.n_hexes
    ids: list[str] = []
    depends_on = 0
    if supplied or t.foot[v]:
        moves, region, air = moves_and_region(t, s, v, occupied)
        ids.extend(moves)
        depends_on = region << 2 * n if air else region | region << n
    if supplied:
        ids.extend(map(t.attack_ids[v].__getitem__, attacks.targets(t, s, v, occupied.passable)))
        depends_on |= _attack_dependency(t, v, s.pos[v])
    return ids, depends_on


def _attack_dependency(t: Tables, v: int, here: int) -> int:
    """The signature's bits unit v's attacks depend on: enemy aircraft beside an aircraft and an enemy land
    unit beneath it (7.4); an enemy land unit or Command Post beside a land unit (6.2: where it may not pass)."""
    kind = t.unit_type[v]
    n = t.n_hexes
    beside = t.step_masks[ADJACENT_STEPS][here]
    if kind == AIRCRAFT:
        return beside << 4 * n | t.hex_bit[here] << 3 * n
    if kind in (INFANTRY, TANK):
        return beside
    return 0


def _listed(t: Tables, s: SaintLoState, v: int, occupied: Occupancy, supplied: bool, signature: int) -> Known:
    """Unit v's choices made anew, remembered as (hex, Supply left, signature, the signature's bits they depend
    on, ids, a land unit's search steps or None)."""
    here = s.pos[v]
    mobility = t.base[v][MOBILITY_STAT]
    kind = t.unit_type[v]
    if kind == AIRCRAFT or mobility <= 0 or not (supplied or t.foot[v]):
        ids, depends_on = unit_choices(t, s, v, occupied, supplied)
        return here, supplied, signature, depends_on, ids, None
    n = t.n_hexes
    mover = SUPPLY_MOVER if kind == SUPPLY else LAND_MOVER
    levels, region = land_levels(t, here, mobility, mover, occupied.passable & t.terrain_reach(here, mobility, mover))
    ids = level_move_ids(t.move_ids[v], levels, occupied.endable)
    depends_on = region | region << n
    if supplied:
        ids.extend(map(t.attack_ids[v].__getitem__, attacks.targets(t, s, v, occupied.passable)))
        depends_on |= _attack_dependency(t, v, here)
    return here, supplied, signature, depends_on, ids, levels


def _mended(t: Tables, v: int, known: Known, changed: int, endable: int) -> list[str]:
    """A land unit's remembered ids with its moves mended where only `endable` changed (`changed`: the hexes
    whose endable bit differs, and perhaps higher bits no land unit depends on): each hex its search entered
    that may now end a move gains its id in order (nearest first, in hex order within a distance), each
    that may not loses it. The search's steps and the attacks are the same."""
    levels = known[5]
    assert levels is not None
    full = t.all_hexes_mask
    was = known[2] >> t.n_hexes & full  # where moves could end when the ids were made
    changed &= full
    ids = known[4]
    fresh = False
    move_ids = t.move_ids[v]
    while changed:
        low = changed & -changed
        changed ^= low
        before = 0  # the moves listed before this hex's place
        for entered, _ in levels:
            if entered & low:
                before += (entered & was & (low - 1)).bit_count()
                if not fresh:
                    ids, fresh = list(ids), True
                if endable & low:
                    ids.insert(before, move_ids[low.bit_length() - 1])
                    was |= low
                else:
                    del ids[before]
                    was &= ~low
                break
            before += (entered & was).bit_count()
    return ids
