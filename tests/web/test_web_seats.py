"""Online seats strangers can trust: one-time invites, dice nobody types in, uploads checked like new games,
and computer seats that resume after a restart (issue 18, items 2, 3, 5 and 8)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from patience import SLOW_STATE_SECONDS
from web_pages import api, new_page

import warroom


def created_online(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": "online", **body})
    assert response.status_code == 201, response.text
    return response.json()


def claim(client: Any, game_id: str, invite: str) -> Any:
    return client.post(f"/api/games/{game_id}/claim", json={"invite": invite})


# -- item 5: the creator holds one seat; each other seat is a one-time invite ------------------------
def test_the_creator_holds_only_its_own_seat_and_invites_the_other(client: Any) -> None:
    created = created_online(client)
    mine = [seat for seat in created["seats"] if "token" in seat]
    invited = [seat for seat in created["seats"] if "invite" in seat]
    assert [seat["side"] for seat in mine] == ["Allied"] and [seat["side"] for seat in invited] == ["Axis"]
    assert "token" not in invited[0] and invited[0]["url"] == f"/play/{created['id']}?invite={invited[0]['invite']}"
    game_id, invite = created["id"], invited[0]["invite"]
    # the invite is not a seat token: it opens nothing but the claim
    assert client.get(f"/api/games/{game_id}", params={"token": invite}).status_code == 403
    # every seat is told the Axis seat waits for its player
    seats = {seat["side"]: seat for seat in created["game"]["seats"]}
    assert seats["Axis"]["claimed"] is False and seats["Allied"]["claimed"] is True

    first = claim(client, game_id, invite)
    assert first.status_code == 200, first.text
    axis_token = first.json()["token"]
    assert first.json()["side"] == "Axis" and axis_token != invite
    axis_view = client.get(f"/api/games/{game_id}", params={"token": axis_token}).json()
    assert axis_view["side"] == "Axis" and all(seat["claimed"] for seat in axis_view["seats"])

    # a second claim (the creator who kept the link, or anyone it leaked to) gets nothing
    second = claim(client, game_id, invite)
    assert second.status_code == 410 and second.json()["error"]["code"] == "invite_used"
    assert "token" not in second.text
    wrong = claim(client, game_id, "not-an-invite")
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_invite"
    # the creator's own token still opens only its own seat
    creator = client.get(f"/api/games/{game_id}", params={"token": mine[0]["token"]}).json()
    assert creator["side"] == "Allied"


def test_the_creator_picks_a_side(client: Any) -> None:
    created = created_online(client, side="Axis")
    assert [seat["side"] for seat in created["seats"] if "token" in seat] == ["Axis"]
    assert created["game"]["side"] == "Axis"
    refused = client.post(
        "/api/games", json={"game": "patton", "scenario": "normandy", "mode": "online", "side": "Martians"}
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_side"


def test_hotseat_and_table_keep_every_seat_on_one_screen(client: Any) -> None:
    for mode in ("hotseat", "table"):
        created = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": mode}).json()
        assert sorted(seat["side"] for seat in created["seats"] if "token" in seat) == ["Allied", "Axis"]
        assert not any("invite" in seat for seat in created["seats"])


def test_two_claims_racing_get_one_seat(db_url: str) -> None:
    from warroom.web.service import GameService
    from warroom.web.storage import InviteUsedError, Store

    store, other = Store(db_url), Store(db_url)  # two server processes' stores on one database
    try:
        created = GameService(store).create("patton", "normandy", "online")
        invite = created.invites["Axis"]
        assert store.claim_seat(created.live.id, invite, "token-a") == "Axis"
        with pytest.raises(InviteUsedError):
            other.claim_seat(created.live.id, invite, "token-b")
        assert other.seat_for_token("token-a") == (created.live.id, "Axis") and other.seat_for_token("token-b") is None
    finally:
        store.close()
        other.close()


# -- item 2: nobody types in an online game's dice --------------------------------------------------
def table_record() -> dict[str, Any]:
    """A Patton game at the table up to a die to be typed in: the Allied movement card is pending."""
    m = warroom.new_game("patton", "normandy", seed=3, dice="manual")
    while m.to_act != warroom.DICE_SIDE:
        m.play(m.legal_actions()[0])
    record = m.record().to_json()
    assert record["header"]["dice"] == "manual"
    return record


def test_an_uploaded_table_record_goes_on_online_with_the_servers_dice(client: Any) -> None:
    uploaded = client.post("/api/games/upload", json={"record": table_record(), "mode": "online"})
    assert uploaded.status_code == 201, uploaded.text
    created = uploaded.json()
    game_id = created["id"]
    assert created["game"]["dice"] == "auto" and created["game"]["view"]["to_act"] != "dice"
    axis = claim(client, game_id, next(s["invite"] for s in created["seats"] if "invite" in s)).json()["token"]
    allied = next(s["token"] for s in created["seats"] if "token" in s)
    live = client.app.state.service.live[game_id]
    assert not live.match.dice.manual
    for token in (allied, axis):
        typed = client.post(
            f"/api/games/{game_id}/actions", params={"token": token}, json={"action": "roll 6", "move": live.version}
        )
        assert typed.status_code in (400, 403), typed.text  # never a die typed in by a seat
    assert client.app.state.store.load(game_id).header["dice"] != "manual"


def test_a_crafted_online_game_in_storage_still_takes_no_typed_dice(client: Any) -> None:
    """Even a game stored as online with manual dice (an older server, a hand-edited database): may_roll says no."""
    created = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": "table"}).json()
    live = client.app.state.service.live[created["id"]]
    live.stored.mode = "online"
    for seat in live.stored.seats:
        assert client.app.state.service.may_roll(live, seat.side) is False


# -- item 8: uploads get the checks new games get -----------------------------------------------------
def finished_or_started_record(seed: int = 11, moves: int = 6) -> dict[str, Any]:
    m = warroom.new_game("patton", "normandy", seed=seed)
    for _ in range(moves):
        m.play(m.legal_actions()[0])
    return m.record().to_json()


def upload(client: Any, record: dict[str, Any], mode: str = "hotseat") -> Any:
    return client.post("/api/games/upload", json={"record": record, "mode": mode})


def test_upload_options_out_of_range_or_unknown_are_refused(client: Any) -> None:
    m = warroom.new_game("patton", "sicily", seed=2)
    record = m.record().to_json()
    for options, words in (({"turn_limit": 1000000}, "turn_limit"), ({"no_such_option": True}, "no_such_option")):
        bad = {**record, "header": {**record["header"], "options": options}}
        answer = upload(client, bad)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_option", answer.text
        assert words in answer.json()["error"]["message"]


def test_forged_past_dice_of_a_seeded_record_are_caught(client: Any) -> None:
    m = warroom.new_game("dragoon", seed=7)
    m.play("invade 3rd-ID Alpha-Beach")  # the landing's die: the last thing in the record
    record = m.record().to_json()
    forged = {**record, "dice": [*record["dice"][:-1], 1 + record["dice"][-1] % 6]}  # another face of the same d6
    online = upload(client, forged, "online")
    assert online.status_code == 400 and online.json()["error"]["code"] == "forged_dice", online.text
    assert f"die {len(record['dice'])}" in online.json()["error"]["message"]
    # at home a study may change its dice: accepted, and every seat is told they are not the seed's
    home = upload(client, forged, "hotseat")
    assert home.status_code == 201, home.text
    assert (
        home.json()["game"]["origin"]["dice_checked"] is False
        and "do NOT match" in home.json()["game"]["origin"]["text"]
    )
    honest = upload(client, record, "online")
    assert honest.status_code == 201, honest.text
    assert honest.json()["game"]["origin"]["dice_checked"] is True


def test_scripted_future_dice_are_dropped_from_every_upload(client: Any) -> None:
    record = finished_or_started_record(moves=4)
    scripted = {**record, "header": {**record["header"], "dice": [*record["dice"], 1, 1, 1, 1]}}
    for mode in ("hotseat", "computer"):
        answer = upload(client, scripted, mode)
        assert answer.status_code == 201, answer.text
        header = client.app.state.store.load(answer.json()["id"]).header
        assert header["dice"] == record["dice"], mode


def test_the_opponent_is_told_what_an_online_game_continues(client: Any) -> None:
    m = warroom.new_game("patton", "normandy", seed=5)
    position = m.view()["state"]
    crafted = warroom.new_game("patton", "normandy", seed=5, position=position).record().to_json()
    answer = upload(client, crafted, "online")
    assert answer.status_code == 201, answer.text
    created = answer.json()
    claimed = claim(client, created["id"], next(s["invite"] for s in created["seats"] if "invite" in s)).json()
    assert claimed["origin"]["kind"] == "record" and claimed["origin"]["position"] is True
    assert "position set up by whoever made the record" in claimed["origin"]["text"]
    view = client.get(f"/api/games/{created['id']}", params={"token": claimed["token"]}).json()
    assert view["origin"] == claimed["origin"]
    fresh = client.post("/api/games", json={"game": "dragoon", "seed": 1}).json()
    assert fresh["game"]["origin"] == {"kind": "new"}


def test_a_table_record_uploaded_online_says_its_dice_cannot_be_checked(client: Any) -> None:
    record = table_record()
    m = warroom.load(record)
    m.play(m.legal_actions()[-1])  # the die typed in
    answer = upload(client, m.record().to_json(), "online")
    assert answer.status_code == 201, answer.text
    origin = answer.json()["game"]["origin"]
    assert (
        origin["dice_source"] == "manual" and origin["dice_checked"] is False and "typed in by hand" in origin["text"]
    )


# -- item 3: computer seats resume after a restart ---------------------------------------------------
def test_the_computer_resumes_its_turn_after_a_restart(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app
    from warroom.web.service import GameService
    from warroom.web.storage import Store

    db = f"sqlite:///{tmp_path / 'restart.db'}"
    store = Store(db)
    # a game stored while the computer (the American, who moves first) was to move, and no server running it
    created = GameService(store).create(
        "patton", "normandy", "computer", seed=4, human=["Axis"], agent="heuristic", budget_ms=50
    )
    token = created.tokens["Axis"]
    assert created.live.match.to_act == "Allied" and created.live.computer_task is None
    store.close()

    app = create_app(db)
    with TestClient(app) as client:
        deadline = time.monotonic() + SLOW_STATE_SECONDS  # only stops a hung test
        while time.monotonic() < deadline:
            payload = client.get(f"/api/games/{created.live.id}", params={"token": token}).json()
            if payload["move"] > 0:
                break
            time.sleep(0.1)
        assert payload["move"] > 0, "the computer never took up its turn after the restart"
    app.state.store.close()


# -- the invite link in a browser -------------------------------------------------------------------
def test_an_invite_link_opens_the_seat_once_in_a_browser(live_server: Any, browser: Any) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": "patton", "scenario": "bulge", "mode": "online"})
    invite_url = live_server.url + next(seat["url"] for seat in created["seats"] if "invite" in seat)
    context, page, errors = new_page(browser)
    page.goto(invite_url)
    page.wait_for_selector("#board")
    assert "invite" not in page.url  # the spent invite leaves the address bar
    seats = json.loads(page.evaluate("localStorage.getItem('warroom.seats.v1')"))
    assert list(seats[created["id"]]) == ["Axis"]
    page.reload()
    page.wait_for_selector("#board")  # the browser keeps the seat
    assert not errors, errors
    context.close()
    context, page, _ = new_page(browser)
    page.goto(invite_url)
    assert "used already" in page.wait_for_selector("#fatal").inner_text()  # a second browser gets nothing
    context.close()


def test_the_lobby_lets_the_creator_pick_a_side_and_shows_only_the_others_invitations(
    live_server: Any, browser: Any
) -> None:
    context, page, errors = new_page(browser)
    page.goto(live_server.url + "/")
    page.select_option("#new-game-select", "patton")
    page.check('[data-mode="online"] input')
    assert page.is_visible("#new-side") and not page.is_visible("#new-agent")  # online: a side to pick, no computer
    page.select_option("#new-side", "Axis")
    page.click("#start-game")
    link = page.wait_for_selector(".seat-link")
    assert link.get_attribute("data-side") == "Allied" and "?invite=" in link.input_value()
    assert page.locator(".seat-link").count() == 1  # the creator's own seat is not handed out
    seats = json.loads(page.evaluate("localStorage.getItem('warroom.seats.v1')"))
    ((game_id, held),) = seats.items()
    assert list(held) == ["Axis"]
    assert "Open my seat (Axis)" in page.inner_text("#new-game-result")
    assert not errors, errors
    context.close()
