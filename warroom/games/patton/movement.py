"""Using Movement Points: moves along roads, moves that stop outside an enemy town to fight,
and (Sicily) landings. Legal moves are built from cached id tuples: this is the hot path.

Rule citations: "Patton: Using Movement Points", "Patton: Battles", "Patton: Sicily — Allied Landings".
"""

from __future__ import annotations

from warroom.engine.ruleset import Event

from .actions import LAND, ActionTable
from .board import mix_text
from .state import EMPTY, PattonState

MOVEMENT = "Patton: Using Movement Points"
BATTLES = "Patton: Battles"
LANDINGS = "Patton: Sicily — Allied Landings"
BULGE = "Patton: The Bulge — Objective (trapped Units)"
SEGMENT_LIMIT = 5  # "A maximum of 5 Units can use any one road segment during a turn."


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
    """Append every legal `move` and `land` id (the caller appends `end`)."""
    b = s.board
    mover, mp, side, seg = s.mover, s.mp, s.side, s.seg
    trapped = trapped_town(s)
    moves, mixes = tab.moves, tab.mixes
    for town in range(b.n):
        if side[town] != mover or town == trapped:
            continue
        ma = s.armor[town] - s.frozen_a[town]
        mi = s.inf[town] - s.frozen_i[town]
        if ma + mi == 0:
            continue
        for d, road, to, cost in b.out[town]:
            room = SEGMENT_LIMIT - seg[road]
            k = mp // cost
            if room < k:
                k = room
            if k <= 0:
                continue
            if to == trapped and mover == 1:
                continue  # no battle can be fought for besieged Bastogne
            out.extend(moves(d, ma if ma < k else k, mi if mi < k else k, k))
    if mover == 0 and (s.offboard[0] or s.offboard[1]) and b.landings:
        oa, oi = s.offboard
        for k_area, cap in enumerate(b.landing_capacity):
            k = cap - s.land_used[k_area]
            if mp < k:
                k = mp
            if k <= 0:
                continue
            out.extend(mixes(LAND, k_area, oa if oa < k else k, oi if oi < k else k, 1, k))


def move_ok(s: PattonState, d: int, a: int, i: int) -> bool:
    """The same test `legal_moves` applies, for one move (so apply need not search the list)."""
    b = s.board
    r = d >> 1
    x, y = b.road_ends[r]
    if d & 1:
        x, y = y, x
    if a < 0 or i < 0 or a + i == 0:
        return False
    ma, mi = movable(s, x)
    if a > ma or i > mi:
        return False
    if s.seg[r] + a + i > SEGMENT_LIMIT or (a + i) * b.road_cost[r] > s.mp:
        return False
    return not (s.mover == 1 and y == trapped_town(s))


def land_ok(s: PattonState, k: int, a: int, i: int) -> bool:
    b = s.board
    if s.mover != 0 or a < 0 or i < 0 or a + i == 0 or k >= len(b.landings):
        return False
    return a <= s.offboard[0] and i <= s.offboard[1] and s.land_used[k] + a + i <= b.landing_capacity[k] and a + i <= s.mp


def apply_move(s: PattonState, d: int, a: int, i: int, events: list[Event], log: bool) -> None:
    b = s.board
    r = d >> 1
    x, y = b.road_ends[r]
    if d & 1:
        x, y = y, x
    mover = s.mover
    cost = (a + i) * b.road_cost[r]
    s.mp -= cost
    s.seg[r] += a + i
    s.armor[x] -= a
    s.inf[x] -= i
    if s.armor[x] + s.inf[x] == 0:
        s.side[x] = EMPTY
    if s.side[y] == 1 - mover:
        _join_stack(s, y, x, a, i)
        if log:
            events.append({
                "type": "attack_move",
                "text": f"{mix_text(a, i)} move from {b.towns[x].name} towards {b.towns[y].name} ({b.road_kind[r]} road, {cost} MP) "
                        f"and stop outside it to fight; {s.mp} MP left.",
                "rule": BATTLES,
            })
        return
    s.side[y] = mover
    s.armor[y] += a
    s.inf[y] += i
    if log:
        events.append({
            "type": "move",
            "text": f"{mix_text(a, i)} move {b.towns[x].name} -> {b.towns[y].name} ({b.road_kind[r]} road, {cost} MP); {s.mp} MP left.",
            "rule": MOVEMENT,
        })


def apply_land(s: PattonState, k: int, a: int, i: int, events: list[Event], log: bool) -> None:
    b = s.board
    town = b.landing_town[k]
    s.mp -= a + i  # "one Movement Point for each Unit ... placed in a landing area"
    s.land_used[k] += a + i
    s.offboard[0] -= a
    s.offboard[1] -= i
    area = b.landings[k].id
    if s.side[town] == 1:
        _join_stack(s, town, b.n + k, a, i)
        if log:
            events.append({
                "type": "landing",
                "text": f"{mix_text(a, i)} land at {area} ({a + i} MP): {b.towns[town].name} is held by the Axis, so they must fight for it; "
                        f"if they throw the lower total they are eliminated. {s.mp} MP left.",
                "rule": LANDINGS,
            })
        return
    s.side[town] = 0
    s.armor[town] += a
    s.inf[town] += i
    s.frozen_a[town] += a  # "Units cannot move along roads on the same turn on which they are landed"
    s.frozen_i[town] += i
    if log:
        events.append({
            "type": "landing",
            "text": f"{mix_text(a, i)} land at {area} ({a + i} MP) and move into {b.towns[town].name}; they cannot move along roads this turn. {s.mp} MP left.",
            "rule": LANDINGS,
        })


def _join_stack(s: PattonState, target: int, source: int, a: int, i: int) -> None:
    """Units stopping outside `target` on the road from `source` join the stack already there."""
    for st in s.stacks:
        if st[0] == target and st[1] == source:
            st[2] += a
            st[3] += i
            return
    s.stacks.append([target, source, a, i, s.mover])


def pending_targets(s: PattonState) -> list[int]:
    """Towns the mover has attacked and not yet fought for, in board order."""
    mover = s.mover
    return sorted({st[0] for st in s.stacks if st[4] == mover})
