"""Dragoon's playout search (warroom/games/dragoon/search.py): legal, reproducible, better where a move
clearly is, and blind to the match's dice (issue 17)."""

from __future__ import annotations

from typing import Any

from dragoon_positions import game, position, rules

import warroom
from warroom.ai import agent_hooks, get_agent
from warroom.games.dragoon.ai import heuristic_policy
from warroom.games.dragoon.rules import DragoonRules
from warroom.games.dragoon.search import (
    MIN_EVIDENCE,
    OPENING_TURNS,
    PairedDice,
    PlayoutSearch,
    SearchAgent,
    ThinkingClock,
    candidate_moves,
    confident_best,
)
from warroom.games.dragoon.state import DragoonState


def _last_turn_at_marseilles(seed: int = 1) -> warroom.Match:
    """29 August, 1 RP left: 3e DIA in Aubagne faces the desperate 244th ID in Marseilles (a fortress).
    Attacking can take Marseilles (2 VP) and eliminate the 244th (1 VP); anything else scores nothing
    more, as the game ends this turn (Dragoon: How to Win)."""
    pos = position(
        turn=29,
        rp=1,
        allied={"3e-DIA": {"location": "Aubagne"}, "II-Corps": {"location": "Toulon"}},
        german={"244-ID": {"location": "Marseilles", "desperate": True}},
    )
    return game(pos, seed=seed, keep_log=False)


def _ender(rs: DragoonRules, s: DragoonState) -> tuple[str, str]:
    """A poor player: ends the actions at once, else takes the first choice offered."""
    legal = rs.legal_actions(s)
    return ("end" if "end" in legal else legal[0]), "ends at once"


def _past_the_opening(seed: int) -> warroom.Match:
    """A seeded game played by the heuristic to its first decision after the opening turns (search.py)."""
    match = warroom.new_game("dragoon", seed=seed, keep_log=False)
    rs = rules()
    while match.state.turn < rs.board.first_turn + OPENING_TURNS or len(match.legal_actions()) == 1:
        match.play(heuristic_policy(rs, match.state)[0])
    return match


def test_the_opening_is_the_heuristics() -> None:
    match = warroom.new_game("dragoon", seed=3, keep_log=False)
    choice = PlayoutSearch(rules(), seed=1).choose(match.state, playouts=4)
    assert choice.action == heuristic_policy(rules(), match.state)[0] and not choice.samples


def test_the_move_is_legal_now_at_every_decision_of_a_game() -> None:
    match = _past_the_opening(3)
    agent = get_agent("search", "dragoon", simulations=12, seed=4)
    assert isinstance(agent, SearchAgent)
    decisions = 0
    while not match.over and decisions < 12:
        if len(match.legal_actions()) > 1:
            action, why = agent.choose(match)
            assert action in match.legal_actions() and why.startswith("Search")
            decisions += 1
        else:
            action = match.legal_actions()[0]
        match.play(action)
    assert decisions == 12


def test_same_seed_same_search() -> None:
    match = _past_the_opening(8)
    first = PlayoutSearch(rules(), seed=5).choose(match.state, playouts=6)
    again = PlayoutSearch(rules(), seed=5).choose(match.state, playouts=6)
    assert first.action == again.action and first.samples == again.samples and first.playouts > 0
    other = PlayoutSearch(rules(), seed=6).choose(match.state, playouts=6)
    assert other.samples != first.samples  # the seed draws the dice tables


def test_the_clearly_better_move_is_found_even_against_its_heuristic() -> None:
    # Dragoon: How to Win — on the last turn only the attack can still add VP
    match = _last_turn_at_marseilles()
    attacks = {"attack 3e-DIA Aubagne->Marseilles", "attack 3e-DIA Aubagne->Marseilles +air"}
    assert attacks <= set(match.legal_actions())
    choice = PlayoutSearch(rules(), seed=2).choose(match.state, playouts=24)
    assert choice.action in attacks
    # a base player that ends at once is overruled: the attack's playouts score more on the same dice
    poor = PlayoutSearch(rules(), seed=2, policy=_ender).choose(match.state, playouts=24)
    assert poor.heuristic == "end" and poor.action in attacks
    assert poor.mean(poor.action) > poor.mean("end") + 1.0


