"""Every counter of the game as flat tables indexed by piece number: the board's pieces, then the
battlegroup counters (13.2), so the rules' hot loops read lists instead of objects.

A battlegroup counter is generic (2.2A: CF 2, MA 2); the counter mix (counters.toml `[battlegroups]`)
limits how many of a side's stand on the map at once (NOTES.md).
"""

from __future__ import annotations

from .board import Board, Piece

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
        self.reduced_cf: list[int] = [p.reduced_cf if p.reduced_cf is not None else p.cf for p in pieces]
        self.ma: list[int] = [p.ma for p in pieces]
        self.reduced_ma: list[int] = [p.reduced_ma if p.reduced_ma is not None else p.ma for p in pieces]
        self.drm: list[int] = [p.drm for p in pieces]
        self.reduced_drm: list[int] = [p.reduced_drm if p.reduced_drm is not None else p.drm for p in pieces]
        self.range: list[int] = [p.range for p in pieces]
        self.ii_corps: list[bool] = [p.corps == "ii_corps" and p.nationality == "us" for p in pieces]
        self.two_star: list[bool] = [p.two_star for p in pieces]
        self.default: list[int | None] = [p.default for p in pieces]
        self.is_battlegroup: list[bool] = [False] * len(pieces)
        self.pieces = pieces
        bg = board.counters.battlegroups
        self.battlegroups: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
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
        self.battlegroups = (tuple(slots[AXIS]), tuple(slots[ALLIED]))
        self.n = len(self.ids)
        self.index: dict[str, int] = {pid: i for i, pid in enumerate(self.ids)}
        # 16.0C: each two-star piece and the II Corps piece it replaces
        self.swap: dict[int, int] = {self.index[p.replaces]: self.index[p.id] for p in pieces if p.replaces}
        self.patton: int = self.index["Patton"]
        self.rommel: int = self.index["Rommel"]
        self.by_side: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(i for i in range(self.n) if self.side[i] == AXIS),
            tuple(i for i in range(self.n) if self.side[i] == ALLIED),
        )
        from .movement import half_mp_steps  # the board's costs, compiled once for movement's search

        self.half_steps = half_mp_steps(self)
        # each piece by the name players read (the counter sheet's; "Battlegroup X1" for a battlegroup): the log,
        # the labels and the computer's reasons tell a piece by it, the ids staying for actions and records
        self.name: tuple[str, ...] = tuple(p.name for p in pieces) + tuple(
            f"Battlegroup {self.ids[i][3:]}" for i in range(len(pieces), self.n)
        )
