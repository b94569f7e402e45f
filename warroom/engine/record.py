"""Game records: header + decision ids + dice. Saved as versioned JSON, written atomically.

The header's `rng` names the generator behind the seeded dice: absent (or "mt19937") for Python's
`random.Random` seeded with an integer, as every record before it; "hmac-sha256" for the keyed
generator, whose seed is a 256-bit key written as 64 hex digits (warroom/engine/dice.py).

A keyed record also carries `moves`, the chain of its decisions' digests (warroom/engine/chain.py):
such a record is written as version 2, so that a reader that does not know the chain refuses it
instead of dropping it unseen; every other record is written as version 1, as before.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .chain import is_digest
from .dice import HMAC_SHA256, MT19937, RNG_SCHEMES, is_key
from .errors import RecordError

RECORD_FORMAT = "warroom-record"
RECORD_VERSION = 1
"""The version of a record without a decision chain: every warroom that reads records reads it."""
CHAINED_VERSION = 2
"""The version of a record that carries its decisions' chain (`moves`)."""
READ_VERSIONS = (RECORD_VERSION, CHAINED_VERSION)


@dataclass
class Record:
    """Everything needed to replay a game exactly: where it started, what was chosen, what was rolled."""

    game: str
    scenario: str | None
    seed: int | str | None
    """An integer for "mt19937", 64 hex digits for "hmac-sha256"; null where it is kept secret."""
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    dice_mode: str | list[int] = "auto"
    """Where the dice came from, spelled as the protocol's `dice`: "auto", "manual" or the scripted values."""
    position: dict[str, Any] | None = None
    engine_version: str = ""
    rng: str = MT19937
    """The dice generator: "mt19937" (written only by leaving `rng` out, as older records do) or "hmac-sha256"."""
    players: dict[str, dict[str, Any]] | None = None
    """The sides the computer plays: {side: {"agent": name, "budget_ms": ms (optional)}}; a side not
    named is played by a person. None (the header has no `players`, as in older records) says nothing,
    and a loaded game is then played by people on every side."""
    moves: list[str] | None = None
    """The decision chain h_0..h_n (n = len(actions)), 64 hex digits each, of a game with keyed dice: the
    digest every seat was shown after each decision (warroom/engine/chain.py). None in a record without
    one (another generator, or written before decisions were chained)."""

    def to_json(self) -> dict[str, Any]:
        header: dict[str, Any] = {
            "game": self.game,
            "scenario": self.scenario,
            "options": self.options,
            "seed": self.seed,
            "dice": list(self.dice_mode) if isinstance(self.dice_mode, list) else self.dice_mode,
            "version": self.engine_version,
        }
        if self.rng != MT19937:
            header["rng"] = self.rng
        if self.players is not None:
            header["players"] = {side: dict(player) for side, player in self.players.items()}
        if self.position is not None:
            header["position"] = self.position
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION if self.moves is None else CHAINED_VERSION,
            "header": header,
            "actions": list(self.actions),
            "dice": list(self.dice),
        }
        if self.moves is not None:
            data["moves"] = list(self.moves)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Validate and read a record; every problem names the field that failed (the first, in the order below)."""
        version = _version(data)
        header = data.get("header")
        _require(
            isinstance(header, dict) and isinstance(header.get("game"), str), "record header is missing or has no game"
        )
        actions, dice = data.get("actions"), data.get("dice")
        _require(_list_of(actions, _is_text), "record 'actions' must be a list of action ids")
        _require(_list_of(dice, _is_integer), "record 'dice' must be a list of integers")
        options = header.get("options") or {}
        _require(isinstance(options, dict), "record header 'options' must be an object")
        rng = _rng(header.get("rng", MT19937))
        seed = _seed(header.get("seed"), rng)
        position = header.get("position")
        _require(position is None or isinstance(position, dict), "record header 'position' must be an object")
        dice_mode = _dice_mode(header.get("dice", "auto"))
        moves = _moves(data, version, len(actions))
        return cls(
            game=header["game"],
            scenario=header.get("scenario"),
            seed=seed,
            options=options,
            actions=list(actions),
            dice=list(dice),
            dice_mode=dice_mode,
            position=position,
            engine_version=str(header.get("version", "")),
            rng=rng,
            players=_players(header.get("players")),
            moves=moves,
        )


def _require(holds: bool, problem: str) -> None:
    """A RecordError saying `problem` unless the check holds."""
    if not holds:
        raise RecordError(problem)


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_integer(value: Any) -> bool:
    """An integer, not a bool (JSON's true is no die value)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _list_of(value: Any, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, list) and all(check(item) for item in value)


def _version(data: Any) -> int:
    """The record's format version, checked: a JSON object of our format, in a version this warroom reads."""
    _require(isinstance(data, dict), "a record must be a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a warroom record (format is {data.get('format')!r}, expected {RECORD_FORMAT!r})")
    version = data.get("version")
    if version not in READ_VERSIONS or isinstance(version, bool):
        raise RecordError(
            f"record format version {version!r} is not supported (this warroom reads versions "
            f"{' and '.join(map(str, READ_VERSIONS))})"
        )
    return version


def _rng(rng: Any) -> str:
    """The header's dice generator, checked: one this warroom knows."""
    if rng not in RNG_SCHEMES:
        raise RecordError(
            f"record header 'rng' must be one of {', '.join(RNG_SCHEMES)} (or left out for {MT19937}), not {rng!r}"
        )
    return rng


def _seed(seed: Any, rng: str) -> int | str | None:
    """The header's seed, checked for its generator: 64 hex digits (lowercased) or null for a keyed one, else an
    integer or null."""
    if rng == HMAC_SHA256:
        if seed is not None and not is_key(seed):
            shown = f"a string of {len(seed)} characters" if isinstance(seed, str) else json.dumps(seed)[:40]
            raise RecordError(
                f"record header 'seed' of an {HMAC_SHA256} record must be 64 hex digits (a 256-bit key) "
                f"or null, not {shown}"
            )
        return seed.lower() if isinstance(seed, str) else None
    _require(seed is None or _is_integer(seed), "record header 'seed' must be an integer or null")
    return seed


def _dice_mode(dice_mode: Any) -> str | list[int]:
    """The header's `dice`, checked: "auto", "manual" or a list of scripted die values (copied)."""
    scripted = _list_of(dice_mode, _is_integer)
    if dice_mode not in ("auto", "manual") and not scripted:
        raise RecordError(
            f'record header \'dice\' must be "auto", "manual" or a list of scripted die values, not {dice_mode!r}'
        )
    return list(dice_mode) if scripted else dice_mode


def _moves(data: dict[str, Any], version: int, actions: int) -> list[str] | None:
    """Check the record's `moves`: absent, or h_0..h_n, one digest (64 lowercase hex digits) more than decisions."""
    moves = data.get("moves")
    if moves is None:
        return None
    if version < CHAINED_VERSION:
        raise RecordError(
            f"record 'moves' (the decision chain) belongs to record format version {CHAINED_VERSION}, not {version}"
        )
    if not isinstance(moves, list) or not all(is_digest(m) for m in moves):
        raise RecordError("record 'moves' must be a list of decision digests, each 64 lowercase hex digits")
    if len(moves) != actions + 1:
        raise RecordError(
            f"record 'moves' must hold one digest more than the record has decisions ({actions + 1}: before "
            f"the first and after each), not {len(moves)}"
        )
    return list(moves)


PLAYER_FIELDS = ("agent", "budget_ms")


def _players(value: Any) -> dict[str, dict[str, Any]] | None:
    """Check the header's `players`: side -> {"agent": a name, "budget_ms": a positive integer (optional)}.
    Which sides and agents exist is the game's and the loader's to check; here only the shape."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError('record header \'players\' must be an object: side -> {"agent": name, "budget_ms": ms}')
    players: dict[str, dict[str, Any]] = {}
    for side, player in value.items():
        where = f"record header 'players' {side[:40]!r}"
        if not isinstance(player, dict):
            raise RecordError(f'{where} must be an object like {{"agent": "heuristic"}}')
        unknown = sorted(str(k)[:40] for k in player if k not in PLAYER_FIELDS)
        if unknown:
            raise RecordError(
                f"{where} has no field {', '.join(map(repr, unknown))}; fields: {', '.join(PLAYER_FIELDS)}"
            )
        agent, budget = player.get("agent"), player.get("budget_ms")
        if not isinstance(agent, str) or not agent:
            raise RecordError(f'{where} needs "agent": the computer player\'s name, e.g. "heuristic"')
        if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool) or budget < 1):
            raise RecordError(
                f'{where} "budget_ms" must be a positive integer (milliseconds), not {json.dumps(budget)[:40]}'
            )
        players[side] = {"agent": agent} | ({"budget_ms": budget} if budget is not None else {})
    return players


def save_record(record: Record, path: str | os.PathLike[str]) -> None:
    """Write to a temporary file beside the target, then rename: an old save is never half-overwritten."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record.to_json(), handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_record(path: str | os.PathLike[str]) -> Record:
    """Read a save file; a missing, damaged or foreign file gives a RecordError, never a traceback."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file: not a warroom record") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is damaged: invalid JSON at line {exc.lineno} column {exc.colno}") from None
    try:
        return Record.from_json(data)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def start_of(record: Record) -> tuple[Any, Any]:
    """The record's ruleset and starting state (its position, else its scenario's setup with its options).

    Loading and verifying a record both start here, so they cannot disagree on where a game began;
    anything that cannot start a game is a RecordError naming why.
    """
    from warroom.games import get_ruleset

    from .errors import UnknownGameError, WarroomError

    try:
        ruleset = get_ruleset(record.game)
    except UnknownGameError as exc:
        raise RecordError(f"record is for an unknown game: {exc}") from None
    try:
        state = (
            ruleset.state_from_json(record.position)
            if record.position is not None
            else ruleset.initial_state(record.scenario, record.options)
        )
    except WarroomError as exc:
        raise RecordError(f"record header cannot start a game: {exc}") from None
    return ruleset, state
