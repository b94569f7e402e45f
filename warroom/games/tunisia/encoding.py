"""Tunisia's observation as numbers, for the research environments (warroom.envs).

Read from a side's observation (warroom.games.tunisia.position.observation), never the state, so 6.0E's
hiding holds: the pieces beneath the top of an unexamined enemy stack are not in the view's "pieces", only
their number in "hidden", and they count here only through that number. The vector holds:

- the turn, the viewer, the phasing side, who acts (a side or the dice) and the step (one-hot over `Phase`);
- every land hex of the fixed map, in the grid's order (label order): for each side the units, their steps
  and combat factor, the support assets, their DRMs and any general seen there, and the enemy pieces hidden
  under its top;
- every counter, in the catalog's order: where it is (the hex as a column and a row scaled to [0, 1], or
  which box: off the map, the dead pile, the Return to Base box, removed), whether the view shows it, its
  step, whether it moved (and the MPs it spent) or attacked, and its part in what is being resolved (the
  battle's attacker, defender and air assets, retreating, breaking through, waiting to be placed);
- the battle (its hexes, dice, hits, stage), the breakthrough, the replacements left, the counters in each
  box per side, and what 4.0 looks at: the ports an Allied unit holds, the Allied airfields an Axis unit
  holds, the 8th Army hexes entered (17.0B), Patton's arrival, Tunis lost (7.7D) and the winner.

Counts are scaled to about [0, 1]. The game has one scenario and a fixed map, so the length is fixed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, NamedTuple

from warroom.engine.ruleset import CHANCE
from warroom.engine.vector import Vector

from .battle import DONE
from .board import load_board
from .catalog import SIDE_NAMES
from .state import BOX_NAMES, Battle, Phase

MAX_ACTIONS = 8192
"""More than any Tunisia position offers, with room to spare. The most come in a Movement Phase (8.0): one
move for every piece that may move to every hex it can reach, plus the end of the phase. On an empty map
(no enemy piece to block it or stop it with a zone of control, 8.7A, 9.1C, and its MA doubled, 8.6) a piece
reaches at most 304 hexes from any start (the six neighbours of 8.5 included), and the non-air pieces of a
side, counting a two-star piece and the one it replaces (16.0C) both, reach at most 4,747 (Axis, 25
pieces) and 7,713 (Allied, 37 pieces) together: under 8,192 with the end of the phase. Every other step
offers far fewer: an attack is a unit, one of six adjacent hexes and one of its side's air assets or none
(7.3A); a setup or placement piece one hex each (at most 305 land hexes); a replacement a dead support
asset and a village, port or airfield (7.7G-I). Random games (1,000 with the default setup and 200 with
both sides placing their own, seeds 0-999 and 0-199) reach at most 3,169 legal actions, always in a
Movement Phase of the last turns. tests/tunisia/test_encoding.py recomputes the sums from the data and
checks random games against the bound, as tests/test_envs.py does.
"""

MAX_CHANCE_OUTCOMES = 12
"""A d12 (10.2, 11.2, 12.1, 16.0A, 17.0A) has 12 outcomes, the Axis port roll's d6 (7.7C) 6; OpenSpiel
numbers them 0..11 by their place in `chance_outcomes`."""

PHASE_KEYS: tuple[str, ...] = tuple(p.name.lower() for p in Phase)
"""The view's "phase" values (position.state_to_json writes `Phase.name.lower()`)."""
BOXES: tuple[str, ...] = tuple(BOX_NAMES.values())
"""The view's names of the places off the map: off map, dead pile, Return to Base box, removed."""
ACTORS: tuple[str, ...] = (*SIDE_NAMES, CHANCE)
BATTLE_FIELDS: tuple[str, ...] = Battle._fields
"""The view's "battle" is `list(Battle)`: pieces and hexes as the catalog's and the grid's numbers."""


class Piece(NamedTuple):
    """What the counter sheet prints on one counter (static: no position is read)."""

    side: str
    unit: bool
    air: bool
    general: bool
    steps: int
    cf: int
    reduced_cf: int
    drm: int
    reduced_drm: int


class Tables(NamedTuple):
    """The fixed vocabularies the vector is laid out by."""

    turns: int  # the last turn (4.0B)
    hexes: tuple[str, ...]  # the land hexes, in the grid's order
    hex_index: dict[str, int]
    place: dict[str, tuple[float, float]]  # every hex label -> (column, row) scaled to [0, 1]
    labels: tuple[str, ...]  # every hex by its grid number (the view's battle record names hexes so)
    ids: tuple[str, ...]  # the counters, in the catalog's order
    number: dict[str, int]  # counter id -> its catalog number
    pieces: tuple[Piece, ...]
    ports: tuple[str, ...]
    allied_airfields: frozenset[str]  # 4.0B: the Allied silhouettes and Souk al Arba
    eighth_army: frozenset[str]
    tunis: str


