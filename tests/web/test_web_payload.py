"""A seat's view as the server sends it: the legal actions once (ids in `view.legal`, descriptors packed beside
them: warroom/web/packed.py), compressed on the wire (gzip over HTTP, per-message deflate on the push channel).

Measured on Tunisia's Movement Phase, the largest views of the registered games (about 1,900-2,100 legal moves:
8.0, every unit to every hex it reaches): under 150 KB as JSON and under 40 KB as served.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from web_pages import api

from warroom.games import registered
from warroom.web.layouts import describe_actions
from warroom.web.packed import pack_actions, unpack_actions

GAME = "tunisia"
MAX_JSON = 150_000
MAX_WIRE = 40_000


@pytest.fixture(scope="module", autouse=True)
def _tunisia() -> Iterator[None]:
    with registered(GAME, "warroom.games.tunisia.spec:SPEC"):
        yield


def served(client: Any, game_id: str, token: str, encoding: str) -> Any:
    return client.get(f"/api/games/{game_id}", params={"token": token}, headers={"Accept-Encoding": encoding})


def check_movement_view(client: Any, game_id: str, token: str) -> dict[str, Any]:
    """The seat's view in a Movement Phase: small as JSON and on the wire, every legal action once, and the packed
    descriptors the same as the game's own."""
    plain = served(client, game_id, token, "identity")
    assert plain.headers.get("content-encoding") is None
    payload = plain.json()
    assert "Movement Phase" in payload["view"]["phase"] and len(payload["view"]["legal"]) > 1000  # Tunisia 8.0
    assert len(plain.content) < MAX_JSON, f"{len(plain.content)} bytes of JSON"
    zipped = served(client, game_id, token, "gzip")
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) < MAX_WIRE, f"{zipped.headers['content-length']} bytes on the wire"
    assert zipped.json() == payload
    first = payload["view"]["legal"][0]
    assert plain.text.count(json.dumps(first)) == 1  # each id once: no copy in the state, no map of labels
    assert "labels" not in payload and "legal" not in payload["view"]["state"]
    match = client.app.state.service.live[game_id].match
    assert unpack_actions(payload["actions"], payload["view"]["legal"]) == describe_actions(
        match, match.legal_actions()
    )
    return payload


def test_a_tunisia_movement_view_is_small_as_sent(client: Any) -> None:
    created = client.post("/api/games", json={"game": GAME, "mode": "hotseat", "seed": 5}).json()
    tokens = {seat["side"]: seat["token"] for seat in created["seats"]}
    payload = check_movement_view(client, created["id"], tokens["Axis"])  # 7.0: the Axis moves first
    # on to the Allied Movement Phase: each phase ended as soon as the rules allow, the first choice otherwise
    for _ in range(200):
        side = payload["view"]["to_act"]
        if side == "Allied" and "Movement" in payload["view"]["phase"]:
            break
        legal = payload["view"]["legal"]
        answer = client.post(
            f"/api/games/{created['id']}/actions",
            params={"token": tokens[side]},
            json={"action": "end" if "end" in legal else legal[0], "move": payload["move"]},
        )
        assert answer.status_code == 200, answer.text
        payload = client.get(
            f"/api/games/{created['id']}", params={"token": tokens[answer.json()["view"]["to_act"]]}
        ).json()
    check_movement_view(client, created["id"], tokens["Allied"])


def test_packed_descriptors_come_back_whole() -> None:
    descriptors: list[Any] = [
        {"id": "a", "label": "Move the 1st from 0101 to 0102", "kind": "move", "unit": "1st", "cost": 1.0},
        {"id": "b", "label": "Move the 1st from 0101 to 0103", "kind": "move", "unit": "1st", "cost": 2.5},
        {"id": "c", "label": "Move the 1st", "kind": "move", "unit": "1st"},  # a prefix of the one before
        {"id": "d", "label": "", "kind": "end"},  # an empty label; no unit
        {"id": "e", "label": "Roll 𝟔", "kind": "roll", "face": 6},  # a character two UTF-16 units long
        {"id": "f", "label": "Roll 𝟓", "kind": "roll", "face": 5, "parts": [{"from": "x", "armor": 1}]},
        {"id": "g", "label": "Attack", "kind": "attack", "to": 7},  # a field that is not always text
        {"id": "h", "label": "Attack again", "kind": "attack", "to": "0101", "odds": True},
    ]
    packed = pack_actions(descriptors)
    assert "id" not in packed["fields"] and "to" not in packed["text"] and "label" in packed["text"]
    assert unpack_actions(packed, [d["id"] for d in descriptors]) == descriptors
    assert packed["rows"][1][packed["fields"].index("kind")] == 4  # "move" again: its length, not the word
    assert unpack_actions(pack_actions([]), []) == []


def test_the_push_channel_deflates_its_messages(live_server: Any) -> None:
    from websockets.sync.client import connect

    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 5})
    token = created["seats"][0]["token"]
    url = live_server.url.replace("http://", "ws://") + f"/api/games/{created['id']}/ws?token={token}"
    with connect(url, max_size=None) as socket:
        assert "permessage-deflate" in (socket.response.headers.get("Sec-WebSocket-Extensions") or "")
        first = json.loads(socket.recv())
        assert first["type"] == "update" and len(first["view"]["legal"]) > 1000
