"""Verifiable dice: commit to a secret key before a game, reveal it after, let anyone check every die.

An online game's dice come from `KeyedDice`: HMAC-SHA256 in counter mode keyed by a 256-bit secret
(`dice.keyed_outcome` gives the derivation). At the start every seat is shown the commitment,
`commitment(seed)` = SHA-256 of the key's 32 bytes, which fixes the key without telling it; when the
game is over the key itself is revealed (the record's header `seed`). `verify_record` then replays
the record and re-derives each die the game rolled from the key, so a server that changed a die,
or swapped the key after seeing the game, is caught: the die does not match, or the key does not
hash to the commitment shown at the start. The decisions are bound alike: every seat is shown a running
digest of them keyed by the same secret (warroom/engine/chain.py), the record carries the chain, and
`verify_record` names the first decision that does not match it or a digest a seat saw
(warroom/engine/movecheck.py). docs/fairness.md says the same for a third party.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .dice import HMAC_SHA256, MT19937, check_key, is_key, keyed_outcome, new_key
from .errors import WarroomError
from .match import _replay
from .movecheck import MovesReport, SeenDigest, check_moves
from .record import Record, read_record, start_of
from .ruleset import Ruleset


class NotVerifiableError(WarroomError):
    """A record whose dice cannot be checked at all: another generator, a withheld seed, typed-in dice."""

    code = "not_verifiable"


def new_secret() -> str:
    """A fresh 256-bit secret key (the operating system's CSPRNG), as the 64 hex digits a record holds."""
    return new_key()


def commitment(seed_hex: str) -> str:
    """SHA-256 of the key's 32 bytes (not of its hex text), as 64 lowercase hex digits.

    `sha256(bytes.fromhex(seed_hex)).hexdigest()`: shown before the game, it binds the server to
    the key without telling it (finding another key with the same hash is out of reach).
    """
    return hashlib.sha256(bytes.fromhex(check_key(seed_hex))).hexdigest()


@dataclass(frozen=True)
class DieMismatch:
    """The first die of a record that its seed does not give."""

    die: int
    """1-based, counting every die of the record."""
    recorded: int
    derived: int
    decisions: int
    """How many decisions came before this die (0: it was rolled before the first)."""
    action: str | None
    """The decision it followed (the record's decision number `decisions`), or None."""
    turn: Any
    phase: str
    source: str
    """"seed" (derived from the key) or "script" (a die the record's header gives, see `given`)."""

    def text(self) -> str:
        after = (
            f"after decision {self.decisions} ({self.action})"
            if self.action is not None
            else "before the first decision"
        )
        where = f"turn {self.turn}, {self.phase}"
        said = "the seed gives" if self.source == "seed" else "the record's header says"
        return (
            f"die {self.die} does not match: the record says {self.recorded}, {said} {self.derived} ({after}; {where})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "recorded": self.recorded,
            "derived": self.derived,
            "decisions": self.decisions,
            "action": self.action,
            "turn": self.turn,
            "phase": self.phase,
            "source": self.source,
        }


@dataclass(frozen=True)
class VerifyReport:
    """What `verify_record` found. `verified` is true only when every die matched, the commitment (where
    one was given) is the seed's, and the decisions match their chain and every digest given (`moves`)."""

    verified: bool
    scheme: str
    seed: str
    commitment: str
    """SHA-256 of the revealed seed: what the commitment shown before the game must be."""
    commitment_given: str | None
    commitment_ok: bool | None
    """None when no commitment was given to check."""
    dice: int
    """How many dice the record holds."""
    checked: int
    """How many were compared and matched, up to the first that did not."""
    given: int
    """How many at the start the record's header gives as played before the key was drawn (an uploaded
    record continued online): they replay as recorded and no seed can vouch for them."""
    mismatch: DieMismatch | None
    problem: str | None
    """Why the record does not replay (an illegal decision, a die too many), where it does not."""
    over: bool
    moves: MovesReport
    """The decisions checked against the record's chain and the digests seats saw."""

    @property
    def message(self) -> str:
        """One line for a person: what matched, or the first thing that did not (a changed decision first:
        the dice that follow it may differ for that reason alone)."""
        dice = self._dice_message()
        if self.moves.broken is None:
            return f"{dice}; {self.moves.message}"
        dice_failed = self.problem is not None or self.mismatch is not None or self.commitment_ok is False
        return f"{self.moves.message}; then {dice}" if dice_failed else self.moves.message

    def _dice_message(self) -> str:
        if self.problem is not None:
            return f"the record does not replay: {self.problem}"
        if self.mismatch is not None:
            return self.mismatch.text()
        if self.commitment_ok is False:
            return (
                f"the commitment does not match: SHA-256 of the revealed seed is {self.commitment}, "
                f"not {self.commitment_given}"
            )
        drawn = self.dice - self.given
        if self.given:
            head = (
                f"all {drawn} dice drawn from the seed match it (dice 1-{self.given} were played before the game "
                "came here and are given by the record, which no seed can vouch for)"
            )
        else:
            head = f"all {drawn} dice match the seed"
        tail = (
            "commitment ok"
            if self.commitment_ok
            else f"no commitment given to check; the seed's commitment is {self.commitment}"
        )
        unfinished = "" if self.over else "; the game is not over"
        return f"{head} ({tail}{unfinished})"

    def to_json(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "scheme": self.scheme,
            "seed": self.seed,
            "commitment": self.commitment,
            "commitment_given": self.commitment_given,
            "commitment_ok": self.commitment_ok,
            "dice": self.dice,
            "checked": self.checked,
            "given": self.given,
            "mismatch": self.mismatch.to_json() if self.mismatch else None,
            "problem": self.problem,
            "over": self.over,
            "moves": self.moves.to_json(),
            "message": self.message,
        }


class _Stop(Exception):
    def __init__(self, mismatch: DieMismatch) -> None:
        super().__init__(mismatch.text())
        self.mismatch = mismatch


def verify_record(
    record: Record | dict[str, Any] | str | os.PathLike[str],
    commitment: str | None = None,
    digests: Sequence[SeenDigest | str | dict[str, Any]] = (),
) -> VerifyReport:
    """Replay a finished game's record with its revealed seed and compare every die it rolled, and its
    decisions with their chain.

    Each die is re-derived from the key and its number in the key's stream (`keyed_outcome`) for the
    outcomes the game offered at that roll, and compared with the recorded one; the first that differs
    stops the check (its number, the decision it followed, both values). `commitment`, when given,
    must be SHA-256 of the key. The decisions' chain is recomputed from the key and compared with the
    record's own and with `digests`, the digests seats were shown ("HEX", "N:HEX" or `SeenDigest`):
    the first decision that does not match is named (`movecheck.check_moves`). NotVerifiableError when
    the record has no keyed seed to check against: another generator, a seed withheld (an unfinished
    online game), dice typed in by hand.
    """
    if isinstance(record, dict):
        record = Record.from_json(record)
    elif not isinstance(record, Record):
        record = read_record(record)
    given_commitment = _commitment_arg(commitment)
    seen = [SeenDigest.of(d) for d in digests]  # a malformed digest is refused before any work
    seed = _revealed_seed(record)
    key = bytes.fromhex(seed)
    ruleset, state = start_of(record)
    dice = _DiceCheck(record, ruleset, key)
    mismatch, problem, over = None, None, False
    sides: list[str] = []
    try:
        replayed = _replay(ruleset, state, record.actions, record.dice, False, dice, sides=sides)
        over = ruleset.to_act(replayed.state) is None
    except _Stop as stop:
        mismatch = stop.mismatch
    except WarroomError as exc:  # an illegal decision, a die out of range, dice or decisions left over
        problem = str(exc)
    expected_commitment = hashlib.sha256(key).hexdigest()
    commitment_ok = None if given_commitment is None else given_commitment == expected_commitment
    moves = check_moves(record, seed, sides, seen)
    verified = mismatch is None and problem is None and commitment_ok is not False and moves.broken is None
    return VerifyReport(
        verified,
        HMAC_SHA256,
        seed,
        expected_commitment,
        given_commitment,
        commitment_ok,
        len(record.dice),
        dice.checked,
        min(len(dice.script), len(record.dice)),
        mismatch,
        problem,
        over,
        moves,
    )


def _revealed_seed(record: Record) -> str:
    """The record's key, where its dice can be checked against one; NotVerifiableError saying why not where
    they cannot (another generator, a withheld seed, dice typed in by hand)."""
    if record.rng != HMAC_SHA256:
        scheme = record.rng or MT19937
        raise NotVerifiableError(
            f"this record's dice come from {scheme} (Python's random, seeded with an integer), not from a "
            f"committed {HMAC_SHA256} key: there is nothing to check them against. Only online games "
            "use verifiable dice."
        )
    if record.seed is None or not is_key(record.seed):
        raise NotVerifiableError(
            "this record's seed is withheld (null): an online game's seed is revealed when the game is over. "
            "Download the record again once the game has ended."
        )
    if record.dice_mode == "manual":
        raise NotVerifiableError("this record's dice were typed in by hand at a table: no seed made them")
    return check_key(record.seed)


class _DiceCheck:
    """The replay's check of each recorded die (a `match.DieCheck`): the die the record's header gives (`script`,
    played before the key was drawn) or the one the key derives for the outcomes the game offered; the first
    that differs stops the replay (`_Stop`). `checked` counts those that matched."""

    def __init__(self, record: Record, ruleset: Ruleset[Any], key: bytes) -> None:
        self.record = record
        self.ruleset = ruleset
        self.key = key
        self.script = list(record.dice_mode) if isinstance(record.dice_mode, list) else []
        self.checked = 0

    def __call__(self, n: int, value: int, at: Any, decisions: int) -> None:
        script, ruleset = self.script, self.ruleset
        if n < len(script):
            expected, source = script[n], "script"
        else:
            expected, source = keyed_outcome(self.key, n - len(script), ruleset.chance_outcomes(at)), "seed"
        if value != expected:
            turn, phase = ruleset.turn_and_phase(at)
            action = self.record.actions[decisions - 1] if decisions else None
            raise _Stop(DieMismatch(n + 1, value, expected, decisions, action, turn, phase, source))
        self.checked += 1


def _commitment_arg(text: str | None) -> str | None:
    if text is None:
        return None
    cleaned = text.strip().lower()
    if not is_key(cleaned):  # a SHA-256 digest is written like a key: 64 hex digits
        raise WarroomError(f"a commitment is 64 hex digits (a SHA-256 digest), not {text[:80]!r}")
    return cleaned


__all__ = [
    "DieMismatch",
    "NotVerifiableError",
    "SeenDigest",
    "VerifyReport",
    "commitment",
    "new_secret",
    "verify_record",
]
