"""warroom: WWII board wargames with every rule enforced — play, analyse, and train agents.

m = warroom.new_game(warroom.catalog()[0]["id"], seed=7)  # any registered game id
m.legal_actions(); m.play(m.legal_actions()[0]); m.over; m.result

warroom.use_pure_python()  # before a game is loaded: run the .py sources, not the compiled modules
"""

from __future__ import annotations

# First: every later import of the package's modules goes through the build's finder, which runs the
# sources in pure Python when asked and refuses a compiled module edited since it was compiled.
from warroom.engine import compiled as _compiled

_compiled.install_finder()

from collections.abc import Sequence
from os import PathLike
from typing import Any

from warroom.engine.compiled import describe_build, pure_python, use_pure_python
from warroom.engine.dice import HMAC_SHA256, MT19937, KeyedDice, check_key, make_dice, new_key, rng_of
from warroom.engine.errors import (
    DataFileError,
    IllegalActionError,
    PositionError,
    RecordError,
    UndoLockedError,
    UnknownGameError,
    UnknownScenarioError,
    WarroomError,
)
from warroom.engine.fairness import NotVerifiableError, VerifyReport, commitment, new_secret, verify_record
from warroom.engine.match import Match, MatchHooks, replay_record
from warroom.engine.record import Record, read_record, save_record, start_of
from warroom.engine.ruleset import CHANCE, DICE_SIDE, Result

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "DICE_SIDE",
    "HMAC_SHA256",
    "MT19937",
    "DataFileError",
    "IllegalActionError",
    "KeyedDice",
    "Match",
    "NotVerifiableError",
    "PositionError",
    "Record",
    "RecordError",
    "Result",
    "UndoLockedError",
    "UnknownGameError",
    "UnknownScenarioError",
    "VerifyReport",
    "WarroomError",
    "catalog",
    "commitment",
    "describe_build",
    "load",
    "new_game",
    "new_secret",
    "pure_python",
    "save",
    "use_pure_python",
    "verify_record",
]


def catalog() -> list[dict[str, Any]]:
    """Every registered game: id, title, scenarios, sides.

    (Not named `games`: that name is the `warroom.games` subpackage once it is imported.)
    """
    from warroom.games import catalog as _catalog

    return _catalog()


def new_game(
    game: str,
    scenario: str | None = None,
    *,
    seed: int | str | None = None,
    dice: str | Sequence[int] | None = None,
    options: dict[str, Any] | None = None,
    position: dict[str, Any] | None = None,
    keep_log: bool = True,
    rng: str | None = None,
) -> Match:
    """Start a match. `dice`: "auto" (seeded), "manual" (typed in), or a list of scripted values.

    `rng` is the generator behind seeded dice: "mt19937" (Python's `random`, fast, an integer seed:
    for simulations and study) or "hmac-sha256" (unpredictable without its 256-bit key, checkable
    with it: `seed` is 64 hex digits, see docs/fairness.md). Left out, it is the one `seed` is for
    ("mt19937" for an integer or none). A seed left out is drawn in secret, of the generator's kind.
    `position` starts from a given state (the output of `view()["state"]`), like a chess FEN.
    """
    from warroom.games import get_ruleset, get_spec

    ruleset = get_ruleset(game)
    scenario = ruleset.info.scenarios[0] if scenario is None else scenario  # "" is no scenario's name: refused below
    if scenario not in ruleset.info.scenarios:
        raise UnknownScenarioError(
            f"{game} has no scenario {scenario!r}; scenarios: {', '.join(ruleset.info.scenarios)}"
        )
    rng = rng_of(seed, rng)
    if rng == HMAC_SHA256:
        seed = new_key() if seed is None else check_key(seed)
    elif seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    state = (
        ruleset.state_from_json(position) if position is not None else ruleset.initial_state(scenario, options or {})
    )
    return Match(
        ruleset,
        state,
        scenario=scenario,
        options=options,
        seed=seed,
        dice=make_dice(dice, seed, rng),
        position=position,
        keep_log=keep_log,
        version=__version__,
        hooks=MatchHooks.of(get_spec(game)),
    )


def load(
    record: Record | dict[str, Any] | str | PathLike[str], keep_log: bool = True, starts: list[int] | None = None
) -> Match:
    """Rebuild a match from a record (object, JSON dict, or save file path); RecordError if it can't be.

    `starts`, when given, is filled with the log's length as each decision of the record begins (a
    front end that keeps notes beside the log, such as the computer's reasons, places them by it)."""
    if isinstance(record, dict):
        record = Record.from_json(record)
    elif not isinstance(record, Record):
        record = read_record(record)
    from warroom.games import get_spec

    ruleset, state = start_of(record)
    hooks = MatchHooks.of(get_spec(record.game))
    return replay_record(ruleset, record, state, keep_log=keep_log, version=__version__, starts=starts, hooks=hooks)


def save(match: Match, path: str | PathLike[str]) -> None:
    """Save a match's record atomically (temp file + rename)."""
    save_record(match.record(), path)
