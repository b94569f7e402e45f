"""Patton's rules options described for a front end: the lobby draws its controls from this, the
web server checks a new game against it (warroom/web/options.py reads it through the ruleset's
`option_specs`).

Each spec: key, label, short (a chip's words), kind (`bool`, `choice`, `int`), default, the rule,
help text, and where an option or a choice only means something in some scenarios, those scenarios.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .battle import OPTIONAL
from .board import load_board
from .objectives import SICILY_LIMIT

OPTIONS = frozenset(("advanced_retreat", "placement", "turn_limit"))
SIMULATION_TURN_LIMIT = 15
"""A turn limit for Sicily simulations that must end soon: the reconstruction's limit until issue 12
(calibrated in NOTES.md); off by default, since the rules have none."""
PLACEMENTS = ("default", "manual", "Allied", "Axis")


@cache
def option_specs() -> tuple[dict[str, Any], ...]:
    """One spec per key of OPTIONS, checked here so that an option added to the rules cannot go undescribed."""
    both = ["normandy", "bulge"]  # Sicily's Allied forces start at sea: only the Axis can place there
    placement = {  # label, the words on the game page, the scenarios it is offered in (None: all)
        "default": ("Nobody: the default setup", "default setup", None),
        "manual": ("Both players", "both players", both),
        "Allied": ("Only the Allied (American) player", "Allied only", both),
        "Axis": ("Only the Axis (German) player", "Axis only", None),
    }
    specs: tuple[dict[str, Any], ...] = (
        {
            "key": "advanced_retreat",
            "label": "Optional Retreating Rule for Advanced Players",
            "short": "Advanced retreat",
            "kind": "bool",
            "default": False,
            "rule": OPTIONAL,
            "help": "A beaten defender may also retreat along a road into a town the enemy holds and fight its way in: "
            "the town's holders add 2 dice, and retreating Units that lose are eliminated.",
        },
        {
            "key": "placement",
            "label": "Who places their own Units",
            "short": "Placed by hand",
            "kind": "choice",
            "default": "default",
            "rule": "Patton: Positioning of Units",
            "choices": [
                {"value": value, "label": label, "short": short, **({"scenarios": where} if where else {})}
                for value in PLACEMENTS
                for label, short, where in [placement[value]]
            ],
            "help": "A player who places his own Units puts the scenario's Starting Forces in the towns the rules "
            "allow before the first turn (the Allied player first); the others use the default setup. In Sicily the "
            "Allies land from the sea.",
        },
        {
            "key": "turn_limit",
            "label": "Turn limit",
            "short": "Turn limit",
            "kind": "int",
            "default": load_board("sicily").turn_limit,
            "min": 1,
            "max": 99,
            "simulate": SIMULATION_TURN_LIMIT,
            "scenarios": ["sicily"],
            "rule": SICILY_LIMIT,
            "help": "Sicily has no Game Ends card: the game goes on until Messina is taken and held, or taking it has "
            "become impossible (NOTES.md). Not a rule: a limit ends the game after this many turns, the Axis winning "
            f"if Messina has not fallen. `warroom simulate` plays Sicily with {SIMULATION_TURN_LIMIT} unless told "
            "otherwise (0: none), since two computer players may never decide it.",
        },
    )
    if {spec["key"] for spec in specs} != OPTIONS:
        raise RuntimeError(
            f"Patton options described {sorted(spec['key'] for spec in specs)}, the rules have {sorted(OPTIONS)}"
        )
    return specs
