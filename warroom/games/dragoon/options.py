"""Dragoon's rules options: the readings where the rulebook leaves a real choice (NOTES.md, "Readings").

Each option picks between two readings of the rulebook's text; the default is the reading the
reconstructed charts were calibrated with. The lobby draws its controls from `option_specs`
(the web reads it through the ruleset's hook), the engine checks a new game's options with
`parse_options`, and the state carries them (`DragoonState.options`), so a saved position keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from warroom.engine.errors import WarroomError

from .sections import PANZER_RULE, RESTRICTIONS

PUSH_BACK, STALL_ONLY = "push_back", "stall_only"
RETREAT_SOUTH, ELIMINATED_THERE = "retreat_south", "eliminated"
TURN_21, NEXT_MOVEMENT = "turn_21", "next_movement"

DEFAULTS: dict[str, str] = {
    "panzer_counterattack": PUSH_BACK,
    "montelimar_infantry": RETREAT_SOUTH,
    "panzer_to_montelimar": TURN_21,
}
"""Each option's default reading (the one NOTES.md's calibration used)."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "panzer_counterattack": (PUSH_BACK, STALL_ONLY),
    "montelimar_infantry": (RETREAT_SOUTH, ELIMINATED_THERE),
    "panzer_to_montelimar": (TURN_21, NEXT_MOVEMENT),
}


def parse_options(options: Mapping[str, Any] | None) -> Mapping[str, str]:
    """A new game's options, defaults filled in, read-only (clones share them); an unknown key or value
    is refused naming the choices."""
    out = dict(DEFAULTS)
    for key, value in (options or {}).items():
        if key not in _CHOICES:
            raise WarroomError(f"unknown Operation Dragoon option {key!r}; options: {', '.join(sorted(_CHOICES))}")
        if value not in _CHOICES[key]:
            raise WarroomError(
                f"the Dragoon option {key!r} is one of {', '.join(map(repr, _CHOICES[key]))}, not {value!r}"
            )
        out[key] = value
    return MappingProxyType(out)


@cache
def option_specs() -> tuple[dict[str, Any], ...]:
    """One spec per option (key, label, short, kind, default, rule, help, choices), as Patton's options.py."""
    specs: tuple[dict[str, Any], ...] = (
        {
            "key": "panzer_counterattack",
            "label": "11th PzD beating a stalled unit",
            "short": "PzD counterattack",
            "kind": "choice",
            "default": PUSH_BACK,
            "rule": PANZER_RULE,
            "choices": [
                {
                    "value": PUSH_BACK,
                    "label": "The stalled unit retreats; the 11th PzD stays where it is",
                    "short": "pushes back",
                },
                {
                    "value": STALL_ONLY,
                    "label": "No result: the 11th PzD cannot advance, so it only stalls active units",
                    "short": "stalls only",
                },
            ],
            "help": "A German attack that beats a stalled unit advances and retreats it, but the 11th PzD never leaves "
            "Avignon or Montelimar. Either the stalled unit still retreats, or the win has no result.",
        },
        {
            "key": "montelimar_infantry",
            "label": "German infantry beaten in Montelimar",
            "short": "Montelimar infantry",
            "kind": "choice",
            "default": RETREAT_SOUTH,
            "rule": RESTRICTIONS,
            "choices": [
                {
                    "value": RETREAT_SOUTH,
                    "label": "Retreats south to Bollene (eliminated if Bollene is blocked)",
                    "short": "retreat to Bollene",
                },
                {"value": ELIMINATED_THERE, "label": "Eliminated instead of retreating", "short": "eliminated"},
            ],
            "help": "'German Retreats' sends units beaten in Montelimar south to Bollene; 'German Movement' says an "
            "infantry unit attacked there is eliminated instead of retreating. The two sections conflict.",
        },
        {
            "key": "panzer_to_montelimar",
            "label": "When the 11th PzD goes to Montelimar",
            "short": "PzD to Montelimar",
            "kind": "choice",
            "default": TURN_21,
            "rule": PANZER_RULE,
            "choices": [
                {
                    "value": TURN_21,
                    "label": "Turn 21 or later, once US VI Corps has entered Crest",
                    "short": "turn 21+",
                },
                {
                    "value": NEXT_MOVEMENT,
                    "label": "The German movement phase after US VI Corps enters Crest, whatever the turn",
                    "short": "as soon as Crest falls",
                },
            ],
            "help": "The rule is headed 'Turn 21 or later'. Read as a condition, a VI Corps that reaches Crest early "
            "keeps the 11th PzD in Avignon until turn 21; read as history, the PzD moves to Montelimar in the next "
            "movement phase.",
        },
    )
    if {spec["key"] for spec in specs} != set(DEFAULTS) or any(
        [c["value"] for c in spec["choices"]] != list(_CHOICES[spec["key"]]) for spec in specs
    ):
        raise RuntimeError("Dragoon options described differ from the options the rules take")
    return specs