@cache
def _tables() -> Tables:
    from .catalog import Catalog

    board = load_board()
    cat = Catalog(board)
    grid, spec = board.grid, board.map_data.grid
    labels = grid.labels
    hexes = tuple(labels[i] for i in range(grid.n) if i in board.land)
    width, height = max(1, spec.last_column - spec.first_column), max(1, spec.last_row - spec.first_row)
    place = {
        label: ((int(label[:2]) - spec.first_column) / width, (int(label[2:]) - spec.first_row) / height)
        for label in labels
    }
    pieces = tuple(
        Piece(
            SIDE_NAMES[cat.side[p]],
            cat.is_unit[p],
            cat.is_air[p],
            cat.is_general[p],
            cat.steps[p],
            cat.cf[p],
            cat.reduced_cf[p],
            cat.drm[p],
            cat.reduced_drm[p],
        )
        for p in range(cat.n)
    )
    return Tables(
        turns=board.counters.game.turns,
        hexes=hexes,
        hex_index={label: k for k, label in enumerate(hexes)},
        place=place,
        labels=tuple(labels),
        ids=tuple(cat.ids),
        number=dict(cat.index),
        pieces=pieces,
        ports=tuple(labels[i] for i in board.ports),
        allied_airfields=frozenset(
            labels[i] for i, f in board.airfields.items() if f.side == "allied" or f.counts_as_allied
        ),
        eighth_army=frozenset(labels[i] for i in board.eighth_army | {board.airbase}),
        tunis=labels[board.place_named["Tunis"]],
    )


HEX_FEATURES = 6
"""Per side and hex: units, their steps, their combat factor, support assets, their DRMs, a general."""


def _piece_id(tables: Tables, number: Any) -> str | None:
    """A piece named by its catalog number in the view's battle record (-1: none)."""
    return tables.ids[number] if isinstance(number, int) and 0 <= number < len(tables.ids) else None


def _label(tables: Tables, number: Any) -> str | None:
    """A hex named by its grid number in the view's battle record."""
    return tables.labels[number] if isinstance(number, int) and 0 <= number < len(tables.labels) else None


