"""Panzer Saint-Lo's static data: the board, the order of battle and the components, read from
`data/*.toml`, validated, and compiled to hex indices so the rules never touch a label on a hot path.

The rules (1-8) need from the board: which hexes a land unit may enter (rivers only at bridges, 6.1),
where a Supply unit may be and go (roads and bridges, 7.5), the two sectors of the dashed start line
(4.3), the yellow and red Command Post hexes (2.4, 4.2), and distances for artillery range (7.3) and
adjacency for attacks (6.2, 7.4). Movement is counted in hexes (6.1: "as many hexes as its mobility
stat indicates"), so every step costs 1 and terrain only forbids: `Board.costs` holds the compiled
StepCosts of the three kinds of mover (land, supply, air). Units in the way (6.1's friendly units
passed through, enemy ones not) are the rules' business: they pass them to `HexGrid.movement_range`.
Every problem in a data file is a DataFileError naming the file and the key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from warroom.engine.data import load_toml
from warroom.engine.errors import DataFileError
from warroom.engine.hexgrid import HexGrid, StepCosts

DATA_DIR = Path(__file__).parent / "data"
BOARD_FILE = DATA_DIR / "board.toml"
UNITS_FILE = DATA_DIR / "units.toml"
COMPONENTS_FILE = DATA_DIR / "components.toml"

SIDES = ("allied", "axis")
ALLIED, AXIS = 0, 1
UNIT_TYPES = ("infantry", "tank", "artillery", "aircraft", "supply")  # 7: F, T, A, V, S
LAND_TYPES = ("infantry", "tank", "artillery", "supply")  # 7: "Land units are: Infantry, Tanks, Artillery, and Supply"
TERRAIN_KINDS = ("countryside", "town", "forest", "river", "bridge")  # 2.1: towns, roads, forests, bridges and rivers
MOVERS = ("land", "supply", "air")  # 6.1 land units; 7.5 Supply units (roads and bridges only); 7.4 aircraft (free)
UNITS_A_SIDE = 65  # 2: 65 Allied and 65 Axis unit counters
COMMAND_POSTS_A_SIDE = 8  # 2, 2.4
SUPPLY_COUNTERS = 64  # 2
SUPPLY_DENOMINATIONS = (1, 5, 10)  # 2.3

Side = Literal["allied", "axis"]
UnitType = Literal["infantry", "tank", "artillery", "aircraft", "supply"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- board.toml --------------------------------------------------------------------------------------
class MapSpec(_Strict):
    columns: int = Field(ge=2, le=99)
    rows: int = Field(ge=2, le=99)
    offset: Literal["odd-q", "even-q", "odd-r", "even-r"]
    reconstructed: bool
    source: str


class StartLineSpec(_Strict):
    last_northern_row: int = Field(ge=1)
    reconstructed: bool
    source: str


class TerrainSpec(_Strict):
    land: bool
    deploy: bool
    source: str


class TownSpec(_Strict):
    id: str
    name: str
    hexes: list[str] = Field(min_length=1)
    lon: float
    lat: float
    reconstructed: bool
    source: str


class RiverSpec(_Strict):
    id: str
    name: str
    hexes: list[str] = Field(min_length=2)
    reconstructed: bool
    source: str


class BridgeSpec(_Strict):
    id: str
    name: str
    hex: str
    river: str
    reconstructed: bool
    source: str


class PathSpec(_Strict):
    """A road (a chain of adjacent hexes) or a forest (a set of hexes)."""

    id: str
    name: str
    hexes: list[str] = Field(min_length=1)
    reconstructed: bool
    source: str


class CommandPostHexesSpec(_Strict):
    yellow: list[str]
    red: list[str]
    reconstructed: bool
    source: str


class BoardFile(_Strict):
    schema_version: int
    map: MapSpec
    start_line: StartLineSpec
    terrain: dict[str, TerrainSpec]
    towns: list[TownSpec]
    rivers: list[RiverSpec]
    bridges: list[BridgeSpec]
    roads: list[PathSpec]
    forests: list[PathSpec]
    command_post_hexes: CommandPostHexesSpec


# -- units.toml ----------------------------------------------------------------------------------------
class UnitSpec(_Strict):
    """One line of the Annex: a kind of counter and how many of it a side has."""

    id: str
    side: Side
    name: str
    type: UnitType
    foot: bool = False  # 7.1: foot infantry moves without paying Supplies
    attack: int = Field(ge=0)  # aircraft: against air units (7.4)
    defense: int = Field(ge=1)
    mobility: int = Field(ge=1)
    land_attack: int | None = Field(default=None, ge=0)  # aircraft only: against land units (7.4)
    range: int | None = Field(default=None, ge=1)  # artillery only (7.3)
    count: int = Field(ge=1)
    cost: int = Field(ge=1)  # 2.2, 5.4, 8
    reconstructed: list[Literal["cost", "range", "foot"]]

    @property
    def is_land(self) -> bool:
        return self.type != "aircraft"


class UnitsFile(_Strict):
    schema_version: int
    units: list[UnitSpec]


# -- components.toml ----------------------------------------------------------------------------------
class RulesSpec(_Strict):
    objective: int = Field(ge=1)
    objective_options: list[int]
    starting_hand: int = Field(ge=0)
    hand_limit: int = Field(ge=1)
    activations_per_turn: int = Field(ge=1)
    activation_cost: int = Field(ge=0)
    supplies_per_supply_unit: int = Field(ge=0)
    swap_divisor: int = Field(ge=1)
    dice: int = Field(ge=1)


class CommandPostsSpec(_Strict):
    side: Side
    defense: list[int]
    reconstructed: list[Literal["defense"]]
    source: str


class SuppliesSpec(_Strict):
    counters: dict[str, int]
    reconstructed: list[Literal["counters"]]
    source: str


class ComponentsFile(_Strict):
    schema_version: int
    rules: RulesSpec
    command_posts: list[CommandPostsSpec]
    supplies: SuppliesSpec


# -- the compiled board ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The board as indices into `grid` (hex i is `grid.labels[i]`); built once by `load_board()`.

    `terrain[i]`: one of TERRAIN_KINDS (a bridge is the river hex a road crosses). `sector[i]`: ALLIED
    north of the start line, AXIS south (4.3). `command_post_hexes[side]`: the yellow (ALLIED) or red
    (AXIS) hexes. `road_sides`: the hexsides a road runs along (a Supply unit steps only across these,
    7.5); `road_hexes`: the hexes on a road. `costs[mover]`: what each step costs that kind of mover.
    """

    grid: HexGrid
    terrain: tuple[str, ...]
    sector: tuple[int, ...]
    town_of: tuple[str | None, ...]
    towns: dict[str, tuple[int, ...]]
    town_names: dict[str, str]
    rivers: dict[str, tuple[int, ...]]
    bridges: dict[str, int]
    roads: dict[str, tuple[int, ...]]
    forests: dict[str, tuple[int, ...]]
    road_hexes: frozenset[int]
    road_sides: frozenset[int]
    command_post_hexes: tuple[tuple[int, ...], tuple[int, ...]]
    costs: dict[str, StepCosts]
    spec: BoardFile

    def at(self, label: str) -> int:
        """The index of the hex a printed label names."""
        return self.grid.at(label)

    def label(self, i: int) -> str:
        return self.grid.labels[i]

    def is_land_passable(self, i: int) -> bool:
        """6.1: a land unit may be in hex i (not a river, unless bridged)."""
        return self.terrain[i] != "river"

    def setup_hexes(self, side: int, unit_type: str) -> frozenset[int]:
        """Where `side` may place a unit of `unit_type` at setup (4.3): its own sector; not a Command
        Post hex; a land unit not on a river; a Supply unit only on a road or a bridge (7.5)."""
        return _setup_hexes(self, side, unit_type)

    def reach(
        self, start: int, mover: str, allowance: int, *, blocked: frozenset[int] = frozenset()
    ) -> dict[int, float]:
        """Every hex a `mover` ("land", "supply", "air") at `start` reaches within `allowance` hexes,
        never entering a `blocked` hex (6.1: enemy land units and, for land units, Command Posts);
        whether it may END in a hex it passes (a friendly unit's) is the rules' question."""
        return self.grid.movement_range(start, allowance, self.costs[mover], blocked=blocked).cost


