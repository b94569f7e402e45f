"""GET /api/games/{id}/review: the post-game analysis, only once the game is over, computed once and kept."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from patience import SLOW_STATE_SECONDS

from warroom.games import REGISTRY, get_ruleset, get_spec, register_game

TESTS = Path(__file__).resolve().parents[1]


def _create(client: Any, **body: Any) -> tuple[str, dict[str, str]]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], {seat["side"]: seat["token"] for seat in data["seats"] if "token" in seat}


def _review(client: Any, game_id: str, token: str) -> Any:
    return client.get(f"/api/games/{game_id}/review", params={"token": token})


def test_a_finished_game_is_reviewed_frame_by_frame_and_kept(client: Any) -> None:
    game_id, tokens = _create(client, game="dragoon", seed=7, mode="computer")
    token = tokens["Allied"]
    refused = _review(client, game_id, token)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_over"
    assert _review(client, game_id, "not-a-token").status_code in (401, 403)
    payload = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    while not payload["view"]["over"]:
        payload = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"action": payload["view"]["legal"][-1], "move": payload["move"]},
        ).json()
    answer = _review(client, game_id, token)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    frames = client.get(f"/api/games/{game_id}/replay", params={"token": token}).json()["frames"]
    assert report["ok"] and report["over"] and report["sides"] == ["Allied"]
    assert [p["frame"] for p in report["points"]] == list(range(len(frames)))  # seeded dice: one frame a decision
    for point in report["points"][1:]:
        assert frames[point["frame"]]["label"] == point["label"]  # the frame that shows the position after the move
    assert all(m["frame"] == m["step"] and m["computer"]["why"] for m in report["mistakes"])
    service = client.app.state.service
    kept = service.reviews[game_id]
    assert _review(client, game_id, token).json() == report and service.reviews[game_id] is kept  # computed once


@pytest.fixture
def bluff() -> Iterator[str]:
    before = dict(REGISTRY)
    sys.path.insert(0, str(TESTS))
    register_game("bluff", "games.bluff.spec:SPEC")
    yield "bluff"
    REGISTRY.clear()
    REGISTRY.update(before)
    get_spec.cache_clear()
    get_ruleset.cache_clear()
    sys.path.remove(str(TESTS))


def test_an_online_game_in_progress_is_refused_to_every_seat(client: Any, bluff: str) -> None:
    """The review reads both hands: no seat gets it while the other's card is still hidden; both get it at the end."""
    data = client.post("/api/games", json={"game": bluff, "mode": "online"}).json()
    game_id = data["id"]
    tokens = {seat["side"]: seat["token"] for seat in data["seats"] if "token" in seat}
    for seat in data["seats"]:
        if "invite" in seat:
            tokens[seat["side"]] = client.post(f"/api/games/{game_id}/claim", json={"invite": seat["invite"]}).json()[
                "token"
            ]
    for action in ("bet", "call"):
        for token in tokens.values():
            assert _review(client, game_id, token).status_code == 409
        views = {side: client.get(f"/api/games/{game_id}", params={"token": t}).json() for side, t in tokens.items()}
        side = next(s for s, v in views.items() if action in v["view"]["legal"])
        played = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[side]},
            json={"action": action, "move": views[side]["move"]},
        )
        assert played.status_code == 200, played.text
    reports = [_review(client, game_id, token).json() for token in tokens.values()]
    assert reports[0] == reports[1] and reports[0]["over"] and "short search" in reports[0]["scoring"]
    assert [d["action"] for d in reports[0]["decisions"]] == ["bet", "call"]


