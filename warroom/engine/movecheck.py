"""Checking a keyed record's decisions: against its own chain, and against the digests seats were shown.

`fairness.verify_record` checks the dice; this checks the moves. The chain (warroom/engine/chain.py) is
recomputed from the revealed key and the record's decisions, then compared with

- the record's `moves` (h_0..h_n as they were written): the first digest that differs names the first
  decision changed since, where the record was edited and its chain left as it was;
- the digests a seat noted during the game (`SeenDigest`): once the key is revealed anyone can chain a
  doctored record afresh, so only a digest shown before the end vouches that the decisions are the ones
  played. A digest that does not match says a decision at or before it changed; the digest of the
  decision before it, matched, pins the change to one decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .chain import chain_header, check_seen, compute_chain, parse_seen, short
from .errors import WarroomError
from .record import Record


@dataclass(frozen=True)
class SeenDigest:
    """A digest a seat was shown: its hex (the whole of it, or at least the first 16 digits), the number
    of decisions made when it was shown (None: look for it in the chain), and who saw it."""

    digest: str
    decisions: int | None = None
    seen_by: str | None = None

    @classmethod
    def of(cls, given: SeenDigest | str | dict[str, Any]) -> SeenDigest:
        """From `warroom verify --digest`'s "HEX" or "N:HEX", or the web's {"digest", "decisions", "seen_by"}."""
        if isinstance(given, SeenDigest):
            return cls(check_seen(given.digest), given.decisions, given.seen_by)
        if isinstance(given, str):
            number, digest = parse_seen(given)
            return cls(digest, number)
        hex_digits, number, seen_by = given.get("digest"), given.get("decisions"), given.get("seen_by")
        if not isinstance(hex_digits, str):
            raise WarroomError('a seen digest needs "digest": 16 to 64 hex digits')
        if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 0):
            raise WarroomError('a seen digest\'s "decisions" is the number of decisions made when it was shown')
        if seen_by is not None and not isinstance(seen_by, str):
            raise WarroomError('a seen digest\'s "seen_by" names who saw it')
        return cls(check_seen(hex_digits), number, seen_by[:40] if seen_by else None)

    def who(self) -> str:
        return f"seen by {self.seen_by}" if self.seen_by else "seen"


@dataclass(frozen=True)
class SeenCheck:
    """One seen digest, checked: where in the chain it belongs (None: nowhere) and whether it matches."""

    seen: SeenDigest
    decisions: int | None
    ok: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "digest": self.seen.digest,
            "decisions": self.decisions,
            "seen_by": self.seen.seen_by,
            "ok": self.ok,
        }


@dataclass(frozen=True)
class ChainBreak:
    """Where the decisions stop matching: `first`..`last` (one decision when they are equal; 0 is the
    start, which binds the header), and what it was compared with."""

    first: int
    last: int
    against: str
    """"record" (the record's own chain), "seen" (a seat's digest), "cut" (a seat saw a later decision than
    the record holds) or "nowhere" (a seat's digest is not in the chain at all)."""
    action: str | None
    """The decision `first` (when one decision is named)."""
    side: str | None
    derived: str | None
    """What the record's decisions give at `last`."""
    found: str | None
    """What was compared with it: the record's chain or the seat's digest at `last`."""
    seen_by: str | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "last": self.last,
            "against": self.against,
            "action": self.action,
            "side": self.side,
            "derived": self.derived,
            "found": self.found,
            "seen_by": self.seen_by,
            "message": self.text,
        }


@dataclass(frozen=True)
class MovesReport:
    """What the decisions' check found: `broken` is None when everything given to check matched."""

    chained: bool
    """Whether the record carries its chain (`moves`); records written before it do not."""
    decisions: int
    digest: str
    """h_n, the digest the record's decisions give after the last of them."""
    seen: tuple[SeenCheck, ...]
    broken: ChainBreak | None

    @property
    def message(self) -> str:
        if self.broken is not None:
            return self.broken.text
        matched = sorted({c.decisions for c in self.seen if c.decisions is not None})
        if matched:
            at = ", ".join(map(str, matched))
            plural = "s" if len(matched) > 1 else ""
            said = f"the decisions match the digest{plural} seen at decision{plural} {at}"
            if matched[-1] < self.decisions:
                said += f" (decisions {matched[-1] + 1}-{self.decisions} are bound by no digest given)"
            return said + ("" if self.chained else "; the record carries no chain of its own")
        if not self.chained:
            return (
                "the record carries no chain of its decisions (it was written before decisions were bound), so "
                "a decision changed to another legal one would not be caught"
            )
        return (
            f"all {self.decisions} decisions match the record's chain (last digest {short(self.digest)}); compare "
            "it with the digest a seat was shown to know they are the decisions played"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "chained": self.chained,
            "decisions": self.decisions,
            "digest": self.digest,
            "seen": [c.to_json() for c in self.seen],
            "broken": self.broken.to_json() if self.broken else None,
            "message": self.message,
        }


