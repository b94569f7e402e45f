"""'Download record' in a real (headless) chromium, mid-game: a file the seat may keep, and a word on what it is.

An unfinished game with hidden hands (web_secret_cards) gives each seat its own record (its view; the other side's
hand never in it); a download that fails says so on the page instead of doing nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_pages import api, new_page, seat_tokens, server_post
from web_secret_cards import CARDS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def open_seat(browser: Any, server: Any, game_id: str, token: str) -> tuple[Any, Any, list[str]]:
    context, page, errors = new_page(browser)
    page.goto(f"{server.url}/play/{game_id}?token={token}")
    page.wait_for_selector("#help-ok").click()
    page.wait_for_selector("#prompt")
    return context, page, errors


def test_download_mid_game_saves_the_seats_own_record(
    live_server: Any, browser: Any, secret_cards: str, tmp_path: Path
) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": secret_cards, "mode": "online"})
    tokens = seat_tokens(server_post(live_server), created)
    context, page, errors = open_seat(browser, live_server, created["id"], tokens["North"])
    page.click("details.menu summary")
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert saved.name.endswith("-North-view.json")
    assert record["format"] == "warroom-seat-record" and record["view_of"] == "North" and not record["replayable"]
    state = live_server.app.state.service.live[created["id"]].match.state
    south_hand = [CARDS[c] for c in state["hands"]["South"]]
    assert south_hand and not any(name in saved.read_text() for name in south_hand)  # the other hand stays hidden
    toast = page.wait_for_selector("#toast.show")
    assert "North's record of the game so far" in toast.inner_text() and "once the game is over" in toast.inner_text()
    assert not errors, errors
    context.close()


def test_a_download_that_fails_says_so_on_the_page(live_server: Any, browser: Any, secret_cards: str) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": secret_cards, "mode": "hotseat", "seed": 2})
    context, page, errors = open_seat(browser, live_server, created["id"], created["seats"][0]["token"])
    page.route("**/api/games/*/record", lambda route: route.abort())  # the connection drops
    page.click("details.menu summary")
    page.click("#download")
    toast = page.wait_for_selector("#toast.show.error")
    assert "The record was not saved" in toast.inner_text()
    page.unroute("**/api/games/*/record")
    page.route(
        "**/api/games/*/record",
        lambda route: route.fulfill(
            status=503,
            content_type="application/json",
            body=json.dumps({"ok": False, "error": {"code": "storage", "message": "the database is away"}}),
        ),
    )
    page.click("#download")
    page.wait_for_function("() => document.querySelector('#toast.show.error').textContent.includes('database is away')")
    context.close()
