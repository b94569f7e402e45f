"""Setup in bulk (4.2, 4.3): the decisions that place all a seat still has to place at once, the computer's way.

Placing one by one takes 8 Command Post decisions and 65 deployments a side. Besides those the setup offers:

    ready            4.2: the army's remaining Command Posts as the computer places them (the strongest where the
                     enemy must come furthest); 4.3: the seat's remaining counters as the computer deploys them
    sector west      4.3: the seat's remaining counters all in the west of its sector (columns 01-12), the
    sector east      computer choosing the hexes; offered while they all fit there

A deployment in bulk is followed by dice (chance nodes: the game's seeded dice roll them, and the record keeps
them, so a replay places the same counters on the same hexes; at a table they are typed in):

- up to `SHUFFLE_DICE` dice that deal the seat's counters to the hexes, each counter among the hexes of its
  role (`ROLES`: fighting units at the front, artillery, aircraft, Supply units), an assignment the backs do
  not show (`assignments`, `deal`: the dice read as one number, an index into every assignment of the roles);
- then one die, the last, whose face shifts the computer's liking of each hex by up to `SPREAD` rows, so the
  hexes themselves differ from game to game (`footprint`). The backs show which hexes; one who reads this
  code may tell the face from them, and so it may be the last die, the one an undo refusal names (NOTES.md).

Every counter goes where a single `deploy` would be legal at that moment (`setup.deploy_hexes`, the one check of
4.3 and 7.5), one after the other in the order the footprint took its hexes, and a role's counters share their
checks (`setup.deploy_hexes` asks only aircraft, Supply unit or other land unit), so the bulk keeps every
restriction one by one keeps. What the other army sees is what it sees of single deployments: backs on hexes
(position.py). NOTES.md says why the sectors are halves and why the Command Posts need no dice.
"""

from __future__ import annotations

import random
from functools import cache
from math import factorial, gcd, prod

from .actions import READY, SECTOR
from .movement import kept_unit_masks
from .seats import kind_for
from .setup import deploy, deploy_hexes, place_post, post_choices, posts_left
from .state import OFF, SaintLoState
from .tables import AIRCRAFT, ARTILLERY, INFANTRY, SUPPLY, TANK, Tables

AREAS = ("west", "east")
"""The parts of an army's sector (4.3) a deployment in bulk may fill, by columns: `sector west` the western
half of the board's columns, `sector east` the eastern. `SaintLoState.bulk` holds WHOLE or 1 + an index here."""
WHOLE = 0
"""`SaintLoState.bulk` for `ready`: the whole sector."""
SPREAD = 1.5
"""How far a die shifts the computer's preferences: a hex up to this many rows further from where the
heuristic wants a unit may be preferred (NOTES.md: enough to vary, too little to send a tank to the rear)."""
ROLES = ((INFANTRY, TANK), (ARTILLERY,), (AIRCRAFT,), (SUPPLY,))
"""The unit types whose counters a deployment in bulk deals among one another's hexes (4.3, hidden): a role's
types stand where the heuristic wants the same kind of hex (`deploy_worth`) and pass the same checks
(`setup.deploy_hexes`: aircraft, Supply units, other land units), so any deal is legal and a player's own."""
SHUFFLE_DICE = 8
"""The most dice that deal a bulk deployment's counters: 6^8 = 1,679,616 equally likely deals, each another
assignment, while the counters left allow that many (`shuffle_dice`; NOTES.md: why dice, and why eight)."""


def depth(t: Tables, army: int, h: int) -> int:
    """Rows from the start line into the army's own sector (4.3: the Allies north, the Axis south)."""
    row = int(t.labels[h][2:])
    line = t.board.spec.start_line.last_northern_row
    return line - row if army == 0 else row - line


def post_key(t: Tables, army: int, action: str) -> tuple[int, int]:
    """4.2, the computer's Command Posts: the strongest (defence) first, where the enemy must come furthest."""
    _, label, value = action.split()
    return int(value), depth(t, army, t.hex_of[label])


def deploy_worth(t: Tables, army: int, kind_type: int, h: int) -> int:
    """4.3, the computer's deployment: fighting units as far forward as they can stand, artillery and aircraft
    two rows back (in range of the front), Supply units four rows back (out of reach, on a road)."""
    d = depth(t, army, h)
    if kind_type in (SUPPLY, ARTILLERY, AIRCRAFT):
        return -abs(d - (4 if kind_type == SUPPLY else 2))
    return -d


