"""Patton's static data: the TOML schema of a scenario (map, forces, setups, reserves) and the
movement deck, compiled to integer indices so the rules' hot path never touches a string."""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from warroom.engine.data import load_toml
from warroom.engine.errors import DataFileError
from warroom.engine.graph import Graph

DATA_DIR = Path(__file__).parent / "data"
SCENARIOS = ("normandy", "bulge", "sicily")
DECK_FILE = DATA_DIR / "deck.toml"
ROAD_COST = {"solid": 1, "dashed": 2, "dotted": 3}  # General Rules: Using Movement Points
SIDES = ("Allied", "Axis")
ALLIED, AXIS = 0, 1
SCENARIO_RULE = {"normandy": "Patton: Normandy", "bulge": "Patton: The Bulge", "sicily": "Patton: Sicily"}
"""How rule citations name each scenario's section of the rulebook."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TownSpec(_Strict):
    id: str
    name: str
    x: float
    y: float
    source: str
    red: bool = False  # Normandy objective towns (colored red)
    star: bool = False  # towns marked (*)
    front: bool = False  # Normandy: behind the Front Line
    defection: int | None = Field(default=None, ge=1)  # Sicily: number in the yellow circle


class RoadSpec(_Strict):
    a: str
    b: str
    kind: Literal["solid", "dashed", "dotted"]
    source: str


class LandingSpec(_Strict):
    id: str
    town: str
    capacity: int = Field(ge=1, le=10)
    x: float
    y: float
    source: str


class ForceSpec(_Strict):
    armor: int = Field(ge=0)
    infantry: int = Field(ge=0)
    source: str


class PlacementSpec(_Strict):
    """Where a side may place at the start (a placement phase checks these)."""

    fixed: dict[str, list[int]] = Field(default_factory=dict)  # town -> [armor, infantry]
    zone: Literal["front", "star", "any", "offboard"]
    exclude: list[Literal["front", "star", "fixed_towns", "enemy"]] = Field(default_factory=list)
    at_least_one_near: str | None = None  # Bulge: one unit in each town adjacent to this one
    source: str


class DefaultSetup(_Strict):
    towns: dict[str, list[int]]  # town -> [armor, infantry]
    source: str


class SideSpec(_Strict):
    name: str  # "American", "German", "Allied", "Axis": how the rulebook calls the side here
    force: ForceSpec
    placement: PlacementSpec
    default_setup: DefaultSetup
    dice_color: str


class ReserveSpec(_Strict):
    """One side's reserves (rulebook: each scenario's Reserves)."""

    trigger: Literal["doubles", "schedule"]
    optional_roll: bool = False  # Normandy: "may wait several turns before throwing"
    armor: int = 0  # units entering per success
    infantry: int = 0
    by_face: dict[str, list[int]] | None = None  # Sicily: face of the pair -> [armor, infantry]
    entries: int | None = None  # how many times reserves enter (None: unlimited)
    place: Literal["own_town", "star", "town"]
    town: str | None = None
    source: str


class ObjectiveSpec(_Strict):
    kind: Literal["red_towns", "relief_and_hold", "hold"]
    needed: int = 0  # red towns needed (Normandy)
    relieve: str | None = None  # Bulge: Bastogne
    hold: str | None = None  # Bulge: Wiltz; Sicily: Messina
    source: str


class ScenarioSpec(_Strict):
    id: str
    title: str
    deal: list[int] = Field(min_length=2, max_length=2)  # cards to [Allied, Axis]
    game_ends_card: bool
    turns: int | None = None  # with the Game Ends card: turns each side plays
    turn_limit: int | None = (
        None  # without the Game Ends card: a default turn limit (Sicily has none: it plays to its objective)
    )
    turn_limit_source: str | None = None
    source: str


class ScenarioData(_Strict):
    schema_version: int
    scenario: ScenarioSpec
    towns: list[TownSpec]
    roads: list[RoadSpec]
    landings: list[LandingSpec] = Field(default_factory=list)
    allied: SideSpec
    axis: SideSpec
    reserves: dict[Literal["allied", "axis"], ReserveSpec] = Field(default_factory=dict)
    objective: ObjectiveSpec

    @model_validator(mode="after")
    def _references(self) -> ScenarioData:
        """Every town a road, landing, setup, reserve or objective names is one of the towns, and each
        side's setups fit its force."""
        ids = [t.id for t in self.towns]
        known = set(ids)
        if len(known) != len(ids):
            raise ValueError("towns: duplicate town id")
        _check_roads(self.roads, known)
        for landing in self.landings:
            if landing.town not in known:
                raise ValueError(f"landing {landing.id}: unknown town {landing.town!r}")
        for side in (self.allied, self.axis):
            _check_side(side, known)
        for key, spec in self.reserves.items():
            if spec.place == "town" and spec.town not in known:
                raise ValueError(f"reserves.{key}: unknown town {spec.town!r}")
        obj = self.objective
        for objective_town in (obj.relieve, obj.hold):
            if objective_town is not None and objective_town not in known:
                raise ValueError(f"objective: unknown town {objective_town!r}")
        return self


