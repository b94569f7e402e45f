"""Tunisia's board for the browser: the map from the game's own data (board.py, data/*.toml) through the shared
builder (warroom.web.hexmap), every counter's printed values, the airfields, the tracks. static/board.js draws it
with /static/js/hexmap.js. `map_features` is the map data the terminal's text map (render.py) takes too.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.web.hexmap import HexPath, HexPlace, hex_layout

from ..board import Board, load_board
from ..catalog import SIDE_NAMES, Catalog

HEX_SIZE = 40.0


def map_features(board: Board) -> dict[str, Any]:
    """The keyword arguments of `hex_layout` and `TextHexMap` for the printed map: terrain (3.0, TEC), rivers,
    bridges and the orange border on hexsides (8.3, 5.1A), roads and the railway (8.4), villages and ports (4.0A)."""
    grid = board.grid
    paths = [HexPath("road", chain, name) for name, chain in board.roads.items()]
    paths += [HexPath("railway", chain, name) for name, chain in board.railways.items()]
    places = [HexPlace(i, p.name, p.kind) for i, p in sorted(board.place_at.items())]
    return {
        "terrain": list(board.terrain),
        "hexsides": {
            "border": sorted(board.border_sides),
            "river": sorted(board.river_sides - board.bridges),
            "bridge": sorted(board.bridges),
        },
        "paths": paths,
        "places": places,
        "grid": grid,
    }


def counters(cat: Catalog) -> dict[str, dict[str, Any]]:
    """Every counter's printed values (2.2): a unit's CF and MA on each side, a support asset's DRM (and an air
    asset's range); its type and nationality for the NATO symbol."""
    out = {}
    for p in range(cat.n):
        piece = cat.pieces[p] if p < len(cat.pieces) else None
        out[cat.ids[p]] = {
            "name": cat.name[p],
            "side": SIDE_NAMES[cat.side[p]],
            "unit": cat.is_unit[p],
            "type": piece.kind if piece else "battlegroup",
            "nation": piece.nationality if piece else "",
            "steps": cat.steps[p],
            "cf": cat.cf[p],
            "reduced_cf": cat.reduced_cf[p],
            "ma": cat.ma[p],
            "reduced_ma": cat.reduced_ma[p],
            "drm": cat.drm[p],
            "reduced_drm": cat.reduced_drm[p],
            "range": cat.range[p],
            "air": cat.is_air[p],
            "general": cat.is_general[p],
            "two_star": cat.two_star[p],
        }
    return out


def layout(scenario: str | None = None) -> dict[str, Any]:
    """The one board (one scenario): the map, the counters, airfields, setup hexes and the tracks."""
    return _layout()


@cache
def _layout() -> dict[str, Any]:
    board = load_board()
    cat = Catalog(board)
    features = map_features(board)
    grid = features.pop("grid")
    hex_map = hex_layout(grid, size=HEX_SIZE, **features)
    game = board.counters.game
    return {
        "kind": "hexmap",
        "map": hex_map,
        "units": counters(cat),
        "sides": list(SIDE_NAMES),
        "airfields": [
            {"label": grid.labels[i], "name": f.name, "side": f.side, "counts_as_allied": f.counts_as_allied}
            for i, f in sorted(board.airfields.items())
        ],
        "airbase": grid.labels[board.airbase],
        "eighth_army": sorted(grid.labels[i] for i in board.eighth_army),
        "ii_corps": sorted(grid.labels[i] for i in board.ii_corps),
        "ports": [grid.labels[i] for i in board.ports],
        "neighbours": {
            grid.labels[i]: [grid.labels[j] for j in row if j >= 0] for i, row in enumerate(grid.neighbour_table)
        },  # ZOC (9.0) and supply (7.8) on request
        "land": [grid.labels[i] for i in sorted(board.land)],
        "turns": game.turns,
        "replacements": {"Axis": board.counters.replacements.axis, "Allied": board.counters.replacements.allied},
    }