# -- the decisions -------------------------------------------------------------------------------------
def post_ready(t: Tables, s: SaintLoState) -> list[str]:
    """4.2: `ready` while the army has Command Posts to place."""
    return [READY] if posts_left(s, s.active) else []


def deploy_bulk_choices(t: Tables, s: SaintLoState) -> list[str]:
    """4.3: `ready`, and `sector NAME` for each part of the sector where all the seat's remaining counters fit."""
    out = [READY]
    out.extend(f"{SECTOR} {name}" for code, name in enumerate(AREAS, 1) if fits(t, s, code))
    return out


def bulk_code(subject: str) -> int:
    """The `SaintLoState.bulk` value of `ready` ("") or `sector NAME` (NAME)."""
    return AREAS.index(subject) + 1 if subject else WHOLE


def area_words(t: Tables, code: int) -> str:
    """Where a deployment in bulk goes, in words: "the west of the sector, columns 01-12"."""
    if code == WHOLE:
        return "the whole sector"
    low, high = _columns(t)[code - 1]
    return f"the {AREAS[code - 1]} of the sector, columns {low:02d}-{high:02d}"


def describe(t: Tables, s: SaintLoState, subject: str, phase_posts: bool) -> str:
    """The menu label of `ready` or `sector NAME`, in plain words."""
    if phase_posts:
        n = sum(1 for k in range(8) if s.post_hex[s.active * 8 + k] == OFF)
        return f"Place the rest of my Command Posts for me (the computer's placement, {n} posts)"
    n = len(_seat_left(t, s))
    counters = f"{n} counter{'s' if n != 1 else ''}"
    if not subject:
        return f"Deploy the rest for me (the computer's placement, {counters})"
    if subject not in AREAS:
        return f"Deploy all remaining in {subject!r}"
    low, high = _columns(t)[bulk_code(subject) - 1]
    return f"Deploy all remaining in the {subject}, columns {low:02d}-{high:02d} ({counters})"


def refusal(t: Tables, s: SaintLoState, subject: str) -> str:
    """Why `sector NAME` is refused (the only bulk decision that can be while the seat deploys)."""
    if subject not in AREAS:
        return f"the sectors to deploy in are {', '.join(AREAS)} (4.3)"
    return (
        f"the {len(_seat_left(t, s))} counters left do not all fit in {area_words(t, bulk_code(subject))}: one "
        "unit a hex, land units not on rivers or Command Posts, Supply units on roads (4.3, 7.5)"
    )


# -- carrying them out ---------------------------------------------------------------------------------
def place_rest_of_posts(t: Tables, s: SaintLoState) -> list[tuple[int, int]]:
    """4.2: the army's remaining Command Posts, one after another as the computer would place them (each a
    legal `post` at its moment); the (hex, defence) of each."""
    army = s.active
    placed = []
    while posts_left(s, army):
        best = max(post_choices(t, s), key=lambda a: post_key(t, army, a))
        _, label, value = best.split()
        place_post(t, s, t.hex_of[label], int(value))
        placed.append((t.hex_of[label], int(value)))
    return placed


def deploy_rest(t: Tables, s: SaintLoState, code: int, face: int, deal_index: int = 0) -> list[int]:
    """4.3: every counter the seat has still to deploy, face down, on the hexes of `footprint` (`code`'s area,
    the die's `face`), one after another in the order the footprint took them, each role's counters dealt to
    its hexes by `deal_index` (`deal`: 0, the kinds in the order single deployments list them, is the
    heuristic's own); the units placed."""
    steps = footprint(t, s, code, face)
    kinds = deal(t, s, steps, deal_index)
    return [deploy(t, s, k, h) for k, (_, h) in zip(kinds, steps, strict=True)]