def _check_roads(roads: list[RoadSpec], known: set[str]) -> None:
    """Each road joins two known towns, and no two roads join the same pair."""
    pairs = set()
    for road in roads:
        for end in (road.a, road.b):
            if end not in known:
                raise ValueError(f"road {road.a}-{road.b}: unknown town {end!r}")
        pair = frozenset((road.a, road.b))
        if len(pair) != 2 or pair in pairs:
            raise ValueError(f"road {road.a}-{road.b}: a loop or a second road between the same towns")
        pairs.add(pair)


def _check_side(side: SideSpec, known: set[str]) -> None:
    """A side's fixed placements and default setup name known towns with at most 10 Units each (General
    Rules: Positioning), and the default setup places the whole force (unless the side starts off the map)."""
    for table in (side.placement.fixed, side.default_setup.towns):
        for town, units in table.items():
            if town not in known:
                raise ValueError(f"{side.name}: unknown town {town!r}")
            if len(units) != 2 or min(units) < 0 or sum(units) > 10:
                raise ValueError(
                    f"{side.name} in {town}: give [armor, infantry], at most 10 units (General Rules: Positioning)"
                )
    near = side.placement.at_least_one_near
    if near is not None and near not in known:
        raise ValueError(f"{side.name}: unknown town {near!r}")
    armor = sum(u[0] for u in side.default_setup.towns.values())
    infantry = sum(u[1] for u in side.default_setup.towns.values())
    if side.placement.zone != "offboard" and (armor, infantry) != (side.force.armor, side.force.infantry):
        raise ValueError(
            f"{side.name}: the default setup places {armor}A {infantry}I, "
            f"the force is {side.force.armor}A {side.force.infantry}I"
        )


class DeckData(_Strict):
    schema_version: int
    cards: list[int] = Field(min_length=1)
    source: str

    @model_validator(mode="after")
    def _values(self) -> DeckData:
        if min(self.cards) < 1 or max(self.cards) > 12:
            raise ValueError("card values run from 1 to 12")
        return self


class Reserve:
    """A side's reserves compiled for the rules."""

    __slots__ = ("trigger", "optional_roll", "armor", "infantry", "by_face", "entries", "place", "town")

    def __init__(self, spec: ReserveSpec, town_index: dict[str, int]) -> None:
        self.trigger = spec.trigger
        self.optional_roll = spec.optional_roll
        self.armor, self.infantry = spec.armor, spec.infantry
        self.by_face: dict[int, tuple[int, int]] | None = None
        if spec.by_face is not None:
            self.by_face = {int(face): (units[0], units[1]) for face, units in spec.by_face.items()}
        self.entries = spec.entries
        self.place = spec.place
        self.town = town_index[spec.town] if spec.town else -1

    def entry(self, face: int) -> tuple[int, int]:
        """(armor, infantry) entering on a pair of `face`s."""
        if self.by_face is not None:
            return self.by_face[face]
        return self.armor, self.infantry


