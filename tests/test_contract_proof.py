"""The proof of the game contract (issue 13): a game that is one folder runs through the whole stack.

The test game bluff (tests/games/bluff: Kuhn poker, hidden cards, a chance node, two sides) lives
outside the package and touches no file outside its folder. It joins through the registry only:
`register_game` in this process, WARROOM_GAMES (with tests/ on PYTHONPATH) for a subprocess. Then
the Python API, the JSON-lines protocol, the terminal, simulate, bench, the conformance checks and
the web API each play it, and no side is ever shown the other's card before the showdown.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from front_ends import cli, protocol

import warroom
from warroom.engine.match import replay_record
from warroom.games import REGISTRY, get_ruleset, get_spec, register_game

GAME = "bluff"
SPEC_PATH = "games.bluff.spec:SPEC"
TESTS = Path(__file__).resolve().parent
CARDS = ("Jack", "Queen", "King")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    before = dict(REGISTRY)
    register_game(GAME, SPEC_PATH)
    yield
    REGISTRY.clear()
    REGISTRY.update(before)
    get_spec.cache_clear()
    get_ruleset.cache_clear()


def _env() -> dict[str, str]:
    """A subprocess's environment: the test game registered, tests/ importable."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH", "")]))
    return {**os.environ, "WARROOM_GAMES": f"{GAME}={SPEC_PATH}", "PYTHONPATH": path, "COLUMNS": "120"}


def _other_card_hidden(observation: dict[str, Any], side: str, over: bool) -> None:
    """Before a showdown a side's observation names its own card only, and never the deck."""
    assert "deck" not in observation
    if not over:
        assert set(observation["cards"]) <= {side}


# -- the Python API ---------------------------------------------------------------------------------
def test_python_api_plays_saves_and_replays(tmp_path: Path) -> None:
    for seed in range(12):
        m = warroom.new_game(GAME, seed=seed)
        chooser = random.Random(seed)
        while not m.over:
            for side in m.ruleset.info.sides:
                _other_card_hidden(m.view(side)["state"], side, m.over)
            m.play(chooser.choice(m.legal_actions()))
        result = m.result
        assert result is not None and result.winner in ("North", "South") and result.rule == "Bluff: End"
        assert sorted(result.returns.values()) in ([-0.5, 0.5], [-1.0, 1.0])
        path = tmp_path / f"bluff-{seed}.json"
        warroom.save(m, path)
        assert warroom.load(path).view() == m.view()
        replayed = replay_record(m.ruleset, m.record(), m.ruleset.initial_state(None, {}))
        assert replayed.view() == m.view() and replayed.log == m.log


def test_agents_from_the_spec_play_it() -> None:
    from warroom.ai import get_agent

    for name in ("random", "heuristic", "mcts"):
        m = warroom.new_game(GAME, seed=4)
        agent = get_agent(name, GAME, budget_ms=20, seed=1)
        while not m.over:
            action, why = agent.choose(m)
            assert action in m.legal_actions() and why
            m.play(action)


# -- the conformance checks -------------------------------------------------------------------------
def test_conformance_random_games_round_trips_and_replay_determinism() -> None:
    import conformance_checks

    conformance_checks.random_games_keep_every_invariant(GAME)  # the suite every registered game runs
    ruleset = get_ruleset(GAME)
    start = ruleset.initial_state(None, {})
    # perft: 6 deals; 2 openings each; 2 replies to each; after check-bet, call or fold
    assert conformance_checks.perft(ruleset, start, 4) == {"nodes": [6, 12, 24, 12], "distinct_states": [6, 12, 24, 12]}
    spec = get_spec(GAME)
    assert spec.invariants is not None
    for seed in range(20):
        first, second = warroom.new_game(GAME, seed=seed), warroom.new_game(GAME, seed=seed)
        chooser = random.Random(seed)
        previous = None
        while not first.over:
            assert spec.invariants(ruleset, first.state, previous) == []
            twin = ruleset.clone(first.state)
            action = chooser.choice(first.legal_actions())
            first.play(action)
            second.play(action)
            assert ruleset.state_to_json(twin) != ruleset.state_to_json(first.state)  # a clone shares nothing
            data = json.loads(json.dumps(ruleset.state_to_json(first.state)))
            assert ruleset.state_to_json(ruleset.state_from_json(data)) == data
            previous = twin
        assert first.record().to_json() == second.record().to_json() and first.log == second.log


