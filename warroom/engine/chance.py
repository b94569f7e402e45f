"""A chance node's outcome from one uniform number: the one sampler searches, benches and tests share.

A chance node lists `(outcome, p)` pairs (`Ruleset.chance_outcomes`, OpenSpiel's `chance_outcomes`).
`sample(outcomes, u)` turns one uniform `u` in [0, 1) into an outcome:

- equally likely outcomes (a plain die) by index, `outcomes[int(u * n)]`: the draw the seeded dice
  source makes (`DiceSource.roll`) and `skip` replays;
- other odds by walking the running total of the probabilities to the first one above `u * total`,
  which is what `random.choices(values, weights=...)` does with its one draw.

Exactly one uniform number per roll, whatever the odds, so a seeded game or search consumes its random
stream the same way wherever the sampling happens. `Sampler` is the same function with the last
outcome list's table remembered, for loops that roll one shared die many times (MCTS rollouts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def sample(outcomes: Sequence[tuple[T, float]], u: float) -> T:
    """The outcome that the uniform number `u` (0 <= u < 1) picks from `(outcome, p)` pairs."""
    if _all_equally_likely(outcomes):
        return outcomes[int(u * len(outcomes))][0]
    return _walk(outcomes, running_total(outcomes), u)


def running_total(outcomes: Sequence[tuple[object, float]]) -> list[float]:
    """The cumulative probabilities, summed in order (the last is the total, 1 up to rounding)."""
    edges, total = [], 0.0
    for _, p in outcomes:
        total += p
        edges.append(total)
    return edges


class Sampler:
    """`sample` with the table of the last outcome list kept: rulesets hand back one shared tuple per
    die (a d6), so a rollout loop checks its odds once rather than at every roll. Same answers as `sample`."""

    __slots__ = ("_outcomes", "_uniform", "_edges")

    def __init__(self) -> None:
        self._outcomes: Sequence[tuple[object, float]] | None = None
        self._uniform = True
        self._edges: list[float] = []

    def __call__(self, outcomes: Sequence[tuple[T, float]], u: float) -> T:
        if outcomes is not self._outcomes:
            self._outcomes = outcomes
            self._uniform = _all_equally_likely(outcomes)
            self._edges = running_total(outcomes)
        if self._uniform:
            return outcomes[int(u * len(outcomes))][0]
        return _walk(outcomes, self._edges, u)


def _all_equally_likely(outcomes: Sequence[tuple[object, float]]) -> bool:
    first = outcomes[0][1]
    return all(p == first for _, p in outcomes)


def _walk(outcomes: Sequence[tuple[T, float]], edges: list[float], u: float) -> T:
    r = u * edges[-1]
    for k, edge in enumerate(edges):
        if r < edge:
            return outcomes[k][0]
    return outcomes[-1][0]
