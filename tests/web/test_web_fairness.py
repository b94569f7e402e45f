"""Verifiable dice on the web: an online game commits to its secret key from the first view, reveals
it when the game is over, and POST /api/verify re-derives every die from it (docs/fairness.md).

API level (no browser): what each seat is sent, read as JSON text.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from web_pages import client_post, seat_tokens

import warroom

HEX64 = re.compile(r"[0-9a-f]{64}")


def sha256_hex(key_hex: str) -> str:
    """The commitment, worked out here from its definition: SHA-256 of the key's bytes."""
    return hashlib.sha256(bytes.fromhex(key_hex)).hexdigest()


def get(client: Any, game_id: str, token: str, route: str = "") -> Any:
    return client.get(f"/api/games/{game_id}{route}", params={"token": token})


def other_face(value: int) -> int:
    return value % 6 + 1


def test_an_online_game_commits_to_its_key_and_reveals_it_when_over(client: Any, secret_cards: str) -> None:
    created = client.post("/api/games", json={"game": secret_cards, "mode": "online"})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = seat_tokens(client_post(client), created.json())
    stored = client.app.state.store.load(game_id).header
    key = stored["seed"]
    assert stored["rng"] == "hmac-sha256" and HEX64.fullmatch(key)
    assert len(bytes.fromhex(key)) * 8 >= 128  # 256 bits: no brute force over seeds
    first = created.json()["game"]["fairness"]
    assert first["scheme"] == "hmac-sha256" and first["seed"] is None and first["commitment"] == sha256_hex(key)
    sent: dict[str, list[str]] = {side: [] for side in tokens}
    sent["North"].append(created.text)
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['North']}") as north_ws,
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['South']}") as south_ws,
    ):
        sockets = {"North": north_ws, "South": south_ws}
        for side, ws in sockets.items():
            frame = ws.receive_json()
            assert frame["fairness"] == first  # every seat is shown the same commitment
            assert frame["view"]["moves"]["decisions"] == 0  # and the digest of the decisions so far
            sent[side].append(json.dumps(frame))
        for _ in range(10):
            payload = get(client, game_id, tokens["North"]).json()
            if payload["view"]["over"]:
                break
            side = payload["view"]["to_act"]
            mine = get(client, game_id, tokens[side]).json()
            for route in ("", "/log", "/odds", "/record", "/replay"):
                sent[side].append(get(client, game_id, tokens[side], route).text)
            sent[side].append(client.post("/api/lobby", json={"tokens": [tokens[side]]}).text)
            answer = client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[side]},
                json={"action": mine["view"]["legal"][0], "move": mine["move"]},
            )
            assert answer.status_code == 200, answer.text
            final = answer.json()["view"]["over"]
            if not final:
                sent[side].append(answer.text)
            shown = answer.json()["view"]["moves"]
            for seat, ws in sockets.items():
                frame = ws.receive_json()
                assert frame["view"]["moves"] == shown  # every seat is shown the same digest of the decisions
                if not frame["view"]["over"]:
                    sent[seat].append(json.dumps(frame))
                else:
                    assert frame["fairness"]["seed"] == key  # pushed to every seat the moment the game ends
        assert final
    for side, texts in sent.items():  # everything either seat was sent before the end
        text = "\n".join(texts)
        assert len(texts) > 5 and key not in text and key.upper() not in text, f"{side} was sent the key before the end"
        assert set(re.findall(r'"seed":\s*([^,}\s]+)', text)) == {"null"}
    for token in tokens.values():
        fairness = get(client, game_id, token).json()["fairness"]
        assert fairness == {"scheme": "hmac-sha256", "commitment": first["commitment"], "seed": key}
        assert sha256_hex(fairness["seed"]) == first["commitment"]  # the key revealed is the one committed to
    record = get(client, game_id, tokens["South"], "/record").json()
    assert record["header"]["seed"] == key and record["header"]["rng"] == "hmac-sha256"
    assert (
        record["version"] == 2
        and record["moves"][-1] == shown["digest"]
        and len(record["moves"]) == len(record["actions"]) + 1
    )  # the record carries the chain every seat was shown
    seen = [{"digest": shown["digest"], "decisions": shown["decisions"], "seen_by": "South"}]
    report = client.post(
        "/api/verify", json={"record": record, "commitment": first["commitment"], "digests": seen}
    ).json()
    assert report["ok"] and report["verified"] and report["commitment_ok"] and report["dice"] == report["checked"] == 4
    assert report["message"] == (
        "all 4 dice match the seed (commitment ok); the decisions match the digest seen at decision "
        f"{shown['decisions']}"
    )
    assert report["moves"]["seen"] == [{**seen[0], "ok": True}]


