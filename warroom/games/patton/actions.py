"""Patton action ids: building them (cached, the hot path) and parsing them back.

    move 2A1I Rennes->Laval        land 2A1I Gela-Landing->Gela     end
    battle Laval                   casualties Rennes:1I Vitre:1A    retreat / stand
    retreat 2A1I Laval->Mayenne    roll reserves / wait             reserves Laval
    defect 1I Palermo              remove 1A1I Laval                place 3A2I Lessay / place default

A group of units is written `2A1I` (2 Armored, 1 Infantry), `3I` or `1A`.
"""

from __future__ import annotations

import re
from typing import Any

from .board import Board, mix_text

(
    END, MOVE, LAND, BATTLE, CASUALTIES, TIE_RETREAT, STAND, RETREAT,
    ROLL, WAIT, RESERVE, DEFECT, REMOVE, PLACE, PLACE_DEFAULT,
) = range(15)
_MIX = re.compile(r"^(?:(\d+)A)?(?:(\d+)I)?$")
_FIXED = {
    "end": (END,), "retreat": (TIE_RETREAT,), "stand": (STAND,), "roll reserves": (ROLL,),
    "wait": (WAIT,), "place default": (PLACE_DEFAULT,),
}


def parse_mix(text: str) -> tuple[int, int] | None:
    found = _MIX.match(text)
    if found is None or not text:
        return None
    armor, infantry = int(found.group(1) or 0), int(found.group(2) or 0)
    if armor + infantry == 0:
        return None
    return armor, infantry


class ActionTable:
    """Every id of one board, built on demand and cached; `parse` turns an id back into numbers."""

    def __init__(self, board: Board) -> None:
        self.board = board
        names = board.names
        self.town_index = board.town_index
        # directed roads: d -> "X->Y"
        self.arrow: list[str] = []
        self.arrow_index: dict[str, int] = {}
        for r, (a, b) in enumerate(board.road_ends):
            for d, (x, y) in ((2 * r, (a, b)), (2 * r + 1, (b, a))):
                text = f"{names[x]}->{names[y]}"
                self.arrow.append(text)
                self.arrow_index[text] = d
        self.landing_arrow = [f"{la.id}->{la.town}" for la in board.landings]
        self.landing_arrow_index = {text: k for k, text in enumerate(self.landing_arrow)}
        self.battle_id = [f"battle {name}" for name in names]
        self.reserve_id = [f"reserves {name}" for name in names]
        self.defect_id = [(f"defect 1A {name}", f"defect 1I {name}") for name in names]
        self._mixes: dict[tuple[int, int, int, int, int, int], tuple[str, ...]] = {}
        # moves: a flat list indexed by ((d * 6 + armor) * 6 + infantry) * 6 + limit (the hot path)
        self.move_cache: list[tuple[str, ...] | None] = [None] * (len(self.arrow) * 216)
        self._parsed: dict[str, tuple[Any, ...] | None] = {}

    # -- building ---------------------------------------------------------------------------
    def mixes(self, verb: int, where: int, amax: int, imax: int, kmin: int, kmax: int) -> tuple[str, ...]:
        """Ids for every group of a armor and i infantry, a <= amax, i <= imax, kmin <= a+i <= kmax."""
        key = (verb, where, amax, imax, kmin, kmax)
        found = self._mixes.get(key)
        if found is None:
            out = []
            for a in range(amax + 1):
                for i in range(imax + 1):
                    if kmin <= a + i <= kmax:
                        out.append(self._text(verb, where, a, i))
            found = self._mixes[key] = tuple(out)
        return found

    def moves(self, d: int, amax: int, imax: int, limit: int) -> tuple[str, ...]:
        """`mixes(MOVE, d, amax, imax, 1, limit)` through a flat cache (all arguments at most 5)."""
        key = ((d * 6 + amax) * 6 + imax) * 6 + limit
        found = self.move_cache[key]
        if found is None:
            found = self.move_cache[key] = self.mixes(MOVE, d, amax, imax, 1, limit)
        return found

    def _text(self, verb: int, where: int, a: int, i: int) -> str:
        mix = mix_text(a, i)
        if verb == MOVE:
            return f"move {mix} {self.arrow[where]}"
        if verb == RETREAT:
            return f"retreat {mix} {self.arrow[where]}"
        if verb == LAND:
            return f"land {mix} {self.landing_arrow[where]}"
        if verb == PLACE:
            return f"place {mix} {self.board.names[where]}"
        if verb == REMOVE:
            return f"remove {mix} {self.board.names[where]}"
        raise ValueError(verb)

    def casualties_id(self, parts: list[tuple[str, int, int]]) -> str:
        return "casualties " + " ".join(f"{src}:{mix_text(a, i)}" for src, a, i in parts if a + i)

    # -- parsing ----------------------------------------------------------------------------
    def parse(self, action: str) -> tuple[Any, ...] | None:
        """The action as numbers, or None when it is not a well-formed Patton id."""
        try:
            return self._parsed[action]
        except KeyError:
            pass
        parsed = self._parse(action) if isinstance(action, str) else None
        if len(self._parsed) < 200_000:
            self._parsed[action] = parsed
        return parsed

    def _parse(self, action: str) -> tuple[Any, ...] | None:
        fixed = _FIXED.get(action)
        if fixed is not None:
            return fixed
        words = action.split(" ")
        verb = words[0]
        towns = self.town_index
        if verb == "casualties":
            parts = []
            for word in words[1:]:
                src, _, mix_word = word.partition(":")
                mix = parse_mix(mix_word)
                if mix is None:
                    return None
                parts.append((src, mix[0], mix[1]))
            return (CASUALTIES, tuple(parts))
        if len(words) == 2:
            target = towns.get(words[1], -1)
            if target < 0:
                return None
            if verb == "battle":
                return (BATTLE, target)
            if verb == "reserves":
                return (RESERVE, target)
            return None
        if len(words) != 3:
            return None
        mix = parse_mix(words[1])
        if mix is None:
            return None
        a, i = mix
        if verb in ("move", "retreat"):
            d = self.arrow_index.get(words[2], -1)
            return None if d < 0 else (MOVE if verb == "move" else RETREAT, d, a, i)
        if verb == "land":
            k = self.landing_arrow_index.get(words[2], -1)
            return None if k < 0 else (LAND, k, a, i)
        target = towns.get(words[2], -1)
        if target < 0:
            return None
        if verb == "defect" and a + i == 1:
            return (DEFECT, target, a, i)
        if verb == "remove":
            return (REMOVE, target, a, i)
        if verb == "place":
            return (PLACE, target, a, i)
        return None
