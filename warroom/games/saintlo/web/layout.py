"""Saint-Lo's board for the browser: the map from the rules' own board data through the shared hex map kit
(warroom.web.hexmap), every counter's values, the Command Post hexes, the Battle Reports' texts.

Rivers are hexes on this board (NOTES.md: a land unit may not enter a river hex; a bridge is a river hex
a road crosses), so each river is a terrain class on its hexes and a `river` path through their centres,
as the kit's notes draw a river that runs through hexes rather than along hexsides. `map_features` is
shared with the terminal's text map (render.py), so both draw the same board.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.web.hexmap import HexPath, HexPlace, hex_layout

from ..board import Board, load_board, load_units
from ..cards import load_cards

HEX_SIZE = 40.0
TERRAIN_CLASS = {"countryside": "bocage", "forest": "forest", "town": "town", "river": "river", "bridge": "river"}
"""The board's terrain kinds as the kit's CSS classes (a bridge is a river hex a road crosses: its road is drawn)."""


def map_features(board: Board) -> tuple[list[str], list[HexPath], list[HexPlace]]:
    """Terrain class per hex, the rivers and roads as paths, and the towns and bridges as places."""
    terrain = [TERRAIN_CLASS[kind] for kind in board.terrain]
    paths = [HexPath("river", hexes, board.spec.rivers[k].name) for k, hexes in enumerate(board.rivers.values())]
    paths += [
        HexPath("road", hexes, spec.name) for spec, hexes in zip(board.spec.roads, board.roads.values(), strict=True)
    ]
    places = [HexPlace(hexes[0], board.town_names[town]) for town, hexes in board.towns.items()]
    return terrain, paths, places


def layout(scenario: str | None = None) -> dict[str, Any]:
    """The one board (one scenario): the map, the counters, the posts' hexes and the cards."""
    return _layout()


@cache
def _layout() -> dict[str, Any]:
    board = load_board()
    terrain, paths, places = map_features(board)
    hex_map = hex_layout(board.grid, size=HEX_SIZE, terrain=terrain, paths=paths, places=places)
    units = {}
    order = load_units()
    printed = [{spec.name for spec in order.counters(army)} for army in (0, 1)]
    for army, key in enumerate(("allied", "axis")):
        for spec in order.counters(army):
            units[spec.id] = {
                "side": key,
                "name": spec.name,
                # what the log and the panel call it (names.py): with its army where both print the name
                "called": f"{key.capitalize()} {spec.name}" if spec.name in printed[1 - army] else spec.name,
                "type": spec.type,
                "attack": spec.attack,
                "land_attack": spec.land_attack,
                "defense": spec.defense,
                "mobility": spec.mobility,
                "range": spec.range,
                "cost": spec.cost,
                "foot": spec.foot,
            }
    decks = load_cards()
    cards = {
        key: {c.id: {"name": c.name, "kind": c.kind, "text": c.text} for c in decks.cards[army]}
        for army, key in enumerate(("allied", "axis"))
    }
    grid = board.grid
    return {
        "kind": "hexmap",
        "map": hex_map,
        "units": units,
        "cards": cards,
        "post_hexes": {
            key: [grid.labels[h] for h in board.command_post_hexes[army]] for army, key in enumerate(("allied", "axis"))
        },
        "start_line": board.spec.start_line.last_northern_row,
    }
