"""Reading the fields of a JSON request (a dict): one set of checks, with one wording, for the engine
protocol's commands and every game's odds calculator (warroom.engine.spec.OddsCapability), so a
game checks its request without importing a front end.

Each reader returns the field's value (None when it is absent or null) or raises BadRequestError
naming the field and what it should have been.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import BadRequestError

_ABSENT = object()


def json_type(value: Any) -> str:
    """What a JSON value is, in words ("an integer", "a list"), for messages."""
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }
    return names.get(type(value), type(value).__name__)


def read_field(req: Mapping[str, Any], name: str, required: bool) -> Any:
    """A request field's value, None when absent (or null); BadRequestError if a required one is."""
    value = req.get(name, _ABSENT)
    if value is _ABSENT or value is None:
        if required:
            # a protocol request names its command; a request from elsewhere (the command line) may not
            who = f'"{req["cmd"]}"' if "cmd" in req else "the request"
            raise BadRequestError(f'{who} needs the field "{name}"')
        return None
    return value


def str_field(req: Mapping[str, Any], name: str, required: bool = False) -> str | None:
    value = read_field(req, name, required)
    if value is not None and not isinstance(value, str):
        raise BadRequestError(f'field "{name}" must be a string, not {json_type(value)}')
    return value


def int_field(req: Mapping[str, Any], name: str, required: bool = False, minimum: int | None = None) -> int | None:
    value = read_field(req, name, required)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequestError(f'field "{name}" must be an integer, not {json_type(value)}')
    if minimum is not None and value < minimum:
        raise BadRequestError(f'field "{name}" must be at least {minimum}, not {value}')
    return value


def bool_field(req: Mapping[str, Any], name: str) -> bool:
    value = read_field(req, name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise BadRequestError(f'field "{name}" must be true or false, not {json_type(value)}')
    return value


def object_field(req: Mapping[str, Any], name: str, required: bool = False) -> dict[str, Any] | None:
    value = read_field(req, name, required)
    if value is not None and not isinstance(value, dict):
        raise BadRequestError(f'field "{name}" must be an object, not {json_type(value)}')
    return value


ENVELOPE = frozenset({"cmd", "id", "game"})
"""The keys of a protocol request around a calculator's own fields: never "unknown" to it."""


def and_list(words: Iterable[str]) -> str:
    """'"a"', '"a" and "b"', '"a", "b" and "c"': field names in a message."""
    quoted = [f'"{word}"' for word in words]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def reject_unknown(req: Mapping[str, Any], names: Iterable[str], what: str) -> None:
    """BadRequestError when `req` has a key that is neither one of `names` nor the protocol's envelope:
    a typo is an error, never silently ignored. `what` names the calculator ("<game> odds")."""
    wanted = list(names)
    unknown = set(req) - set(wanted) - ENVELOPE
    if unknown:
        raise BadRequestError(f"{what} takes {and_list(wanted)}, not {', '.join(sorted(map(repr, unknown)))}")
