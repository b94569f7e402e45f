"""What a newcomer reads on the board (issue 12, items 17-19): no banner over a unit's name, no counter
over another in a box, Air in the log's convention, a readable end screen, and help that names its rules."""

from __future__ import annotations

import random
import re
from typing import Any

from web_pages import api, new_page

import warroom


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def open_game(live_server: Any, browser: Any, created: dict[str, Any]) -> tuple[Any, Any, list[str]]:
    token = next(seat["token"] for seat in created["seats"] if "token" in seat)
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/play/{created['id']}?token={token}")
    page.wait_for_selector("#board")
    return context, page, errors


def test_dragoon_board_reads_clearly(live_server: Any, browser: Any) -> None:
    created = api(live_server, "POST", "/api/games", json={"game": "dragoon", "seed": 3})
    context, page, errors = open_game(live_server, browser, created)
    # item 19: the help names the rule each paragraph summarises
    help_text = page.wait_for_selector(".help").inner_text()
    for rule in (
        "Dragoon: Resolving Unit Attacks",
        "Dragoon: Air Support",
        "Dragoon: How to Win",
        "Dragoon: French Forces of the Interior",
    ):
        assert rule in help_text
    page.click("#help-ok")
    # item 17: the five German units waiting at Arles stand side by side, none over another
    arrivals = page.locator("#board .counter.german").evaluate_all(
        "els => els.filter(e => e.closest('svg') && e.getAttribute('transform'))"
        ".map(e => ({id: e.dataset.unit, box: e.querySelector('.body').getBoundingClientRect().toJSON()}))"
    )
    arrival_box = page.locator("#board .box-arrival rect").first.bounding_box()
    waiting = [a for a in arrivals if boxes_overlap(a["box"], arrival_box)]
    assert len(waiting) == 5, waiting
    for i, a in enumerate(waiting):
        for b in waiting[i + 1 :]:
            assert not boxes_overlap(a["box"], b["box"]), (a["id"], b["id"])
    # a DESP band never covers the unit's designation (the 11th PzD starts desperate)
    band = page.locator("#board .counter.desperate .status-band").first.bounding_box()
    name = page.locator("#board .counter.desperate .cname").first.bounding_box()
    assert band and name and not boxes_overlap(band, name)
    # the Air box speaks the log's convention (a DRM added to the die) and its text stays inside the box
    air_text = page.locator("#board .air-marker .air-text").first
    assert "DRM +1" in air_text.inner_html()
    text_box, rect_box = air_text.bounding_box(), page.locator("#board .air-marker rect").first.bounding_box()
    assert text_box["x"] + text_box["width"] <= rect_box["x"] + rect_box["width"] + 0.5
    # the selectable glow is strong: a thick, filled halo
    halo = page.locator("#board .counter.selectable .halo").first
    assert float(halo.evaluate("e => parseFloat(getComputedStyle(e).strokeWidth)")) >= 6
    assert not errors, errors
    context.close()


def finished_bulge_record(seed: int = 21) -> dict[str, Any]:
    m = warroom.new_game("patton", "bulge", seed=seed)
    rng = random.Random(seed)
    while not m.over:
        legal = m.legal_actions()
        m.play("end" if "end" in legal and rng.random() < 0.3 else rng.choice(legal))
    return m.record().to_json()


def test_patton_end_screen_speaks_words_not_keys(live_server: Any, browser: Any) -> None:
    created = api(live_server, "POST", "/api/games/upload", json={"record": finished_bulge_record(), "mode": "hotseat"})
    context, page, errors = open_game(live_server, browser, created)
    # a finished game's end card replaces the first visit's help once the log is loaded: wait for it
    page.click("#game-over >> text=Look at the board")
    score = page.wait_for_selector("#final-score").inner_text()
    assert "_" not in score and not re.search(r"\b(true|false)\b", score), score  # item 18: no raw keys or booleans
    turn = re.search(r"Ended in turn (\d+) of (\d+)", score)
    assert turn and int(turn.group(1)) <= int(turn.group(2)), score
    header = page.locator("#turn").inner_text()
    assert f"Turn {turn.group(1)} of {turn.group(2)}" == header  # the end screen and the header count turns alike
    assert "relieved: " in score and "Units lost" in score
    page.click("button[title='How to play']")
    help_text = page.wait_for_selector(".help").inner_text()
    assert "Patton: The Movement Deck" in help_text and "Patton: Battles" in help_text
    assert not errors, errors
    context.close()


DIE_FACES = """async () => {
  const { dieFace } = await import("/static/js/svg.js");
  const out = [];
  for (let value = 1; value <= 12; value += 1) {
    const face = dieFace(value, 0, 0, 36);
    out.push({ value, pips: face.querySelectorAll(".pip").length,
               number: (face.querySelector(".die-number") || { textContent: "" }).textContent });
  }
  return out;
}"""


def test_every_die_face_shows_its_value_d6_and_d12_alike(live_server: Any, browser: Any) -> None:
    # issue 38, 8: a d12's 7-12 were drawn as a blank face in "What just happened" (pips only went to 6)
    context, page, errors = new_page(browser)
    page.goto(f"{live_server.url}/")
    for face in page.evaluate(DIE_FACES):
        if face["value"] <= 6:
            assert face["pips"] == face["value"] and face["number"] == "", face
        else:
            assert face["pips"] == 0 and face["number"] == str(face["value"]), face  # no blank face
    assert not errors, errors
    context.close()
