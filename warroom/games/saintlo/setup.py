"""Game setup (4, 10.1): Command Posts on the coloured hexes, units deployed face down, Battle Reports dealt,
dice for the starting player.

4.2: each army places its 8 Command Posts, one a hex, on its colour (the Allies on yellow, the Axis on
red), the owner choosing which post (defence value) goes where (NOTES.md). 4.3: every unit is deployed
(NOTES.md, open question 1) in the own sector, one unit a hex; land units not on rivers nor Command Posts,
Supply units only on roads or bridges (7.5), aircraft anywhere in the sector (4.3's exception covers
both rivers and Command Posts; a hex holds one aircraft). Deployment is face down and revealed when
both armies are done, so the order in which they deploy gives nothing away. A placement that would
leave a Supply unit no road hex to stand on is refused: every unit must find a hex (NOTES.md).
"""

from __future__ import annotations

from collections.abc import Callable

from .effects import drop_unit
from .movement import kept_unit_masks
from .seats import kind_for, seats_of
from .state import OFF, SaintLoState
from .tables import AIRCRAFT, INFANTRY, SUPPLY, Tables, picker


def post_choices(t: Tables, s: SaintLoState) -> list[str]:
    """4.2: every free hex of the army's colour, with each defence value still to place."""
    army = s.active
    values = sorted({t.post_values[army][k] for k in range(8) if s.post_hex[army * 8 + k] == OFF})
    labels = t.labels
    return [f"post {labels[h]} {v}" for h in t.post_hexes[army] if s.post_at[h] == OFF for v in values]


def place_post(t: Tables, s: SaintLoState, hex_: int, value: int) -> int:
    """Put the army's first unplaced Command Post of defence `value` on `hex_`; its index."""
    army = s.active
    for k in range(8):
        p = army * 8 + k
        if s.post_hex[p] == OFF and t.post_values[army][k] == value:
            s.post_hex[p] = hex_
            s.post_at[hex_] = p
            return p
    raise AssertionError("no such Command Post left")  # legal_actions offers only values left


def posts_left(s: SaintLoState, army: int) -> bool:
    return any(s.post_hex[army * 8 + k] == OFF for k in range(8))


def deploy_hexes(t: Tables, s: SaintLoState, army: int, kind_type: int) -> list[int]:
    """4.3, 7.5: where a unit of this type may be deployed now, in hex order (read from the units' masks)."""
    masks = kept_unit_masks(t, s)
    if kind_type == AIRCRAFT:
        return t.hexes_of(t.sector_mask[army] & ~(masks[2] | masks[3]))
    free = t.sector_land_mask[army] & ~(masks[0] | masks[1])
    free_roads = free & t.road_mask
    if kind_type == SUPPLY:
        return t.hexes_of(free_roads)
    pos = s.pos
    supply_left = sum(1 for u in t.supply_units[army] if pos[u] == OFF)
    if free_roads.bit_count() > supply_left:
        return t.hexes_of(free)
    return t.hexes_of(free & ~free_roads)  # keep the road hexes for the Supply units still to come


def deploy_choices(t: Tables, s: SaintLoState) -> list[str]:
    army = s.active
    out: list[str] = []
    by_group: dict[int, _GroupIds] = {}
    pos = s.pos
    for k in t.army_kinds[army]:
        if pos[t.kind_units[k][-1]] != OFF or not kind_for(t, s, s.seat, k):
            continue  # counters are deployed in order: the last one placed means all are
        kind_type = t.kind_type[k]
        # every land type but Supply units deploys on the same hexes: one list for them all
        group = kind_type if kind_type in (AIRCRAFT, SUPPLY) else INFANTRY
        ids = by_group.get(group)
        if ids is None:
            ids = by_group[group] = _GroupIds(t, army, group, tuple(deploy_hexes(t, s, army, kind_type)))
        out.extend(ids.of(k))
    return out


