"""The shared hex map kit in a real (headless Debian) chromium, through the test-only hex game
(tests/games/hexes): the map draws (every hex, the river on its hexsides, the bridge, the road, the town),
the counters stand on their hexes, a click on a unit lights up the hexes it can reach with their MP cost,
and a click on one of them makes the move; an adjacent enemy lights up as a target and its attack shows
its odds; a map as large as the hex games' draws quickly (its work counted, not timed).

The game joins the live server (in this process) through the registry, as bluff does. Screenshots go to
test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_pages import api, new_page, seat_tokens, server_post

from warroom.engine.hexgrid import HexGrid
from warroom.games import registered
from warroom.web.hexmap import HexPath, hex_layout

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "hexskirmish"


@pytest.fixture(scope="module", autouse=True)
def _hex_game() -> Iterator[None]:
    with registered(GAME, "games.hexes.spec:SPEC"):
        yield


def test_the_hex_map_draws_and_a_unit_moves_by_clicks(live_server: Any, browser: Any, artifacts: Path) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 1})
    token = created["seats"][0]["token"]
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{created['id']}?token={token}")
    page.wait_for_selector("#help-ok").click()
    page.wait_for_selector('#board .counter[data-unit="R1"]')

    # the map: 7 x 6 hexes, 11 river hexsides with one bridge, the road, the town; four counters on their hexes
    assert page.locator("#board polygon.hex").count() == 42
    assert page.locator("#board polygon.hex.terrain-forest").count() == 4
    assert page.locator("#board .hexside-river").count() == 11
    assert page.locator('#board .hexside-bridge[data-hexside="0403/0503"]').count() == 1
    assert page.locator("#board .path-road").count() == 1
    assert page.text_content('#board .place-name[data-place="0403"]') == "Town"
    assert page.locator('#board .place-mark.place-town[data-place="0403"]').count() == 1
    assert page.locator("#board .counter[data-unit]").count() == 4
    assert page.locator('#board .stack[data-hex="0102"] .counter[data-unit="R1"].side-red.selectable').count() == 1
    assert page.locator('#board .counter[data-unit="B1"].selectable').count() == 0  # not Blue's turn
    # the river is drawn on the hexside: its two ends are corners of both hexes (drawn as polygon points)
    shared = page.evaluate(
        """() => {
          const line = document.querySelector('#board .hexside-river[data-hexside="0405/0505"]');
          const corners = (label) =>
            document.querySelector(`#board polygon.hex[data-hex="${label}"]`).getAttribute("points").split(" ");
          const end = (k) => `${line.getAttribute("x" + k)},${line.getAttribute("y" + k)}`;
          const ends = [end(1), end(2)];
          return ends.every((p) => corners("0405").includes(p) && corners("0505").includes(p));
        }"""
    )
    assert shared

    # a click on R1: its 14 reachable hexes light up with their MP cost (from the server's move descriptors)
    page.click('#board .counter[data-unit="R1"]')
    page.wait_for_selector("#board .hex-highlight.reach")
    assert page.locator("#board .hex-highlight.reach").count() == 14
    town = page.locator('#board .hex-highlight.reach[data-hex="0403"]')
    assert (
        town.get_attribute("data-cost") == "2.5" and town.locator(".hex-cost").text_content() == "2½"
    )  # 1 MP, then 1/2 a hex on the road
    assert page.text_content('#board .hex-highlight.reach[data-hex="0105"] .hex-cost') == "3"
    assert page.locator('#board .counter[data-unit="R1"].selected').count() == 1
    assert "14 hexes in reach" in page.inner_text("#unit-card")
    page.screenshot(path=str(artifacts / "hexes-reach.png"))

    # a click on the town moves R1 there: the server's state, the log, the counter on its new hex
    town.click()
    page.wait_for_function("() => window.warroomGame.payload.view.state.units.R1.hex === '0403'")
    page.wait_for_selector('#board .stack[data-hex="0403"] .counter[data-unit="R1"].done')
    assert page.locator("#board .hex-highlight").count() == 0
    assert "R1 moves 0102 to 0403 (2.5 MP)" in page.inner_text("#log")
    assert page.locator('#board .counter[data-unit="R1"].selectable').count() == 0  # Hexes 5: it has acted

    # the counter drawer: every unit type's symbol, a reduced unit's stripe and steps, a stack with its count
    drawn = page.evaluate(
        """async () => {
          const kit = await import("/static/js/hexmap.js");
          const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
          const counters = kit.UNIT_TYPES.map((type, k) => ({ id: `u${k}`, type, side: "red", bottom: [4, 4, 6] }));
          counters.push({ id: "worn", type: "infantry", steps: 1, maxSteps: 2, label: "1/7" });
          kit.drawStack(g, { x: 0, y: 0, hex: "0101", counters, size: 40 });
          return {
            counters: g.querySelectorAll(".counter").length,
            emptySymbols: [...g.querySelectorAll(".unit-symbol")].filter((s) => s.children.length < 2).length,
            reduced: g.querySelectorAll(".counter.reduced .counter-reduced").length,
            lostSteps: g.querySelectorAll(".counter-step.lost").length,
            count: g.querySelector(".stack-count text").textContent,
            values: g.querySelector(".counter-values").textContent,
          };
        }"""
    )
    assert drawn == {"counters": 17, "emptySymbols": 0, "reduced": 1, "lostSteps": 1, "count": "17", "values": "4-4-6"}
    page.screenshot(path=str(artifacts / "hexes-moved.png"))
    assert not errors, errors
    context.close()


def test_an_adjacent_enemy_lights_up_as_a_target_and_the_attack_shows_its_odds(live_server: Any, browser: Any) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": GAME, "mode": "hotseat", "seed": 2})
    tokens = seat_tokens(server_post(live_server), created)
    move = created["game"]["move"]
    # Red takes the town, Blue comes over the bridge next to it (Hexes 3: its zone of control stops B1 there)
    for side, action in (
        ("Red", "move R1 0102->0403"),
        ("Red", "end"),
        ("Blue", "move B1 0703->0503"),
        ("Blue", "end"),
    ):
        path = f"/api/games/{created['id']}/actions"
        move = api(live_server, "POST", path, params={"token": tokens[side]}, json={"action": action, "move": move})[
            "move"
        ]
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{created['id']}?token={tokens['Red']}")
    page.wait_for_selector("#help-ok").click()
    page.focus('#board .counter[data-unit="R1"]')  # a selectable counter is a button: the keyboard selects it too
    page.keyboard.press("Enter")
    target = page.wait_for_selector('#board .hex-highlight.target[data-hex="0503"]')
    assert target.get_attribute("data-cost") is None  # an attack has no MP cost
    target.click()
    page.wait_for_selector("#confirm .odds")
    assert "3/6" in page.inner_text("#confirm")  # Hexes 4: infantry needs a 4, over the bridge no more
    page.click("#confirm button.action")
    page.wait_for_selector("#dice-tray [data-roll]")
    assert "R1 rolls" in page.inner_text("#log")
    assert not errors, errors
    context.close()


def test_a_450_hex_map_draws_quickly(live_server: Any, browser: Any) -> None:
    """As large as the hex games' maps: the kit draws 450 hexes (polygons, numbers) with work linear in its hexes
    and without once asking the browser for a layout. Counted, not timed (no test depends on the machine's
    speed): the elements it makes, and its calls that make the browser lay the page out."""
    grid = HexGrid(range(72, 90), range(1, 26))
    road = HexPath("road", [grid.at(f"80{row:02d}") for row in range(1, 26)])
    hex_map = hex_layout(grid, size=40, terrain=["rough" if i % 5 else "open" for i in range(grid.n)], paths=[road])
    context, page, errors = new_page(browser)
    page.goto(live_server.url + "/")
    drawn = page.evaluate(
        """async (map) => {
          const kit = await import("/static/js/hexmap.js");
          const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
          document.body.append(svg);
          const counted = { made: 0, layouts: 0 };
          const watched = [[document, "createElementNS", "made"], [document, "createElement", "made"],
            [Element.prototype, "getBoundingClientRect", "layouts"], [Element.prototype, "getClientRects", "layouts"],
            [SVGGraphicsElement.prototype, "getBBox", "layouts"], [window, "getComputedStyle", "layouts"]];
          const originals = watched.map(([on, name]) => on[name]);
          watched.forEach(([on, name, what], k) => {
            on[name] = function (...args) { counted[what] += 1; return originals[k].apply(this, args); };
          });
          try {
            const drawn = new kit.HexMap(svg, map);
            drawn.highlight(Object.fromEntries(map.hexes.slice(0, 40).map((h, k) => [h.label, k / 2])));
          } finally {
            watched.forEach(([on, name], k) => { on[name] = originals[k]; });
          }
          return { ...counted, hexes: svg.querySelectorAll("polygon.hex").length,
                   numbers: svg.querySelectorAll(".hex-number").length,
                   lit: svg.querySelectorAll(".hex-highlight").length };
        }""",
        hex_map,
    )
    assert (drawn["hexes"], drawn["numbers"], drawn["lit"]) == (450, 450, 40)
    # measured 1,520 elements: about 3 a hex (its polygon, its number) and 4 a lit hex; one per hex per hex would
    # be 200,000
    assert drawn["made"] < 5 * 450 and drawn["layouts"] == 0, drawn
    assert not errors, errors
    context.close()
