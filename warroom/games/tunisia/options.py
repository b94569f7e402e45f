"""Tunisia's rules options: whether each side takes the default setup or places its own pieces (5.0)."""

from __future__ import annotations

from typing import Any

from warroom.engine.errors import WarroomError

CHOICES: dict[str, tuple[str, ...]] = {"allied_setup": ("default", "free"), "axis_setup": ("default", "free")}
DEFAULTS: dict[str, str] = {"allied_setup": "default", "axis_setup": "default"}


def parse_options(options: dict[str, Any] | None) -> dict[str, str]:
    """The options with their defaults filled in; an unknown option or value is refused, naming the choices."""
    out = dict(DEFAULTS)
    for key, value in (options or {}).items():
        if key not in CHOICES:
            raise WarroomError(f"unknown Tunisia option {key!r}; options: {', '.join(sorted(CHOICES))}")
        if value not in CHOICES[key]:
            raise WarroomError(
                f"the Tunisia option {key!r} is one of {', '.join(map(repr, CHOICES[key]))}, not {value!r}"
            )
        out[key] = value
    return out
