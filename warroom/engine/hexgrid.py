"""Hex maps for hex-and-counter games: printed labels, axial coordinates, hexsides and movement.

Built on Red Blob Games' hexagon guide (STYLE.md), with its names: a hex is stored in axial
coordinates `Hex(q, r)` (cube s = -q - r), algorithms run on those, and the printed map's labels
("8306": column 83, row 06) are converted only at input and output (`offset_to_axial`,
`axial_to_offset`, `HexGrid.at`, `HexGrid.label`).

A `HexGrid` is one printed map: its hexes numbered 0..n-1 with every table a game's hot loops
need computed once (neighbours in a fixed direction order, the hexsides between them), and the
searches the rulebooks ask for: distance, rings and "within n hexes", lines of hexes, and
movement-point pathfinding with per-hex entry costs, per-hexside extra costs (a river +3 MP
unless bridged), hexsides that replace the step's cost (a road's rate),
impassable hexes and hexsides, blocked hexes (enemy units), hexes that end a move
(entering an enemy zone of control) and the minimum move of one hex, as hex-and-counter rules have them.

The offset of the printed grid. Maps with flat-topped hexes in vertical columns (most Decision Games and
SPI maps) shift every other column half a hex down; which columns are
shifted is a property of the map, so it is a parameter: "odd-q" shifts odd columns down, "even-q"
even ones (Red Blob's names, taken on the printed column number). The default is "even-q": on the
usual wargame map hex 0101 sits at the top left and column 02 is the lower one, so the even
columns are shifted down. A game whose printed map is not available
sets the offset its reconstructed map uses. Pointy-topped maps in rows ("odd-r", "even-r") are
supported too.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import NamedTuple

from .graph import trace_back

__all__ = [
    "DIRECTIONS",
    "NO_HEX",
    "OFFSETS",
    "Hex",
    "HexGrid",
    "Hexside",
    "Reach",
    "StepCosts",
    "axial_to_offset",
    "hex_add",
    "hex_direction",
    "hex_distance",
    "hex_linedraw",
    "hex_neighbor",
    "hex_ring",
    "hex_spiral",
    "hexside",
    "hexside_hexes",
    "offset_to_axial",
]


class Hex(NamedTuple):
    """A hex in axial coordinates (a tuple: hashable, cheap, unpacks as `q, r`)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r


class Hexside(NamedTuple):
    """The edge between two adjacent hexes, the same from either side: the sum of the two hexes'
    axial coordinates, i.e. twice the edge's midpoint. Distinct edges have distinct midpoints, so
    the id is unique on the whole plane, and a river, bridge or road hexside is a plain key."""

    q2: int
    r2: int


DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
"""The six neighbours' offsets, in Red Blob's order; every table here lists neighbours in this order."""

FLAT_DIRECTION_NAMES = ("SE", "NE", "N", "NW", "SW", "S")
"""DIRECTIONS on a flat-topped map whose rows are numbered downwards (north at the top)."""
POINTY_DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
"""DIRECTIONS on a pointy-topped map whose rows are numbered downwards."""

OFFSETS = ("odd-q", "even-q", "odd-r", "even-r")
"""Printed grid layouts: "-q" flat-topped columns, "-r" pointy-topped rows; odd/even: which are shifted."""

NO_HEX = -1
"""In a grid's tables: no hex there (off the map)."""


# -- the plane -------------------------------------------------------------------------------------
def hex_add(a: Hex, b: Hex) -> Hex:
    return Hex(a.q + b.q, a.r + b.r)


def hex_neighbor(h: Hex, direction: int) -> Hex:
    """The neighbour of `h` in DIRECTIONS[direction]."""
    d = DIRECTIONS[direction]
    return Hex(h.q + d.q, h.r + d.r)


def hex_distance(a: Hex, b: Hex) -> int:
    """Steps from hex to hex (a zone of control's "six hexes surrounding" are those at distance 1)."""
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_direction(a: Hex, b: Hex) -> int:
    """The direction from `a` to its neighbour `b` (ValueError if they are not adjacent)."""
    try:
        return DIRECTIONS.index(Hex(b.q - a.q, b.r - a.r))
    except ValueError:
        raise ValueError(f"{a} and {b} are not adjacent") from None


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The 6 * radius hexes at exactly `radius` from `center` ([center] for radius 0), going round
    from the one in direction 4 times `radius`."""
    if radius < 0:
        raise ValueError(f"negative radius {radius}")
    if radius == 0:
        return [center]
    out = []
    d4 = DIRECTIONS[4]
    q, r = center.q + d4.q * radius, center.r + d4.r * radius
    for dq, dr in DIRECTIONS:
        for _ in range(radius):
            out.append(Hex(q, r))
            q, r = q + dq, r + dr
    return out


def hex_spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within `radius` of `center` ("within four hexes"), ring by ring."""
    out = [center]
    for k in range(1, radius + 1):
        out.extend(hex_ring(center, k))
    return out


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


