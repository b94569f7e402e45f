"""Exceptions every front end can catch by kind: each names what failed and why."""

from __future__ import annotations


class WarroomError(ValueError):
    """Base of every error the engine raises on bad input; a front end catches this one."""

    code = "error"


class IllegalActionError(WarroomError):
    """An action id that is unknown or not legal now; the state is unchanged."""

    code = "illegal_action"


class WrongSideError(IllegalActionError):
    """An action sent on behalf of a side that is not the one to act."""

    code = "wrong_side"


class UnknownGameError(WarroomError):
    code = "unknown_game"


class UnknownScenarioError(WarroomError):
    code = "unknown_scenario"


class UndoLockedError(WarroomError):
    """Undo would cross a die roll or a hidden reveal, which it never does."""

    code = "undo_locked"


class GameOverError(IllegalActionError):
    code = "game_over"


class DataFileError(WarroomError):
    """A game data file is missing, malformed or fails its schema."""

    code = "data_file"

    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file, self.key, self.problem = file, key, problem
        super().__init__(f"{file}: {key}: {problem}")


class StaleBuildError(WarroomError, ImportError):
    """A compiled module whose source was edited after it was compiled (warroom.engine.compiled): running
    it would play the old rules, so the game is not loaded. An ImportError too: it is raised by the import
    of that module, and code that imports what it can (a worker's preload) passes over it."""

    code = "stale_build"


class RecordError(WarroomError):
    """A save file or record that cannot be read or replayed; says where it failed."""

    code = "bad_record"


class PositionError(WarroomError):
    """A position (state as JSON) that does not describe a legal state of the game."""

    code = "bad_position"


class BadRequestError(WarroomError):
    """A request that is not an object, or a field that is missing, unknown or of the wrong type (the
    engine protocol's, and the odds calculator's of every front end: warroom.engine.fields)."""

    code = "bad_request"


# -- quoting input in messages ---------------------------------------------------------------------
# A message names what was sent, but a front end passes it on to whoever sent it: never echo large
# input back (an action id of a megabyte, a legal list of hundreds of moves).

QUOTE_LIMIT = 80
"""The longest piece of input a message quotes (longer is cut, ending in "…")."""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text`, cut to at most `limit` characters with "…" at the cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value sent by a player, quoted for a message (repr-style) and at most about `limit` characters long."""
    if isinstance(value, str):
        return repr(shorten(value, limit))
    return shorten(repr(value), limit)


def examples(items: list[str] | tuple[str, ...], count: int = 6) -> str:
    """A few of `items` for a message, and how many there are in all when that is more."""
    shown = ", ".join(shorten(item) for item in items[:count])
    return shown + (f" … ({len(items)} in all)" if len(items) > count else "")
