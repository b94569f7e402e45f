"""Hidden information: a seat only ever receives its own side's view and the events it may see.

Checked on a two-side test game with secret hands (web_secret_cards), over every route a seat can
read: the game view, action answers, the log, odds, WebSocket pushes, records and replays.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from web_pages import client_post, seat_tokens
from web_secret_cards import CARDS

from warroom.engine.match import Match


@pytest.fixture
def views_asked(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every side the server asks the engine for a view of; None would be the omniscient view."""
    asked: list[Any] = []
    original = Match.view

    def spy(self: Match, side: str | None = None) -> dict[str, Any]:
        asked.append(side)
        return original(self, side)

    monkeypatch.setattr(Match, "view", spy)
    return asked


def hidden_from(client: Any, game_id: str, side: str) -> set[str]:
    """The card names in the other side's hand right now (read from the server's own match)."""
    state = client.app.state.service.live[game_id].match.state
    other = "South" if side == "North" else "North"
    return {CARDS[c] for c in state["hands"][other]}


def assert_no_leak(client: Any, game_id: str, side: str, payload: Any) -> None:
    text = json.dumps(payload)
    leaked = [name for name in hidden_from(client, game_id, side) if name in text]
    assert not leaked, f"{side} was sent the other side's hidden cards {leaked}"


def test_each_seat_sees_only_its_own_hand_everywhere(client: Any, secret_cards: str, views_asked: list[Any]) -> None:
    created = client.post("/api/games", json={"game": secret_cards, "mode": "online"}).json()
    game_id = created["id"]
    tokens = seat_tokens(client_post(client), created)
    assert set(tokens) == {"North", "South"}
    assert_no_leak(client, game_id, "North", created)  # the creator's answer shows the first seat's view only
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['North']}") as north_ws,
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['South']}") as south_ws,
    ):
        sockets = {"North": north_ws, "South": south_ws}
        for side, ws in sockets.items():
            assert_no_leak(client, game_id, side, ws.receive_json())
        own = {
            side: set(client.get(f"/api/games/{game_id}", params={"token": t}).json()["view"]["state"]["hand"])
            for side, t in tokens.items()
        }
        assert len(own["North"]) == 2 and len(own["South"]) == 2 and not own["North"] & own["South"]
        for side, token in tokens.items():
            for route in ("", "/log", "/odds"):
                answer = client.get(f"/api/games/{game_id}{route}", params={"token": token})
                assert answer.status_code == 200
                assert_no_leak(client, game_id, side, answer.json())
            log = client.get(f"/api/games/{game_id}/log", params={"token": token}).json()["events"]
            assert sum(1 for e in log if e["type"] == "deal") == 4  # own draws by name, the other's as "draws a card"
            mid = client.get(f"/api/games/{game_id}/record", params={"token": token})
            assert mid.status_code == 200 and mid.json()["format"] == "warroom-seat-record"  # its own view only
            assert_no_leak(client, game_id, side, mid.json())
            assert client.get(f"/api/games/{game_id}/replay", params={"token": token}).status_code == 409
        payload = client.get(f"/api/games/{game_id}", params={"token": tokens["North"]}).json()
        while not payload["view"]["over"]:
            side = payload["view"]["to_act"]
            other = "South" if side == "North" else "North"
            mine = client.get(f"/api/games/{game_id}", params={"token": tokens[side]}).json()
            not_mine = client.get(f"/api/games/{game_id}", params={"token": tokens[other]}).json()
            assert not_mine["view"]["legal"] == [] and mine["view"]["legal"]
            refused = client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[other]},
                json={"action": mine["view"]["legal"][0], "move": mine["move"]},
            )
            assert refused.status_code == 403 and refused.json()["error"]["code"] == "wrong_side"
            answer = client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[side]},
                json={"action": mine["view"]["legal"][0], "move": mine["move"]},
            )
            assert answer.status_code == 200
            assert_no_leak(client, game_id, side, answer.json())
            for seat, ws in sockets.items():
                pushed = ws.receive_json()
                assert pushed["side"] == seat and pushed["move"] == answer.json()["move"]
                assert_no_leak(client, game_id, seat, pushed)
            payload = answer.json()
    assert None not in views_asked and {"North", "South"} <= set(views_asked)
    record = client.get(f"/api/games/{game_id}/record", params={"token": tokens["South"]})
    assert record.status_code == 200 and len(record.json()["actions"]) == 4  # over: nothing left to hide
    frames = client.get(f"/api/games/{game_id}/replay", params={"token": tokens["South"]}).json()["frames"]
    assert all("hand" in f["view"]["state"] and "hands" not in f["view"]["state"] for f in frames)
    first_hand = set(frames[0]["view"]["state"]["hand"])
    assert first_hand == own["South"]  # the replay shows South's game through South's eyes


