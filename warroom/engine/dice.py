"""Dice sources: where a match's chance outcomes come from.

Seeded (reproducible), scripted (a list of values, then the seed), or manual (a person types
in the die at the table). The only RNG in warroom lives here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .errors import WarroomError

Outcomes = Sequence[tuple[int, float]]
"""A chance node's (outcome, probability) pairs, as `Ruleset.chance_outcomes` lists them."""

_UNIFORM_CACHE_SIZE = 64
_uniform_tuples: dict[int, tuple[Outcomes, bool]] = {}
"""id(outcomes) -> (outcomes, all equally likely?), for tuples only: a tuple cannot change after the
check, and holding it here keeps its id from being reused by another object."""


def is_uniform(outcomes: Outcomes) -> bool:
    """Whether every outcome is equally likely (a plain die): rolled by one uniform draw.

    Rulesets return the same outcomes at every roll of the same die, so the answer is
    remembered per tuple (a ruleset's shared d6 is checked once, not at each roll). A list may be
    changed in place by its owner, so a list is checked every time.
    """
    if type(outcomes) is not tuple:
        return _all_equally_likely(outcomes)
    known = _uniform_tuples.get(id(outcomes))
    if known is not None and known[0] is outcomes:
        return known[1]
    uniform = _all_equally_likely(outcomes)
    if len(_uniform_tuples) >= _UNIFORM_CACHE_SIZE:
        _uniform_tuples.clear()  # a ruleset that builds a fresh tuple per roll: stay small rather than clever
    _uniform_tuples[id(outcomes)] = (outcomes, uniform)
    return uniform


def _all_equally_likely(outcomes: Outcomes) -> bool:
    first_p = outcomes[0][1]
    return all(p == first_p for _, p in outcomes)


class DiceSource:
    """Seeded dice; the base every other source falls back on."""

    manual = False

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, outcomes: Outcomes) -> int:
        """Pick an outcome; uniform dice take the fast path (one draw, which `skip` can replay)."""
        if is_uniform(outcomes):
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

    def roll(self, outcomes: Outcomes) -> int:
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
