"""How large a statistical test plays: full size with `pytest -m slow`, a smaller size in every other run.

Tests of thousands of random games and calibrations are marked `slow`. A run that selects the mark (`pytest -m
slow`, or WARROOM_FULL_SIZE=1 in the environment) plays them at the size their docstrings argue for; every other
run, CI's among them, plays each at a smaller size that still walks every game and scenario, so that a slip in
the rules is caught on every commit and the full statistics stay one command away. tests/conftest.py decides
which, once a run (every xdist worker sees the same command line)."""

from __future__ import annotations

FULL = False
"""Set by tests/conftest.py: this run plays the slow tests at full size."""


def sized(full: int, quick: int) -> int:
    """`full` in a full-size run, `quick` otherwise (a count of games, seeds, samples)."""
    return full if FULL else quick
