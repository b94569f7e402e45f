"""The hex map's drawing data (warroom/web/hexmap.py): geometry every hex game's board draws from.

Adjacent hexes' centres are all the same distance apart; a hexside's segment is exactly an edge of both
its hexes' polygons (so a river is drawn on the hexside, never beside it); the view box holds every hex;
flat-topped column maps and pointy-topped row maps; a label leads back to its hex; bad input is refused.
"""

from __future__ import annotations

import json
import math

import pytest
from counted_work import calls_made

from warroom.engine.hexgrid import OFFSETS, HexGrid
from warroom.web.hexmap import HexPath, HexPlace, corner_lattice, hex_layout, orientation

SIZE = 30.0


def _edges(corners: list[list[float]]) -> set[frozenset[tuple[float, float]]]:
    points = [tuple(c) for c in corners]
    return {frozenset((points[k], points[(k + 1) % 6])) for k in range(6)}


@pytest.mark.parametrize("offset", OFFSETS)
def test_adjacent_centres_are_equidistant(offset: str) -> None:
    grid = HexGrid(range(1, 8), range(1, 7), offset=offset)
    layout = hex_layout(grid, size=SIZE)
    spacing = SIZE * math.sqrt(3)  # centre to centre: twice the inner radius
    for i in range(grid.n):
        a = layout["hexes"][i]
        for j in grid.neighbours(i):
            b = layout["hexes"][j]
            assert math.hypot(a["x"] - b["x"], a["y"] - b["y"]) == pytest.approx(spacing, abs=0.02)
        for j in range(grid.n):  # and no hex that is not adjacent is as near
            if j != i and j not in grid.neighbours(i):
                b = layout["hexes"][j]
                assert math.hypot(a["x"] - b["x"], a["y"] - b["y"]) > spacing * 1.5


@pytest.mark.parametrize("offset", OFFSETS)
def test_a_hexsides_segment_is_exactly_an_edge_of_both_hexes(offset: str) -> None:
    grid = HexGrid(range(1, 8), range(1, 7), offset=offset)
    every = range(len(grid.sides))
    layout = hex_layout(grid, size=SIZE, hexsides={"river": every})
    by_label = {h["label"]: h for h in layout["hexes"]}
    assert len(layout["hexsides"]) == len(grid.sides)
    for side in layout["hexsides"]:
        a, b = (by_label[label] for label in side["hexes"])
        segment = frozenset(tuple(p) for p in side["points"])
        assert len(segment) == 2
        assert segment in _edges(a["corners"]) and segment in _edges(b["corners"])  # equal floats, no tolerance
        (x1, y1), (x2, y2) = side["points"]
        assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(SIZE, abs=0.02)  # a hexagon's edge is its size


def test_a_hexside_given_by_its_two_hexes_lands_between_them() -> None:
    grid = HexGrid(range(1, 8), range(1, 7))
    a, b = grid.at("0303"), grid.at("0403")
    layout = hex_layout(grid, size=SIZE, hexsides={"river": [grid.side(a, b)], "bridge": [grid.side(a, b)]})
    assert [s["kind"] for s in layout["hexsides"]] == ["river", "bridge"]
    assert layout["hexsides"][0]["hexes"] in (["0303", "0403"], ["0403", "0303"])
    midpoint = [sum(p[k] for p in layout["hexsides"][0]["points"]) / 2 for k in (0, 1)]
    ha, hb = layout["hexes"][a], layout["hexes"][b]
    assert midpoint == pytest.approx([(ha["x"] + hb["x"]) / 2, (ha["y"] + hb["y"]) / 2], abs=0.01)


@pytest.mark.parametrize("offset", OFFSETS)
def test_the_view_box_contains_every_polygon(offset: str) -> None:
    grid = HexGrid(range(0, 9), range(3, 10), offset=offset)
    layout = hex_layout(grid, size=SIZE)
    x, y, w, h = layout["view_box"]
    corners = [c for hx in layout["hexes"] for c in hx["corners"]]
    assert all(x <= cx <= x + w and y <= cy <= y + h for cx, cy in corners)
    assert min(c[0] for c in corners) - x == pytest.approx(SIZE / 2, abs=0.02)  # the margin, no more
    assert all(x <= hx["label_at"][0] <= x + w and y <= hx["label_at"][1] <= y + h for hx in layout["hexes"])


