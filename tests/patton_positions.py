"""Patton test positions (for the modules of tests/patton/): a scenario's movement phase with only the given units on
the board (`position`), decisions and dice played in order (`play`, `card`), and what holds a town (`where`).
"""

from __future__ import annotations

from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import MOVING

RULES = PattonRules()


def position(scenario, units, mover="Allied", mp=10, turn=3):
    """A movement-phase position of `scenario`: `units` maps town -> (side, armor, infantry); nothing else on the
    board."""
    s = RULES.initial_state(scenario, {})
    RULES.apply_chance(s, 5)
    b = s.board
    for t in range(b.n):
        s.side[t], s.armor[t], s.inf[t] = -1, 0, 0
    for town, (side, armor, infantry) in units.items():
        t = b.town_index[town]
        s.side[t], s.armor[t], s.inf[t] = (0 if side == "Allied" else 1), armor, infantry
    s.mover = s.actor = 0 if mover == "Allied" else 1
    s.turn = turn
    s.mp = s.mp_total = mp
    s.phase = MOVING
    s.offboard = [0, 0]
    s.forget_derived()
    return s


def play(s, *actions):
    """Decisions and dice in order; "end" is skipped when the moves already ended by themselves."""
    for action in actions:
        if action == "end" and s.phase != MOVING:
            continue
        if isinstance(action, int):
            RULES.apply_chance(s, action)
        else:
            RULES.apply(s, action)


def card(s):
    """Turn up the first movement card still unseen (any value will do)."""
    RULES.apply_chance(s, RULES.chance_outcomes(s)[0][0])


def where(s, town):
    t = s.board.town_index[town]
    return (s.board.side_names[s.side[t]] if s.side[t] >= 0 else None, s.armor[t], s.inf[t])