def footprint(t: Tables, s: SaintLoState, code: int, face: int) -> list[tuple[int, int]]:
    """(role, hex) of each counter the seat has still to deploy, in the order the computer places them: kind by
    kind as single deployments list them, each on the legal hex (`setup.deploy_hexes`) of `code`'s area it likes
    best with the die's `face` shifting its likes. Within an area, road hexes are kept for the seat's Supply
    units still to come there, as `deploy_hexes` keeps them in the whole sector. Worked out on a copy: `s` is
    unchanged, and the hexes do not depend on which counter of a role goes where."""
    trial = s.clone()
    army = trial.active
    area = area_mask(t, army, code)
    shift = _shifts(t, army, face)
    labels, bit, roads = t.labels, t.hex_bit, t.road_mask
    steps = []
    for k in t.army_kinds[army]:
        if not kind_for(t, trial, trial.seat, k):
            continue
        kind_type = t.kind_type[k]
        for u in t.kind_units[k]:
            if trial.pos[u] != OFF:
                continue
            hexes = [h for h in deploy_hexes(t, trial, army, kind_type) if bit[h] & area]
            if kind_type not in (AIRCRAFT, SUPPLY) and _area_roads(t, trial, area) <= _supply_left(t, trial):
                hexes = [h for h in hexes if not bit[h] & roads]
            if not hexes:
                raise AssertionError("no hex left in the area")  # `fits` offers only an area they all fit in
            h = max(hexes, key=lambda x: (deploy_worth(t, army, kind_type, x) + shift[x], labels[x]))
            deploy(t, trial, k, h)
            steps.append((role_of(kind_type), h))
    return steps


# -- the deal (hidden: which counter of a role stands on which of its hexes) ---------------------------------
def role_of(kind_type: int) -> int:
    """The index in `ROLES` of a unit type's role."""
    return next(r for r, types in enumerate(ROLES) if kind_type in types)


def role_counts(t: Tables, s: SaintLoState) -> list[list[tuple[int, int]]]:
    """Per role, (kind, counters left) of each of the seat's kinds with counters still to deploy, in the order
    single deployments list the kinds."""
    out: list[list[tuple[int, int]]] = [[] for _ in ROLES]
    pos = s.pos
    for k in t.army_kinds[s.active]:
        if kind_for(t, s, s.seat, k):
            left = sum(1 for u in t.kind_units[k] if pos[u] == OFF)
            if left:
                out[role_of(t.kind_type[k])].append((k, left))
    return out


def _multinomial(counts: list[int]) -> int:
    """The orders of a multiset: how many ways its counters (alike within a kind) go on as many hexes."""
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


def assignments(t: Tables, s: SaintLoState) -> int:
    """How many ways the seat's counters still to deploy may stand on a footprint's hexes, each among its role's
    hexes (counters of one kind alike): the product over the roles of the multinomials of their kinds' counts.
    Every one of them shows the other army the same backs."""
    return prod(_multinomial([n for _, n in kinds]) for kinds in role_counts(t, s))


def shuffle_dice(t: Tables, s: SaintLoState) -> int:
    """The dice that deal a bulk deployment of the seat's counters left: the most, up to `SHUFFLE_DICE`, with
    6^n <= (counters left)!. The count rests on a public figure only (how many counters are still off the map;
    the backs on it tell that): counted from the kinds left, it would tell the other army what was placed by
    hand. Where 6^n <= `assignments` every throw is a deal of its own; where more, `deal_index` spreads the
    throws over all the deals as evenly as their numbers allow."""
    upper, n = factorial(len(_seat_left(t, s))), 0
    while n < SHUFFLE_DICE and 6 ** (n + 1) <= upper:
        n += 1
    return n


def deal_index(t: Tables, s: SaintLoState, dice: tuple[int, ...] | list[int]) -> int:
    """The assignment (`deal`'s index) the dice that deal pick: the dice (faces 1-6, the first the lowest digit in
    base 6) read as one number n, then n * a mod `assignments`, a the golden-ratio share of their count made
    prime to it (`_spreader`). Multiplying by a unit permutes the residues, so below the count (6^n <= it) each
    throw is an assignment of its own, and above it the throws fall on every assignment floor or ceiling of
    6^n / count times; and it spreads the throws over the whole range (Fibonacci hashing), where n
    alone would be the first 6^n orders, which differ only in the last few hexes of a role."""
    n = sum((d - 1) * 6**j for j, d in enumerate(dice))
    total = assignments(t, s)
    chosen: int = n * _spreader(total) % total
    return chosen


@cache
def _spreader(total: int) -> int:
    """The multiplier of `deal_index`: about total / 1.618 (golden ratio), the next prime to `total`."""
    a = total * 618_033_988_749_894_848 // 10**18
    while gcd(a, total) != 1:
        a += 1
    return a


def deal(t: Tables, s: SaintLoState, steps: list[tuple[int, int]], index: int) -> list[int]:
    """The kind placed at each step of a footprint: the `index`-th assignment (0 <= index < `assignments`),
    read role by role (the index's digits in mixed radix, each role's count of orders the radix), each role's
    digit the rank of one order of its kinds over its hexes in the order they were taken (lexicographic by the
    kinds' order, so 0 is kind by kind: the heuristic's own deployment)."""
    per_role = role_counts(t, s)
    orders = []
    for kinds in per_role:
        total = _multinomial([n for _, n in kinds])
        index, rank = divmod(index, total)
        orders.append(iter(_unrank(kinds, rank)))
    return [next(orders[role]) for role, _ in steps]