class TunisiaEncoding:
    """The ObservationEncoding of warroom.engine.spec for Tunisia (one scenario, one length)."""

    max_actions = MAX_ACTIONS
    max_chance_outcomes = MAX_CHANCE_OUTCOMES

    def size(self, scenario: str | None) -> int:
        return len(self.encode({}, None, scenario))

    def encode(self, observation: Mapping[str, Any], side: str | None, scenario: str | None) -> list[float]:
        tables = _tables()
        pieces: Mapping[str, Mapping[str, Any]] = observation.get("pieces") or {}
        v = Vector().number(observation.get("turn"), tables.turns).one_hot(side, SIDE_NAMES)
        v.one_hot(observation.get("player"), SIDE_NAMES).one_hot(observation.get("to_act"), ACTORS)
        v.one_hot(observation.get("phase"), PHASE_KEYS)
        self._hexes(v, tables, pieces, observation.get("hidden") or {})
        battle = dict(zip(BATTLE_FIELDS, observation.get("battle") or (), strict=False))
        self._pieces(v, tables, pieces, observation, battle)
        self._battle(v, tables, battle)
        v.flag(observation.get("bt_moved")).flag(observation.get("bt_attacked"))
        v.number(observation.get("replacements_left"), 3).number(len(observation.get("placing") or ()), 8)
        free = list(observation.get("free_setup") or ())
        v.flag(free[0] if free else False).flag(free[1] if len(free) > 1 else False)
        self._boxes(v, tables, pieces)
        self._victory(v, tables, pieces, observation)
        v.number(observation.get("supply_checks"), 16)
        return v.values

    def _hexes(
        self, v: Vector, tables: Tables, pieces: Mapping[str, Mapping[str, Any]], hidden: Mapping[str, int]
    ) -> None:
        """Per land hex: what each side shows there (HEX_FEATURES each), then the enemy pieces hidden under
        its top (6.0E), which are not in `pieces` and so never in the sums."""
        n = len(tables.hexes)
        sums = [[0.0] * (2 * HEX_FEATURES) for _ in range(n)]
        for pid, entry in pieces.items():
            k = tables.hex_index.get(str(entry.get("at")))
            number = tables.number.get(pid)
            if k is None or number is None:
                continue
            piece = tables.pieces[number]
            row = sums[k]
            base = HEX_FEATURES * SIDE_NAMES.index(piece.side)
            reduced = bool(entry.get("reduced"))
            if piece.unit:
                row[base] += 1
                row[base + 1] += 1 if reduced else piece.steps
                row[base + 2] += piece.reduced_cf if reduced else piece.cf
            else:
                row[base + 3] += 1
                row[base + 4] -= piece.reduced_drm if reduced else piece.drm  # a DRM helps as it goes below 0
            if piece.general:
                row[base + 5] = 1
        scales = (1, 2, 7, 3, 6, 1) * 2
        for k, label in enumerate(tables.hexes):
            v.values.extend(value / scale for value, scale in zip(sums[k], scales, strict=True))
            v.number(hidden.get(label), 3)

    def _pieces(
        self,
        v: Vector,
        tables: Tables,
        pieces: Mapping[str, Mapping[str, Any]],
        observation: Mapping[str, Any],
        battle: Mapping[str, Any],
    ) -> None:
        """Per counter: where, shown, its step and this phase's record, and its part in what is resolved."""
        roles = (
            {_piece_id(tables, battle.get("attacker"))},
            {_piece_id(tables, battle.get("defender"))},
            {_piece_id(tables, battle.get("attacker_air"))},
            {_piece_id(tables, battle.get("defender_air"))},
            set(observation.get("retreating") or ()),
            {observation.get("breakthrough")},
            set(observation.get("placing") or ()),
            set(list(observation.get("placing") or ())[:1]),
        )
        for pid in tables.ids:
            entry = pieces.get(pid) or {}  # absent: hidden (6.0E), or no observation: nothing known, all 0
            at = entry.get("at")
            column, row = tables.place.get(at, (0.0, 0.0)) if isinstance(at, str) else (0.0, 0.0)
            v.flag(at in tables.place).number(column).number(row).one_hot(at, BOXES).flag(entry)
            v.flag(entry.get("reduced")).flag(entry.get("moved")).number(entry.get("mp_spent"), 14)
            v.flag(entry.get("attacked")).flag(entry.get("origin"))
            v.values.extend(1.0 if pid in role else 0.0 for role in roles)

    def _battle(self, v: Vector, tables: Tables, battle: Mapping[str, Any]) -> None:
        """The attack being resolved (11.0-14.0): its hexes as places, its dice, hits and stage."""
        v.flag(battle)
        for key in ("origin", "target"):
            label = _label(tables, battle.get(key))
            column, row = tables.place.get(label, (0.0, 0.0)) if label else (0.0, 0.0)
            v.number(column).number(row)
        v.flag(battle and battle.get("defender", -1) < 0)  # 12.4: only support assets defend
        v.number(battle.get("attacker_air_roll"), 12).number(battle.get("attack_roll"), 12)
        v.flag(battle.get("attack_hits")).flag(battle.get("defense_hits")).flag(battle.get("breakthrough"))
        v.number(battle.get("stage"), DONE)  # battle.py's stages after the rolls, 0..DONE

    def _boxes(self, v: Vector, tables: Tables, pieces: Mapping[str, Mapping[str, Any]]) -> None:
        """Per side and box (off the map, dead pile, Return to Base, removed): units, then support assets, each
        as a share of the side's counters of that kind (the off-map box holds every unused battlegroup)."""
        counts = {(s, box, unit): 0 for s in SIDE_NAMES for box in BOXES for unit in (True, False)}
        for pid, entry in pieces.items():
            number = tables.number.get(pid)
            at = entry.get("at")
            if number is not None and at in BOXES:
                piece = tables.pieces[number]
                counts[(piece.side, at, piece.unit)] += 1
        totals = {(piece.side, piece.unit): 0 for piece in tables.pieces}
        for piece in tables.pieces:
            totals[(piece.side, piece.unit)] += 1
        v.values.extend(count / totals[(s, unit)] for (s, _box, unit), count in counts.items())

    def _victory(
        self, v: Vector, tables: Tables, pieces: Mapping[str, Mapping[str, Any]], observation: Mapping[str, Any]
    ) -> None:
        """What 4.0 and 7.7D look at. A unit is always the top of its stack (position.top_of_stack), so every
        hex holding a unit shows one in any side's view and these are the same for both sides (a second unit
        in a hex, mid-exchange in a Movement Phase (6.0D), is hidden beneath the first, its hex counted)."""
        allied_units: set[str] = set()
        axis_units: set[str] = set()
        for pid, entry in pieces.items():
            number = tables.number.get(pid)
            if number is None or not tables.pieces[number].unit:
                continue
            (axis_units if tables.pieces[number].side == SIDE_NAMES[0] else allied_units).add(str(entry.get("at")))
        v.multi_hot(allied_units, tables.ports)  # 4.0A: the five ports
        v.number(len(axis_units & tables.allied_airfields), 3)  # 4.0B: three Allied airfields
        v.flag(tables.tunis in allied_units)  # 7.7D: no Axis replacements
        v.flag(observation.get("axis_entered_eighth_army")).flag(axis_units & tables.eighth_army)  # 17.0B
        v.flag(observation.get("patton_arrived"))  # 16.0
        outcome = list(observation.get("outcome") or ())
        v.one_hot(SIDE_NAMES[outcome[0]] if outcome and outcome[0] in (0, 1) else None, SIDE_NAMES)
