"""Hex skirmish's board layout for the browser: the map from the rules' own data through the shared
builder (warroom.web.hexmap), and each unit's counter. static/board.js draws it with /static/js/hexmap.js.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.web.hexmap import HexPath, HexPlace, hex_layout

from .. import rules

HEX_SIZE = 48.0


def layout(scenario: str | None = None) -> dict[str, Any]:
    """The one board: the map and the counters (one scenario)."""
    return _layout()


@cache
def _layout() -> dict[str, Any]:
    grid = rules.GRID
    town = grid.at(rules.TOWN)
    hex_map = hex_layout(
        grid,
        size=HEX_SIZE,
        terrain=rules.TERRAIN,
        hexsides={"river": rules.RIVER_SIDES, "bridge": [rules.BRIDGE_SIDE]},
        paths=[HexPath("road", [grid.at(label) for label in rules.ROAD], "the road")],
        places=[HexPlace(town, "Town")],
    )
    units = {
        uid: {
            "side": side,
            "type": kind,
            "attack": rules.KINDS[kind].attack,
            "mp": rules.KINDS[kind].mp,
        }
        for uid, (side, kind, _) in rules.UNITS.items()
    }
    return {"kind": "hexmap", "map": hex_map, "units": units, "sides": list(rules.SIDES), "turns": rules.TURNS}
