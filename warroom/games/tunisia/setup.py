"""5.0 Setup: the default setup of each side (counters.toml's `default` hexes, checked by board.py against
5.1-5.2 and 6.0), and the check that any setup obeys 5.1-5.2 (the fixed hexes, the zones, one air asset
a silhouette, a II Corps unit in every II Corps hex, 6.0's stacking)."""

from __future__ import annotations

from .catalog import ALLIED, AXIS, Catalog
from .stacking import fits, may_join, occupants
from .state import OFF_MAP, TunisiaState

ALLIED_SETUP, AXIS_SETUP = "5.1", "5.2"


def default_setup(cat: Catalog) -> TunisiaState:
    """A fresh state with every piece on its default hex; the two-star pieces, Patton and the
    battlegroups off the map (5.1A)."""
    s = TunisiaState(cat.n)
    for p in range(cat.n):
        where = cat.default[p]
        s.loc[p] = where if where is not None else OFF_MAP
    return s


def free_setup(cat: Catalog, s: TunisiaState, side: int) -> tuple[int, ...]:
    """Take `side`'s pieces off the map for it to place them (5.1, 5.2), in the order they are placed: the
    fixed hexes first (5.1B, 5.2B), then the II Corps units (one in each II Corps hex, 5.1C), then the rest
    in counter order (so no free choice ever blocks a rule's fixed placement)."""
    pieces = [p for p in cat.by_side[side] if p < len(cat.pieces) and cat.pieces[p].setup_hexes]
    for p in pieces:
        s.loc[p] = OFF_MAP

    def order(p: int) -> int:
        setup = cat.pieces[p].setup
        return 0 if setup == "hex" else 1 if setup == "ii_corps" and cat.is_unit[p] else 2

    return tuple(sorted(pieces, key=order))


def setup_options(cat: Catalog, s: TunisiaState, piece: int) -> list[int]:
    """5.1-5.2: the hexes of the piece's setup zone free of the enemy where the stack can take it (6.0), one
    air asset a silhouette (5.1D, 5.2C), and leaving enough II Corps units for every empty II Corps hex
    (5.1C)."""
    occ = occupants(s)
    side = cat.side[piece]
    out = []
    ii_corps_unit = cat.is_unit[piece] and cat.pieces[piece].setup == "ii_corps"
    if ii_corps_unit:
        empty = [h for h in cat.board.ii_corps if not any(cat.is_unit[q] for q in occ.get(h, ()))]
        waiting = sum(1 for q in s.placing if cat.is_unit[q] and cat.pieces[q].setup == "ii_corps")
    for h in sorted(cat.pieces[piece].setup_hexes):
        here = occ.get(h)
        if here and cat.side[here[0]] != side:
            continue
        if cat.is_air[piece] and here and any(cat.is_air[q] for q in here):
            continue
        if not may_join(cat, here, (piece,)):
            continue
        if ii_corps_unit and h not in empty and waiting - 1 < len(empty):
            continue
        out.append(h)
    return out


SETUP_RULE = {AXIS: AXIS_SETUP, ALLIED: ALLIED_SETUP}


def setup_problems(cat: Catalog, s: TunisiaState) -> list[str]:
    """What breaks 5.1-5.2 or 6.0 in a starting position (empty: a legal setup)."""
    out = []
    for p in range(cat.n):
        piece = cat.pieces[p] if p < len(cat.pieces) else None
        where = s.loc[p]
        if piece is None or not piece.setup_hexes:
            if where >= 0:
                out.append(f"{cat.ids[p]} enters later, not at setup (5.1A)")
            continue
        if where not in piece.setup_hexes:
            rule = ALLIED_SETUP if cat.side[p] == ALLIED else AXIS_SETUP
            out.append(f"{cat.ids[p]} may not set up in {cat.board.label(where) if where >= 0 else 'no hex'} ({rule})")
    occ = occupants(s)
    for h, here in occ.items():
        if not fits(cat, here):
            out.append(f"hex {cat.board.label(h)} is overstacked (6.0)")
        if sum(1 for p in here if cat.is_air[p]) > 1:
            out.append(f"hex {cat.board.label(h)} holds two air assets (5.1D, 5.2C)")
    for h in cat.board.ii_corps:
        if not any(cat.ii_corps[p] and cat.is_unit[p] for p in occ.get(h, ())):
            out.append(f"II Corps hex {cat.board.label(h)} holds no II Corps unit (5.1C)")
    return out
