"""The drawing data of a hex map for the browser: every hex's centre and corners, hexside segments, paths
through hex centres and place names, JSON-ready, from a `HexGrid` and the map's features.

A hex game's `layout.py` calls `hex_layout` with its own map data (terrain per hex, rivers and bridges on
hexsides, roads and railways as chains of hexes, places); `static/js/hexmap.js` draws the answer, so the
browser never repeats the geometry and no game hand-writes coordinates. Nothing here names a game.

Geometry follows Red Blob Games' hexagon guide: flat-topped hexes for column maps ("even-q", "odd-q"),
pointy-topped ones for row maps ("even-r", "odd-r"), screen y pointing down (the printed map's row
numbers grow downwards). Every corner starts as an integer point of a lattice (half a hex's size across,
half its height down) and only then scaled, so the corner two or three hexes share is the same number in
each of them: a hexside's segment is exactly an edge of both its hexes' polygons, with no rounding gap.

Speed: a 450-hex map (18 x 25, as large as the hex games have) with 40 river hexsides, four roads of 20
hexes and 30 places builds in about 12 ms on the shared 2-core machine, 105 kB as JSON
(measured once; tests/test_hexmap.py holds it under a generous bound).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from warroom.engine.hexgrid import HexGrid

__all__ = ["FLAT_CORNERS", "POINTY_CORNERS", "HexPath", "HexPlace", "corner_lattice", "hex_layout", "orientation"]

FLAT_CORNERS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
"""A flat-topped hex's corners from its centre, clockwise from the east one, in lattice units (x: half the
hex's size, y: half its height, size * sqrt(3) / 2)."""
POINTY_CORNERS: tuple[tuple[int, int], ...] = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))
"""A pointy-topped hex's corners from its centre, clockwise from the lower right one, in lattice units
(x: half the hex's width, size * sqrt(3) / 2; y: half its size)."""

DIGITS = 2
"""Decimals of every coordinate sent (a hundredth of a pixel: finer than any screen)."""


class HexPath(NamedTuple):
    """A road, railway or track: a chain of hexes (grid indices), each adjacent to the next, drawn through their
    centres. `kind` becomes its CSS class (`path-road`)."""

    kind: str
    hexes: Sequence[int]
    name: str = ""


class HexPlace(NamedTuple):
    """A named place in a hex (a town, a port, an objective); `kind` becomes its CSS class (`place-town`)."""

    hex: int
    name: str
    kind: str = "town"


def orientation(grid: HexGrid) -> str:
    """The hexes' shape: "flat" for a column map (flat-topped hexes), "pointy" for a row map."""
    return "flat" if grid.offset.endswith("q") else "pointy"


def _centre(q: int, r: int, flat: bool) -> tuple[int, int]:
    """A hex's centre on the lattice."""
    return (3 * q, q + 2 * r) if flat else (2 * q + r, 3 * r)


def corner_lattice(grid: HexGrid, i: int) -> tuple[tuple[int, int], ...]:
    """Hex i's six corners on the integer lattice, in the order of FLAT_CORNERS or POINTY_CORNERS: equal
    integers for a corner that hexes share."""
    flat = orientation(grid) == "flat"
    cx, cy = _centre(*grid.hexes[i], flat)
    return tuple((cx + dx, cy + dy) for dx, dy in (FLAT_CORNERS if flat else POINTY_CORNERS))


def hex_layout(
    grid: HexGrid,
    *,
    size: float = 40.0,
    terrain: Sequence[str] | Mapping[int, str] = (),
    default_terrain: str = "open",
    hexsides: Mapping[str, Iterable[int]] | None = None,
    paths: Iterable[HexPath] = (),
    places: Iterable[HexPlace] = (),
    margin: float | None = None,
) -> dict[str, Any]:
    """The map's drawing data, JSON-ready (every hex by its printed label, coordinates in SVG user units).

    `size`: a hex's centre-to-corner distance. `terrain`: each hex's terrain class (a sequence indexed by hex,
    or a mapping hex -> class with `default_terrain` for the rest); a class becomes the hex's CSS class
    (`terrain-forest`). `hexsides`: kind -> hexside numbers of the grid (`grid.side(i, j)`): "river", "bridge",
    "border", ... each drawn on the edge the two hexes share. `paths` and `places` as HexPath and HexPlace.

    Answers {"orientation", "size", "offset", "view_box": [x, y, w, h], "hexes": [{"label", "x", "y",
    "corners", "terrain", "label_at"}], "hexsides": [{"kind", "hexes", "points"}], "paths": [{"kind", "name",
    "hexes", "points"}], "places": [{"label", "name", "kind", "x", "y"}], "terrains": [classes used]}.
    A path whose next hex is not adjacent, or a hex or hexside off the grid, is a ValueError.
    """
    flat = orientation(grid) == "flat"
    root3 = math.sqrt(3)
    unit = _Unit(*((size / 2, size * root3 / 2) if flat else (size * root3 / 2, size / 2)))
    terrain_of = _terrain_table(grid, terrain, default_terrain)
    # a hex's number sits near its top edge (flat) or its top corner (pointy), clear of a counter on the hex
    label_dy = -0.62 * size * root3 / 2 if flat else -0.6 * size
    lattice, hexes = _hexes_out(grid, flat, unit, label_dy, terrain_of)
    sides_out = _hexsides_out(grid, hexsides or {}, lattice, unit)
    paths_out = _paths_out(grid, paths, hexes)
    places_out = [
        {"label": grid.labels[p.hex], "name": p.name, "kind": p.kind, "x": hexes[p.hex]["x"], "y": hexes[p.hex]["y"]}
        for p in places
    ]
    return {
        "orientation": "flat" if flat else "pointy",
        "offset": grid.offset,
        "size": size,
        "view_box": _view_box(lattice, unit, size / 2 if margin is None else margin),
        "hexes": hexes,
        "hexsides": sides_out,
        "paths": paths_out,
        "places": places_out,
        "terrains": sorted(set(terrain_of)),
    }


