"""The player-turn after its battles, and the turn's end: Return to Base (7.6), Replacements (7.7), Supply (7.8),
Patton's arrival and Rommel's recall between turns (16.0, 17.0), the next player-turn (7.0), and after every
step the sudden wins (4.0).

Each function takes the ruleset, the state and the event sink; one that reaches a decision or a die sets the
phase and returns, and the decision's or the die's handler carries the turn on from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import arrivals
from .actions import END, REBUILD, Action
from .air import base_options
from .catalog import ALLIED, AXIS, SIDE_NAMES
from .choices import returning
from .losses import eliminate
from .replacements import axis_ports, base_capacity, rebuild_options, replace_options
from .stacking import occupants
from .state import DEAD, REMOVED, Phase, TunisiaState
from .supply import supply_phase
from .victory import end_of_turn, sudden_death

if TYPE_CHECKING:
    from .rules import TunisiaRules


# -- 7.6: Return to Base ---------------------------------------------------------------------------------------
def end_attacks(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """The Attack Phase ends: the Return to Base Phase (7.6)."""
    s.phase = Phase.RETURN_ATTACKER
    next_return(rules, s, events)


def to_base(rules: TunisiaRules, s: TunisiaState, piece: int, hex_: int, events: Events) -> None:
    s.loc[piece] = hex_
    if events.on:
        events.emit(
            "return_to_base", f"{rules.cat.name[piece]} returns to the airfield in {rules.labels[hex_]}.", "7.6A"
        )


def next_return(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """7.6: the attacker's air assets first, then the defender's. The owner sends each to a free own
    airfield of his choice, in the order he wishes (7.6A: where fewer fields are free than assets return,
    he chooses which assets take them); one left with no free field is eliminated (7.6B: fields only fill
    up while the assets return, so it never gets one); a single asset with a single field takes it."""
    cat = rules.cat
    while True:
        pending = returning(rules, s)
        if not pending:
            if s.phase == Phase.RETURN_ATTACKER:
                s.phase = Phase.RETURN_DEFENDER
                continue
            start_replacements(rules, s, events)
            return
        occ = occupants(s)
        options = {piece: base_options(cat, s, piece, occ) for piece in pending}
        stranded = [piece for piece in pending if not options[piece]]
        for piece in stranded:
            eliminate(cat, s, piece)
            if events.on:
                events.emit("eliminated", f"{cat.name[piece]} finds no free airfield and is eliminated.", "7.6B")
        if stranded:
            continue
        if len(pending) > 1 or len(options[pending[0]]) > 1:
            return
        to_base(rules, s, pending[0], options[pending[0]][0], events)


# -- 7.7: Replacements -------------------------------------------------------------------------------------------
def start_replacements(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """7.7B-D: the side's replacements; the Axis rolls for a port replacement when it could matter."""
    cat = rules.cat
    s.replacements_left = base_capacity(s, cat)
    if s.player == AXIS and s.replacements_left > 0 and axis_ports(cat, s) > 1:
        s.phase = Phase.REPLACEMENT_ROLL
        return
    next_replacement(rules, s, events)


