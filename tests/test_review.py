"""Post-game analysis (warroom.ai.review, `warroom review`): every game, by its evaluation or a short search.

The games are played by seeded agents, so each review is reproducible; a deliberately bad move must be
found and marked, with a better move from the computer, and no game is named in the code under test.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import warroom
from warroom.ai import get_agent
from warroom.ai.review import MIN_LOSS, review
from warroom.cli import app
from warroom.games import REGISTRY, get_ruleset, get_spec, register_game
from warroom.terminal import Replay

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def bluff() -> Iterator[str]:
    """The test game registered only through the registry (tests/games/bluff), for one test."""
    before = dict(REGISTRY)
    sys.path.insert(0, str(TESTS))
    register_game("bluff", "games.bluff.spec:SPEC")
    yield "bluff"
    REGISTRY.clear()
    REGISTRY.update(before)
    get_spec.cache_clear()
    get_ruleset.cache_clear()
    sys.path.remove(str(TESTS))


def played(game: str, scenario: str | None, seed: int, agent: str = "heuristic") -> warroom.Match:
    match = warroom.new_game(game, scenario, seed=seed)
    player = get_agent(agent, game, seed=seed)
    while not match.over:
        match.play(player.choose(match)[0])
    return match


def test_every_point_and_decision_of_a_finished_two_sided_game() -> None:
    match = played("patton", "bulge", 5, "random")
    report = review(match.record())
    assert report["over"] and report["steps"] == len(match.actions) == len(report["decisions"])
    assert [p["step"] for p in report["points"]] == list(range(len(match.actions) + 1))
    for point in report["points"]:
        assert set(point["values"]) == {"Allied", "Axis"}
        assert point["values"]["Allied"] + point["values"]["Axis"] == pytest.approx(
            1.0, abs=1e-3
        )  # two teams: one chance
    winner = match.result.winner
    assert report["points"][-1]["values"][winner] == 1.0  # the end is the result, not an estimate
    assert all(d["best"] >= d["expected"] and d["loss"] >= 0 for d in report["decisions"])
    # a random player's game has costly moves; each marked one is among its side's costliest, with the computer's reason
    positions = Replay(match.record())  # step k: the position after the k-th decision, as `warroom replay` counts
    assert report["mistakes"] and len([m for m in report["mistakes"] if m["side"] == "Allied"]) <= 3
    for mistake in report["mistakes"]:
        own = sorted((d["loss"] for d in report["decisions"] if d["side"] == mistake["side"]), reverse=True)
        assert mistake["loss"] >= MIN_LOSS and mistake["loss"] in own[:3]
        assert mistake["computer"]["why"] and mistake["computer"]["label"]
        assert mistake["computer"]["action"] in positions.at(mistake["step"] - 1).legal_actions()
    assert review(match.record().to_json()) == report  # reproducible, from the record's JSON too


def test_a_blunder_is_marked_with_a_better_move_from_the_computer() -> None:
    """The first German decision replaced by the one the evaluation likes least: it must be marked."""
    match = warroom.new_game("patton", "bulge", seed=11)
    heuristic = get_agent("heuristic", "patton")
    from warroom.ai import agent_hooks
    from warroom.ai.analysis import _one_ply

    hooks = agent_hooks("patton")
    blunder_at = None
    while not match.over:
        action = heuristic.choose(match)[0]
        if blunder_at is None and match.to_act == "Axis" and len(match.legal_actions()) > 3:
            scored = _one_ply(match.ruleset, match.state, "Axis", hooks.evaluate)
            worst = min(scored, key=lambda a: scored[a])
            if scored[max(scored, key=lambda a: scored[a])] - scored[worst] > 0.05:
                action, blunder_at = worst, len(match.actions) + 1
        match.play(action)
    assert blunder_at is not None
    report = review(match.record())
    marked = {m["step"]: m for m in report["mistakes"]}
    assert blunder_at in marked
    mistake = marked[blunder_at]
    assert mistake["computer"]["action"] != mistake["action"] and mistake["computer"]["expected"] > mistake["expected"]
    assert "the best move" in mistake["text"] and "%" in mistake["text"]


def test_a_solitaire_game_is_reviewed_in_its_own_measure() -> None:
    report = review(played("dragoon", None, 5).record())
    assert report["sides"] == ["Allied"] and "expected result" in report["measure"] and "VP" in report["measure"]
    assert all(set(p["values"]) == {"Allied"} for p in report["points"])


def test_a_game_without_an_evaluation_is_scored_by_a_short_search(bluff: str) -> None:
    match = played(bluff, None, 3, "random")
    report = review(match.record())
    assert "short search" in report["scoring"] and report["steps"] == len(match.actions)
    assert report["points"][-1]["values"] == {
        side: 0.5 + 0.5 * match.result.returns[side] for side in ("North", "South")
    }
    assert review(match.record()) == report  # the search is seeded


def test_the_review_command(tmp_path: Path) -> None:
    match = played("patton", "bulge", 5, "random")
    path = tmp_path / "game.json"
    warroom.save(match, path)
    runner = CliRunner()
    shown = runner.invoke(app, ["review", str(path)], env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    assert "The moves that cost the most" in shown.output and "American" in shown.output and "why:" in shown.output
    as_json = runner.invoke(app, ["review", str(path), "--json", "--worst", "1"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert len(data["points"]) == len(match.actions) + 1 and len({m["side"] for m in data["mistakes"]}) == len(
        data["mistakes"]
    )
    missing = runner.invoke(app, ["review", str(tmp_path / "nothing.json")])
    assert missing.exit_code != 0


# -- every computer move carries its reason, in the terminal's one-screen turn summary and the web log ----------
def run(args: list[str], lines: list[str]) -> str:
    result = CliRunner().invoke(
        app, args, input="".join(f"{line}\n" for line in lines), env={"COLUMNS": "120", "NO_COLOR": "1"}
    )
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.output


def test_a_computer_turn_is_one_summary_of_its_moves_each_with_its_reason() -> None:
    out = run(["play", "patton", "--scenario", "bulge", "--vs", "ai", "--side", "Axis", "--seed", "2"], ["q", "n"])
    turn = out[out.index("the computer (heuristic) plays") : out.index("The computer made")]
    made = int(out[out.index("The computer made") + len("The computer made") :].split()[0])
    assert made > 3 and turn.count("why: Heuristic:") == made  # one reason a move
    assert "THE BULGE" not in turn  # no board inside the summary
    after = out[out.index("The computer made") :]
    assert after.count("THE BULGE") == 1 and "to decide" in after  # then the board once, and the person's menu


def test_a_watched_solitaire_game_gives_every_move_its_reason(tmp_path: Path) -> None:
    save = tmp_path / "watched.json"
    out = run(["play", "dragoon", "--seed", "4", "--auto", "heuristic", "--pace", "0"], ["y", str(save)])
    played = warroom.load(save)
    assert out.count("▶ Computer (heuristic):") == len(played.actions) == out.count("  why: ")


def test_a_secret_keeping_computer_tells_its_reasons_only_when_the_game_is_over(bluff: str) -> None:
    """bluff's heuristic reasons from its own card ("the Jack loses every showdown"): told only after the game."""
    out = run(["play", bluff, "--vs", "ai", "--side", "South", "--seed", "1"], ["2", "n"])
    over = out.index("Game over")
    assert "told when the game is over" in out[:over] and "Jack" not in out[:over].replace("Jack < Queen", "")
    told = out[over:]
    assert "The computer's reasons, now that the game is over" in told and told.count("why: the Jack") == out[
        :over
    ].count("why: told")
