"""Patton's computer player: always legal, explains itself, beats the random player, and the
evaluation is a probability per side."""

from __future__ import annotations

import random

import pytest

import warroom
from warroom.ai import get_agent
from warroom.engine.ruleset import CHANCE
from warroom.games.patton import ai
from warroom.games.patton.options import SIMULATION_TURN_LIMIT
from warroom.games.patton.rules import PattonRules

RULES = PattonRules()
SCENARIOS = ("normandy", "bulge", "sicily")


def play(scenario, seed, agents, options=None, check=False):
    # Sicily plays until its objective is decided, which two computer players may never do: these
    # games use the turn limit of studies (options.SIMULATION_TURN_LIMIT), as `warroom simulate` does
    options = {"turn_limit": SIMULATION_TURN_LIMIT, **(options or {})} if scenario == "sicily" else options
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
    # the issue asks for 95%; measured over 100 games a side and scenario: 98-100% (NOTES.md).
    # Here 6 games a side: at most one may be lost (Sicily's seed 1 runs out of turns).
    allied = sum(RULES.result(play(scenario, seed, ("heuristic", "random"))).winner == "Allied" for seed in range(6))
    axis = sum(RULES.result(play(scenario, seed, ("random", "heuristic"))).winner == "Axis" for seed in range(6))
    assert allied >= 5 and axis >= 5 and allied + axis >= 11, (allied, axis)


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


def test_simulate_matches_one_agent_per_side_in_a_scenario():
    # Patton: Computer players — `warroom simulate patton --scenario S --axis AGENT` pits two agents
    from warroom.analysis.simulate import play_one, simulate

    report = simulate("patton", 4, agent="heuristic", seed=30, scenario="sicily", side_agents={"Axis": "random"})
    assert report.scenario == "sicily" and report.agent == "Allied heuristic, Axis random"
    assert report.outcomes["Allied"] == 4  # the heuristic beats the random player (see above)
    flipped = simulate("patton", 4, agent="heuristic", seed=30, scenario="sicily", side_agents={"Allied": "random"})
    assert flipped.outcomes["Axis"] == 4
    alone = play_one("patton", "heuristic", 30, None, "sicily", {"Axis": "random"})
    assert alone["winner"] == "Allied"


def test_search_candidates_are_the_heuristics_best_moves_and_end_only_when_it_would_end():
    # Patton: Using Movement Points — a turn offers dozens of moves; the search expands a few
    m = warroom.new_game("patton", "sicily", seed=3, keep_log=False)
    s = RULES.clone(m.state)
    legal = RULES.legal_actions(s)
    assert s.phase == ai.MOVING and len(legal) > ai.CANDIDATES + 1
    candidates = ai.candidate_actions(RULES, s)
    assert ai.heuristic_policy(RULES, s)[0] != "end"
    assert len(candidates) == ai.CANDIDATES and "end" not in candidates and set(candidates) <= set(legal)
    assert ai.heuristic_policy(RULES, s)[0] in candidates
    # unused Movement Points are lost: the search may end the turn only where the heuristic would
    while not (m.state.phase == ai.MOVING and ai.heuristic_policy(RULES, m.state)[0] == "end"):
        m.play(ai.heuristic_policy(RULES, m.state)[0])  # the match rolls the dice between decisions
    s = m.state
    candidates = ai.candidate_actions(RULES, s)
    assert candidates[-1] == "end" and set(candidates) <= set(RULES.legal_actions(s))


def test_leaf_playout_finishes_the_turn_in_progress(monkeypatch):
    # Patton: Sequence of Play — with PLAYOUT_TURNS = 1 the playout stops once the other side's turn begins
    monkeypatch.setattr(ai, "PLAYOUT_TURNS", 1)
    m = warroom.new_game("patton", "normandy", seed=5, keep_log=False)
    s = RULES.clone(m.state)
    mover = s.mover
    ai.leaf_playout(RULES, s, random.Random(1))
    assert RULES.to_act(s) is None or s.mover != mover
    assert m.state.mover == mover  # the match's own state is untouched


def test_mcts_with_the_patton_hooks_plays_legal_moves():
    m = warroom.new_game("patton", "bulge", seed=6, keep_log=False)
    agent = get_agent("mcts", "patton", seed=1, simulations=30)
    for _ in range(4):
        action, why = agent.choose(m)
        assert action in m.legal_actions() and why.startswith("MCTS")
        m.play(action)


def test_leaf_playout_can_finish_further_turns():
    # Patton: Sequence of Play — with PLAYOUT_TURNS = 2 (the default) the playout also plays the reply
    assert ai.PLAYOUT_TURNS == 2
    m = warroom.new_game("patton", "normandy", seed=5, keep_log=False)
    s = RULES.clone(m.state)
    mover, turn = s.mover, s.turn
    ai.leaf_playout(RULES, s, random.Random(1))
    assert RULES.to_act(s) is None or (s.mover == mover and s.turn == turn + 1)


def test_mcts_search_in_patton_is_reproducible_for_a_seed():
    m = warroom.new_game("patton", "normandy", seed=7, keep_log=False)
    choices = []
    for _ in range(2):
        agent = get_agent("mcts", "patton", seed=3, simulations=40)
        action, _ = agent.choose(m)
        choices.append((action, agent.last["children"]))
    assert choices[0] == choices[1]
