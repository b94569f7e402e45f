"""Observations hide what the rules hide, for every registered game (and the test game bluff).

For each game, random games are played and, at each step that `checked` picks, each side's observation is checked:
- it is JSON (nothing a front end cannot send), and so is the omniscient observer's;
- no path the spec declares `hidden` (in the save format) appears in it;
- where the game hides something, its `determinize(state, side, rng)` gives states that side cannot
  tell apart from the real one (the same observation), reading only what the side sees, and it
  really samples (some determinization differs from the real state). Since a determinization
  changes only what the side may not see, an observation that leaked any of it would differ.

The spec's `hidden` and `determinize` go together: search asks for a determinization exactly where
a game declares hidden fields (warroom/ai/mcts.py), so a computer player never plays on what its
side cannot know; the last tests show that a search's choice does not depend on the hidden order.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from observation_checks import check_game

import warroom
from warroom.ai.mcts import MCTS
from warroom.engine.spec import GameSpec
from warroom.games import game_ids, get_spec, register_game

TEST_GAME = "bluff"
TEST_GAME_PATH = "games.bluff.spec:SPEC"


@pytest.fixture(autouse=True)
def _test_game() -> Iterator[None]:
    """The test game joins the registry for these tests only."""
    from warroom.games import REGISTRY, get_ruleset

    before = dict(REGISTRY)
    register_game(TEST_GAME, TEST_GAME_PATH)
    yield
    REGISTRY.clear()
    REGISTRY.update(before)
    get_spec.cache_clear()
    get_ruleset.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize("game", [*game_ids(), TEST_GAME])
def test_no_side_sees_what_the_rules_hide(game: str) -> None:
    check_game(game)


# -- the checks can fail ------------------------------------------------------------------------
def _with_observation(extra: Any) -> str:
    """Register a variant of the test game whose observations add `extra(state, side)` (a leak)."""
    from games.bluff import rules, spec

    class Leaky(rules.Bluff):
        def observation(self, s: rules.BluffState, side: str | None) -> dict[str, Any]:
            return {**super().observation(s, side), **(extra(s, side) if side else {})}

    leaky = GameSpec(id="leaky", ruleset=Leaky, hidden=spec.SPEC.hidden, determinize=spec.SPEC.determinize)
    globals()["LEAKY"] = leaky
    register_game("leaky", f"{__name__}:LEAKY")
    return "leaky"


def test_a_declared_hidden_path_in_an_observation_is_caught() -> None:
    game = _with_observation(lambda s, side: {"deck": list(s.deck)})
    with pytest.raises(AssertionError, match="carries hidden 'deck'"):
        check_game(game, 1)


def test_the_other_sides_card_under_another_name_is_caught() -> None:
    from games.bluff.rules import CARDS, SIDES

    game = _with_observation(lambda s, side: {"tell": CARDS[s.deck[1 - SIDES.index(side)]] if s.deck else None})
    with pytest.raises(AssertionError, match="could tell a determinization"):
        check_game(game, 1)


def test_a_game_that_hides_fields_without_determinize_is_refused() -> None:
    from games.bluff import rules

    class Peeking(rules.Bluff):
        info = dataclasses.replace(rules.Bluff.info, id="peeking")

    globals()["PEEKING"] = GameSpec(id="peeking", ruleset=Peeking, hidden=("deck",))
    register_game("peeking", f"{__name__}:PEEKING")
    with pytest.raises(AssertionError, match="needs determinize"):
        check_game("peeking", 1)
    with pytest.raises(ValueError, match="search would peek"):
        MCTS(warroom.games.get_ruleset("peeking"))


# -- search does not peek -----------------------------------------------------------------------
def _dealt(deck: list[int], history: tuple[str, ...] = ()) -> Any:
    from games.bluff.rules import BluffState

    return BluffState(list(deck), list(history))


@pytest.mark.parametrize("history", [(), ("bet",), ("check", "bet")])
def test_search_from_what_a_side_sees_ignores_the_hidden_order(history: tuple[str, ...]) -> None:
    """The side to act holds the Queen; the other card is the Jack in one deal and the King in the
    other. The search's choice and every statistic are the same for the same seed; a search given
    the real state (every card face up) tells the deals apart."""
    ruleset = warroom.games.get_ruleset(TEST_GAME)
    me = len(history) % 2
    jack_deal, king_deal = [0, 0, 0], [0, 0, 0]
    jack_deal[me], jack_deal[1 - me], jack_deal[2] = 1, 0, 2
    king_deal[me], king_deal[1 - me], king_deal[2] = 1, 2, 0
    results = [MCTS(ruleset, seed=5).search(_dealt(deck, history), simulations=400) for deck in (jack_deal, king_deal)]
    assert results[0][0] == results[1][0]
    assert {k: v for k, v in results[0][1].items() if k != "seconds"} == {
        k: v for k, v in results[1][1].items() if k != "seconds"
    }

    def peek(state: Any, side: str, rng: random.Random) -> Any:
        return ruleset.clone(state)

    peeking = [
        MCTS(ruleset, seed=5, determinize=peek).search(_dealt(deck, history), simulations=400)
        for deck in (jack_deal, king_deal)
    ]
    assert peeking[0][1]["children"] != peeking[1][1]["children"]


def test_facing_a_bet_with_the_queen_the_search_does_not_know_whether_it_is_a_bluff() -> None:
    """South holds the Queen against North's bet. Seeing North's card, search folds to the King and
    calls the Jack; from South's view both deals are one position, so it answers both the same."""
    ruleset = warroom.games.get_ruleset(TEST_GAME)
    deals = ([2, 1, 0], [0, 1, 2])  # North: King, then Jack

    def peek(state: Any, side: str, rng: random.Random) -> Any:
        return ruleset.clone(state)

    assert [MCTS(ruleset, seed=3, determinize=peek).search(_dealt(d, ("bet",)), simulations=300)[0] for d in deals] == [
        "fold",
        "call",
    ]
    honest = {MCTS(ruleset, seed=3).search(_dealt(d, ("bet",)), simulations=300)[0] for d in deals}
    assert len(honest) == 1


