"""A game's rules options: described in the catalog, checked when a game is made, switched on in the
lobby, shown on the game page. Patton has three (the Optional Retreating Rule, who places his own
Units, Sicily's turn limit); Operation Dragoon has none.

Screenshots go to test-artifacts/. The server runs in this process on a free loopback port.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_pages import new_page  # noqa: E402

from warroom.games.patton.board import load_board
from warroom.games.patton.options import OPTIONS, PLACEMENTS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def catalog_options(client: Any) -> dict[str, list[dict[str, Any]]]:
    return {g["id"]: g["options"] for g in client.get("/api/catalog").json()["games"]}


def test_the_catalog_describes_each_games_rules_options(client: Any) -> None:
    options = catalog_options(client)
    # Dragoon's contested readings are rules options too (issue 12, item 22)
    assert [o["key"] for o in options["dragoon"]] == [
        "panzer_counterattack",
        "montelimar_infantry",
        "panzer_to_montelimar",
    ]
    patton = {o["key"]: o for o in options["patton"]}
    assert set(patton) == OPTIONS  # every option the rules know, and no other
    for o in patton.values():
        assert o["kind"] in ("bool", "choice", "int") and o["label"] and o["help"] and o["rule"].startswith("Patton")
    advanced = patton["advanced_retreat"]
    assert (advanced["kind"], advanced["default"], advanced["label"]) == (
        "bool",
        False,
        "Optional Retreating Rule for Advanced Players",
    )
    placement = patton["placement"]
    assert placement["kind"] == "choice" and placement["default"] == "default"
    assert [c["value"] for c in placement["choices"]] == list(PLACEMENTS)
    # Sicily's Allies start at sea (Patton: Sicily): only the Axis can place there
    offered = {
        sc: [c["value"] for c in placement["choices"] if sc in c.get("scenarios", [sc])]
        for sc in ("normandy", "bulge", "sicily")
    }
    assert offered == {"normandy": list(PLACEMENTS), "bulge": list(PLACEMENTS), "sicily": ["default", "Axis"]}
    limit = patton["turn_limit"]
    assert (limit["kind"], limit["scenarios"], limit["default"], limit["min"]) == (
        "int",
        ["sicily"],
        load_board("sicily").turn_limit,
        1,
    )


def test_a_patton_game_starts_with_the_options_chosen(client: Any) -> None:
    created = client.post(
        "/api/games",
        json={
            "game": "patton",
            "scenario": "normandy",
            "mode": "hotseat",
            "options": {"advanced_retreat": True, "placement": "manual"},
        },
    )
    assert created.status_code == 201, created.text
    game = created.json()["game"]
    state = game["view"]["state"]
    # Patton: Positioning of Units: the American places first, by hand
    assert (
        state["phase"] == "placement"
        and game["view"]["to_act"] == "Allied"
        and state["options"]["advanced_retreat"] is True
    )
    assert "place default" in game["view"]["legal"] and any(
        a.startswith("place ") and a != "place default" for a in game["view"]["legal"]
    )
    assert client.app.state.store.load(game["id"]).header["options"] == {
        "advanced_retreat": True,
        "placement": "manual",
    }
    shown = {o["key"]: o for o in game["options"]}
    assert set(shown) == {"advanced_retreat", "placement"}
    assert shown["advanced_retreat"]["chip"] == "Advanced retreat" and shown["placement"]["text"] == "Both players"
    # the seat's view carries the options from then on, after a reload too
    token = created.json()["seats"][0]["token"]
    again = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
    assert again["options"] == game["options"]

    sicily = client.post(
        "/api/games",
        json={
            "game": "patton",
            "scenario": "sicily",
            "mode": "hotseat",
            "options": {"turn_limit": 20, "placement": "Axis"},
        },
    ).json()["game"]
    assert sicily["view"]["state"]["options"]["turn_limit"] == 20 and sicily["view"]["state"]["phase"] == "placement"
    assert sicily["view"]["to_act"] == "Axis"  # the Allies are at sea: the Axis places
    assert [o["chip"] for o in sicily["options"]] == ["Placed by hand: Axis only", "Turn limit: 20"]

    plain = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": "hotseat"}).json()["game"]
    assert plain["options"] == [] and plain["view"]["state"]["phase"] != "placement"


@pytest.mark.parametrize(
    ("game", "scenario", "options", "words"),
    [
        ("patton", "normandy", {"placement": "both"}, ["'placement'", "'manual'", "'both'"]),
        ("patton", "normandy", {"advanced_retreat": "yes"}, ["'advanced_retreat'", "true or false"]),
        ("patton", "sicily", {"turn_limit": 0}, ["'turn_limit'", "from 1 to 99"]),
        ("patton", "sicily", {"turn_limit": "20"}, ["'turn_limit'", "'20'"]),
        ("patton", "normandy", {"turn_limit": 20}, ["'turn_limit'", "only for the scenario sicily"]),
        ("patton", "sicily", {"placement": "Allied"}, ["'placement'", "'Allied'", "in sicily"]),
        ("patton", None, {"advance_retreat": True}, ["'advance_retreat'", "advanced_retreat"]),
        (
            "dragoon",
            None,
            {"advanced_retreat": True},
            ["'advanced_retreat'", "Operation Dragoon", "montelimar_infantry"],
        ),
    ],
)
def test_a_bad_rules_option_is_refused_by_name(
    client: Any, game: str, scenario: str | None, options: dict[str, Any], words: list[str]
) -> None:
    response = client.post(
        "/api/games", json={"game": game, "scenario": scenario, "mode": "hotseat", "options": options}
    )
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_option"
    for word in words:
        assert word in error["message"]


def click_town(page: Any, town: str) -> None:
    page.click(f'#board .p-town[data-town="{town}"] .p-spot', force=True)


def wait_move(page: Any, move: int) -> None:
    page.wait_for_function(
        "m => window.warroomGame.payload && window.warroomGame.payload.move >= m "
        "&& !document.body.classList.contains('busy')",
        arg=move,
    )


def state_of(page: Any) -> dict[str, Any]:
    return page.evaluate("window.warroomGame.payload")


def pass_device(page: Any, to: str) -> None:
    page.wait_for_selector("#pass-ready")
    assert f"Pass the device to {to}" in page.inner_text("#overlay")
    page.click("#pass-ready")
    page.wait_for_function("s => window.warroomGame.payload.side === s", arg=to)


def test_the_lobby_switches_on_patton_options_and_the_hot_seat_game_opens_with_placement(
    live_server: Any, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser)
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST" and r.url.endswith("/api/games") else None,
    )
    page.goto(live_server.url + "/")
    page.wait_for_selector("#new-game-select")
    page.select_option("#new-game-select", "dragoon")
    assert page.locator("#option-montelimar_infantry").count() == 1  # Operation Dragoon's contested readings
    page.select_option("#new-game-select", "patton")
    page.select_option("#new-scenario", "sicily")
    assert page.is_visible("#option-turn_limit")
    assert [o.get_attribute("value") for o in page.locator("#option-placement option").all()] == ["default", "Axis"]
    page.select_option("#new-scenario", "normandy")
    assert page.locator("#option-turn_limit").count() == 0  # a Sicily option
    assert "Optional Retreating Rule for Advanced Players" in page.inner_text("#rules-options")
    assert not page.is_checked("#option-advanced_retreat")
    page.check("#option-advanced_retreat")
    page.select_option("#option-placement", "manual")
    page.check('[data-mode="hotseat"] input')
    page.screenshot(path=str(artifacts / "patton-lobby-rules-options.png"))
    page.click("#start-game")
    page.wait_for_selector("#help-ok")
    assert sent == [
        {
            "game": "patton",
            "mode": "hotseat",
            "scenario": "normandy",
            "options": {"advanced_retreat": True, "placement": "manual"},
        }
    ]
    assert "Optional Retreating Rule for Advanced Players: on." in page.inner_text("#overlay")
    page.click("#help-ok")

    # the game page says which options are on, and the American places his Units first
    chips = page.locator("#hud .rules-chip")
    assert chips.all_inner_texts() == ["Advanced retreat", "Placed by hand: both players"]
    assert "Optional Retreating Rule" in chips.first.get_attribute("title")
    p = state_of(page)
    assert p["side"] == "Allied" and p["view"]["state"]["phase"] == "placement"
    page.wait_for_selector("#prompt h2:text('Place your Units')")
    assert "12 Armored and 12 Infantry still to place" in page.inner_text("#prompt")
    page.wait_for_selector("#board .p-town.target")
    town = page.locator("#board .p-town.target").first.get_attribute("data-town")
    click_town(page, town)
    page.wait_for_selector("#confirm button.action")
    placed = page.get_attribute("#confirm button.action", "data-action")
    assert placed.startswith("place ") and placed.endswith(f" {town}")
    page.click("#confirm button.action")
    wait_move(page, 1)
    here = state_of(page)["view"]["state"]["towns"][town]
    assert here["side"] == "Allied" and here["armor"] + here["infantry"] > 0
    page.screenshot(path=str(artifacts / "patton-placement-allied.png"))
    assert page.locator('#prompt button[data-action="place default"]').count() == 0  # only before placing anything
    for _ in range(12):  # the rest of the 24 Units, by the map, the largest group the chooser offers
        p = state_of(page)
        if p["view"]["to_act"] != "Allied":
            break
        town = page.locator("#board .p-town.target").first.get_attribute("data-town")
        click_town(page, town)
        page.wait_for_selector("#confirm button.action")
        page.click("#confirm button.action")
        wait_move(page, p["move"] + 1)
    placed = {t: v for t, v in state_of(page)["view"]["state"]["towns"].items() if v["side"] == "Allied"}
    assert sum(v["armor"] for v in placed.values()) == 12 and sum(v["infantry"] for v in placed.values()) == 12

    # the German places next (the default setup, offered before he places anything), then the American's first move
    pass_device(page, "Axis")
    assert state_of(page)["view"]["state"]["phase"] == "placement"
    page.wait_for_selector("#prompt h2:text('Place your Units')")
    page.click('#prompt button[data-action="place default"]')
    pass_device(page, "Allied")
    page.wait_for_function("() => window.warroomGame.payload.view.state.phase === 'movement'")
    page.wait_for_selector("#prompt h2:text('Your move')")
    assert page.inner_text("#turn") == "Turn 1 of 12"
    state = state_of(page)["view"]["state"]
    assert state["towns"][town]["side"] == "Allied" and state["options"]["advanced_retreat"] is True
    assert any(a.startswith("move ") for a in state_of(page)["view"]["legal"])
    assert page.locator("#hud .rules-chip").count() == 2
    assert not errors, errors
    context.close()


def test_a_sicily_turn_limit_from_the_lobby_sets_the_turn_track(live_server: Any, browser: Any) -> None:
    context, page, errors = new_page(browser)
    page.goto(live_server.url + "/")
    page.select_option("#new-game-select", "patton")
    page.select_option("#new-scenario", "sicily")
    page.fill("#option-turn_limit", "20")
    page.check('[data-mode="hotseat"] input')
    page.click("#start-game")
    page.wait_for_selector("#help-ok").click()
    assert page.inner_text("#turn") == "Turn 1 of 20"
    assert page.locator("#board .p-turn-cell").count() == 20
    assert page.locator("#hud .rules-chip").all_inner_texts() == ["Turn limit: 20"]
    assert "ends after turn 20" in page.inner_text("#score")  # Sicily has no limit of its own: the option adds one
    game_id = page.evaluate("window.warroomGame.id")
    assert live_server.app.state.store.load(game_id).header["options"] == {"turn_limit": 20}
    assert not errors, errors
    context.close()