def finish_dragoon_online(client: Any, created: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """Play a one-seat online Dragoon game to its end (first legal action each time): (id, token, payload at
    the start)."""
    game_id = created["id"]
    token = seat_tokens(client_post(client), created)["Allied"]
    start = get(client, game_id, token).json()
    payload = start
    key = client.app.state.store.load(game_id).header["seed"]
    for step in range(400):
        if payload["view"]["over"]:
            break
        assert payload["fairness"]["seed"] is None
        if step % 10 == 3:  # a solitaire's record may be downloaded mid-game: without the key
            mid = get(client, game_id, token, "/record")
            assert (
                mid.json()["header"]["seed"] is None
                and mid.json()["header"]["rng"] == "hmac-sha256"
                and key not in mid.text
            )
            assert key not in get(client, game_id, token, "/log").text
        answer = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"action": payload["view"]["legal"][0], "move": payload["move"]},
        )
        assert answer.status_code == 200, answer.text
        payload = answer.json()
    assert payload["view"]["over"]
    return game_id, token, start


def test_verify_passes_on_the_finished_record_and_catches_a_changed_die(client: Any) -> None:
    created = client.post("/api/games", json={"game": "dragoon", "mode": "online"}).json()
    game_id, token, start = finish_dragoon_online(client, created)
    commitment = start["fairness"]["commitment"]
    record = get(client, game_id, token, "/record").json()
    assert sha256_hex(record["header"]["seed"]) == commitment
    report = client.post("/api/verify", json={"record": record, "commitment": commitment})
    assert report.status_code == 200, report.text
    assert report.json()["verified"] and report.json()["dice"] > 10 and report.json()["given"] == 0
    tampered = json.loads(json.dumps(record))
    tampered["dice"][7] = other_face(tampered["dice"][7])
    failed = client.post("/api/verify", json={"record": tampered, "commitment": commitment}).json()
    assert failed["ok"] and not failed["verified"] and failed["checked"] == 7
    assert failed["mismatch"]["die"] == 8 and failed["mismatch"]["recorded"] == tampered["dice"][7]
    assert failed["mismatch"]["derived"] == record["dice"][7] and "die 8 does not match" in failed["message"]
    wrong = client.post("/api/verify", json={"record": record, "commitment": sha256_hex("11" * 32)}).json()
    assert not wrong["verified"] and wrong["commitment_ok"] is False and "commitment does not match" in wrong["message"]
    # the decisions: the record's chain, and the digest the seat was shown at the start
    assert record["moves"][0] == start["view"]["moves"]["digest"] and start["view"]["moves"]["decisions"] == 0
    edited = json.loads(json.dumps(record))
    edited["moves"][3] = record["moves"][4]
    broken = client.post("/api/verify", json={"record": edited}).json()["moves"]["broken"]
    assert (
        broken["first"] == broken["last"] == 3
        and broken["against"] == "record"
        and broken["action"] == record["actions"][2]
    )
    seen = {"digest": record["moves"][5][:16], "decisions": 6, "seen_by": "Allied"}
    answer = client.post("/api/verify", json={"record": record, "digests": [seen]}).json()
    assert not answer["verified"] and answer["moves"]["broken"]["against"] == "seen"
    assert "does not match the digest seen by Allied at decision 6" in answer["message"]
    bad = client.post("/api/verify", json={"record": record, "digests": [{"digest": "xyz"}]})
    assert bad.status_code == 400 and bad.json()["ok"] is False


def test_verify_refuses_what_it_cannot_check(client: Any) -> None:
    plain = warroom.new_game("dragoon", seed=4).record().to_json()
    refused = client.post("/api/verify", json={"record": plain})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "not_verifiable"
    assert "mt19937" in refused.json()["error"]["message"]
    keyed = warroom.new_game("dragoon", seed="ab" * 32).record().to_json()
    withheld = {**keyed, "header": {**keyed["header"], "seed": None}}
    refused = client.post("/api/verify", json={"record": withheld})
    assert (
        refused.status_code == 400
        and refused.json()["error"]["code"] == "not_verifiable"
        and "withheld" in refused.json()["error"]["message"]
    )
    assert (
        client.post("/api/verify", json={"record": {"format": "something else"}}).json()["error"]["code"]
        == "bad_record"
    )
    short = client.post("/api/verify", json={"record": keyed, "commitment": "abc"})
    assert short.status_code == 400 and short.json()["ok"] is False
    bad_key = {**keyed, "header": {**keyed["header"], "seed": "zz" * 32}}
    assert client.post("/api/verify", json={"record": bad_key}).json()["error"]["code"] == "bad_record"


