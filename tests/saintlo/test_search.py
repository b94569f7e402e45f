"""Saint-Lo's search hooks (issue 15's MCTS): the actions it weighs, the playout at its leaves, setup left to
the heuristic, and the heuristic itself read through the tables' ids as it was read by parsing them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import warroom
from warroom.ai import get_agent
from warroom.ai.mcts import MCTSAgent
from warroom.games.saintlo import ai
from warroom.games.saintlo.actions import ATTACK, DONE, END, MOVE, Action
from warroom.games.saintlo.seats import army_of
from warroom.games.saintlo.state import OFF, Phase
from warroom.games.saintlo.tables import INFANTRY, TANK


def _positions(game: str, seeds: range, turns: int = 4) -> Iterator[warroom.Match]:
    """Every decision of heuristic games (`turns` turns each side), the match at that decision."""
    for seed in seeds:
        m = warroom.new_game(game, seed=seed, keep_log=False, options={"turn_limit": turns})
        while not m.over:
            yield m
            m.play(ai.heuristic_policy(m.ruleset, m.state)[0])


def _parsed_actions(rules, s, legal: list[str]) -> str:  # type: ignore[no-untyped-def]
    """The Movement and Attack choice as the heuristic made it before it read ids through the tables: each id
    parsed, each attack's odds asked of the ruleset (which checks it is legal)."""
    t = rules.t
    best, best_p = None, 0.0
    for a in legal:
        if a.startswith(ATTACK + " "):
            p = rules.attack_odds(s, a) or 0.0
            if s.post_at[t.hex_of[a.split()[2]]] != OFF:
                p += 0.2
            if p > best_p:
                best, best_p = a, p
    if best is not None and best_p >= ai.ATTACK_AT:
        return best
    posts = ai._enemy_posts(rules, s, army_of(s, s.seat))
    best_move, gain = None, 0
    for a in legal:
        if not a.startswith(MOVE + " "):
            continue
        act = Action.from_id(a)
        u = t.unit_index[act.subject]
        if t.unit_type[u] not in (INFANTRY, TANK):
            continue
        here, there = ai._nearest(rules, s.pos[u], posts), ai._nearest(rules, t.hex_of[act.where], posts)
        if there != 0 and here - there > gain:
            best_move, gain = a, here - there
    if best_move is not None:
        return best_move
    return DONE if DONE in legal else END


@pytest.mark.parametrize("game", ["saintlo", "saintlo-teams"])
def test_the_heuristic_chooses_as_it_did_when_it_parsed_every_id(game: str) -> None:
    # Saint-Lo 5.3, 6.1, 6.2: attack at good odds (Command Posts first), else close on the enemy's posts
    checked = 0
    for m in _positions(game, range(2)):
        s = m.state
        if s.phase != Phase.ACTIONS:
            continue
        legal = m.ruleset.legal_actions(s)
        choice = ai.heuristic_policy(m.ruleset, s)[0]
        if choice.startswith("play "):
            continue  # a Supplies card comes first, as before
        assert choice == _parsed_actions(m.ruleset, s, legal)
        checked += 1
    assert checked > 50


def test_candidates_are_legal_few_and_hold_the_heuristics_choice() -> None:
    # issue 15: the search weighs the heuristic's choice against a few others, never an illegal one
    sizes: dict[Phase, int] = {}
    for m in _positions("saintlo", range(2)):
        rules, s = m.ruleset, m.state
        if m.to_act not in rules.info.sides:
            continue
        weighed = ai.candidate_actions(rules, s)
        legal = set(rules.legal_actions(s))
        assert weighed and set(weighed) <= legal and len(set(weighed)) == len(weighed)
        assert ai.heuristic_policy(rules, s)[0] in weighed
        sizes[s.phase] = max(sizes.get(s.phase, 0), len(weighed))
    assert sizes[Phase.DEPLOY] == 1 and sizes[Phase.POSTS] == 1  # setup: the heuristic's, not searched
    assert sizes[Phase.REORGANIZE] <= 2
    assert 4 < sizes[Phase.ACTIONS] < 20  # of some 400 legal


def test_setup_is_played_at_once_without_a_search() -> None:
    # Saint-Lo 4.2-4.3: the evaluation cannot tell one deployment from another, so no second is spent on it
    m = warroom.new_game("saintlo", seed=3)
    agent = get_agent("mcts", "saintlo", budget_ms=5_000, seed=1)
    assert isinstance(agent, MCTSAgent)
    action, why = agent.choose(m)
    assert m.state.phase == Phase.POSTS and len(m.legal_actions()) > 1
    assert action == ai.heuristic_policy(m.ruleset, m.state)[0]
    assert agent.last["simulations"] == 0 and "nothing to search" in why


def test_a_leaf_playout_plays_the_turn_and_the_enemys_reply() -> None:
    # Saint-Lo 5: a leaf is scored at the start of the searching player's next turn
    import random

    for m in _positions("saintlo", range(1), turns=6):
        s = m.state
        if s.phase == Phase.ACTIONS and s.turn >= 2 and s.current == OFF:
            break
    rules = m.ruleset
    start, seat = s.turn, s.seat
    leaf = rules.clone(s)
    ai.leaf_playout(rules, leaf, random.Random(1))
    assert leaf.phase == Phase.OVER or (leaf.turn == start + ai.PLAYOUT_TURNS and leaf.active == s.active)
    assert s.turn == start and s.seat == seat  # the position searched from is untouched


def test_with_no_turns_a_leaf_playout_only_finishes_the_unit_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    # Saint-Lo 5.3, 6.2: the unit's support and dice, nothing after
    import random

    monkeypatch.setattr(ai, "PLAYOUT_TURNS", 0)
    for m in _positions("saintlo", range(1), turns=6):
        s = m.state
        if s.phase in (Phase.SUPPORT, Phase.ACTIONS) and s.current != OFF and s.turn >= 2:
            break
    rules = m.ruleset
    leaf = rules.clone(s)
    ai.leaf_playout(rules, leaf, random.Random(1))
    assert leaf.turn == s.turn and (leaf.phase != Phase.ACTIONS or leaf.current == OFF)


def test_a_hint_in_setup_never_shows_an_earlier_positions_search() -> None:
    # issue 17's hints: the numbers are the position's own, even where the search had one candidate
    from warroom.ai.analysis import analyse

    m = warroom.new_game("saintlo", seed=3, options={"turn_limit": 4})
    agent = get_agent("mcts", "saintlo", simulations=20, seed=1)
    while m.state.phase != Phase.ACTIONS:  # a searched decision first, to leave samples behind
        m.play(ai.heuristic_policy(m.ruleset, m.state)[0])
    assert analyse(agent, m).searched
    m = warroom.new_game("saintlo", seed=4)  # then a setup step: nothing searched
    hint = analyse(agent, m)
    assert not hint.searched and hint.action == ai.heuristic_policy(m.ruleset, m.state)[0]
    legal = set(m.legal_actions())
    assert all(alt.action in legal for alt in hint.top)
