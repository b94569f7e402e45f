"""Dragoon's static data: the TOML schema, and the board compiled to indices for fast rules."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from warroom.engine.data import load_toml
from warroom.engine.errors import DataFileError

DATA_FILE = Path(__file__).parent / "data" / "dragoon.toml"
NEVER = 99
"""The arrival turn of a unit that never arrives (it starts on the map): after every game's last turn."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LocationSpec(_Strict):
    id: str
    name: str
    kind: Literal["beach", "drop_zone", "town", "port", "escape"]
    x: float
    y: float
    source: str
    vp: int = 0
    fortress: bool = False
    desperate_for: str | None = None
    number: int | None = None


class AlliedSpec(_Strict):
    id: str
    name: str
    nation: str
    route: list[str] = Field(min_length=2)
    attack_only: str | None = None
    landing_turn: int | None = None
    color: str
    source: str


class GermanSpec(_Strict):
    id: str
    name: str
    kind: Literal["infantry", "security", "panzer"]
    source: str
    route_of: str | None = None
    start: str | None = None
    arrival_turn: int | None = None
    never_eliminated: bool = False
    retreat_beyond: str | None = None
    desperate_at_start: bool = False

    @model_validator(mode="after")
    def _placed_once(self) -> GermanSpec:
        if (self.start is None) == (self.arrival_turn is None):
            raise ValueError(f"{self.id}: give exactly one of start (a route unit) or arrival_turn (escape column)")
        if self.start is not None and self.route_of is None:
            raise ValueError(f"{self.id}: a unit with a start location needs route_of")
        return self


class AttackChart(_Strict):
    advance_on: int = Field(ge=1, le=6)
    fortress_drm: int
    desperate_drm: int
    desperate_panzer_drm: int
    air_drm: int
    stall_on: int
    source: str


class RpChart(_Strict):
    source: str
    designated: dict[str, int]
    roll: dict[str, int]

    @model_validator(mode="after")
    def _six_faces(self) -> RpChart:
        if sorted(self.roll) != [str(face) for face in range(1, 7)]:
            raise ValueError("roll must give RPs for each die face 1..6")
        return self


class BotEffect(_Strict):
    kind: Literal["bad_weather", "stall", "desperate", "attack"]
    units: list[str] | Literal["adjacent"] | None = None


class BotLine(_Strict):
    roll: int = Field(ge=1, le=6)
    title: str
    text: str
    effects: list[BotEffect]
    source: str


class GameSpec(_Strict):
    first_turn: int
    last_turn: int
    source: str


class DragoonData(_Strict):
    schema_version: int
    game: GameSpec
    locations: list[LocationSpec]
    allied: list[AlliedSpec]
    german: list[GermanSpec]
    attack_chart: AttackChart
    rp_chart: RpChart
    bot_chart: list[BotLine]

    @model_validator(mode="after")
    def _references(self) -> DragoonData:
        places = {loc.id for loc in self.locations}
        allied = {unit.id for unit in self.allied}
        german = {unit.id for unit in self.german}
        for unit in self.allied:
            for stop in [*unit.route, *([unit.attack_only] if unit.attack_only else [])]:
                if stop not in places:
                    raise ValueError(f"allied {unit.id}: unknown location {stop!r}")
        for gunit in self.german:
            if gunit.start and gunit.start not in places:
                raise ValueError(f"german {gunit.id}: unknown start {gunit.start!r}")
            if gunit.route_of and gunit.route_of not in allied:
                raise ValueError(f"german {gunit.id}: unknown route_of {gunit.route_of!r}")
        if sorted(line.roll for line in self.bot_chart) != list(range(1, 7)):
            raise ValueError("bot_chart needs one line for each roll 1..6")
        for line in self.bot_chart:
            for effect in line.effects:
                if isinstance(effect.units, list):
                    unknown = [u for u in effect.units if u not in allied | german]
                    if unknown:
                        raise ValueError(f"bot_chart roll {line.roll}: unknown units {unknown}")
        return self


