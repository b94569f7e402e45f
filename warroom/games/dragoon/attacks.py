"""Dragoon's Allied attacks: the attack die, advances, German retreats and eliminations.

Rulebook: Resolving Unit Attacks, German Desperate Defense, 11th PzD Special Rules and Allied
Advance/German Retreat Restrictions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import SILENT, Events

from .advance import NEVER_ENTERED, advance_restriction
from .movement import infantry_at
from .options import ELIMINATED_THERE
from .sections import ATTACKS, PANZER_RULE, RESTRICTIONS
from .state import ATTACK_REROLL, BEYOND, ELIMINATED, INVADE, OPPOSED, AlliedAttack, DragoonState

if TYPE_CHECKING:
    from .rules import DragoonRules


def resolve_attack_roll(rules: DragoonRules, s: DragoonState, roll: int, events: Events) -> None:
    """The Allied attack die: advance or not; a failure with an FFI marker asks for the re-roll."""
    b = rules.board
    attack = s.attack
    assert attack is not None
    i, drm = attack.unit, attack.drm
    if attack.mode == OPPOSED:
        good = roll + drm >= b.advance_on
        if events.on:
            events.emit(
                "die",
                f"Attack roll {roll}, modified {roll + drm}: {'Advance' if good else 'No Advance'} "
                f"(needs {b.advance_on}+).",
                ATTACKS,
                roll=roll,
            )
    else:
        good = roll != b.stall_on
        if events.on:
            events.emit(
                "die", f"Roll {roll}: {'advance' if good else 'advance, but the unit is stalled'}.", ATTACKS, roll=roll
            )
    if not good and s.ffi[i] and not attack.rerolled:
        # kept for 'accept' (a record that the roll settles is cleared at once)
        s.attack = AlliedAttack(
            unit=i,
            target=attack.target,
            mode=attack.mode,
            defender=attack.defender,
            drm=drm,
            air=attack.air,
            rerolled=attack.rerolled,
            roll=roll,
        )
        s.phase = ATTACK_REROLL
        return
    finish_attack(rules, s, roll, events)


def finish_attack(rules: DragoonRules, s: DragoonState, roll: int, events: Events) -> None:
    """Carry out the (final) attack roll: invasions and unopposed attacks always advance."""
    b = rules.board
    attack = s.attack
    assert attack is not None
    i, target, mode, defender = attack.unit, attack.target, attack.mode, attack.defender
    if mode != OPPOSED:
        s.allied_pos[i] = 0 if mode == INVADE else s.allied_pos[i] + 1
        s.stalled[i] = roll == b.stall_on
        enter(rules, s, target, i)
        if events.on:
            events.emit(
                "advance",
                f"{b.allied[i].id} advances into "
                f"{b.locations[target].name}{' and is stalled' if s.stalled[i] else ''}.",
                ATTACKS,
            )
    elif roll + attack.drm >= b.advance_on:
        defeat(rules, s, i, target, defender, events)
    elif events.on:
        events.emit("no_advance", f"No Advance: {b.german[defender].name} holds {b.locations[target].name}.", ATTACKS)
    rules.after_action(s, events)


def defeat(rules: DragoonRules, s: DragoonState, i: int, target: int, defender: int, events: Events = SILENT) -> None:
    """An Allied attack succeeded: the defender retreats (or is eliminated); the attacker advances
    into the place if it is left empty and the restrictions allow (advance.py)."""
    b = rules.board
    if defender == b.panzer:
        # 11th PzD never retreats: flipped from desperate and placed under the infantry
        s.desperate[defender] = False
        if events.on:
            events.emit(
                "panzer_defeated",
                f"{b.german[defender].name} is defeated: it flips to normal status and does not retreat.",
                PANZER_RULE,
            )
    else:
        german_retreat(rules, s, defender, events)
    if target in s.german_loc:
        return
    barred = advance_restriction(rules, s, i, target)
    if barred is not None:
        if barred == NEVER_ENTERED and events.on:
            events.emit("no_entry", f"Allied units can never advance into {b.locations[target].name}.", RESTRICTIONS)
        return
    s.allied_pos[i] += 1
    enter(rules, s, target, i)
    if events.on:
        events.emit("advance", f"{b.allied[i].id} advances into {b.locations[target].name}.", ATTACKS)


def german_retreat(rules: DragoonRules, s: DragoonState, g: int, events: Events) -> None:
    """A defeated German unit retreats a location (turning desperate where it should), or is eliminated."""
    b = rules.board
    here = s.german_loc[g]
    s.desperate[g] = False  # a defeated unit flips to its non-desperate side (Desperate Defense)
    dest, why = retreat_destination(rules, s, g, here)
    name = b.german[g].name
    if dest >= 0:
        s.german_loc[g] = dest
        s.control[dest] = False
        text = f"{name} retreats from {b.locations[here].name} to {b.locations[dest].name}"
        if b.desperate_for[dest] == g:
            s.desperate[g] = True
            text += " and turns to desperate defense"
        if g == b.id_198 and dest == b.avignon:
            s.entered_198 = True
        if events.on:
            events.emit("retreat", text + ".", ATTACKS if b.route_of[g] >= 0 else RESTRICTIONS)
    elif dest == BEYOND:
        s.german_loc[g] = BEYOND
        if events.on:
            events.emit(
                "retreat", f"{name} retreats off the map to {b.retreat_beyond[g]}; it is never eliminated.", ATTACKS
            )
    else:
        s.german_loc[g] = ELIMINATED
        s.eliminated[g] = s.turn
        if events.on:
            events.emit(
                "eliminated", f"{name} is eliminated: {why} (+1 VP).", ATTACKS if b.route_of[g] >= 0 else RESTRICTIONS
            )


def retreat_destination(rules: DragoonRules, s: DragoonState, g: int, here: int) -> tuple[int, str]:
    """Where a defeated German unit goes: a location index, BEYOND, or ELIMINATED with the reason."""
    b = rules.board
    track = b.german_route[g]
    if track:
        k = track.index(here) if here in track else -1
        if k < 0 or k + 1 >= len(track):
            if b.never_eliminated[g]:
                return BEYOND, ""
            return ELIMINATED, "it has reached the last location on its track"
        dest = track[k + 1]
    else:
        k = b.escape_pos.get(here, -1)
        if here == b.montelimar:
            if s.options["montelimar_infantry"] == ELIMINATED_THERE:
                # German Movement: "If located in Montelimar and attacked, a German infantry unit is
                # eliminated instead of retreating" (the option; the default reads German Retreats)
                return ELIMINATED, "infantry beaten in Montelimar is eliminated instead of retreating"
            dest = b.bollene  # German Retreats: forced retreats from Montelimar go south to Bollene
        elif k < 0:
            return ELIMINATED, "it has no location to retreat into"
        else:
            dest = b.escape_track[k + 1]  # north, to the next lower-numbered location
    if rules.allied_at(s, dest):
        return ELIMINATED, f"its retreat into {b.locations[dest].name} is blocked by an Allied unit"
    if not b.is_panzer[g] and infantry_at(b.panzer, s.german_loc, dest, g):
        return ELIMINATED, f"it would retreat into {b.locations[dest].name}, already held by German infantry"
    return dest, ""


def enter(rules: DragoonRules, s: DragoonState, loc: int, i: int) -> None:
    """An Allied unit enters a location: it is Allied-controlled until a German unit enters."""
    b = rules.board
    if not s.control[loc]:
        s.control[loc] = True
        s.captured.setdefault(loc, s.turn)
    if i == b.vi_corps and loc == b.crest:
        s.vi_corps_in_crest = True