def test_the_route_is_described(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    route = spec["paths"]["/api/games/{game_id}/review"]["get"]
    assert {"200", "401", "403", "404", "409"} <= set(route["responses"])
    assert route["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Review")
    assert {"points", "mistakes", "measure"} <= set(spec["components"]["schemas"]["Review"]["properties"])


def test_the_replay_graph_jumps_to_a_marked_move(live_server: Any, browser: Any, artifacts: Path) -> None:
    """A finished game (a random player's, uploaded): the graph appears beside the replay with the costly moves marked;
    clicking one moves the replay to the position after it and says what the computer would have played."""
    from web_pages import api, new_page

    import warroom
    from warroom.ai import get_agent

    match = warroom.new_game("patton", "bulge", seed=5)
    player = get_agent("random", "patton", seed=5)
    while not match.over:
        match.play(player.choose(match)[0])
    created = api(
        live_server, "POST", "/api/games/upload", json={"record": match.record().to_json(), "mode": "hotseat"}
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    report = api(live_server, "GET", f"/api/games/{game_id}/review", params={"token": token})
    assert report["mistakes"]
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{game_id}?token={token}")
    page.wait_for_selector("#game-over")
    page.click("#game-over button.primary")
    page.wait_for_selector("#replay-bar")
    page.wait_for_selector("#review-graph")
    assert page.locator("#review-graph polyline").count() == 2  # each side's line
    marks = page.locator("#review-graph .review-mark")
    assert marks.count() == len(report["mistakes"])
    target = report["mistakes"][-1]
    page.click(f'#review-graph .review-mark[data-frame="{target["frame"]}"]')
    assert f"step {target['frame']} of {len(report['points']) - 1}" in page.inner_text("#replay-bar")
    detail = page.inner_text("#review-detail")
    assert target["label"] in detail and "The computer" in detail and "Why:" in detail
    page.click(
        "#replay-first"
    )  # the replay moved by its own buttons: the graph follows, and a plain point explains nothing
    assert "At the start" in page.inner_text("#review-detail")
    page.click(f'#review-mistakes button[data-frame="{report["mistakes"][0]["frame"]}"]')
    assert f"step {report['mistakes'][0]['frame']} of" in page.inner_text("#replay-bar")
    page.screenshot(path=str(artifacts / "review-graph.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_the_computers_reason_is_kept_from_the_other_seat_where_the_game_hides_something(
    client: Any, bluff: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bluff's computer reasons from its own card: the person's seat is told the reason is kept secret, never the
    card."""
    import threading

    from games.bluff import rules

    from warroom.web import agents

    gate = threading.Event()

    class Gated:  # the game's own heuristic, once the test listens
        def choose(self, match: Any) -> tuple[str, str]:
            gate.wait(SLOW_STATE_SECONDS)  # only a hung test waits that long
            return rules.heuristic_policy(match.ruleset, match.state)

    monkeypatch.setattr(agents, "make_agent", lambda name, game, budget_ms, seed: Gated())
    created = client.post(
        "/api/games", json={"game": bluff, "seed": 1, "mode": "computer", "human": ["South"], "agent": "heuristic"}
    )
    assert created.status_code == 201, created.text
    data = created.json()
    with client.websocket_connect(f"/api/games/{data['id']}/ws?token={data['seats'][0]['token']}") as socket:
        assert socket.receive_json()["move"] == 0
        gate.set()
        pushed = socket.receive_json()
    reasons = [e["text"] for e in pushed["events"] if e["type"] == "reason"]
    assert reasons == ["Why (North, computer): kept secret, it may tell what North holds"]
    assert not any(card in str(pushed["events"]) for card in ("Jack", "Queen", "King"))
    # a page reloaded reads the game's log: the reason is there too, told the same way
    log = client.get(f"/api/games/{data['id']}/log", params={"token": data["seats"][0]["token"]}).json()["events"]
    assert [e["text"] for e in log if e["type"] == "reason"] == reasons
    assert not any(card in str([e for e in log if e["type"] == "reason"]) for card in ("Jack", "Queen", "King"))
    # beside the match's log, not in it: another server process rebuilds that log from the steps and counts on it
    live = client.app.state.service.live[data["id"]]
    assert not any(e["type"] == "reason" for e in live.match.log) and live.reasons
