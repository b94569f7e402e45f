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
            assert client.get(f"/api/games/{game_id}/record", params={"token": token}).status_code == 409
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
