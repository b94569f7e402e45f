"""Dragoon's Sequence of Play handlers: the Allied RPs and Actions, the FFI re-roll decisions, and the
moves between phases (the actions' end, German Movement, Turn End).

rules.SEQUENCE_OF_PLAY names these for each phase; the attacks, the German movement and the BOT chart
they hand on to live in attacks.py, movement.py and bot.py. Rule citations name the rulebook's sections
(it has no numbers): "Dragoon: <section>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import attacks, bot, movement
from .actions import ACTIVATE, END, FFI, INVADE, REROLL, Action
from .odds import win_effect
from .sections import ACTION_CHARTS, ATTACKS, FFI_RULE, LANDINGS, RP_CHART, SEQUENCE, VICTORY
from .state import IN_BOX, OPPOSED, UNOPPOSED, AlliedAttack, BotAttack, DragoonState, Phase
from .state import INVADE as INVASION  # the attack mode; actions.INVADE is the action kind

if TYPE_CHECKING:
    from .rules import DragoonRules


# -- the phases' handlers (rules.SEQUENCE_OF_PLAY) ------------------------------------------------------
def roll_rp(rules: DragoonRules, s: DragoonState, roll: int, events: Events) -> None:
    """Allied RPs: the RP chart's line for the roll, then the Allied actions open."""
    s.rp = rules.board.rp_roll[roll]
    if events.on:
        events.emit("rp", f"Turn {s.turn}: the RP roll is {roll}: {s.rp} RP this turn.", RP_CHART)
    open_actions(rules, s, events)


def take_action(rules: DragoonRules, s: DragoonState, act: Action, events: Events) -> None:
    """Allied Actions: carry out one action (each costs 1 RP: Using Action Charts), or end them."""
    kind = act.kind
    if kind == END:
        if events.on:
            events.emit(
                "end_actions",
                f"Allied player ends actions with {s.rp} RP unused (RP cannot be saved).",
                ACTION_CHARTS,
            )
        end_actions(rules, s, events)
        return
    i = rules.board.allied_index[act.unit]
    s.rp -= 1
    if kind == ACTIVATE:
        s.stalled[i] = False
        if events.on:
            events.emit("activate", f"{act.unit} flips from stalled to active (1 RP).", ACTION_CHARTS)
        after_action(rules, s, events)
    elif kind == FFI:
        s.ffi[i] = True
        if events.on:
            events.emit("ffi", f"An FFI marker joins {act.unit} (1 RP).", FFI_RULE)
        after_action(rules, s, events)
    elif kind == INVADE:
        _invade(rules, s, act, i, events)
    else:
        _attack(rules, s, act, i, events)


def _invade(rules: DragoonRules, s: DragoonState, act: Action, i: int, events: Events) -> None:
    """Allied unit i invades its beach (or drops on its zone): the attack die follows, a 1 stalls it."""
    b = rules.board
    s.spent[i] = True
    beach = b.routes[i][0]
    s.attack = AlliedAttack(i, beach, INVASION)
    s.phase = Phase.ATTACK_ROLL
    if events.on:
        events.emit("invade", f"{act.unit} invades {b.locations[beach].name} (1 RP): roll, a 1 stalls it.", ATTACKS)


def _attack(rules: DragoonRules, s: DragoonState, act: Action, i: int, events: Events) -> None:
    """Allied unit i attacks its next location: unopposed if empty, else the top German unit there
    (Resolving Unit Attacks; Air Support spends the turn's Air marker)."""
    b = rules.board
    s.spent[i] = True
    target = rules.target_of(s, i)
    defender = rules.top_unit(s, target)
    if defender < 0:
        s.attack = AlliedAttack(i, target, UNOPPOSED)
        if events.on:
            events.emit(
                "attack",
                f"{act.unit} makes an unopposed attack on empty {b.locations[target].name} "
                "(1 RP): "
                "it advances; a 1 stalls it.",
                ATTACKS,
            )
    else:
        air = act.air
        drm = rules.attack_drm(s, target, defender, air)
        if air:
            s.air_used = True
        s.attack = AlliedAttack(i, target, OPPOSED, defender, drm, air)
        if events.on:
            takes, win = win_effect(rules, s, i)
            goal = "to advance" if takes else f"to win; the attack {win}"
            events.emit(
                "attack",
                f"{act.unit} attacks {b.german[defender].name} in {b.locations[target].name} "
                "(1 RP)"
                f"{' with Air support' if air else ''}: DRM {drm:+d}, "
                f"needs {b.advance_on - drm}+ on the die {goal}.",
                ATTACKS,
            )
    s.phase = Phase.ATTACK_ROLL


