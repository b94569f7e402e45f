"""Attacks (6.2, 7.1-7.4): what a unit may attack, which artillery may support it, and how many dice
each side throws.

Land units (infantry, tanks) attack an enemy land unit or live Command Post in an adjacent hex, never
an aircraft (7.1, 7.2); artillery never attacks by itself (7.3) and Supply units have no attack (7.5).
Aircraft attack an enemy aircraft in an adjacent hex with their upper value and an enemy land unit in
their own hex with their lower value, never a Command Post (7.4). Artillery supports a land unit's
attack on a land unit or Command Post within its range of the target (7.3; NOTES.md: range counted to
the target), if it is face up and no card forbids it; aircraft take no support (7.4).
"""

from __future__ import annotations

from .effects import forbidden, stat
from .state import OFF, TARGET_POST, Attack, SaintLoState
from .tables import (
    ADJACENT_STEPS,
    AIRCRAFT,
    ARTILLERY,
    ATTACK_STAT,
    DEFENSE_STAT,
    LAND_ATTACK_STAT,
    RANGE_STAT,
    TANK,
    Tables,
)
from .tables import INFANTRY as INFANTRY_TYPE


def targets(t: Tables, s: SaintLoState, u: int, passable: int | None = None) -> list[int]:
    """The hexes unit u may attack now (each holds one target for it: see `target_in`); `passable`: its
    army's `movement.occupancy(...).passable`, when the caller has it (a land unit with no enemy beside it
    is answered at once)."""
    here = s.pos[u]
    kind = t.unit_type[u]
    if here == OFF:
        return []
    if passable is not None and kind != AIRCRAFT and not t.step_masks[ADJACENT_STEPS][here] & ~passable:
        return []  # a land unit with no enemy land unit or live Command Post beside it (what `passable` leaves out)
    effects = s.effects  # none in play: the printed values (the common case, kept cheap for playouts)
    if effects and forbidden(t, s, u, "attack"):
        return []
    attack = stat(t, s, u, ATTACK_STAT) if effects else t.base[u][ATTACK_STAT]
    enemy = 1 - t.unit_army[u]
    unit_army = t.unit_army
    out = []
    if kind == AIRCRAFT:
        if attack > 0:
            air_at = s.air_at
            for j in t.air_steps[here]:
                other = air_at[j]
                if other != OFF and unit_army[other] == enemy:
                    out.append(j)
        land = s.land_at[here]
        if land != OFF and unit_army[land] == enemy and stat(t, s, u, LAND_ATTACK_STAT) > 0:
            out.append(here)
        return out
    if kind not in (INFANTRY_TYPE, TANK) or attack <= 0:
        return []
    land_at, post_at = s.land_at, s.post_at
    enemy_posts = range(enemy * 8, enemy * 8 + 8)
    for j in t.air_steps[here]:  # adjacency on the map, whatever the terrain between
        other = land_at[j]
        if (other != OFF and unit_army[other] == enemy) or post_at[j] in enemy_posts:
            out.append(j)
    return out


def target_in(t: Tables, s: SaintLoState, u: int, hex_: int) -> Attack:
    """The attack unit u makes on hex `hex_` (one of `targets`)."""
    if t.unit_type[u] == AIRCRAFT:
        if hex_ == s.pos[u]:
            return Attack(u, s.land_at[hex_], 0)
        return Attack(u, s.air_at[hex_], 0, air=True)
    if s.land_at[hex_] != OFF:
        return Attack(u, s.land_at[hex_], 0)
    return Attack(u, s.post_at[hex_], TARGET_POST)


def target_hex(s: SaintLoState, attack: Attack) -> int:
    return s.post_hex[attack.target] if attack.kind == TARGET_POST else s.pos[attack.target]


def supporters(t: Tables, s: SaintLoState, attack: Attack) -> list[int]:
    """The artillery that may still be called to this attack (7.3): none for aircraft (7.4)."""
    if t.unit_type[attack.attacker] == AIRCRAFT:
        return []
    army = t.unit_army[attack.attacker]
    where = target_hex(s, attack)
    pos, used, unit_type, dist = s.pos, s.used, t.unit_type, t.distance[where]
    out = []
    for a in t.army_units[army]:
        if unit_type[a] != ARTILLERY or pos[a] == OFF or used[a] or a in attack.supporters or a in attack.refused:
            continue
        if a == s.current or forbidden(t, s, a, "support") or stat(t, s, a, ATTACK_STAT) <= 0:
            continue
        if dist[pos[a]] <= stat(t, s, a, RANGE_STAT):
            out.append(a)
    return out


def attack_dice(t: Tables, s: SaintLoState, attack: Attack) -> int:
    """The attacker's dice when they are thrown: its attack (an aircraft's upper value against aircraft,
    lower against land units) plus every supporter's attack (7.3); a supporter whose support a card
    has forbidden since adds nothing; an attacker a card has forbidden to attack throws none."""
    u = attack.attacker
    if forbidden(t, s, u, "attack"):
        return 0
    if t.unit_type[u] == AIRCRAFT:
        return stat(t, s, u, ATTACK_STAT if attack.air else LAND_ATTACK_STAT)
    dice = stat(t, s, u, ATTACK_STAT)
    for a in attack.supporters:
        if s.pos[a] != OFF and not forbidden(t, s, a, "support"):
            dice += stat(t, s, a, ATTACK_STAT)
    return dice


def defense_dice(t: Tables, s: SaintLoState, attack: Attack) -> int:
    """The defender's dice: the unit's defence, or the Command Post's value (2.4, 6.2)."""
    if attack.kind == TARGET_POST:
        army, k = divmod(attack.target, 8)
        return t.post_values[army][k]
    return stat(t, s, attack.target, DEFENSE_STAT)
