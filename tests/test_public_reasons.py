"""The computer's reasons in a game that hides something (issue 17: every computer move carries a reason in both
front ends; the rules: a reason may not tell another seat what they hide). A game's `public_reason` clears a
reason for a seat only when it reads the same in every world that seat cannot tell apart from the real one: here
what the seat cannot see is drawn again (`determinize`) and, wherever the heuristic makes the same move there, its
reason must read the same, or it told something of what was drawn again (tests/tunisia/test_reasons.py: the names
and hexes)."""

from __future__ import annotations

import random

import pytest

import warroom
from warroom.engine.observe import reason_readers
from warroom.games import game_ids, get_ruleset, get_spec

GAMES = [g for g in game_ids() if get_spec(g).public_reason is not None]
DECISIONS = {"tunisia": 240, "saintlo": 400, "saintlo-teams": 400}
"""Decisions looked at per game (a Saint-Lo setup is some 80 decisions of deployment before the first attack)."""


def test_every_game_that_hides_something_can_show_some_reasons() -> None:
    assert {"tunisia", "saintlo", "saintlo-teams"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_public_reason_reads_the_same_in_every_world_the_seat_cannot_tell_apart(game: str) -> None:
    # Tunisia 6.0E, Saint-Lo 4.3 and 9: the pieces beneath a stack, the face-down counters, the hands
    spec, rules = get_spec(game), get_ruleset(game)
    assert spec.determinize is not None and spec.agents is not None
    heuristic = spec.agents().heuristic_policy
    assert heuristic is not None
    rng = random.Random(11)
    compared = shown = kept = 0
    m = warroom.new_game(game, seed=4)
    for _ in range(DECISIONS[game]):
        if m.over:
            break
        if m.to_act not in rules.info.sides:
            m.play(m.legal_actions()[0])
            continue
        side, before = m.to_act, rules.clone(m.state)
        action, why = heuristic(rules, before)
        m.play(action)
        readers = reason_readers(rules, before, m.state, action, side, why)
        kept += len(rules.info.sides) - 1 - len(readers)
        for viewer in readers:
            shown += 1
            for _ in range(2):
                other_action, other_why = heuristic(rules, spec.determinize(before, viewer, rng))
                if other_action == action:
                    compared += 1
                    assert other_why == why, (viewer, action, why, other_why)
    assert compared > 30 and shown > 30, (compared, shown, kept)


@pytest.mark.parametrize("game", GAMES)
def test_a_reason_that_states_the_computers_estimate_is_kept_from_the_other_seats(game: str) -> None:
    # a search's estimate is reckoned from everything its seat holds, the hidden among it (a hand, what lies beneath)
    spec, rules = get_spec(game), get_ruleset(game)
    assert spec.agents is not None
    value_text = spec.agents().value_text
    assert value_text is not None
    m = warroom.new_game(game, seed=4)
    while m.to_act not in rules.info.sides:
        m.play(m.legal_actions()[0])
    side, before, action = m.to_act, rules.clone(m.state), m.legal_actions()[0]
    m.play(action)
    why = f"MCTS: 300 simulations, {value_text(rules, 0.4)}; 60% of them chose this."
    assert reason_readers(rules, before, m.state, action, side, why) == []