def test_hot_seat_keeps_each_sides_view_apart(client: Any, secret_cards: str) -> None:
    created = client.post("/api/games", json={"game": secret_cards, "seed": 4, "mode": "hotseat"}).json()
    tokens = {seat["side"]: seat["token"] for seat in created["seats"]}
    north = client.get(f"/api/games/{created['id']}", params={"token": tokens["North"]}).json()
    south = client.get(f"/api/games/{created['id']}", params={"token": tokens["South"]}).json()
    assert not set(north["view"]["state"]["hand"]) & set(south["view"]["state"]["hand"])
    assert_no_leak(client, created["id"], "North", north)
    assert_no_leak(client, created["id"], "South", south)


def play_first(client: Any, game_id: str, token: str) -> dict[str, Any]:
    """The seat's first legal action, played; the answer."""
    payload = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    answer = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"action": payload["view"]["legal"][0], "move": payload["move"]},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_mid_game_each_seat_downloads_its_own_record(client: Any, secret_cards: str) -> None:
    created = client.post("/api/games", json={"game": secret_cards, "mode": "online"}).json()
    game_id = created["id"]
    tokens = seat_tokens(client_post(client), created)
    play_first(client, game_id, tokens["North"])  # North has played a card; South has not yet
    key = client.app.state.store.load(game_id).header["seed"]
    for side, token in tokens.items():
        download = client.get(f"/api/games/{game_id}/record", params={"token": token})
        assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
        assert f"-{side}-view.json" in download.headers["content-disposition"]
        record = download.json()
        assert record["format"] == "warroom-seat-record" and record["view_of"] == side
        assert record["replayable"] is False and "once the game is over" in record["note"]
        assert record["whole_record"].startswith(f"/api/games/{game_id}/record")
        assert "seed" not in record["header"] and "dice" not in record and "actions" not in record
        assert key not in download.text  # the dice to come stay secret
        assert_no_leak(client, game_id, side, record)  # nothing of the other side's hand (the deal events' names)
        assert (
            record["view"]["state"]["hand"]
            == client.get(f"/api/games/{game_id}", params={"token": token}).json()["view"]["state"]["hand"]
        )
        mine = [d["action"] for d in record["decisions"]]
        assert mine == (
            ["play " + str(client.app.state.service.live[game_id].match.state["table"]["North"])]
            if side == "North"
            else []
        )
        assert any(e["type"] == "deal" for e in record["log"])  # what the seat was shown, its own draws by name
        refused = client.post("/api/games/upload", json={"record": record, "mode": "hotseat"})
        assert refused.status_code == 400 and "one seat's record" in refused.json()["error"]["message"]


def test_mid_game_against_the_computer_the_seat_gets_its_view(
    client: Any, secret_cards: str, first_card_agent: None
) -> None:
    created = client.post("/api/games", json={"game": secret_cards, "mode": "computer", "human": ["North"]}).json()
    token = created["seats"][0]["token"]
    record = client.get(f"/api/games/{created['id']}/record", params={"token": token}).json()
    assert record["format"] == "warroom-seat-record" and record["view_of"] == "North"
    assert_no_leak(client, created["id"], "North", record)  # the computer's hand stays hidden


def test_mid_game_one_person_holding_every_side_gets_the_whole_record(client: Any, secret_cards: str) -> None:
    for mode in ("hotseat", "table"):
        created = client.post("/api/games", json={"game": secret_cards, "mode": mode, "seed": 4}).json()
        tokens = {seat["side"]: seat["token"] for seat in created["seats"]}
        if mode == "hotseat":
            play_first(client, created["id"], tokens["North"])
        record = client.get(f"/api/games/{created['id']}/record", params={"token": tokens["South"]}).json()
        assert record["format"] == "warroom-record", mode  # the one at the screen sees both hands anyway
        assert record["header"]["seed"] is None  # the dice to come are still nobody's to know
        uploaded = client.post("/api/games/upload", json={"record": record, "mode": "hotseat"})
        assert uploaded.status_code == 201, uploaded.text


def test_mid_game_a_game_that_hides_nothing_gives_the_whole_record(client: Any) -> None:
    # Patton hides nothing (its spec declares no hidden field; its events go to both sides whole)
    created = client.post("/api/games", json={"game": "patton", "mode": "online"}).json()
    game_id = created["id"]
    tokens = seat_tokens(client_post(client), created)
    key = client.app.state.store.load(game_id).header["seed"]
    side = client.get(f"/api/games/{game_id}", params={"token": next(iter(tokens.values()))}).json()["view"]["to_act"]
    play_first(client, game_id, tokens[side])
    for token in tokens.values():
        download = client.get(f"/api/games/{game_id}/record", params={"token": token})
        record = download.json()
        assert record["format"] == "warroom-record" and len(record["actions"]) == 1
        assert record["header"]["seed"] is None and key not in download.text
