"""The HTTP API: seats and tokens, stale and illegal moves, undo, odds, records, modes, OpenAPI."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Any

import pytest
from patience import SLOW_STATE_SECONDS

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.web.packed import unpack_actions

pytestmark = pytest.mark.both_databases  # every test on a client runs on SQLite and on PostgreSQL (conftest)


def new_game(client: Any, **body: Any) -> tuple[str, dict[str, str], dict[str, Any]]:
    seed = {} if body.get("mode") == "online" else {"seed": 7}  # an online game's seed is the server's secret
    response = client.post("/api/games", json={"game": "dragoon", **seed, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], {seat["side"]: seat["token"] for seat in data["seats"]}, data.get("game")


def act(client: Any, game_id: str, token: str, action: str, move: int) -> Any:
    return client.post(f"/api/games/{game_id}/actions", params={"token": token}, json={"action": action, "move": move})


def view(client: Any, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"token": token})
    assert response.status_code == 200, response.text
    return response.json()


def test_catalog_board_and_openapi(client: Any) -> None:
    games = {g["id"]: g for g in client.get("/api/catalog").json()["games"]}
    assert games["dragoon"]["sides"] == ["Allied"] and games["dragoon"]["board"] == "routes"
    board = client.get("/api/boards/dragoon").json()
    assert {loc["id"] for loc in board["locations"]} >= {"Toulon", "Marseilles", "Alpha-Beach", "Montelimar"}
    assert all(isinstance(loc["x"], float) and isinstance(loc["y"], float) for loc in board["locations"])
    # Dragoon: German Movement: the withdrawal route runs Arles (5) to Montelimar (1)
    assert board["escape_track"] == ["Arles", "Avignon", "Orange", "Bollene", "Montelimar"]
    assert {r["unit"]: r["color"] for r in board["routes"]}["II-Corps"] == "blue"
    assert client.get("/api/boards/nosuchgame").status_code == 400
    spec = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/actions" in spec["paths"] and "/api/games" in spec["paths"]
    assert client.get("/docs").status_code == 200
    assert client.get("/").status_code == 200 and "main.js" in client.get("/play/abc").text


def test_new_game_view_matches_the_engine(client: Any) -> None:
    game_id, tokens, payload = new_game(client)
    reference = warroom.new_game("dragoon", seed=7)
    assert payload["move"] == 0 and payload["side"] == "Allied" and payload["mode"] == "computer"
    assert payload["view"]["legal"] == reference.legal_actions()
    assert payload["view"]["state"] == reference.view("Allied")["state"]
    labels = {d["id"]: d["label"] for d in unpack_actions(payload["actions"], payload["view"]["legal"])}
    assert labels["invade 3rd-ID Alpha-Beach"] == reference.ruleset.describe_action(
        reference.state, "invade 3rd-ID Alpha-Beach"
    )
    assert payload["fairness"] == {
        "scheme": "mt19937",
        "commitment": None,
        "seed": None,
    }  # a chosen seed: nothing committed
    assert "seed" not in json.dumps(
        {**payload, "fairness": None}
    )  # the seed tells the dice to come: it never leaves the server mid-game


def test_action_is_checked_rolled_and_acknowledged(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    token = tokens["Allied"]
    answer = act(client, game_id, token, "invade 3rd-ID Alpha-Beach", 0)
    assert answer.status_code == 200, answer.text
    reference = warroom.new_game("dragoon", seed=7)
    events = reference.play("invade 3rd-ID Alpha-Beach")
    body = answer.json()
    assert body["move"] == 1 and body["events"] == events  # the server rolled the same seeded die
    assert body["view"]["state"] == reference.view("Allied")["state"]


def test_stale_move_is_refused_and_nothing_changes(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    token = tokens["Allied"]
    assert act(client, game_id, token, "invade 3rd-ID Alpha-Beach", 0).status_code == 200
    before = view(client, game_id, token)
    stale = act(client, game_id, token, "invade VI-Corps Delta-Beach", 0)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_move"
    assert view(client, game_id, token) == before


def test_illegal_action_answers_the_engines_message(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    reference = warroom.new_game("dragoon", seed=7)
    with pytest.raises(IllegalActionError) as expected:
        reference.play("attack II-Corps Hyeres->Toulon")
    answer = act(client, game_id, tokens["Allied"], "attack II-Corps Hyeres->Toulon", 0)
    assert answer.status_code == 400
    assert answer.json()["error"] == {"code": "illegal_action", "message": str(expected.value)}
    assert view(client, game_id, tokens["Allied"])["move"] == 0


def test_tokens_no_token_wrong_token_other_games_token(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    other_id, other_tokens, _ = new_game(client)
    assert client.get(f"/api/games/{game_id}").status_code == 401
    assert act(client, game_id, "", "invade 3rd-ID Alpha-Beach", 0).status_code == 401
    wrong = act(client, game_id, "not-a-token", "invade 3rd-ID Alpha-Beach", 0)
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_token"
    assert act(client, game_id, other_tokens["Allied"], "invade 3rd-ID Alpha-Beach", 0).status_code == 403
    assert client.get(f"/api/games/{game_id}/log", params={"token": other_tokens["Allied"]}).status_code == 403
    assert client.get("/api/games/nosuchgame", params={"token": tokens["Allied"]}).status_code == 404
    assert view(client, game_id, tokens["Allied"])["move"] == 0
    # the header works as well as the query string
    assert client.get(f"/api/games/{game_id}", headers={"X-Warroom-Token": tokens["Allied"]}).status_code == 200


def test_undo_takes_back_a_decision_but_never_a_roll(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    token = tokens["Allied"]
    assert act(client, game_id, token, "invade VI-Corps Delta-Beach", 0).status_code == 200
    locked = client.post(f"/api/games/{game_id}/undo", params={"token": token}, json={"move": 1})
    assert locked.status_code == 409 and locked.json()["error"]["code"] == "undo_locked"
    assert "roll" in locked.json()["error"]["message"]
    after_ffi = act(client, game_id, token, "ffi VI-Corps", 1).json()  # Dragoon: FFI (1 RP, no die)
    assert after_ffi["view"]["can_undo"] is True and after_ffi["view"]["state"]["rp"] == 1
    undone = client.post(f"/api/games/{game_id}/undo", params={"token": token}, json={"move": 2})
    assert undone.status_code == 200
    body = undone.json()
    assert body["move"] == 3 and body["view"]["state"]["rp"] == 2 and "ffi VI-Corps" in body["view"]["legal"]
    log = client.get(f"/api/games/{game_id}/log", params={"token": token}).json()["events"]
    assert not any(e["type"] == "ffi" for e in log)
    record = client.get(f"/api/games/{game_id}/record", params={"token": token}).json()
    assert record["actions"] == ["invade VI-Corps Delta-Beach"]


def test_odds_are_exact_for_every_die_action(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    odds = client.get(f"/api/games/{game_id}/odds", params={"token": tokens["Allied"]}).json()["odds"]
    # Dragoon: Resolving Unit Attacks: an invasion only stalls on a 1
    assert odds["invade 3rd-ID Alpha-Beach"]["fraction"] == "5/6"
    assert "end" not in odds


def test_odds_of_a_fortress_attack_on_a_desperate_defender() -> None:
    # Dragoon: Resolving Unit Attacks (fortress -1), German Desperate Defense (-1), Air Support (+1)
    from warroom.web.odds import legal_odds

    start = warroom.new_game("dragoon", seed=1)
    state = start.view()["state"]
    state["allied"]["II-Corps"]["location"] = "Hyeres"
    state["german"]["242-ID"] = {"location": "Toulon", "desperate": True}
    state["turn"], state["rp"] = 17, 3
    m = warroom.new_game("dragoon", seed=1, position=state)
    odds = legal_odds(m, m.legal_actions())
    assert Fraction(odds["attack II-Corps Hyeres->Toulon"]["fraction"]) == Fraction(1, 3)  # needs 5+
    assert Fraction(odds["attack II-Corps Hyeres->Toulon +air"]["fraction"]) == Fraction(1, 2)  # needs 4+


def test_record_download_strips_the_seed_and_upload_continues(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    token = tokens["Allied"]
    act(client, game_id, token, "invade 3rd-ID Alpha-Beach", 0)
    act(client, game_id, token, "invade VI-Corps Delta-Beach", 1)
    download = client.get(f"/api/games/{game_id}/record", params={"token": token})
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    record = download.json()
    assert record["header"]["seed"] is None
    assert record["actions"] == ["invade 3rd-ID Alpha-Beach", "invade VI-Corps Delta-Beach"]
    uploaded = client.post("/api/games/upload", json={"record": record, "mode": "hotseat"})
    assert uploaded.status_code == 201, uploaded.text
    new = uploaded.json()
    assert new["id"] != game_id and new["seats"][0]["token"] != token
    assert new["game"]["view"]["state"] == view(client, game_id, token)["view"]["state"]
    assert new["game"]["move"] == 2
    broken = client.post(
        "/api/games/upload", json={"record": {**record, "actions": ["attack II-Corps Hyeres->Toulon"]}}
    )
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "bad_record"


def test_table_assistant_takes_typed_dice(client: Any) -> None:
    game_id, tokens, payload = new_game(client, mode="table")
    token = tokens["Allied"]
    assert payload["dice"] == "manual"
    after = act(client, game_id, token, "invade 3rd-ID Alpha-Beach", 0).json()
    assert after["view"]["to_act"] == "dice" and after["view"]["legal"] == [f"roll {n}" for n in range(1, 7)]
    out_of_range = act(client, game_id, token, "roll 7", 1)
    assert out_of_range.status_code == 400 and "out of range" in out_of_range.json()["error"]["message"]
    rolled = act(client, game_id, token, "roll 1", 1).json()
    # Dragoon: Resolving Unit Attacks: an invasion roll of 1 stalls the unit
    assert rolled["view"]["state"]["allied"]["3rd-ID"]["stalled"] is True
    record = client.get(f"/api/games/{game_id}/record", params={"token": token}).json()
    assert record["header"]["dice"] == "manual" and record["dice"] == [1]
    again = client.post("/api/games/upload", json={"record": record, "mode": "table"}).json()
    assert again["game"]["view"]["state"] == rolled["view"]["state"] and again["game"]["dice"] == "manual"


def test_lobby_lists_the_games_of_the_tokens_given(client: Any) -> None:
    first, first_tokens, _ = new_game(client)
    second, second_tokens, _ = new_game(client, mode="online")
    rows = client.post(
        "/api/lobby", json={"tokens": [first_tokens["Allied"], second_tokens["Allied"], "unknown"]}
    ).json()["games"]
    assert {row["id"] for row in rows} == {first, second}
    assert {row["mode"] for row in rows} == {"computer", "online"}
    assert client.post("/api/lobby", json={"tokens": ["unknown"]}).json()["games"] == []


def test_hint_asks_the_agent_on_a_copy(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.web import agents

    seen = []

    class Cautious:
        def choose(self, match: Any) -> tuple[str, str]:
            seen.append(match)
            return "invade 1st-ABTF Le-Muy-DZ", "the drop zone is empty"

    monkeypatch.setattr(agents, "make_agent", lambda name, game, budget_ms, seed: Cautious())
    game_id, tokens, _ = new_game(client)
    hint = client.get(f"/api/games/{game_id}/hint", params={"token": tokens["Allied"]}).json()
    assert hint["action"] == "invade 1st-ABTF Le-Muy-DZ" and hint["why"] == "the drop zone is empty"
    assert hint["label"].startswith("1st Airborne Task Force")
    assert view(client, game_id, tokens["Allied"])["move"] == 0  # a hint changes nothing
    service = client.app.state.service
    assert seen[0] is not service.live[game_id].match


def test_websocket_pushes_each_change(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    token = tokens["Allied"]
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        first = socket.receive_json()
        assert first["type"] == "update" and first["move"] == 0
        act(client, game_id, token, "invade 3rd-ID Alpha-Beach", 0)
        pushed = socket.receive_json()
        assert pushed["move"] == 1 and pushed["events"][0]["type"] == "invade"
    with client.websocket_connect(f"/api/games/{game_id}/ws?token=wrong") as socket:
        refused = socket.receive_json()
        assert refused["type"] == "error" and refused["error"]["code"] == "bad_token"


def test_a_finished_game_replays_step_by_step(client: Any) -> None:
    game_id, tokens, _ = new_game(client)
    token = tokens["Allied"]
    assert client.get(f"/api/games/{game_id}/replay", params={"token": token}).status_code == 409
    payload = view(client, game_id, token)
    while not payload["view"]["over"]:
        payload = act(client, game_id, token, "end", payload["move"]).json()
    assert payload["view"]["result"]["winner"] == "German"  # Dragoon: How to Win: no port held
    frames = client.get(f"/api/games/{game_id}/replay", params={"token": token}).json()["frames"]
    assert len(frames) == payload["move"] + 1
    assert frames[-1]["view"]["state"] == payload["view"]["state"] and frames[1]["label"].startswith(
        "End Allied actions"
    )
    full = client.get(f"/api/games/{game_id}/record", params={"token": token}).json()
    assert full["header"]["seed"] == 7  # over: the whole record
    assert act(client, game_id, token, "end", payload["move"]).status_code == 409


def test_vs_computer_the_computer_plays_its_side(client: Any, secret_cards: str, first_card_agent: None) -> None:
    created = client.post(
        "/api/games",
        json={"game": secret_cards, "seed": 3, "mode": "computer", "human": ["South"], "agent": "first-card"},
    )
    assert created.status_code == 201, created.text
    data = created.json()
    assert [seat["side"] for seat in data["seats"]] == ["South"]
    game_id, token = data["id"], data["seats"][0]["token"]
    payload = _wait(client, game_id, token, lambda p: p["view"]["to_act"] == "South")
    assert payload["move"] == 1 and payload["view"]["state"]["table"].get("North")
    card = payload["view"]["legal"][0]
    answer = act(client, game_id, token, card, payload["move"])
    assert answer.status_code == 200
    final = _wait(client, game_id, token, lambda p: p["view"]["to_act"] == "South" or p["view"]["over"])
    assert final["move"] == 3  # the computer answered at once
    wrong = act(client, game_id, token, final["view"]["legal"][0], 0)
    assert wrong.status_code == 409


def _wait(client: Any, game_id: str, token: str, done: Any, seconds: float = SLOW_STATE_SECONDS) -> dict[str, Any]:
    """The game's view once `done(view)`, polled for; after `seconds` (only a hung test waits that long), as it is."""
    deadline = time.monotonic() + seconds
    while True:
        payload = view(client, game_id, token)
        if done(payload) or time.monotonic() > deadline:
            return payload
        time.sleep(0.02)


def test_hint_from_the_installed_computer_player(client: Any) -> None:
    from warroom.web import agents

    if "heuristic" not in agents.agent_names("dragoon"):
        pytest.skip("warroom.ai has no Dragoon heuristic in this tree")
    game_id, tokens, payload = new_game(client)
    hint = client.get(
        f"/api/games/{game_id}/hint", params={"token": tokens["Allied"], "agent": "heuristic", "budget_ms": 200}
    )
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] in payload["view"]["legal"] and hint.json()["agent"] == "heuristic"
    assert (
        client.get(
            f"/api/games/{game_id}/hint", params={"token": tokens["Allied"], "agent": "no-such-agent"}
        ).status_code
        == 400
    )