def test_the_heuristic_move_stands_without_clear_evidence() -> None:
    h = [5, 6, 7, 8, 6, 7]
    assert confident_best({"h": h, "x": [5, 6, 7, 9, 6, 7]}, "h", 1.0) == "h"  # +1/6, one lucky playout
    assert confident_best({"h": h, "x": [v + 1 for v in h]}, "h", 1.0) == "x"  # +1 on every paired playout
    assert confident_best({"h": h, "x": [7, 6, 7, 8, 6, 8]}, "h", 2.0) == "h"  # +0.5 by 1.5 SE, not 2
    # too few paired playouts to judge (a time budget cut short): the heuristic's move stands
    assert confident_best({"h": h[: MIN_EVIDENCE - 1], "x": [v + 1 for v in h[: MIN_EVIDENCE - 1]]}, "h", 1.0) == "h"


def test_the_search_never_reads_the_matchs_dice() -> None:
    # the same position under two different match seeds: the search sees the same thing and answers the
    # same (its dice tables come from its own seed) ...
    one, two = _last_turn_at_marseilles(seed=1), _last_turn_at_marseilles(seed=99)
    a = PlayoutSearch(rules(), seed=7).choose(one.state, playouts=8)
    b = PlayoutSearch(rules(), seed=7).choose(two.state, playouts=8)
    assert a.samples == b.samples and a.action == b.action
    # ... and thinking draws nothing from the match's dice: the game goes on as if nobody had searched
    untouched = _last_turn_at_marseilles(seed=1)
    one.play(a.action)
    untouched.play(a.action)
    assert one.view()["state"] == untouched.view()["state"]


def test_paired_dice_give_each_roll_its_own_slot() -> None:
    # playout k of every candidate meets the same die for the same (turn, roll), whatever came before
    rs = rules()
    match = _last_turn_at_marseilles()
    s = rs.clone(match.state)
    rs.apply(s, "attack 3e-DIA Aubagne->Marseilles", False)
    b = rs.board
    first = PairedDice(11, b.first_turn, b.last_turn, len(b.allied)).uniform(s)
    other = PairedDice(11, b.first_turn, b.last_turn, len(b.allied))
    other.uniform(rs.clone(match.state))  # some other roll drawn first
    assert other.uniform(s) == first
    assert PairedDice(12, b.first_turn, b.last_turn, len(b.allied)).uniform(s) != first


def test_search_is_the_spec_hook_and_the_heuristic_is_unchanged() -> None:
    hooks = agent_hooks("dragoon")
    assert hooks.search is not None and hooks.heuristic_policy is heuristic_policy
    agent = get_agent("search", "dragoon", budget_ms=50, seed=1)
    assert isinstance(agent, SearchAgent) and agent.budget_ms == 50


def test_the_clock_carries_what_a_decision_leaves_and_charges_only_searched_decisions() -> None:
    search = PlayoutSearch(rules(), seed=2)
    clock = ThinkingClock(40)
    opening = warroom.new_game("dragoon", seed=3, keep_log=False)
    clock.think(search, opening.state)  # the opening is the heuristic's: it neither brings nor spends time
    assert (clock.searched, clock.saved_ms, clock.allowance_ms()) == (0, 0.0, 40)
    match = _past_the_opening(8)
    for _ in range(3):
        allowed = clock.allowance_ms()
        assert allowed == min(clock.cap_ms, 40 + clock.saved_ms)
        choice = clock.think(search, match.state)
        assert choice.samples and choice.action in match.legal_actions()
    # every searched decision brings its increment; what it spent is charged, what it left is saved
    assert clock.searched == 3 and abs(clock.saved_ms - (3 * 40 - clock.spent_ms)) < 1e-6
    clock.saved_ms = 1e6
    assert clock.allowance_ms() == clock.cap_ms == 200  # a close decision may borrow, at most CLOCK_CAP increments