class _Unit(NamedTuple):
    """The lattice's units in SVG user units: x across, y down."""

    x: float
    y: float


def _point(x: int, y: int, unit: _Unit) -> list[float]:
    """A lattice point in SVG user units, to DIGITS decimals."""
    return [round(x * unit.x, DIGITS), round(y * unit.y, DIGITS)]


def _hexes_out(
    grid: HexGrid, flat: bool, unit: _Unit, label_dy: float, terrain_of: Sequence[str]
) -> tuple[list[tuple[tuple[int, int], ...]], list[dict[str, Any]]]:
    """Each hex's corners on the lattice, and its drawing data: label, centre, corners, terrain, where its label
    goes (`label_dy` above the centre)."""
    offsets = FLAT_CORNERS if flat else POINTY_CORNERS
    lattice: list[tuple[tuple[int, int], ...]] = []
    hexes: list[dict[str, Any]] = []
    for i, (q, r) in enumerate(grid.hexes):
        cx, cy = _centre(q, r, flat)
        corners = tuple((cx + dx, cy + dy) for dx, dy in offsets)
        lattice.append(corners)
        x, y = _point(cx, cy, unit)
        hexes.append(
            {
                "label": grid.labels[i],
                "x": x,
                "y": y,
                "corners": [_point(px, py, unit) for px, py in corners],
                "terrain": terrain_of[i],
                "label_at": [x, round(y + label_dy, DIGITS)],
            }
        )
    return lattice, hexes


def _hexsides_out(
    grid: HexGrid,
    hexsides: Mapping[str, Iterable[int]],
    lattice: Sequence[tuple[tuple[int, int], ...]],
    unit: _Unit,
) -> list[dict[str, Any]]:
    """Each featured hexside once per kind: its kind, its two hexes, the segment (corners) they share."""
    sides_out = []
    for kind, numbers in hexsides.items():
        for k in sorted(set(numbers)):
            if not 0 <= k < len(grid.sides):
                raise ValueError(f"{kind} hexside {k}: the grid numbers its hexsides 0..{len(grid.sides) - 1}")
            a, b = grid.side_ends[k]
            shared = [c for c in lattice[a] if c in lattice[b]]
            sides_out.append(
                {
                    "kind": kind,
                    "hexes": [grid.labels[a], grid.labels[b]],
                    "points": [_point(x, y, unit) for x, y in shared],
                }
            )
    return sides_out


def _paths_out(grid: HexGrid, paths: Iterable[HexPath], hexes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each path through its hexes' centres, checked: every hex adjacent to the next."""
    paths_out = []
    for path in paths:
        for a, b in zip(path.hexes, path.hexes[1:], strict=False):
            if grid.distance(a, b) != 1:
                raise ValueError(f"{path.kind} {path.name!r}: {grid.labels[a]} and {grid.labels[b]} are not adjacent")
        paths_out.append(
            {
                "kind": path.kind,
                "name": path.name,
                "hexes": [grid.labels[i] for i in path.hexes],
                "points": [[hexes[i]["x"], hexes[i]["y"]] for i in path.hexes],
            }
        )
    return paths_out


def _view_box(lattice: Sequence[tuple[tuple[int, int], ...]], unit: _Unit, pad: float) -> list[float]:
    """[x, y, width, height] of every hex's corners, `pad` more on each side."""
    xs = [x for corners in lattice for x, _ in corners]
    ys = [y for corners in lattice for _, y in corners]
    x0, y0 = min(xs) * unit.x - pad, min(ys) * unit.y - pad
    width, height = (max(xs) - min(xs)) * unit.x + 2 * pad, (max(ys) - min(ys)) * unit.y + 2 * pad
    return [round(x0, DIGITS), round(y0, DIGITS), round(width, DIGITS), round(height, DIGITS)]


def _terrain_table(grid: HexGrid, terrain: Sequence[str] | Mapping[int, str], default: str) -> list[str]:
    """Each hex's terrain class, checked: one per hex, a CSS-safe word."""
    if isinstance(terrain, Mapping):
        for i in terrain:
            if not 0 <= i < grid.n:
                raise ValueError(f"terrain for hex {i}: the grid has hexes 0..{grid.n - 1}")
        table = [terrain.get(i, default) for i in range(grid.n)]
    elif terrain:
        if len(terrain) != grid.n:
            raise ValueError(f"terrain: {len(terrain)} classes given for {grid.n} hexes")
        table = list(terrain)
    else:
        table = [default] * grid.n
    for name in set(table):
        if not name or not all(ch.isalnum() or ch in "-_" for ch in name):
            raise ValueError(f"terrain class {name!r}: letters, digits, '-' and '_' only (it becomes a CSS class)")
    return table