class Board:
    """The data compiled to integer indices: the rules' hot path never touches a string."""

    def __init__(self, data: DragoonData) -> None:
        self.data = data
        self.first_turn, self.last_turn = data.game.first_turn, data.game.last_turn
        self.locations = data.locations
        self.loc_index = {loc.id: i for i, loc in enumerate(data.locations)}
        self.allied = data.allied
        self.allied_index = {u.id: i for i, u in enumerate(data.allied)}
        self.german = data.german
        self.german_index = {u.id: i for i, u in enumerate(data.german)}
        self._index_places()
        self._index_german_units()
        self._read_charts()
        self.named = {
            **{u.id: ("allied", i) for i, u in enumerate(data.allied)},
            **{g.id: ("german", i) for i, g in enumerate(data.german)},
        }
        self._name_what_the_rules_name()

    def _index_places(self) -> None:
        """The Allied routes and the locations' facts, as location indices."""
        data, index = self.data, self.loc_index
        self.routes: list[tuple[int, ...]] = [tuple(index[s] for s in u.route) for u in data.allied]
        self.attack_only: list[int] = [index[u.attack_only] if u.attack_only else -1 for u in data.allied]
        self.landing_turn: list[int | None] = [u.landing_turn for u in data.allied]
        self.fortress = [loc.fortress for loc in data.locations]
        self.vp = [loc.vp for loc in data.locations]
        self.desperate_for = [
            self.german_index[loc.desperate_for] if loc.desperate_for else -1 for loc in data.locations
        ]
        escape = sorted((loc for loc in data.locations if loc.kind == "escape"), key=lambda loc: -(loc.number or 0))
        self.escape_track: tuple[int, ...] = tuple(index[loc.id] for loc in escape)  # Arles first, Montelimar last
        self.escape_pos = {loc: k for k, loc in enumerate(self.escape_track)}

    def _index_german_units(self) -> None:
        """Each German unit's route, kind, track and arrival, as indices (after `_index_places`)."""
        data = self.data
        self.route_of: list[int] = [self.allied_index[g.route_of] if g.route_of else -1 for g in data.german]
        self.is_panzer = [g.kind == "panzer" for g in data.german]
        self.never_eliminated = [g.never_eliminated for g in data.german]
        self.german_route = self._german_routes()
        self.retreat_beyond = [g.retreat_beyond for g in data.german]
        self.arrivals = {g.arrival_turn: self.german_index[g.id] for g in data.german if g.arrival_turn is not None}
        self.panzer = next((i for i, g in enumerate(data.german) if g.kind == "panzer"), -1)
        self.bot_attackers = [i for i, g in enumerate(data.german) if g.route_of or g.kind == "panzer"]
        self.escape_column: tuple[int, ...] = tuple(g for g, owner in enumerate(self.route_of) if owner < 0)
        """The German units with no Allied route to defend: they march along the escape track (German Movement)."""
        self.arrival_due: tuple[int, ...] = tuple(g.arrival_turn or NEVER for g in data.german)
        """Per German unit, the turn from which it may arrive at Arles (NEVER: it starts on the map)."""
        self.arrival_order: tuple[int, ...] = tuple(
            sorted(range(len(data.german)), key=lambda g: data.german[g].arrival_turn or 0)
        )
        """The German units in the order they arrive (by arrival turn, ties in unit order)."""

    def _read_charts(self) -> None:
        """The attack chart's numbers, the RP chart and the BOT chart, by index (after `_index_german_units`)."""
        data = self.data
        chart = data.attack_chart
        self.advance_on, self.stall_on, self.air_drm = chart.advance_on, chart.stall_on, chart.air_drm
        self.fortress_drm = chart.fortress_drm
        self.desperate_drm = [chart.desperate_panzer_drm if p else chart.desperate_drm for p in self.is_panzer]
        self.rp_designated = {int(t): n for t, n in data.rp_chart.designated.items()}
        self.rp_roll = {int(face): n for face, n in data.rp_chart.roll.items()}
        self.bot_lines = {line.roll: line for line in data.bot_chart}
        self.bot_effects: dict[int, tuple[tuple[str, tuple[int, ...] | None], ...]] = {
            line.roll: tuple((effect.kind, self._effect_units(effect)) for effect in line.effects)
            for line in data.bot_chart
        }
        """Per BOT roll, its line's effects with the units they name as indices (None: "adjacent", decided
        by the position), read once: bot.py runs one every turn of every playout."""

    def _name_what_the_rules_name(self) -> None:
        """The places and units the special rules name, which the data must hold (else a DataFileError)."""
        index = self.loc_index
        self._require(("Avignon", "Montelimar", "Bollene", "Crest"), "locations")
        self._require(("VI-Corps", "3rd-ID"), "allied")
        self._require(("198-ID",), "german")
        self.avignon, self.montelimar = index["Avignon"], index["Montelimar"]
        self.bollene, self.crest = index["Bollene"], index["Crest"]
        self.marseilles, self.toulon = index.get("Marseilles", -1), index.get("Toulon", -1)
        self.vi_corps, self.us_3rd = self.allied_index["VI-Corps"], self.allied_index["3rd-ID"]
        self.id_198 = self.german_index["198-ID"]

    def _german_routes(self) -> list[tuple[int, ...]]:
        """Each German unit's track: the locations it holds and retreats along, front first.

        A route unit's track is its Allied unit's route up to the location where it turns
        desperate: the rulebook's "last location on their track" (19th Army RS at Crest, 244th ID
        at Marseilles, 338th ID at Orgon, 242nd ID at Toulon) is where each turns desperate. The
        148th ID, which is never eliminated, keeps the whole route and goes on to Italy. Units of
        the escape column have no track (empty): they retreat along the escape track.
        """
        tracks = []
        for g, owner in enumerate(self.route_of):
            route = self.routes[owner] if owner >= 0 else ()
            last = next((k for k, loc in enumerate(route) if self.desperate_for[loc] == g), -1)
            if last >= 0 and not self.never_eliminated[g]:
                route = route[: last + 1]
            tracks.append(route)
        return tracks

    def _effect_units(self, effect: BotEffect) -> tuple[int, ...] | None:
        """The units a BOT effect names, as Allied (stall) or German indices; None for "adjacent"."""
        if effect.units == "adjacent":
            return None
        index = self.allied_index if effect.kind == "stall" else self.german_index
        return tuple(index[name] for name in effect.units or [] if name in index)

    def _require(self, ids: tuple[str, ...], table: str) -> None:
        known = {"locations": self.loc_index, "allied": self.allied_index, "german": self.german_index}[table]
        for needed in ids:
            if needed not in known:
                raise DataFileError(DATA_FILE.name, table, f"the rules name {needed!r}, which the data lacks")


@cache
def load_board(path: Path = DATA_FILE) -> Board:
    return Board(load_toml(path, DragoonData))
