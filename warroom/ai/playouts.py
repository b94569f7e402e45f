"""Leaf playouts for search: a game's own policy plays every side, and chance is sampled, from a leaf until a
condition or a number of turns says stop (a game's `AgentHooks.leaf_playout` is built from these).

Why: a lone move's static value misses the rest of its turn and the reply it invites; a game whose MCTS
beats its heuristic scores its leaves after the turn in progress and the enemy's reply, both played by the
heuristic (one game's NOTES.md measured 75% against 48% with a single turn). Kept here, not in each game,
because the loop is the same for every game: only the policy and what marks a turn differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from warroom.engine.chance import sample
from warroom.engine.ruleset import CHANCE, Ruleset

Policy = Callable[[Any, Any], tuple[str, str]]
"""A game's heuristic: (ruleset, state) -> (action, why)."""


def play_while(
    rules: Ruleset[Any], s: Any, rng: random.Random, policy: Policy, going: Callable[[Any], bool], steps: int
) -> None:
    """Play `policy` for every side, and chance with `rng`, while `going(s)` holds, the game goes on and fewer
    than `steps` steps are played (a bound, in case a policy never ends a turn). Changes `s` in place."""
    to_act, apply, apply_chance, outcomes = rules.to_act, rules.apply, rules.apply_chance, rules.chance_outcomes
    for _ in range(steps):
        side = to_act(s)
        if side is None or not going(s):
            return
        if side == CHANCE:
            apply_chance(s, sample(outcomes(s), rng.random()), False)
        else:
            apply(s, policy(rules, s)[0], False)


def play_turns(
    rules: Ruleset[Any],
    s: Any,
    rng: random.Random,
    policy: Policy,
    whose_turn: Callable[[Any], Hashable],
    turns: int,
    steps_per_turn: int,
) -> None:
    """`play_while` to the end of the turn in progress and `turns - 1` turns after it; a turn ends when
    `whose_turn(s)` changes (the side moving, a turn counter)."""
    left, mover = turns, whose_turn(s)

    def going(state: Any) -> bool:
        nonlocal left, mover
        now = whose_turn(state)
        if now != mover:
            left -= 1
            mover = now
        return left > 0

    play_while(rules, s, rng, policy, going, steps_per_turn * turns)
