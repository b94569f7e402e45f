"""Checks that must hold in every Patton position; random-game tests call them at every step.

Each returns a list of problems (empty when all is well), so a failing test says what broke.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import SEGMENT_LIMIT
from .state import MOVING, OVER, STACK_LIMIT, PattonState


def problems(s: PattonState) -> list[str]:
    """Every check's findings, in the order of `_CHECKS` (empty when the position is sound)."""
    out: list[str] = []
    for check in _CHECKS:
        check(s, out)
    return out


def _towns(s: PattonState, out: list[str]) -> None:
    """No negative Units; a town holds Units exactly when it has a side; no more joined Units than Units."""
    b = s.board
    for t in range(b.n):
        units = s.armor[t] + s.inf[t]
        if s.armor[t] < 0 or s.inf[t] < 0:
            out.append(f"{b.names[t]}: negative Units")
        if (units > 0) != (s.side[t] >= 0):
            out.append(f"{b.names[t]}: holds {units} Units with side {s.side[t]}")
        if s.joined_a[t] > s.armor[t] or s.joined_i[t] > s.inf[t]:
            out.append(f"{b.names[t]}: more joined Units than Units")


def _roads(s: PattonState, out: list[str]) -> None:
    """At most 5 Units along a road a turn, and a road used has both its towns marked."""
    b = s.board
    for r, used in enumerate(s.seg):
        if not 0 <= used <= SEGMENT_LIMIT:
            out.append(
                f"road {b.names[b.road_ends[r][0]]}-{b.names[b.road_ends[r][1]]}: {used} Units this turn (max 5)"
            )
        x, y = b.road_ends[r]
        if used and not (s.road_used_at >> x) & 1 & (s.road_used_at >> y):
            out.append(f"road {b.names[x]}-{b.names[y]} is used but its towns are not marked (road_used_at)")


def _landings(s: PattonState, out: list[str]) -> None:
    """No landing area takes more Units than its capacity."""
    b = s.board
    for k, used in enumerate(s.land_used):
        if used > b.landing_capacity[k]:
            out.append(f"{b.landings[k].id}: {used} Units landed (capacity {b.landing_capacity[k]})")


def _movement_points(s: PattonState, out: list[str]) -> None:
    """Until the game is over, the MP left are the turn's total less what the moves cost."""
    if s.phase != OVER:
        b = s.board
        spent = sum(used * b.road_cost[r] for r, used in enumerate(s.seg)) + sum(s.land_used)
        if not 0 <= s.mp <= s.mp_total or spent != s.mp_total - s.mp:
            out.append(f"MP: {s.mp} left of {s.mp_total}, but moves cost {spent}")


def _stacks(s: PattonState, out: list[str]) -> None:
    """An attack stack holds Units and attacks an enemy town."""
    for st in s.stacks:
        if st.armor < 0 or st.infantry < 0 or st.armor + st.infantry == 0:
            out.append(f"empty or negative stack {st}")
        if s.side[st.target] == st.owner:
            out.append(f"a stack attacks its own side's town {s.board.names[st.target]}")


def _forces(s: PattonState, out: list[str]) -> None:
    """Each side's Units present are its force, plus those entered, less those eliminated or being placed."""
    b = s.board
    for side in (0, 1):
        armor, infantry = s.units_of(side)
        force_a, force_i = b.force[side]
        expect_a = force_a + s.entered[side][0] - s.eliminated[side][0] - s.placing[side][0]
        expect_i = force_i + s.entered[side][1] - s.eliminated[side][1] - s.placing[side][1]
        if (armor, infantry) != (expect_a, expect_i):
            out.append(f"side {side}: {armor}A {infantry}I present, expected {expect_a}A {expect_i}I")


def _turn_ended(s: PattonState, out: list[str]) -> None:
    """At the start of a movement, the side that has just ended its turn is within the stacking limit,
    and during movement only the side moving has attack stacks."""
    b = s.board
    if s.phase == MOVING and s.mp == s.mp_total:  # the side that has just ended its turn is within the limit
        ended = 1 - s.mover
        over = [b.names[t] for t in range(b.n) if s.side[t] == ended and s.armor[t] + s.inf[t] > STACK_LIMIT]
        if over:
            out.append(f"a turn ended with more than 10 Units of its player in {over}")
    if s.phase == MOVING and s.stacks and any(st.owner != s.mover for st in s.stacks):
        out.append("an attack stack of the side not moving during movement")


# The checks, in the order their findings are listed.
_CHECKS: tuple[Callable[[PattonState, list[str]], None], ...] = (
    _towns,
    _roads,
    _landings,
    _movement_points,
    _stacks,
    _forces,
    _turn_ended,
)