def _unrank(kinds: list[tuple[int, int]], rank: int) -> list[int]:
    """The `rank`-th (from 0) order of a multiset of counters, (kind, count) pairs, lexicographic in their order."""
    counts = [n for _, n in kinds]
    out = []
    for left in range(sum(counts), 0, -1):
        for j, (k, _) in enumerate(kinds):
            if not counts[j]:
                continue
            counts[j] -= 1
            below = factorial(left - 1) // prod(factorial(c) for c in counts)
            if rank < below:
                out.append(k)
                break
            rank -= below
            counts[j] += 1
    return out


def fits(t: Tables, s: SaintLoState, code: int) -> bool:
    """Whether every counter the seat has still to deploy finds a hex in `code`'s area (4.3, 7.5): the Supply
    units on its free roads, the aircraft on its hexes free of aircraft, the other land units on its free land
    hexes, taking road hexes only as far as the seat's Supply units (there) and the army's (anywhere in the
    sector: `setup.deploy_hexes`) leave them."""
    army = s.active
    area = area_mask(t, army, code)
    masks = kept_unit_masks(t, s)
    free = t.sector_land_mask[army] & ~(masks[0] | masks[1])
    free_roads = free & t.road_mask
    here, here_roads = (free & area).bit_count(), (free_roads & area).bit_count()
    air = (t.sector_mask[army] & area & ~(masks[2] | masks[3])).bit_count()
    left = _seat_left(t, s)
    supply = sum(1 for u in left if t.unit_type[u] == SUPPLY)
    aircraft = sum(1 for u in left if t.unit_type[u] == AIRCRAFT)
    others = len(left) - supply - aircraft
    spare_roads = min(here_roads - supply, free_roads.bit_count() - _army_supply_left(t, s))
    return supply <= here_roads and aircraft <= air and others <= here - here_roads + max(spare_roads, 0)


def area_mask(t: Tables, army: int, code: int) -> int:
    """The hexes of the army's sector in `code`'s area, as a bit mask."""
    return _area_masks(t)[army][code]


@cache
def _columns(t: Tables) -> tuple[tuple[int, int], ...]:
    """Each area's first and last column: the board's columns halved (board.toml's map)."""
    columns = t.board.spec.map.columns
    half = columns // 2
    return ((1, half), (half + 1, columns))


@cache
def _area_masks(t: Tables) -> tuple[tuple[int, ...], ...]:
    out = []
    for army in (0, 1):
        masks = [t.sector_mask[army]]
        for low, high in _columns(t):
            masks.append(sum(t.hex_bit[h] for h in t.sector_hexes[army] if low <= int(t.labels[h][:2]) <= high))
        out.append(tuple(masks))
    return tuple(out)


@cache
def _shifts(t: Tables, army: int, face: int) -> tuple[float, ...]:
    """The die's face's shift of the computer's liking for each hex: 0 to `SPREAD`, drawn once for each army and
    face from a generator seeded by them (the same on every machine), so a face always means one deployment.
    Face 0, which no die shows, shifts nothing: the heuristic's own deployment (ai.py)."""
    if face == 0:
        return (0.0,) * t.n_hexes
    rng = random.Random(f"saintlo deployment {army} {face}")
    return tuple(rng.random() * SPREAD for _ in range(t.n_hexes))


def _seat_left(t: Tables, s: SaintLoState) -> list[int]:
    """The counters the deploying seat has still to place (4.3, 10.1: each player his own)."""
    pos = s.pos
    return [u for k in t.army_kinds[s.active] if kind_for(t, s, s.seat, k) for u in t.kind_units[k] if pos[u] == OFF]


def _supply_left(t: Tables, s: SaintLoState) -> int:
    """The seat's own Supply units still to deploy."""
    return sum(1 for u in _seat_left(t, s) if t.unit_type[u] == SUPPLY)


def _army_supply_left(t: Tables, s: SaintLoState) -> int:
    return sum(1 for u in t.supply_units[s.active] if s.pos[u] == OFF)


def _area_roads(t: Tables, s: SaintLoState, area: int) -> int:
    masks = kept_unit_masks(t, s)
    return (t.sector_land_mask[s.active] & ~(masks[0] | masks[1]) & t.road_mask & area).bit_count()