def test_other_modes_commit_to_nothing(client: Any) -> None:
    hotseat = client.post("/api/games", json={"game": "dragoon", "mode": "hotseat", "seed": 9}).json()
    assert hotseat["game"]["fairness"] == {"scheme": "mt19937", "commitment": None, "seed": None}
    assert "moves" not in hotseat["game"]["view"]
    keyed = warroom.new_game("dragoon", seed="ab" * 32).record().to_json()
    computer = client.post("/api/games/upload", json={"record": keyed, "mode": "computer"}).json()
    assert (
        "moves" not in computer["game"]["view"]
    )  # whoever uploaded it knows the key: a digest would tell hidden moves
    table = client.post("/api/games", json={"game": "dragoon", "mode": "table", "seed": 9}).json()
    assert table["game"]["fairness"] == {"scheme": "manual", "commitment": None, "seed": None}


def test_a_record_continued_online_commits_to_a_new_key(client: Any) -> None:
    m = warroom.new_game("dragoon", seed=31)
    for _ in range(6):
        m.play(m.legal_actions()[0])
    before = list(m.dice_rolled)
    assert before and not m.over
    uploaded = client.post("/api/games/upload", json={"record": m.record().to_json(), "mode": "online"})
    assert uploaded.status_code == 201, uploaded.text
    fairness = uploaded.json()["game"]["fairness"]
    assert fairness["scheme"] == "hmac-sha256" and fairness["seed"] is None and HEX64.fullmatch(fairness["commitment"])
    game_id, token, _start = finish_dragoon_online(client, uploaded.json())
    record = get(client, game_id, token, "/record").json()
    assert record["dice"][: len(before)] == before and sha256_hex(record["header"]["seed"]) == fairness["commitment"]
    report = client.post("/api/verify", json={"record": record, "commitment": fairness["commitment"]}).json()
    assert report["verified"] and report["given"] == len(before) and report["dice"] > len(before)
    assert (
        f"dice 1-{len(before)} were played before" in report["message"]
    )  # what the key vouches for, and what it cannot


# -- in the browser ------------------------------------------------------------------------------------
def test_the_page_shows_the_commitment_then_the_key_and_verifies_the_dice(
    live_server: Any, browser: Any, secret_cards: str, artifacts: Any
) -> None:
    from web_pages import api, new_page, server_post

    created = api(live_server, "POST", "/api/games", json={"game": secret_cards, "mode": "online"})
    game_id = created["id"]
    tokens = seat_tokens(server_post(live_server), created)
    commitment = created["game"]["fairness"]["commitment"]
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{game_id}?token={tokens['South']}")
    page.wait_for_selector("#prompt h2, #prompt .waiting")
    if page.query_selector("#help-ok"):
        page.click("#help-ok")
    chip = page.wait_for_selector("#hud #fairness")
    assert chip.inner_text() == f"dice committed: {commitment[:16]}…" and commitment in (
        chip.get_attribute("title") or ""
    )
    assert not page.query_selector("#fairness-check")  # no key before the end
    for _ in range(4):  # both seats play their cards through the API; the page follows the pushes
        payload = api(live_server, "GET", f"/api/games/{game_id}", params={"token": tokens["North"]})
        side = payload["view"]["to_act"]
        mine = api(live_server, "GET", f"/api/games/{game_id}", params={"token": tokens[side]})
        api(
            live_server,
            "POST",
            f"/api/games/{game_id}/actions",
            params={"token": tokens[side]},
            json={"action": mine["view"]["legal"][0], "move": mine["move"]},
        )
    page.wait_for_selector("#game-over")
    page.click("#overlay button.close")
    shown = api(live_server, "GET", f"/api/games/{game_id}", params={"token": tokens["South"]})["view"]["moves"]
    digest_chip = page.wait_for_selector("#hud #moves-digest")
    assert digest_chip.inner_text() == f"moves {shown['decisions']}: {shown['digest'][:16]}…"
    key = live_server.app.state.store.load(game_id).header["seed"]
    assert page.inner_text("#fairness-commitment") == commitment and page.inner_text("#fairness-seed") == key
    page.click("#verify-dice")
    page.wait_for_selector("#verify-result.verify-ok")
    assert page.inner_text("#fairness-moves") == shown["digest"]  # the digest this browser was shown last
    assert page.inner_text("#verify-result") == (
        f"Verified: all 4 dice match the seed (commitment ok); the decisions match the digest seen at decision "
        f"{shown['decisions']}."
    )
    page.screenshot(path=str(artifacts / "online-fair-dice-verified.png"))
    assert not errors, errors
    context.close()
