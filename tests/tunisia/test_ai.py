"""Tunisia's computer players (warroom/games/tunisia/ai.py): the heuristic of each side beats a random opponent
in at least 95% of games, explains every choice in one line, and search's hooks give sound values."""

from __future__ import annotations

import random

from warroom.engine.chance import sample
from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia import ai
from warroom.games.tunisia.rules import TunisiaRules
from warroom.games.tunisia.state import Phase, TunisiaState

R = TunisiaRules()
GAMES_PER_SIDE = 20


def play(seed: int, heuristic_side: str, reasons: list[str] | None = None) -> TunisiaState:
    """One game: the heuristic for `heuristic_side`, uniformly random legal choices for the other, seeded dice."""
    rng = random.Random(seed)
    s = R.initial_state()
    while (who := R.to_act(s)) is not None:
        if who == CHANCE:
            R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
        elif who == heuristic_side:
            action, why = ai.heuristic_policy(R, s)
            assert action in R.legal_actions(s)
            if reasons is not None:
                reasons.append(why)
            R.apply(s, action, False)
        else:
            R.apply(s, rng.choice(R.legal_actions(s)), False)
    return s


def test_each_sides_heuristic_beats_random_in_95_percent_of_games() -> None:
    # Tunisia 4.0: the Allies by the five ports (4.0A), the Axis by 8821 or by lasting (4.0B)
    for side in ("Allied", "Axis"):
        wins = 0
        for seed in range(GAMES_PER_SIDE):
            result = R.result(play(1000 + seed, side))
            assert result is not None
            wins += result.winner == side
        assert wins >= 0.95 * GAMES_PER_SIDE, f"{side} heuristic won {wins} of {GAMES_PER_SIDE} against random"


def test_every_choice_comes_with_a_one_line_reason() -> None:
    reasons: list[str] = []
    play(7, "Allied", reasons)
    play(7, "Axis", reasons)
    assert reasons and all(why and "\n" not in why and len(why) < 200 for why in reasons)
    assert any("hurts" in why for why in reasons)  # an attack explained by its odds (11.5, 12.2)


def test_search_hooks_value_positions_and_narrow_the_moves() -> None:
    s = R.initial_state()
    assert s.phase == Phase.MOVEMENT
    value = ai.evaluate(R, s)
    assert set(value) == {"Axis", "Allied"} and abs(sum(value.values()) - 1) < 1e-9
    candidates = ai.candidate_actions(R, s)
    assert len(candidates) == ai.CANDIDATES + 1 and "end" in candidates
    assert ai.heuristic_policy(R, s)[0] in candidates  # the heuristic's own move is among them
    done = play(3, "Allied")
    assert ai.evaluate(R, done)["Allied"] in (0.0, 1.0) and ai.summarize(R, done)["turn"] >= 1


def test_a_leaf_playout_plays_the_player_turn_and_the_enemys_reply() -> None:
    # Tunisia 7.0: a leaf is scored when the searching side's next player-turn begins (issue 14's search)
    rng = random.Random(5)
    s = R.initial_state()
    for _ in range(30):  # some way into the Axis's first Movement Phase
        if R.to_act(s) == CHANCE:
            R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
        else:
            R.apply(s, ai.heuristic_policy(R, s)[0], False)
    start = (s.turn, s.player)
    leaf = R.clone(s)
    ai.leaf_playout(R, leaf, random.Random(1))
    assert R.result(leaf) is not None or (leaf.player == start[1] and leaf.turn == start[0] + 1)
    assert (s.turn, s.player) == start  # the searched position is untouched
