"""Dragoon's German Movement phase: the escape column marches north, new units arrive at Arles.

Rulebook: German Movement (Movement Phase Sequence) and 11th PzD Special Rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import SILENT, Events

from .options import TURN_21
from .sections import MOVEMENT, PANZER_RULE
from .state import ARRIVAL_BOX, ELIMINATED, ESCAPED, PANZER_HELD, PANZER_MOVING, PANZER_PINNED, DragoonState

if TYPE_CHECKING:
    from .rules import DragoonRules

PANZER_TO_MONTELIMAR_TURN = 21  # 11th PzD Special Rules: "Turn 21 or later"


def german_movement(rules: DragoonRules, s: DragoonState, events: Events = SILENT) -> None:
    """The whole phase: the 11th PzD's placement, the column's march (front first), then arrivals."""
    if s.vi_corps_in_crest and s.panzer_mode != PANZER_PINNED:  # asked first: most turns of most games
        _place_panzer_in_montelimar(rules, s, events)
    _march(rules, s, events)
    _arrive(rules, s, events)


def panzer_release_turn(s: DragoonState) -> int:
    """The first turn the 11th PzD may be placed in Montelimar (option `panzer_to_montelimar`, NOTES.md).

    11th PzD Special Rules, "Turn 21 or later: Once the US VI Corps enters Crest, the 11th PzD ... is
    placed in Montelimar during the next German movement phase": read as a condition (default), a
    VI Corps in Crest before turn 21 keeps the PzD in Avignon until turn 21; read as the heading of
    what historically happened, the PzD goes in the next movement phase whatever the turn.
    """
    return PANZER_TO_MONTELIMAR_TURN if s.options["panzer_to_montelimar"] == TURN_21 else 0


def _place_panzer_in_montelimar(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    # 11th PzD Special Rules: once VI Corps has entered Crest, from turn 21 (or at once: the option)
    # the 11th PzD (desperate) is placed in Montelimar in the next German movement phase and stays there.
    b = rules.board
    panzer = b.panzer
    if panzer < 0 or s.panzer_mode == PANZER_PINNED or not s.vi_corps_in_crest or s.turn < panzer_release_turn(s):
        return
    if s.german_loc[panzer] in (ELIMINATED, ESCAPED):
        return
    s.german_loc[panzer] = b.montelimar
    s.desperate[panzer] = True
    s.panzer_mode = PANZER_PINNED
    if events.on:
        events.emit(
            "panzer",
            f"VI Corps holds Crest: {b.german[panzer].name} is placed in Montelimar in desperate "
            "(-2) status for the rest of the game.",
            PANZER_RULE,
        )


def _crowded(rules: DragoonRules, s: DragoonState, g: int, dest: int) -> bool:
    """Whether unit g may not enter dest: an Allied unit there, or infantry meeting infantry."""
    if rules.allied_at(s, dest):
        return True
    panzer = rules.board.panzer
    return g != panzer and infantry_at(panzer, s.german_loc, dest, g)


def infantry_at(panzer: int, where: list[int], dest: int, g: int) -> bool:
    """Whether German infantry other than unit g holds `dest` (every German unit but the 11th PzD,
    `panzer`, is infantry-type: Game Components); `where` is each German unit's location."""
    others = where.count(dest) - (where[g] == dest)  # counted in C: every march and retreat asks
    if panzer >= 0 and where[panzer] == dest:
        others -= 1
    return others > 0


def _march(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    # Movement Phase Sequence: "Starting with the unit in the lowest numbered location, move all units
    # of the escape column north one location"; infantry may not stack with infantry.
    b = rules.board
    panzer = b.panzer
    track, pos = b.escape_track, b.escape_pos
    where = s.german_loc
    column = [g for g in b.escape_column if where[g] in pos]
    if len(column) > 1:
        column.sort(key=lambda g: -pos[where[g]])  # lowest-numbered location first
    for g in column:
        here = s.german_loc[g]
        if g == panzer and s.panzer_mode != PANZER_MOVING:
            continue
        k = pos[here]
        name = b.german[g].name
        if k + 1 >= len(track):
            s.german_loc[g] = ESCAPED
            if events.on:
                events.emit(
                    "escaped",
                    f"{name} moves from {b.locations[here].name} to the Escaped to German Frontier box.",
                    MOVEMENT,
                )
            continue
        dest = track[k + 1]
        if _crowded(rules, s, g, dest):
            if events.on:
                events.emit("blocked", f"{name} cannot move: {b.locations[dest].name} is occupied.", MOVEMENT)
            continue
        s.german_loc[g] = dest
        s.control[dest] = False
        if g == b.id_198 and dest == b.avignon:
            s.entered_198 = True
        if events.on:
            events.emit(
                "move", f"{name} moves north from {b.locations[here].name} to {b.locations[dest].name}.", MOVEMENT
            )
        if g == panzer and dest == b.avignon:
            s.panzer_mode = PANZER_HELD
            if events.on:
                events.emit(
                    "panzer", f"{name} enters Avignon and stops there until US VI Corps enters Crest.", PANZER_RULE
                )


def _arrive(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    # Movement Phase Sequence: "Check for an arriving unit and place it in Arles. This unit does not
    # move on the turn it is placed." One blocked by a unit stuck in Arles waits and tries next turn.
    b = rules.board
    where = s.german_loc
    if ARRIVAL_BOX not in where:
        return
    due, turn = b.arrival_due, s.turn
    arrivals = [g for g in b.arrival_order if where[g] == ARRIVAL_BOX and due[g] <= turn]
    arles = b.escape_track[0]
    for g in arrivals:
        if _crowded(rules, s, g, arles):
            if events.on:
                events.emit(
                    "arrival_delayed", f"{b.german[g].name} cannot arrive: Arles is occupied; it waits.", MOVEMENT
                )
            continue
        s.german_loc[g] = arles
        if events.on:
            events.emit(
                "arrival", f"{b.german[g].name} arrives at Arles from the west (it does not move this turn).", MOVEMENT
            )
