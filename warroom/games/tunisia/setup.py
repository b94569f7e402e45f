"""5.0 Setup: the default setup of each side (counters.toml's `default` hexes, checked by board.py against
5.1-5.2 and 6.0), and the check that any setup obeys 5.1-5.2 (the fixed hexes, the zones, one air asset
a silhouette, a II Corps unit in every II Corps hex, 6.0's stacking)."""

from __future__ import annotations

from .catalog import ALLIED, Catalog
from .stacking import fits, occupants
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
