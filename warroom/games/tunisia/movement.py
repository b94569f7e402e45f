"""8.0 Movement: where each piece may go this Movement Phase, and moving it there.

A move takes one piece from its hex to any hex it can reach (8.1B: each piece completes its move before
the next begins; a stack moves as its pieces one after another along the same way, NOTES.md). What it
can reach: the cheapest MP path over the TEC's costs (8.2-8.4), never into a hex holding an enemy piece
(8.7A), stopping on entering an enemy zone of control (9.1C, 9.2A), the minimum move of one hex (8.5),
and a unit that neither starts nor ends in an EZOC has its MA doubled (8.6). Enemies never move during
the phasing side's movement, so each piece's reach is computed once a phase and cached in the state.
"""

from __future__ import annotations

from .catalog import Catalog
from .state import TunisiaState

Reach = dict[int, float]
"""Destination hex -> the MPs of the cheapest legal move there."""


def movement_allowance(cat: Catalog, s: TunisiaState, piece: int) -> int:
    """The piece's MA on its current side (a reduced unit's back may print less, 13.1A)."""
    return cat.reduced_ma[piece] if s.reduced[piece] else cat.ma[piece]


def enemy_occupied(cat: Catalog, s: TunisiaState, side: int) -> set[int]:
    """Hexes holding any piece of `side`'s enemy (8.7A: never entered)."""
    loc = s.loc
    return {loc[p] for p in cat.by_side[1 - side] if loc[p] >= 0}


def half_mp_steps(cat: Catalog) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The board's step costs in half MPs (8.4's 1/2 MP is the smallest unit of the TEC), as integers, so
    the search below can file hexes in buckets instead of a heap."""
    out = []
    for row in cat.board.ground_costs.steps:
        halves = []
        for j, step in row:
            if step * 2 != int(step * 2):
                raise ValueError(f"a step cost of {step} MP is not a multiple of 1/2 MP")
            halves.append((j, int(step * 2)))
        out.append(tuple(halves))
    return tuple(out)


def compute_reach(cat: Catalog, s: TunisiaState, piece: int, ezoc: set[int], blocked: set[int]) -> Reach:
    """Every hex `piece` may end its move in, with the MPs the cheapest legal move there spends."""
    start = s.loc[piece]
    ma = movement_allowance(cat, s, piece) * 2  # in half MPs
    strategic = cat.is_unit[piece] and start not in ezoc  # 8.6: doubled unless it ends in an EZOC (below)
    allowance = 2 * ma if strategic else ma
    steps = cat.half_steps
    never = allowance + 1
    cost = [never] * len(steps)
    cost[start] = 0
    for h in blocked:
        cost[h] = -1  # 8.7A: never entered (and never improved on below)
    buckets: list[list[int]] = [[] for _ in range(never)]
    buckets[0].append(start)
    reached_hexes = [start]
    for c in range(never):
        for i in buckets[c]:
            if cost[i] != c or (i in ezoc and i != start):  # 9.1C: entering an EZOC ends the move
                continue
            for j, step in steps[i]:
                reached = c + step
                if reached < cost[j]:
                    if cost[j] == never:
                        reached_hexes.append(j)
                    cost[j] = reached
                    buckets[reached].append(j)
    out: Reach = {}
    for j in reached_hexes:
        c = cost[j]
        if j == start or (strategic and c > ma and j in ezoc):  # 8.6: a move ending in an EZOC is not doubled
            continue
        out[j] = c / 2
    for j, step in steps[start]:  # 8.5: one hex whatever it costs, and no further
        if j not in out and j not in blocked:
            out[j] = step / 2
    return out


class Moves:
    """One piece's reach this phase with the text id of the move to each hex, built once."""

    __slots__ = ("reach", "ids", "by_hex", "hexes", "position", "_closed", "_open")

    def __init__(self, reach: Reach, head: str, labels: tuple[str, ...]) -> None:
        self.reach = reach
        self.by_hex: dict[int, str] = {dest: head + labels[dest] for dest in reach}
        self.ids: tuple[str, ...] = tuple(self.by_hex.values())
        self.hexes: frozenset[int] = frozenset(reach)
        self.position: dict[int, int] = {dest: k for k, dest in enumerate(reach)}
        self._closed: set[int] = set()
        self._open: tuple[str, ...] = self.ids

    def ids_avoiding(self, closed: set[int]) -> tuple[str, ...]:
        """The ids of the moves that do not end in `closed` (hexes the stacking limit bars), in their fixed
        order; the last answer is kept, since the stacks a piece could end in change little from one
        move to the next (a memo: clones may share it)."""
        if closed != self._closed:
            ids, start = self.ids, 0
            kept: list[str] = []
            for k in sorted(self.position[h] for h in closed):
                kept.extend(ids[start:k])
                start = k + 1
            kept.extend(ids[start:])
            self._closed, self._open = closed, tuple(kept)
        return self._open


def moves_of(cat: Catalog, s: TunisiaState, piece: int, ezoc: set[int], blocked: set[int]) -> Moves:
    """`compute_reach` and its ids, cached for the Movement Phase (the enemy's pieces and zones stand
    still in it, and a piece moves once: 8.1B)."""
    cached = s.reach.get(piece)
    if cached is None:
        labels = cat.board.grid.labels
        head = f"move {cat.ids[piece]} {labels[s.loc[piece]]} "
        cached = s.reach[piece] = Moves(compute_reach(cat, s, piece, ezoc, blocked), head, labels)
    return cached


def movable(cat: Catalog, s: TunisiaState) -> list[int]:
    """The phasing side's pieces that may still move this phase: units and non-air support assets on the
    map that have not moved (8.1A-B)."""
    loc, moved, is_air = s.loc, s.moved, cat.is_air
    return [p for p in cat.by_side[s.player] if loc[p] >= 0 and not moved[p] and not is_air[p]]
