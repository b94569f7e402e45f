"""Who sits where: two seats (one an army each) or four (10: two teams of two, army = seat // 2).

In the four-player game Player A (role 0) commands infantry and aircraft, Player B (role 1) artillery
and tanks, and either uses the shared Supply units (10: "Only Supply units are shared").
"""

from __future__ import annotations

from .state import SaintLoState
from .tables import ROLE_TYPES, SUPPLY, Tables

ARMIES = ("Allied", "Axis")
"""The armies, in their index order (0 Allied, 1 Axis): the two-player sides and the team names."""


def army_of(s: SaintLoState, seat: int) -> int:
    return seat if s.seats == 2 else seat // 2


def seats_of(s: SaintLoState, army: int) -> tuple[int, ...]:
    return (army,) if s.seats == 2 else (2 * army, 2 * army + 1)


def partner(s: SaintLoState, seat: int) -> int:
    """The other seat of the team (the seat itself in the two-player game)."""
    return seat if s.seats == 2 else seat ^ 1


def may_use(t: Tables, s: SaintLoState, seat: int, u: int) -> bool:
    """10: a player may not use his partner's units; Supply units are shared."""
    if t.unit_army[u] != army_of(s, seat):
        return False
    return s.seats == 2 or t.unit_type[u] == SUPPLY or t.unit_type[u] in ROLE_TYPES[seat % 2]


def kind_for(t: Tables, s: SaintLoState, seat: int, kind: int) -> bool:
    """Whether the seat commands (deploys, buys, swaps) counters of this kind (10, 10.1)."""
    if t.kind_army[kind] != army_of(s, seat):
        return False
    if s.seats == 2:
        return True
    kind_type = t.kind_type[kind]
    if kind_type == SUPPLY:
        return seat % 2 == 1  # NOTES.md: Player B deploys and buys the shared Supply units
    return kind_type in ROLE_TYPES[seat % 2]


def owner_seat(t: Tables, s: SaintLoState, u: int) -> int:
    """The seat commanding unit u (a Supply unit: Player B's for setup and buying)."""
    army = t.unit_army[u]
    if s.seats == 2:
        return army
    return 2 * army + (0 if t.unit_type[u] in ROLE_TYPES[0] else 1)
