"""Each game's rules options as data: the lobby draws its controls from it, the server checks against it.

The catalog lists them per game (`options`): key, label, kind (`bool`, `choice`, `int`), default,
help text, the rule, and where an option or a choice only means something in some scenarios, those
scenarios. The client names no option; it sends only the values a player changed. What the catalog
offers is what a new game accepts: anything else is refused (400 `bad_option`) naming the option and
what it may be, before the engine is asked.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .errors import ApiError

KINDS = ("bool", "choice", "int")


def game_options(game: str) -> list[dict[str, Any]]:
    """The rules options of `game` for the catalog (an empty list for a game without any)."""
    return [dict(spec) for spec in _specs(game)]


@cache
def _specs(game: str) -> tuple[dict[str, Any], ...]:
    if game == "patton":
        return _patton()
    return ()


def _patton() -> tuple[dict[str, Any], ...]:
    from warroom.games.patton.battle import OPTIONAL
    from warroom.games.patton.board import load_board
    from warroom.games.patton.objectives import SICILY_LIMIT
    from warroom.games.patton.rules import OPTIONS, PLACEMENTS

    both = ["normandy", "bulge"]  # Sicily's Allied forces start at sea: only the Axis can place there
    placement = {  # label, the words on the game page, the scenarios it is offered in (None: all)
        "default": ("Nobody: the default setup", "default setup", None),
        "manual": ("Both players", "both players", both),
        "Allied": ("Only the Allied (American) player", "Allied only", both),
        "Axis": ("Only the Axis (German) player", "Axis only", None),
    }
    sicily_limit = load_board("sicily").turn_limit
    specs = (
        {"key": "advanced_retreat", "label": "Optional Retreating Rule for Advanced Players", "short": "Advanced retreat",
         "kind": "bool", "default": False, "rule": OPTIONAL,
         "help": "A beaten defender may also retreat along a road into a town the enemy holds and fight its way in: the town's "
                 "holders add 2 dice, and retreating Units that lose are eliminated."},
        {"key": "placement", "label": "Who places their own Units", "short": "Placed by hand",
         "kind": "choice", "default": "default", "rule": "Patton: Positioning of Units",
         "choices": [{"value": value, "label": label, "short": short, **({"scenarios": where} if where else {})}
                     for value in PLACEMENTS for label, short, where in [placement[value]]],
         "help": "A player who places his own Units puts the scenario's Starting Forces in the towns the rules allow before the "
                 "first turn (the Allied player first); the others use the default setup. In Sicily the Allies land from the sea."},
        {"key": "turn_limit", "label": "Turn limit", "short": "Turn limit", "kind": "int", "default": sicily_limit, "min": 1, "max": 99,
         "scenarios": ["sicily"], "rule": SICILY_LIMIT,
         "help": f"Sicily has no Game Ends card: the Axis win if Messina has not fallen after this many turns "
                 f"({sicily_limit} by default, a reconstruction)."},
    )
    if {spec["key"] for spec in specs} != OPTIONS:
        raise RuntimeError(f"the web describes Patton options {sorted(spec['key'] for spec in specs)}, the rules have {sorted(OPTIONS)}")
    return specs


def check_options(game: str, title: str, scenario: str | None, options: Any) -> dict[str, Any]:
    """The options of a new game, as the catalog offers them for `game` in `scenario`; else 400 bad_option."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ApiError(400, "bad_option", "options must be an object of option names and values")
    specs = {spec["key"]: spec for spec in _specs(game)}
    for key, value in options.items():
        spec = specs.get(key)
        if spec is None:
            known = f"its options are {', '.join(specs)}" if specs else "it has no rules options"
            raise ApiError(400, "bad_option", f"{title} has no rules option {key!r}: {known}")
        where = spec.get("scenarios")
        if where and scenario is not None and scenario not in where:
            raise ApiError(400, "bad_option", f"the option {key!r} ({spec['label']}) is only for the scenario{'s' if len(where) > 1 else ''} "
                                              f"{', '.join(where)}, not {scenario}")
        kind = spec["kind"]
        if kind == "bool":
            if not isinstance(value, bool):
                raise ApiError(400, "bad_option", f"the option {key!r} ({spec['label']}) is true or false, not {value!r}")
        elif kind == "choice":
            offered = [c["value"] for c in spec["choices"] if scenario is None or scenario in c.get("scenarios", [scenario])]
            if value not in offered:
                raise ApiError(400, "bad_option", f"the option {key!r} ({spec['label']}) must be one of {', '.join(map(repr, offered))}"
                                                  f"{f' in {scenario}' if scenario else ''}, not {value!r}")
        else:
            low, high = spec["min"], spec["max"]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ApiError(400, "bad_option", f"the option {key!r} ({spec['label']}) is a whole number from {low} to {high}, not {value!r}")
    return dict(options)


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
            choice = next((c for c in spec["choices"] if c["value"] == value), {"label": str(value), "short": str(value)})
            text, chip = choice["label"], f"{spec['short']}: {choice['short']}"
        else:
            text, chip = str(value), f"{spec['short']}: {value}"
        out.append({"key": key, "label": spec["label"], "value": value, "text": text, "chip": chip, "rule": spec["rule"]})
    return out
