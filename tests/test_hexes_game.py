"""The test-only hex game (tests/games/hexes: two sides, two units each, a 7 x 6 map with a river, a bridge,
a road and a town) runs through the whole stack as bluff does (tests/test_contract_proof.py): the Python
API, its agents, the conformance checks, the protocol, the terminal, simulate and the web API, with its
board drawn by the shared hex map kit (warroom/web/hexmap.py, static/js/hexmap.js).

Its rules are cited as "Hexes N" (tests/games/hexes/rules.py); each rule has a test here.
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
from patience import SLOW_STATE_SECONDS

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.engine.match import replay_record
from warroom.games import get_ruleset, get_spec, registered

GAME = "hexskirmish"
SPEC_PATH = "games.hexes.spec:SPEC"
TESTS = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with registered(GAME, SPEC_PATH):
        yield


def _env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH", "")]))
    return {**os.environ, "WARROOM_GAMES": f"{GAME}={SPEC_PATH}", "PYTHONPATH": path, "COLUMNS": "120"}


def _position(units: dict[str, tuple[str | None, int]], side: str = "Red", turn: int = 1) -> Any:
    """A position with units where the test puts them: id -> (hex, steps); the others eliminated."""
    ruleset = get_ruleset(GAME)
    data = {
        "turn": turn,
        "side": side,
        "units": {uid: {"hex": None, "steps": 0, "done": False} for uid in ("R1", "R2", "B1", "B2")},
        "attack": None,
    }
    for uid, (where, steps) in units.items():
        data["units"][uid] = {"hex": where, "steps": steps, "done": False}
    return ruleset.state_from_json(data)


def _reach(units: dict[str, tuple[str | None, int]], unit: str) -> dict[str, float]:
    return get_ruleset(GAME).reach(_position(units), unit)


# -- the rules, each with its test ---------------------------------------------------------------
def test_terrain_road_and_bridge_costs() -> None:
    # Hexes 1: open 1 MP; along the road 1/2 MP a hex, the bridge too
    reach = _reach({"R1": ("0102", 2), "B1": ("0706", 2)}, "R1")
    assert reach["0103"] == 1 and reach["0403"] == 2.5 and reach["0503"] == 3
    # Hexes 1: forest costs 2 (0303 by road in 1.5, then the forest hex 0304)
    assert _reach({"R2": ("0303", 2), "B1": ("0706", 2)}, "R2")["0304"] == 2


def test_the_river_costs_two_more_except_at_the_bridge() -> None:
    # Hexes 1: 0405 -> 0505 crosses the river (1 + 2: cheaper than round by the bridge, 4.5); 0403 -> 0503 is
    # the bridge, on the road (1/2)
    assert _reach({"R2": ("0405", 2), "B1": ("0701", 2)}, "R2")["0505"] == 3
    assert _reach({"R2": ("0403", 2), "B1": ("0706", 2)}, "R2")["0503"] == 0.5
    # infantry (3 MP) in 0401 crosses to 0501 (3 MP) but no further east
    reach = _reach({"R1": ("0401", 2), "B1": ("0706", 2)}, "R1")
    assert reach["0501"] == 3 and "0601" not in reach


def test_enemy_units_block_and_their_zone_of_control_stops_a_move() -> None:
    # Hexes 3: never into an enemy hex; entering a hex next to an enemy ends the move
    reach = _reach({"R2": ("0203", 2), "B1": ("0403", 2)}, "R2")
    assert "0403" not in reach
    assert "0303" in reach and "0503" not in reach  # stopped on 0303 (next to 0403): the road beyond is cut
    assert "0402" in reach and "0502" not in reach  # 0402 touches 0403 too: the move ends there


def test_one_unit_a_hex() -> None:
    # Hexes 2: a move passes a friendly unit but may not end on it
    reach = _reach({"R1": ("0102", 2), "R2": ("0103", 2), "B1": ("0706", 2)}, "R1")
    assert "0103" not in reach and reach["0203"] == 1.5  # through 0103 onto the road


def test_attack_odds_and_results() -> None:
    ruleset = get_ruleset(GAME)
    odds = get_spec(GAME).odds
    assert odds is not None
    calc = odds()
    # Hexes 4: infantry (attack 2) needs a 4 on open ground; into the town a 5; armour (3) a 3
    s = _position({"R1": ("0302", 2), "R2": ("0304", 2), "B1": ("0303", 2), "B2": ("0706", 2)})
    assert calc.action_odds(ruleset, s, "attack R1 0302->0303") == {
        "p": 0.5,
        "fraction": "3/6",
        "text": "3/6 to hit (4+)",
    }
    assert calc.action_odds(ruleset, s, "attack R2 0304->0303")["p"] == pytest.approx(4 / 6)
    assert calc.calculate({"attack": 2, "cover": 1})["need"] == 5
    town = _position({"R1": ("0303", 2), "B1": ("0403", 2), "B2": ("0706", 2)})
    assert calc.action_odds(ruleset, town, "attack R1 0303->0403")["fraction"] == "2/6"
    river = _position({"R2": ("0402", 2), "B1": ("0502", 2), "B2": ("0706", 2)})
    assert calc.action_odds(ruleset, river, "attack R2 0402->0502")["fraction"] == "3/6"  # across the river: 4+
    # a hit costs the defender a step; a 1 costs the attacker one; a reduced unit attacks at one less
    for roll, r1_steps, b1_steps in ((4, 2, 1), (3, 2, 2), (1, 1, 2)):
        state = ruleset.clone(s)
        ruleset.apply(state, "attack R1 0302->0303")
        assert ruleset.to_act(state) == "chance" and ruleset.legal_actions(state) == []
        ruleset.apply_chance(state, roll)
        assert (state.units["R1"].steps, state.units["B1"].steps) == (r1_steps, b1_steps)
        assert state.units["R1"].done
    reduced = _position({"R1": ("0302", 1), "B1": ("0303", 2), "B2": ("0706", 2)})
    assert calc.action_odds(ruleset, reduced, "attack R1 0302->0303")["fraction"] == "2/6"


def test_a_unit_losing_its_last_step_is_eliminated_and_a_side_without_units_loses() -> None:
    ruleset = get_ruleset(GAME)
    s = _position({"R2": ("0302", 2), "B1": ("0303", 1)})
    ruleset.apply(s, "attack R2 0302->0303")
    events = ruleset.apply_chance(s, 6)
    assert s.units["B1"].hex is None and "eliminated" in events[0]["text"]
    result = ruleset.result(s)  # Hexes 6: Blue's units are all gone
    assert result is not None and result.winner == "Red" and result.rule == "Hexes 6"
    assert ruleset.to_act(s) is None and ruleset.legal_actions(s) == []


def test_each_unit_acts_once_a_turn_and_the_sides_alternate() -> None:
    ruleset = get_ruleset(GAME)
    s = ruleset.initial_state()
    ruleset.apply(s, "move R1 0102->0203")
    assert not any(a.startswith("move R1") for a in ruleset.legal_actions(s))  # Hexes 5: once a turn
    ruleset.apply(s, "end")
    assert ruleset.to_act(s) == "Blue" and not s.units["R1"].done
    ruleset.apply(s, "end")
    assert ruleset.to_act(s) == "Red" and s.turn == 2


def test_after_the_last_turn_the_town_decides() -> None:
    ruleset = get_ruleset(GAME)
    # Hexes 6: after turn 6, whoever holds the town; else more steps; else a draw
    held = _position({"R1": ("0103", 1), "B1": ("0403", 1), "B2": ("0706", 1)}, side="Blue", turn=6)
    ruleset.apply(held, "end")
    assert ruleset.result(held).winner == "Blue"
    more = _position({"R1": ("0103", 2), "B1": ("0706", 1)}, side="Blue", turn=6)
    ruleset.apply(more, "end")
    assert ruleset.result(more).winner == "Red"
    even = _position({"R1": ("0103", 2), "B1": ("0706", 2)}, side="Blue", turn=6)
    ruleset.apply(even, "end")
    assert ruleset.result(even).winner is None


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ("move B1 0703->0603", "Hexes 5"),
        ("move R1 0102->0706", "Hexes 3"),
        ("move R1 0303->0304", "is not in 0303"),
        ("attack R1 0102->0703", "Hexes 4"),
        ("fly R1", "actions are"),
    ],
)
def test_illegal_actions_are_refused_naming_the_rule_and_change_nothing(action: str, rule: str) -> None:
    ruleset = get_ruleset(GAME)
    s = ruleset.initial_state()
    before = ruleset.state_to_json(s)
    with pytest.raises(IllegalActionError, match=rule):
        ruleset.apply(s, action)
    assert ruleset.state_to_json(s) == before
    ruleset.apply(s, "move R1 0102->0203")
    with pytest.raises(IllegalActionError, match="acted this turn"):
        ruleset.apply(s, "move R1 0203->0303")


# -- the Python API, agents, conformance -------------------------------------------------------------
def test_python_api_plays_saves_and_replays(tmp_path: Path) -> None:
    for seed in range(10):
        m = warroom.new_game(GAME, seed=seed)
        chooser = random.Random(seed)
        while not m.over:
            m.play(chooser.choice(m.legal_actions()))
        assert m.result is not None and m.result.rule == "Hexes 6" and m.result.reason
        path = tmp_path / f"hexes-{seed}.json"
        warroom.save(m, path)
        assert warroom.load(path).view() == m.view()
        replayed = replay_record(m.ruleset, m.record(), m.ruleset.initial_state(None, {}))
        assert replayed.view() == m.view() and replayed.log == m.log


def test_agents_from_the_spec_play_it() -> None:
    from warroom.ai import get_agent

    for name in ("random", "heuristic", "mcts"):
        m = warroom.new_game(GAME, seed=3)
        agent = get_agent(name, GAME, budget_ms=5, seed=1)
        while not m.over:
            action, why = agent.choose(m)
            assert action in m.legal_actions() and why
            m.play(action)


def test_conformance_random_games_round_trips_and_perft() -> None:
    import conformance_checks

    conformance_checks.random_games_keep_every_invariant(GAME)
    ruleset = get_ruleset(GAME)
    start = ruleset.initial_state(None, {})
    # perft: Red's 14 + 26 moves and the end; then the other unit's moves and the end (378 after R1's, 402 after
    # R2's) or Blue's 41 (the mirror of Red's); R1-then-R2 and R2-then-R1 reach the same states
    assert conformance_checks.perft(ruleset, start, 2) == {"nodes": [41, 821], "distinct_states": [41, 471]}
    for seed in range(10):
        m = warroom.new_game(GAME, seed=seed)
        chooser = random.Random(seed)
        while not m.over:
            for side in ruleset.info.sides:  # nothing is hidden: every side sees the whole position
                view = json.loads(json.dumps(m.view(side)))
                assert view["state"]["units"] == ruleset.state_to_json(m.state)["units"]
            data = json.loads(json.dumps(ruleset.state_to_json(m.state)))
            assert ruleset.state_to_json(ruleset.state_from_json(data)) == data
            m.play(chooser.choice(m.legal_actions()))


def test_every_action_has_a_descriptor_with_its_unit_hexes_and_cost() -> None:
    spec = get_spec(GAME)
    assert spec.board is not None
    describe = spec.board().describe_actions  # the board's clicks are drawn from them
    assert describe is not None
    for seed in range(5):
        m = warroom.new_game(GAME, seed=seed)
        chooser = random.Random(seed)
        while not m.over:
            legal = m.legal_actions()
            found = describe(m.ruleset, m.state, legal)
            assert [d["id"] for d in found] == legal
            for d in found:
                if d["kind"] == "end":
                    continue
                assert d["id"] == f"{d['kind']} {d['unit']} {d['from']}->{d['to']}"
                if d["kind"] == "move":
                    assert d["cost"] == m.ruleset.reach(m.state, d["unit"])[d["to"]]
                else:
                    assert d["odds"] is True
            m.play(chooser.choice(legal))


def test_the_board_layout_is_the_shared_hex_map() -> None:
    spec = get_spec(GAME)
    assert spec.board is not None
    board = spec.board()
    hex_map = board.layout(None)["map"]
    assert len(hex_map["hexes"]) == 42 and hex_map["orientation"] == "flat"
    kinds = [side["kind"] for side in hex_map["hexsides"]]
    assert kinds.count("river") == 11 and kinds.count("bridge") == 1
    assert [p["kind"] for p in hex_map["paths"]] == ["road"] and hex_map["places"][0]["label"] == "0403"
    assert {"open", "forest", "town"} == set(hex_map["terrains"])
    for name in (board.module, *board.styles):
        assert (board.static / name).is_file()


# -- the protocol, terminal, simulate ---------------------------------------------------------------
def test_protocol_plays_it() -> None:
    answers = protocol(
        _env(),
        {"cmd": "new", "game": GAME, "seed": 2},
        {"cmd": "play", "action": "move R1 0102->0203"},
        {"cmd": "play", "action": "move R1 0203->0303"},
        {"cmd": "view", "side": "Blue"},
        {"cmd": "odds", "game": GAME, "attack": 3},
        timeout=SLOW_STATE_SECONDS,
    )
    assert answers[0]["ok"] and answers[1]["ok"]
    assert answers[2]["ok"] is False and "acted this turn" in answers[2]["error"]["message"]
    assert answers[3]["view"]["state"]["units"]["R1"]["hex"] == "0203"
    assert answers[4]["ok"] and answers[4]["need"] == 3


def test_terminal_shows_the_hex_map() -> None:
    output = cli(["play", GAME, "--seed", "2", "--vs", "human", "--flat"], ["q"] * 3)
    assert "Hex skirmish · turn 1 of 6 · Red turn" in output
    assert "/ 0102 \\" in output and "R R1" in output and "Hexsides:  ~ river  = bridge" in output


def test_simulate_plays_it_with_its_heuristic() -> None:
    report = json.loads(cli(["simulate", GAME, "--games", "10", "--json"]))
    assert report["games"] == 10 and sum(report["outcomes"].values()) == 10


# -- the web API ------------------------------------------------------------------------------------
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
            assert layout["kind"] == "hexmap" and len(layout["map"]["hexes"]) == 42
            for url in (layout["module"], *layout["styles"], "/static/js/hexmap.js", "/static/hexmap.css"):
                assert client.get(url).status_code == 200, url
            created = client.post("/api/games", json={"game": GAME, "mode": "hotseat", "seed": 1})
            assert created.status_code == 201, created.text
            data = created.json()
            token = data["seats"][0]["token"]
            payload = client.get(f"/api/games/{data['id']}", params={"token": token}).json()
            actions = unpack_actions(payload["actions"], payload["view"]["legal"])
            move = next(d for d in actions if d["id"] == "move R1 0102->0403")
            assert move == {**move, "unit": "R1", "from": "0102", "to": "0403", "cost": 2.5}
            played = client.post(
                f"/api/games/{data['id']}/actions",
                params={"token": token},
                json={"action": move["id"], "move": payload["move"]},
            )
            assert played.status_code == 200, played.text
            assert played.json()["view"]["state"]["units"]["R1"]["hex"] == "0403"
            refused = client.post(
                f"/api/games/{data['id']}/actions",
                params={"token": token},
                json={"action": "move R1 0403->0503", "move": played.json()["move"]},
            )
            assert refused.status_code >= 400 and refused.json()["ok"] is False
    finally:
        app.state.store.close()
