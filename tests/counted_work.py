"""Work counted instead of timed, so that no test depends on how fast the machine is (issue 37).

- `calls_made(work)`: how many function calls a piece of code makes. A test that "X is quick" holds on any
  machine when it bounds X's work rather than its time: the calls it makes (Python functions and builtins alike)
  do not change with the machine's speed or load, and a quadratic slip shows in them as surely as on a stopwatch.
- `ticking_search_clock(monkeypatch, ms)`: MCTS's clock (warroom/ai/mcts.py) moved `ms` at each reading, so a
  search given a time budget runs the same simulations on any machine (it reads the clock once a simulation).
"""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

T = TypeVar("T")


def calls_made(work: Callable[[], T]) -> tuple[T, int]:
    """What `work()` answers, and how many function calls it made (sys.setprofile's "call" and "c_call" events).

    Modules compiled with mypyc make calls that no profiler sees: count the work of pure-Python modules."""
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        answer = work()
    finally:
        sys.setprofile(previous)
    return answer, count


def ticking_search_clock(monkeypatch: pytest.MonkeyPatch, ms_a_reading: float) -> None:
    """Make MCTS's clock a count of its readings: `ms_a_reading` milliseconds pass at each (for this test only)."""
    from warroom.ai import mcts

    readings = itertools.count()
    clock = types.SimpleNamespace(perf_counter=lambda: next(readings) * ms_a_reading / 1000.0)
    monkeypatch.setattr(mcts, "time", clock)
