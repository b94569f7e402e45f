"""A small builder for fixed-length numeric observations (the games' `ObservationEncoding`).

A game's encoder reads a side's observation and appends numbers in a fixed order: counts scaled
to about [0, 1], flags as 0/1, a categorical value as a one-hot over a vocabulary the game fixes
(its towns, its phases). Every call appends the same number of entries whatever the value, so the
vector's length depends only on the scenario, as the environments need.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class Vector:
    """Numbers appended in order; `values` is the encoded observation."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[float] = []

    def number(self, value: float | None, scale: float = 1.0) -> Vector:
        """`value / scale` (0 for None): one entry."""
        self.values.append(0.0 if value is None else float(value) / scale)
        return self

    def flag(self, value: object) -> Vector:
        """1.0 when `value` is truthy, else 0.0: one entry."""
        self.values.append(1.0 if value else 0.0)
        return self

    def one_hot(self, value: object, vocabulary: Sequence[object]) -> Vector:
        """len(vocabulary) entries: 1.0 where `value` is, 0.0 elsewhere (all 0 for a value not in it, e.g. None)."""
        self.values.extend(1.0 if value == word else 0.0 for word in vocabulary)
        return self

    def multi_hot(self, values: Iterable[object], vocabulary: Sequence[object]) -> Vector:
        """len(vocabulary) entries: 1.0 for each word among `values`."""
        chosen = set(values)
        self.values.extend(1.0 if word in chosen else 0.0 for word in vocabulary)
        return self


__all__ = ["Vector"]
