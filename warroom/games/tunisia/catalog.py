"""Every counter of the game as flat tables indexed by piece number: the board's pieces, then the
battlegroup counters (13.2), so the rules' hot loops read lists instead of objects.

A battlegroup counter is generic (2.2A: CF 2, MA 2); the counter mix (counters.toml `[battlegroups]`)
limits how many of a side's stand on the map at once (NOTES.md).
"""

from __future__ import annotations

from .board import Board
from .pieces import Piece
from .schema import BattlegroupSpec

AXIS, ALLIED = 0, 1
SIDE_NAMES = ("Axis", "Allied")
SIDE_OF_KEY = {"axis": AXIS, "allied": ALLIED}


class Catalog:
    """The pieces in a fixed order (board order, then battlegroups), with their values as lists."""

    def __init__(self, board: Board) -> None:
        self.board = board
        pieces: list[Piece] = list(board.pieces.values())
        self.ids: list[str] = [p.id for p in pieces]
        self.side: list[int] = [SIDE_OF_KEY[p.side] for p in pieces]
        self.is_unit: list[bool] = [p.is_unit for p in pieces]
        self.is_air: list[bool] = [p.is_air for p in pieces]
        self.is_general: list[bool] = [p.is_general for p in pieces]
        self.steps: list[int] = [p.steps for p in pieces]
        self.cf: list[int] = [p.cf for p in pieces]
        self.reduced_cf: list[int] = [_or(p.reduced_cf, p.cf) for p in pieces]
        self.ma: list[int] = [p.ma for p in pieces]
        self.reduced_ma: list[int] = [_or(p.reduced_ma, p.ma) for p in pieces]
        self.drm: list[int] = [p.drm for p in pieces]
        self.reduced_drm: list[int] = [_or(p.reduced_drm, p.drm) for p in pieces]
        self.range: list[int] = [p.range for p in pieces]
        self.ii_corps: list[bool] = [p.corps == "ii_corps" and p.nationality == "us" for p in pieces]
        self.two_star: list[bool] = [p.two_star for p in pieces]
        self.default: list[int | None] = [p.default for p in pieces]
        self.is_battlegroup: list[bool] = [False] * len(pieces)
        self.pieces = pieces
        self.battlegroups: tuple[tuple[int, ...], tuple[int, ...]] = self._add_battlegroups(board.counters.battlegroups)
        self.n = len(self.ids)
        self.index: dict[str, int] = {pid: i for i, pid in enumerate(self.ids)}
        self.swap: dict[int, int] = self._swaps(pieces)
        self.patton: int = self.index["Patton"]
        self.rommel: int = self.index["Rommel"]
        self.by_side: tuple[tuple[int, ...], tuple[int, ...]] = (self._of_side(AXIS), self._of_side(ALLIED))
        from .movement import half_mp_steps  # the board's costs, compiled once for movement's search

        self.half_steps = half_mp_steps(self)
        # each piece by the name players read (the counter sheet's; "Battlegroup X1" for a battlegroup): the log,
        # the labels and the computer's reasons tell a piece by it, the ids staying for actions and records
        self.name: tuple[str, ...] = self._names(pieces)

    def _add_battlegroups(self, bg: BattlegroupSpec) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """13.2: the generic battlegroup counters after the board's pieces, each side's counter mix (CF and MA
        from counters.toml, one step, no DRM, no range): their piece numbers, Axis then Allied."""
        slots: list[list[int]] = [[], []]
        for side, count, tag in ((AXIS, bg.axis, "X"), (ALLIED, bg.allied, "A")):
            for k in range(count):
                slots[side].append(len(self.ids))
                self.ids.append(f"BG-{tag}{k + 1}")
                self.side.append(side)
                self.is_unit.append(True)
                self.is_air.append(False)
                self.is_general.append(False)
                self.steps.append(1)  # 13.2: a battlegroup reduced is eliminated
                self.cf.append(bg.cf)
                self.reduced_cf.append(bg.cf)
                self.ma.append(bg.ma)
                self.reduced_ma.append(bg.ma)
                self.drm.append(0)
                self.reduced_drm.append(0)
                self.range.append(0)
                self.ii_corps.append(False)
                self.two_star.append(False)
                self.default.append(None)
                self.is_battlegroup.append(True)
        return tuple(slots[AXIS]), tuple(slots[ALLIED])

    def _swaps(self, pieces: list[Piece]) -> dict[int, int]:
        """16.0C: each II Corps piece -> the two-star piece that replaces it."""
        return {self.index[p.replaces]: self.index[p.id] for p in pieces if p.replaces}

    def _names(self, pieces: list[Piece]) -> tuple[str, ...]:
        """The counter sheet's names, then "Battlegroup X1" and so on for the battlegroups (their ids less "BG-")."""
        return tuple(p.name for p in pieces) + tuple(
            f"Battlegroup {self.ids[i][3:]}" for i in range(len(pieces), self.n)
        )

    def _of_side(self, side: int) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.ids)) if self.side[i] == side)


def _or(reduced: int | None, full: int) -> int:
    """A reduced side's value, or the full side's where the counter prints none (a one-step piece)."""
    return reduced if reduced is not None else full
