"""The benchmark returns its documented report (speeds are measured, never asserted)."""

from __future__ import annotations

import importlib.util
import sys
import types

import pytest

from warroom import UnknownGameError, UnknownScenarioError
from warroom.analysis.bench import MCTS_SIMS, RANDOM_STEPS, default_game, run_bench
from warroom.engine.compiled import compiled_modules, describe_build
from warroom.engine.spec import GameSpec
from warroom.games import REGISTRY, game_ids, get_spec


def test_bench_reports_every_part() -> None:
    report = run_bench("dragoon", seconds=0.05)
    assert report["game"] == "dragoon"
    playouts = report["random_playouts"]
    for key in ("steps", "games", "seconds", "steps_per_s", "games_per_s", "target_steps_per_s", "meets_target"):
        assert key in playouts
    assert playouts["games"] >= 1 and playouts["steps"] >= playouts["games"]
    assert playouts["target_steps_per_s"] == get_spec("dragoon").bench_targets[RANDOM_STEPS] == 50_000
    heuristic = report["heuristic_playouts"]  # issue 40: whole games with the game's own policy on every side
    for key in ("steps", "games", "seconds", "steps_per_s", "games_per_s", "steps_per_game"):
        assert key in heuristic
    assert heuristic["games"] >= 1 and heuristic["steps"] >= heuristic["games"]
    mcts = report["mcts"]
    for key in ("simulations", "seconds", "sims_per_s", "position", "chose", "target_sims_per_s", "meets_target"):
        assert key in mcts
    assert mcts["simulations"] >= 1
    assert mcts["target_sims_per_s"] == get_spec("dragoon").bench_targets[MCTS_SIMS] == 3_000
    spiel = report["openspiel"]
    if importlib.util.find_spec("pyspiel") is None:
        assert spiel["installed"] is False and "not installed" in spiel["note"]
    else:
        assert spiel["installed"] is True and spiel["steps"] > 0
    assert "web" not in report
    # what ran: the compiled build where setup.py could make it (tests/test_compiled_build.py), else pure Python
    assert report["build"] == (
        "pure Python" if not compiled_modules() else f"compiled by mypyc: {len(compiled_modules())} modules"
    )


def test_bench_web_part_says_when_it_is_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "warroom.web.bench", None)  # as if the web server were not installed
    report = run_bench("dragoon", seconds=0.02, web=True)
    assert report["web"] == "not available"


def test_bench_web_part_runs_the_web_benchmark_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("warroom.web.bench")
    fake.run = lambda: {"moves_per_s": 1.0}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "warroom.web.bench", fake)
    report = run_bench("dragoon", seconds=0.02, web=True)
    assert report["web"] == {"moves_per_s": 1.0}


def test_bench_measures_patton_against_its_own_target() -> None:
    # issue 4: "Speed: random playouts at least 20,000 steps/s on one core", measured by `warroom bench patton`
    report = run_bench("patton", seconds=0.05, scenario="sicily")
    assert report["game"] == "patton" and report["scenario"] == "sicily"
    playouts = report["random_playouts"]
    assert playouts["target_steps_per_s"] == get_spec("patton").bench_targets[RANDOM_STEPS] == 20_000
    assert isinstance(playouts["meets_target"], bool)
    assert playouts["games"] >= 1
    mcts = report["mcts"]
    assert mcts["simulations"] >= 1
    assert "target_sims_per_s" not in mcts and "meets_target" not in mcts  # Patton sets no simulation rate


def test_bench_defaults_to_the_games_first_scenario_and_rejects_unknown_ones() -> None:
    assert run_bench("patton", seconds=0.02)["scenario"] == "normandy"
    with pytest.raises(UnknownScenarioError, match="scenarios: normandy, bulge, sicily"):
        run_bench("patton", seconds=0.02, scenario="kursk")
    with pytest.raises(UnknownGameError):
        run_bench("chess", seconds=0.02)


SLOW = GameSpec(id="slow", ruleset=lambda: get_spec("dragoon").ruleset(), bench_targets={RANDOM_STEPS: 1e12})
"""Dragoon's rules under another id, held to a target no machine meets: the targets are the spec's, not the bench's."""


def test_bench_targets_come_from_the_games_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, "slow", f"{__name__}:SLOW")
    get_spec.cache_clear()
    try:
        from warroom.analysis.bench import bench_random_playouts

        report = bench_random_playouts("slow", 0.02)
    finally:
        get_spec.cache_clear()
    assert report["target_steps_per_s"] == 1e12 and report["meets_target"] is False


