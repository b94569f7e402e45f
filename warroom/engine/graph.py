"""Point-to-point maps: towns (nodes) joined by typed roads (edges), and the searches games run on them.

Point-to-point games move from town to town along roads of a kind (solid, dashed, dotted) that
sets their cost, instead of across hexes. This module holds the map once, as integer indices
(node k, undirected edge e, directed edge d = 2e from its first end or 2e + 1 from its second),
so a game's hot loops index lists and never touch a string; and the searches every such game
needs (cheapest paths with per-edge and per-node costs and blocked nodes or edges; "is a goal
reachable"; what can be reached within a budget; every simple path up to a length), written once
and tested against brute force (tests/test_graph.py).

Costs are numbers (int or float); a search adds them in a fixed order, so the same inputs give the
same floats, and ties are broken by node index (the heap holds (cost, node)): results are
reproducible, which golden game records rely on.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Container, Iterator, Mapping, Sequence
from typing import Generic, TypeVar

__all__ = ["Graph", "Paths", "trace_back"]

Cost = TypeVar("Cost", int, float)
"""An edge's cost: int where the rules count whole points (1, 2, 3 MP roads), else float."""


def trace_back(previous: Sequence[int] | Mapping[int, int], start: int, to: int) -> list[int]:
    """The path a search recorded, from `start` to `to` (both included), by following `previous` back from `to`.

    Every search here (roads and hexes) keeps, for each place reached, the place it came from.
    """
    out = [to]
    while to != start:
        to = previous[to]
        out.append(to)
    out.reverse()
    return out


class Paths:
    """The result of a cheapest-path search: the cost of every node reached and how to get there.

    `cost[k]` is the cheapest cost from the start to node k (`math.inf` if not reached, or not
    settled before the search stopped at a goal); `previous[k]` the node before k on that path (-1
    at the start and for nodes not reached); `end` the goal node the search stopped at (-1 if it
    was not asked to stop or no goal was reachable).
    """

    __slots__ = ("start", "cost", "previous", "end")

    def __init__(self, start: int, cost: list[float], previous: list[int], end: int) -> None:
        self.start, self.cost, self.previous, self.end = start, cost, previous, end

    def path(self, to: int) -> list[int]:
        """The nodes from the start to `to`, both included; [] if `to` was not reached."""
        if self.cost[to] == math.inf:
            return []
        return trace_back(self.previous, self.start, to)


