"""Patton's board layouts for the browser (static/board.js draws them), from each scenario's own data.

The printed boards are schematic (towns as circles joined by roads), so the client draws each
scenario's towns at their map positions spread apart just enough that a town's counters and name
never cover a neighbour: a deterministic relaxation of the projected longitude / latitude.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

PATTON_WIDTH = {"normandy": 1250.0, "bulge": 1050.0, "sicily": 1800.0}  # board units across the map, before spreading
PATTON_GAP = 130.0  # least distance between two towns (a town with both kinds of counters is ~90 wide)
PATTON_LANDING_GAP = 96.0  # a landing triangle keeps this far from any town's counters
PATTON_COUNTERS_UP = 22.0  # a town's counters stand above it: its middle, for keeping landing areas clear
PATTON_ROAD_GAP = 40.0  # a town keeps this far from a road that does not end in it
PATTON_PAD = 95.0
PATTON_COLORS = {"Allied": "#2f5fa8", "Axis": "#b8322a"}  # the rulebook's blue and red units

# Drawing aids only (not game data): coastlines as (longitude, latitude), warped with the towns.
PATTON_LAND = {
    # the Cotentin's west coast, the bay of Mont-Saint-Michel and the north Breton coast, closed far
    # inland; the Channel coast of the Bay of the Seine lies just beyond the top of the map
    "normandy": [
        [
            (1.6, 49.60),
            (0.23, 49.45),
            (-0.25, 49.30),
            (-0.62, 49.35),
            (-1.04, 49.40),
            (-1.20, 49.37),
            (-1.30, 49.42),
            (-1.40, 49.75),
            (-1.90, 49.75),
            (-1.84, 49.50),
            (-1.72, 49.33),
            (-1.66, 49.22),
            (-1.62, 49.05),
            (-1.63, 48.84),
            (-1.57, 48.76),
            (-1.50, 48.70),
            (-1.40, 48.665),
            (-1.52, 48.64),
            (-1.62, 48.64),
            (-1.80, 48.66),
            (-1.86, 48.71),
            (-1.96, 48.67),
            (-2.03, 48.66),
            (-2.10, 48.63),
            (-2.30, 48.66),
            (-2.70, 48.58),
            (-3.6, 48.5),
            (-3.6, 45.5),
            (3.5, 45.5),
            (3.5, 49.75),
        ]
    ],
    "sicily": [
        [
            (15.56, 38.18),
            (15.65, 38.27),
            (15.50, 38.26),
            (15.24, 38.27),
            (15.05, 38.17),
            (14.75, 38.17),
            (14.45, 38.05),
            (14.02, 38.05),
            (13.70, 38.00),
            (13.50, 38.10),
            (13.37, 38.16),
            (13.30, 38.22),
            (13.10, 38.19),
            (12.90, 38.04),
            (12.74, 38.18),
            (12.58, 38.08),
            (12.48, 38.03),
            (12.42, 37.90),
            (12.43, 37.80),
            (12.58, 37.64),
            (12.83, 37.57),
            (13.08, 37.49),
            (13.30, 37.37),
            (13.52, 37.27),
            (13.75, 37.16),
            (13.94, 37.09),
            (14.25, 37.05),
            (14.43, 36.87),
            (14.60, 36.78),
            (14.85, 36.71),
            (15.10, 36.68),
            (15.15, 36.78),
            (15.13, 36.90),
            (15.24, 37.00),
            (15.30, 37.07),
            (15.22, 37.24),
            (15.10, 37.30),
            (15.08, 37.49),
            (15.17, 37.61),
            (15.24, 37.76),
            (15.29, 37.85),
            (15.40, 37.98),
            (15.50, 38.10),
        ]
    ],
}


# Region and sea names (drawing aids), as (longitude, latitude, name, "land" | "sea"), in the map's empty corners.
PATTON_NAMES = {
    "normandy": [
        (0.05, 49.16, "NORMANDY", "land"),
        (-2.05, 47.85, "BRITTANY", "land"),
        (0.55, 47.80, "MAINE", "land"),
        (-1.98, 48.99, "Gulf of St. Malo", "sea"),
    ],
    "bulge": [(5.47, 50.06, "ARDENNES", "land"), (5.45, 49.68, "BELGIUM", "land"), (6.22, 50.09, "LUXEMBOURG", "land")],
    "sicily": [
        (14.1, 38.38, "Tyrrhenian Sea", "sea"),
        (13.0, 36.95, "Mediterranean Sea", "sea"),
        (15.55, 36.62, "Ionian Sea", "sea"),
    ],
}


def layout(scenario: str | None = None) -> dict[str, Any]:
    """Every scenario's board (the page picks its game's scenario), and the sides' colours."""
    return _layout()


