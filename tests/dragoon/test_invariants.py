"""Dragoon's invariants (the spec's `invariants`, run by the conformance suite) catch broken positions."""

from __future__ import annotations

from typing import Any

import warroom
from warroom.games import get_spec
from warroom.games.dragoon.invariants import problems
from warroom.games.dragoon.state import ELIMINATED


def _start() -> tuple[Any, Any]:
    m = warroom.new_game("dragoon", seed=3, keep_log=False)
    return m.ruleset, m.state


def _mortal(rs: Any) -> int:
    """A German unit that may be eliminated (not the 148th ID nor the 11th PzD)."""
    return next(g for g in range(len(rs.board.german)) if not rs.board.never_eliminated[g])


def test_the_start_is_sound_and_the_spec_runs_these_checks() -> None:
    rs, s = _start()
    assert problems(rs, s) == []
    check = get_spec("dragoon").invariants
    assert check is not None and check(rs, s, None) == []


def test_a_broken_position_is_reported() -> None:
    rs, s = _start()
    broken = rs.clone(s)
    broken.rp = 5  # Using Action Charts: 2-4 actions a turn
    assert any("RP" in p for p in problems(rs, broken))
    broken = rs.clone(s)
    broken.german_loc[_mortal(rs)] = ELIMINATED  # gone from the map but not recorded as eliminated
    assert any("not those recorded" in p for p in problems(rs, broken))


def test_an_eliminated_unit_that_comes_back_is_caught() -> None:
    rs, s = _start()
    before = rs.clone(s)
    g = _mortal(rs)
    before.german_loc[g] = ELIMINATED
    before.eliminated[g] = before.turn
    assert problems(rs, before) == []
    assert any("came back" in p for p in problems(rs, s, before))