class _GroupIds:
    """The deploy ids of one group of kinds (the same hexes for each) on `hexes`, kind by kind, made from the
    group's last list where that was the same hexes or the same but one: deployment places one counter a
    decision, so each kind's ids are usually the last ones less one, not picked again from the whole sector.
    The last lists are kept in `Tables.last_deploy` by army and group (the hexes they were made for with
    them, so any position may ask)."""

    __slots__ = ("hexes", "ids", "taken", "before", "pick", "t")

    def __init__(self, t: Tables, army: int, group: int, hexes: tuple[int, ...]) -> None:
        self.t, self.hexes = t, hexes
        self.pick: Callable[[list[str]], tuple[str, ...]] | None = None
        last = t.last_deploy.get((army, group))
        self.taken = -1  # the index the one hex taken since the last list had there, -1 for none
        self.before: dict[int, tuple[str, ...]] = {}
        if last is not None and last[0] == hexes:
            self.ids = last[1]
            return
        if last is not None:
            self.taken = _taken(last[0], hexes)
            if self.taken >= 0:
                self.before = last[1]
        self.ids = {}
        t.last_deploy[army, group] = (hexes, self.ids)

    def of(self, k: int) -> tuple[str, ...]:
        ids = self.ids.get(k)
        if ids is None:
            before, taken = self.before.get(k), self.taken
            if before is not None:
                ids = before[:taken] + before[taken + 1 :]
            else:
                if self.pick is None:
                    self.pick = picker(self.hexes)
                ids = self.pick(self.t.deploy_ids[k])
            self.ids[k] = ids
        return ids


def _taken(before: tuple[int, ...], hexes: tuple[int, ...]) -> int:
    """Where `before` has the one hex `hexes` lacks (both in hex order), or -1 if they differ otherwise."""
    if len(before) != len(hexes) + 1:
        return -1
    low, high = 0, len(hexes)  # the first place they differ, by halves: alike before it, shifted by one after
    while low < high:
        mid = (low + high) // 2
        if before[mid] == hexes[mid]:
            low = mid + 1
        else:
            high = mid
    return low if before[:low] == hexes[:low] and before[low + 1 :] == hexes[low:] else -1


def deploy(t: Tables, s: SaintLoState, kind: int, hex_: int) -> int:
    """Deploy the kind's first undeployed counter on `hex_`; the unit."""
    for u in t.kind_units[kind]:
        if s.pos[u] == OFF:
            put(t, s, u, hex_)
            return u
    raise AssertionError("no counter of that kind left")  # legal_actions offers only kinds left


def put(t: Tables, s: SaintLoState, u: int, hex_: int) -> None:
    """Place unit u on `hex_` (setup, purchase, a move's end)."""
    s.pos[u] = hex_
    if s.unit_masks is not None:
        s.unit_masks[t.mask_index[u]] |= t.hex_bit[hex_]
    if t.unit_type[u] == AIRCRAFT:
        s.air_at[hex_] = u
    else:
        s.land_at[hex_] = u


def lift(t: Tables, s: SaintLoState, u: int) -> None:
    """Take unit u off the board (a move's start, its destruction, a swap)."""
    h = s.pos[u]
    if s.unit_masks is not None:
        s.unit_masks[t.mask_index[u]] ^= t.hex_bit[h]
    if t.unit_type[u] == AIRCRAFT:
        s.air_at[h] = OFF
    else:
        s.land_at[h] = OFF
    s.pos[u] = OFF


def remove_unit(t: Tables, s: SaintLoState, u: int) -> None:
    """A unit leaves play (destroyed: 6.2; swapped: 8): off the board, face up, its unique events ended."""
    lift(t, s, u)
    s.used[u] = False
    drop_unit(s, u)


def seat_done_deploying(t: Tables, s: SaintLoState) -> bool:
    return not any(
        s.pos[u] == OFF for k in t.army_kinds[s.active] if kind_for(t, s, s.seat, k) for u in t.kind_units[k]
    )


def deploy_order(s: SaintLoState) -> tuple[int, ...]:
    """The seats in the order they deploy: the Allied army's, then the Axis army's (10.1: each player his own)."""
    return (*seats_of(s, 0), *seats_of(s, 1))
