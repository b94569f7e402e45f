"""6.0D: in the Movement Phase the stacking limit holds once the moves are done, not at each move.

"Stacking does not apply while a unit or support asset is moving through a hex. The stacking limit is only
enforced after all units and support assets have completed their movement during the Movement Phase." So a
move may end in a full friendly hex whose piece leaves later in the phase: two units trade places, three
rotate. A piece moves once (8.1B), so an overstack left to a piece that then cannot leave could never be
undone; the phase may end only when no hex is overstacked. The reading (NOTES.md, reading 2): a move may
leave at most one hex overstacked, and only while that hex keeps a piece that has not moved, whose leaving
makes the hex fit, with a hex it can reach and fit in. A rotation needs no more, and the phase can always
end: that piece's move out is legal whatever else has moved.

`Closure` answers, for one position, which moves keep that promise. `move_choices` asks it only about a
move that ends in a full hex, or while a hex is overstacked; every other move keeps it at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from .catalog import Catalog
from .stacking import fits, occupants
from .state import TunisiaState

NO_LEAVER, WAY_OUT, NO_EXIT_NOW = 0, 1, 2
"""`Closure._way_out`'s answers for a full hex: none of its pieces that may leave makes room; one does and
has a hex to go to now; one does but has none now (the mover's leaving its own hex may open one)."""

ReachOf = Callable[[int], Collection[int]]
"""An unmoved piece -> the hexes it may end its move in this phase (its `Moves.reach`)."""


def side_stacks(cat: Catalog, s: TunisiaState, side: int) -> dict[int, list[int]]:
    """Hex -> the side's pieces in it (the phasing side's: the enemy's never share a hex with them, 8.7A)."""
    return occupants(s, cat.by_side[side])


def overstacked(cat: Catalog, stacks: dict[int, list[int]]) -> list[int]:
    """The hexes whose stacks break 6.0A-C (in the Movement Phase at most one: `Closure`)."""
    return [h for h, here in stacks.items() if len(here) > 1 and not fits(cat, here)]


def full_hexes(cat: Catalog, stacks: dict[int, list[int]]) -> tuple[set[int], set[int]]:
    """The side's hexes a moving unit (one there already), and a moving ground support asset (two there, three
    with an air asset), would overstack (6.0A-C)."""
    is_unit, is_air = cat.is_unit, cat.is_air
    for_unit = {h for h, here in stacks.items() if any(is_unit[p] for p in here)}
    for_asset = {
        h
        for h, here in stacks.items()
        if sum(not is_unit[p] for p in here) >= (3 if any(is_air[p] for p in here) else 2)
    }
    return for_unit, for_asset


def leavers(cat: Catalog, s: TunisiaState, crowd: list[int], mover: int = -1) -> list[int]:
    """The pieces of an overstacked crowd that may mend it: not moved yet (8.1B; not `mover`, which just has),
    not air (8.1A), and whose leaving makes the rest fit."""
    moved, is_air = s.moved, cat.is_air
    return [
        r for r in crowd if r != mover and not moved[r] and not is_air[r] and fits(cat, [p for p in crowd if p != r])
    ]


class Closure:
    """Which moves of the phasing side keep its Movement Phase closable (the module's reading of 6.0D)."""

    def __init__(
        self,
        cat: Catalog,
        s: TunisiaState,
        reach_of: ReachOf,
        hexes_of: Callable[[int], frozenset[int]] | None = None,
        full_for_unit: set[int] | None = None,
        full_for_asset: set[int] | None = None,
    ) -> None:
        """`reach_of`/`hexes_of`: an unmoved piece's destinations, in order and as a set; `full_for_unit`,
        `full_for_asset`: the side's hexes a unit, or a ground support asset, would overstack now. The last
        three serve the cheap answers (`closed_into_full`) alone; the exact test needs `reach_of` only."""
        self.cat, self.s, self.reach_of = cat, s, reach_of
        self.stacks = side_stacks(cat, s, s.player)
        if full_for_unit is None or full_for_asset is None:
            full_for_unit, full_for_asset = full_hexes(cat, self.stacks)
        self.hexes_of = hexes_of if hexes_of is not None else self._hexes_of
        self.full_for_unit, self.full_for_asset = full_for_unit, full_for_asset
        self.over = overstacked(cat, self.stacks)
        self._verdicts: dict[bool, tuple[set[int], set[int], set[int]]] = {}  # kind -> never, unsure, decided

    def _hexes_of(self, r: int) -> frozenset[int]:
        return frozenset(self.reach_of(r))

    # -- the exact test ------------------------------------------------------------------------------------
    def _after(self, q: int, d: int) -> Callable[[int], list[int]]:
        """Hex -> the side's pieces in it once q has moved to d."""
        stacks, o = self.stacks, self.s.loc[q]

        def after(h: int) -> list[int]:
            here = stacks.get(h, [])
            if h == o:
                here = [p for p in here if p != q]
            if h == d:
                here = [*here, q]
            return here

        return after

    def overstacked_after(self, q: int, d: int) -> list[int]:
        """The hexes overstacked once q has moved to d (its own hex only loses a piece), in hex order."""
        after = self._after(q, d)
        return sorted(h for h in {*self.over, d} if not fits(self.cat, after(h)))

    def allows(self, q: int, d: int) -> bool:
        """Whether moving piece q (unmoved, in its hex) to d leaves the phase closable: no hex overstacked
        after it, or one that keeps a way out."""
        over = self.overstacked_after(q, d)
        if not over:
            return True
        if len(over) > 1:
            return False
        return self.way_out_after(q, d, over[0])

    def way_out_after(self, q: int, d: int, x: int) -> bool:
        """Whether overstacked x, once q has moved to d, holds a piece that has yet to move, whose leaving makes
        x fit, with a hex it can reach and fit in."""
        cat, after = self.cat, self._after(q, d)
        return any(fits(cat, [*after(e), r]) for r in leavers(cat, self.s, after(x), q) for e in self.reach_of(r))

    # -- the cheap answers move_choices asks ----------------------------------------------------------------
    def closed_into_full(self, q: int, full: set[int]) -> set[int]:
        """Of `full`, the full hexes q could reach, those q may not end in while no hex is overstacked. A
        hex's answer is remembered per kind of mover (unit, support asset): no piece of it that has yet to
        move and whose leaving makes room, closed; one with a hex to go to now, open (the mover's leaving
        only frees its own hex, so that stands); one with none now, the exact test for each mover."""
        kind = self.cat.is_unit[q]
        never, unsure, decided = self._verdicts.get(kind) or self._verdicts.setdefault(kind, (set(), set(), set()))
        for d in full - decided:
            verdict = self._way_out(d, q)
            if verdict == NO_LEAVER:
                never.add(d)
            elif verdict == NO_EXIT_NOW:
                unsure.add(d)
            decided.add(d)
        closed = full & never
        for d in full & unsure:
            if not self.allows(q, d):
                closed.add(d)
        return closed

    def _way_out(self, d: int, q: int) -> int:
        """Whether full hex d, once q has joined it, keeps a way out (NO_LEAVER, WAY_OUT, NO_EXIT_NOW). Only a
        piece of q's kind that has yet to move can make room (a second unit, or a support asset past the
        limit: air assets never move here, 8.1A), and it fits now wherever q's kind is not full."""
        cat = self.cat
        unit = cat.is_unit[q]
        full = self.full_for_unit if unit else self.full_for_asset
        moved, is_air, is_unit = self.s.moved, cat.is_air, cat.is_unit
        found = NO_LEAVER
        for r in self.stacks.get(d, ()):
            if moved[r] or is_air[r] or is_unit[r] != unit:
                continue
            hexes = self.hexes_of(r)
            if len(hexes & full) < len(hexes):  # a hex it fits in (the intersection walks the few full hexes)
                return WAY_OUT
            found = NO_EXIT_NOW
        return found

    def resolves(self, q: int) -> bool:
        """Whether q's leaving the overstacked hex makes it fit (then q's move to a hex it fits in is legal)."""
        x = self.over[0]
        return fits(self.cat, [p for p in self.stacks[x] if p != q])

    def critical_exits(self) -> frozenset[int] | None:
        """While hex x is overstacked: the hexes a move from elsewhere must be checked for filling, those of
        x's way out when it has just one (None: x has several, so no single move from elsewhere can close
        them all, its own hex only freed)."""
        cat, stacks = self.cat, self.stacks
        exits: set[int] = set()
        for r in leavers(cat, self.s, stacks[self.over[0]]):
            for e in self.reach_of(r):
                if e not in exits and fits(cat, [*stacks.get(e, []), r]):
                    exits.add(e)
                    if len(exits) > 1:
                        return None
        return frozenset(exits)
