"""7.3, 7.6 and 10.0: air support assets — which may fly to a battle (range, 7.3A-C), the air combat on
the d12 (10.2), and the return to base (7.6)."""

from __future__ import annotations

from warroom.engine.events import Events

from .catalog import Catalog
from .losses import take_loss
from .stacking import may_join
from .state import RETURN_TO_BASE, TunisiaState
from .supply import friendly_airfields

AIR_SUPPORT, AIR_COMBAT, RETURN = "7.3", "10.2", "7.6"


def drm_of(cat: Catalog, s: TunisiaState, piece: int) -> int:
    """A support asset's DRM on its current side."""
    return cat.reduced_drm[piece] if s.reduced[piece] else cat.drm[piece]


def air_in_range(cat: Catalog, s: TunisiaState, side: int, hex_: int, defending: bool = False) -> list[int]:
    """`side`'s air support assets on an airfield with `hex_` within their range factor (7.3A, 7.3C). 7.3A and
    7.3C read alike: an asset flies "to the hex containing" the attacking or the defending unit, so one whose
    airfield is that very hex (range 0) may support it. Where the defended hex holds no unit (7.3D: lone support
    assets), an air asset standing in it is one of the pieces attacked, not a supporter flying in, and does not
    fly off to its own defence (12.4, 13.3 decide its fate; NOTES.md, reading 6)."""
    distance = cat.board.grid.distance
    loc, is_air, is_unit, ranges = s.loc, cat.is_air, cat.is_unit, cat.range
    own = cat.by_side[side]
    lone = defending and not any(loc[p] == hex_ and is_unit[p] for p in own)
    return [
        p
        for p in own
        if is_air[p] and loc[p] >= 0 and distance(loc[p], hex_) <= ranges[p] and not (lone and loc[p] == hex_)
    ]


def fly(s: TunisiaState, piece: int) -> None:
    """The asset leaves its airfield for the battle; it ends in the Return to Base box (7.4D), so it
    stands there from now on (it never counts toward the battle hex's stacking: NOTES.md)."""
    s.loc[piece] = RETURN_TO_BASE


def air_combat(
    cat: Catalog,
    s: TunisiaState,
    attacker_air: int,
    attacker_roll: int,
    defender_air: int,
    defender_roll: int,
    events: Events,
) -> tuple[int, int]:
    """10.2: the lower modified roll wins; the loser is reduced (eliminated if already reduced) and stays in
    the Return to Base box; equal results, or both zero or less, reduce both. Returns the assets that
    join the ground combat (-1 for a loser)."""
    a = attacker_roll + drm_of(cat, s, attacker_air)
    d = defender_roll + drm_of(cat, s, defender_air)
    losers: tuple[int, ...]
    if a == d or (a <= 0 and d <= 0):
        losers = (attacker_air, defender_air)
    elif a < d:
        losers = (defender_air,)
    else:
        losers = (attacker_air,)
    if events.on:
        name = cat.name
        lost = f"{name[losers[0]]} and {name[losers[1]]} lose" if len(losers) == 2 else f"{name[losers[0]]} loses"
        events.emit(
            "air_combat",
            f"Air combat: {name[attacker_air]} rolls {attacker_roll}{drm_of(cat, s, attacker_air):+d} = {a}, "
            f"{name[defender_air]} rolls {defender_roll}{drm_of(cat, s, defender_air):+d} = {d}: {lost}.",
            AIR_COMBAT,
            attacker=a,
            defender=d,
        )
    for p in losers:
        take_loss(cat, s, p, events)
    return (-1 if attacker_air in losers else attacker_air), (-1 if defender_air in losers else defender_air)


def base_options(cat: Catalog, s: TunisiaState, piece: int, occupants: dict[int, list[int]]) -> list[int]:
    """7.6A-B: any friendly airfield hex free of enemy pieces and of other air assets (one a hex), where
    the stack may take it (6.0C)."""
    side = cat.side[piece]
    out = []
    for h in friendly_airfields(cat, side):
        here = occupants.get(h)
        if here and (cat.side[here[0]] != side or any(cat.is_air[p] for p in here)):
            continue
        if may_join(cat, here, (piece,)):
            out.append(h)
    return out
