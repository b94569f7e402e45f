"""Panzer Saint-Lo 1944 in a real (headless Debian) chromium: the board draws (384 hexes, the rivers through
their hexes, the Command Post hexes), Command Posts are placed by clicks (pick a value, click a lit hex:
Saint-Lo 4.2), and after the setup a unit is moved by clicks (a glowing unit, its reachable hexes lit with
the Supply the move costs: 5.3, 6.1); the panel shows the seat's own Battle Reports and no other's.

The game joins the live server through the registry (`registered`), so this passes whether or not
warroom/games/__init__.py lists it. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_pages import api, new_page, seat_tokens, server_post

from warroom.games import registered

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "saintlo"


@pytest.fixture(scope="module", autouse=True)
def _saintlo() -> Iterator[None]:
    with registered(GAME, "warroom.games.saintlo.spec:SPEC"):
        yield


def _open(live_server: Any, browser: Any, game_id: str, token: str) -> tuple[Any, Any, list[str]]:
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{game_id}?token={token}")
    page.wait_for_selector("#help-ok").click()
    page.wait_for_selector("#board polygon.hex")
    return context, page, errors


def test_command_posts_are_placed_by_clicks(live_server: Any, browser: Any, artifacts: Path) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 1})
    token = created["seats"][0]["token"]
    context, page, errors = _open(live_server, browser, created["id"], token)
    assert page.locator("#board polygon.hex").count() == 384
    assert page.locator("#board .path-river").count() == 2  # the Vire and the Elle, through their hexes
    assert page.locator("#board .path-road").count() >= 10
    for placed in (1, 2):
        page.click('button.place-kind[data-place="5"]' if placed == 1 else "button.place-kind >> nth=0")
        page.wait_for_selector("#board .hex-highlight.reach")
        lit = page.locator("#board .hex-highlight.reach").first
        lit.click()
        page.wait_for_function(
            f"() => window.warroomGame.payload.view.state.posts.filter((p) => p.hex).length === {placed}"
        )
        page.wait_for_selector(f"#board .counter.command-post >> nth={placed - 1}")
    assert page.locator("#board .counter.command-post.side-allied").count() == 2
    assert "Command Post" in page.inner_text("#log")
    page.screenshot(path=str(artifacts / "saintlo-posts.png"))
    assert not errors, errors
    context.close()


def _through_setup(live_server: Any, game_id: str, tokens: dict[str, str], until: Any) -> str:
    """Play the setup over the API (each seat's first legal action) until `until(view)` holds for the seat to
    decide; that seat."""
    for _ in range(400):
        views = {
            side: api(live_server, "GET", f"/api/games/{game_id}", params={"token": t}) for side, t in tokens.items()
        }
        side = next((s for s, v in views.items() if v["view"]["legal"]), None)
        assert side is not None
        view = views[side]
        if until(view["view"]):
            return side
        api(
            live_server,
            "POST",
            f"/api/games/{game_id}/actions",
            params={"token": tokens[side]},
            json={"action": view["view"]["legal"][0], "move": view["move"]},
        )
    raise AssertionError("the setup did not end")


def test_after_the_setup_a_unit_moves_by_clicks(live_server: Any, browser: Any, artifacts: Path) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 2})
    tokens = seat_tokens(server_post(live_server), created)
    # Saint-Lo 4.3: while the Axis deploys, it sees the Allied units as backs on their hexes, not what they are
    side = _through_setup(
        live_server, created["id"], tokens, lambda v: v["state"]["phase"] == "deploy" and v["to_act"] == "Axis"
    )
    context, page, errors = _open(live_server, browser, created["id"], tokens[side])
    page.wait_for_selector("#board .counter.back")
    assert page.locator("#board .counter.back.side-allied").count() == 65
    assert page.locator("#board .counter.back.side-allied .symbol-aircraft").count() == 11
    assert page.locator('#board .counter[data-unit^="us_"]').count() == 0
    page.screenshot(path=str(artifacts / "saintlo-backs.png"))
    context.close()
    side = _through_setup(
        live_server,
        created["id"],
        tokens,
        lambda v: v["state"]["phase"] == "actions" and any(a.startswith("move ") for a in v["legal"]),
    )
    context, page, errors = _open(live_server, browser, created["id"], tokens[side])
    page.wait_for_selector("#board .counter.selectable")
    assert page.locator("#board .counter[data-unit]").count() >= 130 + 16  # every unit and Command Post
    hand = page.inner_text("#hand")
    assert hand.strip()  # the seat's own Battle Reports, with their text
    # a unit alone on its hex (an aircraft over a land unit would take the click: 7.4)
    unit = page.evaluate("""() => [...document.querySelectorAll('#board .stack')]
      .filter((st) => st.querySelectorAll('.counter').length === 1 && st.querySelector('.counter.selectable'))
      .map((st) => st.querySelector('.counter').dataset.unit)[0]""")
    page.click(f'#board .counter[data-unit="{unit}"]')
    page.wait_for_selector("#board .hex-highlight.reach")
    target = page.locator("#board .hex-highlight.reach").first
    to = target.get_attribute("data-hex")
    assert target.get_attribute("data-cost") in ("0", "1")  # the Supply the move costs (5.3, 7.1)
    page.screenshot(path=str(artifacts / "saintlo-reach.png"))
    target.click()
    page.wait_for_function(f"() => window.warroomGame.payload.view.state.units['{unit}'].hex === '{to}'")
    log = page.inner_text("#log")
    assert f"moves to {to}." in log and unit not in log  # the counter by its name and hex, never its id
    page.screenshot(path=str(artifacts / "saintlo-moved.png"))
    assert not errors, errors
    context.close()


def test_the_rest_is_deployed_with_one_click(live_server: Any, browser: Any, artifacts: Path) -> None:
    # Saint-Lo 4.3 (placement.py): the deployments in bulk are buttons above the counters to pick; one click on
    # "Deploy the rest for me" deploys all 65, face down, and hands the deployment to the Axis
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 3})
    tokens = seat_tokens(server_post(live_server), created)
    for side in ("Allied", "Axis"):  # 4.2: each army's Command Posts, the computer's way
        view = api(live_server, "GET", f"/api/games/{created['id']}", params={"token": tokens[side]})
        api(
            live_server,
            "POST",
            f"/api/games/{created['id']}/actions",
            params={"token": tokens[side]},
            json={"action": "ready", "move": view["move"]},
        )
    context, page, errors = _open(live_server, browser, created["id"], tokens["Allied"])
    page.wait_for_selector('.bulk-setup button[data-action="ready"]')
    order = page.evaluate(
        """() => [...document.querySelectorAll('.bulk-setup, .placements')].map((e) => e.className)"""
    )
    assert order == ["bulk-setup", "placements"]  # offered first, before one-by-one placement
    assert "Deploy the rest for me" in page.inner_text('.bulk-setup button[data-action="ready"]')
    assert page.locator('.bulk-setup button[data-action="sector west"]').count() == 1
    page.screenshot(path=str(artifacts / "saintlo-bulk.png"))
    page.click('.bulk-setup button[data-action="ready"]')
    page.wait_for_function("() => window.warroomGame.payload.view.to_act === 'Axis'")
    units = page.evaluate("() => window.warroomGame.payload.view.state.units")
    assert sum(1 for uid in units if uid.startswith("us_")) == 65
    assert "65 counters face down" in page.inner_text("#log")
    assert not errors, errors
    context.close()
