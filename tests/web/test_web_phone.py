"""The lobby and every board on a phone held upright (390 x 844, mobile emulation in a real headless chromium):
nothing wider than the screen, so the page never scrolls sideways, and "Start the game" can be tapped.

Mobile emulation widens the layout viewport to the widest thing on the page, so a page that overflows shows as a
`document.documentElement.scrollWidth` over 390: the measure every check here takes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from patience import SLOW_STATE_TIMEOUT_MS
from web_pages import api

from warroom.games import game_ids, get_spec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PHONE = {"width": 390, "height": 844}
BOARD_GAMES = [g for g in game_ids() if get_spec(g).board is not None]
MODES = ("computer", "hotseat", "online", "table")
WIDTH = "() => document.documentElement.scrollWidth"
WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter((el) => !el.closest('svg') && el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 5).map((el) => `${el.tagName}#${el.id}.${el.className}`)"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3)
    context.set_default_timeout(SLOW_STATE_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def fits(page: Any, what: str) -> None:
    width = page.evaluate(WIDTH)
    assert width <= PHONE["width"], f"{what} is {width} px wide on a {PHONE['width']} px phone: {page.evaluate(WIDEST)}"


def test_the_lobby_fits_a_phone_and_start_can_be_tapped(live_server: Any, phone: Any) -> None:
    page = phone
    page.goto(live_server.url + "/")
    page.wait_for_selector("#start-game")
    fits(page, "the lobby")
    page.click("details.more summary")
    for game in page.eval_on_selector_all("#new-game-select option", "options => options.map((o) => o.value)"):
        page.select_option("#new-game-select", game)
        for mode in MODES:  # each mode shows its own controls (sides, computer player, seed) and the game's options
            page.click(f'.mode[data-mode="{mode}"]')
            fits(page, f"the lobby with {game}, {mode}")
    page.select_option("#new-game-select", BOARD_GAMES[0])
    page.click('.mode[data-mode="hotseat"]')
    start = page.locator("#start-game")
    start.scroll_into_view_if_needed()
    box = start.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    on_top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('#start-game') !== null", centre)
    assert on_top  # nothing covers it
    page.tap("#start-game")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("#prompt")
    fits(page, f"the new {BOARD_GAMES[0]} game")


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_each_board_fits_a_phone(live_server: Any, phone: Any, game: str) -> None:
    page = phone
    created = api(live_server, "POST", "/api/games", json={"game": game, "mode": "hotseat", "seed": 1})
    page.goto(f"{live_server.url}/play/{created['id']}?token={created['seats'][0]['token']}")
    page.wait_for_selector("#help-ok")
    fits(page, f"{game}'s help")
    page.click("#help-ok")
    page.wait_for_selector("#board")
    page.wait_for_selector("#prompt h2")
    fits(page, f"{game}'s board")
    page.click("details.menu summary")
    page.wait_for_selector("#download")
    fits(page, f"{game}'s board with the menu open")