def test_flat_and_pointy_hexes() -> None:
    column_map = HexGrid(range(1, 4), range(1, 4), offset="even-q")
    row_map = HexGrid(range(1, 4), range(1, 4), offset="odd-r")
    assert orientation(column_map) == "flat" and orientation(row_map) == "pointy"
    flat = hex_layout(column_map, size=SIZE)["hexes"][0]
    pointy = hex_layout(row_map, size=SIZE)["hexes"][0]
    # flat-topped: two corners on the centre's row (east, west); pointy-topped: two on its column (top, bottom)
    assert sum(1 for _, y in flat["corners"] if y == pytest.approx(flat["y"])) == 2
    assert sum(1 for x, _ in flat["corners"] if x == pytest.approx(flat["x"])) == 0
    assert sum(1 for x, _ in pointy["corners"] if x == pytest.approx(pointy["x"])) == 2
    assert sum(1 for _, y in pointy["corners"] if y == pytest.approx(pointy["y"])) == 0
    # every corner is `size` from the centre
    for hx in (flat, pointy):
        assert all(math.hypot(cx - hx["x"], cy - hx["y"]) == pytest.approx(SIZE, abs=0.02) for cx, cy in hx["corners"])


def test_even_q_shifts_the_even_columns_down() -> None:
    """The usual wargame map (hexgrid's default): column 02 sits half a hex lower than columns 01 and 03."""
    grid = HexGrid(range(1, 4), range(1, 3), offset="even-q")
    y = {h["label"]: h["y"] for h in hex_layout(grid, size=SIZE)["hexes"]}
    assert y["0201"] - y["0101"] == pytest.approx(SIZE * math.sqrt(3) / 2, abs=0.02)
    assert y["0101"] == y["0301"] and y["0102"] - y["0101"] == pytest.approx(SIZE * math.sqrt(3), abs=0.02)


@pytest.mark.parametrize("offset", OFFSETS)
def test_a_label_round_trips(offset: str) -> None:
    grid = HexGrid(range(5, 12), range(1, 7), offset=offset)
    layout = json.loads(json.dumps(hex_layout(grid, size=SIZE)))  # what the browser gets
    for i, hx in enumerate(layout["hexes"]):
        assert grid.at(hx["label"]) == i and grid.format(grid.parse(hx["label"])) == hx["label"]
        assert corner_lattice(grid, i)  # the lattice answers for every hex
    centres = {(hx["x"], hx["y"]) for hx in layout["hexes"]}
    assert len(centres) == grid.n  # one hex a place


def test_terrain_paths_and_places() -> None:
    grid = HexGrid(range(1, 8), range(1, 7))
    road = [grid.at(label) for label in ("0101", "0201", "0302", "0402")]
    layout = hex_layout(
        grid,
        size=SIZE,
        terrain={grid.at("0303"): "forest", grid.at("0404"): "town"},
        paths=[HexPath("road", road, "the main road")],
        places=[HexPlace(grid.at("0404"), "Cross Roads")],
    )
    terrain = {h["label"]: h["terrain"] for h in layout["hexes"]}
    assert terrain["0303"] == "forest" and terrain["0404"] == "town" and terrain["0101"] == "open"
    assert layout["terrains"] == ["forest", "open", "town"]
    (path,) = layout["paths"]
    assert path["hexes"] == ["0101", "0201", "0302", "0402"]
    assert path["points"] == [[layout["hexes"][i]["x"], layout["hexes"][i]["y"]] for i in road]
    assert layout["places"] == [
        {
            "label": "0404",
            "name": "Cross Roads",
            "kind": "town",
            **{k: layout["hexes"][grid.at("0404")][k] for k in "xy"},
        }
    ]


def test_bad_map_data_is_refused_with_what_is_wrong() -> None:
    grid = HexGrid(range(1, 4), range(1, 4))
    with pytest.raises(ValueError, match="not adjacent"):
        hex_layout(grid, paths=[HexPath("road", [grid.at("0101"), grid.at("0303")])])
    with pytest.raises(ValueError, match="2 classes given for 9 hexes"):
        hex_layout(grid, terrain=["open", "open"])
    with pytest.raises(ValueError, match="CSS class"):
        hex_layout(grid, terrain={0: "open field"})
    with pytest.raises(ValueError, match="hexside 999"):
        hex_layout(grid, hexsides={"river": [999]})


def test_a_450_hex_map_is_quick() -> None:
    """As large as the hex games' maps (18 columns x 25 rows), with rivers, roads and places: laid out in work
    linear in its hexes. Counted in calls, not timed (no test depends on the machine's speed): measured about 34
    calls a hex, where one hex compared with every other would make hundreds."""
    grid = HexGrid(range(72, 90), range(1, 26))
    assert grid.n == 450
    terrain = ["rough" if i % 7 == 0 else "open" for i in range(grid.n)]
    rivers = list(range(0, 400, 10))
    roads = [HexPath("road", [grid.at(f"{c:02d}{r:02d}") for r in range(3, 23)]) for c in (74, 78, 82, 86)]
    places = [HexPlace(i, f"place {i}") for i in range(0, 450, 15)]
    layout, calls = calls_made(
        lambda: hex_layout(grid, size=SIZE, terrain=terrain, hexsides={"river": rivers}, paths=roads, places=places)
    )
    assert len(layout["hexes"]) == 450 and len(layout["hexsides"]) == 40
    assert calls < 60 * grid.n, f"{calls} calls, {calls / grid.n:.0f} a hex"
