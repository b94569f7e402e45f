"""Reorganization (5.4, 8, 10.2): units bought at their cost entering next to an own Command Post, units
swapped for half their total cost rounded down (Supply units never), and the turn's end. In the team game
Player A reorganizes, then Player B.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import setup, turn
from .actions import BUY, END, Action
from .effects import play_ids
from .movement import kept_unit_masks
from .names import kind_name, unit_name
from .seats import ARMIES, army_of, kind_for, partner, seats_of
from .state import OFF, Phase, SaintLoState
from .tables import AIRCRAFT, INFANTRY, SUPPLY, picker

if TYPE_CHECKING:
    from .rules import SaintLoRules


def start_reorganization(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """5.3: every face-down unit is flipped back up; 5.4 begins."""
    s.used = [False] * rules.t.n_units
    s.ended = [False] * s.seats
    s.phase = Phase.REORGANIZE
    s.seat = seats_of(s, s.active)[0]
    if events.on:
        events.emit("reorganization", f"{ARMIES[s.active]} flips its units face up: Reorganization.", "Saint-Lo 5.4")


def entry_hexes(rules: SaintLoRules, s: SaintLoState, army: int) -> set[int]:
    """5.4: the hexes adjacent to the army's live Command Posts."""
    out: set[int] = set()
    for k in range(8):
        h = s.post_hex[army * 8 + k]
        if h >= 0:
            out.update(rules.t.air_steps[h])
    return out


def _near_posts(rules: SaintLoRules, s: SaintLoState, army: int) -> tuple[list[int], int]:
    """`entry_hexes` in hex order and as a mask, remembered by where the army's posts stand (they seldom
    change)."""
    posts = tuple(s.post_hex[army * 8 : army * 8 + 8])
    cache = rules.t.entry_cache
    near = cache.get(posts)
    if near is None:
        if len(cache) >= 1024:
            cache.clear()
        hexes = sorted(entry_hexes(rules, s, army))
        near = cache[posts] = (hexes, sum(rules.t.hex_bit[h] for h in hexes))
    return near


def reorganize_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    t = rules.t
    seat, army = s.seat, army_of(s, s.seat)
    supplies = s.supplies[army]
    out: list[str] = []
    entry: dict[int, Callable[[list[str]], tuple[str, ...]]] = {}
    pos = s.pos
    kind_cost, kind_units = t.kind_cost, t.kind_units
    for k in t.army_kinds[army]:
        if kind_cost[k] > supplies or OFF not in map(pos.__getitem__, kind_units[k]):
            continue  # too dear, or every counter of the kind is on the board
        if not kind_for(t, s, seat, k):
            continue
        kind_type = t.kind_type[k]
        group = kind_type if kind_type in (AIRCRAFT, SUPPLY) else INFANTRY  # every other land type alike
        pick = entry.get(group)
        if pick is None:
            pick = entry[group] = _entry_picker(rules, s, army, group)
        out.extend(pick(t.buy_ids[k]))
    swappable, swap_ids = t.swappable[army], t.swap_ids  # 8: Supply units are never swapped
    if s.seats != 2:  # 10: the player's own types (`seats.kind_for`)
        swappable = t.role_swappable[army][seat % 2]
    out.extend([swap_ids[u] for u in swappable if pos[u] != OFF])
    out.extend(play_ids(t, s, seat, army))
    out.append(END)
    return out


def _entry_picker(
    rules: SaintLoRules, s: SaintLoState, army: int, group: int
) -> Callable[[list[str]], tuple[str, ...]]:
    """The picker of a group's entry hexes (`entry_choices`: aircraft, Supply units, every other land type),
    remembered by what they depend on: the army, where the Command Posts stand, and which hexes beside the
    army's hold a unit of the kind that blocks entry (an aircraft for aircraft, a land unit for the others)."""
    t = rules.t
    posts = tuple(s.post_hex)
    near, near_mask = _near_posts(rules, s, army)
    masks = kept_unit_masks(t, s)
    standing = masks[2] | masks[3] if group == AIRCRAFT else masks[0] | masks[1]
    key = (army * 8 + group, posts, near_mask & standing)
    cache = t.entry_pickers
    pick = cache.get(key)
    if pick is None:
        if len(cache) >= 10_000:
            cache.clear()
        pick = cache[key] = picker(entry_choices(rules, s, group, near))
    return pick


def entry_choices(rules: SaintLoRules, s: SaintLoState, kind_type: int, near: list[int]) -> list[int]:
    """The hexes of `near` (next to an own Command Post) a bought unit of this type may enter: 5.4 with 4.3 and
    7.5 (NOTES.md): an aircraft a hex with no aircraft; a land unit a land hex with no land unit and no Command
    Post; a Supply unit, such a hex on a road."""
    if kind_type == AIRCRAFT:
        air_at = s.air_at
        return [h for h in near if air_at[h] == OFF]
    land_ok, land_at, post_at = rules.t.land_ok, s.land_at, s.post_at
    free = [h for h in near if land_ok[h] and land_at[h] == OFF and post_at[h] == OFF]
    if kind_type == SUPPLY:
        on_road = rules.t.on_road
        return [h for h in free if on_road[h]]
    return free


def do_reorganize(rules: SaintLoRules, s: SaintLoState, act: Action, events: Events) -> None:
    t = rules.t
    army = army_of(s, s.seat)
    if act.kind == END:
        s.ended[s.seat] = True
        other = partner(s, s.seat)
        if not s.ended[other]:
            s.seat = other
            return
        turn.end_turn(rules, s, events)
        return
    if act.kind == BUY:
        k = t.kind_index[act.subject]
        u = next(u for u in t.kind_units[k] if s.pos[u] == OFF)
        s.supplies[army] -= t.kinds[k].cost
        setup.put(t, s, u, rules.hex_of(act.where))
        if events.on:
            events.emit(
                "buy",
                f"{rules.sides[s.seat]} buys {kind_name(t, k)} for {t.kinds[k].cost} Supplies; "
                f"it enters on {act.where}.",
                "Saint-Lo 5.4",
            )
        return
    # SWAP (8): half the total cost swapped this phase, rounded down
    u = t.unit_index[act.subject]
    name = unit_name(t, s, u) if events.on else ""  # named on its hex, before it leaves the board
    before = s.swapped[army] // t.rules.swap_divisor
    s.swapped[army] += t.cost[u]
    gain = s.swapped[army] // t.rules.swap_divisor - before
    s.supplies[army] += gain
    setup.remove_unit(rules.t, s, u)
    if events.on:
        events.emit("swap", f"{rules.sides[s.seat]} swaps {name} (cost {t.cost[u]}) for {gain} Supplies.", "Saint-Lo 8")
