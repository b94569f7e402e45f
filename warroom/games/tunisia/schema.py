"""The shapes of Tunisia's data files (map.toml, terrain.toml, counters.toml), which pydantic checks as they are
read: every key known, every value of its kind and range, every hex label four digits and every hexside two of
them. What the values must mean together on the map (labels on it, chains adjacent, setups legal) board.py and
pieces.py check as they compile them.
"""

from __future__ import annotations

import math
import re
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["COUNTRIES", "SETUP_ZONES", "SIDES", "TERRAINS", "CountersData", "MapData", "TerrainData"]

SIDES = ("allied", "axis")
TERRAINS = ("open", "rough", "mountain", "chott", "sea")
COUNTRIES = ("algeria", "tunisia", "sea")
LABEL = re.compile(r"^\d{4}$")
SetupZone = Literal[
    "algeria",
    "tunisia",
    "eighth_army",
    "ii_corps",
    "near_bone",
    "allied_airfield",
    "axis_airfield",
    "hex",
    "patton",
]
"""Where a piece sets up (5.0): the counters file's `setup` field names one."""
SETUP_ZONES: tuple[str, ...] = get_args(SetupZone)


def _label(value: str) -> str:
    if not LABEL.match(value):
        raise ValueError(f"hex label {value!r}: four digits, column then row")
    return value


def _hexside(value: str) -> str:
    a, sep, b = value.partition("/")
    if not sep or not LABEL.match(a) or not LABEL.match(b):
        raise ValueError(f"hexside {value!r}: two hex labels joined by '/', like \"8308/8408\"")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- map.toml --------------------------------------------------------------------------------------
class PlaceSpec(_Strict):
    hex: str
    name: str
    kind: Literal["village", "port"]
    lon: float
    lat: float
    reconstructed: bool
    source: str

    _hex = field_validator("hex")(_label)


class AirfieldSpec(_Strict):
    hex: str
    name: str
    side: Literal["allied", "axis"]
    counts_as_allied: bool = False  # 4.0B: "the Axis airfield at Souk al Arba" counts among the Allied ones
    reconstructed: bool

    _hex = field_validator("hex")(_label)


class GridSpec(_Strict):
    first_column: int = Field(ge=0, le=99)
    last_column: int = Field(ge=0, le=99)
    first_row: int = Field(ge=0, le=99)
    last_row: int = Field(ge=0, le=99)
    offset: Literal["even-q", "odd-q"]
    reconstructed: bool


class CalibrationSpec(_Strict):
    column_at: int
    longitude_at: float
    degrees_per_column: float = Field(gt=0)
    row_at: int
    latitude_at: float
    degrees_per_row: float = Field(gt=0)


class CharGrid(_Strict):
    """One character a hex, a row a string: "07 .~..r" (the row number, then the columns in order)."""

    reconstructed: bool
    legend: dict[str, str]
    rows: list[str]


class SetupHexes(_Strict):
    eighth_army: list[str]
    ii_corps: list[str]
    ii_corps_reconstructed: bool
    bone: str
    mareth: str
    airbase: str
    broich: str

    _labels = field_validator("eighth_army", "ii_corps")(lambda v: [_label(x) for x in v])
    _one = field_validator("bone", "mareth", "airbase", "broich")(_label)


class ChainSpec(_Strict):
    """A road, the railway or a mountain range: a chain of hexes, each adjacent to the next (roads)."""

    name: str
    reconstructed: bool
    hexes: list[str] = Field(min_length=1)

    _labels = field_validator("hexes")(lambda v: [_label(x) for x in v])


class RiverSpec(_Strict):
    name: str
    reconstructed: bool
    hexsides: list[str] = Field(min_length=1)

    _sides = field_validator("hexsides")(lambda v: [_hexside(x) for x in v])


class BridgeSpec(_Strict):
    reconstructed: bool
    hexsides: list[str]

    _sides = field_validator("hexsides")(lambda v: [_hexside(x) for x in v])


class MapData(_Strict):
    schema_version: int
    places: list[PlaceSpec]
    airfields: list[AirfieldSpec]
    grid: GridSpec
    calibration: CalibrationSpec
    terrain: CharGrid
    countries: CharGrid
    setup_hexes: SetupHexes
    ranges: list[ChainSpec] = Field(default_factory=list)
    roads: list[ChainSpec]
    railways: list[ChainSpec] = Field(default_factory=list)
    rivers: list[RiverSpec]
    bridges: BridgeSpec


