"""Patton's actions as values with a stable text id (like python-chess's `Move` and its UCI text),
and the table of one board's ids, built once and cached: legal actions are made of it (the hot path).

    move 2A1I Rennes->Laval        land 2A1I Gela-Landing->Gela     end
    battle Laval                   casualties Rennes:1I Vitre:1A    retreat / stand
    retreat 2A1I Laval->Mayenne    roll reserves / wait             reserves Laval
    defect 1I Palermo              remove 1A1I Laval                place 3A2I Lessay / place default

A group of units is written `2A1I` (2 Armored, 1 Infantry), `3I` or `1A` (board.mix_text, parse_mix).
`Action.from_id(text)` reads the form of an id and `action.id` writes it: `Action.from_id(a.id) == a`.
Whether its towns are on the board is the table's to say (`ActionTable.parse`, which also gives the
action its board index, `where`); whether it is legal now, the ruleset's.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum

from warroom.engine.errors import IllegalActionError, quoted

from .board import Board, mix_text, parse_mix


class Kind(IntEnum):
    """What an action does; the first word of its id (a tie's `retreat` and a road's `retreat` differ)."""

    END = 0
    MOVE = 1
    LAND = 2
    BATTLE = 3
    CASUALTIES = 4
    TIE_RETREAT = 5
    STAND = 6
    RETREAT = 7
    ROLL = 8
    WAIT = 9
    RESERVE = 10
    DEFECT = 11
    REMOVE = 12
    PLACE = 13
    PLACE_DEFAULT = 14


END, MOVE, LAND, BATTLE, CASUALTIES = Kind.END, Kind.MOVE, Kind.LAND, Kind.BATTLE, Kind.CASUALTIES
TIE_RETREAT, STAND, RETREAT, ROLL, WAIT = Kind.TIE_RETREAT, Kind.STAND, Kind.RETREAT, Kind.ROLL, Kind.WAIT
RESERVE, DEFECT, REMOVE, PLACE, PLACE_DEFAULT = Kind.RESERVE, Kind.DEFECT, Kind.REMOVE, Kind.PLACE, Kind.PLACE_DEFAULT

FIXED = {
    "end": END,
    "retreat": TIE_RETREAT,
    "stand": STAND,
    "roll reserves": ROLL,
    "wait": WAIT,
    "place default": PLACE_DEFAULT,
}
"""The ids of one word or two that name no Units and no place."""
FIXED_ID = {kind: text for text, kind in FIXED.items()}
ROUTED = {"move": MOVE, "retreat": RETREAT, "land": LAND}
"""`verb MIX FROM->TO`: along a road (or from a landing area into its town)."""
PLACED = {"defect": DEFECT, "remove": REMOVE, "place": PLACE}
"""`verb MIX TOWN`."""
AT_TOWN = {"battle": BATTLE, "reserves": RESERVE}
"""`verb TOWN`."""
ROUTED_KINDS = frozenset(ROUTED.values())
AT_TOWN_KINDS = frozenset(AT_TOWN.values())
VERB = {kind: verb for table in (ROUTED, PLACED, AT_TOWN) for verb, kind in table.items()}
FORMS = (
    "move MIX FROM->TO",
    "land MIX AREA->TOWN",
    "end",
    "battle TOWN",
    "casualties FROM:MIX ...",
    "retreat",
    "stand",
    "retreat MIX FROM->TO",
    "roll reserves",
    "wait",
    "reserves TOWN",
    "defect 1A|1I TOWN",
    "remove MIX TOWN",
    "place MIX TOWN",
    "place default",
)
"""The shapes of the ids, for messages (MIX: a group of Units such as 2A1I)."""
SEGMENT_LIMIT = 5  # Using Movement Points: "A maximum of 5 Units can use any one road segment during a turn."


@dataclass(frozen=True, slots=True)
class Casualty:
    """Part of a `casualties` choice: the Units taken from the attack stack that came from `source`."""

    source: str
    """The town (or landing area) the stack came from."""
    armor: int
    infantry: int


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: its kind, the Units it takes (armor, infantry) and the places it names."""

    kind: Kind
    armor: int = 0
    infantry: int = 0
    origin: str = ""
    """The town left (move, retreat) or the landing area (land)."""
    place: str = ""
    """The town moved to, landed in, fought for, entered, placed in or removed from."""
    casualties: tuple[Casualty, ...] = ()
    """A `casualties` choice, stack by stack."""
    where: int = field(default=-1, compare=False)
    """The board's index of what the action names: the directed road (move, retreat), the landing area
    (land), the town (battle, reserves, defect, remove, place). Set by `ActionTable.parse` for its board;
    -1 on an action read by `from_id` alone. Not part of the value: equal actions have equal ids."""

    @property
    def id(self) -> str:
        """The text form players, records and the protocol use."""
        kind = self.kind
        fixed = FIXED_ID.get(kind)
        if fixed is not None:
            return fixed
        if kind == CASUALTIES:
            return "casualties " + " ".join(f"{c.source}:{mix_text(c.armor, c.infantry)}" for c in self.casualties)
        if kind in AT_TOWN_KINDS:
            return f"{VERB[kind]} {self.place}"
        mix = mix_text(self.armor, self.infantry)
        if kind in ROUTED_KINDS:
            return f"{VERB[kind]} {mix} {self.origin}->{self.place}"
        return f"{VERB[kind]} {mix} {self.place}"

    @property
    def units(self) -> int:
        return self.armor + self.infantry

    @classmethod
    def from_id(cls, text: object) -> Action:
        """The action an id names; a text not of any action's form is an IllegalActionError."""
        action = _read(text) if isinstance(text, str) else None
        if action is None:
            raise IllegalActionError(
                f"{quoted(text)} is not a Patton action: the forms are {', '.join(map(repr, FORMS))}"
            )
        return action


