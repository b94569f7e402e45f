"""Tunisia's counters compiled against the map: each piece of counters.toml checked (2.1C, 13.1B: its two sides;
5.1-5.2, 16.0C: its setup), given the hexes it may set up in and its default hex, and the default setup checked
as a whole (5.1-5.2, 6.0). A problem is a `DataFileError` naming counters.toml's key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warroom.engine.errors import DataFileError

from .schema import CountersData, SupportSpec, UnitSpec

if TYPE_CHECKING:
    from .board import Board

__all__ = ["Piece", "compile_pieces"]

AXIS_NEVER = ("algeria", "near_bone", "eighth_army", "ii_corps", "allied_airfield", "patton")
"""5.2: the setups no Axis piece has (it sets up in Tunisia)."""
ALLIED_NEVER = ("tunisia", "axis_airfield")
"""5.1: the setups no Allied piece has."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One counter, compiled: a unit (cf/ma) or a support asset (drm, ma or an air range)."""

    id: str
    name: str
    side: str
    is_unit: bool
    kind: str  # a unit's type or a support asset's kind
    nationality: str
    corps: str | None
    two_star: bool
    replaces: str | None
    steps: int
    cf: int  # 0 for a support asset
    reduced_cf: int | None
    ma: int  # 0 for an air asset
    reduced_ma: int | None
    drm: int  # 0 for a unit
    reduced_drm: int | None
    range: int  # air assets only, else 0
    setup: str
    setup_hexes: frozenset[int]  # where it may set up (empty: enters later, with Patton)
    default: int | None  # its hex in the default setup (None: not set up)

    @property
    def is_air(self) -> bool:
        return self.kind == "air"

    @property
    def is_general(self) -> bool:
        return self.kind == "general"


def compile_pieces(board: Board, counters: CountersData, file: str) -> dict[str, Piece]:
    """Every unit, then every support asset, by id, each checked as it is read; then the pieces the two-star
    ones replace (16.0C) and the default setup (5.1-5.2, 6.0)."""
    pieces: dict[str, Piece] = {}
    specs: list[tuple[str, UnitSpec | SupportSpec]] = [(f"units[{k}]", u) for k, u in enumerate(counters.units)]
    specs += [(f"supports[{k}]", s) for k, s in enumerate(counters.supports)]
    for key, spec in specs:
        if spec.id in pieces:
            raise DataFileError(file, f"{key}.id", f"{spec.id!r} is used twice")
        _check_sides(spec, key, file)
        _check_setup_rule(spec, key, file)
        zone = _setup_hexes(board, spec, key, file)
        pieces[spec.id] = _piece(spec, zone, _default_hex(board, spec, zone, key, file))
    _check_replacements(pieces, specs, file)
    _check_default_setup(board, pieces, file)
    return pieces


def _check_sides(spec: UnitSpec | SupportSpec, key: str, file: str) -> None:
    """13.1B: a two-step piece prints its reduced side's values, a one-step piece none; 2.1C: an air asset has a
    range and no MA, any other support asset an MA."""
    if spec.steps == 2 and (spec.reduced_cf is None if isinstance(spec, UnitSpec) else spec.reduced_drm is None):
        raise DataFileError(file, key, f"{spec.id}: two steps need the reduced side's values")
    if spec.steps == 1 and (
        spec.reduced_cf is not None if isinstance(spec, UnitSpec) else spec.reduced_drm is not None
    ):
        raise DataFileError(file, key, f"{spec.id}: a one-step piece has nothing on its back (13.1B)")
    if isinstance(spec, SupportSpec) and (spec.kind == "air") != (spec.range is not None and spec.ma is None):
        raise DataFileError(file, key, f"{spec.id}: an air asset has a range and no MA, any other an MA (2.1C)")


def _check_setup_rule(spec: UnitSpec | SupportSpec, key: str, file: str) -> None:
    """5.1-5.2: each side's pieces set up on its own side of the map; 16.0C: two-star pieces, and only they and
    Patton, enter with Patton, each naming the piece it replaces."""
    if spec.side == "axis" and spec.setup in AXIS_NEVER:
        raise DataFileError(file, f"{key}.setup", f"{spec.id}: an Axis piece sets up in Tunisia (5.2)")
    if spec.side == "allied" and spec.setup in ALLIED_NEVER:
        raise DataFileError(file, f"{key}.setup", f"{spec.id}: Allied pieces set up as 5.1 says")
    if spec.two_star != (spec.setup == "patton" and spec.id != "Patton") or (spec.two_star and spec.replaces is None):
        raise DataFileError(
            file,
            key,
            f"{spec.id}: two-star pieces, and only they and Patton, enter with Patton "
            "and name the piece they replace (16.0C)",
        )