@cache
def _setup_hexes(board: Board, side: int, unit_type: str) -> frozenset[int]:
    posts = set(board.command_post_hexes[0]) | set(board.command_post_hexes[1])
    out = []
    for i in range(board.grid.n):
        if board.sector[i] != side or i in posts:
            continue
        if unit_type == "aircraft":  # 4.3: "With the exception of aircraft units (V)"
            out.append(i)
        elif unit_type == "supply":
            if i in board.road_hexes:  # a bridge is on a road (checked on load)
                out.append(i)
        elif board.terrain[i] != "river":
            out.append(i)
    return frozenset(out)


def _hexes(grid: HexGrid, file: str, key: str, labels: list[str]) -> tuple[int, ...]:
    out = []
    for n, label in enumerate(labels):
        try:
            out.append(grid.at(label))
        except (KeyError, ValueError) as exc:
            raise DataFileError(file, f"{key}.{n}", str(exc).strip("'\"")) from None
    return tuple(out)


def _chain(grid: HexGrid, file: str, key: str, hexes: tuple[int, ...]) -> None:
    """A river or road: every hex adjacent to the next, none twice."""
    for n in range(1, len(hexes)):
        if grid.distance(hexes[n - 1], hexes[n]) != 1:
            raise DataFileError(
                file, f"{key}.{n}", f"{grid.labels[hexes[n]]} is not adjacent to {grid.labels[hexes[n - 1]]}"
            )
    if len(set(hexes)) != len(hexes):
        raise DataFileError(file, key, "passes a hex twice")


