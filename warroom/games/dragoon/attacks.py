"""Dragoon's Allied attacks: the attack die, advances, German retreats and eliminations.

Rulebook: Resolving Unit Attacks, German Desperate Defense, 11th PzD Special Rules and Allied
Advance/German Retreat Restrictions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.ruleset import Event

from .options import ELIMINATED_THERE
from .sections import ATTACKS, PANZER_RULE, RESTRICTIONS
from .state import ATTACK_REROLL, BEYOND, ELIMINATED, INVADE, OPPOSED, DragoonState

if TYPE_CHECKING:
    from .rules import DragoonRules


def resolve_attack_roll(rules: DragoonRules, s: DragoonState, roll: int, events: list[Event], log: bool) -> None:
    """The Allied attack die: advance or not; a failure with an FFI marker asks for the re-roll."""
    b = rules.board
    attack = s.attack
    assert attack is not None
    i, _target, mode, _defender, drm, _air, rerolled, _ = attack
    attack[7] = roll
    if mode == OPPOSED:
        good = roll + drm >= b.advance_on
        if log:
            events.append({"type": "die", "text": f"Attack roll {roll}, modified {roll + drm}: {'Advance' if good else 'No Advance'} (needs {b.advance_on}+).", "rule": ATTACKS, "roll": roll})
    else:
        good = roll != b.stall_on
        if log:
            events.append({"type": "die", "text": f"Roll {roll}: {'advance' if good else 'advance, but the unit is stalled'}.", "rule": ATTACKS, "roll": roll})
    if not good and s.ffi[i] and not rerolled:
        s.phase = ATTACK_REROLL
        return
    finish_attack(rules, s, roll, events, log)


def finish_attack(rules: DragoonRules, s: DragoonState, roll: int, events: list[Event], log: bool) -> None:
    """Carry out the (final) attack roll: invasions and unopposed attacks always advance."""
    b = rules.board
    attack = s.attack
    assert attack is not None
    i, target, mode, defender, drm = attack[0], attack[1], attack[2], attack[3], attack[4]
    name = b.allied[i].id
    if mode != OPPOSED:
        s.allied_pos[i] = 0 if mode == INVADE else s.allied_pos[i] + 1
        s.stalled[i] = roll == b.stall_on
        enter(rules, s, target, i)
        if log:
            events.append({"type": "advance", "text": f"{name} advances into {b.locations[target].name}{' and is stalled' if s.stalled[i] else ''}.", "rule": ATTACKS})
    elif roll + drm >= b.advance_on:
        defeat(rules, s, i, target, defender, events, log)
    elif log:
        events.append({"type": "no_advance", "text": f"No Advance: {b.german[defender].name} holds {b.locations[target].name}.", "rule": ATTACKS})
    rules._after_action(s, events, log)


def defeat(rules: DragoonRules, s: DragoonState, i: int, target: int, defender: int, events: list[Event], log: bool) -> None:
    """An Allied attack succeeded: the defender retreats (or is eliminated); the attacker advances."""
    b = rules.board
    if defender == b.panzer:
        # 11th PzD never retreats: flipped from desperate and placed under the infantry
        s.desperate[defender] = False
        if log:
            events.append({"type": "panzer_defeated", "text": f"{b.german[defender].name} is defeated: it flips to normal status and does not retreat.", "rule": PANZER_RULE})
    else:
        german_retreat(rules, s, defender, events, log)
    if target in s.german_loc:
        return
    if target == b.attack_only[i]:
        if log:
            events.append({"type": "no_entry", "text": f"Allied units can never advance into {b.locations[target].name}.", "rule": RESTRICTIONS})
        return
    if target == b.avignon and not s.entered_198:
        return
    s.allied_pos[i] += 1
    enter(rules, s, target, i)
    if log:
        events.append({"type": "advance", "text": f"{b.allied[i].id} advances into {b.locations[target].name}.", "rule": ATTACKS})


def german_retreat(rules: DragoonRules, s: DragoonState, g: int, events: list[Event], log: bool) -> None:
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
        if log:
            events.append({"type": "retreat", "text": text + ".", "rule": ATTACKS if b.route_of[g] >= 0 else RESTRICTIONS})
    elif dest == BEYOND:
        s.german_loc[g] = BEYOND
        if log:
            events.append({"type": "retreat", "text": f"{name} retreats off the map to {b.retreat_beyond[g]}; it is never eliminated.", "rule": ATTACKS})
    else:
        s.german_loc[g] = ELIMINATED
        s.eliminated[g] = s.turn
        if log:
            events.append({"type": "eliminated", "text": f"{name} is eliminated: {why} (+1 VP).", "rule": ATTACKS if b.route_of[g] >= 0 else RESTRICTIONS})


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
    if rules._allied_at(s, dest):
        return ELIMINATED, f"its retreat into {b.locations[dest].name} is blocked by an Allied unit"
    if not b.is_panzer[g] and any(other != g and where == dest and not b.is_panzer[other] for other, where in enumerate(s.german_loc)):
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
