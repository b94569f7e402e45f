"""The decision chain: a running digest of a keyed game's decisions, bound to its dice key.

The dice of an online game are fixed by a commitment to a secret key (`fairness.py`), but the
decisions are not: a record whose decision was changed to another legal one replays, and every die
may still match. So every seat is also shown a running digest of the decisions so far, and the
record carries each step of it; `verify` recomputes the chain and names the first decision where it
breaks, against the record's own chain and against any digest a seat noted down.

The chain is keyed by a secret derived from the dice key, and every step is keyed, not only the
first: a seat that saw the digest before and after a hidden decision could otherwise try each legal
action and find the one that gives the second digest. Without the key no digest can be computed;
with it, revealed when the game is over (with every decision), anyone can. docs/fairness.md states
the derivation for anyone re-implementing it:

    K   = HMAC-SHA256(key, "warroom-moves-v1")
    h_0 = HMAC-SHA256(K, 0x00 || SHA-256(key) || canonical header JSON)
    h_i = HMAC-SHA256(K, 0x01 || h_(i-1) || uint32_be(i) || action id as UTF-8)      (i = 1, 2, ...)

h_i (64 lowercase hex digits) is the digest after i decisions; the record's `moves` lists h_0..h_n.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Sequence
from typing import Any

from .errors import WarroomError

CHAIN_LABEL = b"warroom-moves-v1"
"""The HMAC message that derives the chain's key from the dice key: keeps the two uses of the key apart."""
_START, _STEP = b"\x00", b"\x01"
SHORT = 16
"""Hex digits a digest is shown with in text (the whole of it in JSON); the least a seat may give back."""
_HEX = re.compile(r"[0-9a-f]{16,64}")
_FULL = re.compile(r"[0-9a-f]{64}")


def chain_key(seed_hex: str) -> bytes:
    """K = HMAC-SHA256(key, "warroom-moves-v1"): secret while the dice key is, revealed with it."""
    return hmac.new(bytes.fromhex(seed_hex), CHAIN_LABEL, hashlib.sha256).digest()


def chain_header(
    game: str, scenario: str | None, options: dict[str, Any], position: dict[str, Any] | None, dice: Any
) -> bytes:
    """What the start of the chain binds besides the key: where the game began and the dice given before
    the key's stream (an uploaded record's). JSON with sorted keys, no spaces, ASCII only."""
    header = {"game": game, "scenario": scenario, "options": options, "position": position, "dice": dice}
    return json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def start_digest(key: bytes, seed_hex: str, header: bytes) -> str:
    """h_0: the digest before any decision, binding the dice commitment and the header."""
    commitment = hashlib.sha256(bytes.fromhex(seed_hex)).digest()
    return hmac.new(key, _START + commitment + header, hashlib.sha256).hexdigest()


def next_digest(key: bytes, previous: str, number: int, action: str) -> str:
    """h_number from h_(number-1) and the action id of decision `number` (1-based)."""
    message = _STEP + bytes.fromhex(previous) + number.to_bytes(4, "big") + action.encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def extend(chain: list[str], key: bytes, actions: Sequence[str]) -> list[str]:
    """Grow `chain` (h_0.. already) in place until it holds h_0..h_len(actions); returns it."""
    for number in range(len(chain), len(actions) + 1):
        chain.append(next_digest(key, chain[-1], number, actions[number - 1]))
    return chain


def compute_chain(seed_hex: str, header: bytes, actions: Sequence[str]) -> list[str]:
    """h_0..h_n of a game keyed by `seed_hex`, starting from `header` (`chain_header`), for its decisions."""
    key = chain_key(seed_hex)
    return extend([start_digest(key, seed_hex, header)], key, actions)


def is_digest(text: object) -> bool:
    """A full digest as a record holds it: 64 lowercase hex digits."""
    return isinstance(text, str) and _FULL.fullmatch(text) is not None


def short(digest: str) -> str:
    """The form text shows: the first 16 hex digits and an ellipsis."""
    return f"{digest[:SHORT]}…"


def parse_seen(text: str) -> tuple[int | None, str]:
    """A digest a seat noted down, as `warroom verify --digest` takes it: "HEX" or "N:HEX" (N decisions
    made when it was shown). HEX is the whole digest or at least its first 16 hex digits."""
    raw = text.strip()
    number: int | None = None
    if ":" in raw:
        head, raw = raw.split(":", 1)
        if not head.strip().isdigit():
            raise WarroomError(f"a digest is HEX or N:HEX with N the number of decisions made, not {text[:80]!r}")
        number = int(head)
    return number, check_seen(raw)


def check_seen(text: str) -> str:
    """The hex of a digest given back, lowercase; WarroomError unless it is 16 to 64 hex digits."""
    cleaned = text.strip().lower().rstrip("…").rstrip(".")
    if not _HEX.fullmatch(cleaned):
        raise WarroomError(
            f"a decision digest is 16 to 64 hex digits (the whole of it, or the first 16 the page shows), not "
            f"{text[:80]!r}"
        )
    return cleaned


__all__ = [
    "CHAIN_LABEL",
    "chain_header",
    "chain_key",
    "check_seen",
    "compute_chain",
    "extend",
    "is_digest",
    "next_digest",
    "parse_seen",
    "short",
    "start_digest",
]