class Board:
    """One scenario's data compiled to indices: towns 0..n-1, roads 0..r-1, landing areas 0..l-1."""

    def __init__(self, data: ScenarioData, deck: DeckData, file_name: str) -> None:
        self.data = data
        self.file_name = file_name
        sc = data.scenario
        self.id, self.title = sc.id, sc.title
        self._compile_towns(data.towns)
        self._compile_roads(data)
        self._compile_sides(data)
        self._compile_cards(sc, deck, file_name)
        self._compile_objective(data.objective)
        self._check(file_name)
        self.distance = self._all_pairs()

    def _compile_towns(self, towns: list[TownSpec]) -> None:
        """The towns by index, with their marks (red, star, front, defection number) and the lists of each."""
        self.towns = towns
        self.n = len(towns)
        self.town_index = {t.id: k for k, t in enumerate(towns)}
        self.names = [t.id for t in towns]
        self.red = [t.red for t in towns]
        self.star = [t.star for t in towns]
        self.front = [t.front for t in towns]
        self.defection = [t.defection or 0 for t in towns]
        self.red_towns = [k for k in range(self.n) if self.red[k]]
        self.star_towns = [k for k in range(self.n) if self.star[k]]
        self.defection_towns = [k for k in range(self.n) if self.defection[k]]

    def _compile_roads(self, data: ScenarioData) -> None:
        """The roads as a graph and the landing areas on the towns."""
        index = self.town_index
        # roads: undirected index r; directed index d = 2r (a->b) or 2r+1 (b->a); the searches are the graph's
        self.graph: Graph[int] = Graph(self.names, [(r.a, r.b, r.kind, ROAD_COST[r.kind]) for r in data.roads])
        self.road_ends: list[tuple[int, int]] = self.graph.ends
        self.road_cost: list[int] = self.graph.costs
        self.road_kind: list[str] = self.graph.kinds
        self.road_between: dict[tuple[int, int], int] = self.graph.between
        self.out: list[list[tuple[int, int, int, int]]] = self.graph.out  # (d, road, to, cost)
        self.neighbours: list[list[int]] = self.graph.neighbours
        self.landings = data.landings
        self.landing_town = [index[la.town] for la in data.landings]
        self.landing_capacity = [la.capacity for la in data.landings]
        self.landing_index = {la.id: k for k, la in enumerate(data.landings)}

    def _compile_sides(self, data: ScenarioData) -> None:
        """Each side's name, force, setups (town index -> (armor, infantry)) and reserves."""
        index = self.town_index
        self.side_names = (data.allied.name, data.axis.name)
        self.sides = (data.allied, data.axis)
        self.force = [(s.force.armor, s.force.infantry) for s in self.sides]
        self.default_setup = [{index[t]: (u[0], u[1]) for t, u in s.default_setup.towns.items()} for s in self.sides]
        self.fixed_setup = [{index[t]: (u[0], u[1]) for t, u in s.placement.fixed.items()} for s in self.sides]
        self.reserves: list[Reserve | None] = [
            Reserve(data.reserves[key], index) if key in data.reserves else None for key in ("allied", "axis")
        ]

    def _compile_cards(self, sc: ScenarioSpec, deck: DeckData, file_name: str) -> None:
        """The deal, the game's length, and the deck (sorted, and a count per value): the deal uses it all."""
        self.deal = tuple(sc.deal)
        self.game_ends_card = sc.game_ends_card
        self.turns = sc.turns
        self.turn_limit = sc.turn_limit
        self.cards = sorted(deck.cards)
        if sum(self.deal) != len(self.cards):
            raise DataFileError(
                file_name, "scenario.deal", f"deals {sum(self.deal)} cards but the deck has {len(self.cards)}"
            )
        self.card_counts = [self.cards.count(v) for v in range(13)]

    def _compile_objective(self, obj: ObjectiveSpec) -> None:
        """The objective's kind and its towns by index (-1: none)."""
        index = self.town_index
        self.objective = obj.kind
        self.red_needed = obj.needed
        self.relieve = index[obj.relieve] if obj.relieve else -1
        self.hold = index[obj.hold] if obj.hold else -1

    def _check(self, file_name: str) -> None:
        if self.objective == "red_towns" and len(self.red_towns) < self.red_needed:
            raise DataFileError(
                file_name, "towns", f"{len(self.red_towns)} red towns, the objective needs {self.red_needed}"
            )
        if self.objective == "relief_and_hold" and (self.relieve < 0 or self.hold < 0 or not self.star_towns):
            raise DataFileError(file_name, "objective", "relief needs a town to relieve, a town to hold and (*) towns")
        if self.objective == "hold" and self.hold < 0:
            raise DataFileError(file_name, "objective", "needs the town to hold")
        if self.game_ends_card and not self.turns:
            raise DataFileError(
                file_name, "scenario.turns", "a scenario with the Game Ends card needs its number of turns"
            )
        if not self.game_ends_card and not self.turn_limit and self.objective != "hold":
            raise DataFileError(
                file_name,
                "scenario.turn_limit",
                "a scenario without the Game Ends card plays until its objective "
                "is decided: it needs a town to hold (objective kind 'hold') or a turn limit",
            )

    def _all_pairs(self) -> list[list[int]]:
        """Road distance in Movement Points between every pair of towns (10**6 between towns no road joins)."""
        return [[int(c) if c < math.inf else 10**6 for c in row] for row in self.graph.all_pairs_costs()]


def mix_text(armor: int, infantry: int) -> str:
    """The id spelling of a group of units: 2A1I, 3I, 1A."""
    return (f"{armor}A" if armor else "") + (f"{infantry}I" if infantry else "")


_MIX = re.compile(r"(?:(\d+)A)?(?:(\d+)I)?")
_TYPED_MIX = re.compile(r"\s*(?:(\d+)\s*A)?\s*(?:(\d+)\s*I)?\s*", re.IGNORECASE)


def parse_mix(text: str, typed: bool = False) -> tuple[int, int] | None:
    """`mix_text` read back, the one reader of a force ("2A1I" -> (2, 1)); None when `text` is not one.

    In an action id a group holds at least one Unit. `typed` reads a force as a person types it on
    the command line (`warroom odds patton --attacker 2a3i`): any case, spaces between the parts, and
    a force of no Units ("0A"), which the odds calculator answers too."""
    found = (_TYPED_MIX if typed else _MIX).fullmatch(text)
    if found is None or (found.group(1) is None and found.group(2) is None):
        return None
    armor, infantry = int(found.group(1) or 0), int(found.group(2) or 0)
    if armor + infantry == 0 and not typed:
        return None
    return armor, infantry


def scenario_file(scenario: str) -> Path:
    return DATA_DIR / f"{scenario}.toml"


@cache
def load_deck(path: Path = DECK_FILE) -> DeckData:
    return load_toml(path, DeckData)


@cache
def load_board(scenario: str, path: Path | None = None) -> Board:
    file = path or scenario_file(scenario)
    return Board(load_toml(file, ScenarioData), load_deck(), file.name)
