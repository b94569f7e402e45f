"""Each game's rules options as data: the lobby draws its controls from it, the server checks against it.

The game describes them (its spec's `option_specs()`: key, label, kind `bool`/`choice`/`int`,
default, help text, the rule, and where an option or a choice only means something in some
scenarios, those scenarios); the catalog lists them per game (`options`). The client names no
option; it sends only the values a player changed. What the catalog offers is what a new game
accepts: anything else is refused (400 `bad_option`) naming the option and what it may be, before
the engine is asked.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.engine.errors import quoted

from .errors import ApiError


def game_options(game: str) -> list[dict[str, Any]]:
    """The rules options of `game` for the catalog (an empty list for a game without any)."""
    return [dict(spec) for spec in _specs(game)]


@cache
def _specs(game: str) -> tuple[dict[str, Any], ...]:
    """The game's own description of its options (its spec's `option_specs`), or none."""
    from warroom.games import get_spec

    return tuple(dict(spec) for spec in get_spec(game).option_specs())


def check_options(game: str, title: str, scenario: str | None, options: Any) -> dict[str, Any]:
    """The options of a new game, as the catalog offers them for `game` in `scenario`; else 400 bad_option."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ApiError(400, "bad_option", "options must be an object of option names and values")
    specs = {spec["key"]: spec for spec in _specs(game)}
    checked: dict[str, Any] = {}
    for key, value in options.items():
        spec = specs.get(key)
        if spec is None:
            known = f"its options are {', '.join(specs)}" if specs else "it has no rules options"
            raise ApiError(400, "bad_option", f"{title} has no rules option {quoted(key)}: {known}")
        where = spec.get("scenarios")
        if where and scenario is not None and scenario not in where:
            raise ApiError(
                400,
                "bad_option",
                f"the option {key!r} ({spec['label']}) is only for the scenario{'s' if len(where) > 1 else ''} "
                f"{', '.join(where)}, not {scenario}",
            )
        kind = spec["kind"]
        if kind == "bool":
            if not isinstance(value, bool):
                raise ApiError(
                    400, "bad_option", f"the option {key!r} ({spec['label']}) is true or false, not {quoted(value)}"
                )
        elif kind == "choice":
            offered = [
                c["value"] for c in spec["choices"] if scenario is None or scenario in c.get("scenarios", [scenario])
            ]
            if value not in offered:
                raise ApiError(
                    400,
                    "bad_option",
                    f"the option {key!r} ({spec['label']}) must be one of {', '.join(map(repr, offered))}"
                    f"{f' in {scenario}' if scenario else ''}, not {quoted(value)}",
                )
        else:
            low, high = spec["min"], spec["max"]
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # JSON has one kind of number: 15.0 is 15
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ApiError(
                    400,
                    "bad_option",
                    f"the option {key!r} ({spec['label']}) is a whole number from {low} to {high}, not {quoted(value)}",
                )
        checked[key] = value
    return checked


def describe_options(game: str, options: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The options a game was started with that differ from the default, in words for the game page."""
    out = []
    for spec in _specs(game):
        key = spec["key"]
        if not options or key not in options or options[key] == spec["default"]:
            continue
        value = options[key]
        if spec["kind"] == "bool":
            text, chip = ("on", spec["short"]) if value else ("off", f"{spec['short']}: off")
        elif spec["kind"] == "choice":
            choice = next(
                (c for c in spec["choices"] if c["value"] == value), {"label": str(value), "short": str(value)}
            )
            text, chip = choice["label"], f"{spec['short']}: {choice['short']}"
        else:
            text, chip = str(value), f"{spec['short']}: {value}"
        out.append(
            {"key": key, "label": spec["label"], "value": value, "text": text, "chip": chip, "rule": spec["rule"]}
        )
    return out
