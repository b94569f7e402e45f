"""Dice sources: where a match's chance outcomes come from.

Seeded (reproducible), scripted (a list of values, then the seed), or manual (a person types
in the die at the table). The only RNG in warroom lives here.

Two generators stand behind seeded dice, and a record names the one it used (`rng`):

- "mt19937" (`DiceSource`, the default): Python's `random.Random` seeded with an integer. Fast,
  for simulations, study and games between people who trust each other; a small seed can be
  recovered from the dice it shows, and with it every die to come.
- "hmac-sha256" (`KeyedDice`): each roll derived from a 256-bit secret key by HMAC-SHA256 in
  counter mode (see `keyed_outcome`). Without the key the dice cannot be predicted; with it,
  revealed once the game is over, anyone can re-derive every die (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from bisect import bisect
from collections.abc import Sequence
from itertools import accumulate

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


MT19937 = "mt19937"
"""Python's `random.Random` (a Mersenne Twister) seeded with an integer: the default generator."""
HMAC_SHA256 = "hmac-sha256"
"""The keyed generator: HMAC-SHA256 of a 256-bit secret in counter mode (`keyed_outcome`)."""
RNG_SCHEMES = (MT19937, HMAC_SHA256)

KEY_HEX_DIGITS = 64
"""A keyed seed is 32 bytes (256 bits), written as 64 hex digits."""
KEYED_LABEL = b"warroom-dice-v1"
"""The first bytes of every HMAC message: keeps these dice apart from any other use of the key."""
_HEX_KEY = re.compile(r"[0-9a-fA-F]{64}")
_WORD = 1 << 64
_INFINITY = float("inf")


class DiceSource:
    """Seeded dice (Python's Mersenne Twister); the base every other source falls back on."""

    manual = False
    plain = True
    """Rolled by the source alone, never refused (not manual, nothing scripted): `Match.play`'s fast path."""
    scheme = MT19937
    """The generator behind the dice, as a record's header names it (`rng`)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int | str | None = seed
        self._rng = random.Random(seed)

    _uniform_die: Outcomes | None = None
    """The last outcomes tuple found uniform: a ruleset rolls its one shared d6 again and again, so the
    next roll of that very tuple skips even the cached check (the hot path of every playout)."""

    def roll(self, outcomes: Outcomes) -> int:
        """Pick an outcome; uniform dice take the fast path (one draw, which `skip` can replay)."""
        if outcomes is self._uniform_die:
            return outcomes[int(self._rng.random() * len(outcomes))][0]
        if is_uniform(outcomes):
            if type(outcomes) is tuple:  # a list may be changed in place: never remembered
                self._uniform_die = outcomes
            return outcomes[int(self._rng.random() * len(outcomes))][0]
        # `random.choices(values, weights)` as Python 3.11 computes it (the same draw, sums and search, so the
        # same stream and outcome), without building its two lists: weighted dice are on playouts' path too
        cumulative = list(accumulate([p for _, p in outcomes]))
        total = cumulative[-1] + 0.0
        if not 0.0 < total < _INFINITY:
            raise WarroomError(f"a chance node's probabilities must add up to a positive finite total, not {total}")
        return outcomes[bisect(cumulative, self._rng.random() * total, 0, len(outcomes) - 1)][0]

    def spec(self) -> str | list[int]:
        return "auto"

    def skip(self, count: int) -> None:
        """Advance past `count` uniform rolls, as if they had been made (used when loading a save)."""
        for _ in range(count):
            self._rng.random()

    def copy(self) -> DiceSource:
        """An independent source at the same point of its stream (for `Match.clone`)."""
        twin = DiceSource.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._rng = type(self._rng)()
        twin._rng.setstate(self._rng.getstate())
        return twin


def is_key(seed: object) -> bool:
    """Whether `seed` is a keyed generator's seed: 64 hex digits (256 bits)."""
    return isinstance(seed, str) and _HEX_KEY.fullmatch(seed) is not None