# -- terrain.toml ----------------------------------------------------------------------------------
Cost = float | Literal["inf"]


class HexTerrain(_Strict):
    mp: Cost
    combat: int = Field(ge=0, le=12)
    reconstructed: list[str]
    rule: str = ""

    @property
    def cost(self) -> float:
        return math.inf if self.mp == "inf" else float(self.mp)


class SideTerrain(_Strict):
    mp: float = Field(ge=0)
    combat: int = Field(default=0, ge=0, le=12)
    bridged_mp: float = Field(default=0, ge=0)
    bridged_combat: int = Field(default=0, ge=0, le=12)
    reconstructed: list[str]
    rule: str = ""


class TerrainData(_Strict):
    schema_version: int
    hexes: dict[str, HexTerrain]  # the terrains (TERRAINS) and the places ("village", "port")
    hexsides: dict[str, SideTerrain]  # "river", "road", "railway"

    @field_validator("hexes")
    @classmethod
    def _hex_kinds(cls, v: dict[str, HexTerrain]) -> dict[str, HexTerrain]:
        unknown = set(v) - {*TERRAINS, "village", "port"}
        if unknown:
            raise ValueError(
                f"unknown terrain {sorted(unknown)[0]!r}: one of {', '.join((*TERRAINS, 'village', 'port'))}"
            )
        return v

    @field_validator("hexsides")
    @classmethod
    def _side_kinds(cls, v: dict[str, SideTerrain]) -> dict[str, SideTerrain]:
        unknown = set(v) - {"river", "road", "railway"}
        if unknown:
            raise ValueError(f"unknown hexside feature {sorted(unknown)[0]!r}: one of river, road, railway")
        return v


# -- counters.toml ---------------------------------------------------------------------------------
class GameSpec(_Strict):
    turns: int = Field(ge=1)
    first_turn: str
    days_per_turn: int = Field(ge=1)
    patton_forced_arrival_turn: int = Field(ge=1)
    rommel_recall_turns: int = Field(ge=0)
    reconstructed: list[str]
    rule: str = ""


class ReplacementSpec(_Strict):
    axis: int = Field(ge=0)
    allied: int = Field(ge=0)
    axis_port_die: int = Field(ge=2)
    reconstructed: list[str]


class BattlegroupSpec(_Strict):
    allied: int = Field(ge=0)
    axis: int = Field(ge=0)
    cf: int = Field(ge=1, le=12)
    ma: int = Field(ge=1)
    reconstructed: list[str]


class _PieceSpec(_Strict):
    id: str
    name: str
    side: Literal["allied", "axis"]
    nationality: Literal["us", "british", "french", "new_zealand", "indian", "german", "italian"]
    corps: Literal["ii_corps", "eighth_army"] | None = None
    two_star: bool = False  # 5.1A, 16.0C: the improved II Corps pieces that come with Patton
    replaces: str | None = None  # the piece of the same name a two-star one is swapped for (16.0C)
    steps: int = Field(ge=1, le=2)  # 1: nothing printed on the back, reduced means eliminated (13.1B)
    setup: SetupZone
    hex: str | None = None  # setup "hex": the fixed hex (5.1B, 5.2B)
    default: str | None = None  # the default setup's hex
    reconstructed: list[str]  # the keys reconstructed ("*": every value)
    rule: str = ""

    @field_validator("hex", "default")
    @classmethod
    def _labels(cls, v: str | None) -> str | None:
        return None if v is None else _label(v)


class UnitSpec(_PieceSpec):
    type: Literal["armor", "infantry", "mechanized", "airborne"]
    cf: int = Field(ge=1, le=12)
    ma: int = Field(ge=1)
    reduced_cf: int | None = Field(default=None, ge=0, le=12)
    reduced_ma: int | None = Field(default=None, ge=1)


class SupportSpec(_PieceSpec):
    kind: Literal["general", "artillery", "antitank", "armor", "naval_infantry", "air"]
    drm: int = Field(le=0, ge=-12)
    reduced_drm: int | None = Field(default=None, le=0, ge=-12)
    ma: int | None = Field(default=None, ge=1)  # non-air assets (2.1C)
    range: int | None = Field(default=None, ge=1)  # air assets: the range factor instead of an MA (2.1C)


class CountersData(_Strict):
    schema_version: int
    game: GameSpec
    replacements: ReplacementSpec
    battlegroups: BattlegroupSpec
    units: list[UnitSpec]
    supports: list[SupportSpec]
