"""Dragoon's German BOT: the chart line rolled each turn, and the counterattacks it orders.

Rulebook: Sequence of Play (German BOT Actions), Resolving Unit Attacks (German attacks),
German Desperate Defense, Air Support (bad weather) and FFI (the defender's re-roll).
The chart itself is data (`bot_chart` in data/dragoon.toml); this module interprets it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from warroom.engine.events import Events

from .options import STALL_ONLY
from .sections import ACTION_CHARTS, ATTACKS, BOT_CHART, DESPERATE
from .state import BOT_ATTACK_ROLL, BOT_REROLL, IN_BOX, BotAttack, DragoonState

if TYPE_CHECKING:
    from .rules import DragoonRules


def bot_action(rules: DragoonRules, s: DragoonState, roll: int, events: Events) -> None:
    """Carry out the chart line for `roll`, effect by effect; attacks queue up and are rolled in turn."""
    b = rules.board
    s.bot_roll = roll
    if events.on:
        line = b.bot_lines[roll]
        events.emit("bot", f"German BOT rolls {roll}: {line.title}. {line.text}", BOT_CHART, roll=roll)
    queue: list[int] = []
    for kind, units in b.bot_effects[roll]:
        if kind == "bad_weather":
            s.bad_weather_next = True
        elif kind == "stall":
            for i in _allied_units(rules, s, units):
                if s.allied_pos[i] != IN_BOX and not s.stalled[i]:
                    s.stalled[i] = True
                    if events.on:
                        events.emit("stalled", f"{b.allied[i].id} is stalled.", ACTION_CHARTS)
        elif kind == "desperate":
            for g in _german_units(rules, s, units, range(len(b.german))):
                if not s.desperate[g] and s.german_loc[g] >= 0:
                    s.desperate[g] = True
                    if events.on:
                        events.emit(
                            "desperate",
                            f"{b.german[g].name} flips to desperate defense ({b.desperate_drm[g]:+d}).",
                            DESPERATE,
                        )
        else:
            for g in _german_units(rules, s, units, b.bot_attackers):
                if g not in queue:
                    queue.append(g)
    s.bot_queue = queue
    next_bot_attack(rules, s, events)


def _allied_units(rules: DragoonRules, s: DragoonState, units: tuple[int, ...] | None) -> Sequence[int]:
    """The Allied units a chart effect names (board.bot_effects); None, "adjacent": those with a German
    unit in front of them."""
    if units is None:
        next_stop, german_loc = rules.next_stop, s.german_loc
        # a unit at the end of its route has no stop ahead (-1), which is not the German arrival box (also -1)
        return [
            i
            for i, p in enumerate(s.allied_pos)
            if p != IN_BOX and (ahead := next_stop[i][p + 1]) >= 0 and ahead in german_loc
        ]
    return units


def _german_units(
    rules: DragoonRules, s: DragoonState, units: tuple[int, ...] | None, adjacent_from: Iterable[int]
) -> Sequence[int]:
    """The German units a chart effect names (board.bot_effects); None, "adjacent": those of `adjacent_from`
    facing an Allied unit.

    For attacks "adjacent" means the route units and the 11th PzD (the retreating column does not
    counterattack); for desperate defense, every German unit facing an Allied unit (NOTES.md).
    """
    if units is None:
        next_stop, where = rules.next_stop, s.german_loc
        fronts = {next_stop[i][p + 1] for i, p in enumerate(s.allied_pos) if p != IN_BOX}  # as faces_allied asks
        return [g for g in adjacent_from if where[g] >= 0 and where[g] in fronts]
    return units


def faces_allied(rules: DragoonRules, s: DragoonState, g: int) -> bool:
    """Whether German unit g holds the location some Allied unit on the map attacks next."""
    loc = s.german_loc[g]
    if loc < 0:
        return False
    pos = s.allied_pos
    for i, p in rules.facing.get(loc, ()):  # noqa: SIM110 - a loop: any() over a generator costs more here
        if pos[i] == p:
            return True
    return False


def bot_target(rules: DragoonRules, s: DragoonState, g: int) -> int:
    """The Allied unit German unit g would counterattack (-1: none it may attack)."""
    loc = s.german_loc[g]
    if loc < 0:
        return -1
    best = -1
    stall_only = g == rules.board.panzer and s.options["panzer_counterattack"] == STALL_ONLY
    pos = s.allied_pos
    for i, p in rules.facing.get(loc, ()):  # the units on the map that attack loc next, by unit
        if pos[i] != p:
            continue
        if s.stalled[i] and (p == 0 or rules.board.routes[i][p - 1] in s.german_loc):
            # a stalled unit on a beach or drop zone may not be attacked; nor one whose retreat
            # location holds a German unit: Allied units are never eliminated (Resolving Unit Attacks)
            continue
        if s.stalled[i] and stall_only:
            # option: against a stalled unit a German win is an advance, which the 11th PzD never
            # makes ("remains in Avignon", "remains in Montelimar"): no result, so no attack
            continue
        if best < 0 or (s.stalled[i] and not s.stalled[best]):
            best = i  # the BOT prefers a stalled unit it can push back
    return best


def next_bot_attack(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    """Start the next queued counterattack that has a target; with none left the turn ends."""
    b = rules.board
    while s.bot_queue:
        g = s.bot_queue.pop(0)
        target = bot_target(rules, s, g)
        if target < 0:
            if events.on and s.german_loc[g] >= 0:
                events.emit("no_target", f"{b.german[g].name} has no Allied unit it may attack.", ATTACKS)
            continue
        s.bot_attack = BotAttack(g, target)
        s.phase = BOT_ATTACK_ROLL
        if events.on:
            outcome = "retreat it" if s.stalled[target] else "stall it"
            events.emit(
                "counterattack",
                f"{b.german[g].name} attacks {b.allied[target].id} in "
                f"{b.locations[rules.allied_location(s, target)].name}: {b.advance_on}+ to {outcome}.",
                ATTACKS,
            )
        return
    rules.turn_end(s, events)


def resolve_bot_roll(rules: DragoonRules, s: DragoonState, roll: int, events: Events) -> None:
    """The German attack die; a success against a unit with FFI asks the Allied player about a re-roll."""
    b = rules.board
    attack = s.bot_attack
    assert attack is not None
    target = attack.target
    success = roll >= b.advance_on  # desperate defense has no effect on German counterattacks
    if events.on:
        events.emit("die", f"German attack roll {roll}: {'success' if success else 'no result'}.", ATTACKS, roll=roll)
    if success and s.ffi[target] and not attack.rerolled:
        # shown while the Allied player decides (a settled record is cleared)
        s.bot_attack = BotAttack(attacker=attack.attacker, target=target, rerolled=attack.rerolled, roll=roll)
        s.phase = BOT_REROLL
        return
    finish_bot_attack(rules, s, success, events)


def finish_bot_attack(rules: DragoonRules, s: DragoonState, success: bool, events: Events) -> None:
    """A successful German attack stalls an active unit, or retreats a stalled one and advances."""
    b = rules.board
    attack = s.bot_attack
    assert attack is not None
    g, target = attack.attacker, attack.target
    if success:
        if not s.stalled[target]:
            s.stalled[target] = True
            if events.on:
                events.emit("stalled", f"{b.allied[target].id} is stalled.", ATTACKS)
        else:
            vacated = rules.allied_location(s, target)
            s.allied_pos[target] -= 1
            if events.on:
                events.emit(
                    "allied_retreat",
                    f"{b.allied[target].id} retreats from {b.locations[vacated].name} to "
                    f"{b.locations[rules.allied_location(s, target)].name}.",
                    ATTACKS,
                )
            # 11th PzD Special Rules: it "remains" where it is; the stalled unit still retreats (NOTES.md)
            if g != b.panzer and not rules.allied_at(s, vacated):
                s.german_loc[g] = vacated
                s.control[vacated] = False
                if events.on:
                    events.emit(
                        "german_advance", f"{b.german[g].name} advances into {b.locations[vacated].name}.", ATTACKS
                    )
    s.bot_attack = None
    next_bot_attack(rules, s, events)
