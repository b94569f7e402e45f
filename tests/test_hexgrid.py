"""warroom.engine.hexgrid: hex geometry and movement, checked against brute force (hypothesis) and
against the worked examples of the Tunisia rulebook (tunisia-pattons-first-victory.txt)."""

from __future__ import annotations

import math
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.engine.hexgrid import (
    DIRECTIONS,
    NO_HEX,
    OFFSETS,
    Hex,
    HexGrid,
    Hexside,
    StepCosts,
    axial_to_offset,
    hex_direction,
    hex_distance,
    hex_linedraw,
    hex_neighbor,
    hex_ring,
    hex_spiral,
    hexside,
    hexside_hexes,
    offset_to_axial,
)

coords = st.integers(-30, 30)
hexes = st.builds(Hex, coords, coords)
offsets = st.sampled_from(OFFSETS)


def bfs_steps(a: Hex, b: Hex) -> int:
    """Steps from a to b by breadth-first search over the plane (bounded by the box around both)."""
    lo = min(a.q, a.r, b.q, b.r) - 2
    hi = max(a.q, a.r, b.q, b.r) + 2
    seen = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        if h == b:
            return seen[h]
        for d in range(6):
            n = hex_neighbor(h, d)
            if n not in seen and lo <= n.q <= hi and lo <= n.r <= hi:
                seen[n] = seen[h] + 1
                queue.append(n)
    raise AssertionError("unreachable")


# -- the plane -------------------------------------------------------------------------------------
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, a) == 0
    assert hex_distance(a, b) == hex_distance(b, a)
    assert (hex_distance(a, b) == 0) == (a == b)
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@settings(max_examples=60)
@given(st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6)), st.builds(Hex, st.integers(-6, 6), st.integers(-6, 6)))
def test_distance_is_the_bfs_step_count(a: Hex, b: Hex) -> None:
    assert hex_distance(a, b) == bfs_steps(a, b)


@given(hexes)
def test_neighbours_are_at_distance_one_and_symmetric(h: Hex) -> None:
    around = [hex_neighbor(h, d) for d in range(6)]
    assert len(set(around)) == 6
    for d, n in enumerate(around):
        assert hex_distance(h, n) == 1
        assert hex_neighbor(n, (d + 3) % 6) == h  # the opposite direction leads back
        assert hex_direction(h, n) == d
    assert h.q + h.r + h.s == 0


@given(hexes, st.integers(0, 6))
def test_ring_has_6n_hexes_at_distance_n(h: Hex, n: int) -> None:
    ring = hex_ring(h, n)
    assert len(ring) == (6 * n if n else 1)
    assert len(set(ring)) == len(ring)
    assert all(hex_distance(h, x) == n for x in ring)
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):  # a ring goes round, hex to adjacent hex
        assert n == 0 or hex_distance(a, b) == 1


@given(hexes, st.integers(0, 5))
def test_spiral_is_every_hex_within_n(h: Hex, n: int) -> None:
    spiral = hex_spiral(h, n)
    brute = {Hex(h.q + dq, h.r + dr) for dq in range(-n, n + 1) for dr in range(-n, n + 1)}
    assert set(spiral) == {x for x in brute if hex_distance(h, x) <= n}
    assert len(spiral) == 1 + 3 * n * (n + 1)
    assert [hex_distance(h, x) for x in spiral] == sorted(hex_distance(h, x) for x in spiral)


@given(hexes, hexes)
def test_line_is_a_chain_of_adjacent_hexes_as_long_as_the_distance(a: Hex, b: Hex) -> None:
    line = hex_linedraw(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(x, y) == 1 for x, y in zip(line, line[1:], strict=False))
    # each hex of the line lies as far along as its place says: it never doubles back
    assert [hex_distance(a, x) for x in line] == list(range(len(line)))


def test_line_along_a_straight_direction() -> None:
    assert hex_linedraw(Hex(0, 0), Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]


@given(hexes, st.integers(0, 5))
def test_hexside_is_shared_by_both_hexes_and_round_trips(h: Hex, d: int) -> None:
    n = hex_neighbor(h, d)
    side = hexside(h, n)
    assert side == hexside(n, h)
    assert set(hexside_hexes(side)) == {h, n}


