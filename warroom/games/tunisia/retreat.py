"""14.0 Retreats and Advances After Combat: the two-hex retreat of each surviving defender, with every
restriction of 14.2, and the attacker's advance into the vacated hex (7.5, 14.3)."""

from __future__ import annotations

from .catalog import Catalog
from .stacking import may_join
from .state import TunisiaState
from .zoc import enemy_zoc

RETREATS, RESTRICTIONS, ADVANCE = "14.1", "14.2", "14.3"


def retreat_options(
    cat: Catalog, s: TunisiaState, piece: int, battle_hex: int, occupants: dict[int, list[int]]
) -> list[int]:
    """The hexes `piece` may retreat to from `battle_hex`: exactly two hexes away (14.1B), through a hex
    adjacent to both, neither a non-hex area (14.2A), nor holding an enemy counter, nor in an EZOC
    (14.2C: friendly units do not negate it), the last not overstacked (14.2B)."""
    board = cat.board
    side = cat.side[piece]
    land = board.land
    ezoc = enemy_zoc(cat, s, side)

    def open_to(h: int) -> bool:
        if h < 0 or h not in land or h in ezoc:
            return False
        here = occupants.get(h)
        return not (here and cat.side[here[0]] != side)

    neighbours = board.grid.neighbour_table
    out: set[int] = set()
    for via in neighbours[battle_hex]:
        if not open_to(via):
            continue
        for end in neighbours[via]:
            if end in out or end == battle_hex or not open_to(end) or board.grid.distance(end, battle_hex) != 2:
                continue
            here = [p for p in occupants.get(end, ()) if p != piece]
            if may_join(cat, here, (piece,)):
                out.add(end)
    return sorted(out)
