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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .dice import HMAC_SHA256, MT19937, RNG_SCHEMES, is_key
from .errors import RecordError
from .files import write_atomically

if TYPE_CHECKING:
    from .record_schema import PlayerModel, RecordModel

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
        """Validate and read a record; every problem names the field that failed (the first, in `_PROBLEMS`' order).

        The shape is the one model of warroom.engine.record_schema (the web API describes records by it); what ties
        fields together (the seed and its generator, the chain and the decisions) is checked here, after it."""
        shape = _shape(data)
        header = shape.header
        moves = _moves(shape.moves, shape.version, len(shape.actions))
        return cls(
            game=header.game,
            scenario=header.scenario,
            seed=_seed(header.seed, header.rng),
            options=header.options or {},
            actions=list(shape.actions),
            dice=list(shape.dice),
            dice_mode=list(header.dice) if isinstance(header.dice, list) else header.dice,
            position=header.position,
            engine_version="" if header.version is None else str(header.version),
            rng=header.rng,
            players=None if header.players is None else {side: _player(p) for side, p in header.players.items()},
            moves=moves,
        )


def _shape(data: Any) -> RecordModel:
    """The record checked against its model (warroom.engine.record_schema); a RecordError in words for the first
    problem, the field's as `_PROBLEMS` ranks them (the object, its format and version, the header's game, ...)."""
    from pydantic import ValidationError

    from .record_schema import RecordModel

    try:
        return RecordModel.model_validate(data)
    except ValidationError as invalid:
        problems = [(_rank(error["loc"]), n, error) for n, error in enumerate(invalid.errors())]
        _, _, first = min(problems, key=lambda problem: (problem[0], problem[1]))
        raise RecordError(_PROBLEMS[_field(first["loc"])][1](data, tuple(first["loc"]))) from None


def _field(loc: Any) -> tuple[Any, ...]:
    """The field a problem is in: a header field by its name, any other by its top-level key."""
    path: tuple[Any, ...] = tuple(loc)
    return path[:2] if path[:1] == ("header",) and path[:2] in _PROBLEMS else path[:1]


def _rank(loc: Any) -> int:
    return _PROBLEMS[_field(loc)][0]


def _header(data: Any) -> dict[str, Any]:
    header = data.get("header") if isinstance(data, dict) else None
    return header if isinstance(header, dict) else {}


def _format_problem(data: Any, loc: tuple[Any, ...]) -> str:
    return f"not a warroom record (format is {data.get('format')!r}, expected {RECORD_FORMAT!r})"


def _version_problem(data: Any, loc: tuple[Any, ...]) -> str:
    versions = " and ".join(map(str, READ_VERSIONS))
    return f"record format version {data.get('version')!r} is not supported (this warroom reads versions {versions})"


def _rng_problem(data: Any, loc: tuple[Any, ...]) -> str:
    rng = _header(data).get("rng")
    return f"record header 'rng' must be one of {', '.join(RNG_SCHEMES)} (or left out for {MT19937}), not {rng!r}"


def _seed_problem(data: Any, loc: tuple[Any, ...]) -> str:
    header = _header(data)
    return _seed_words(header.get("seed"), header.get("rng", MT19937))


def _seed_words(seed: Any, rng: Any) -> str:
    """What a seed must be for its generator, and (for a keyed one) what it was."""
    if rng == HMAC_SHA256:
        shown = f"a string of {len(seed)} characters" if isinstance(seed, str) else json.dumps(seed)[:40]
        return (
            f"record header 'seed' of an {HMAC_SHA256} record must be 64 hex digits (a 256-bit key) or null, "
            f"not {shown}"
        )
    return "record header 'seed' must be an integer or null"


def _dice_mode_problem(data: Any, loc: tuple[Any, ...]) -> str:
    dice_mode = _header(data).get("dice")
    return f'record header \'dice\' must be "auto", "manual" or a list of scripted die values, not {dice_mode!r}'


def _moves_problem(data: Any, loc: tuple[Any, ...]) -> str:
    version = data.get("version")
    if version != CHAINED_VERSION:
        return _chain_version_words(version)
    return "record 'moves' must be a list of decision digests, each 64 lowercase hex digits"


