"""Patton's First Victory: Tunisia in a real (headless) chromium: a game is created, the map draws (18 x 25 hexes,
rivers, bridges and the orange border on hexsides, roads, places, airfields), the counters stand on their hexes,
a click on a unit lights up the hexes it can reach with their MP cost (8.0), and a click on one moves it; the
ZOC overlay shows on request. Screenshots go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_pages import api, new_page

from warroom.games import registered

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "tunisia"


@pytest.fixture(scope="module", autouse=True)
def _tunisia() -> Iterator[None]:
    with registered(GAME, "warroom.games.tunisia.spec:SPEC"):
        yield


def test_the_map_draws_and_a_unit_moves_by_clicks(live_server: Any, browser: Any, artifacts: Path) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 1})
    token = created["seats"][0]["token"]
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{created['id']}?token={token}")
    page.wait_for_selector("#help-ok").click()
    page.wait_for_selector('#board .counter[data-unit="Broich"]')

    assert page.locator("#board polygon.hex").count() == 18 * 25
    assert page.locator("#board .hexside-river").count() > 10 and page.locator("#board .hexside-bridge").count() > 5
    assert page.locator("#board .hexside-border").count() > 10  # 5.1A: the orange-dashed border
    assert page.locator("#board .path-road").count() > 5 and page.locator("#board .path-railway").count() >= 1
    assert page.locator('#board .place-mark.place-port[data-place="8407"]').count() == 1  # Tunis, a port (4.0A)
    assert page.locator("#board .hex-mark.airfield").count() >= 10
    assert page.locator('#board .stack[data-hex="8306"] .counter[data-unit="Broich"].side-axis.selectable').count() == 1
    assert page.text_content('#board .counter[data-unit="Broich"] .counter-values') == "3-3"  # 2.2A: CF 3, MA 3
    assert page.locator('#board .counter[data-unit="6th-Armd"].selectable').count() == 0  # the Axis moves first (7.0)

    # a click on Broich: its reachable hexes light up with their MP cost, from the server's move descriptors
    page.click('#board .counter[data-unit="Broich"]')
    page.wait_for_selector("#board .hex-highlight.reach")
    moves = page.evaluate(
        "() => window.warroomGame.payload.actions.filter((d) => d.unit === 'Broich' && d.kind === 'move')"
    )
    assert page.locator("#board .hex-highlight.reach").count() == len({d["to"] for d in moves}) > 3
    cost = {d["to"]: d["cost"] for d in moves}["8406"]
    assert page.get_attribute('#board .hex-highlight.reach[data-hex="8406"]', "data-cost") == f"{cost:g}"
    assert "hexes in reach" in page.inner_text("#unit-card")
    page.screenshot(path=str(artifacts / "tunisia-reach.png"))

    # a click on 8406 moves Broich there: the server's state, the log, the counter on its new hex
    page.click('#board .hex-highlight.reach[data-hex="8406"]')
    page.wait_for_function("() => window.warroomGame.payload.view.state.pieces.Broich.at === '8406'")
    page.wait_for_selector('#board .stack[data-hex="8406"] .counter[data-unit="Broich"].done')
    assert "Division von Broich moves from 8306 to 8406" in page.inner_text("#log")

    # ZOC on request (9.0): the hexes next to Allied units light up
    page.click("#show-zoc")
    page.wait_for_selector("#board .hex-highlight.zoc")
    assert page.locator("#board .hex-highlight.zoc").count() > 20
    page.screenshot(path=str(artifacts / "tunisia-zoc.png"))
    assert not errors, errors
    context.close()


def test_an_attack_lights_its_target_and_shows_every_air_choice_with_exact_odds(live_server: Any, browser: Any) -> None:
    # Tunisia 7.3A, 11.0: the 21st Panzer in 8213 may attack 8113, alone or with either Axis air asset
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 1})
    token = created["seats"][0]["token"]
    api(
        live_server,
        "POST",
        f"/api/games/{created['id']}/actions",
        params={"token": token},
        json={"action": "end", "move": created["game"]["move"]},
    )
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{created['id']}?token={token}")
    page.wait_for_selector("#help-ok").click()
    attacker = page.evaluate(
        "() => Object.entries(window.warroomGame.payload.view.state.pieces)"
        ".find(([id, p]) => p.at === '8213' && window.warroomGame.layout.units[id].unit)[0]"
    )
    page.click(f'#board .counter[data-unit="{attacker}"]')
    target = page.wait_for_selector('#board .hex-highlight.target[data-hex="8113"]')
    assert target.get_attribute("data-cost") is None  # an attack costs no MP
    target.click()
    page.wait_for_selector("#confirm .odds")
    confirm = page.inner_text("#confirm")
    assert "Attack from 8213 into 8113" in confirm and "with" in confirm  # with and without air (7.3A)
    assert page.locator("#confirm button.action").count() == 3
    assert "%" in confirm  # the exact joint outcome (odds.py)
    assert not errors, errors
    context.close()