class Graph(Generic[Cost]):
    """A point-to-point map: nodes 0..n-1 named by id, undirected edges each with a kind and a cost.

    `out[k]` lists the edges leaving node k as (directed edge d, edge e, the other end, cost), in
    the order the edges were given: games iterate it directly in their hot loops. At most one edge
    joins two nodes, and no edge joins a node to itself (a map's data says where each road goes).
    """

    __slots__ = ("ids", "index", "n", "ends", "kinds", "costs", "out", "neighbours", "between")

    def __init__(self, ids: Sequence[str], edges: Sequence[tuple[str, str, str, Cost]]) -> None:
        """`edges` are (first end, second end, kind, cost), ends by node id."""
        self.ids: tuple[str, ...] = tuple(ids)
        self.n = len(self.ids)
        self.index: dict[str, int] = {name: k for k, name in enumerate(self.ids)}
        if len(self.index) != self.n:
            raise ValueError("graph: duplicate node id")
        self.ends: list[tuple[int, int]] = []
        self.kinds: list[str] = []
        self.costs: list[Cost] = []
        self.out: list[list[tuple[int, int, int, Cost]]] = [[] for _ in range(self.n)]
        self.neighbours: list[list[int]] = [[] for _ in range(self.n)]
        self.between: dict[tuple[int, int], int] = {}
        for e, (a_id, b_id, kind, cost) in enumerate(edges):
            if a_id not in self.index or b_id not in self.index:
                raise ValueError(f"edge {a_id}-{b_id}: unknown node {b_id if a_id in self.index else a_id!r}")
            a, b = self.index[a_id], self.index[b_id]
            if a == b or (a, b) in self.between:
                raise ValueError(f"edge {a_id}-{b_id}: a loop or a second edge between the same nodes")
            if cost < 0:
                raise ValueError(f"edge {a_id}-{b_id}: negative cost {cost}")
            self.ends.append((a, b))
            self.kinds.append(kind)
            self.costs.append(cost)
            self.between[(a, b)] = self.between[(b, a)] = e
            self.out[a].append((2 * e, e, b, cost))
            self.out[b].append((2 * e + 1, e, a, cost))
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)

    def edge(self, a: int, b: int) -> int:
        """The edge joining nodes a and b (KeyError if none does)."""
        return self.between[(a, b)]

    def cheapest_paths(
        self,
        start: int,
        *,
        edge_cost: Sequence[float] | None = None,
        node_cost: Sequence[float] | None = None,
        blocked: Sequence[bool] | None = None,
        owner: Sequence[int] | None = None,
        enemy: int = -1,
        blocked_edges: Container[int] = frozenset(),
        goal: Sequence[bool] | None = None,
        budget: float = math.inf,
    ) -> Paths:
        """Dijkstra from `start`: the cheapest cost to every node, stepping along an edge e into node
        k for `edge_cost[e]` (default: the edge's own cost) plus `node_cost[k]` (default 0).

        `blocked[k]` true, or `owner[k] == enemy` (a town the enemy holds, tested as the search goes,
        so a caller need not build a mask from its state): node k may not be entered; the start is
        always entered. `blocked_edges`: edges that may not be used. With `goal`, the search stops at the first goal
        node it settles (the cheapest; ties to the lower index), recorded as `end`. Nodes costing
        more than `budget` are left unreached. Costs must not be negative.
        """
        inf = math.inf
        n = self.n
        costs = self.costs if edge_cost is None else edge_cost
        # absent options become neutral tables, so the loop below tests nothing twice
        entry = node_cost if node_cost is not None else [0] * n
        closed, barred = _closed(blocked, owner, enemy, n)
        goals = goal if goal is not None else [False] * n
        cost = [inf] * n
        previous = [-1] * n
        cost[start] = 0
        heap: list[tuple[float, int]] = [(0, start)]
        out = self.out
        end = -1
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            c, k = pop(heap)
            if c > cost[k]:
                continue
            if goals[k]:
                end = k
                break
            for _, e, to, _ in out[k]:
                if closed[to] == barred or e in blocked_edges:
                    continue
                reached = c + (costs[e] + entry[to])
                if reached < cost[to] and reached <= budget:
                    cost[to] = reached
                    previous[to] = k
                    push(heap, (reached, to))
        return Paths(start, cost, previous, end)

    def find(
        self,
        start: int,
        goal: Sequence[bool],
        *,
        blocked: Sequence[bool] | None = None,
        owner: Sequence[int] | None = None,
        enemy: int = -1,
        blocked_edges: Container[int] = frozenset(),
    ) -> int:
        """A goal node reachable from `start` (the start itself if it is one), or -1 if none is.

        Cost-free reachability (depth-first): "is there a path, no matter how indirect". `blocked`,
        `owner`, `enemy` and `blocked_edges` as in `cheapest_paths`.
        """
        closed, barred = (
            (owner, enemy) if blocked is None and owner is not None else _closed(blocked, owner, enemy, self.n)
        )
        seen = [False] * self.n
        seen[start] = True
        frontier = [start]
        out = self.out
        while frontier:
            k = frontier.pop()
            if goal[k]:
                return k
            for _, e, to, _ in out[k]:
                if not seen[to] and closed[to] != barred and e not in blocked_edges:
                    seen[to] = True
                    frontier.append(to)
        return -1

    def reachable_within(
        self,
        start: int,
        budget: float,
        *,
        edge_cost: Sequence[float] | None = None,
        node_cost: Sequence[float] | None = None,
        blocked: Sequence[bool] | None = None,
        blocked_edges: Container[int] = frozenset(),
    ) -> dict[int, float]:
        """Every node reachable from `start` at a cost of at most `budget`, with that cost (the
        options as in `cheapest_paths`)."""
        paths = self.cheapest_paths(
            start, edge_cost=edge_cost, node_cost=node_cost, blocked=blocked, blocked_edges=blocked_edges, budget=budget
        )
        return {k: c for k, c in enumerate(paths.cost) if c != math.inf}

    def all_pairs_costs(self, edge_cost: Sequence[float] | None = None) -> list[list[float]]:
        """The cheapest cost between every pair of nodes (Dijkstra from each; `math.inf` if apart)."""
        return [self.cheapest_paths(k, edge_cost=edge_cost).cost for k in range(self.n)]

    def simple_paths(self, start: int, max_edges: int, blocked: Sequence[bool] | None = None) -> Iterator[list[int]]:
        """Every simple path (no node twice) from `start` of 1 to `max_edges` edges, depth-first in
        the order of `out`, as its list of nodes. `blocked[k]` true: k may not be entered."""
        path = [start]
        on_path = [False] * self.n
        on_path[start] = True
        out = self.out

        def extend() -> Iterator[list[int]]:
            for _, _, to, _ in out[path[-1]]:
                if on_path[to] or (blocked is not None and blocked[to]):
                    continue
                path.append(to)
                on_path[to] = True
                yield list(path)
                if len(path) <= max_edges:
                    yield from extend()
                path.pop()
                on_path[to] = False

        if max_edges >= 1:
            yield from extend()


def _closed(
    blocked: Sequence[bool] | None, owner: Sequence[int] | None, enemy: int, n: int
) -> tuple[Sequence[object], object]:
    """One table and one value such that node k may not be entered when table[k] == value."""
    if owner is None:
        return (blocked if blocked is not None else [False] * n), True
    if blocked is None:
        return owner, enemy
    return [b or o == enemy for b, o in zip(blocked, owner, strict=True)], True
