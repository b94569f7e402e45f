"""6.0D: in the Movement Phase the stacking limit holds once the moves are done, not at each move.

"Stacking does not apply while a unit or support asset is moving through a hex. The stacking limit is only
enforced after all units and support assets have completed their movement during the Movement Phase." So a
move may end in a full friendly hex whose piece leaves later in the phase: two units trade places, three or
six rotate. A piece moves once (8.1B), so an overstack left to pieces that then cannot mend it could never be
undone; the phase may end only when no hex is overstacked. The reading (NOTES.md, reading 2): a move may
leave at most one hex overstacked, and only while the pieces that have yet to move can still mend it: a chain
of them, the first leaving the overstacked hex, each next leaving the hex the one before it filled, the last
ending where it fits, each to a hex it can reach (an augmenting path: the limit is one unit, or two or three
support assets, a hex, and each move carries one piece). Such a chain exists exactly when some moves of the
unmoved pieces would leave every hex within the limit, so the phase can always end, and any set of moves
that ends legal can be made one piece at a time (move first a piece into a hex with room, else a piece out of
the overstacked hex): every exchange or rotation the text allows.

`Closure` answers, for one position, which moves keep that promise. `move_choices` asks it only about a
move that ends in a full hex, or while a hex is overstacked; every other move keeps it at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from .catalog import Catalog
from .stacking import fits, occupants
from .state import TunisiaState

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


StackAt = Callable[[int], list[int]]
"""Hex -> the side's pieces in it (as the position stands, or as it would after a move)."""


