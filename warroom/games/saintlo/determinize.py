"""A position a seat cannot tell from the real one: what it does not see drawn again at random, for search
over information sets (the next session's spec declares it).

Hidden from a seat (position.py): the other seats' hands, what is left in each deck (a multiset), and during
setup the other army's deployed units. `determinize` reads only what the seat sees: the cards it does not
see are each army's 24 less its discard pile (public) and less the seat's own hand; they are dealt again at
random to the other seats (as many as each holds, which is seen) and the rest make the deck. During setup the
other army's deployed units keep their number, kinds and hexes (the backs the seat sees; the other army has
deployed all of them or none whenever a seat of this one decides: 4.3, 10.1) and are dealt again at random
to those hexes.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import setup
from .seats import army_of, seats_of
from .state import OFF, Phase, SaintLoState
from .tables import AIRCRAFT, SUPPLY

if TYPE_CHECKING:
    from .rules import SaintLoRules


def determinize(rules: SaintLoRules, s: SaintLoState, side: str, rng: random.Random) -> SaintLoState:
    """A copy of `s` with everything `side` cannot see drawn again from `rng` (see the module docstring)."""
    t = rules.t
    twin = s.clone()
    twin.legal = None
    seat = rules.seat_index.get(side, -1)
    mine = army_of(s, seat) if seat >= 0 else -1
    for army in (0, 1):
        unseen = list(t.deck_counts[army])
        for c, n in enumerate(s.discard[army]):
            unseen[c] -= n
        if seat >= 0 and army == mine:
            for c in s.hands[seat]:
                unseen[c] -= 1
        pool = [c for c, n in enumerate(unseen) for _ in range(n)]
        rng.shuffle(pool)
        for other in seats_of(s, army):
            if other == seat:
                continue
            size = len(s.hands[other])
            twin.hands[other] = sorted(pool[:size])
            del pool[:size]
        deck = [0] * len(unseen)
        for c in pool:
            deck[c] += 1
        twin.deck[army] = deck
    if s.phase in (Phase.POSTS, Phase.DEPLOY):
        for army in (0, 1):
            if army != mine:
                _redeploy(rules, twin, army, rng)
    return twin


def _redeploy(rules: SaintLoRules, s: SaintLoState, army: int, rng: random.Random) -> None:
    """The army's face-down units dealt again to the backs the seat sees (position.py: each back's hex and
    whether it is an aircraft): the aircraft among the air backs, the Supply units among the land backs on
    roads (7.5), the other land units among the rest. The hexes and the units placed are what the seat sees
    (the kinds: the whole army, whenever a seat of the other army decides); only who stands where is new."""
    t = rules.t
    units = sorted(u for u in t.army_units[army] if s.pos[u] != OFF)
    air_hexes = sorted(s.pos[u] for u in units if t.unit_type[u] == AIRCRAFT)
    land_hexes = sorted(s.pos[u] for u in units if t.unit_type[u] != AIRCRAFT)
    for u in units:
        setup.lift(t, s, u)
    aircraft = [u for u in units if t.unit_type[u] == AIRCRAFT]
    supply = [u for u in units if t.unit_type[u] == SUPPLY]
    others = [u for u in units if t.unit_type[u] not in (AIRCRAFT, SUPPLY)]
    rng.shuffle(air_hexes)
    for u, h in zip(aircraft, air_hexes, strict=True):
        setup.put(t, s, u, h)
    roads = [h for h in land_hexes if t.on_road[h]]
    rng.shuffle(roads)
    taken = set(roads[: len(supply)])
    for u, h in zip(supply, roads, strict=False):
        setup.put(t, s, u, h)
    rest = [h for h in land_hexes if h not in taken]
    rng.shuffle(rest)
    for u, h in zip(others, rest, strict=True):
        setup.put(t, s, u, h)