def check_moves(
    record: Record, seed: str, sides: Sequence[str], seen: Sequence[SeenDigest | str | dict[str, Any]] = ()
) -> MovesReport:
    """Recompute the chain of `record` (keyed by its revealed `seed`) and compare it with the record's own
    chain and the digests seats saw; `sides` are the sides of the decisions as far as the record replays."""
    header = chain_header(record.game, record.scenario, record.options, record.position, record.dice_mode)
    derived = compute_chain(seed, header, record.actions)
    given = [SeenDigest.of(s) for s in seen]
    checks = [_place(s, derived, record.moves) for s in given]
    in_record = _record_break(derived, record.moves, checks, record, sides)
    by_seat = _seen_break(derived, checks, record, sides)
    # the record's own chain names one decision: it is the answer unless a seat's digest shows a change before it
    broken = in_record if in_record is not None and (by_seat is None or in_record.first <= by_seat.last) else by_seat
    return MovesReport(record.moves is not None, len(record.actions), derived[-1], tuple(checks), broken)


def _place(seen: SeenDigest, derived: list[str], stored: list[str] | None) -> SeenCheck:
    """Where a seen digest belongs: at its number when given; else where the chain (or, failing that, the
    record's own chain) holds it; None when neither does."""
    if seen.decisions is not None:
        n = seen.decisions
        return SeenCheck(seen, n, n < len(derived) and derived[n].startswith(seen.digest))
    for n, digest in enumerate(derived):
        if digest.startswith(seen.digest):
            return SeenCheck(seen, n, True)
    for n, digest in enumerate(stored or []):
        if digest.startswith(seen.digest):
            return SeenCheck(seen, n, False)
    return SeenCheck(seen, None, False)


def _decision(n: int, record: Record, sides: Sequence[str]) -> str:
    """'decision 59 (<side>: <action>)', or 'the start of the chain (the header)' for 0."""
    if n == 0:
        return "the start of the chain (the game's header: scenario, options, position, given dice)"
    side = f"{sides[n - 1]}: " if n - 1 < len(sides) else ""
    return f"decision {n} ({side}{record.actions[n - 1]})"


def _record_break(
    derived: list[str], stored: list[str] | None, checks: list[SeenCheck], record: Record, sides: Sequence[str]
) -> ChainBreak | None:
    """The first digest of the record's own chain that its decisions do not give."""
    if stored is None:
        return None
    n = next((i for i, (d, s) in enumerate(zip(derived, stored, strict=True)) if d != s), None)
    if n is None:
        return None
    confirming = next(
        (
            c
            for c in checks
            if c.decisions is not None and c.decisions >= n and stored[c.decisions].startswith(c.seen.digest)
        ),
        None,
    )
    confirmed = (
        f"; the digest {confirming.seen.who()} at decision {confirming.decisions} is the record's chain's, so the "
        "decisions were changed after they were played"
        if confirming is not None
        else ""
    )
    text = (
        f"{_decision(n, record, sides)} does not match the record's chain: the chain says {short(stored[n])}, the "
        f"decisions give {short(derived[n])}{confirmed}"
    )
    return ChainBreak(
        n,
        n,
        "record",
        record.actions[n - 1] if n else None,
        sides[n - 1] if 0 < n <= len(sides) else None,
        derived[n],
        stored[n],
        confirming.seen.seen_by if confirming is not None else None,
        text,
    )


def _seen_break(derived: list[str], checks: list[SeenCheck], record: Record, sides: Sequence[str]) -> ChainBreak | None:
    """The first seat's digest that does not match, narrowed by the last one before it that does."""
    failed = [c for c in checks if not c.ok]
    if not failed:
        return None
    last = len(derived) - 1
    placed = sorted((c for c in failed if c.decisions is not None), key=lambda c: c.decisions or 0)
    if not placed:
        seen = failed[0].seen
        text = (
            f"the digest {short(seen.digest)} {seen.who()} is nowhere in the record's chain: a decision before the "
            "one it was shown after was changed (give it as N:HEX, N the decisions made when it was shown, to "
            "narrow it down)"
        )
        return ChainBreak(0, last, "nowhere", None, None, None, seen.digest, seen.seen_by, text)
    bad = placed[0]
    n = bad.decisions or 0
    seen = bad.seen
    if n > last:
        text = (
            f"the record ends after decision {last}, but the digest {seen.who()} is of decision {n}: decisions "
            "were cut off"
        )
        return ChainBreak(last + 1, n, "cut", None, None, None, seen.digest, seen.seen_by, text)
    good = [c.decisions for c in checks if c.ok and c.decisions is not None and c.decisions < n]
    first = max(good) + 1 if good else 0
    where = f"the decisions give {short(derived[n])}, the seat saw {short(seen.digest)}"
    if first == n:
        before = f"; the digest of decision {n - 1} matched" if n else ""
        text = (
            f"{_decision(n, record, sides)} does not match the digest {seen.who()} at decision {n}: {where}{before}"
            + (f" (unless decision {n} was taken back after the digest was shown)" if n else "")
        )
    else:
        text = (
            f"the record does not match the digest {seen.who()} at decision {n}: {where}; the first decision changed "
            f"is one of {first}-{n} ({'0 being the header; ' if first == 0 else ''}a digest seen earlier narrows it "
            f"down), unless decision {n} was taken back after the digest was shown"
        )
    return ChainBreak(
        first,
        n,
        "seen",
        record.actions[n - 1] if first == n and n else None,
        sides[n - 1] if first == n and 0 < n <= len(sides) else None,
        derived[n],
        seen.digest,
        seen.seen_by,
        text,
    )


__all__ = ["ChainBreak", "MovesReport", "SeenCheck", "SeenDigest", "check_moves"]