@cache
def _layout() -> dict[str, Any]:
    from ..board import SCENARIOS, load_board
    from ..rules import PattonRules

    return {
        "game": "patton",
        "kind": "towns",
        "title": PattonRules.info.title,
        "scenarios": {scenario: _patton_scenario(load_board(scenario)) for scenario in SCENARIOS},
        "colors": dict(PATTON_COLORS),
    }


def _patton_scenario(board: Any) -> dict[str, Any]:
    """One scenario's board: towns in board units, roads by type, landing areas, coast, sides, objective."""
    from ..board import ROAD_COST

    data = board.data
    towns, landings = data.towns, data.landings
    project = _Projection(towns, PATTON_WIDTH[board.id])
    start = [project.point(t.x, t.y) for t in towns] + [project.point(la.x, la.y) for la in landings]
    index = board.town_index
    roads = [(index[r.a], index[r.b]) for r in data.roads]
    links = roads + [(index[la.town], len(towns) + k) for k, la in enumerate(landings)]
    placed = _relax(start, len(towns), links)
    moved = [(p[0] - s[0], p[1] - s[1]) for p, s in zip(placed, start, strict=True)]
    land = [
        [_warp(project.point(lon, lat), start, moved) for lon, lat in ring] for ring in PATTON_LAND.get(board.id, [])
    ]
    names = [
        (_warp(project.point(lon, lat), start, moved), name, kind)
        for lon, lat, name, kind in PATTON_NAMES.get(board.id, [])
    ]
    frame = _Frame(placed)
    sc = data.scenario
    return {
        "id": board.id,
        "title": board.title,
        "map": {"w": round(frame.width, 1), "h": round(frame.height, 1)},
        "towns": _towns_view(towns, placed, frame),
        "roads": [{"a": r.a, "b": r.b, "kind": r.kind, "mp": ROAD_COST[r.kind]} for r in data.roads],
        "landings": _landings_view(landings, placed[len(towns) :], frame),
        "land": [[frame.at(p) for p in ring] for ring in land],
        "names": [{"x": frame.at(p)[0], "y": frame.at(p)[1], "text": name, "kind": kind} for p, name, kind in names],
        "sides": _sides_view(data),
        "deal": list(sc.deal),
        "turns": sc.turns or sc.turn_limit,
        "game_ends_card": sc.game_ends_card,
        "objective": _objective_view(board),
    }


class _Projection:
    """Longitude / latitude to board units: an equirectangular projection about the towns' mean
    latitude, with the westmost town at x 0 and the northmost at y 0, `width` across the towns."""

    def __init__(self, towns: Any, width: float) -> None:
        lat0 = sum(t.y for t in towns) / len(towns)
        self.kx = math.cos(math.radians(lat0))
        self.lon_min = min(t.x for t in towns)
        lon_max = max(t.x for t in towns)
        self.lat_max = max(t.y for t in towns)
        self.scale = width / ((lon_max - self.lon_min) * self.kx)

    def point(self, lon: float, lat: float) -> tuple[float, float]:
        return (lon - self.lon_min) * self.kx * self.scale, (self.lat_max - lat) * self.scale


class _Frame:
    """The board's drawing area: the points placed, with PATTON_PAD around them; `at` gives a point
    from its top left corner (rounded to a tenth)."""

    def __init__(self, placed: list[tuple[float, float]]) -> None:
        xs = [p[0] for p in placed]
        ys = [p[1] for p in placed]
        self.x0, self.y0 = min(xs) - PATTON_PAD, min(ys) - PATTON_PAD
        self.width, self.height = max(xs) + PATTON_PAD - self.x0, max(ys) + PATTON_PAD - self.y0

    def at(self, p: tuple[float, float]) -> list[float]:
        return [round(p[0] - self.x0, 1), round(p[1] - self.y0, 1)]