@given(hexes, hexes)
def test_hexsides_of_different_edges_differ(a: Hex, b: Hex) -> None:
    sides_a = {hexside(a, hex_neighbor(a, d)): frozenset((a, hex_neighbor(a, d))) for d in range(6)}
    sides_b = {hexside(b, hex_neighbor(b, d)): frozenset((b, hex_neighbor(b, d))) for d in range(6)}
    assert len(sides_a) == 6
    for side, edge in sides_a.items():
        if side in sides_b:
            assert sides_b[side] == edge  # the same id only for the same pair of hexes


def test_hexside_needs_adjacent_hexes() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(Hex(0, 0), Hex(2, 0))
    with pytest.raises(ValueError, match="not a hexside"):
        hexside_hexes(Hexside(2, 4))
    with pytest.raises(ValueError, match="not adjacent"):
        hex_direction(Hex(0, 0), Hex(0, 0))


@given(st.integers(-200, 200), st.integers(-200, 200), offsets)
def test_offset_round_trips(col: int, row: int, offset: str) -> None:
    assert axial_to_offset(offset_to_axial(col, row, offset), offset) == (col, row)


@given(hexes, offsets)
def test_axial_round_trips(h: Hex, offset: str) -> None:
    assert offset_to_axial(*axial_to_offset(h, offset), offset) == h


def test_even_q_shifts_even_columns_down() -> None:
    """even-q: column 02 sits half a hex below 01 and 03, so 0201's neighbours are 0101 (NW) and 0102 (SW)."""
    grid = HexGrid(range(1, 4), range(1, 4))
    names = grid.direction_names
    around = {names[d]: grid.neighbour(grid.at("0201"), d) for d in range(6)}
    assert grid.label(around["NW"]) == "0101" and grid.label(around["SW"]) == "0102"
    assert grid.label(around["NE"]) == "0301" and grid.label(around["S"]) == "0202"
    assert around["N"] == NO_HEX
    odd = HexGrid(range(1, 4), range(1, 4), offset="odd-q")
    assert {odd.label(j) for j in odd.neighbours(odd.at("0202"))} == {"0201", "0203", "0101", "0102", "0301", "0302"}


# -- a printed map ---------------------------------------------------------------------------------
@given(st.integers(0, 99), st.integers(0, 99), offsets)
def test_labels_round_trip(col: int, row: int, offset: str) -> None:
    grid = HexGrid(range(0), range(0), offset=offset)
    label = f"{col:02d}{row:02d}"
    assert grid.format(grid.parse(label)) == label


def test_tunisia_labels() -> None:
    """Tunisia labels hexes column-row: Broich sets up in 8306, Mareth is 8519 (5.2B)."""
    grid = HexGrid(range(76, 90), range(1, 25))
    broich, mareth = grid.at("8306"), grid.at("8519")
    assert axial_to_offset(grid.hexes[broich], grid.offset) == (83, 6)
    assert grid.label(mareth) == "8519"
    # two columns east and 13 rows south: the two diagonal steps east also gain one row, so 2 + 12
    assert grid.distance(broich, mareth) == 14
    with pytest.raises(KeyError, match="not on this map"):
        grid.at("9901")
    with pytest.raises(ValueError, match="4 digits"):
        grid.at("83-6")
    with pytest.raises(ValueError, match="not on the map"):
        HexGrid(range(1, 3), range(1, 3), exclude=["0505"])
    with pytest.raises(ValueError, match="unknown offset"):
        HexGrid(range(1, 3), range(1, 3), offset="odd")


small_grids = st.builds(
    lambda c, r, o: HexGrid(range(1, c + 1), range(1, r + 1), offset=o), st.integers(1, 6), st.integers(1, 6), offsets
)


@settings(max_examples=60)
@given(small_grids)
def test_grid_tables_agree_with_the_plane(grid: HexGrid) -> None:
    for i, h in enumerate(grid.hexes):
        assert grid.at(grid.label(i)) == i and grid.parse(grid.label(i)) == h
        for d in range(6):
            j = grid.neighbour(i, d)
            n = hex_neighbor(h, d)
            assert j == grid.index.get(n, NO_HEX)
        assert grid.neighbours(i) == [j for j in grid.neighbour_table[i] if j != NO_HEX]
        for j, k in grid.adjacent[i]:
            assert i in grid.neighbours(j)
            assert grid.side(i, j) == grid.side(j, i) == k
            assert set(grid.side_ends[k]) == {i, j}
            assert grid.sides[k] == hexside(h, grid.hexes[j])
    assert len(set(grid.sides)) == len(grid.sides) == sum(len(a) for a in grid.adjacent) // 2