def check_key(seed: object) -> str:
    """The seed as 64 lowercase hex digits, or a WarroomError saying what a key must be."""
    if not is_key(seed):
        shown = f"a string of {len(seed)} characters" if isinstance(seed, str) else type(seed).__name__
        raise WarroomError(f'a "{HMAC_SHA256}" seed must be {KEY_HEX_DIGITS} hex digits (a 256-bit key), not {shown}')
    assert isinstance(seed, str)
    return seed.lower()


def new_key() -> str:
    """A fresh 256-bit key from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(KEY_HEX_DIGITS // 2)


def _block(key: bytes, index: int, block: int) -> bytes:
    """HMAC-SHA256(key, "warroom-dice-v1" || uint64-be(index) || uint32-be(block))."""
    message = KEYED_LABEL + index.to_bytes(8, "big") + block.to_bytes(4, "big")
    return hmac.new(key, message, hashlib.sha256).digest()


def keyed_outcome(key: bytes, index: int, outcomes: Outcomes) -> int:
    """Roll number `index` (0 for the first die of the stream) of the keyed generator.

    The whole derivation, for anyone re-implementing it (docs/fairness.md says the same):

    - Block j of roll k is B(k, j) = HMAC-SHA256(key, b"warroom-dice-v1" || k as 8 bytes
      big-endian || j as 4 bytes big-endian); each block is read as four 64-bit big-endian words
      w0..w3. The key is the 32 bytes the seed's 64 hex digits spell.
    - A die whose outcomes are all equally likely (every probability the same double), with n
      outcomes: the first word w, taking B(k, 0)'s words in order, then B(k, 1)'s and so on, with
      w < 2^64 - (2^64 mod n) (rejection sampling: no face is favoured); the outcome is the one at
      position w mod n of the list.
    - Any other (weighted) roll: x = w0 of B(k, 0) shifted right by 11 bits (53 bits), u = x / 2^53.
      In IEEE-754 doubles, T = p0 + p1 + ... added one at a time left to right, t = u * T, and the
      outcome is the first i whose running sum c_i = p0 + ... + p_i (again left to right) is
      greater than t; should rounding leave none, the last outcome with p > 0.

    A roll depends on the key and its own number alone, so a verifier re-derives die k without
    the ones before it, and skipping rolls is counting.
    """
    if is_uniform(outcomes):
        n = len(outcomes)
        limit = _WORD - _WORD % n
        block = 0
        while True:
            digest = _block(key, index, block)
            for at in range(0, 32, 8):
                word = int.from_bytes(digest[at : at + 8], "big")
                if word < limit:
                    return outcomes[word % n][0]
            block += 1  # all four words rejected: probability below (n / 2^64)^4
    u = (int.from_bytes(_block(key, index, 0)[:8], "big") >> 11) / float(1 << 53)
    total = 0.0
    for _, p in outcomes:
        total += p
    threshold = u * total
    running = 0.0
    for value, p in outcomes:
        running += p
        if threshold < running:
            return value
    return next(value for value, p in reversed(outcomes) if p > 0)


class KeyedDice(DiceSource):
    """Dice no one can predict without the key, and everyone can check with it: HMAC-SHA256 in
    counter mode keyed by a 256-bit secret (`keyed_outcome` gives the exact derivation).

    `counter` is the number of the next roll; a roll depends on it and the key alone, so `skip(n)`
    adds n and a copy is the key and a number. Used for online games, where the seed is the
    server's secret until the game ends (its SHA-256 is shown to every seat from the start).
    """

    scheme = HMAC_SHA256

    def __init__(self, seed: str | None = None) -> None:
        self.seed = check_key(seed) if seed is not None else new_key()
        self.key = bytes.fromhex(self.seed)
        self.counter = 0

    def roll(self, outcomes: Outcomes) -> int:
        value = keyed_outcome(self.key, self.counter, outcomes)
        self.counter += 1
        return value

    def skip(self, count: int) -> None:
        self.counter += count

    def copy(self) -> DiceSource:
        twin = DiceSource.__new__(KeyedDice)
        twin.__dict__.update(self.__dict__)  # the key (bytes) and the counter (int): nothing shared can change
        return twin


class ScriptedDice(DiceSource):
    """Each die takes the next scripted value; when they run out the seeded RNG continues.

    `after` is the source that continues (default: the Mersenne Twister seeded with `seed`); its
    stream starts after the script, which draws nothing from it.
    """

    plain = False
    """A scripted value may be one the roll cannot show: `Match.play` keeps a copy to take the play back."""

    def __init__(self, values: Sequence[int], seed: int | None = None, after: DiceSource | None = None) -> None:
        super().__init__(seed if after is None else None)
        self.after = after
        if after is not None:
            self.seed, self.scheme = after.seed, after.scheme
        self.values = list(values)
        self._next = 0

    def roll(self, outcomes: Outcomes) -> int:
        if self._next < len(self.values):
            value = self.values[self._next]
            legal = [o for o, _ in outcomes]
            if value not in legal:
                raise WarroomError(
                    f"scripted die {self._next + 1} is {value}; this roll allows {legal[0]}..{legal[-1]}"
                )
            self._next += 1
            return value
        if self.after is not None:
            return self.after.roll(outcomes)
        return super().roll(outcomes)

    @property
    def remaining(self) -> int:
        return len(self.values) - self._next

    def skip(self, count: int) -> None:
        """The script is used up first, then the seeded RNG: as the rolls were made."""
        scripted = min(count, self.remaining)
        self._next += scripted
        if self.after is not None:
            self.after.skip(count - scripted)
        else:
            super().skip(count - scripted)

    def spec(self) -> str | list[int]:
        return list(self.values)

    def copy(self) -> DiceSource:
        twin = super().copy()
        assert isinstance(twin, ScriptedDice)
        twin.values = list(self.values)
        twin.after = self.after.copy() if self.after is not None else None
        return twin


class ManualDice(DiceSource):
    """Chance nodes become decisions of the side `dice`: a person rolls real dice."""

    manual = True
    plain = False

    def spec(self) -> str | list[int]:
        return "manual"


def rng_of(seed: object, rng: str | None = None) -> str:
    """The generator a seed is for: `rng` when given (checked), else "hmac-sha256" for a 64-hex-digit
    key and "mt19937" for anything else. The seed must suit it (WarroomError, saying why)."""
    if rng is None:
        rng = HMAC_SHA256 if is_key(seed) else MT19937
    if rng not in RNG_SCHEMES:
        raise WarroomError(f"the dice generator (rng) must be one of {', '.join(RNG_SCHEMES)}, not {rng!r}")
    if seed is None:
        return rng
    if rng == HMAC_SHA256:
        check_key(seed)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise WarroomError(f'a "{MT19937}" seed must be an integer, not {type(seed).__name__}')
    return rng


def make_dice(spec: str | Sequence[int] | None, seed: int | str | None, rng: str | None = None) -> DiceSource:
    """Build a dice source from its protocol spelling: "auto", "manual" or a list of values.

    `rng` picks the generator (`rng_of`: by default the one the seed is for); an "hmac-sha256"
    source without a seed draws a fresh key.
    """
    rng = rng_of(seed, rng)
    key = seed if isinstance(seed, str) else None
    number = seed if isinstance(seed, int) else None  # rng_of checked the seed fits the generator
    if spec is None or spec == "auto":
        return KeyedDice(key) if rng == HMAC_SHA256 else DiceSource(number)
    if spec == "manual":
        manual = ManualDice(number)
        if rng == HMAC_SHA256:  # the dice are typed in; the record still names the generator it declared
            manual.seed, manual.scheme = key, HMAC_SHA256
        return manual
    if isinstance(spec, str):
        raise WarroomError(f'dice must be "auto", "manual" or a list of die values, not {spec!r}')
    values = list(spec)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise WarroomError("scripted dice must be a list of integers")
    if rng == HMAC_SHA256:
        return ScriptedDice(values, after=KeyedDice(key))
    return ScriptedDice(values, number)
