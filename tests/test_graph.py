"""warroom.engine.graph: point-to-point maps and their searches, checked against brute force (hypothesis)
and against Patton's roads (Patton: Using Movement Points)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.engine.graph import Graph


@st.composite
def graphs(draw: st.DrawFn, max_nodes: int = 7) -> Graph[float]:
    """A small random map: up to `max_nodes` towns, any roads between them, costs 0 to 3 in halves."""
    n = draw(st.integers(1, max_nodes))
    pairs = [p for p in itertools.combinations(range(n), 2) if draw(st.integers(0, 2)) == 0]
    kinds = ("solid", "dashed", "dotted")
    edges = []
    for a, b in pairs:
        if draw(st.booleans()):
            a, b = b, a
        edges.append((f"t{a}", f"t{b}", draw(st.sampled_from(kinds)), draw(st.sampled_from([0, 0.5, 1, 2, 3]))))
    return Graph([f"t{k}" for k in range(n)], edges)


def all_simple_paths(g: Graph[float], start: int, blocked: list[bool]) -> list[list[int]]:
    """Every simple path from start (of at least one edge) by brute force over permutations."""
    out = []
    others = [k for k in range(g.n) if k != start and not blocked[k]]
    for length in range(1, len(others) + 1):
        for tail in itertools.permutations(others, length):
            path = [start, *tail]
            if all((a, b) in g.between for a, b in itertools.pairwise(path)):
                out.append(path)
    return out


def path_cost(g: Graph[float], path: list[int], edge_cost: list[float], node_cost: list[float]) -> float:
    return sum(edge_cost[g.edge(a, b)] + node_cost[b] for a, b in itertools.pairwise(path))


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_cheapest_paths_equal_brute_force(g: Graph[float], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, g.n - 1))
    node_cost = data.draw(st.lists(st.sampled_from([0, 0.25, 1, 4]), min_size=g.n, max_size=g.n))
    blocked = data.draw(st.lists(st.booleans(), min_size=g.n, max_size=g.n))
    budget = data.draw(st.sampled_from([math.inf, 0, 1, 2.5, 5]))
    paths = g.cheapest_paths(start, node_cost=node_cost, blocked=blocked, budget=budget)
    best = [math.inf] * g.n
    best[start] = 0
    for path in all_simple_paths(g, start, blocked):
        c = path_cost(g, path, g.costs, node_cost)
        if c <= budget:
            best[path[-1]] = min(best[path[-1]], c)
    assert paths.cost == best
    for k in range(g.n):
        path = paths.path(k)
        if best[k] == math.inf:
            assert path == []
        else:
            assert path[0] == start and path[-1] == k
            assert path_cost(g, path, g.costs, node_cost) == best[k]
    assert g.reachable_within(start, budget, node_cost=node_cost, blocked=blocked) == {
        k: c for k, c in enumerate(best) if c != math.inf
    }


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_goal_search_stops_at_the_cheapest_goal(g: Graph[float], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, g.n - 1))
    goal = data.draw(st.lists(st.booleans(), min_size=g.n, max_size=g.n))
    edge_cost = [c * 2 + 0.1 for c in g.costs]  # positive: ties between goals are settled by index
    full = g.cheapest_paths(start, edge_cost=edge_cost)
    found = g.cheapest_paths(start, edge_cost=edge_cost, goal=goal)
    reachable_goals = [k for k in range(g.n) if goal[k] and full.cost[k] != math.inf]
    if not reachable_goals:
        assert found.end == -1
    else:
        assert goal[found.end]
        assert found.cost[found.end] == min(full.cost[k] for k in reachable_goals)
        assert found.path(found.end)[0] == start


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_find_equals_brute_force_reachability(g: Graph[float], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, g.n - 1))
    goal = data.draw(st.lists(st.booleans(), min_size=g.n, max_size=g.n))
    owner = data.draw(st.lists(st.sampled_from([-1, 0, 1]), min_size=g.n, max_size=g.n))
    blocked_edges = set(data.draw(st.lists(st.integers(0, max(0, len(g.ends) - 1)), max_size=3)))
    mask = data.draw(st.lists(st.booleans(), min_size=g.n, max_size=g.n))
    closed = [o == 1 or m for o, m in zip(owner, mask, strict=True)]
    reachable = {start}
    for path in all_simple_paths(g, start, closed):
        if all(g.edge(a, b) not in blocked_edges for a, b in itertools.pairwise(path)):
            reachable.add(path[-1])
    expected = any(goal[k] for k in reachable)
    for options in ({"owner": owner, "enemy": 1, "blocked": mask}, {"blocked": closed}):
        found = g.find(start, goal, blocked_edges=blocked_edges, **options)  # type: ignore[arg-type]
        assert (found >= 0) == expected
        assert found < 0 or (goal[found] and found in reachable)
    if not any(mask):
        assert (g.find(start, goal, owner=owner, enemy=1, blocked_edges=blocked_edges) >= 0) == expected


@settings(max_examples=100, deadline=None)
@given(graphs(max_nodes=6), st.data())
def test_simple_paths_equal_brute_force(g: Graph[float], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, g.n - 1))
    max_edges = data.draw(st.integers(0, 5))
    blocked = data.draw(st.lists(st.booleans(), min_size=g.n, max_size=g.n))
    got = list(g.simple_paths(start, max_edges, blocked))
    expected = [p for p in all_simple_paths(g, start, blocked) if len(p) - 1 <= max_edges]
    assert sorted(got) == sorted(expected)
    assert len({tuple(p) for p in got}) == len(got)


@settings(max_examples=100, deadline=None)
@given(graphs())
def test_all_pairs_is_symmetric_and_a_metric(g: Graph[float]) -> None:
    table = g.all_pairs_costs()
    for a, b, c in itertools.product(range(g.n), repeat=3):
        assert table[a][b] == table[b][a]
        assert table[a][c] <= table[a][b] + table[b][c]
    assert all(table[k][k] == 0 for k in range(g.n))


@given(graphs())
def test_tables_describe_every_edge_both_ways(g: Graph[float]) -> None:
    for e, (a, b) in enumerate(g.ends):
        assert (2 * e, e, b, g.costs[e]) in g.out[a]
        assert (2 * e + 1, e, a, g.costs[e]) in g.out[b]
        assert g.edge(a, b) == g.edge(b, a) == e
        assert b in g.neighbours[a] and a in g.neighbours[b]
    assert sum(len(o) for o in g.out) == 2 * len(g.ends)


def test_bad_maps_are_refused() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        Graph(["a", "a"], [])
    with pytest.raises(ValueError, match="unknown node 'c'"):
        Graph(["a", "b"], [("a", "c", "solid", 1)])
    with pytest.raises(ValueError, match="second edge"):
        Graph(["a", "b"], [("a", "b", "solid", 1), ("b", "a", "dotted", 3)])
    with pytest.raises(ValueError, match="loop"):
        Graph(["a"], [("a", "a", "solid", 1)])
    with pytest.raises(ValueError, match="negative"):
        Graph(["a", "b"], [("a", "b", "solid", -1)])


def test_patton_bulge_roads() -> None:
    """Patton's Bulge map on the graph: road costs (Using Movement Points: solid 1, dashed 2, dotted 3
    MP) and Bastogne's relief (The Bulge, Objective: "a path free of German Units, no matter how
    indirect", to a (*) town)."""
    from warroom.games.patton.board import ROAD_COST, load_board

    b = load_board("bulge")
    g = b.graph
    assert g.costs == [ROAD_COST[kind] for kind in g.kinds]
    bastogne = b.relieve
    town = b.names[bastogne]
    assert sorted(g.ids[to] for to in g.neighbours[bastogne]) == sorted(
        r.b if r.a == town else r.a for r in b.data.roads if town in (r.a, r.b)
    )
    nobody = [-1] * g.n
    assert g.find(bastogne, b.star, owner=nobody, enemy=1) >= 0
    ring = [-1] * g.n
    for to in g.neighbours[bastogne]:
        ring[to] = 1  # German Units in every town round Bastogne: besieged
    assert g.find(bastogne, b.star, owner=ring, enemy=1) == -1
    assert b.distance == [[int(c) for c in row] for row in g.all_pairs_costs()]
