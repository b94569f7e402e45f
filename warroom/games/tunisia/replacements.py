"""7.7 Replacement Phase: how many the phasing side may take, and what it may rebuild or replace.

Rebuild: flip a reduced two-step piece on the map to its front (7.7F-G), never a unit in an EZOC (7.7E,
9.2B). Replace: reclaim an eliminated support asset from the dead pile (7.7G), an air asset to a
friendly airfield without another air asset (7.7H), any other to a controlled village or port (7.7I),
never into an EZOC. No eliminated unit ever comes back (7.7E).
"""

from __future__ import annotations

from .catalog import AXIS, Catalog
from .stacking import may_join
from .state import DEAD, TunisiaState
from .supply import friendly_airfields
from .victory import allied_ports, controller
from .zoc import enemy_zoc

REPLACEMENTS, PORT_ROLL, TUNIS = "7.7B", "7.7C", "7.7D"


def tunis_lost(cat: Catalog, s: TunisiaState) -> bool:
    """7.7D: Tunis is Allied-controlled (an Allied unit in it, 4.0A)."""
    tunis = cat.board.place_named["Tunis"]
    return any(s.loc[p] == tunis for p in cat.by_side[1] if cat.is_unit[p])


def axis_ports(cat: Catalog, s: TunisiaState) -> int:
    """7.7C: the ports the Axis controls (those not Allied-occupied, NOTES.md)."""
    return len(cat.board.ports) - allied_ports(cat, s)


def rebuild_options(cat: Catalog, s: TunisiaState) -> list[int]:
    side = s.player
    ezoc = enemy_zoc(cat, s, side)
    loc = s.loc
    return [
        p
        for p in cat.by_side[side]
        if loc[p] >= 0 and s.reduced[p] and cat.steps[p] == 2 and not (cat.is_unit[p] and loc[p] in ezoc)
    ]


def replace_options(cat: Catalog, s: TunisiaState, occupants: dict[int, list[int]]) -> list[tuple[int, int]]:
    """(support asset, hex) pairs: each eliminated support asset of the phasing side and where it may go."""
    side = s.player
    board = cat.board
    ezoc = enemy_zoc(cat, s, side)
    air_hexes = [h for h in friendly_airfields(cat, side) if h not in ezoc]
    places = [h for h in sorted(board.place_at) if h not in ezoc and controller(cat, s, h, occupants) == side]
    out = []
    for p in cat.by_side[side]:
        if s.loc[p] != DEAD or cat.is_unit[p]:
            continue
        if cat.is_air[p]:
            for h in air_hexes:
                here = occupants.get(h)
                if here and (cat.side[here[0]] != side or any(cat.is_air[q] for q in here)):
                    continue
                if may_join(cat, here, (p,)):
                    out.append((p, h))
        else:
            for h in places:
                here = occupants.get(h)
                if here and cat.side[here[0]] != side:
                    continue  # 8.7A: never into a hex an enemy piece holds (a port held by a lone enemy asset)
                if may_join(cat, here, (p,)):
                    out.append((p, h))
    return out


def base_capacity(s: TunisiaState, cat: Catalog) -> int:
    """7.7B: the Axis one, the Allies two a player-turn; 7.7D: none for the Axis while Tunis is Allied."""
    spec = cat.board.counters.replacements
    if s.player == AXIS:
        return 0 if tunis_lost(cat, s) else spec.axis
    return spec.allied
