"""Hints with numbers (warroom.ai.analysis) through the library, the web API and the terminal, and
the computer's one-line reason in the web log.

Budgets are simulation counts, not milliseconds, wherever numbers are compared: the same seed must
give the same numbers, which a wall-clock budget would not."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from counted_work import ticking_search_clock
from patience import SLOW_STATE_SECONDS
from typer.testing import CliRunner

import warroom
from warroom.ai import agent_hooks, get_agent
from warroom.ai.analysis import HINT_CANDIDATES, HINT_SIMULATIONS, NO_SEARCH, analyse, hint, hint_moves
from warroom.ai.mcts import MCTSAgent
from warroom.cli import app
from warroom.games import get_ruleset


def _numbers(found: Any) -> list[tuple[str, float | None, float | None, float | None, int]]:
    return [(a.action, a.value, a.low, a.high, a.visits) for a in found.top]


@pytest.mark.parametrize("game", ["patton", "tunisia"])
def test_mcts_top_three_are_legal_ranked_and_bracketed(game: str) -> None:
    match = warroom.new_game(game, seed=11)
    agent = get_agent("mcts", game, seed=5, simulations=120)
    found = analyse(agent, match)
    twin = get_agent("mcts", game, seed=5, simulations=120)
    assert found.action == twin.choose(match)[0]  # the hint's move is what the agent plays
    assert found.searched and len(found.top) == 3
    assert [a.action for a in found.top if a.chosen] == [found.action]  # marked wherever its estimate puts it
    assert len({a.action for a in found.top}) == 3 and all(a.action in match.legal_actions() for a in found.top)
    for alt in found.top:
        assert alt.value is not None and alt.low is not None and alt.high is not None
        assert 0.0 <= alt.low <= alt.value <= alt.high <= 1.0 and alt.visits > 0
        assert "95% interval" in alt.text and f"{alt.visits:,} simulations" in alt.text
    values = [a.value for a in found.top if not a.chosen or a is not found.top[-1]]
    assert values == sorted(values, reverse=True)  # by the estimate it states, highest first
    again = analyse(get_agent("mcts", game, seed=5, simulations=120), match)
    assert _numbers(again) == _numbers(found)  # same seed, same numbers


def test_the_measure_follows_the_game() -> None:
    dragoon_search = MCTSAgent(get_ruleset("dragoon"), hooks=agent_hooks("dragoon"), seed=1, simulations=60)
    solitaire = analyse(dragoon_search, warroom.new_game("dragoon", seed=2))
    assert "expected result" in solitaire.measure and "VP" in solitaire.top[0].text
    duel = analyse(get_agent("heuristic", "patton"), warroom.new_game("patton", seed=2))
    assert "chance of winning" in duel.measure and "to win" in duel.top[0].text


def test_without_search_the_numbers_say_so() -> None:
    match = warroom.new_game("patton", seed=4)
    found = analyse(get_agent("heuristic", "patton"), match)
    assert not found.searched and found.action == get_agent("heuristic", "patton").choose(match)[0]
    assert [a.action for a in found.top if a.chosen] == [found.action]
    for alt in found.top:
        assert alt.visits == 0 and alt.low == alt.value == alt.high and NO_SEARCH in alt.text
    values = [a.value for a in found.top if not a.chosen or a is not found.top[-1]]
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]


def test_a_worker_job_answers_the_alternatives_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.web.thinking import Job, _thought, answer, private_record

    ticking_search_clock(monkeypatch, 1)  # a job's budget in ms is then its simulations, on any machine
    match = warroom.new_game("patton", seed=9)
    reply = answer(Job("patton", "mcts", 200, 3, 4, private_record(match), "", top=3))
    thought = _thought(reply)
    assert thought.analysis is not None and len(thought.analysis["top"]) == 3
    top = thought.analysis["top"]
    assert [alt["action"] for alt in top if alt["chosen"]] == [thought.action] and thought.analysis["searched"]
    plain = _thought(answer(Job("patton", "mcts", 50, 3, 4, private_record(match), "")))
    assert plain.analysis is None  # a computer seat's move asks for no alternatives


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app

    web = create_app(f"sqlite:///{tmp_path / 'hints.db'}", workers=0)
    with TestClient(web) as test_client:
        yield test_client
    web.state.store.close()


def test_the_web_hint_lists_the_top_three_with_numbers(client: Any) -> None:
    created = client.post("/api/games", json={"game": "patton", "seed": 7, "mode": "hotseat"}).json()
    token = created["seats"][0]["token"]
    legal = created["game"]["view"]["legal"]
    hint = client.get(f"/api/games/{created['id']}/hint", params={"token": token, "agent": "mcts", "budget_ms": 100})
    assert hint.status_code == 200, hint.text
    body = hint.json()
    assert body["searched"] and "chance of winning" in body["measure"]
    assert [alt["action"] for alt in body["top"] if alt["chosen"]] == [body["action"]]
    assert 1 <= len(body["top"]) <= 3
    for alt in body["top"]:
        assert (
            alt["action"] in legal and alt["label"] and alt["low"] <= alt["value"] <= alt["high"] and alt["visits"] > 0
        )
        assert "95% interval" in alt["text"]
    plain = client.get(f"/api/games/{created['id']}/hint", params={"token": token, "agent": "heuristic"}).json()
    assert not plain["searched"] and all(NO_SEARCH in alt["text"] for alt in plain["top"])
    schema = client.get("/openapi.json").json()
    documented = schema["paths"]["/api/games/{game_id}/hint"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert documented["$ref"].endswith("/Hint") and "top" in schema["components"]["schemas"]["Hint"]["properties"]


def test_the_computers_reason_reaches_the_web_log(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.web import agents

    gate = threading.Event()

    class Explaining:
        def choose(self, match: Any) -> tuple[str, str]:
            gate.wait(SLOW_STATE_SECONDS)  # until the test listens, so that the move's push reaches it
            return match.legal_actions()[0], "it is the first thing on the list"

    monkeypatch.setattr(agents, "make_agent", lambda name, game, budget_ms, seed: Explaining())
    created = client.post(
        "/api/games", json={"game": "patton", "seed": 3, "mode": "computer", "human": ["Axis"], "agent": "heuristic"}
    )
    assert created.status_code == 201, created.text
    data = created.json()
    with client.websocket_connect(f"/api/games/{data['id']}/ws?token={data['seats'][0]['token']}") as socket:
        assert socket.receive_json()["move"] == 0
        gate.set()
        pushed = socket.receive_json()
    assert pushed["move"] == 1
    reasons = [e for e in pushed["events"] if e["type"] == "reason"]
    assert reasons and reasons[0]["text"] == "Why (Allied, computer): it is the first thing on the list"


def test_the_terminal_hint_prints_the_top_three() -> None:
    # "hint 16": 16 simulations under each move weighed, listed by the estimate stated, each with its count
    result = CliRunner().invoke(
        app, ["play", "dragoon", "--seed", "3"], input="hint 16\nhint soon\nq\nn\n", env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    words = " ".join(result.output.split())  # the terminal wraps long lines
    assert "Hint (MCTS, 16 simulations a move), by Allied's expected result" in words
    assert "highest first:" in words
    shown = result.output[result.output.index("Hint (MCTS") : result.output.index("hint takes")].splitlines()
    assert [line.split(".")[0].strip() for line in shown if re.match(r"\s+\d\. ", line)] == ["1", "2", "3"]
    estimates = [line for line in shown if "95% interval" in line]
    assert len(estimates) == 3 and all("; 16 simulations)" in line for line in estimates)
    vp = [float(re.search(r"about ([0-9.]+) VP", line).group(1)) for line in estimates]  # type: ignore[union-attr]
    assert words.count("<- the computer's choice") == 1
    assert vp[:2] == sorted(vp[:2], reverse=True)  # highest first (the computer's own may close the list)
    assert "hint takes the simulations a move" in result.output


def test_a_hint_lists_its_moves_by_the_estimate_it_states_each_with_its_simulations() -> None:
    # the hint's order is its stated order; every move listed rests on the same count of simulations of its own
    match = warroom.new_game("dragoon", seed=7)
    found = hint(match, simulations=HINT_SIMULATIONS, seed=3, top=3)
    assert found.searched and len(found.top) == 3
    assert all(a.visits == HINT_SIMULATIONS for a in found.top)
    assert all(f"; {HINT_SIMULATIONS} simulations)" in a.text for a in found.top)
    listed = [a.value for a in found.top if not (a.chosen and a is found.top[-1])]
    assert listed == sorted(listed, reverse=True)  # type: ignore[type-var]
    assert sum(a.chosen for a in found.top) == 1 and found.action in {a.action for a in found.top}
    for a in found.top:
        assert a.value is not None and (a.low, a.high) == pytest.approx(_wilson_bounds(a.value, a.visits))


def test_the_same_seed_gives_the_same_hint_and_a_budget_of_simulations_not_time() -> None:
    # a count, not a clock: the same position and seed give the same numbers on any machine
    match = warroom.new_game("patton", seed=4)
    first = hint(match, simulations=12, seed=9)
    again = hint(match, simulations=12, seed=9)
    assert _numbers(first) == _numbers(again) and first.action == again.action
    assert all(a.visits == 12 for a in first.top)


def test_thousands_of_legal_moves_are_weighed_through_a_shortlist() -> None:
    # Tunisia's Movement Phase offers some 1,500 moves: the hint weighs its few best candidates (the game's own
    # move among them), each with its simulations, rather than spreading a handful over all of them
    match = warroom.new_game("tunisia", seed=3)
    heuristic = get_agent("heuristic", "tunisia")
    for _ in range(3):
        match.play(heuristic.choose(match)[0])
    assert len(match.legal_actions()) > 1000
    moves = hint_moves(match.ruleset, match.state)
    assert 1 < len(moves) <= HINT_CANDIDATES and set(moves) <= set(match.legal_actions())
    assert heuristic.choose(match)[0] in moves
    found = hint(match, simulations=2, seed=1)
    assert {a.action for a in found.top} <= set(moves) and all(a.visits == 2 for a in found.top)


def _wilson_bounds(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval written out again (z = 1.96), for the check."""
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def test_wilsons_interval_never_collapses_on_agreeing_samples() -> None:
    from warroom.ai.analysis import wilson

    low, high = wilson(0.0, 10)  # ten simulations that all agree still leave room
    assert low == 0.0 and high == pytest.approx(1.96**2 / (10 + 1.96**2))
    assert wilson(0.5, 64) == pytest.approx((0.3810, 0.6190), abs=1e-4)
