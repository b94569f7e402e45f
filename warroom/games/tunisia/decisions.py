"""What each decision does: one handler a step a side decides, found by phase (`decide`), applying a legal
action (actions.py's `Action`) and carrying the game on to the next decision or die.

The battle's steps are battle.py's, a breakthrough's breakthrough.py's, Patton's placements arrivals.py's and
the end of the player-turn player_turn.py's; this module says which of them each decision starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import arrivals, battle, breakthrough
from .actions import ADVANCE, AIR, END, MOVE, Action
from .catalog import SIDE_NAMES
from .player_turn import end_attacks, next_placement, next_return, replacement, to_base
from .sequence import ACTOR, DICE, NOBODY
from .state import Phase, TunisiaState

if TYPE_CHECKING:
    from .rules import TunisiaRules


def decide(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    """Apply the legal action `act` at the step `s` stands at (sequence.py's steps a side decides)."""
    handle = _DECISIONS.get(s.phase)
    if handle is not None:
        handle(rules, s, act, events)


# -- 8.0: the Movement Phase ----------------------------------------------------------------------------------
def _movement(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    if act.kind == END:
        if events.on:
            events.emit("phase", f"{SIDE_NAMES[s.player]} Attack Phase.", "7.2")
        s.phase = Phase.ATTACK
    else:
        move(rules, s, rules.piece(act.piece), rules.hex(act.target), events)


def move(rules: TunisiaRules, s: TunisiaState, piece: int, dest: int, events: Events) -> None:
    """8.1: the piece moves to `dest` along its cheapest legal way, its move complete."""
    cost = s.reach[piece].reach[dest]
    if events.on:
        events.emit(
            "move",
            f"{rules.cat.name[piece]} moves from {rules.labels[s.loc[piece]]} to {rules.labels[dest]} ({cost:g} MP).",
            "8.1",
            piece=rules.cat.ids[piece],
        )
    s.mp_spent[piece], s.moved_from[piece] = cost, s.loc[piece]
    s.loc[piece] = dest
    s.moved[piece] = True


# -- 7.2, 15.0: the Attack Phase and a breakthrough --------------------------------------------------------------
def _attack(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    """An attack declared (7.2), a breakthrough's move (15.0), or the end of the phase or of the breakthrough."""
    kind = act.kind
    if kind == END:
        if s.phase == Phase.BREAKTHROUGH:
            _end_breakthrough(rules, s)
        else:
            end_attacks(rules, s, events)
    elif kind == MOVE:
        breakthrough.move(rules, s, rules.hex(act.target), events)
    else:
        cat = rules.cat
        origin = rules.hex(act.origin)
        unit = next(p for p in cat.by_side[s.player] if s.loc[p] == origin and cat.is_unit[p])
        battle.declare(rules, s, unit, rules.hex(act.target), rules.piece(act.air) if act.air else -1, events)


def _end_breakthrough(rules: TunisiaRules, s: TunisiaState) -> None:
    for p in breakthrough.conducting(rules, s, s.breakthrough):
        s.attacked[p] = True  # 15.0E: no more attacks by its support assets this phase
    s.breakthrough = -1
    s.phase = Phase.ATTACK


# -- a battle's decisions (7.3-7.5, 13.0-14.0) -------------------------------------------------------------------
def _defensive_air(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    battle.defensive_air(rules, s, rules.piece(act.piece) if act.kind == AIR else -1, events)


def _defender_loss(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    s.phase = Phase.ATTACK
    battle.apply_defender_loss(rules, s, rules.piece(act.piece), events)
    battle.continue_battle(rules, s, events)


def _attacker_loss(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    s.phase = Phase.ATTACK
    battle.apply_attacker_loss(rules, s, rules.piece(act.piece), events)
    battle.continue_battle(rules, s, events)


def _retreat(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    s.phase = Phase.ATTACK
    s.retreating = s.retreating[1:]
    battle.retreat_to(rules, s, rules.piece(act.piece), rules.hex(act.target), events)
    battle.next_retreats(rules, s, events)
    if not s.retreating:
        battle.continue_battle(rules, s, events)


def _advance(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    s.phase = Phase.ATTACK
    if act.kind == ADVANCE:
        battle.advance(rules, s, events)
    battle.continue_battle(rules, s, events)


# -- 7.6-7.7, 16.0, 5.0 ---------------------------------------------------------------------------------------
def _return_to_base(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    to_base(rules, s, rules.piece(act.piece), rules.hex(act.target), events)
    next_return(rules, s, events)


def _placement(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    arrivals.place(rules, s, rules.piece(act.piece), rules.hex(act.target), events)
    next_placement(rules, s, events)


def _setup(rules: TunisiaRules, s: TunisiaState, act: Action, events: Events) -> None:
    rules.place_in_setup(s, rules.piece(act.piece), rules.hex(act.target), events)


_DECISIONS: dict[Phase, Callable[[TunisiaRules, TunisiaState, Action, Events], None]] = {
    Phase.MOVEMENT: _movement,
    Phase.ATTACK: _attack,
    Phase.BREAKTHROUGH: _attack,
    Phase.DEFENSIVE_AIR: _defensive_air,
    Phase.DEFENDER_LOSS: _defender_loss,
    Phase.ATTACKER_LOSS: _attacker_loss,
    Phase.RETREAT: _retreat,
    Phase.ADVANCE: _advance,
    Phase.RETURN_ATTACKER: _return_to_base,
    Phase.RETURN_DEFENDER: _return_to_base,
    Phase.REPLACEMENT: replacement,
    Phase.PLACEMENT: _placement,
    Phase.SETUP: _setup,
}
"""The handler of each step a side decides (choices.py lists the same steps' legal actions)."""

if set(_DECISIONS) != {p for p, role in ACTOR.items() if role not in (DICE, NOBODY)}:
    raise RuntimeError("every step a side decides needs its handler")

__all__ = ["decide", "move"]
