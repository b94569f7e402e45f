"""The rulebook sections Dragoon's events and errors cite (the rulebook has titles, not numbers)."""

from __future__ import annotations

SEQUENCE = "Dragoon: Sequence of Play Each Turn"
RP_CHART = "Dragoon: Sequence of Play (Allied RPs) — RP chart"
ACTION_CHARTS = "Dragoon: Using Action Charts"
ATTACKS = "Dragoon: Resolving Unit Attacks"
LANDINGS = "Dragoon: Resolving Unit Attacks (French landings)"
FFI_RULE = "Dragoon: French Forces of the Interior (FFI)"
AIR_RULE = "Dragoon: Air Support"
DESPERATE = "Dragoon: German Desperate Defense"
MOVEMENT = "Dragoon: German Movement / Movement Phase Sequence"
PANZER_RULE = "Dragoon: 11th PzD Special Rules"
RESTRICTIONS = "Dragoon: Allied Advance/German Retreat Restrictions"
BOT_CHART = "Dragoon: German BOT Actions (BOT chart)"
VICTORY = "Dragoon: How to Win"
