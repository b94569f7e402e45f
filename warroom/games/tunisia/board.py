"""Tunisia's static data: the map, the Terrain Effects Chart and the counters, read from `data/*.toml`,
checked, and compiled once into integer tables for the rules' hot loops.

The printed map, the TEC and the counter sheet are not in the rulebook: the data files hold a
reconstruction (every reconstructed value marked, NOTES.md says why) that a player who owns the game
can correct without touching code. This module trusts none of it: every label must be on the map,
every chain of road hexes adjacent, every bridge on a river, every piece's setup hex inside its setup
zone and the default setup legal, and a problem is a `DataFileError` naming the file and the key.

What it compiles (`Board`): the `HexGrid` (neighbours cached by the grid), each hex's terrain, entry
cost (8.2A: the highest of its terrain and its village or port) and combat modifier (11.3), the
hexside flags (river, bridge, road, railway, the orange border), `StepCosts` for ground movement
(8.3 river +3 unless bridged, 8.4 road rate 1/2), the setup zones of 5.1-5.2 and the pieces.

The files' shapes are schema.py's (pydantic checks each value as it is read); the pieces are compiled and checked
against the map, and the default setup with them, in pieces.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from pathlib import Path

from warroom.engine.data import load_toml
from warroom.engine.errors import DataFileError
from warroom.engine.hexgrid import HexGrid, StepCosts

from .pieces import Piece, compile_pieces
from .schema import (
    COUNTRIES,
    SIDES,
    TERRAINS,
    AirfieldSpec,
    ChainSpec,
    CharGrid,
    CountersData,
    MapData,
    PlaceSpec,
    TerrainData,
)

__all__ = ["DATA_DIR", "SIDES", "TERRAINS", "Board", "CountersData", "MapData", "Piece", "TerrainData", "load_board"]

DATA_DIR = Path(__file__).parent / "data"
BONE_RADIUS = 4  # 5.1B: the 6th Armoured sets up in Algeria within four hexes of Bone


def _side_pair(key: str) -> tuple[str, str]:
    a, _, b = key.partition("/")
    return a, b


class Board:
    """The map, the TEC and the pieces, compiled. Hex numbers are the grid's (0..n-1); hexside numbers
    the grid's too (`grid.side(i, j)`)."""

    def __init__(
        self,
        map_data: MapData,
        terrain: TerrainData,
        counters: CountersData,
        files: tuple[str, str, str] = ("map.toml", "terrain.toml", "counters.toml"),
    ) -> None:
        self.map_data, self.tec, self.counters = map_data, terrain, counters
        mfile, tfile, cfile = files
        spec = map_data.grid
        if spec.first_column > spec.last_column or spec.first_row > spec.last_row:
            raise DataFileError(mfile, "grid", "the first column or row comes after the last")
        columns, rows = range(spec.first_column, spec.last_column + 1), range(spec.first_row, spec.last_row + 1)
        self.grid = HexGrid(columns, rows, offset=spec.offset)
        self._read_terrain(map_data, mfile, columns, rows)
        self._read_places(map_data, mfile)
        self._read_setup_hexes(map_data, mfile)
        self._read_lines(map_data, mfile)
        self._read_rivers(map_data, mfile)
        self._compile_tec(terrain, tfile)

        self.pieces: dict[str, Piece] = compile_pieces(self, counters, cfile)  # pieces.py

    # -- the map, read a part at a time ------------------------------------------------------------
    def _map_at(self, label: str, file: str, key: str) -> int:
        """The hex a map file names, or the error that says where the map ends."""
        i = self.grid.by_label.get(label)
        if i is None:
            spec = self.map_data.grid
            raise DataFileError(
                file,
                key,
                f"hex {label} is not on the map (columns {spec.first_column}-"
                f"{spec.last_column}, rows {spec.first_row}-{spec.last_row})",
            )
        return i

    def _side_of(self, key: str, file: str, where: str) -> int:
        """The hexside a map file names as "A/B", which must join two adjacent hexes."""
        a, b = _side_pair(key)
        i, j = self._map_at(a, file, where), self._map_at(b, file, where)
        if self.grid.distance(i, j) != 1:
            raise DataFileError(file, where, f"hexside {key}: hexes {a} and {b} are not adjacent")
        return self.grid.side(i, j)

    def _read_terrain(self, map_data: MapData, mfile: str, columns: range, rows: range) -> None:
        """The terrain and the countries, one character a hex; sea in both grids or in neither."""
        grid = self.grid
        self.terrain: tuple[str, ...] = self._char_grid(map_data.terrain, TERRAINS, "terrain", mfile, columns, rows)
        self.country: tuple[str, ...] = self._char_grid(
            map_data.countries, COUNTRIES, "countries", mfile, columns, rows
        )
        for i in range(grid.n):
            if (self.terrain[i] == "sea") != (self.country[i] == "sea"):
                raise DataFileError(mfile, "countries.rows", f"hex {grid.labels[i]}: sea in one grid and not the other")
        self.land: frozenset[int] = frozenset(i for i in range(grid.n) if self.terrain[i] != "sea")

    def _read_places(self, map_data: MapData, mfile: str) -> None:
        """Places (one a land hex; 4.0A's five ports) and airfields."""
        at = self._map_at
        self.place_at: dict[int, PlaceSpec] = {}
        self.place_named: dict[str, int] = {}
        for k, place in enumerate(map_data.places):
            i = at(place.hex, mfile, f"places[{k}].hex")
            if i in self.place_at:
                raise DataFileError(mfile, f"places[{k}].hex", f"hex {place.hex} already holds {self.place_at[i].name}")
            if i not in self.land:
                raise DataFileError(mfile, f"places[{k}].hex", f"{place.name} ({place.hex}) is a sea hex")
            self.place_at[i] = place
            self.place_named[place.name] = i
        self.ports: tuple[int, ...] = tuple(i for i, p in self.place_at.items() if p.kind == "port")
        self.villages: frozenset[int] = frozenset(i for i, p in self.place_at.items() if p.kind == "village")
        if len(self.ports) != 5:  # 4.0A: Bizerte, Tunis, Sousse, Sfax and Gabes
            raise DataFileError(mfile, "places", f"{len(self.ports)} ports: 4.0A names five")
        self.airfields: dict[int, AirfieldSpec] = {}
        for k, field in enumerate(map_data.airfields):
            i = at(field.hex, mfile, f"airfields[{k}].hex")
            if i in self.airfields or i not in self.land:
                raise DataFileError(mfile, f"airfields[{k}].hex", f"hex {field.hex}: a second airfield or a sea hex")
            self.airfields[i] = field

    def _read_setup_hexes(self, map_data: MapData, mfile: str) -> None:
        """The hexes the setup names (5.1, 5.2); the Eighth Army's and II Corps' in Tunisia."""
        at, sh = self._map_at, map_data.setup_hexes
        self.eighth_army: frozenset[int] = frozenset(at(h, mfile, "setup_hexes.eighth_army") for h in sh.eighth_army)
        self.ii_corps: frozenset[int] = frozenset(at(h, mfile, "setup_hexes.ii_corps") for h in sh.ii_corps)
        self.bone, self.mareth = at(sh.bone, mfile, "setup_hexes.bone"), at(sh.mareth, mfile, "setup_hexes.mareth")
        self.airbase, self.broich = (
            at(sh.airbase, mfile, "setup_hexes.airbase"),
            at(sh.broich, mfile, "setup_hexes.broich"),
        )
        for key, hexes in (("eighth_army", self.eighth_army), ("ii_corps", self.ii_corps)):
            for i in hexes:
                if self.country[i] != "tunisia":
                    raise DataFileError(
                        mfile, f"setup_hexes.{key}", f"hex {self.grid.labels[i]} is not a land hex in Tunisia"
                    )

    def _read_lines(self, map_data: MapData, mfile: str) -> None:
        """Ranges, roads, railways: chains of hexes, and the hexsides the roads and railways cross."""
        grid = self.grid
        self.ranges: dict[str, tuple[int, ...]] = {}
        for k, chain in enumerate(map_data.ranges):
            range_hexes = tuple(self._map_at(h, mfile, f"ranges[{k}].hexes") for h in chain.hexes)
            if any(self.terrain[i] != "mountain" for i in range_hexes):
                raise DataFileError(mfile, f"ranges[{k}].hexes", f"{chain.name}: every hex of a range is mountain")
            self.ranges[chain.name] = range_hexes
        self.roads: dict[str, tuple[int, ...]] = self._chains(map_data.roads, "roads", mfile, self._map_at)
        self.railways: dict[str, tuple[int, ...]] = self._chains(map_data.railways, "railways", mfile, self._map_at)
        self.road_sides: frozenset[int] = frozenset(
            grid.side(a, b) for road in self.roads.values() for a, b in zip(road, road[1:], strict=False)
        )
        self.rail_sides: frozenset[int] = frozenset(
            grid.side(a, b) for rail in self.railways.values() for a, b in zip(rail, rail[1:], strict=False)
        )
        self.road_hexes: frozenset[int] = frozenset(i for road in self.roads.values() for i in road)

    def _read_rivers(self, map_data: MapData, mfile: str) -> None:
        """Rivers (never touching the sea), bridges (only on rivers) and the Algerian border (5.1A, 5.2A)."""
        grid = self.grid
        river: set[int] = set()
        self.rivers: dict[str, frozenset[int]] = {}
        for k, r in enumerate(map_data.rivers):
            sides = frozenset(self._side_of(s, mfile, f"rivers[{k}].hexsides") for s in r.hexsides)
            if any(self.terrain[i] == "sea" for s in sides for i in grid.side_ends[s]):
                raise DataFileError(mfile, f"rivers[{k}].hexsides", f"{r.name}: a river hexside touches the sea")
            self.rivers[r.name] = sides
            river |= sides
        self.river_sides: frozenset[int] = frozenset(river)
        self.bridges: frozenset[int] = frozenset(
            self._side_of(s, mfile, "bridges.hexsides") for s in map_data.bridges.hexsides
        )
        if not self.bridges <= self.river_sides:
            stray = sorted("/".join(grid.labels[i] for i in grid.side_ends[s]) for s in self.bridges - self.river_sides)
            raise DataFileError(mfile, "bridges.hexsides", f"a bridge where no river runs: {', '.join(stray)}")
        # the orange-dashed border (5.1A, 5.2A): between Algeria and Tunisia
        self.border_sides: frozenset[int] = frozenset(
            k for k, (i, j) in enumerate(grid.side_ends) if {self.country[i], self.country[j]} == {"algeria", "tunisia"}
        )

    def _compile_tec(self, terrain: TerrainData, tfile: str) -> None:
        """The TEC, compiled (8.2A, 8.3, 8.4, 11.3): each hex's cost and modifier, each hexside's."""
        tec = terrain.hexes
        for name in (*TERRAINS, "village", "port"):
            if name not in tec:
                raise DataFileError(tfile, f"hexes.{name}", "missing from the Terrain Effects Chart")
        for name in ("river", "road"):
            if name not in terrain.hexsides:
                raise DataFileError(tfile, f"hexsides.{name}", "missing from the Terrain Effects Chart")
        enter, combat = [], []
        for i in range(self.grid.n):
            kinds = [self.terrain[i]] + ([self.place_at[i].kind] if i in self.place_at else [])
            enter.append(max(tec[k].cost for k in kinds))  # 8.2A: the single highest MP cost
            combat.append(max(tec[k].combat for k in kinds))  # 11.3: the single highest modifier
        self.enter_cost: tuple[float, ...] = tuple(enter)
        self.hex_combat: tuple[int, ...] = tuple(combat)
        river_tec = terrain.hexsides["river"]
        self.river_extra: dict[int, float] = {
            s: (river_tec.bridged_mp if s in self.bridges else river_tec.mp) for s in self.river_sides
        }
        self.side_combat: dict[int, int] = {
            s: (river_tec.bridged_combat if s in self.bridges else river_tec.combat) for s in self.river_sides
        }
        self.road_cost: dict[int, float] = self._road_costs(terrain)
        self.ground_costs = StepCosts(self.grid, self.enter_cost, self.river_extra, self.road_cost)

    def _road_costs(self, terrain: TerrainData) -> dict[int, float]:
        """8.4: each road or railway hexside's cost, the cheaper where both run."""
        road_tec, rail_tec = terrain.hexsides["road"], terrain.hexsides.get("railway")
        road_cost: dict[int, float] = {}
        fast = [(self.road_sides, road_tec.mp)] + ([(self.rail_sides, rail_tec.mp)] if rail_tec else [])
        for sides, rate in fast:
            for s in sides:
                # 8.4 negates the terrain costs "in either hex"; a river is on the hexside, not in a hex,
                # so an unbridged one still adds its +3 (8.3B; NOTES.md)
                cost = rate + (self.river_extra.get(s, 0.0) if s not in self.bridges else 0.0)
                road_cost[s] = min(cost, road_cost.get(s, math.inf))
        return road_cost

    # -- reading helpers ---------------------------------------------------------------------------
    def _char_grid(
        self, spec: CharGrid, allowed: tuple[str, ...], key: str, file: str, columns: range, rows: range
    ) -> tuple[str, ...]:
        for ch, name in spec.legend.items():
            if len(ch) != 1 or name not in allowed:
                raise DataFileError(
                    file, f"{key}.legend", f"{ch!r} = {name!r}: one character for one of {', '.join(allowed)}"
                )
        by_row: dict[int, str] = {}
        for k, line in enumerate(spec.rows):
            head, _, cells = line.partition(" ")
            if not head.isdigit() or int(head) not in rows or int(head) in by_row:
                raise DataFileError(file, f"{key}.rows[{k}]", f"starts with {head!r}: a row number of the grid, once")
            if len(cells) != len(columns):
                raise DataFileError(
                    file, f"{key}.rows[{k}]", f"row {head}: {len(cells)} hexes for {len(columns)} columns"
                )
            for c, ch in enumerate(cells):
                if ch not in spec.legend:
                    raise DataFileError(
                        file, f"{key}.rows[{k}]", f"row {head}, column {columns[c]}: {ch!r} is not in the legend"
                    )
            by_row[int(head)] = cells
        missing = [r for r in rows if r not in by_row]
        if missing:
            raise DataFileError(file, f"{key}.rows", f"no row {missing[0]:02d}")
        grid = self.grid
        out = []
        for label in grid.labels:
            col, row = int(label[:2]), int(label[2:])
            out.append(spec.legend[by_row[row][col - columns.start]])
        return tuple(out)

    def _chains(
        self, chains: list[ChainSpec], key: str, file: str, at: Callable[[str, str, str], int]
    ) -> dict[str, tuple[int, ...]]:
        grid = self.grid
        out: dict[str, tuple[int, ...]] = {}
        for k, chain in enumerate(chains):
            hexes = tuple(at(h, file, f"{key}[{k}].hexes") for h in chain.hexes)
            for a, b in zip(hexes, hexes[1:], strict=False):
                if grid.distance(a, b) != 1:
                    raise DataFileError(
                        file,
                        f"{key}[{k}].hexes",
                        f"{chain.name}: {grid.labels[a]} and {grid.labels[b]} are not adjacent",
                    )
            sea = [grid.labels[i] for i in hexes if self.terrain[i] == "sea"]
            if sea:
                raise DataFileError(file, f"{key}[{k}].hexes", f"{chain.name}: runs through the sea at {sea[0]}")
            out[chain.name] = hexes
        return out

    def setup_zone(self, setup: str) -> frozenset[int]:
        """The hexes of a setup zone (5.1, 5.2)."""
        land = self.land
        if setup == "algeria":
            return frozenset(i for i in land if self.country[i] == "algeria")
        if setup == "tunisia":  # 5.2A: east of the border, not in 8th Army or II Corps hexes, nor the airbase
            east = frozenset(i for i in land if self.country[i] == "tunisia")
            return east - self.eighth_army - self.ii_corps - {self.airbase}  # NOTES.md: 8821 is the Allies' (5.1D)
        if setup == "eighth_army":
            return self.eighth_army
        if setup == "ii_corps":
            return self.ii_corps
        if setup == "near_bone":
            return frozenset(i for i in self.grid.within(self.bone, BONE_RADIUS) if self.country[i] == "algeria")
        if setup == "allied_airfield":  # 5.1D: an Allied silhouette in Algeria, or 8821
            return frozenset(
                i
                for i, f in self.airfields.items()
                if f.side == "allied" and (self.country[i] == "algeria" or i == self.airbase)
            )
        if setup == "axis_airfield":  # 5.2C: an Axis silhouette in Tunisia
            return frozenset(i for i, f in self.airfields.items() if f.side == "axis" and self.country[i] == "tunisia")
        return frozenset()  # "patton": enters later (16.0); "hex" is handled by the caller

    # -- queries -----------------------------------------------------------------------------------
    def at(self, label: str) -> int:
        """The hex a label names (KeyError if it is not on this map)."""
        return self.grid.at(label)

    def label(self, i: int) -> str:
        return self.grid.labels[i]

    def combat_modifier(self, attacker: int, defender: int) -> int:
        """11.3: the single highest terrain modifier of the defender's hex and the hexside attacked across;
        the attacker's hex never counts."""
        return max(self.hex_combat[defender], self.side_combat.get(self.grid.side(attacker, defender), 0))

    def step_cost(self, i: int, j: int) -> float:
        """What a ground unit pays to step from hex i to its neighbour j (math.inf: it cannot)."""
        return self.ground_costs.step(i, j)


@cache
def load_board(data_dir: Path = DATA_DIR) -> Board:
    """The board from `data_dir`'s map.toml, terrain.toml and counters.toml (read once a process)."""
    return Board(
        load_toml(data_dir / "map.toml", MapData),
        load_toml(data_dir / "terrain.toml", TerrainData),
        load_toml(data_dir / "counters.toml", CountersData),
    )
