"""6.0 Stacking: one unit a hex, two support assets (three when one is an air asset), and who is where.

`occupants` lists the pieces of each occupied hex (built once per query, not kept in the state);
`fits` is the one test of a stack's legality that movement, retreats, advances, replacements and
arrivals all ask.
"""

from __future__ import annotations

from collections.abc import Iterable

from .catalog import Catalog
from .state import TunisiaState


def occupants(s: TunisiaState, pieces: Iterable[int] | None = None) -> dict[int, list[int]]:
    """Hex -> the pieces in it (any side; the rules never leave both sides in one hex); `pieces`: only these,
    in their order (one side's, say)."""
    out: dict[int, list[int]] = {}
    loc = s.loc
    for piece in range(len(loc)) if pieces is None else pieces:
        where = loc[piece]
        if where >= 0:
            here = out.get(where)
            if here is None:
                out[where] = [piece]
            else:
                here.append(piece)
    return out


def fits(cat: Catalog, pieces: list[int] | tuple[int, ...]) -> bool:
    """6.0A-C: at most one unit, and at most two support assets, or three if one of them is an air asset."""
    units = supports = air = 0
    is_unit, is_air = cat.is_unit, cat.is_air
    for p in pieces:
        if is_unit[p]:
            units += 1
        else:
            supports += 1
            if is_air[p]:
                air += 1
    return units <= 1 and supports <= (3 if air else 2)


def may_join(cat: Catalog, here: list[int] | None, pieces: list[int] | tuple[int, ...]) -> bool:
    """Whether `pieces` may end in a hex that holds `here` (6.0)."""
    return fits(cat, [*here, *pieces]) if here else fits(cat, pieces)


def unit_at(cat: Catalog, here: list[int] | None) -> int:
    """The unit of a stack (-1: support assets only)."""
    if here:
        for p in here:
            if cat.is_unit[p]:
                return p
    return -1
