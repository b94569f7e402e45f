"""Patton's First Victory: Tunisia through the whole stack, as tests/test_contract_proof.py proves bluff: the game
joins the registry for these tests (`registered`, WARROOM_GAMES for a subprocess), then the Python API, its agents,
the conformance invariants, observations that hide stacks per 6.0E, the protocol (with odds), the terminal,
simulate, bench and the web API each play it."""

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
from warroom.games import get_ruleset, get_spec, registered

GAME = "tunisia"
SPEC_PATH = "warroom.games.tunisia.spec:SPEC"


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with registered(GAME, SPEC_PATH):
        yield


def _env() -> dict[str, str]:
    return {**os.environ, "WARROOM_GAMES": f"{GAME}={SPEC_PATH}", "COLUMNS": "120"}


def _random_match(seed: int, steps: int) -> warroom.Match:
    m = warroom.new_game(GAME, seed=seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if m.over:
            break
        m.play(chooser.choice(m.legal_actions()))
    return m


# -- the Python API, agents, conformance -----------------------------------------------------------
def test_python_api_plays_saves_and_replays(tmp_path: Path) -> None:
    m = _random_match(1, 10_000)
    assert m.over and m.result is not None and m.result.rule in ("4.0A", "4.0B")
    path = tmp_path / "tunisia.json"
    warroom.save(m, path)
    assert warroom.load(path).view() == m.view()
    replayed = replay_record(m.ruleset, m.record(), m.ruleset.initial_state(None, {}))
    assert replayed.view() == m.view()


def test_agents_from_the_spec_play_it() -> None:
    from warroom.ai import get_agent

    for name in ("heuristic", "mcts"):
        m = warroom.new_game(GAME, seed=4)
        agent = get_agent(name, GAME, budget_ms=30, seed=1)
        for _ in range(12 if name == "mcts" else 60):
            if m.over:
                break
            action, why = agent.choose(m)
            assert action in m.legal_actions() and why and "\n" not in why
            m.play(action)


def test_spec_invariants_hold_at_every_step_of_random_games() -> None:
    # Tunisia 6.0, 8.5-8.7, 7.8C, 7.7E through the spec (tests/test_conformance.py plays 60 such games)
    spec, ruleset = get_spec(GAME), get_ruleset(GAME)
    assert spec.invariants is not None
    for seed in range(4):
        m = warroom.new_game(GAME, seed=seed, keep_log=False)
        chooser, previous = random.Random(seed), None
        while not m.over:
            assert spec.invariants(ruleset, m.state, previous) == [], seed
            previous = ruleset.clone(m.state)
            m.play(chooser.choice(m.legal_actions()))
        assert m.result is not None and m.result.reason


def test_observations_hide_unexamined_stacks_and_determinize_reads_only_what_is_seen() -> None:
    # Tunisia 6.0E: the generic checks of tests/test_observations.py (no hidden path in a side's view, the
    # determinizations indistinguishable to that side and independent of what it cannot see, some resampled)
    import observation_checks

    observation_checks.check_game(GAME, 1)
    spec, ruleset = get_spec(GAME), get_ruleset(GAME)
    assert spec.determinize is not None
    hidden_seen = False
    for seed in range(6):
        m = _random_match(seed, 300)
        for side in ruleset.info.sides:
            view = ruleset.observation(m.state, side)
            assert "beneath" not in view
            full = ruleset.state_to_json(m.state)
            for hex_label, n in view["hidden"].items():
                hidden_seen = True
                under = full["beneath"][hex_label]
                assert len(under) == n and not set(under) & set(view["pieces"])  # 6.0E: only the top shows
    assert hidden_seen


# -- the protocol, terminal, simulate, bench -------------------------------------------------------
def test_protocol_plays_it_and_answers_odds() -> None:
    answers = protocol(
        _env(),
        {"cmd": "games"},
        {"cmd": "new", "game": GAME, "seed": 2},
        {"cmd": "play", "action": "move Broich 8306 8406"},
        {"cmd": "view", "side": "Allied"},
        {"cmd": "odds", "game": GAME, "cf": 5, "modifier": 1},
        {"cmd": "play", "action": "end"},
        {"cmd": "odds"},
    )
    assert all(a["ok"] for a in answers), answers
    assert GAME in json.dumps(answers[0])
    assert (
        answers[3]["view"]["state"]["pieces"]["Broich"]["at"] == "8406" and "beneath" not in answers[3]["view"]["state"]
    )
    assert answers[4]["success"] == pytest.approx(4 / 12)  # 1, 2, 3, 4: a final 5 or less at +1 (11.5)
    assert "attacks" in answers[6] and all(
        sum(a["outcome"].values()) == pytest.approx(1) for a in answers[6]["attacks"]
    )


def test_terminal_shows_the_text_map_and_plays() -> None:
    output = cli(["play", GAME, "--seed", "2", "--vs", "human", "--flat"], ["q"] * 3)
    assert "Tunisia · turn 1 of 8 · Axis Movement Phase" in output
    assert "8306" in output and "A Broi" in output and "Return to Base box" in output


def test_odds_on_the_command_line() -> None:
    out = cli(["odds", GAME, "--cf", "5", "--modifier", "-2"])
    assert "7/12" in out or "58" in out


def test_simulate_plays_it_with_its_heuristic() -> None:
    report = json.loads(cli(["simulate", GAME, "--games", "2", "--json"]))
    assert report["games"] == 2 and sum(report["outcomes"].values()) == 2


def test_bench_measures_it() -> None:
    report = json.loads(cli(["bench", GAME, "--seconds", "0.3", "--json"]))
    assert report["game"] == GAME and report["random_playouts"]["steps"] > 0


# -- the web API -----------------------------------------------------------------------------------
def test_web_api_serves_the_board_and_plays_a_move(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from warroom.web.packed import unpack_actions
    from warroom.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'warroom.db'}")
    try:
        with TestClient(app) as client:
            layout = client.get(f"/api/boards/{GAME}").json()
            assert layout["kind"] == "hexmap" and len(layout["map"]["hexes"]) == 18 * 25
            assert {side["kind"] for side in layout["map"]["hexsides"]} == {"river", "bridge", "border"}
            for url in (layout["module"], *layout["styles"]):
                assert client.get(url).status_code == 200, url
            created = client.post("/api/games", json={"game": GAME, "mode": "hotseat", "seed": 1})
            assert created.status_code == 201, created.text
            data = created.json()
            token = data["seats"][0]["token"]
            payload = client.get(f"/api/games/{data['id']}", params={"token": token}).json()
            actions = unpack_actions(payload["actions"], payload["view"]["legal"])
            move = next(d for d in actions if d["id"] == "move Broich 8306 8406")
            assert move == {**move, "kind": "move", "unit": "Broich", "from": "8306", "to": "8406"} and move["cost"] > 0
            played = client.post(
                f"/api/games/{data['id']}/actions",
                params={"token": token},
                json={"action": move["id"], "move": payload["move"]},
            )
            assert played.status_code == 200, played.text
            assert played.json()["view"]["state"]["pieces"]["Broich"]["at"] == "8406"
            refused = client.post(
                f"/api/games/{data['id']}/actions",
                params={"token": token},
                json={"action": "move Broich 8406 8306", "move": played.json()["move"]},
            )
            assert refused.status_code >= 400 and refused.json()["ok"] is False
    finally:
        app.state.store.close()


def test_the_terminal_says_what_a_pending_die_decides_with_the_battles_odds() -> None:
    # Tunisia 11.5, 12.2: before the attack's die, its meaning and the battle's exact outcome
    from types import SimpleNamespace

    from warroom.engine.chance import sample
    from warroom.engine.ruleset import CHANCE
    from warroom.games.tunisia.render import pending_roll
    from warroom.games.tunisia.state import Phase

    ruleset = get_ruleset(GAME)
    rng = random.Random(5)
    s = ruleset.initial_state()
    while s.phase != Phase.ATTACK_ROLL:
        if ruleset.to_act(s) == CHANCE:
            ruleset.apply_chance(s, sample(ruleset.chance_outcomes(s), rng.random()), False)
        else:
            legal = ruleset.legal_actions(s)
            attacks = [a for a in legal if a.startswith("attack")]
            ruleset.apply(s, attacks[0] if attacks else rng.choice(legal), False)
    shown = pending_roll(SimpleNamespace(state=s, ruleset=ruleset))
    assert shown is not None and "(11.5)" in str(shown) and "Battle:" in str(shown) and "%" in str(shown)
    assert pending_roll(SimpleNamespace(state=ruleset.initial_state(), ruleset=ruleset)) is None


def test_table_assistant_takes_a_typed_d12_for_an_attack(tmp_path: Path) -> None:
    # Tunisia 11.2, 11.5: the d12 typed in decides the attack; a 13 is no face of it
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'warroom.db'}")
    try:
        with TestClient(app) as client:
            data = client.post("/api/games", json={"game": GAME, "mode": "table", "seed": 1}).json()
            game_id, move = data["id"], 0
            tokens = {seat["side"]: seat["token"] for seat in data["seats"] if "token" in seat}
            token = tokens.get("Axis") or data["seats"][0]["token"]

            def act(action: str, side: str = "Axis") -> Any:
                nonlocal move
                answer = client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": tokens.get(side, token)},
                    json={"action": action, "move": move},
                )
                assert answer.status_code in (200, 400), answer.text
                if answer.status_code == 200:
                    move = answer.json()["move"]
                return answer

            act("end")
            view = act("attack 8213 8113").json()["view"]
            while view["to_act"] != "dice":  # the Allies may fly an air asset to the defence first (7.3C)
                view = act("no air", "Allied").json()["view"]
            assert view["legal"] == [f"roll {n}" for n in range(1, 13)]
            assert act("roll 13").status_code == 400
            rolled = act("roll 1").json()  # 11.5C: a natural 1 always succeeds
            assert rolled["view"]["to_act"] == "dice"  # then the defender's die (12.1)
            assert any("Attack: 1" in e["text"] and e.get("rule") == "11.5" for e in rolled["events"])
    finally:
        app.state.store.close()