def _towns_view(towns: Any, placed: list[tuple[float, float]], frame: _Frame) -> list[dict[str, Any]]:
    """Each town where it is drawn, with its marks (red, star, front, defection number)."""
    return [
        {
            "id": t.id,
            "name": t.name,
            "x": frame.at(placed[k])[0],
            "y": frame.at(placed[k])[1],
            "red": t.red,
            "star": t.star,
            "front": t.front,
            "defection": t.defection,
            "reconstructed": t.source.startswith("reconstructed"),
        }
        for k, t in enumerate(towns)
    ]


def _landings_view(landings: Any, placed: list[tuple[float, float]], frame: _Frame) -> list[dict[str, Any]]:
    """Each landing area where it is drawn (`placed`: the landing areas' points), its town and capacity."""
    return [
        {
            "id": la.id,
            "town": la.town,
            "capacity": la.capacity,
            "x": frame.at(placed[k])[0],
            "y": frame.at(placed[k])[1],
        }
        for k, la in enumerate(landings)
    ]


def _sides_view(data: Any) -> dict[str, dict[str, Any]]:
    """Each side's name, colours and reserves (in a sentence, and the town they enter, if one)."""
    sides = {}
    for key, spec, reserve in (
        ("Allied", data.allied, data.reserves.get("allied")),
        ("Axis", data.axis, data.reserves.get("axis")),
    ):
        sides[key] = {
            "name": spec.name,
            "color": PATTON_COLORS[key],
            "dice": spec.dice_color,
            "reserves": _reserve_text(reserve, spec.name),
            "reserve_town": reserve.town if reserve and reserve.town else None,
        }
    return sides


def _objective_view(board: Any) -> dict[str, Any]:
    """The objective's data, in a sentence, and the rule that states it."""
    from ..board import SCENARIO_RULE

    obj = board.data.objective
    return {
        "kind": obj.kind,
        "needed": obj.needed,
        "relieve": obj.relieve,
        "hold": obj.hold,
        "text": _objective_text(board),
        "rule": f"{SCENARIO_RULE.get(board.id, 'Patton')} — Objective",
    }


def _relax(
    start: list[tuple[float, float]], n_towns: int, links: list[tuple[int, int]], rounds: int = 160
) -> list[tuple[float, float]]:
    """Spread the points (towns, then landing areas) until no two are too close and no town sits on
    a road that does not end in it, each held loosely to where the map puts it. Deterministic."""
    pts = [[x, y] for x, y in start]
    n = len(pts)
    for step in range(rounds):
        for i in range(n):
            pi = pts[i]
            for j in range(i + 1, n):
                pj = pts[j]
                need = PATTON_GAP if j < n_towns else PATTON_LANDING_GAP
                dx, dy = pj[0] - pi[0], pj[1] - pi[1]
                if j >= n_towns > i:
                    dy += PATTON_COUNTERS_UP
                if dx >= need or -dx >= need or dy >= need or -dy >= need:
                    continue
                d2 = dx * dx + dy * dy
                if d2 >= need * need:
                    continue
                d = math.sqrt(d2)
                if d < 1e-6:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (need - d) * 0.3 / d
                pi[0] -= dx * push
                pi[1] -= dy * push
                pj[0] += dx * push
                pj[1] += dy * push
        for a, b in links:
            _clear_road(pts, n_towns, a, b)
        if step < rounds - 40:  # the last rounds only separate: the gaps are met exactly
            for p, (sx, sy) in zip(pts, start, strict=True):
                p[0] += (sx - p[0]) * 0.03
                p[1] += (sy - p[1]) * 0.03
    return [(p[0], p[1]) for p in pts]


