"""Operation Dragoon's board layout for the browser (static/board.js draws it), from the game's own map data.

The client draws what this returns; it never hard-codes a map.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..board import Board

# Drawing aid only (not game data): the Provence coastline the Dragoon board is drawn over,
# as (longitude, latitude) points from the Rhone delta east to the Italian border.
DRAGOON_COAST = (
    (4.45, 43.45),
    (4.70, 43.40),
    (4.90, 43.37),
    (5.05, 43.33),
    (5.30, 43.33),
    (5.36, 43.26),
    (5.55, 43.20),
    (5.70, 43.16),
    (5.90, 43.09),
    (6.03, 43.06),
    (6.13, 43.07),
    (6.20, 43.11),
    (6.37, 43.12),
    (6.50, 43.16),
    (6.58, 43.18),
    (6.66, 43.25),
    (6.70, 43.30),
    (6.77, 43.39),
    (6.90, 43.46),
    (7.01, 43.52),
    (7.12, 43.57),
    (7.26, 43.68),
    (7.45, 43.76),
    (7.55, 43.78),
)
# The Rhone, which the German escape column follows north (drawing aid only).
DRAGOON_RHONE = (
    (4.62, 43.42),
    (4.63, 43.66),
    (4.72, 43.85),
    (4.80, 43.98),
    (4.73, 44.15),
    (4.70, 44.32),
    (4.74, 44.56),
    (4.82, 44.85),
)


def layout(scenario: str | None = None) -> dict[str, Any]:
    """The one board (Dragoon has one scenario): locations, routes, the escape track, units, tracks, victory."""
    return _layout()


@cache
def _layout() -> dict[str, Any]:
    from ..board import load_board

    b = load_board()
    data = b.data
    return {
        "game": "dragoon",
        "kind": "routes",
        "title": "Operation Dragoon 1944",
        "projection": {"lat0": 44.0},
        "locations": _locations(b),
        "routes": _routes(b),
        "escape_track": [b.locations[i].id for i in b.escape_track],
        "escape_to": "Escaped to German Frontier",
        "units": {**_allied_units(b), **_german_units(b)},
        "desperate_drm": {g.id: b.desperate_drm[k] for k, g in enumerate(data.german)},
        "turns": {"first": b.first_turn, "last": b.last_turn, "month": "Aug"},
        "rp_max": 6,
        "coast": [list(p) for p in DRAGOON_COAST],
        "rivers": [[list(p) for p in DRAGOON_RHONE]],
        "victory": {
            "vp": {loc.id: loc.vp for loc in data.locations if loc.vp},
            "ports": ["Marseilles", "Toulon"],
            "text": (
                "8+ VP: Allied victory; 7: draw (historical); "
                "6 or less, or neither Marseilles nor Toulon held: German victory."
            ),
            "rule": "Dragoon: How to Win",
        },
    }


def _locations(b: Board) -> list[dict[str, Any]]:
    """Each location as the client draws it, marked where its place on the map is reconstructed."""
    return [
        {
            "id": loc.id,
            "name": loc.name,
            "kind": loc.kind,
            "x": loc.x,
            "y": loc.y,
            "vp": loc.vp,
            "fortress": loc.fortress,
            "number": loc.number,
            "reconstructed": loc.source.startswith("reconstructed"),
        }
        for loc in b.data.locations
    ]


def _routes(b: Board) -> list[dict[str, Any]]:
    """Each Allied unit's route: its stops, the place it may only attack, its landing turn (the French)."""
    return [
        {
            "unit": u.id,
            "color": u.color,
            "stops": list(u.route),
            "attack_only": u.attack_only,
            "landing_turn": u.landing_turn,
        }
        for u in b.data.allied
    ]


def _allied_units(b: Board) -> dict[str, dict[str, Any]]:
    """The Allied counters: name, nation, echelon and type, in their route's color."""
    return {
        u.id: {
            "side": "Allied",
            "name": u.name,
            "nation": u.nation,
            "echelon": _echelon(u.id, u.name),
            "type": _allied_type(u.name),
            "color": u.color,
        }
        for u in b.data.allied
    }


def _german_units(b: Board) -> dict[str, dict[str, Any]]:
    """The German counters: name, echelon and kind, the route each defends or the turn it arrives."""
    return {
        g.id: {
            "side": "German",
            "name": g.name,
            "nation": "German",
            "echelon": "XX" if g.kind != "security" else "",
            "type": g.kind,
            "route_of": g.route_of,
            "arrival_turn": g.arrival_turn,
            "retreat_beyond": g.retreat_beyond,
        }
        for g in b.data.german
    }


def _echelon(uid: str, name: str) -> str:
    return "XXX" if "Corps" in uid or "Corps" in name else "XX"


def _allied_type(name: str) -> str:
    if "Airborne" in name:
        return "airborne"
    if "Corps" in name:
        return "corps"
    return "infantry"