def hex_linedraw(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from the centre of `a` to the centre of `b` passes through, from a
    to b (distance + 1 of them, each adjacent to the next). A line along a hexside is nudged, the
    same way every time, to one side (Red Blob's epsilon)."""
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a.q + 1e-6, a.r + 2e-6
    bq, br = b.q + 1e-6, b.r + 2e-6
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def hexside(a: Hex, b: Hex) -> Hexside:
    """The hexside between adjacent hexes `a` and `b`; hexside(a, b) == hexside(b, a)."""
    if hex_distance(a, b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent: no hexside between them")
    return Hexside(a.q + b.q, a.r + b.r)


def hexside_hexes(side: Hexside) -> tuple[Hex, Hex]:
    """The two hexes a hexside divides, the one it lies in direction 0, 1 or 2 of first."""
    # the direction's parity shows in the sum: (1, 0) -> (odd, even), (1, -1) -> (odd, odd), (0, -1) -> (even, odd)
    q2, r2 = side
    dq, dr = {(1, 0): (1, 0), (1, 1): (1, -1), (0, 1): (0, -1)}.get((q2 & 1, r2 & 1), (0, 0))
    if (dq, dr) == (0, 0):
        raise ValueError(f"{side} is not a hexside (both sums even: that is a hex's centre)")
    a = Hex((q2 - dq) // 2, (r2 - dr) // 2)
    return a, Hex(a.q + dq, a.r + dr)


def offset_to_axial(col: int, row: int, offset: str = "even-q") -> Hex:
    """The hex at a printed map's column and row (Red Blob's offset_to_axial)."""
    if offset == "even-q":
        return Hex(col, row - (col + (col & 1)) // 2)
    if offset == "odd-q":
        return Hex(col, row - (col - (col & 1)) // 2)
    if offset == "even-r":
        return Hex(col - (row + (row & 1)) // 2, row)
    if offset == "odd-r":
        return Hex(col - (row - (row & 1)) // 2, row)
    raise ValueError(f"unknown offset {offset!r}: one of {', '.join(OFFSETS)}")


def axial_to_offset(h: Hex, offset: str = "even-q") -> tuple[int, int]:
    """(column, row) of a hex on a printed map (Red Blob's axial_to_offset)."""
    q, r = h
    if offset == "even-q":
        return q, r + (q + (q & 1)) // 2
    if offset == "odd-q":
        return q, r + (q - (q & 1)) // 2
    if offset == "even-r":
        return q + (r + (r & 1)) // 2, r
    if offset == "odd-r":
        return q + (r - (r & 1)) // 2, r
    raise ValueError(f"unknown offset {offset!r}: one of {', '.join(OFFSETS)}")


# -- one printed map -------------------------------------------------------------------------------
class Reach:
    """Where a move can go: `cost[h]` the fewest MP to reach hex h (the start costs 0), and
    `previous[h]` the hex before h on one such path. A cost above the allowance marks the one-hex
    minimum move of one hex."""

    __slots__ = ("start", "cost", "previous")

    def __init__(self, start: int, cost: dict[int, float], previous: dict[int, int]) -> None:
        self.start, self.cost, self.previous = start, cost, previous

    def __contains__(self, h: object) -> bool:
        return h in self.cost

    def path(self, to: int) -> list[int]:
        """The hexes from the start to `to`, both included (KeyError if `to` is out of reach)."""
        if to not in self.cost:
            raise KeyError(f"hex {to} is out of reach")
        return trace_back(self.previous, self.start, to)


class HexGrid:
    """A printed hex map: the hexes of `columns` x `rows` (less `exclude`, labels of non-hex areas
    or hexes off a ragged edge), numbered 0..n-1 column by column, with their tables.

    `digits`: how many digits the column and the row take in a label ((2, 2): "8306").
    Tables: `hexes[i]` the axial Hex, `labels[i]` its label, `neighbour_table[i]` the six
    neighbours in DIRECTIONS order (NO_HEX off the map), `adjacent[i]` the (neighbour, hexside)
    pairs on the map in that order; hexsides between two hexes of the map are numbered 0..m-1:
    `sides[k]` its Hexside, `side_ends[k]` its two hexes.
    """

    __slots__ = (
        "offset",
        "digits",
        "n",
        "hexes",
        "labels",
        "index",
        "by_label",
        "neighbour_table",
        "adjacent",
        "sides",
        "side_ends",
        "side_index",
        "direction_names",
    )

    def __init__(
        self,
        columns: range,
        rows: range,
        *,
        offset: str = "even-q",
        digits: tuple[int, int] = (2, 2),
        exclude: Iterable[str] = (),
    ) -> None:
        if offset not in OFFSETS:
            raise ValueError(f"unknown offset {offset!r}: one of {', '.join(OFFSETS)}")
        self.offset, self.digits = offset, digits
        self.direction_names = FLAT_DIRECTION_NAMES if offset.endswith("q") else POINTY_DIRECTION_NAMES
        skip = set(exclude)
        hexes, labels = [], []
        for col in columns:
            for row in rows:
                label = self._format(col, row)
                if label in skip:
                    skip.discard(label)
                    continue
                hexes.append(offset_to_axial(col, row, offset))
                labels.append(label)
        if skip:
            raise ValueError(f"exclude names hexes not on the map: {', '.join(sorted(skip))}")
        self.n = len(hexes)
        self.hexes: tuple[Hex, ...] = tuple(hexes)
        self.labels: tuple[str, ...] = tuple(labels)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(hexes)}
        self.by_label: dict[str, int] = {label: i for i, label in enumerate(labels)}
        index = self.index
        self.neighbour_table: tuple[tuple[int, ...], ...] = tuple(
            tuple(index.get(Hex(q + dq, r + dr), NO_HEX) for dq, dr in DIRECTIONS) for q, r in hexes
        )
        sides: list[Hexside] = []
        side_ends: list[tuple[int, int]] = []
        self.side_index: dict[Hexside, int] = {}
        adjacent = []
        for i, (q, r) in enumerate(hexes):
            pairs = []
            for j in self.neighbour_table[i]:
                if j == NO_HEX:
                    continue
                side = Hexside(q + hexes[j].q, r + hexes[j].r)
                k = self.side_index.get(side)
                if k is None:
                    k = self.side_index[side] = len(sides)
                    sides.append(side)
                    side_ends.append((i, j))
                pairs.append((j, k))
            adjacent.append(tuple(pairs))
        self.adjacent: tuple[tuple[tuple[int, int], ...], ...] = tuple(adjacent)
        self.sides: tuple[Hexside, ...] = tuple(sides)
        self.side_ends: tuple[tuple[int, int], ...] = tuple(side_ends)

    # labels
    def _format(self, col: int, row: int) -> str:
        cd, rd = self.digits
        if not (0 <= col < 10**cd and 0 <= row < 10**rd):
            raise ValueError(f"column {col}, row {row} do not fit a {cd}+{rd}-digit label")
        return f"{col:0{cd}d}{row:0{rd}d}"

    def format(self, h: Hex) -> str:
        """The printed label of an axial hex (on the map or not): Hex(83, ...) -> "8306"."""
        return self._format(*axial_to_offset(h, self.offset))

    def parse(self, label: str) -> Hex:
        """The axial hex a label names, on the map or not ("8306" -> column 83, row 06)."""
        cd, rd = self.digits
        if len(label) != cd + rd or not label.isdigit():
            raise ValueError(f"hex label {label!r}: expected {cd + rd} digits, column then row")
        return offset_to_axial(int(label[:cd]), int(label[cd:]), self.offset)

    def at(self, label: str) -> int:
        """The index of the hex a label names (KeyError if it is not on this map)."""
        i = self.by_label.get(label)
        if i is None:
            self.parse(label)  # a malformed label says so
            raise KeyError(f"hex {label} is not on this map")
        return i

    def label(self, i: int) -> str:
        return self.labels[i]

    # neighbourhood
    def neighbours(self, i: int) -> list[int]:
        """The hexes adjacent to hex i on the map, in DIRECTIONS order."""
        return [j for j, _ in self.adjacent[i]]

    def neighbour(self, i: int, direction: int) -> int:
        """The neighbour of hex i in DIRECTIONS[direction], or NO_HEX off the map."""
        return self.neighbour_table[i][direction]

    def distance(self, i: int, j: int) -> int:
        return hex_distance(self.hexes[i], self.hexes[j])

    def ring(self, i: int, radius: int) -> list[int]:
        """The hexes of the map at exactly `radius` from hex i, in hex_ring's order."""
        index = self.index
        return [index[h] for h in hex_ring(self.hexes[i], radius) if h in index]

    def within(self, i: int, radius: int) -> list[int]:
        """The hexes of the map within `radius` of hex i, the nearest first (hex_spiral's order)."""
        index = self.index
        return [index[h] for h in hex_spiral(self.hexes[i], radius) if h in index]

    def line(self, i: int, j: int) -> list[int]:
        """The hexes a straight line from hex i to hex j crosses (hex_linedraw), NO_HEX where it
        leaves the map (a ragged or holed map)."""
        index = self.index
        return [index.get(h, NO_HEX) for h in hex_linedraw(self.hexes[i], self.hexes[j])]

    def side(self, i: int, j: int) -> int:
        """The number of the hexside between adjacent hexes i and j (ValueError if not adjacent)."""
        k = self.side_index.get(Hexside(self.hexes[i].q + self.hexes[j].q, self.hexes[i].r + self.hexes[j].r))
        if k is None or self.distance(i, j) != 1:
            raise ValueError(f"hexes {self.labels[i]} and {self.labels[j]} are not adjacent")
        return k

    # movement
    def movement_range(
        self,
        start: int,
        allowance: float,
        costs: StepCosts,
        *,
        blocked: Container[int] = frozenset(),
        stop: Callable[[int], bool] | None = None,
        at_least_one: bool = False,
    ) -> Reach:
        """Every hex a unit at `start` can reach with `allowance` MP, at its cheapest cost (Dijkstra).

        `costs` says what each step costs (StepCosts); `blocked` hexes may not be entered (enemy
        units); a hex where `stop(h)` is true ends the move on entering it (an enemy
        zone of control), not when the move starts there. `at_least_one`: the rules'
        minimum move, every enterable neighbour is reachable, ending the move there, whatever it
        costs (its true cost is recorded, above the allowance).
        """
        cost: dict[int, float] = {start: 0}
        previous: dict[int, int] = {}
        heap: list[tuple[float, int]] = [(0, start)]
        steps = costs.steps
        inf = math.inf
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            c, i = pop(heap)
            if c > cost[i]:
                continue
            if stop is not None and i != start and stop(i):
                continue
            for j, step in steps[i]:
                reached = c + step
                if reached <= allowance and reached < cost.get(j, inf) and j not in blocked:
                    cost[j] = reached
                    previous[j] = i
                    push(heap, (reached, j))
        if at_least_one:
            for j, step in steps[start]:
                if j not in cost and j not in blocked:
                    cost[j] = step
                    previous[j] = start
        return Reach(start, cost, previous)


class StepCosts:
    """What each step between adjacent hexes costs one kind of mover, compiled once per map and kind.

    `enter[h]`: the MP to enter hex h (its terrain; math.inf: impassable, or a
    non-hex area). `side_extra[k]`: MP added to cross hexside k (an unbridged river +3:
    8.3; math.inf: an impassable hexside). `side_cost[k]`: the whole cost of a step across hexside
    k, replacing the terrain and any extra (road rate 1/2 MP along a road). A step
    whose cost is infinite is left out: it can never be taken. `steps[i]` lists (neighbour, cost).
    """

    __slots__ = ("grid", "steps")

    def __init__(
        self,
        grid: HexGrid,
        enter: Sequence[float],
        side_extra: Mapping[int, float] | None = None,
        side_cost: Mapping[int, float] | None = None,
    ) -> None:
        if len(enter) != grid.n:
            raise ValueError(f"enter costs: {len(enter)} given for {grid.n} hexes")
        extra = side_extra or {}
        override = side_cost or {}
        self.grid = grid
        steps = []
        for pairs in grid.adjacent:
            row = []
            for j, k in pairs:
                step = override[k] if k in override else enter[j] + extra.get(k, 0)
                if step < 0:
                    raise ValueError(f"a step into hex {grid.labels[j]} costs {step} MP")
                if step != math.inf:
                    row.append((j, step))
            steps.append(tuple(row))
        self.steps: tuple[tuple[tuple[int, float], ...], ...] = tuple(steps)

    def step(self, i: int, j: int) -> float:
        """The MP cost of the step from hex i to its neighbour j (math.inf if it cannot be taken)."""
        for to, step in self.steps[i]:
            if to == j:
                return step
        return math.inf
