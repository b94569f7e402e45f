"""Using Movement Points: moves along roads, moves that stop outside an enemy town to fight,
and (Sicily) landings. Legal moves are built from cached id tuples: this is the hot path.

Rule citations: "Patton: Using Movement Points", "Patton: Battles", "Patton: Sicily — Allied Landings".
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable

from warroom.engine.events import Events

from .actions import LAND, SEGMENT_LIMIT, SLOT_ROWS, ActionTable
from .board import mix_text
from .state import EMPTY, PattonState, Stack

MOVEMENT = "Patton: Using Movement Points"
BATTLES = "Patton: Battles"
LANDINGS = "Patton: Sicily — Allied Landings"
BULGE = "Patton: The Bulge — Objective (trapped Units)"


def trapped_town(s: PattonState) -> int:
    """Bastogne while besieged: its Units cannot take part in any battle (The Bulge, Objective)."""
    b = s.board
    if b.relieve >= 0 and not s.relieved and s.side[b.relieve] == 0:
        return b.relieve
    return -1


def movable(s: PattonState, town: int) -> tuple[int, int]:
    """(armor, infantry) of the mover that may leave `town` now."""
    if s.side[town] != s.mover or town == trapped_town(s):
        return 0, 0
    return s.armor[town] - s.frozen_a[town], s.inf[town] - s.frozen_i[town]


def legal_moves(s: PattonState, tab: ActionTable, out: list[str]) -> None:
    """Append every legal `move` and `land` id (the caller appends `end`): the one test of a move's
    legality; `apply` accepts a move only if it is one of these.

    A group may leave a town of the mover's with Units free to move (not besieged, not landed this
    turn) along a road whose segment has room (5 Units a turn) and whose cost it can pay (Units x
    road cost); the Axis may not attack besieged Bastogne. The ids come from the table's caches.

    A town none of whose roads was used this turn (`s.road_used_at`) and none of whose roads leads to
    besieged Bastogne offers moves that depend only on the Units free to leave it and on the MP left
    (up to the most any road can use): those come whole from `tab.town_moves`, one list per town. The
    mover's towns with Units free to move are listed once a phase (`s.move_rows`, kept by every move:
    `note_town`), since a move changes only the two towns at the ends of its road."""
    b = s.board
    mover, mp = s.mover, s.mp
    if mp <= 0:
        return  # no road move and no landing costs nothing
    trapped = trapped_town(s)
    no_attack = trapped if mover == 1 else -2  # no battle can be fought for besieged Bastogne
    # the towns whose moves the cache cannot give: a road used this turn, or one that leads to Bastogne
    own_way = s.road_used_at | (tab.neighbours[no_attack] if no_attack >= 0 else 0)
    town_moves, mp_key = tab.town_moves, (mp if mp < tab.mp_cap else tab.mp_cap)
    k_of_cost = tab.k_of_cost[mp_key]
    base = mp_key * tab.town_rows  # this MP's block of town_moves
    extend, seg = out.extend, s.seg
    rows = s.move_rows
    if rows is None:
        rows = s.move_rows = mover_rows(s)
    for town, row in rows:
        if town == trapped:
            continue
        if (own_way >> town) & 1:  # a road out of it used this turn, or one to besieged Bastogne: road by road
            _road_moves(tab, town, row % 36, k_of_cost, seg, no_attack, extend)
            continue
        found = town_moves[base + row]  # its moves come whole from the cache, or are built into it once
        if found is None:
            built: list[str] = []
            _road_moves(tab, town, row % 36, k_of_cost, seg, no_attack, built.extend)
            found = town_moves[base + row] = tuple(built)
        extend(found)
    if mover == 0 and (s.offboard[0] or s.offboard[1]) and b.landings:
        oa, oi = s.offboard
        for k_area, cap in enumerate(b.landing_capacity):
            k = cap - s.land_used[k_area]
            if mp < k:
                k = mp
            if k <= 0:
                continue
            out.extend(tab.mixes(LAND, k_area, oa if oa < k else k, oi if oi < k else k, 1, k))


def _town_row(town: int, armor: int, infantry: int) -> int:
    """A town's row of `town_moves` for the Units free to leave it: town x 36 + armor x 6 + infantry, each
    counted up to the 5 a road segment takes (SLOT_ROWS's rows)."""
    return town * 36 + (armor if armor < 5 else 5) * 6 + (infantry if infantry < 5 else 5)


def mover_rows(s: PattonState) -> list[tuple[int, int]]:
    """The mover's towns with Units free to move, in town order, each with its `town_moves` row (`s.move_rows`)."""
    mover, armor, inf, frozen_a, frozen_i = s.mover, s.armor, s.inf, s.frozen_a, s.frozen_i
    side = s.side
    rows: list[tuple[int, int]] = []
    town = -1
    for _ in range(side.count(mover)):  # the mover's towns, found by C-speed scans
        town = side.index(mover, town + 1)
        ma = armor[town] - frozen_a[town]
        mi = inf[town] - frozen_i[town]
        if ma + mi:
            rows.append((town, _town_row(town, ma, mi)))
    return rows


def note_town(s: PattonState, town: int) -> None:
    """Keep `s.move_rows` true after a move changed the Units in `town` (if it is kept). A landing needs no
    note: the Units it puts in a town may not move along roads this turn, so the town's free Units stay."""
    rows = s.move_rows
    if rows is None:
        return
    at = bisect_left(rows, (town,))
    here = at < len(rows) and rows[at][0] == town
    ma = s.armor[town] - s.frozen_a[town]
    mi = s.inf[town] - s.frozen_i[town]
    if s.side[town] == s.mover and ma + mi:
        row = (town, _town_row(town, ma, mi))
        if here:
            rows[at] = row
        else:
            rows.insert(at, row)
    elif here:
        del rows[at]


if SEGMENT_LIMIT != 5:
    raise RuntimeError("legal_moves writes the 5 Units a road segment takes as a literal (SLOT_ROWS's rows)")


def _road_moves(
    tab: ActionTable,
    town: int,
    row: int,
    k_of_cost: tuple[int, ...],
    seg: list[int],
    no_attack: int,
    into: Callable[[Iterable[str]], None],
) -> None:
    """The moves out of `town`, road by road: up to k Units, k the MP's or the road's limit (5 a segment)."""
    slots, move_cache, limit = SLOT_ROWS[row], tab.move_cache, SEGMENT_LIMIT
    for road, cost, first, to in tab.roads_out[town]:
        k = k_of_cost[cost]
        room = limit - seg[road]
        if room < k:
            k = room
        if k > 0 and to != no_attack:
            into(move_cache[first + slots[k]] or ())  # every slot a move asks for is built


def apply_move(s: PattonState, d: int, a: int, i: int, events: Events) -> bool:
    """Move `a` armor and `i` infantry along directed road `d`; True when they left their town empty."""
    b = s.board
    r = d >> 1
    x, y = b.road_ends[r]
    if d & 1:
        x, y = y, x
    mover = s.mover
    cost = (a + i) * b.road_cost[r]
    s.mp -= cost
    s.seg[r] += a + i
    s.road_used_at |= (1 << x) | (1 << y)
    s.armor[x] -= a
    s.inf[x] -= i
    emptied = s.armor[x] + s.inf[x] == 0
    if emptied:
        s.side[x] = EMPTY
    note_town(s, x)
    if s.side[y] == 1 - mover:
        _join_stack(s, y, x, a, i)
        if events.on:
            events.emit(
                "attack_move",
                f"{mix_text(a, i)} move from {b.towns[x].name} towards {b.towns[y].name} ({b.road_kind[r]} road, "
                f"{cost} MP) and stop outside it to fight; {s.mp} MP left.",
                BATTLES,
            )
        return emptied
    s.side[y] = mover
    s.armor[y] += a
    s.inf[y] += i
    note_town(s, y)
    if events.on:
        events.emit(
            "move",
            f"{mix_text(a, i)} move {b.towns[x].name} -> {b.towns[y].name} ({b.road_kind[r]} road, {cost} MP); "
            f"{s.mp} MP left.",
            MOVEMENT,
        )
    return emptied


def apply_land(s: PattonState, k: int, a: int, i: int, events: Events) -> None:
    b = s.board
    town = b.landing_town[k]
    s.mp -= a + i  # "one Movement Point for each Unit ... placed in a landing area"
    s.land_used[k] += a + i
    s.offboard[0] -= a
    s.offboard[1] -= i
    area = b.landings[k].id
    if s.side[town] == 1:
        _join_stack(s, town, b.n + k, a, i)
        if events.on:
            events.emit(
                "landing",
                f"{mix_text(a, i)} land at {area} ({a + i} MP): {b.towns[town].name} is held by the Axis, so they "
                f"must fight for it; if they throw the lower total they are eliminated. {s.mp} MP left.",
                LANDINGS,
            )
        return
    s.side[town] = 0
    s.armor[town] += a
    s.inf[town] += i
    s.frozen_a[town] += a  # "Units cannot move along roads on the same turn on which they are landed"
    s.frozen_i[town] += i
    if events.on:
        events.emit(
            "landing",
            f"{mix_text(a, i)} land at {area} ({a + i} MP) and move into {b.towns[town].name}; they cannot move "
            f"along roads this turn. {s.mp} MP left.",
            LANDINGS,
        )


def _join_stack(s: PattonState, target: int, source: int, a: int, i: int) -> None:
    """Units stopping outside `target` on the road from `source` join the stack already there."""
    for k, st in enumerate(s.stacks):
        if st.target == target and st.source == source:
            s.stacks[k] = Stack(target, source, st.armor + a, st.infantry + i, st.owner)
            return
    s.stacks.append(Stack(target, source, a, i, s.mover))


def pending_targets(s: PattonState) -> list[int]:
    """Towns the mover has attacked and not yet fought for, in board order."""
    mover = s.mover
    return sorted({st.target for st in s.stacks if st.owner == mover})