def attack_reroll(rules: DragoonRules, s: DragoonState, act: Action, events: Events) -> None:
    """A failed Allied roll with an FFI marker: re-roll it (the marker goes) or keep it (FFI)."""
    attack = s.attack
    assert attack is not None
    if act.kind == REROLL:
        s.ffi[attack.unit] = False
        s.attack = AlliedAttack(  # by its constructor: NamedTuple._replace costs a microsecond a playout step
            unit=attack.unit,
            target=attack.target,
            mode=attack.mode,
            defender=attack.defender,
            drm=attack.drm,
            air=attack.air,
            rerolled=True,
            roll=attack.roll,
        )
        s.phase = Phase.ATTACK_ROLL
        _ffi_used(rules, attack.unit, events)
    else:
        attacks.finish_attack(rules, s, attack.roll, events)


def bot_reroll(rules: DragoonRules, s: DragoonState, act: Action, events: Events) -> None:
    """A German success against a unit with an FFI marker: make the German re-roll, or keep the result (FFI)."""
    attack = s.bot_attack
    assert attack is not None
    if act.kind == REROLL:
        s.ffi[attack.target] = False
        s.bot_attack = BotAttack(attacker=attack.attacker, target=attack.target, rerolled=True, roll=attack.roll)
        s.phase = Phase.BOT_ATTACK_ROLL
        _ffi_used(rules, attack.target, events)
    else:
        bot.finish_bot_attack(rules, s, True, events)


def _ffi_used(rules: DragoonRules, i: int, events: Events) -> None:
    if events.on:
        events.emit(
            "ffi_reroll",
            f"{rules.board.allied[i].id} uses its FFI to re-roll the die; the FFI marker is removed from play.",
            FFI_RULE,
        )


# -- the moves between phases ------------------------------------------------------------------
def after_action(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    """An Allied action is done: the next, or the end of the actions when every RP is spent."""
    s.phase = Phase.ACTIONS
    s.attack = None
    if s.rp <= 0:
        if events.on:
            events.emit("end_actions", "All RP are spent: the Allied actions end.", ACTION_CHARTS)
        end_actions(rules, s, events)


def start_turn(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    """Allied RPs: a designated number from the RP chart, or a roll for it."""
    designated = rules.board.rp_designated.get(s.turn)
    if designated is None:
        s.phase = Phase.RP_ROLL
        return
    s.rp = designated
    if events.on:
        events.emit("rp", f"Turn {s.turn} ({s.turn} August): the RP chart gives {designated} RP.", RP_CHART)
    open_actions(rules, s, events)


def open_actions(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    """Allied Actions begin: the French land where the turn brings them; with no RP they end at once."""
    b = rules.board
    for i in rules.landings.get(s.turn, ()):
        if s.allied_pos[i] == IN_BOX:
            # French landings: free, no die roll, stackable; a landing unit may not attack this turn
            s.allied_pos[i] = 0
            s.spent[i] = True
            attacks.enter(rules, s, b.routes[i][0], i)
            if events.on:
                events.emit(
                    "landing",
                    f"{b.allied[i].name} lands on {b.locations[b.routes[i][0]].name} (free, no roll).",
                    LANDINGS,
                )
    s.phase = Phase.ACTIONS
    if s.rp <= 0:
        end_actions(rules, s, events)


def end_actions(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    """The Allied actions end: unspent RP are lost, the Germans move, the BOT rolls."""
    s.attack = None
    s.rp = 0  # Using Action Charts: "RP cannot be saved from turn to turn"
    movement.german_movement(rules, s, events)
    s.phase = Phase.BOT_ROLL


def turn_end(rules: DragoonRules, s: DragoonState, events: Events) -> None:
    """Turn End: the game ends after 29 August; else the turn marker advances and the Air returns."""
    b = rules.board
    s.bot_attack = None
    s.bot_queue = []
    if s.turn >= b.last_turn:
        s.phase = Phase.OVER
        if events.on:
            result = rules.result(s)
            assert result is not None
            events.emit("game_over", f"End of the 29 August turn. {result.reason}", VICTORY, result=result.to_json())
        return
    s.turn += 1
    s.air_used = False
    s.air_grounded = s.bad_weather_next
    s.bad_weather_next = False
    s.spent = [False] * len(s.spent)
    if events.on:
        events.emit("turn", f"Turn end: the turn marker advances to {s.turn} August.", SEQUENCE)
    start_turn(rules, s, events)
