"""9.0 Zones of Control: the six hexes around every unit on the map (support assets project none, 9.1A;
a reduced unit still does, 9.1B, whatever the terrain)."""

from __future__ import annotations

from .catalog import Catalog
from .state import TunisiaState


def enemy_zoc(cat: Catalog, s: TunisiaState, side: int) -> set[int]:
    """The hexes in the zone of control of `side`'s enemies (an EZOC for `side`)."""
    neighbours = cat.board.grid.neighbour_table
    out: set[int] = set()
    loc, is_unit = s.loc, cat.is_unit
    for piece in cat.by_side[1 - side]:
        where = loc[piece]
        if where >= 0 and is_unit[piece]:
            out.update(neighbours[where])
    out.discard(-1)
    return out