def _setup_hexes(board: Board, spec: UnitSpec | SupportSpec, key: str, file: str) -> frozenset[int]:
    """Where the piece may set up: its fixed hex (setup "hex", 5.1B, 5.2B) or its zone's hexes (empty only for
    those entering with Patton, 16.0)."""
    if spec.setup == "hex":
        if spec.hex is None:
            raise DataFileError(file, f"{key}.hex", f"{spec.id}: setup 'hex' needs the hex")
        return frozenset({_hex_at(board, spec.hex, file, f"{key}.hex")})
    if spec.hex is not None:
        raise DataFileError(file, f"{key}.hex", f"{spec.id}: a fixed hex with setup {spec.setup!r}")
    zone = board.setup_zone(spec.setup)
    if spec.setup != "patton" and not zone:
        raise DataFileError(file, f"{key}.setup", f"{spec.id}: the zone {spec.setup!r} has no hex on this map")
    return zone


def _default_hex(board: Board, spec: UnitSpec | SupportSpec, zone: frozenset[int], key: str, file: str) -> int | None:
    """The piece's hex in the default setup, inside its zone; none only for those entering with Patton."""
    default = None if spec.default is None else _hex_at(board, spec.default, file, f"{key}.default")
    if (default is None) != (spec.setup == "patton"):
        raise DataFileError(
            file, f"{key}.default", f"{spec.id}: every piece but those entering with Patton has a default hex"
        )
    if default is not None and default not in zone:
        raise DataFileError(
            file,
            f"{key}.default",
            f"{spec.id}: {board.grid.labels[default]} is outside its setup zone {spec.setup!r}",
        )
    return default


def _piece(spec: UnitSpec | SupportSpec, zone: frozenset[int], default: int | None) -> Piece:
    """The compiled counter: a unit's CF and MA, or a support asset's DRM and its MA or air range."""
    if isinstance(spec, UnitSpec):
        return Piece(
            spec.id,
            spec.name,
            spec.side,
            True,
            spec.type,
            spec.nationality,
            spec.corps,
            spec.two_star,
            spec.replaces,
            spec.steps,
            spec.cf,
            spec.reduced_cf,
            spec.ma,
            spec.reduced_ma,
            0,
            None,
            0,
            spec.setup,
            zone,
            default,
        )
    return Piece(
        spec.id,
        spec.name,
        spec.side,
        False,
        spec.kind,
        spec.nationality,
        spec.corps,
        spec.two_star,
        spec.replaces,
        spec.steps,
        0,
        None,
        spec.ma or 0,
        None,
        spec.drm,
        spec.reduced_drm,
        spec.range or 0,
        spec.setup,
        zone,
        default,
    )


def _check_replacements(pieces: dict[str, Piece], specs: list[tuple[str, UnitSpec | SupportSpec]], file: str) -> None:
    """16.0C: a two-star piece replaces a II Corps piece of its own kind (unit or support asset), not two-star."""
    for key, spec in specs:
        if spec.replaces is None:
            continue
        old = pieces.get(spec.replaces)
        if old is None or old.two_star or old.corps != "ii_corps" or old.is_unit != pieces[spec.id].is_unit:
            raise DataFileError(
                file,
                f"{key}.replaces",
                f"{spec.id}: replaces {spec.replaces!r}, which is not a II Corps piece of its kind",
            )


def _hex_at(board: Board, label: str, file: str, key: str) -> int:
    i = board.grid.by_label.get(label)
    if i is None:
        raise DataFileError(file, key, f"hex {label} is not on the map")
    return i


def _check_default_setup(board: Board, pieces: dict[str, Piece], file: str) -> None:
    """The default setup obeys 5.1-5.2 and 6.0: one unit a hex, at most two support assets (three
    with an air asset), one air asset an airfield, every II Corps hex holding a II Corps unit."""
    grid = board.grid
    at: dict[int, list[Piece]] = {}
    for piece in pieces.values():
        if piece.default is not None:
            at.setdefault(piece.default, []).append(piece)
    for i, here in at.items():
        problem = _stacking_problem(here)
        if problem:
            raise DataFileError(file, "default", f"hex {grid.labels[i]}: {problem}: {', '.join(p.id for p in here)}")
    for i in board.ii_corps:
        if not any(p.is_unit and p.corps == "ii_corps" for p in at.get(i, ())):
            raise DataFileError(file, "default", f"II Corps hex {grid.labels[i]} holds no II Corps unit (5.1C)")


def _stacking_problem(here: list[Piece]) -> str:
    """What is wrong with the pieces a hex holds in the default setup (empty: nothing)."""
    units = [p for p in here if p.is_unit]
    supports = [p for p in here if not p.is_unit]
    air = [p for p in supports if p.is_air]
    if len({p.side for p in here}) > 1:
        return "both sides"
    if len(units) > 1:
        return "two units (6.0A)"
    if len(supports) - len(air) > 2 or len(supports) > (3 if air else 2):
        return "too many support assets (6.0B-C)"
    if len(air) > 1:
        return "two air assets on one airfield (5.1D, 5.2C)"
    return ""
