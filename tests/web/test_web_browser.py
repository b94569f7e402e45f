"""The browser client in a real (headless Debian) chromium: clicking the board, reloads, seats, hidden hands.

Screenshots go to test-artifacts/. The server runs in this process on a free loopback port.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from patience import SLOW_STATE_TIMEOUT_MS
from web_pages import api, new_page, seat_tokens, server_post  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def open_page(browser: Any, url: str, phone: bool = False) -> tuple[Any, Any, list[str]]:
    context, page, errors = new_page(browser, phone)
    page.goto(url)
    return context, page, errors


def click_attack(page: Any, unit: str, location: str) -> None:
    """Click a unit, then its target on the map, then the attack shown with its odds."""
    page.click(f'#board [data-unit="{unit}"]')
    page.click(f'#board .location[data-loc="{location}"] .spot', force=True)
    page.wait_for_selector("#confirm button.action")
    page.click("#confirm button.action")


def test_play_dragoon_by_clicking_the_board_then_reload(live_server: Any, browser: Any, artifacts: Path) -> None:
    context, page, errors = open_page(browser, live_server.url + "/")
    page.click("details.more summary")
    page.fill("#new-seed", "7")
    page.click("#start-game")
    page.wait_for_selector("#board")
    page.click("#help-ok")
    page.click('#board [data-unit="3rd-ID"]')
    page.click('#board .location[data-loc="Alpha-Beach"] .spot', force=True)
    confirm = page.wait_for_selector("#confirm")
    page.wait_for_selector("#confirm .odds")
    assert "5/6" in confirm.inner_text()  # Dragoon: Resolving Unit Attacks: exact odds before committing
    page.click("#confirm button.action")
    page.wait_for_selector("#log .ev-invade")
    assert "3rd-ID invades" in page.inner_text("#log")
    assert page.query_selector("#dice-tray [data-roll]") is not None  # the die is shown
    click_attack(page, "VI-Corps", "Delta-Beach")
    page.wait_for_function("() => document.querySelectorAll('#log .ev-invade').length === 2")
    click_attack(page, "1st-ABTF", "Le-Muy-DZ")
    # the last RP is spent: German movement, then the BOT's die answers
    page.wait_for_selector("#log .ev-bot")
    assert "German BOT rolls" in page.inner_text("#log")
    assert page.inner_text("#turn") == "Turn 16 Aug"
    page.screenshot(path=str(artifacts / "dragoon-after-turn-15.png"))
    before = page.evaluate("JSON.stringify(window.warroomGame.payload.view.state)")
    log_before = page.inner_text("#log")
    game_id = page.url.split("/play/")[1].split("?")[0]

    page.reload()
    page.wait_for_selector("#board [data-unit='3rd-ID']")
    page.wait_for_function("() => window.warroomGame && window.warroomGame.payload !== null")
    assert page.evaluate("JSON.stringify(window.warroomGame.payload.view.state)") == before
    assert page.inner_text("#log") == log_before
    assert page.inner_text("#turn") == "Turn 16 Aug"

    page.goto(live_server.url + "/")
    page.wait_for_selector(f'#my-games [data-game="{game_id}"]')
    assert "Turn 16" in page.inner_text(f'#my-games [data-game="{game_id}"]')
    assert not errors, errors
    context.close()


def test_a_browser_without_the_seat_token_is_refused(live_server: Any, browser: Any, artifacts: Path) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": "dragoon", "mode": "online"})
    game_id, token = created["id"], created["seats"][0]["token"]
    context, page, _ = open_page(browser, f"{live_server.url}/play/{game_id}")
    assert "holds no seat" in page.wait_for_selector("#fatal").inner_text()
    context.close()
    context, page, _ = open_page(browser, f"{live_server.url}/play/{game_id}?token=not-the-token")
    assert "does not open a seat" in page.wait_for_selector("#fatal").inner_text()
    context.close()
    assert api(live_server, "GET", f"/api/games/{game_id}", params={"token": token})["move"] == 0
    context, page, errors = open_page(browser, f"{live_server.url}/play/{game_id}?token={token}", phone=True)
    page.wait_for_selector("#board [data-unit='VI-Corps']")
    page.click("#help-ok")
    page.screenshot(path=str(artifacts / "dragoon-phone.png"))
    assert not errors, errors
    context.close()


def test_the_ffi_reroll_is_asked_in_place(live_server: Any, browser: Any, artifacts: Path) -> None:
    # Dragoon: French Forces of the Interior (FFI): a failed roll may be re-rolled once
    record = {
        "format": "warroom-record",
        "version": 1,
        "header": {"game": "dragoon", "scenario": "campaign", "options": {}, "seed": 1, "dice": "auto"},
        "actions": [
            "invade 3rd-ID Alpha-Beach",
            "invade VI-Corps Delta-Beach",
            "invade 1st-ABTF Le-Muy-DZ",
            "ffi 3rd-ID",
            "attack 3rd-ID Alpha-Beach->Brignoles",
        ],
        "dice": [2, 2, 2, 1, 1],
    }
    created = api(live_server, "POST", "/api/games/upload", json={"record": record, "mode": "computer"})
    context, page, errors = open_page(
        browser, f"{live_server.url}/play/{created['id']}?token={created['seats'][0]['token']}"
    )
    page.wait_for_selector("#help-ok").click()
    card = page.wait_for_selector("#reroll-card")
    page.wait_for_selector("#reroll-card .odds")
    assert "rolled 1" in card.inner_text() and "5/6" in card.inner_text()
    page.screenshot(path=str(artifacts / "dragoon-ffi-reroll.png"))
    page.click('#reroll-card button[data-action="reroll ffi"]')
    page.wait_for_selector("#log .ev-ffi_reroll")
    assert page.evaluate("window.warroomGame.payload.view.state.allied['3rd-ID'].ffi") is False
    assert not errors, errors
    context.close()


def test_a_finished_game_replays_step_by_step(live_server: Any, browser: Any, artifacts: Path) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": "dragoon", "seed": 5})
    game_id, token = created["id"], created["seats"][0]["token"]
    payload = created["game"]
    while not payload["view"]["over"]:
        payload = api(
            live_server,
            "POST",
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"action": "end", "move": payload["move"]},
        )
    context, page, errors = open_page(browser, f"{live_server.url}/play/{game_id}?token={token}")
    over = page.wait_for_selector("#game-over")
    assert "German victory" in over.inner_text()
    page.click("#game-over button.primary")
    bar = page.wait_for_selector("#replay-bar")
    last = payload["move"]
    assert f"step 0 of {last}" in bar.inner_text()
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert "step 2 of" in page.inner_text("#replay-bar")
    page.click("#replay-back")
    assert "step 1 of" in page.inner_text("#replay-bar") and "You chose: End Allied actions" in page.inner_text(
        "#replay-bar"
    )
    page.click("#replay-last")
    assert page.evaluate("document.querySelector('#turn').textContent") == "Turn 29 Aug"
    page.screenshot(path=str(artifacts / "dragoon-replay.png"))
    assert not errors, errors
    context.close()


def test_two_browsers_play_online_and_never_see_the_other_hand(
    live_server: Any, browser: Any, secret_cards: str, artifacts: Path
) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": secret_cards, "mode": "online"})
    game_id = created["id"]
    tokens = seat_tokens(server_post(live_server), created)
    match = live_server.app.state.service.live[game_id].match
    from web_secret_cards import CARDS

    def hidden_from(side: str) -> set[str]:
        other = "South" if side == "North" else "North"
        return (
            {CARDS[c] for c in match.state["hands"][other]} if game_id in live_server.app.state.service.live else set()
        )

    pages, frames, contexts = {}, {"North": [], "South": []}, []
    for side in ("North", "South"):
        context = browser.new_context(viewport={"width": 1100, "height": 700})
        context.set_default_timeout(SLOW_STATE_TIMEOUT_MS)
        page = context.new_page()
        page.set_default_timeout(SLOW_STATE_TIMEOUT_MS)
        page.on(
            "websocket",
            lambda ws, side=side: ws.on("framereceived", lambda payload, side=side: frames[side].append(payload)),
        )
        page.goto(f"{live_server.url}/play/{game_id}?token={tokens[side]}")
        page.wait_for_selector("#prompt h2, #prompt .waiting")
        if page.query_selector("#help-ok"):
            page.click("#help-ok")
        pages[side], contexts = page, [*contexts, context]
    for _ in range(4):
        match = live_server.app.state.service.live[game_id].match
        side, move = match.to_act, len(match.actions)
        for seat, page in pages.items():
            page.wait_for_function("m => window.warroomGame.payload && window.warroomGame.payload.move === m", arg=move)
            hidden = hidden_from(seat)
            html = page.content()
            seen = " ".join(str(f) for f in frames[seat])
            assert not [c for c in hidden if c in html or c in seen], f"{seat} saw the other hand"
        pages[side].click("#prompt button.action")
        pages[side].wait_for_function("m => window.warroomGame.payload.move === m", arg=move + 1)
    for page in pages.values():
        page.wait_for_selector("#game-over")
    pages["South"].screenshot(path=str(artifacts / "online-two-browsers.png"))
    assert all(json.loads(f)["side"] == "North" for f in frames["North"] if f.startswith("{"))
    for context in contexts:
        context.close()


def test_hot_seat_passes_the_device_between_sides(live_server: Any, browser: Any, secret_cards: str) -> None:
    context, page, errors = open_page(browser, live_server.url + "/")
    page.wait_for_selector("#new-game-select")
    page.select_option("#new-game-select", secret_cards)
    page.check('[data-mode="hotseat"] input')
    page.click("#start-game")
    page.wait_for_selector("#help-ok").click()
    north_hand = page.evaluate("window.warroomGame.payload.view.state.hand")
    assert page.evaluate("window.warroomGame.payload.side") == "North"
    page.click("#prompt button.action")
    ready = page.wait_for_selector("#pass-ready")
    assert "South" in ready.inner_text()
    assert not [c for c in north_hand if c in page.inner_text("#overlay")]
    ready.click()
    page.wait_for_function("() => window.warroomGame.payload.side === 'South'")
    south_hand = page.evaluate("window.warroomGame.payload.view.state.hand")
    assert not set(south_hand) & set(north_hand)
    assert not errors, errors
    context.close()
