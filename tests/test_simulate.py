"""Monte Carlo studies: reproducible whatever the number of processes, and reported completely."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from warroom.ai import UnknownAgentError
from warroom.analysis.simulate import SimulationError, SimulationReport, play_one, simulate


def _comparable(report: SimulationReport) -> dict[str, Any]:
    data = report.to_json()
    for key in ("seconds", "jobs", "backend"):
        data.pop(key)
    return data


def test_simulate_is_the_same_with_one_process_or_two() -> None:
    one = simulate("dragoon", 12, jobs=1, seed=7)
    two = simulate("dragoon", 12, jobs=2, seed=7)
    assert _comparable(one) == _comparable(two)
    assert one.games == 12


def test_each_game_is_seeded_seed_plus_k() -> None:
    # game k of a study is the game played alone with seed + k: a study can be picked apart
    report = simulate("dragoon", 3, agent="random", seed=40)
    alone = [play_one("dragoon", "random", 40 + k) for k in range(3)]
    assert report.numbers["VP"]["histogram"] == _histogram([f["VP"] for f in alone])


def _histogram(values: list[int]) -> dict[int, int]:
    return {v: values.count(v) for v in range(min(values), max(values) + 1)}


def test_report_has_outcomes_vp_captures_and_eliminations() -> None:
    # Dragoon: How to Win — Allied victory / draw / German victory; VP; the ports
    report = simulate("dragoon", 20, seed=1)
    assert set(report.outcomes) == {"Allied", "draw", "German"}
    assert sum(report.outcomes.values()) == 20
    assert sum(report.rate(k) for k in report.outcomes) == pytest.approx(1.0)
    vp = report.numbers["VP"]
    assert sum(vp["histogram"].values()) == 20
    assert vp["min"] <= vp["mean"] <= vp["max"]
    assert "German units eliminated" in report.numbers
    captured = report.events["captured"]
    assert set(captured) == {"Marseilles", "Toulon", "Cannes"}
    for stats in captured.values():
        assert 0.0 <= stats["rate"] <= 1.0
        if stats["rate"]:
            assert 15 <= stats["mean"] <= 29
    data = report.to_json()
    assert data["rates"]["Allied"] == report.rate("Allied")


def test_report_renders_as_tables() -> None:
    report = simulate("dragoon", 5, agent="random", seed=2)
    console = Console(record=True, width=120)
    report.render(console)
    text = console.export_text()
    for word in ("Outcomes", "Allied victory", "German victory", "draw", "VP", "Marseilles", "mean turn"):
        assert word in text


def test_progress_is_reported_up_to_the_last_game() -> None:
    seen: list[int] = []
    simulate("dragoon", 30, agent="random", seed=0, progress=seen.append)
    assert seen and seen[-1] == 30
    assert seen == sorted(seen)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(UnknownAgentError):
        simulate("dragoon", 2, agent="oracle")
    with pytest.raises(SimulationError):
        simulate("dragoon", 0)


def test_a_study_on_a_local_ray_reports_exactly_what_the_process_pool_does() -> None:
    """The Ray backend is real: a local Ray plays the batches and the report is the process pool's, seed for seed."""
    pytest.importorskip("ray")
    pool = simulate("patton", 6, agent="random", jobs=2, seed=11, scenario="bulge")
    on_ray = simulate("patton", 6, agent="random", jobs=2, seed=11, scenario="bulge", backend="ray")
    assert on_ray.backend == "ray (local)" and pool.backend == "2 processes"
    assert _comparable(on_ray) == _comparable(pool)


def test_ray_is_asked_for_plainly() -> None:
    with pytest.raises(SimulationError, match="--backend ray"):
        simulate("dragoon", 2, address="127.0.0.1:6379")  # an address alone never runs quietly elsewhere
    with pytest.raises(SimulationError, match="backend must be one of"):
        simulate("dragoon", 2, backend="spark")


def test_the_ray_backend_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import warroom.analysis.simulate as module

    monkeypatch.setattr(module, "_ray_available", lambda: False)  # as on a machine without the cluster extra
    with pytest.raises(SimulationError, match=r"pip install 'warroom\[cluster\]'"):
        simulate("dragoon", 2, backend="ray")


def test_each_games_facts_are_kept_for_the_per_game_table_but_not_counted_in_the_summary() -> None:
    # issue 16 (balance reports): a study keeps every game's facts with its seed and end turn; the
    # text/JSON report is what it was (no seed or end-turn distribution appears in it)
    from warroom.analysis.simulate import END_TURN, SEED

    report = simulate("dragoon", 4, agent="random", seed=9)
    assert [game[SEED] for game in report.per_game] == [9, 10, 11, 12]
    assert [game["VP"] for game in report.per_game] == [play_one("dragoon", "random", 9 + k)["VP"] for k in range(4)]
    assert all(isinstance(game[END_TURN], int) for game in report.per_game)
    data = report.to_json()
    assert SEED not in data["numbers"] and END_TURN not in data["numbers"] and "per_game" not in data
