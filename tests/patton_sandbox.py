"""Small made-up boards and positions, for the rulebook's illustrated examples and for trying rules.

    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "dotted")])
    s = sandbox_state(board, {"A": ("Allied", 2, 1), "C": ("Axis", 0, 1)}, mp=14)

The rulebook's Illustrations 1 and 2 are not printed; their worked examples are rebuilt on
such boards (tests/patton/).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from warroom.games.patton.board import Board, ScenarioData, load_deck
from warroom.games.patton.state import MOVING, PattonState


def sandbox_board(
    towns: Iterable[str],
    roads: Iterable[tuple[str, str, str]],
    *,
    landings: Iterable[tuple[str, str, int]] = (),
    red: Iterable[str] = (),
    star: Iterable[str] = (),
    objective: str = "red_towns",
    hold: str | None = None,
    relieve: str | None = None,
) -> Board:
    """A board with the given towns and roads (kind: solid, dashed, dotted); everything else minimal."""
    red, star = set(red), set(star)
    names = list(towns)
    data: dict[str, Any] = {
        "schema_version": 1,
        "scenario": {
            "id": "sandbox",
            "title": "Sandbox",
            "deal": [12, 11],
            "game_ends_card": True,
            "turns": 12,
            "source": "test",
        },
        "towns": [
            {"id": t, "name": t, "x": float(k), "y": 0.0, "red": t in red, "star": t in star, "source": "test"}
            for k, t in enumerate(names)
        ],
        "roads": [{"a": a, "b": b, "kind": kind, "source": "test"} for a, b, kind in roads],
        "landings": [
            {"id": lid, "town": town, "capacity": cap, "x": 0.0, "y": 0.0, "source": "test"}
            for lid, town, cap in landings
        ],
        "allied": _side("Allied", names[0]),
        "axis": _side("Axis", names[-1]),
        "objective": {
            "kind": objective,
            "needed": 1 if objective == "red_towns" else 0,
            "hold": hold,
            "relieve": relieve,
            "source": "test",
        },
    }
    if objective == "red_towns" and not red:
        data["towns"][0]["red"] = True
    return Board(ScenarioData.model_validate(data), load_deck(), "sandbox")


def _side(name: str, town: str) -> dict[str, object]:
    return {
        "name": name,
        "dice_color": "white",
        "force": {"armor": 0, "infantry": 1, "source": "test"},
        "placement": {"zone": "any", "source": "test"},
        "default_setup": {"towns": {town: [0, 1]}, "source": "test"},
    }


def sandbox_state(
    board: Board, units: dict[str, tuple[str, int, int]], *, mp: int = 0, mover: str = "Allied"
) -> PattonState:
    """A movement-phase position: `units` maps town -> (side, armor, infantry)."""
    s = PattonState(board)
    s.mover = s.actor = 0 if mover == "Allied" else 1
    for town, (side, armor, infantry) in units.items():
        t = board.town_index[town]
        s.side[t] = 0 if side == "Allied" else 1
        s.armor[t], s.inf[t] = armor, infantry
    # the units present are the forces, so the unit-count invariant holds in sandbox games too
    forces = [[0, 0], [0, 0]]
    for side, armor, infantry in units.values():
        k = 0 if side == "Allied" else 1
        forces[k][0] += armor
        forces[k][1] += infantry
    board.force = [tuple(f) for f in forces]  # type: ignore[misc]
    s.phase = MOVING
    s.mp = s.mp_total = mp
    return s
