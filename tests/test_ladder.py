"""The agent ladder: the Elo fit on known results, a real round robin through the CLI, the solitaire case."""

from __future__ import annotations

import json
import math
import random
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

import warroom.games
from warroom.ai import UnknownAgentError
from warroom.analysis import ladder as ladder_module
from warroom.analysis.ladder import (
    AgentSpec,
    LadderError,
    elo_with_intervals,
    fit_elo,
    ladder,
    markdown,
    parse_agents,
    play_game,
)
from warroom.cli import app

RUNNER = CliRunner()


def test_a_stronger_agent_is_rated_higher_and_the_gap_matches_the_score() -> None:
    # 75% against an opponent is 400*log10(3) = 191 Elo (without the virtual draw; with it, a bit less)
    ratings = fit_elo(2, [(0, 1, 75.0, 100.0)], virtual_draws=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert sum(ratings) / 2 == pytest.approx(1500)
    shrunk = fit_elo(2, [(0, 1, 75.0, 100.0)])
    assert 0 < shrunk[0] - shrunk[1] < ratings[0] - ratings[1]
    chain = fit_elo(3, [(0, 1, 7.0, 10.0), (1, 2, 7.0, 10.0), (0, 2, 9.0, 10.0)])
    assert chain[0] > chain[1] > chain[2]


def test_symmetric_results_give_equal_ratings() -> None:
    ratings = fit_elo(3, [(0, 1, 5.0, 10.0), (1, 2, 5.0, 10.0), (2, 0, 5.0, 10.0)])
    assert ratings == pytest.approx([1500.0] * 3, abs=1e-6)
    ratings = fit_elo(3, [(0, 1, 8.0, 10.0), (1, 2, 8.0, 10.0), (2, 0, 8.0, 10.0)])  # rock, paper, scissors
    assert ratings == pytest.approx([1500.0] * 3, abs=1e-6)


def test_a_clean_sweep_has_a_finite_rating_and_an_interval_of_some_width() -> None:
    ratings, intervals = elo_with_intervals(2, {(0, 1): [(2.0, 2.0)] * 3})
    assert math.isfinite(ratings[0]) and ratings[0] > ratings[1]
    assert intervals[0][0] < intervals[0][1]


def test_the_interval_contains_the_true_ratings_of_a_simulated_tournament() -> None:
    truth = [1250.0, 1500.0, 1750.0]  # mean 1500, the fit's anchor
    rng = random.Random(5)
    pairs: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for i in range(3):
        for j in range(i + 1, 3):
            p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            pairs[(i, j)] = [(float(sum(rng.random() < p for _ in range(2))), 2.0) for _ in range(150)]
    ratings, intervals = elo_with_intervals(3, pairs, bootstrap=200)
    for true, fitted, (lo, hi) in zip(truth, ratings, intervals, strict=True):
        assert lo <= true <= hi
        assert lo <= fitted <= hi
        assert hi - lo < 200  # 300 games an agent pin a rating down to well under 200 Elo
    again = elo_with_intervals(3, pairs, bootstrap=200)
    assert again == (ratings, intervals)  # a fixed bootstrap seed: the same intervals every run


def test_agent_names_and_budgets() -> None:
    assert parse_agents("random,heuristic,mcts@100,mcts@300ms") == [
        AgentSpec("random", "random"),
        AgentSpec("heuristic", "heuristic"),
        AgentSpec("mcts@100", "mcts", simulations=100),
        AgentSpec("mcts@300ms", "mcts", budget_ms=300),
    ]
    with pytest.raises(UnknownAgentError):
        parse_agents("random,alphago")
    for bad in ("random@5,heuristic", "mcts@,random", "mcts@0,random", "random,random", "random"):
        with pytest.raises(LadderError):
            parse_agents(bad)


def test_sides_are_swapped_on_the_same_seeds() -> None:
    # the two games of a seed are the two seatings of one deal of the dice, each counted for its agent
    report = ladder("patton", "random,heuristic", scenario="bulge", games_per_pair=1, seed=3)
    a, b = AgentSpec.parse("random"), AgentSpec.parse("heuristic")
    first = play_game("patton", "bulge", 3, {"Allied": a, "Axis": b})
    second = play_game("patton", "bulge", 3, {"Allied": b, "Axis": a})
    random_score = (first["returns"]["Allied"] + 1) / 2 + (second["returns"]["Axis"] + 1) / 2
    assert report.pairs == [{"agent": "random", "opponent": "heuristic", "games": 2, "score": random_score}]
    assert sum(row["games"] for row in report.rows) == 4


def test_a_tiny_ladder_through_the_cli() -> None:
    result = RUNNER.invoke(
        app,
        [
            "ladder",
            "patton",
            "--scenario",
            "bulge",
            "--agents",
            "random,heuristic",
            "--games-per-pair",
            "2",
            "--seed",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "elo"
    standings = data["standings"]
    assert [row["agent"] for row in standings] == ["heuristic", "random"]  # the heuristic beats random
    assert [row["rank"] for row in standings] == [1, 2]
    assert standings[0]["elo"] > 1500 > standings[1]["elo"]
    assert sum(row["elo"] for row in standings) / 2 == pytest.approx(1500, abs=0.2)
    for row in standings:
        assert row["ci"][0] <= row["elo"] <= row["ci"][1]
        assert row["games"] == 4
    text = RUNNER.invoke(
        app,
        [
            "ladder",
            "patton",
            "--scenario",
            "bulge",
            "--agents",
            "random,heuristic",
            "--games-per-pair",
            "2",
            "--seed",
            "1",
        ],
    )
    assert text.exit_code == 0, text.output
    for word in ("rank", "Elo", "95% CI", "score %", "heuristic", "bootstrap"):
        assert word in text.stdout
    bad = RUNNER.invoke(app, ["ladder", "patton", "--agents", "random,chess"])
    assert bad.exit_code == 1 and "unknown agent" in bad.output


def test_a_solitaire_game_ranks_by_mean_result_not_elo() -> None:
    sides = warroom.games.get_ruleset("dragoon").info.sides
    assert len(sides) == 1
    result = RUNNER.invoke(
        app, ["ladder", "dragoon", "--agents", "random,heuristic", "--games-per-pair", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "solitaire" and "no Elo" in data["note"]
    best, worst = data["standings"]
    assert (best["agent"], worst["agent"]) == ("heuristic", "random")
    assert best["mean_return"] > worst["mean_return"]
    assert best["ci"][0] <= best["mean_return"] <= best["ci"][1]
    assert best["games"] == worst["games"] == 4
    assert best["score"] and all(best["score"][key] >= worst["score"][key] for key in best["score"])  # e.g. mean VP
    text = RUNNER.invoke(app, ["ladder", "dragoon", "--agents", "random,heuristic", "--games-per-pair", "2"])
    assert "no Elo" in text.stdout and "mean return" in text.stdout


def test_all_writes_the_markdown_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # every registered game is laddered: here the registry is cut to one fast game
    monkeypatch.setattr(warroom.games, "game_ids", lambda: ["dragoon"])
    monkeypatch.setattr(ladder_module, "ALL_AGENTS", ("random", "heuristic"))
    page = tmp_path / "ladder.md"
    result = RUNNER.invoke(app, ["ladder", "--all", "--write", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert f"`warroom ladder --all --write {page}`" in text
    assert date.today().isoformat() in text
    assert "## dragoon — campaign" in text and "| 1 | heuristic |" in text


def test_markdown_names_the_command_and_the_date() -> None:
    report = ladder("dragoon", "random,heuristic", games_per_pair=1)
    text = markdown([report], today=date(2026, 1, 2))
    assert "`warroom ladder --all --write docs/ladder.md` on 2026-01-02" in text
    assert "| rank | agent | mean return |" in text


def test_the_standings_do_not_depend_on_the_number_of_processes() -> None:
    one = ladder("dragoon", "random,heuristic", games_per_pair=3, seed=11, jobs=1)
    two = ladder("dragoon", "random,heuristic", games_per_pair=3, seed=11, jobs=2)
    assert one.rows == two.rows


@pytest.mark.parametrize("game", warroom.games.game_ids())
def test_the_ladder_page_in_docs_covers_every_game_and_scenario(game: str) -> None:
    """Issue 17: the table of every game's ladder lives in docs/; a game laddered there must be laddered in every
    scenario it has now (`warroom ladder --all --write docs/ladder.md`). A game with no standings at all yet (a new
    game, a test game) is skipped: its ladder comes with the next regeneration, not with the game's folder."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "ladder.md").read_text(encoding="utf-8")
    titles = [
        f"{game} — {scenario}" if scenario else game
        for scenario in warroom.games.get_ruleset(game).info.scenarios or (None,)
    ]
    if f"\n## {game}\n" not in text and f"\n## {game} — " not in text:
        pytest.skip(f"docs/ladder.md has no standings for {game} yet (`warroom ladder --all --write docs/ladder.md`)")
    for title in titles:
        assert f"\n## {title}\n" in text, f"docs/ladder.md has no standings for {title}: regenerate it"


def test_a_team_game_is_laddered_team_against_team() -> None:
    """Saint-Lo 10 (two teams of two): an agent plays both seats of its team; the pair is rated as in a two-side
    game (2 v 2 as 1 v 1), sides swapped on the same seeds."""
    report = ladder("saintlo-teams", "random,heuristic", games_per_pair=2, seed=5)
    assert report.mode == "elo" and [row["games"] for row in report.rows] == [4, 4]
    assert report.rows[0]["agent"] == "heuristic" and report.rows[0]["score_rate"] > 0.5
    assert report.pairs == [
        {
            "agent": "random",
            "opponent": "heuristic",
            "games": 4,
            "score": pytest.approx(4 - report.rows[0]["score_rate"] * 4),
        }
    ]


def test_one_games_standings_are_put_on_the_page_and_the_others_kept(tmp_path: Path) -> None:
    # issue 40: the ladder page is regenerated per game, with no full rerun to add or remake one
    page = tmp_path / "ladder.md"
    bluff = ladder("bluff", "random,heuristic", games_per_pair=1)
    page.write_text(markdown([bluff], today=date(2026, 1, 2)), encoding="utf-8")
    kept = page.read_text(encoding="utf-8").split("## bluff")[1]
    result = RUNNER.invoke(
        app, ["ladder", "dragoon", "--agents", "random,heuristic", "--games-per-pair", "1", "--write", str(page)]
    )
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert text.split("## bluff")[1].split("\n## ")[0] == kept.split("\n## ")[0]  # the other game, word for word
    assert text.index("## dragoon — campaign") < text.index("## bluff")  # in the registry's order
    command = f"warroom ladder dragoon --agents random,heuristic --games-per-pair 1 --seed 0 --write {page}"
    assert f"Made by `{command}` on {date.today().isoformat()}" in text and "on 2026-01-02" in text
    again = RUNNER.invoke(
        app, ["ladder", "dragoon", "--agents", "random,heuristic", "--games-per-pair", "2", "--write", str(page)]
    )
    assert again.exit_code == 0 and page.read_text(encoding="utf-8").count("## dragoon — campaign") == 1
    assert "--games-per-pair 2" in page.read_text(encoding="utf-8")  # replaced where it stood, not added twice