@settings(max_examples=60)
@given(small_grids, st.data())
def test_grid_ring_within_and_line(grid: HexGrid, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, grid.n - 1))
    j = data.draw(st.integers(0, grid.n - 1))
    n = data.draw(st.integers(0, 4))
    assert set(grid.ring(i, n)) == {k for k in range(grid.n) if grid.distance(i, k) == n}
    assert set(grid.within(i, n)) == {k for k in range(grid.n) if grid.distance(i, k) <= n}
    line = grid.line(i, j)
    assert line[0] == i and line[-1] == j and len(line) == grid.distance(i, j) + 1
    if len(grid.hexes) > 1 and NO_HEX not in line:
        assert all(grid.distance(a, b) == 1 for a, b in zip(line, line[1:], strict=False))


def test_grid_side_needs_adjacent_hexes() -> None:
    grid = HexGrid(range(1, 4), range(1, 4))
    with pytest.raises(ValueError, match="not adjacent"):
        grid.side(grid.at("0101"), grid.at("0103"))


# -- movement --------------------------------------------------------------------------------------
def brute_force_reach(
    grid: HexGrid, costs: StepCosts, start: int, allowance: float, blocked: set[int], stop: set[int]
) -> dict[int, float]:
    """The cheapest cost to every hex over every simple path (exponential: tiny maps only)."""
    best: dict[int, float] = {start: 0}

    def walk(i: int, spent: float, on_path: set[int]) -> None:
        if i != start and i in stop:
            return
        for j, step in costs.steps[i]:
            if j in on_path or j in blocked or spent + step > allowance:
                continue
            if spent + step < best.get(j, math.inf):
                best[j] = spent + step
            walk(j, spent + step, on_path | {j})

    walk(start, 0, {start})
    return best


half_steps = st.sampled_from([0.5, 1, 1, 2, 3, math.inf])


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), offsets, st.data())
def test_movement_costs_equal_brute_force(cols: int, rows: int, offset: str, data: st.DataObject) -> None:
    grid = HexGrid(range(1, cols + 1), range(1, rows + 1), offset=offset)
    enter = data.draw(st.lists(half_steps, min_size=grid.n, max_size=grid.n))
    extra = {k: data.draw(half_steps) for k in range(len(grid.sides)) if data.draw(st.booleans())}
    override = {
        k: data.draw(st.sampled_from([0.5, 1])) for k in range(len(grid.sides)) if data.draw(st.integers(0, 3)) == 0
    }
    costs = StepCosts(grid, enter, extra, override)
    start = data.draw(st.integers(0, grid.n - 1))
    others = [k for k in range(grid.n) if k != start]
    blocked = set(data.draw(st.lists(st.sampled_from(others), max_size=3))) if others else set()
    stop = set(data.draw(st.lists(st.sampled_from(others), max_size=3))) if others else set()
    allowance = data.draw(st.sampled_from([0, 1, 2.5, 4, 6, 10]))
    reach = grid.movement_range(start, allowance, costs, blocked=blocked, stop=stop.__contains__)
    assert reach.cost == brute_force_reach(grid, costs, start, allowance, blocked, stop)
    for h, c in reach.cost.items():
        path = reach.path(h)
        assert path[0] == start and path[-1] == h
        assert sum(costs.step(a, b) for a, b in zip(path, path[1:], strict=False)) == c
        assert not any(p in stop for p in path[1:-1]) and not any(p in blocked for p in path)
    # the minimum move adds every enterable neighbour the allowance cannot pay for, and nothing else
    minimum = grid.movement_range(start, allowance, costs, blocked=blocked, stop=stop.__contains__, at_least_one=True)
    extra_hexes = set(minimum.cost) - set(reach.cost)
    assert extra_hexes == {j for j, _ in costs.steps[start] if j not in blocked and j not in reach.cost}
    assert all(
        minimum.path(j) == [start, j] and minimum.cost[j] == costs.step(start, j) > allowance for j in extra_hexes
    )
    assert all(minimum.cost[h] == c for h, c in reach.cost.items())