def roll_replacement(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    ports = axis_ports(rules.cat, s)
    if roll < ports:
        s.replacements_left += 1
    if events.on:
        events.emit(
            "port_roll",
            f"Axis port roll: {roll} against {ports} ports: {s.replacements_left} replacements.",
            "7.7C",
            roll=roll,
        )
    next_replacement(rules, s, events)


def next_replacement(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    cat = rules.cat
    if s.replacements_left > 0 and (rebuild_options(cat, s) or replace_options(cat, s, occupants(s))):
        s.phase = Phase.REPLACEMENT
        return
    end_player_turn(rules, s, events)


def replacement(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    """7.7F-I: one rebuild or replacement (7.7J: what is not used is lost)."""
    if act.kind == END:
        end_player_turn(rules, s, events)
        return
    piece = rules.piece(act.piece)
    if act.kind == REBUILD:
        s.reduced[piece] = False
        text, rule = f"{rules.cat.name[piece]} is rebuilt to full strength.", "7.7F"
    else:
        s.loc[piece], s.reduced[piece] = rules.hex(act.target), False
        text, rule = f"{rules.cat.name[piece]} is replaced in {act.target}.", "7.7G"
    s.replacements_left -= 1
    if events.on:
        events.emit("replacement", text, rule)
    next_replacement(rules, s, events)


# -- 7.8 and the turn's end (16.0, 17.0) --------------------------------------------------------------------------
def end_player_turn(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """7.8: the Supply Phase, then the next player-turn, or the end of the turn after the Allies'."""
    s.replacements_left = 0
    supply_phase(rules.cat, s, events)
    settle(rules, s, events)
    if s.outcome is not None:
        return
    if s.player == AXIS:
        s.player = ALLIED
        start_player_turn(rules, s, events)
        return
    if not s.patton_arrived:
        if s.turn < rules.patton_turn:
            s.phase = Phase.PATTON_ROLL
            return
        if events.on:
            events.emit("patton", f"Turn {s.turn}: Patton arrives whatever the dice.", "16.0B")
        if arrivals.arrive(rules, s, events):
            return
    after_patton(rules, s, events)


def next_placement(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """16.0: place the arriving pieces one by one; a swapped eliminated piece no village can take is lost."""
    cat = rules.cat
    while s.placing:
        piece = s.placing[0]
        options = arrivals.placement_options(cat, s, piece)
        if len(options) > 1:
            s.phase = Phase.PLACEMENT
            return
        if options:
            arrivals.place(rules, s, piece, options[0], events)
        else:
            s.placing = s.placing[1:]
            s.loc[piece], s.reduced[piece] = DEAD, False
            if events.on:
                events.emit(
                    "eliminated", f"{cat.name[piece]} finds no Allied village free of EZOC and is lost.", "16.0C"
                )
    after_patton(rules, s, events)


def after_patton(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    if s.turn >= rules.first_recall_turn and s.loc[rules.cat.rommel] != REMOVED:
        s.phase = Phase.ROMMEL_ROLL
        return
    after_rommel(rules, s, events)


def after_rommel(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """The turn ends: 4.0B's end-of-turn checks, then the next turn, the Axis first (7.0)."""
    outcome = end_of_turn(rules.cat, s, rules.last_turn)
    if outcome is not None:
        finish(s, outcome, events)
        return
    s.turn += 1
    s.player = AXIS
    if events.on:
        events.emit("turn", f"Turn {s.turn} begins.", "7.0")
    start_player_turn(rules, s, events)


def start_player_turn(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    n = rules.cat.n
    s.moved, s.attacked = [False] * n, [False] * n
    s.mp_spent, s.moved_from = [0.0] * n, [-1] * n
    s.reach = {}
    s.breakthrough = -1
    s.phase = Phase.MOVEMENT
    if events.on:
        events.emit("phase", f"Turn {s.turn}: {SIDE_NAMES[s.player]} Movement Phase.", "7.1")


# -- 4.0: the sudden wins, after every step ---------------------------------------------------------------------
def settle(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """After every step: 17.0B's record of Axis units in the 8th Army hexes, and the sudden wins (4.0)."""
    if s.outcome is not None or s.phase == Phase.SETUP:
        return
    cat = rules.cat
    if not s.axis_entered_eighth_army:
        hexes = rules.eighth_army_hexes
        s.axis_entered_eighth_army = any(s.loc[p] in hexes for p in cat.by_side[AXIS] if cat.is_unit[p])
    outcome = sudden_death(cat, s)
    if outcome is not None:
        finish(s, outcome, events)


def finish(s: TunisiaState, outcome: tuple[int, str, str], events: Events) -> None:
    """The game is over (4.0): its result recorded, nothing left pending."""
    s.outcome = outcome
    s.phase = Phase.OVER
    s.battle, s.retreating, s.placing = None, (), ()
    if events.on:
        events.emit("game_over", f"{SIDE_NAMES[outcome[0]]} victory: {outcome[1]}", outcome[2])


__all__ = [
    "after_patton",
    "after_rommel",
    "end_attacks",
    "end_player_turn",
    "next_placement",
    "next_return",
    "roll_replacement",
    "settle",
    "start_player_turn",
    "start_replacements",
    "to_base",
]
