"""Everything about Saint-Lo that never changes during a game, computed once per ruleset: the units'
numbers and stats, neighbour lists per kind of mover, distances, the cards compiled to flat records,
and the action ids the hot loops hand out (so a legal list is built from strings made once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from .board import ALLIED, AXIS, Board, Components, OrderOfBattle, UnitSpec
from .cards import Decks, Forbid, Grant, Modify, Supplies

INFANTRY, TANK, ARTILLERY, AIRCRAFT, SUPPLY = range(5)
TYPE_CODES = {"infantry": INFANTRY, "tank": TANK, "artillery": ARTILLERY, "aircraft": AIRCRAFT, "supply": SUPPLY}
TYPE_NAMES = ("infantry", "tank", "artillery", "aircraft", "supply")
ROLE_TYPES = (frozenset({INFANTRY, AIRCRAFT}), frozenset({ARTILLERY, TANK}))
"""10: Player A's infantry and aircraft, Player B's artillery and tanks (Supply units are shared)."""
STATS = ("attack", "land_attack", "defense", "mobility", "range")
ATTACK_STAT, LAND_ATTACK_STAT, DEFENSE_STAT, MOBILITY_STAT, RANGE_STAT = range(5)
UNIQUE, GENERAL, SUPPLIES = range(3)
ADJACENT_STEPS = 2
"""The `Tables.step_masks` entry of every adjacent hex (after the land and Supply movers' own steps)."""
LAND_MOVER, SUPPLY_MOVER, CROSSING_MOVER, AIR_MOVER = range(4)
"""How a unit moves (movement.py): the first three index `Tables.step_masks` (a river crosser steps to any
adjacent hex)."""


@dataclass(frozen=True, slots=True)
class Card:
    """A Battle Report compiled from cards.toml's effect language (cards.py) for the rules' lookups."""

    id: str
    name: str
    kind: int
    own: bool
    """The target or group is the player's own army (else the enemy's)."""
    types: frozenset[int]
    mods: tuple[tuple[int, int], ...]
    """(stat, by) pairs."""
    grants: frozenset[str]
    forbids: frozenset[str]
    supplies: int
    text: str


def compile_card(spec: object) -> Card:
    from .cards import CardSpec

    assert isinstance(spec, CardSpec)
    selector = spec.target or spec.group
    mods, grants, forbids, supplies = [], set(), set(), 0
    for effect in spec.effects:
        if isinstance(effect, Modify):
            mods.append((STATS.index(effect.modify), effect.by))
        elif isinstance(effect, Grant):
            grants.add(effect.grant)
        elif isinstance(effect, Forbid):
            forbids.add(effect.forbid)
        elif isinstance(effect, Supplies):
            supplies += effect.supplies
    kind = ("unique", "general", "supplies").index(spec.kind)
    return Card(
        spec.id,
        spec.name,
        kind,
        selector is None or selector.side == "own",
        frozenset(TYPE_CODES[t] for t in selector.types) if selector else frozenset(),
        tuple(mods),
        frozenset(grants),
        frozenset(forbids),
        supplies,
        spec.text,
    )


class Tables:
    """The static tables (see the module docstring)."""

    def __init__(self, board: Board, units: OrderOfBattle, components: Components, decks: Decks) -> None:
        self.board, self.components, self.decks = board, components, decks
        grid = board.grid
        self.n_hexes = grid.n
        self.labels = grid.labels
        self.hex_of = grid.by_label
        self._number_units(units)
        self._group_units()
        self._unit_stats()
        self._board_steps(board)
        self._hex_masks()
        self._make_caches()
        self._sectors(board)
        self.post_values = components.command_posts
        self.rules = components.rules
        self._compile_cards(decks)
        self._make_ids()

    def _number_units(self, units: OrderOfBattle) -> None:
        """The units: the Allied 65 then the Axis 65, each kind's counters numbered from 1."""
        self.kinds: list[UnitSpec] = []
        self.kind_index: dict[str, int] = {}
        self.unit_kind: list[int] = []
        self.unit_army: list[int] = []
        self.unit_ids: list[str] = []
        self.kind_units: list[tuple[int, ...]] = []
        for army in (ALLIED, AXIS):
            for spec in units.kinds[army]:
                k = len(self.kinds)
                self.kinds.append(spec)
                self.kind_index[spec.id] = k
                members = []
                for n in range(spec.count):
                    members.append(len(self.unit_kind))
                    self.unit_kind.append(k)
                    self.unit_army.append(army)
                    self.unit_ids.append(f"{spec.id}.{n + 1}")
                self.kind_units.append(tuple(members))
        self.n_units = len(self.unit_kind)
        self.unit_index = {uid: u for u, uid in enumerate(self.unit_ids)}
        self.kind_type = [TYPE_CODES[spec.type] for spec in self.kinds]
        self.kind_army = [ALLIED if spec.side == "allied" else AXIS for spec in self.kinds]
        self.army_kinds = tuple(
            tuple(k for k in range(len(self.kinds)) if self.kind_army[k] == a) for a in (ALLIED, AXIS)
        )
        self.army_units = tuple(tuple(u for u in range(self.n_units) if self.unit_army[u] == a) for a in (ALLIED, AXIS))
        self.unit_type = [self.kind_type[k] for k in self.unit_kind]

    def _group_units(self) -> None:
        """Each army's units grouped by what the rules let them do (stand, fly, be used, be swapped)."""
        self.land_units = tuple(tuple(u for u in units if self.unit_type[u] != AIRCRAFT) for units in self.army_units)
        """Per army, its units that stand on the ground (everything but aircraft, 7.4): what blocks a move."""
        self.aircraft = tuple(u for u in range(self.n_units) if self.unit_type[u] == AIRCRAFT)
        """Every aircraft of both armies (7.4: one aircraft a hex, whoever's)."""
        self.role_units = tuple(
            tuple(
                tuple(u for u in units if self.unit_type[u] == SUPPLY or self.unit_type[u] in ROLE_TYPES[role])
                for role in (0, 1)
            )
            for units in self.army_units
        )
        """Per army and team role (10: Player A, Player B), the units that player may use (`seats.may_use`)."""
        self.mask_index = tuple(
            self.unit_army[u] + (2 if self.unit_type[u] == AIRCRAFT else 0) for u in range(self.n_units)
        )
        """Per unit, its army's entry of `SaintLoState.unit_masks` (land units, then aircraft)."""
        self.supply_units = tuple(tuple(u for u in units if self.unit_type[u] == SUPPLY) for units in self.army_units)
        self.swappable = tuple(tuple(u for u in units if self.unit_type[u] != SUPPLY) for units in self.army_units)
        """Per army, the units a swap may take (8: never Supply units)."""
        self.role_swappable = tuple(
            tuple(tuple(u for u in units if self.unit_type[u] in ROLE_TYPES[role]) for role in (0, 1))
            for units in self.swappable
        )
        """Per army and team role, the units that player may swap (8, 10: his own types; Supply units never)."""

    def _unit_stats(self) -> None:
        """Per unit, its printed numbers (`STATS` order), cost and kind of foot."""
        self.base = [[0] * 5 for _ in range(self.n_units)]
        for u, k in enumerate(self.unit_kind):
            spec = self.kinds[k]
            self.base[u] = [spec.attack, spec.land_attack or 0, spec.defense, spec.mobility, spec.range or 0]
        self.kind_cost = [spec.cost for spec in self.kinds]
        self.foot = [self.kinds[k].foot for k in self.unit_kind]
        self.cost = [self.kinds[k].cost for k in self.unit_kind]

    def _board_steps(self, board: Board) -> None:
        """The board: where land units may stand, the roads, each mover's steps and the distances."""
        n = board.grid.n
        self.land_ok = [board.terrain[i] != "river" for i in range(n)]  # 6.1: rivers only at bridges
        self.on_road = [i in board.road_hexes for i in range(n)]
        self.sector = board.sector
        self.land_steps, self.supply_steps, self.air_steps = (
            tuple(tuple(j for j, _ in row) for row in board.costs[mover].steps) for mover in ("land", "supply", "air")
        )
        axial = board.grid.hexes
        self.distance = [
            [(abs(qi - q) + abs(ri - r) + abs(qi - q + ri - r)) // 2 for q, r in axial] for qi, ri in axial
        ]
        self.by_distance = [tuple(sorted(range(n), key=self.distance[i].__getitem__)) for i in range(n)]
        """Per hex, every hex nearest first: aircraft reach (7.4) is a prefix of it."""

    def _hex_masks(self) -> None:
        """The bit masks movement.py works in, and the caches of the board's reaches."""
        n = self.n_hexes
        self._air_reach: dict[int, tuple[int, ...]] = {}
        self._air_reach_order: dict[int, dict[int, int]] = {}
        self._region: dict[int, tuple[int, ...]] = {}
        self._region_mask: dict[int, int] = {}
        self._terrain_reach: dict[int, int] = {}
        self.hex_bit = tuple(1 << h for h in range(n))
        """Bit h stands for hex h in movement.py's masks."""
        self.all_hexes_mask = (1 << n) - 1
        self.land_mask = sum(self.hex_bit[h] for h in range(n) if self.land_ok[h])
        self.step_masks = tuple(
            tuple(sum(self.hex_bit[j] for j in row) for row in steps)
            for steps in (self.land_steps, self.supply_steps, self.air_steps)
        )
        """Per mover (land, supply, crossing a river: movement.py), per hex, the hexes one step on as a mask."""
        self.step_shifts = tuple(_shifts(steps) for steps in (self.land_steps, self.supply_steps, self.air_steps))
        """`step_masks` by direction, for a whole frontier at once: per mover, (delta, sources) pairs, where
        `sources` are the hexes h with a step to h + delta (a row-major grid has eight deltas)."""
        self._byte_hexes = tuple(
            tuple(tuple(8 * i + k for k in range(8) if b >> k & 1) for b in range(256)) for i in range((n + 7) // 8)
        )
        """Per byte i of a mask and its value, the hexes its set bits stand for (`hexes_of`)."""

    def _make_caches(self) -> None:
        """The hot loops' caches, empty: each is filled as the game first asks for an entry."""
        self.reach_cache: dict[tuple[int, int, int, int, int], tuple[tuple[int, ...], int]] = {}
        """movement.py's land reaches by what they depend on (a pure function of the key), each with the hexes
        whose occupancy it looked at."""
        self.card_candidates: dict[tuple[int, int], tuple[tuple[int, ...], dict[int, str]]] = {}
        """effects.py's units each card may act on, with its play ids (filled as cards are first asked about)."""
        self.entry_cache: dict[tuple[int, ...], tuple[list[int], int]] = {}
        """reorganization.py's hexes beside an army's live posts, by where its posts stand (8 hexes a key)."""
        self.level_cache: dict[tuple[int, int, int, int], tuple[tuple[tuple[int, tuple[int, ...]], ...], int]] = {}
        """movement.py's breadth-first steps of a land mover by what they depend on (a pure function of the key)."""
        self.move_choice_cache: dict[tuple[int, int], tuple[Sequence[int], tuple[str, ...]]] = {}
        """movement.py's move ids per (unit, id of a cached reach): the reach itself kept to check the id."""
        self.last_moves: list[tuple[int, int, int, int, int, int, tuple[str, ...]] | None] = [None] * self.n_units
        """movement.py's last move ids per unit, with what they depend on: (hex, mobility, mover, the two
        occupancy masks that matter to it, the hexes where they matter, ids)."""
        self.last_choices: list[
            tuple[int, bool, int, int, list[str], tuple[tuple[int, tuple[int, ...]], ...] | None] | None
        ] = [None] * self.n_units
        """listing.py's last move and attack ids per unit when no unit is in use, with what they depend on
        (`listing.Known`)."""
        self.affected_cache: dict[tuple[tuple[int, int, int], ...], frozenset[int]] = {}
        """effects.py's units the Battle Reports in play change, by the cards in play."""
        self.last_deploy: dict[tuple[int, int], tuple[tuple[int, ...], dict[int, tuple[str, ...]]]] = {}
        """setup.py's last deploy ids per army and group of kinds: the hexes, and each kind's ids on them."""
        self.entry_pickers: dict[tuple[int, tuple[int, ...], int], Callable[[list[str]], tuple[str, ...]]] = {}
        """reorganization.py's pickers of the entry hexes per army and group, by the posts and the units beside
        them."""
        self.deploy_plans: dict[tuple[int, ...], tuple[str, ...]] = {}
        """ai.py's deployment plans by where the seat began (a pure function of the key: a few a game)."""

    def _sectors(self, board: Board) -> None:
        """The Command Posts and each army's sector (4.3), as hex lists and bit masks."""
        grid = board.grid
        self.post_hexes = board.command_post_hexes
        self.all_post_hexes = frozenset(board.command_post_hexes[0]) | frozenset(board.command_post_hexes[1])
        self.sector_hexes = tuple(tuple(h for h in range(grid.n) if self.sector[h] == a) for a in (ALLIED, AXIS))
        """4.3: each army's sector (where its aircraft deploy)."""
        self.sector_land = tuple(
            tuple(h for h in self.sector_hexes[a] if self.land_ok[h] and h not in self.all_post_hexes)
            for a in (ALLIED, AXIS)
        )
        """4.3: where its land units may deploy: not on rivers, not on Command Post hexes."""
        self.sector_mask = tuple(sum(self.hex_bit[h] for h in hexes) for hexes in self.sector_hexes)
        self.sector_land_mask = tuple(sum(self.hex_bit[h] for h in hexes) for hexes in self.sector_land)
        self.road_mask = sum(self.hex_bit[h] for h in range(grid.n) if self.on_road[h])
        """`sector_hexes`, `sector_land` and the road hexes as bit masks (setup.py's `deploy_hexes`)."""

    def _compile_cards(self, decks: Decks) -> None:
        """Per army, the distinct cards in the file's order, compiled (`compile_card`)."""
        self.cards = tuple(tuple(compile_card(spec) for spec in decks.cards[a]) for a in (ALLIED, AXIS))
        self.card_index = tuple({c.id: i for i, c in enumerate(self.cards[a])} for a in (ALLIED, AXIS))
        self.play_ids = tuple(tuple(f"play {c.id}" for c in self.cards[a]) for a in (ALLIED, AXIS))
        """Per army and card, the id that plays a card with no target (effects.py's `play_ids`)."""
        self.deck_counts = tuple(tuple(spec.copies for spec in decks.cards[a]) for a in (ALLIED, AXIS))

    def _make_ids(self) -> None:
        """The action ids the hot loops hand out, made once."""
        self.move_ids = [[f"move {uid} {label}" for label in self.labels] for uid in self.unit_ids]
        self.attack_ids = [[f"attack {uid} {label}" for label in self.labels] for uid in self.unit_ids]
        self.deploy_ids = [[f"deploy {spec.id} {label}" for label in self.labels] for spec in self.kinds]
        self.buy_ids = [[f"buy {spec.id} {label}" for label in self.labels] for spec in self.kinds]
        self.support_ids = [f"support {uid}" for uid in self.unit_ids]
        self.swap_ids = [f"swap {uid}" for uid in self.unit_ids]

    def air_reach(self, start: int, mobility: int) -> tuple[int, ...]:
        """7.4: every hex within `mobility` of `start`, `start` excluded (cached: the board never changes)."""
        key = start * 64 + mobility
        hexes = self._air_reach.get(key)
        if hexes is None:
            dist = self.distance[start]
            hexes = self._air_reach[key] = tuple(j for j in self.by_distance[start] if 0 < dist[j] <= mobility)
        return hexes

    def air_reach_order(self, start: int, mobility: int) -> dict[int, int]:
        """Each hex of `air_reach(start, mobility)` and its place in that order (cached)."""
        key = start * 64 + mobility
        order = self._air_reach_order.get(key)
        if order is None:
            order = self._air_reach_order[key] = {h: k for k, h in enumerate(self.air_reach(start, mobility))}
        return order

    def region(self, start: int, radius: int) -> tuple[int, ...]:
        """Every hex within `radius` of `start`, `start` included, nearest first (cached)."""
        key = start * 64 + radius
        hexes = self._region.get(key)
        if hexes is None:
            dist = self.distance[start]
            hexes = self._region[key] = tuple(j for j in self.by_distance[start] if dist[j] <= radius)
        return hexes

    def region_mask(self, start: int, radius: int) -> int:
        """The region's hexes as a bit mask (cached)."""
        key = start * 64 + radius
        mask = self._region_mask.get(key)
        if mask is None:
            mask = self._region_mask[key] = sum(self.hex_bit[j] for j in self.region(start, radius))
        return mask

    def hexes_of(self, mask: int) -> list[int]:
        """The hexes of a bit mask, in hex order: a byte at a time, from the first byte with a bit set."""
        if not mask:
            return []
        first = ((mask & -mask).bit_length() - 1) >> 3
        mask >>= first << 3
        out: list[int] = []
        table = self._byte_hexes
        for i, b in enumerate(mask.to_bytes((mask.bit_length() + 7) >> 3, "little"), first):
            if b:
                out.extend(table[i][b])
        return out

    def step_out(self, frontier: int, mover: int) -> int:
        """Every hex one step from a hex of `frontier`, for the mover, as a mask."""
        reached = 0
        for delta, sources in self.step_shifts[mover]:
            moved = frontier & sources
            if moved:
                reached |= moved << delta if delta > 0 else moved >> -delta
        return reached

    def terrain_reach(self, start: int, mobility: int, mover: int) -> int:
        """The hexes a mover could enter within `mobility` steps of `start` on an empty board, as a mask
        (cached): the only hexes whose occupancy can change its reach (movement.py's cache key)."""
        key = (start * 64 + mobility) * 4 + mover
        mask = self._terrain_reach.get(key)
        if mask is None:
            mask = frontier = self.hex_bit[start]
            for _ in range(mobility):
                frontier = self.step_out(frontier, mover) & ~mask
                if not frontier:
                    break
                mask |= frontier
            self._terrain_reach[key] = mask
        return mask

    def kind_of(self, u: int) -> UnitSpec:
        return self.kinds[self.unit_kind[u]]


def _shifts(steps: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """A mover's steps grouped by how far they go in hex numbers: (delta, mask of the hexes that step so)."""
    sources: dict[int, int] = {}
    for h, row in enumerate(steps):
        for j in row:
            sources[j - h] = sources.get(j - h, 0) | 1 << h
    return tuple(sorted(sources.items()))


def picker(hexes: Sequence[int]) -> Callable[[list[str]], tuple[str, ...]]:
    """The entries of a per-hex list of ids at `hexes`, picked in C (a deployment lists some 1,300 ids a
    decision; the move and buy lists use it too)."""
    if len(hexes) > 1:
        return itemgetter(*hexes)
    return lambda ids: tuple(ids[h] for h in hexes)
