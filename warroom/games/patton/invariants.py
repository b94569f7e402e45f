"""Checks that must hold in every Patton position; random-game tests call them at every step.

Each returns a list of problems (empty when all is well), so a failing test says what broke.
"""

from __future__ import annotations

from .movement import SEGMENT_LIMIT
from .state import MOVING, OVER, STACK_LIMIT, PattonState


def problems(s: PattonState) -> list[str]:
    b = s.board
    out: list[str] = []
    for t in range(b.n):
        units = s.armor[t] + s.inf[t]
        if s.armor[t] < 0 or s.inf[t] < 0:
            out.append(f"{b.names[t]}: negative Units")
        if (units > 0) != (s.side[t] >= 0):
            out.append(f"{b.names[t]}: holds {units} Units with side {s.side[t]}")
        if s.joined_a[t] > s.armor[t] or s.joined_i[t] > s.inf[t]:
            out.append(f"{b.names[t]}: more joined Units than Units")
    for r, used in enumerate(s.seg):
        if not 0 <= used <= SEGMENT_LIMIT:
            out.append(
                f"road {b.names[b.road_ends[r][0]]}-{b.names[b.road_ends[r][1]]}: {used} Units this turn (max 5)"
            )
        x, y = b.road_ends[r]
        if used and not (s.road_used_at >> x) & 1 & (s.road_used_at >> y):
            out.append(f"road {b.names[x]}-{b.names[y]} is used but its towns are not marked (road_used_at)")
    for k, used in enumerate(s.land_used):
        if used > b.landing_capacity[k]:
            out.append(f"{b.landings[k].id}: {used} Units landed (capacity {b.landing_capacity[k]})")
    if s.phase != OVER:
        spent = sum(used * b.road_cost[r] for r, used in enumerate(s.seg)) + sum(s.land_used)
        if not 0 <= s.mp <= s.mp_total or spent != s.mp_total - s.mp:
            out.append(f"MP: {s.mp} left of {s.mp_total}, but moves cost {spent}")
    for st in s.stacks:
        if st.armor < 0 or st.infantry < 0 or st.armor + st.infantry == 0:
            out.append(f"empty or negative stack {st}")
        if s.side[st.target] == st.owner:
            out.append(f"a stack attacks its own side's town {b.names[st.target]}")
    for side in (0, 1):
        armor, infantry = s.units_of(side)
        force_a, force_i = b.force[side]
        expect_a = force_a + s.entered[side][0] - s.eliminated[side][0] - s.placing[side][0]
        expect_i = force_i + s.entered[side][1] - s.eliminated[side][1] - s.placing[side][1]
        if (armor, infantry) != (expect_a, expect_i):
            out.append(f"side {side}: {armor}A {infantry}I present, expected {expect_a}A {expect_i}I")
    if s.phase == MOVING and s.mp == s.mp_total:  # the side that has just ended its turn is within the limit
        ended = 1 - s.mover
        over = [b.names[t] for t in range(b.n) if s.side[t] == ended and s.armor[t] + s.inf[t] > STACK_LIMIT]
        if over:
            out.append(f"a turn ended with more than 10 Units of its player in {over}")
    if s.phase == MOVING and s.stacks and any(st.owner != s.mover for st in s.stacks):
        out.append("an attack stack of the side not moving during movement")
    return out