# -- the heuristic does not peek either -----------------------------------------------------------------
def test_a_heuristic_that_would_peek_is_shown_only_what_its_side_sees() -> None:
    """Issue 17: no computer player peeks. A policy written to cheat (North bets when South holds the Jack) tells
    the two deals apart on the real state; as the heuristic agent of a game that hides the deck it is shown a
    world North cannot tell from the real one, so for one seed it chooses the same whatever South holds."""
    from warroom.ai import HeuristicAgent
    from warroom.engine.spec import AgentHooks

    ruleset = warroom.games.get_ruleset(TEST_GAME)

    def cheat(rs: Any, s: Any) -> tuple[str, str]:
        return ("bet" if s.deck[1] == 0 else "check"), "South holds the Jack"

    jack_deal, king_deal = _dealt([1, 0, 2]), _dealt([1, 2, 0])  # North holds the Queen in both
    assert cheat(ruleset, jack_deal)[0] != cheat(ruleset, king_deal)[0]
    determinize = get_spec(TEST_GAME).determinize
    choices = set()
    for seed in range(8):
        chosen = {
            HeuristicAgent(ruleset, AgentHooks(heuristic_policy=cheat), seed, determinize).choose(
                warroom.Match(ruleset, deal)
            )[0]
            for deal in (jack_deal, king_deal)
        }
        assert len(chosen) == 1, f"seed {seed}: the agent told the deals apart"
        choices |= chosen
    assert choices == {"bet", "check"}  # it bets on what it draws for South, not on what South holds


@pytest.mark.parametrize("game", [g for g in game_ids() if get_spec(g).hidden])
def test_every_heuristic_chooses_alike_in_worlds_its_side_cannot_tell_apart(game: str) -> None:
    """The installed heuristic of every game that hides something, at positions of random games: given two
    states that differ only in what the side to act cannot see, it makes the same choice (same seed)."""
    from warroom.ai import get_agent

    spec = get_spec(game)
    ruleset = warroom.games.get_ruleset(game)
    rng = random.Random(3)
    checked = 0
    for seed in range(3, 203):  # a long game gives its 12 positions in one game, a short one (a hand of cards) in more
        match = warroom.new_game(game, seed=seed, keep_log=False)
        while not match.over and checked < 12:
            side = match.to_act
            if side is not None and rng.random() < 0.2:
                worlds = [spec.determinize(match.state, side, random.Random(k)) for k in (1, 2)]
                chosen = {get_agent("heuristic", game, seed=7).choose(warroom.Match(ruleset, w))[0] for w in worlds}
                assert len(chosen) == 1, f"{game}: {side} chose {chosen} in worlds it cannot tell apart"
                assert chosen <= set(match.legal_actions())  # and the choice is legal in the real game
                checked += 1
            legal = match.legal_actions()
            match.play(legal[int(rng.random() * len(legal))])
        if checked == 12:
            break
    assert checked == 12