def test_ending_with_rp_in_hand_is_weighed_only_where_the_heuristic_ends() -> None:
    # Using Action Charts: "RP cannot be saved from turn to turn"
    match = _last_turn_at_marseilles()
    assert "end" in match.legal_actions()
    assert "end" not in candidate_moves(rules(), match.state)
    assert set(candidate_moves(rules(), match.state)) == set(match.legal_actions()) - {"end"}


def test_the_drive_weights_name_every_allied_unit_in_every_band_of_turns() -> None:
    """The heuristic's RP plan (ai.DRIVE_WEIGHTS): a misspelt unit would silently weigh 1, a short row would
    leave a band unweighed; the bands cover the game's turns in order. The plan keeps the two hand-made rules
    it was tuned from: VI Corps is a last call on the RP until turn 22, the 3rd ID comes first until turn 21."""
    from warroom.games.dragoon import ai
    from warroom.games.dragoon.projection import model_of

    b = rules().board
    assert set(ai.DRIVE_WEIGHTS) == {unit.id for unit in b.allied}
    assert all(len(row) == len(ai.TURN_BANDS) and min(row) > 0 for row in ai.DRIVE_WEIGHTS.values())
    firsts = [first for first, _ in ai.TURN_BANDS]
    lasts = [last for _, last in ai.TURN_BANDS]
    assert firsts[0] == b.first_turn and lasts[-1] == b.last_turn
    assert all(nxt == last + 1 for last, nxt in zip(lasts, firsts[1:], strict=False))
    m = model_of(rules())
    for turn in range(b.first_turn, b.last_turn + 1):
        s = rules().initial_state()
        s.turn = turn
        vi, us3 = ai._drive_weight(m, s, b.vi_corps), ai._drive_weight(m, s, b.us_3rd)
        assert (vi < 0.1) == (turn < 22), turn
        assert (us3 > 10) == (turn <= 21), turn


def test_helper_processes_play_the_rounds_one_process_would() -> None:
    # workers=2: round k here, round k+1 in a helper process; the rounds and their dice are the same
    from warroom.games.dragoon import search

    match = _past_the_opening(8)
    alone = PlayoutSearch(rules(), seed=5).choose(match.state, playouts=4)
    shared = PlayoutSearch(rules(), seed=5, workers=2).choose(match.state, playouts=4)
    assert shared.samples == alone.samples and shared.action == alone.action and alone.playouts > 0
    # a helper that died is replaced at the next decision, and the search still answers
    for helper in search._HELPERS:
        helper.process.kill()
        helper.process.wait()
    again = PlayoutSearch(rules(), seed=5, workers=2).choose(match.state, playouts=4)
    assert again.samples == alone.samples
    assert all(h.process.poll() is None for h in search._HELPERS)


def test_helper_processes_play_only_the_heuristic() -> None:
    import pytest

    with pytest.raises(ValueError, match="heuristic"):
        PlayoutSearch(rules(), seed=1, workers=2, policy=_ender)


def test_the_study_plays_the_search_on_a_clock_and_refuses_a_clock_without_a_time(tmp_path: Any, capsys: Any) -> None:
    import json

    import pytest

    from warroom.games.dragoon import study

    out = tmp_path / "games.jsonl"
    study.main(["--seeds", "1-1", "--budget-ms", "20", "--clock", "--out", str(out)])
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["seed"] == 1 and row["searched"] > 0 and row["searched_ms"] > 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 1 and summary["ms_per_searched_decision"] > 0
    for argv in (["--clock"], ["--clock", "--budget-ms", "20", "--playouts", "3"]):
        with pytest.raises(SystemExit):
            study.main(["--seeds", "1-1", *argv])
    assert "--clock times the search" in capsys.readouterr().err