def _clear_road(pts: list[list[float]], n_towns: int, a: int, b: int) -> None:
    """Push towns off the road a-b (and the road a little the other way)."""
    pa, pb = pts[a], pts[b]
    ex, ey = pb[0] - pa[0], pb[1] - pa[1]
    length2 = ex * ex + ey * ey or 1.0
    gap = PATTON_ROAD_GAP
    lo_x, hi_x = min(pa[0], pb[0]) - gap, max(pa[0], pb[0]) + gap
    lo_y, hi_y = min(pa[1], pb[1]) - gap, max(pa[1], pb[1]) + gap
    for t in range(n_towns):
        pt = pts[t]
        if t in (a, b) or not (lo_x < pt[0] < hi_x and lo_y < pt[1] < hi_y):
            continue
        u = ((pt[0] - pa[0]) * ex + (pt[1] - pa[1]) * ey) / length2
        if u <= 0.02 or u >= 0.98:
            continue
        dx, dy = pt[0] - (pa[0] + u * ex), pt[1] - (pa[1] + u * ey)
        d = math.hypot(dx, dy)
        if d >= gap:
            continue
        if d < 1e-6:
            dx, dy, d = -ey, ex, math.sqrt(length2)
        push = (gap - d) * 0.5 / d
        pt[0] += dx * push
        pt[1] += dy * push
        for end in (pa, pb):
            end[0] -= dx * push * 0.5
            end[1] -= dy * push * 0.5


def _warp(
    p: tuple[float, float], start: list[tuple[float, float]], moved: list[tuple[float, float]]
) -> tuple[float, float]:
    """Move a drawing-aid point as the towns near it moved (inverse-square distance weights)."""
    total = wx = wy = 0.0
    for (sx, sy), (mx, my) in zip(start, moved, strict=True):
        w = 1.0 / ((p[0] - sx) ** 2 + (p[1] - sy) ** 2 + 400.0)
        total += w
        wx += w * mx
        wy += w * my
    return p[0] + wx / total, p[1] + wy / total


def _units_text(armor: int, infantry: int) -> str:
    parts = ([f"{armor} Armored"] if armor else []) + ([f"{infantry} Infantry"] if infantry else [])
    return " and ".join(parts) or "no Units"


def _reserve_text(spec: Any, name: str) -> str:
    """The scenario's reserves for one side, in a sentence (from its data, so corrections show)."""
    if spec is None:
        return f"The {name} have no reserves."
    where = {
        "own_town": "in a town they occupy",
        "star": "in a (*) town the enemy does not occupy",
        "town": f"in {spec.town} unless the enemy occupies it",
    }[spec.place]
    if spec.by_face:
        faces: dict[str, list[str]] = {}
        for face, units in sorted(spec.by_face.items()):
            faces.setdefault(_units_text(units[0], units[1]), []).append(face)
        what = ", ".join(f"a double of {'/'.join(f)} brings in {units}" for units, f in faces.items())
    else:
        what = f"a double brings in {_units_text(spec.armor, spec.infantry)}"
    if spec.trigger == "schedule":
        return (
            f"{_units_text(spec.armor, spec.infantry)} at the end of each of their first {spec.entries} turns, {where}."
        )
    times = (
        f" (at most {spec.entries} times)"
        if spec.entries and spec.entries > 1
        else " (once)"
        if spec.entries == 1
        else ""
    )
    wait = " They may wait before throwing." if spec.optional_roll else ""
    return f"Throw 3 dice at the end of each turn: {what}{times}, {where}.{wait}"


def _objective_text(board: Any) -> str:
    allied, axis = board.side_names
    obj = board.data.objective
    name = {t.id: t.name for t in board.towns}
    sc = board.data.scenario
    if obj.kind == "red_towns":
        red = [t.name for t in board.towns if t.red]
        return (
            f"The {allied} win at the end of any {axis} turn in which they hold {obj.needed} or more "
            f"of the {len(red)} red towns "
            f"({', '.join(red)}). The {axis} win if that has not happened after {sc.turns} turns."
        )
    if obj.kind == "relief_and_hold":
        relieve, hold = name[obj.relieve], name[obj.hold]
        return (
            f"The {allied} must relieve {relieve} (a path free of {axis} Units from it to any (*) town) "
            f"and occupy {hold} "
            f"through the {axis} reply. The {axis} win if either is still undone after {sc.turns} turns. "
            f"Until relieved, the Units in {relieve} cannot move or fight."
        )
    hold = name[obj.hold]
    return (
        f"The {allied} win by occupying {hold} and holding it through the following {axis} turn. "
        f"The {axis} win by making "
        f"that impossible: the {allied} left with no Units, or with one Infantry Unit while the {axis} hold {hold}"
        + (f" (here also: {hold} not taken by the end of turn {sc.turn_limit})." if sc.turn_limit else ".")
    )
