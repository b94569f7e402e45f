"""7.8 Supply: a path of land hexes from a piece to a friendly airfield, never through an enemy piece or
an enemy zone of control that no friendly piece negates; a piece without one is reduced (or eliminated).

The path is found backwards, once for the whole side: every hex reachable from a friendly airfield
(a hex with its own side's silhouette, NOTES.md) over allowed hexes is in supply.
"""

from __future__ import annotations

from collections import deque

from warroom.engine.events import Events

from .catalog import SIDE_NAMES, Catalog
from .losses import eliminate
from .state import TunisiaState
from .zoc import enemy_zoc

SUPPLY = "7.8"


def friendly_airfields(cat: Catalog, side: int) -> tuple[int, ...]:
    """The airfield hexes printed with `side`'s silhouette (NOTES.md: 'friendly' read as the silhouette)."""
    key = "axis" if side == 0 else "allied"
    return tuple(sorted(i for i, f in cat.board.airfields.items() if f.side == key))


def supplied_hexes(cat: Catalog, s: TunisiaState, side: int) -> set[int]:
    """Every hex from which `side` can trace a supply path to a friendly airfield (7.8A-B, 9.2C)."""
    board = cat.board
    loc = s.loc
    enemy = {loc[p] for p in cat.by_side[1 - side] if loc[p] >= 0}
    friendly = {loc[p] for p in cat.by_side[side] if loc[p] >= 0}
    ezoc = enemy_zoc(cat, s, side) - friendly  # 7.8B: a friendly piece in a hex negates the EZOC there
    land = board.land

    def allowed(h: int) -> bool:
        return h in land and h not in enemy and h not in ezoc

    start = [h for h in friendly_airfields(cat, side) if allowed(h)]
    seen = set(start)
    queue = deque(start)
    neighbours = board.grid.neighbour_table
    while queue:
        h = queue.popleft()
        for j in neighbours[h]:
            if j >= 0 and j not in seen and allowed(j):
                seen.add(j)
                queue.append(j)
    return seen


def supply_phase(cat: Catalog, s: TunisiaState, events: Events) -> None:
    """7.8C: each of the phasing side's pieces on the map without a supply path is reduced, or
    eliminated if already reduced or one-step (13.1B); reduced twice by supply it is eliminated, not
    replaced by a battlegroup (7.8C says 'eliminated')."""
    side = s.player
    supplied = supplied_hexes(cat, s, side)
    loc = s.loc
    for p in cat.by_side[side]:
        where = loc[p]
        if where < 0 or where in supplied:
            continue
        if cat.steps[p] == 2 and not s.reduced[p]:
            s.reduced[p] = True
            if events.on:
                events.emit(
                    "supply",
                    f"{cat.name[p]} in {cat.board.label(where)} is out of supply and is reduced.",
                    SUPPLY,
                    piece=cat.ids[p],
                )
        else:
            eliminate(cat, s, p)  # a battlegroup counter back to the mix, as in combat (13.2, NOTES.md)
            if events.on:
                events.emit(
                    "supply",
                    f"{cat.name[p]} in {cat.board.label(where)} is out of supply and is eliminated.",
                    SUPPLY,
                    piece=cat.ids[p],
                )
    s.supply_checks += 1
    if events.on:
        events.emit("supply_phase", f"{SIDE_NAMES[side]} Supply Phase checked.", SUPPLY)