def _read(text: str) -> Action | None:
    fixed = FIXED.get(text)
    if fixed is not None:
        return Action(fixed)
    words = text.split(" ")
    verb = words[0]
    if verb == "casualties":
        parts = []
        for word in words[1:]:
            source, _, mix_word = word.partition(":")
            mix = parse_mix(mix_word)
            if mix is None:
                return None
            parts.append(Casualty(source, *mix))
        return Action(CASUALTIES, casualties=tuple(parts))
    if len(words) == 2:
        kind = AT_TOWN.get(verb)
        return Action(kind, place=words[1]) if kind is not None and words[1] else None
    if len(words) != 3:
        return None
    mix = parse_mix(words[1])
    if mix is None:
        return None
    armor, infantry = mix
    kind = ROUTED.get(verb)
    if kind is not None:
        origin, arrow, place = words[2].partition("->")
        return Action(kind, armor, infantry, origin, place) if arrow and origin and place else None
    kind = PLACED.get(verb)
    if kind is None or not words[2] or (kind == DEFECT and armor + infantry != 1):
        return None
    return Action(kind, armor, infantry, place=words[2])


_GROUPS = tuple((a, i) for a in range(SEGMENT_LIMIT + 1) for i in range(SEGMENT_LIMIT + 1 - a) if a + i)
"""Every group one road can carry (1 to 5 Units), armor then infantry rising: the order `mixes` lists them in."""
_SLOT_PICKS = tuple(
    ((a * 6 + i) * 6 + k, tuple(n for n, (x, y) in enumerate(_GROUPS) if x <= a and y <= i and x + y <= k))
    for k in range(1, SEGMENT_LIMIT + 1)
    for a in range(k + 1)
    for i in range(k + 1)
)
"""Per `move_cache` slot of a road a legal move asks for (a, i <= k): the groups, as positions in `_GROUPS`."""
SLOT_ROWS = tuple(
    tuple((min(a, k) * 6 + min(i, k)) * 6 + k for k in range(SEGMENT_LIMIT + 1))
    for a in range(SEGMENT_LIMIT + 1)
    for i in range(SEGMENT_LIMIT + 1)
)
"""Per (armor, infantry) free to move, each at most 5 (row a * 6 + i): the `move_cache` slot of a road for each
limit k of Units (0 to 5), so the hot path reads a slot instead of working it out."""