def _unique_ids(file: str, key: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for n, i in enumerate(ids):
        if i in seen:
            raise DataFileError(file, f"{key}.{n}.id", f"{i!r} is used twice")
        seen.add(i)


def compile_board(spec: BoardFile, file: str = BOARD_FILE.name) -> Board:
    """Check the board's facts against each other and build the indices (errors name file and key).

    Each step checks one kind of feature against those read before it (rivers and roads first, then
    the bridges on them, the towns and forests beside them, and last the Command Post hexes), so an
    error names the first key that disagrees with the rest."""
    m = spec.map
    grid = HexGrid(range(1, m.columns + 1), range(1, m.rows + 1), offset=m.offset)
    _check_outline(spec, file)
    rivers = _chains(grid, file, "rivers", spec.rivers)
    river_hexes = {i for hexes in rivers.values() for i in hexes}
    roads = _chains(grid, file, "roads", spec.roads)
    road_hexes = frozenset(i for hexes in roads.values() for i in hexes)
    road_sides = frozenset(grid.side(a, b) for hexes in roads.values() for a, b in zip(hexes, hexes[1:], strict=False))
    bridges = _bridges(grid, file, spec.bridges, rivers, road_hexes)
    bridge_hexes = set(bridges.values())
    _check_road_crossings(grid, file, spec.roads, roads, river_hexes, bridge_hexes)
    towns, town_names, town_of = _towns(grid, file, spec.towns, river_hexes, bridge_hexes)
    forests = _forests(grid, file, spec.forests, river_hexes, town_of)
    forest_hexes = {i for hexes in forests.values() for i in hexes}
    terrain = tuple(_kind(i, bridge_hexes, river_hexes, town_of, forest_hexes) for i in range(grid.n))
    last_north = spec.start_line.last_northern_row
    sector = tuple(ALLIED if int(label[2:]) <= last_north else AXIS for label in grid.labels)
    posts = [_post_hexes(grid, file, spec, side, terrain, sector) for side in (ALLIED, AXIS)]
    return Board(
        grid=grid,
        terrain=terrain,
        sector=sector,
        town_of=tuple(town_of),
        towns=towns,
        town_names=town_names,
        rivers=rivers,
        bridges=bridges,
        roads=roads,
        forests=forests,
        road_hexes=road_hexes,
        road_sides=road_sides,
        command_post_hexes=(posts[0], posts[1]),
        costs=_step_costs(grid, spec, terrain, road_sides),
        spec=spec,
    )


def _check_outline(spec: BoardFile, file: str) -> None:
    """The terrain kinds are the rules' five, the start line leaves a southern row, and no id is used twice."""
    if set(spec.terrain) != set(TERRAIN_KINDS):
        raise DataFileError(file, "terrain", f"must define exactly {', '.join(TERRAIN_KINDS)}")
    if not spec.start_line.last_northern_row < spec.map.rows:
        raise DataFileError(file, "start_line.last_northern_row", f"must be under the {spec.map.rows} rows")
    _unique_ids(file, "towns", [item.id for item in spec.towns])
    _unique_ids(file, "rivers", [item.id for item in spec.rivers])
    _unique_ids(file, "bridges", [item.id for item in spec.bridges])
    _unique_ids(file, "roads", [item.id for item in spec.roads])
    _unique_ids(file, "forests", [item.id for item in spec.forests])


def _chains(grid: HexGrid, file: str, key: str, items: Sequence[RiverSpec | PathSpec]) -> dict[str, tuple[int, ...]]:
    """The rivers or the roads: each a chain of adjacent hexes, by id."""
    out = {}
    for n, item in enumerate(items):
        hexes = _hexes(grid, file, f"{key}.{n}.hexes", item.hexes)
        _chain(grid, file, f"{key}.{n}.hexes", hexes)
        out[item.id] = hexes
    return out


def _bridges(
    grid: HexGrid, file: str, specs: list[BridgeSpec], rivers: dict[str, tuple[int, ...]], road_hexes: frozenset[int]
) -> dict[str, int]:
    """Each bridge's hex: on its river, with a road across it."""
    out = {}
    for n, bridge in enumerate(specs):
        (i,) = _hexes(grid, file, f"bridges.{n}.hex", [bridge.hex])
        if bridge.river not in rivers:
            raise DataFileError(file, f"bridges.{n}.river", f"no river {bridge.river!r}")
        if i not in rivers[bridge.river]:
            raise DataFileError(file, f"bridges.{n}.hex", f"{bridge.hex} is not on the {bridge.river}")
        if i not in road_hexes:
            raise DataFileError(file, f"bridges.{n}.hex", f"no road crosses the bridge at {bridge.hex}")
        out[bridge.id] = i
    return out


def _check_road_crossings(
    grid: HexGrid,
    file: str,
    specs: list[PathSpec],
    roads: dict[str, tuple[int, ...]],
    river_hexes: set[int],
    bridge_hexes: set[int],
) -> None:
    """A road crosses a river only at a bridge."""
    for n, road in enumerate(specs):
        for k, i in enumerate(roads[road.id]):
            if i in river_hexes and i not in bridge_hexes:
                raise DataFileError(file, f"roads.{n}.hexes.{k}", f"{grid.labels[i]} crosses a river with no bridge")


def _towns(
    grid: HexGrid, file: str, specs: list[TownSpec], river_hexes: set[int], bridge_hexes: set[int]
) -> tuple[dict[str, tuple[int, ...]], dict[str, str], list[str | None]]:
    """Each town's hexes and name, and the town (if any) of every hex: no town on an unbridged river
    hex, no hex in two towns."""
    towns, town_names = {}, {}
    town_of: list[str | None] = [None] * grid.n
    for n, town in enumerate(specs):
        hexes = _hexes(grid, file, f"towns.{n}.hexes", town.hexes)
        for k, i in enumerate(hexes):
            if i in river_hexes and i not in bridge_hexes:
                raise DataFileError(file, f"towns.{n}.hexes.{k}", f"{grid.labels[i]} is a river hex, not a bridge")
            if town_of[i] is not None:
                raise DataFileError(file, f"towns.{n}.hexes.{k}", f"{grid.labels[i]} is already {town_of[i]}")
            town_of[i] = town.id
        towns[town.id], town_names[town.id] = hexes, town.name
    return towns, town_names, town_of


def _forests(
    grid: HexGrid, file: str, specs: list[PathSpec], river_hexes: set[int], town_of: list[str | None]
) -> dict[str, tuple[int, ...]]:
    """Each forest's hexes: none a river or a town."""
    out = {}
    for n, forest in enumerate(specs):
        hexes = _hexes(grid, file, f"forests.{n}.hexes", forest.hexes)
        for k, i in enumerate(hexes):
            if i in river_hexes or town_of[i] is not None:
                raise DataFileError(file, f"forests.{n}.hexes.{k}", f"{grid.labels[i]} is a river or a town")
        out[forest.id] = hexes
    return out


def _kind(
    i: int, bridge_hexes: set[int], river_hexes: set[int], town_of: list[str | None], forest_hexes: set[int]
) -> str:
    """Hex i's terrain kind: a bridge before the river it spans, a town before a forest."""
    if i in bridge_hexes:
        return "bridge"
    if i in river_hexes:
        return "river"
    if town_of[i] is not None:
        return "town"
    return "forest" if i in forest_hexes else "countryside"


def _post_hexes(
    grid: HexGrid, file: str, spec: BoardFile, side: int, terrain: tuple[str, ...], sector: tuple[int, ...]
) -> tuple[int, ...]:
    """A side's Command Post hexes (yellow: ALLIED, red: AXIS): as many as its posts, distinct, in its
    own sector, on land (2.4, 4.2)."""
    colour = "yellow" if side == ALLIED else "red"
    labels = spec.command_post_hexes.yellow if side == ALLIED else spec.command_post_hexes.red
    key = f"command_post_hexes.{colour}"
    hexes = _hexes(grid, file, key, labels)
    if len(hexes) != COMMAND_POSTS_A_SIDE or len(set(hexes)) != COMMAND_POSTS_A_SIDE:
        raise DataFileError(
            file, key, f"needs {COMMAND_POSTS_A_SIDE} distinct hexes (2.4, 4.2: one Command Post a hex)"
        )
    for k, i in enumerate(hexes):
        if sector[i] != side:
            raise DataFileError(file, f"{key}.{k}", f"{grid.labels[i]} is not in the {SIDES[side]} sector")
        if not spec.terrain[terrain[i]].land:
            raise DataFileError(file, f"{key}.{k}", f"{grid.labels[i]} is a river hex")
    return hexes


def _step_costs(
    grid: HexGrid, spec: BoardFile, terrain: tuple[str, ...], road_sides: frozenset[int]
) -> dict[str, StepCosts]:
    """What each kind of mover pays a step: a hex a point, where it may go at all."""
    inf = math.inf
    land_enter = [1.0 if spec.terrain[t].land else inf for t in terrain]
    return {
        "land": StepCosts(grid, land_enter),  # 6.1: one hex a point; rivers only at bridges
        "supply": StepCosts(grid, [inf] * grid.n, side_cost={k: 1.0 for k in road_sides}),  # 7.5: along roads
        "air": StepCosts(grid, [1.0] * grid.n),  # 7.4: not restricted by the landscape
    }


@cache
def load_board(path: Path = BOARD_FILE) -> Board:
    return compile_board(load_toml(path, BoardFile), path.name)


# -- the order of battle -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OrderOfBattle:
    """The Annex: `kinds[side]` the kinds of counter a side has, in the Annex's order."""

    kinds: tuple[tuple[UnitSpec, ...], tuple[UnitSpec, ...]]

    def by_id(self, unit_id: str) -> UnitSpec:
        for side in self.kinds:
            for unit in side:
                if unit.id == unit_id:
                    return unit
        raise KeyError(f"no unit {unit_id!r}")

    def counters(self, side: int) -> tuple[UnitSpec, ...]:
        """Every counter of a side, each kind repeated `count` times (65: 2)."""
        return tuple(unit for unit in self.kinds[side] for _ in range(unit.count))


def compile_units(spec: UnitsFile, file: str = UNITS_FILE.name) -> OrderOfBattle:
    _unique_ids(file, "units", [u.id for u in spec.units])
    for n, unit in enumerate(spec.units):
        key = f"units.{n}"
        if (unit.type == "aircraft") != (unit.land_attack is not None):
            raise DataFileError(file, f"{key}.land_attack", "aircraft, and only aircraft, have a land attack (7.4)")
        if (unit.type == "artillery") != (unit.range is not None):
            raise DataFileError(file, f"{key}.range", "artillery, and only artillery, has a range (7.3)")
        if unit.foot and unit.type != "infantry":
            raise DataFileError(file, f"{key}.foot", "only infantry moves on foot (7.1)")
        if unit.type == "supply" and unit.attack != 0:
            raise DataFileError(file, f"{key}.attack", "Supply units have no attack capacity (7.5)")
    kinds = tuple(tuple(u for u in spec.units if u.side == side) for side in SIDES)
    for side, units in zip(SIDES, kinds, strict=True):
        total = sum(u.count for u in units)
        if total != UNITS_A_SIDE:
            raise DataFileError(file, "units", f"{side} has {total} counters; 2 says {UNITS_A_SIDE}")
    return OrderOfBattle(kinds=(kinds[0], kinds[1]))


@cache
def load_units(path: Path = UNITS_FILE) -> OrderOfBattle:
    return compile_units(load_toml(path, UnitsFile), path.name)


# -- components --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Components:
    """`rules`: the numbers the rulebook fixes; `command_posts[side]`: the 8 defence values (2.4);
    `supply_counters`: denomination -> how many of the 64 (2.3)."""

    rules: RulesSpec
    command_posts: tuple[tuple[int, ...], tuple[int, ...]]
    supply_counters: dict[int, int]


def compile_components(spec: ComponentsFile, file: str = COMPONENTS_FILE.name) -> Components:
    by_side: dict[str, tuple[int, ...]] = {}
    for n, posts in enumerate(spec.command_posts):
        if posts.side in by_side:
            raise DataFileError(file, f"command_posts.{n}.side", f"{posts.side} given twice")
        if len(posts.defense) != COMMAND_POSTS_A_SIDE or min(posts.defense) < 1:
            raise DataFileError(
                file, f"command_posts.{n}.defense", f"needs {COMMAND_POSTS_A_SIDE} values of at least 1 (2.4)"
            )
        by_side[posts.side] = tuple(posts.defense)
    for side in SIDES:
        if side not in by_side:
            raise DataFileError(file, "command_posts", f"no Command Posts for {side}")
    counters = {}
    for denomination, number in spec.supplies.counters.items():
        if not denomination.isdigit() or int(denomination) not in SUPPLY_DENOMINATIONS or number < 0:
            raise DataFileError(file, f"supplies.counters.{denomination}", "counters are of 1, 5 and 10 (2.3)")
        counters[int(denomination)] = number
    if sum(counters.values()) != SUPPLY_COUNTERS:
        raise DataFileError(file, "supplies.counters", f"{sum(counters.values())} counters; 2 says {SUPPLY_COUNTERS}")
    rules = spec.rules
    if rules.objective not in rules.objective_options or max(rules.objective_options) > COMMAND_POSTS_A_SIDE:
        raise DataFileError(file, "rules.objective", "must be one of objective_options, none over 8 (3)")
    return Components(rules=rules, command_posts=(by_side["allied"], by_side["axis"]), supply_counters=counters)


@cache
def load_components(path: Path = COMPONENTS_FILE) -> Components:
    return compile_components(load_toml(path, ComponentsFile), path.name)
