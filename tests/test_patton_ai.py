"""Patton's computer player: always legal, explains itself, beats the random player, and the
evaluation is a probability per side."""

from __future__ import annotations

import random

import pytest

import warroom
from warroom.ai import get_agent
from warroom.engine.ruleset import CHANCE
from warroom.games.patton import ai
from warroom.games.patton.rules import PattonRules

RULES = PattonRules()
SCENARIOS = ("normandy", "bulge", "sicily")


def play(scenario, seed, agents, options=None, check=False):
    s = RULES.initial_state(scenario, options or {})
    rng = random.Random(seed)
    while RULES.to_act(s) is not None:
        side = RULES.to_act(s)
        if side == CHANCE:
            outcomes = RULES.chance_outcomes(s)
            RULES.apply_chance(s, rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0], False)
            continue
        legal = RULES.legal_actions(s)
        if agents[0 if side == "Allied" else 1] == "random":
            action = rng.choice(legal)
        else:
            action, why = ai.heuristic_policy(RULES, s)
            if check:
                assert action in legal and why
                value = ai.evaluate(RULES, s)
                assert set(value) == {"Allied", "Axis"} and 0.0 <= value["Allied"] <= 1.0
                assert value["Allied"] + value["Axis"] == pytest.approx(1.0)
        RULES.apply(s, action, False)
    return s


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_heuristic_beats_random_on_both_sides(scenario):
    # measured over 100 games a side and scenario: 100% (NOTES.md); here a handful must all be won
    for seed in range(6):
        assert RULES.result(play(scenario, seed, ("heuristic", "random"))).winner == "Allied", seed
        assert RULES.result(play(scenario, seed, ("random", "heuristic"))).winner == "Axis", seed


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_heuristic_is_always_legal_and_says_why(scenario):
    play(scenario, 1, ("heuristic", "heuristic"), {"advanced_retreat": True, "placement": "manual"}, check=True)


def test_evaluation_is_certain_once_the_game_is_over():
    s = play("bulge", 3, ("heuristic", "random"))
    value = ai.evaluate(RULES, s)
    winner = RULES.result(s).winner
    assert value[winner] == 1.0


def test_evaluation_prefers_the_side_closer_to_its_objective():
    # Normandy: holding four red towns is better for the American than holding none
    start = RULES.initial_state("normandy", {})
    RULES.apply_chance(start, 8)
    better = start.clone()
    b = better.board
    for t in b.red_towns[:4]:
        better.side[t], better.armor[t], better.inf[t] = 0, 2, 0
    assert ai.evaluate(RULES, better)["Allied"] > ai.evaluate(RULES, start)["Allied"]


def test_heuristic_agent_through_the_registry():
    m = warroom.new_game("patton", "sicily", seed=4)
    agent = get_agent("heuristic", "patton")
    action, why = agent.choose(m)
    assert action in m.legal_actions() and why.startswith("Heuristic")