class ActionTable:
    """Every id of one board, cached; `parse` turns an id back into an `Action`. The move ids, which every
    playout's legal actions are made of, are built with the table (`_fill_moves`); the rest on demand."""

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
        self.battle_id = [Action(BATTLE, place=name).id for name in names]
        self.reserve_id = [Action(RESERVE, place=name).id for name in names]
        self.defect_id = [(Action(DEFECT, 1, 0, place=name).id, Action(DEFECT, 0, 1, place=name).id) for name in names]
        self._mixes: dict[tuple[int, int, int, int, int, int], tuple[str, ...]] = {}
        # moves: a flat list indexed by ((d * 6 + armor) * 6 + infantry) * 6 + limit (the hot path)
        self.move_cache: list[tuple[str, ...] | None] = [None] * (len(self.arrow) * 216)
        self.roads_out: list[tuple[tuple[int, int, int, int], ...]] = [
            tuple((road, cost, d * 216, to) for d, road, to, cost in board.out[town]) for town in range(board.n)
        ]
        """Per town, each road leaving it: (road, cost a Unit, the road's first slot in move_cache, the town
        reached)."""
        most = max(board.road_cost, default=1)
        self.mp_cap = SEGMENT_LIMIT * most
        """MP beyond this change no move: no road takes more than 5 Units at its cost."""
        self.mp_keys = self.mp_cap + 1
        self.k_of_cost: tuple[tuple[int, ...], ...] = tuple(
            (SEGMENT_LIMIT, *(min(mp // cost, SEGMENT_LIMIT) for cost in range(1, most + 1)))
            for mp in range(self.mp_keys)
        )
        """Per MP left (up to mp_cap), per a road's cost a Unit: how many Units the MP can move along it."""
        self.neighbours: list[int] = [
            sum(1 << to for _road, _cost, _first, to in self.roads_out[town]) for town in range(board.n)
        ]
        """Per town, the towns one road away, as a bit mask."""
        self.town_rows = board.n * 36
        """The slots of `town_moves` for one MP left: a row (free armor x 6 + free infantry) per town."""
        self.town_moves: list[tuple[str, ...] | None] = [None] * (self.town_rows * self.mp_keys)
        """The move ids out of a town whose roads are unused this turn, at (MP left up to mp_cap) x town_rows
        + town x 36 + free armor x 6 + free infantry (each at most 5): filled as playouts ask
        (movement.legal_moves)."""
        self._parsed: dict[str, Action | None] = {}
        self._fill_moves()

    # -- building ---------------------------------------------------------------------------
    def _fill_moves(self) -> None:
        """Every slot of `move_cache` a legal move can ask for, and every move id read back (`parse`), built
        at once: the map is fixed, so no playout pays for building them (at most 5 Units: a + i <= k <= 5).

        Each slot holds what `moves(d, a, i, k)` would build, in its order (armor, then infantry, rising)."""
        cache, parsed = self.move_cache, self._parsed
        for d, arrow in enumerate(self.arrow):
            origin, _, place = arrow.partition("->")
            ids: list[str] = []
            for a, i in _GROUPS:
                action = Action(MOVE, a, i, origin, place, where=d)
                ids.append(action.id)
                parsed[ids[-1]] = action
            first = d * 216
            for slot, picks in _SLOT_PICKS:
                cache[first + slot] = tuple(map(ids.__getitem__, picks))

    def mixes(self, kind: Kind, where: int, amax: int, imax: int, kmin: int, kmax: int) -> tuple[str, ...]:
        """Ids for every group of a armor and i infantry, a <= amax, i <= imax, kmin <= a+i <= kmax."""
        key = (kind, where, amax, imax, kmin, kmax)
        found = self._mixes.get(key)
        if found is None:
            out = []
            for a in range(amax + 1):
                for i in range(imax + 1):
                    if kmin <= a + i <= kmax:
                        out.append(self.action(kind, where, a, i).id)
            found = self._mixes[key] = tuple(out)
        return found

    def moves(self, d: int, amax: int, imax: int, limit: int) -> tuple[str, ...]:
        """`mixes(MOVE, d, amax, imax, 1, limit)` through a flat cache (all arguments at most 5)."""
        key = ((d * 6 + amax) * 6 + imax) * 6 + limit
        found = self.move_cache[key]
        if found is None:
            found = self.move_cache[key] = self.mixes(MOVE, d, amax, imax, 1, limit)
        return found

    def action(self, kind: Kind, where: int, armor: int, infantry: int) -> Action:
        """The action of `kind` with these Units at the board's road, landing area or town `where`."""
        if kind in ROUTED_KINDS:
            arrows = self.landing_arrow if kind == LAND else self.arrow
            origin, _, place = arrows[where].partition("->")
            return Action(kind, armor, infantry, origin, place, where=where)
        return Action(kind, armor, infantry, place=self.board.names[where], where=where)

    def casualties_id(self, parts: list[Casualty]) -> str:
        """The id of taking these casualties (a part of no Units is left out)."""
        return Action(CASUALTIES, casualties=tuple(c for c in parts if c.armor + c.infantry)).id

    # -- parsing ----------------------------------------------------------------------------
    def parse(self, action: object) -> Action | None:
        """The action an id names on this board (its `where` set), or None when it names none."""
        if not isinstance(action, str):
            return None
        try:
            return self._parsed[action]
        except KeyError:
            pass
        parsed = self._resolve(_read(action))
        if len(self._parsed) < 200_000:
            self._parsed[action] = parsed
        return parsed

    def _resolve(self, action: Action | None) -> Action | None:
        """`action` with its board index, or None when a town, road or landing area it names is not on the board."""
        if action is None:
            return None
        kind = action.kind
        if kind in FIXED_ID or kind == CASUALTIES:
            return action
        if kind in ROUTED_KINDS:
            index = self.landing_arrow_index if kind == LAND else self.arrow_index
            where = index.get(f"{action.origin}->{action.place}", -1)
        else:
            where = self.town_index.get(action.place, -1)
        return None if where < 0 else replace(action, where=where)


__all__ = [
    "BATTLE",
    "CASUALTIES",
    "DEFECT",
    "END",
    "FORMS",
    "LAND",
    "MOVE",
    "PLACE",
    "PLACE_DEFAULT",
    "REMOVE",
    "RESERVE",
    "RETREAT",
    "ROLL",
    "STAND",
    "TIE_RETREAT",
    "WAIT",
    "Action",
    "ActionTable",
    "Casualty",
    "Kind",
    "parse_mix",
]