def test_tunisia_8_3_river_example() -> None:
    """# Tunisia 8.3: "A unit moving across an unbridged river hexside into an open ground hex expends a
    total of 4 MPs to do so: one for the open ground and three more for the river hexside."; 8.3C: a
    bridge spans it, no extra. Made-up map: open ground (1 MP, 8.2), a river between columns 81 and 82."""
    grid = HexGrid(range(80, 84), range(10, 14))
    west, east = grid.at("8111"), grid.at("8211")
    river = {k for k, (i, j) in enumerate(grid.side_ends) if {grid.label(i)[:2], grid.label(j)[:2]} == {"81", "82"}}
    assert grid.side(west, east) in river and len(river) == 7  # 4 hexes a column: 7 hexsides between them
    open_ground = [1.0] * grid.n
    costs = StepCosts(grid, open_ground, side_extra=dict.fromkeys(river, 3.0))
    assert costs.step(west, east) == 4.0
    reach = grid.movement_range(west, 4, costs)
    assert reach.cost[east] == 4.0 and reach.path(east) == [west, east]
    assert all(grid.label(h)[:2] in ("80", "81") for h in grid.movement_range(west, 3, costs).cost)  # 3 MP: no crossing
    # the minimum move (8.5: "a counter may always move at least one hex"): across, and no further
    minimum = grid.movement_range(west, 3, costs, at_least_one=True)
    assert minimum.path(east) == [west, east] and minimum.cost[east] == 4.0
    # a bridge on that hexside: open ground only, and the far bank opens up
    bridged = StepCosts(grid, open_ground, side_extra={k: 3.0 for k in river if k != grid.side(west, east)})
    assert bridged.step(west, east) == 1.0
    reach = grid.movement_range(west, 3, bridged)
    assert reach.cost[east] == 1.0 and grid.at("8311") in reach


def test_tunisia_8_4_road_and_9_1_zone_of_control() -> None:
    """# Tunisia 8.4: along a road the step costs 1/2 MP, "negating the terrain costs"; # Tunisia 9.1C:
    entering an enemy ZOC ends the move, 9.2A: leaving one at the start does not; 8.7A: no entering
    an enemy unit's hex."""
    grid = HexGrid(range(1, 8), range(1, 4))
    road = [grid.at(label) for label in ("0102", "0202", "0302", "0402", "0502")]
    hills = [2.0] * grid.n  # everything rough: 2 MP a hex (made up)
    road_sides = {grid.side(a, b): 0.5 for a, b in zip(road, road[1:], strict=False)}
    costs = StepCosts(grid, hills, side_cost=road_sides)
    reach = grid.movement_range(road[0], 2, costs)
    assert reach.cost[road[4]] == 2.0 and reach.path(road[4]) == road
    enemy = grid.at("0602")
    zoc = set(grid.neighbours(enemy))
    reach = grid.movement_range(road[0], 6, costs, blocked={enemy}, stop=zoc.__contains__)
    assert enemy not in reach
    assert road[4] in reach and all(reach.previous.get(h) != road[4] for h in reach.cost)  # it stops in the ZOC
    started_in_zoc = grid.movement_range(road[4], 2, costs, blocked={enemy}, stop=zoc.__contains__)
    assert road[3] in started_in_zoc  # leaving the ZOC it started in is free (9.2A)


def test_step_costs_reject_bad_tables() -> None:
    grid = HexGrid(range(1, 3), range(1, 3))
    with pytest.raises(ValueError, match="enter costs"):
        StepCosts(grid, [1.0])
    with pytest.raises(ValueError, match="costs -1"):
        StepCosts(grid, [1.0] * grid.n, side_cost={0: -1.0})
    impassable = StepCosts(grid, [1.0, math.inf, 1.0, 1.0])
    assert impassable.step(0, 1) == math.inf
    assert 1 not in grid.movement_range(0, 10, impassable)
    with pytest.raises(KeyError, match="out of reach"):
        grid.movement_range(0, 10, impassable).path(1)


def test_direction_order_is_red_blobs() -> None:
    assert DIRECTIONS[0] == Hex(1, 0) and DIRECTIONS[3] == Hex(-1, 0)
