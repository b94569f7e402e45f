"""Dice sources: where a match's chance outcomes come from.

Seeded (reproducible), scripted (a list of values, then the seed), or manual (a person types
in the die at the table). The only RNG in warroom lives here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .errors import WarroomError


class DiceSource:
    """Seeded dice; the base every other source falls back on."""

    manual = False

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, outcomes: Sequence[tuple[int, float]]) -> int:
        """Pick an outcome; uniform dice take the fast path."""
        first_p = outcomes[0][1]
        if all(p == first_p for _, p in outcomes):
            return outcomes[int(self._rng.random() * len(outcomes))][0]
        values = [o for o, _ in outcomes]
        return self._rng.choices(values, weights=[p for _, p in outcomes])[0]

    def spec(self) -> str | list[int]:
        return "auto"

    def skip(self, count: int) -> None:
        """Advance past `count` uniform rolls, as if they had been made (used when loading a save)."""
        for _ in range(count):
            self._rng.random()


class ScriptedDice(DiceSource):
    """Each die takes the next scripted value; when they run out the seeded RNG continues."""

    def __init__(self, values: Sequence[int], seed: int | None = None) -> None:
        super().__init__(seed)
        self.values = list(values)
        self._next = 0

    def roll(self, outcomes: Sequence[tuple[int, float]]) -> int:
        if self._next < len(self.values):
            value = self.values[self._next]
            legal = [o for o, _ in outcomes]
            if value not in legal:
                raise WarroomError(f"scripted die {self._next + 1} is {value}; this roll allows {legal[0]}..{legal[-1]}")
            self._next += 1
            return value
        return super().roll(outcomes)

    @property
    def remaining(self) -> int:
        return len(self.values) - self._next

    def skip(self, count: int) -> None:
        """The script is used up first, then the seeded RNG: as the rolls were made."""
        scripted = min(count, self.remaining)
        self._next += scripted
        super().skip(count - scripted)

    def spec(self) -> str | list[int]:
        return list(self.values)


class ManualDice(DiceSource):
    """Chance nodes become decisions of the side `dice`: a person rolls real dice."""

    manual = True

    def spec(self) -> str | list[int]:
        return "manual"


def make_dice(spec: str | Sequence[int] | None, seed: int | None) -> DiceSource:
    """Build a dice source from its protocol spelling: "auto", "manual" or a list of values."""
    if spec is None or spec == "auto":
        return DiceSource(seed)
    if spec == "manual":
        return ManualDice(seed)
    if isinstance(spec, str):
        raise WarroomError(f'dice must be "auto", "manual" or a list of die values, not {spec!r}')
    values = list(spec)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise WarroomError("scripted dice must be a list of integers")
    return ScriptedDice(values, seed)