# -- the JSON-lines protocol, in a subprocess that knows the game from the environment only --------
def test_protocol_plays_it_and_each_side_sees_its_own_card() -> None:
    answers = protocol(
        _env(),
        {"cmd": "games"},
        {"cmd": "new", "game": GAME, "seed": 2},
        {"cmd": "view", "side": "North"},
        {"cmd": "view", "side": "South"},
        {"cmd": "play", "action": "bet", "side": "North"},
        {"cmd": "play", "action": "call", "side": "South"},
    )
    assert all(a["ok"] for a in answers), answers
    assert GAME in json.dumps(answers[0])
    north, south = answers[2]["view"]["state"], answers[3]["view"]["state"]
    assert set(north["cards"]) == {"North"} and set(south["cards"]) == {"South"}
    assert north["cards"]["North"] != south["cards"]["South"]
    assert "deck" not in json.dumps(answers[4]) and south["cards"]["South"] not in json.dumps(answers[4])
    shown = answers[5]["view"]["state"]["cards"]
    assert answers[5]["view"]["over"] and shown == {**north["cards"], **south["cards"]}


def test_protocol_odds_come_from_the_spec() -> None:
    answers = protocol(_env(), {"cmd": "odds", "game": GAME, "card": "King"})
    assert answers[0]["ok"] and '"p": 1.0' in json.dumps(answers[0])  # the King always holds the higher card


# -- the terminal, simulate and bench ---------------------------------------------------------------
def test_terminal_plays_it_by_typed_numbers() -> None:
    output = cli(
        ["play", GAME, "--seed", "2", "--vs", "human", "--flat"], ["1", "", "1", "", "", ""]
    )  # check, the device passed to South (a card is hidden from North), check: showdown
    assert "Bluff · pot 2" in output and "victory" in output.lower()  # the spec's board, then the result


def test_simulate_plays_it_with_its_heuristic() -> None:
    report = json.loads(cli(["simulate", GAME, "--games", "20", "--json"]))
    assert report["games"] == 20 and sum(report["outcomes"].values()) == 20


def test_bench_measures_it() -> None:
    report = json.loads(cli(["bench", GAME, "--seconds", "0.3", "--json"]))
    assert report["game"] == GAME and report["random_playouts"]["steps"] > 0


# -- the web API ------------------------------------------------------------------------------------
def test_web_api_plays_it_and_no_seat_sees_the_other_card(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'warroom.db'}")
    try:
        with TestClient(app) as client:
            assert GAME in json.dumps(client.get("/api/catalog").json())
            created = client.post("/api/games", json={"game": GAME, "mode": "online"})
            assert created.status_code == 201, created.text
            data = created.json()
            game_id = data["id"]
            tokens = {seat["side"]: seat["token"] for seat in data["seats"] if "token" in seat}
            for seat in data["seats"]:
                if "invite" in seat:
                    claimed = client.post(f"/api/games/{game_id}/claim", json={"invite": seat["invite"]})
                    tokens[seat["side"]] = claimed.json()["token"]
            assert set(tokens) == {"North", "South"}
            for action in ("check", "bet", "call"):
                views = {
                    side: client.get(f"/api/games/{game_id}", params={"token": t}).json() for side, t in tokens.items()
                }
                for side, answer in views.items():
                    _other_card_hidden(answer["view"]["state"], side, answer["view"]["over"])
                side = next(s for s, answer in views.items() if answer["view"]["legal"])
                played = client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": tokens[side]},
                    json={"action": action, "move": views[side]["move"]},
                )
                assert played.status_code == 200, played.text
            final = client.get(f"/api/games/{game_id}", params={"token": tokens["North"]}).json()["view"]
            assert final["over"] and set(final["state"]["cards"]) == {"North", "South"}
    finally:
        app.state.store.close()
