"""Setup in bulk (4.2, 4.3): the decisions that place all a seat still has to place at once, the computer's way.

Placing one by one takes 8 Command Post decisions and 65 deployments a side. Besides those the setup offers:

    ready            4.2: the army's remaining Command Posts as the computer places them (the strongest where the
                     enemy must come furthest); 4.3: the seat's remaining counters as the computer deploys them
    sector west      4.3: the seat's remaining counters all in the west of its sector (columns 01-12), the
    sector east      computer choosing the hexes; offered while they all fit there

A deployment in bulk is varied by one die (a chance node: the game's seeded dice choose, and the record keeps
the roll, so a replay places the same counters on the same hexes): each face shifts the computer's preferences
by up to `SPREAD` rows, hex by hex, so two games seldom get the same deployment. Every counter goes where a
single `deploy` would be legal at that moment (`setup.deploy_hexes`, the one check of 4.3 and 7.5), one after
the other in the order single deployments list them, so the bulk keeps every restriction one by one keeps.
What the other army sees is what it sees of single deployments: backs on hexes (position.py). NOTES.md says
why the sectors are halves and why the Command Posts need no die.
"""

from __future__ import annotations

import random
from functools import cache

from .actions import READY, SECTOR
from .movement import kept_unit_masks
from .seats import kind_for
from .setup import deploy, deploy_hexes, place_post, post_choices, posts_left
from .state import OFF, SaintLoState
from .tables import AIRCRAFT, ARTILLERY, SUPPLY, Tables

AREAS = ("west", "east")
"""The parts of an army's sector (4.3) a deployment in bulk may fill, by columns: `sector west` the western
half of the board's columns, `sector east` the eastern. `SaintLoState.bulk` holds WHOLE or 1 + an index here."""
WHOLE = 0
"""`SaintLoState.bulk` for `ready`: the whole sector."""
SPREAD = 1.5
"""How far a die shifts the computer's preferences: a hex up to this many rows further from where the
heuristic wants a unit may be preferred (NOTES.md: enough to vary, too little to send a tank to the rear)."""


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


def deploy_rest(t: Tables, s: SaintLoState, code: int, face: int) -> list[int]:
    """4.3: every counter the seat has still to deploy, face down, kind by kind in the order the single
    deployments list them, each on the legal hex (`setup.deploy_hexes`) of `code`'s area the computer likes
    best with the die's `face` shifting its likes; the units placed. Within an area, road hexes are kept for
    the seat's Supply units still to come there, as `deploy_hexes` keeps them in the whole sector."""
    army = s.active
    area = area_mask(t, army, code)
    shift = _shifts(t, army, face)
    labels, bit, roads = t.labels, t.hex_bit, t.road_mask
    placed = []
    for k in t.army_kinds[army]:
        if not kind_for(t, s, s.seat, k):
            continue
        kind_type = t.kind_type[k]
        for u in t.kind_units[k]:
            if s.pos[u] != OFF:
                continue
            hexes = [h for h in deploy_hexes(t, s, army, kind_type) if bit[h] & area]
            if kind_type not in (AIRCRAFT, SUPPLY) and _area_roads(t, s, area) <= _supply_left(t, s):
                hexes = [h for h in hexes if not bit[h] & roads]
            if not hexes:
                raise AssertionError("no hex left in the area")  # `fits` offers only an area they all fit in
            h = max(hexes, key=lambda x: (deploy_worth(t, army, kind_type, x) + shift[x], labels[x]))
            placed.append(deploy(t, s, k, h))
    return placed


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