def test_bench_measures_the_first_registered_game_by_default() -> None:
    assert default_game() == game_ids()[0]
    assert run_bench(seconds=0.02)["game"] == game_ids()[0]


def test_the_web_bench_takes_its_games_and_seats_from_the_registry() -> None:
    from warroom.web.bench import computer_game, load_game

    alone = load_game()
    assert alone["mode"] == "online" and len(get_spec(alone["game"]).ruleset().info.sides) == 1
    against = computer_game()
    sides = get_spec(against["game"]).ruleset().info.sides
    assert len(sides) > 1 and against["human"] == [sides[-1]] and against["mode"] == "computer"
    assert alone["game"] == next(g for g in game_ids() if len(get_spec(g).ruleset().info.sides) == 1)


def test_bench_all_reports_mcts_simulations_for_every_game_and_scenario() -> None:
    # issue 16: "report MCTS simulations per second for every game in warroom bench"; a game without a
    # simulation target still gets its measured rate, only no pass/fail
    from warroom.analysis.bench import bench_all
    from warroom.games import get_ruleset

    report = bench_all(seconds=0.02)
    expected = [(game, scenario) for game in game_ids() for scenario in get_ruleset(game).info.scenarios or (None,)]
    assert [(row["game"], row["scenario"]) for row in report["games"]] == expected
    for row in report["games"]:
        assert row["sims_per_s"] > 0 and row["steps_per_s"] > 0
        goal = get_spec(row["game"]).bench_targets.get(MCTS_SIMS)
        assert row.get("target_sims_per_s") == goal
        assert ("sims_meet_target" in row) == (goal is not None)
        if goal is not None and abs(row["sims_per_s"] - goal) >= 1:  # the rate shown is rounded; the test is not
            assert row["sims_meet_target"] == (row["sims_per_s"] >= goal)
    if report["openspiel"].get("installed"):
        assert all(row["steps_vs_openspiel"] > 0 for row in report["games"])


def test_bench_all_command_prints_a_row_per_game_and_scenario() -> None:
    from typer.testing import CliRunner

    from warroom.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["bench", "--all", "--seconds", "0.02", "--json"])
    assert result.exit_code == 0, result.output
    import json

    rows = json.loads(result.output)["games"]
    assert {row["game"] for row in rows} == set(game_ids())
    table = runner.invoke(app, ["bench", "--all", "--seconds", "0.02"], env={"COLUMNS": "160"})
    assert table.exit_code == 0 and "MCTS sims/s" in table.output and describe_build() in table.output
    refused = runner.invoke(app, ["bench", "patton", "--all"])
    assert refused.exit_code == 1 and "--all measures every game" in refused.output


def test_bench_rates_are_per_cpu_second_and_the_openspiel_ratio_comes_from_alternating_rounds() -> None:
    # issue 16: the ratio to OpenSpiel must hold on a shared machine: CPU time, median of interleaved rounds
    from warroom.analysis.bench import bench_all, bench_random_playouts

    playouts = bench_random_playouts("dragoon", 0.05)
    assert playouts["clock"] == "cpu" and playouts["dice_per_step"] > 0
    report = bench_all(seconds=0.06, games=["dragoon"], rounds=2)
    assert report["clock"] == "cpu" and report["rounds"] == 2
    (row,) = report["games"]
    spiel = report["openspiel"]
    if spiel.get("installed"):
        assert 0 < spiel["chance_steps"] < spiel["steps"]
        # like for like counts each of warroom's dice too, so it is never below the ratio of plays
        assert row["transitions_vs_openspiel"] >= row["steps_vs_openspiel"] > 0
    else:
        assert "steps_vs_openspiel" not in row and "transitions_vs_openspiel" not in row


def test_bench_times_the_computers_turns_against_its_stated_budget() -> None:
    # issue 40: the computer's turn keeps its stated time a decision; bench reports the percentiles of its wall time
    from warroom.analysis.bench import bench_computer_turns

    found = bench_computer_turns("patton", decisions=2, budget_ms=20)
    assert (
        found["agent"] == "mcts" and found["budget_ms"] == 20 and found["decisions"] == 2 and found["clock"] == "wall"
    )
    assert 0 < found["p50_ms"] <= found["p95_ms"] <= found["max_ms"] and 0 <= found["over_budget"] <= 2
    assert bench_computer_turns("dragoon", decisions=1, budget_ms=20)["agent"] == "search"  # mcts not offered there
    report = run_bench("dragoon", seconds=0.02, computer_turns=1)
    assert report["computer_turns"]["decisions"] == 1 and "computer_turns" not in run_bench("dragoon", seconds=0.02)