def _chain_version_words(version: Any) -> str:
    return f"record 'moves' (the decision chain) belongs to record format version {CHAINED_VERSION}, not {version}"


def _players_problem(data: Any, loc: tuple[Any, ...]) -> str:
    """The header's `players` (side -> {"agent": a name, "budget_ms": a positive integer}), where it is wrong."""
    if len(loc) < 3:
        return 'record header \'players\' must be an object: side -> {"agent": name, "budget_ms": ms}'
    side = str(loc[2])
    where = f"record header 'players' {side[:40]!r}"
    player = _header(data)["players"][side]
    if len(loc) < 4 or not isinstance(player, dict):
        return f'{where} must be an object like {{"agent": "heuristic"}}'
    unknown = sorted(str(k)[:40] for k in player if k not in PLAYER_FIELDS)
    if unknown:
        return f"{where} has no field {', '.join(map(repr, unknown))}; fields: {', '.join(PLAYER_FIELDS)}"
    if loc[3] == "agent":
        return f'{where} needs "agent": the computer player\'s name, e.g. "heuristic"'
    return (
        f'{where} "budget_ms" must be a positive integer (milliseconds), not {json.dumps(player.get("budget_ms"))[:40]}'
    )


def _fixed(words: str) -> Callable[[Any, tuple[Any, ...]], str]:
    return lambda data, loc: words


PLAYER_FIELDS = ("agent", "budget_ms")

_PROBLEMS: dict[tuple[Any, ...], tuple[int, Callable[[Any, tuple[Any, ...]], str]]] = {
    (): (0, _fixed("a record must be a JSON object")),
    ("format",): (1, _format_problem),
    ("version",): (2, _version_problem),
    ("header",): (3, _fixed("record header is missing or has no game")),
    ("header", "game"): (3, _fixed("record header is missing or has no game")),
    ("actions",): (4, _fixed("record 'actions' must be a list of action ids")),
    ("dice",): (5, _fixed("record 'dice' must be a list of integers")),
    ("header", "options"): (6, _fixed("record header 'options' must be an object")),
    ("header", "rng"): (7, _rng_problem),
    ("header", "seed"): (8, _seed_problem),
    ("header", "scenario"): (9, _fixed("record header 'scenario' must be a scenario's name or null")),
    ("header", "position"): (10, _fixed("record header 'position' must be an object")),
    ("header", "dice"): (11, _dice_mode_problem),
    ("moves",): (12, _moves_problem),
    ("header", "players"): (13, _players_problem),
}
"""Each field of the model -> (its place in the order problems are reported, the problem in words). A problem in a
field not listed here is reported as its top-level field's."""


def _seed(seed: int | str | None, rng: str) -> int | str | None:
    """The seed for its generator: 64 hex digits (lowercased) or null for a keyed one, an integer or null for another
    (the model allows either kind for both)."""
    if rng == HMAC_SHA256:
        if seed is not None and not is_key(seed):
            raise RecordError(_seed_words(seed, rng))
        return seed.lower() if isinstance(seed, str) else None
    if isinstance(seed, str):
        raise RecordError(_seed_words(seed, rng))
    return seed


def _moves(moves: list[str] | None, version: int, actions: int) -> list[str] | None:
    """The decision chain h_0..h_n: only in a version 2 record, one digest more than it has decisions."""
    if moves is None:
        return None
    if version < CHAINED_VERSION:
        raise RecordError(_chain_version_words(version))
    if len(moves) != actions + 1:
        raise RecordError(
            f"record 'moves' must hold one digest more than the record has decisions ({actions + 1}: before "
            f"the first and after each), not {len(moves)}"
        )
    return list(moves)


def _player(player: PlayerModel) -> dict[str, Any]:
    return {"agent": player.agent} | ({"budget_ms": player.budget_ms} if player.budget_ms is not None else {})


def save_record(record: Record, path: str | os.PathLike[str]) -> None:
    """Write to a temporary file beside the target, then rename: an old save is never half-overwritten."""

    def write(handle: TextIO) -> None:
        json.dump(record.to_json(), handle, indent=1)
        handle.write("\n")

    write_atomically(path, write)


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