class Closure:
    """Which moves of the phasing side keep its Movement Phase closable (the module's reading of 6.0D)."""

    def __init__(
        self,
        cat: Catalog,
        s: TunisiaState,
        reach_of: ReachOf,
        full_for_unit: set[int] | None = None,
        full_for_asset: set[int] | None = None,
    ) -> None:
        """`reach_of`: an unmoved piece's destinations; `full_for_unit`, `full_for_asset`: the side's hexes a
        unit, or a ground support asset, would overstack now (`full_hexes`, found here when not given)."""
        self.cat, self.s, self.reach_of = cat, s, reach_of
        self.stacks = side_stacks(cat, s, s.player)
        if full_for_unit is None or full_for_asset is None:
            full_for_unit, full_for_asset = full_hexes(cat, self.stacks)
        self.full_for_unit, self.full_for_asset = full_for_unit, full_for_asset
        self.over = overstacked(cat, self.stacks)
        self._verdicts: dict[bool, dict[int, frozenset[int] | None]] = {}  # kind -> full hex -> `_chained_from`

    def stack_at(self, h: int) -> list[int]:
        """The side's pieces in hex h as the position stands."""
        return self.stacks.get(h, [])

    # -- the exact test ------------------------------------------------------------------------------------
    def _after(self, q: int, d: int) -> StackAt:
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
        after it, or one the pieces that have yet to move can mend."""
        over = self.overstacked_after(q, d)
        if not over:
            return True
        if len(over) > 1:
            return False
        return self.way_out_after(q, d, over[0])

    def way_out_after(self, q: int, d: int, x: int) -> bool:
        """Whether overstacked x, once q has moved to d, can be mended by the pieces that have yet to move."""
        return self.drains(x, self._after(q, d), q)

    def drains(self, x: int, stack_at: StackAt, mover: int = -1) -> bool:
        """Whether overstacked x (the one overstacked hex of `stack_at`) can be mended by the pieces that have yet
        to move (not `mover`, which just has): a chain of them, the first leaving x and making it fit, each
        next leaving the hex the one before it entered and making that fit, the last ending where it fits,
        each to a hex it can reach. A search over hexes, each entered once: the shortest such chain never
        comes back to a hex, so each hex it enters is as `stack_at` has it."""
        cat, moved, is_air, reach_of = self.cat, self.s.moved, self.cat.is_air, self.reach_of
        seen = {x}
        frontier: list[tuple[int, int]] = [(x, -1)]  # a hex of the chain, the piece that entered it (-1: x)
        k = 0
        while k < len(frontier):
            h, came = frontier[k]
            k += 1
            here = stack_at(h)
            crowd = here if came < 0 else [*here, came]
            for r in here:
                if r == mover or moved[r] or is_air[r] or not fits(cat, [p for p in crowd if p != r]):
                    continue
                for e in reach_of(r):
                    if e in seen:
                        continue
                    if fits(cat, [*stack_at(e), r]):
                        return True
                    seen.add(e)
                    frontier.append((e, r))
        return False

    def closable(self) -> bool:
        """Whether the position's own overstack (at most one hex) can be mended: the phase can still end."""
        if not self.over:
            return True
        return len(self.over) == 1 and self.drains(self.over[0], self.stack_at)

    # -- the cheap answers move_choices asks ----------------------------------------------------------------
    def closed_into_full(self, q: int, full: set[int]) -> set[int]:
        """Of `full`, the full hexes q could reach, those q may not end in while no hex is overstacked. The
        chain out of a full hex d (`_chained_from`) is the same for every mover of a kind but for the hex the
        mover leaves, which has room once it has left: d is open to q when the chain finds room elsewhere, or
        comes to q's own hex."""
        kind = self.cat.is_unit[q]
        verdicts = self._verdicts.get(kind)
        if verdicts is None:
            verdicts = self._verdicts[kind] = {}
        o = self.s.loc[q]
        closed: set[int] = set()
        for d in full:
            if d in verdicts:
                stuck = verdicts[d]
            else:
                stuck = verdicts[d] = self._chained_from(d, kind)
            if stuck is not None and o not in stuck:
                closed.add(d)
        return closed

    def _chained_from(self, d: int, unit: bool) -> frozenset[int] | None:
        """With no hex overstacked, the chain out of full hex d once a piece of the kind (`unit`) has entered
        it: None when it comes to a hex with room for that kind, else every hex it can come to (d's own too).
        Only pieces of the kind that have yet to move make room (an air asset never moves here, 8.1A), and a
        piece of the kind fits wherever the kind is not full."""
        cat = self.cat
        full = self.full_for_unit if unit else self.full_for_asset
        moved, is_air, is_unit, reach_of, stacks = self.s.moved, cat.is_air, cat.is_unit, self.reach_of, self.stacks
        seen = {d}
        frontier = [d]
        k = 0
        while k < len(frontier):
            h = frontier[k]
            k += 1
            for r in stacks.get(h, ()):
                if moved[r] or is_air[r] or is_unit[r] != unit:
                    continue
                for e in reach_of(r):
                    if e not in full:
                        return None
                    if e not in seen:
                        seen.add(e)
                        frontier.append(e)
        return frozenset(seen)

    def resolves(self, q: int) -> bool:
        """Whether q's leaving the overstacked hex makes it fit (then q's move to a hex it fits in is legal)."""
        x = self.over[0]
        return fits(self.cat, [p for p in self.stacks[x] if p != q])

    def critical_exits(self) -> frozenset[int] | None:
        """While hex x is overstacked: the hexes a move from elsewhere must be checked for filling, the hex with
        room that x's chains come to when they come to just one (None: they come to several, so no single move
        from elsewhere can close them all; its own hex only gains room, and a move that overstacks a second
        hex is refused anyway)."""
        cat, moved, is_air, reach_of, stack_at = self.cat, self.s.moved, self.cat.is_air, self.reach_of, self.stack_at
        x = self.over[0]
        exits: set[int] = set()
        seen = {x}
        frontier: list[tuple[int, int]] = [(x, -1)]
        k = 0
        while k < len(frontier):
            h, came = frontier[k]
            k += 1
            here = stack_at(h)
            crowd = here if came < 0 else [*here, came]
            for r in here:
                if moved[r] or is_air[r] or not fits(cat, [p for p in crowd if p != r]):
                    continue
                for e in reach_of(r):
                    if e in seen:
                        continue
                    seen.add(e)
                    if fits(cat, [*stack_at(e), r]):
                        exits.add(e)
                        if len(exits) > 1:
                            return None
                    else:
                        frontier.append((e, r))
        return frozenset(exits)
