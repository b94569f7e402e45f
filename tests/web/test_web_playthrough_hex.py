"""The two hex-and-counter games played through in a real (headless Debian) chromium, by clicks on the board and
the panel's buttons, as a player plays them.

- Patton's First Victory: Tunisia against the computer (started from the lobby, the human the Axis): a whole
  Axis player-turn by clicks (a move, an attack confirmed after its exact odds, every decision the page asks in
  place), the computer's Allied turn, turn 2; a reload shows the same position.
- Panzer Saint-Lo 1944, hot-seat, turn limit 1: the setup over the API with the seat tokens, then both armies'
  turn by clicks, the device passed between the players, to the end of the game; no seat ever sees the other's
  Battle Reports.
- Panzer Saint-Lo 1944 for four (10): one human seat and three computer seats, to the end of the game; the hands
  stay with their seats.

Screenshots go to test-artifacts/. The server runs in this process (its computer seats think in worker processes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from web_pages import api, new_page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

READY = (
    "() => { const g = window.warroomGame; if (!g || !g.payload || g.busy) return false;"
    " const pass = document.querySelector('#overlay:not([hidden]) #pass-ready');"
    " return !!pass || g.payload.view.over || g.payload.view.legal.length > 0; }"
)
"""The page waits for this seat (its legal list), for the device to be passed (hot-seat), or shows the end."""


def payload(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.warroomGame.payload")


def wait_ready(page: Any) -> dict[str, Any]:
    page.wait_for_function(READY)
    return payload(page)


def click_and_wait(page: Any, selector: str) -> None:
    """Click a control that plays an action; wait for the position after it."""
    move = payload(page)["move"]
    page.click(selector)
    page.wait_for_function("m => window.warroomGame.payload.move > m && !window.warroomGame.busy", arg=move)


def wait_odds(page: Any) -> None:
    """The page asks the server for the exact odds of the position's dice actions once it is shown."""
    page.wait_for_function("() => { const g = window.warroomGame; return g.odds.move === g.payload.move; }")


def start_from_lobby(page: Any, url: str, game: str, mode: str, seed: int, **choices: str) -> str:
    """A game started from the lobby as a player starts one; the game's id."""
    page.goto(url + "/")
    page.select_option("#new-game-select", game)
    page.check(f'[data-mode="{mode}"] input')
    if "side" in choices:
        page.select_option("#new-side", choices["side"])
    if "turn_limit" in choices:
        page.fill("#option-turn_limit", choices["turn_limit"])
    page.click("details.more summary")
    page.fill("#new-seed", str(seed))
    page.click("#start-game")
    page.wait_for_url("**/play/**")
    return str(page.url.split("/play/")[1].split("?")[0])


def open_game(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#board polygon.hex")
    page.wait_for_function("() => window.warroomGame && window.warroomGame.payload !== null")
    if page.is_visible("#help-ok"):
        page.click("#help-ok")


# -- Tunisia ------------------------------------------------------------------------------------------------------

TUNISIA_SEED = 21


def tunisia_decide(page: Any, p: dict[str, Any]) -> str:
    """Answer the decision the page asks of the Axis, through the page's own controls; what was done."""
    kinds = {d["kind"] for d in p["actions"]}
    if kinds & {"retreat", "advance"}:
        # Tunisia 14.1, 14.3: a retreat or an advance is chosen on the map: the glowing counter, then a lit hex
        page.click("#board .counter.selectable >> nth=0")
        page.wait_for_selector("#board .hex-highlight.reach")
        click_and_wait(page, "#board .hex-highlight.reach >> nth=0")
        return f"map:{sorted(kinds & {'retreat', 'advance'})[0]}"
    if "no air" in kinds:
        # Tunisia 7.3C: the defender's air choice, each button with the battle's exact odds
        wait_odds(page)
        page.wait_for_selector('#prompt button.action[data-action="no air"] .odds')
        assert page.locator("#prompt button.action .odds").count() == len(p["actions"])
        click_and_wait(page, '#prompt button.action[data-action="no air"]')
        return "no air"
    if "end" in kinds:  # the phasing side's phase ends (7.0)
        click_and_wait(page, '#prompt button.action[data-action="end"]')
        return "end"
    # a loss (13.1C), a return to base (7.6), a replacement (7.7): the prompt's first choice
    first = page.get_attribute("#prompt .general-actions button.action >> nth=0", "data-action")
    click_and_wait(page, f'#prompt .general-actions button.action[data-action="{first}"]')
    return str(first)


def test_tunisia_against_the_computer_an_axis_turn_by_clicks_then_reload(
    live_server: Any, browser: Any, artifacts: Path
) -> None:
    from warroom.games.tunisia.odds import attack_survey

    context, page, errors = new_page(browser)
    game_id = start_from_lobby(page, live_server.url, "tunisia", "computer", TUNISIA_SEED, side="Axis")
    page.wait_for_selector("#help-ok").click()
    page.wait_for_selector('#board .counter[data-unit="Broich"].selectable')
    p = payload(page)
    assert p["side"] == "Axis" and {s["side"]: s["kind"] for s in p["seats"]} == {"Axis": "human", "Allied": "computer"}
    assert page.inner_text("#turn").startswith("Turn 1 of")

    # Tunisia 7.1, 8.0: Broich moves by clicks: the counter, then a lit hex with its MP cost
    page.click('#board .counter[data-unit="Broich"]')
    page.wait_for_selector('#board .hex-highlight.reach[data-hex="8406"]')
    click_and_wait(page, '#board .hex-highlight.reach[data-hex="8406"]')
    assert payload(page)["view"]["state"]["pieces"]["Broich"]["at"] == "8406"
    assert "Division von Broich moves from 8306 to 8406" in page.inner_text("#log")
    click_and_wait(page, '#prompt button.action[data-action="end"]')  # 7.1: the Movement Phase ends
    assert payload(page)["view"]["state"]["phase_name"].endswith("Attack Phase")

    # Tunisia 7.2, 11.0: the unit in 8213 attacks 8113: its target lit in red, each way to attack with its odds
    wait_odds(page)
    attacker = page.evaluate(
        "() => Object.entries(window.warroomGame.payload.view.state.pieces)"
        ".find(([id, p]) => p.at === '8213' && window.warroomGame.layout.units[id].unit)[0]"
    )
    page.click(f'#board .counter[data-unit="{attacker}"]')
    page.click('#board .hex-highlight.target[data-hex="8113"]')
    page.wait_for_selector("#confirm .odds")
    action = "attack 8213 8113"
    match = live_server.app.state.service.live[game_id].match
    survey = attack_survey(match.ruleset, match.state, action)
    exact = Fraction(survey["exact"]["defender"]) + Fraction(survey["exact"]["both"])  # the attack succeeds (11.5)
    button = f'#confirm button.action[data-action="{action}"]'
    assert page.inner_text(f"{button} .odds").endswith(f"exactly {exact}")
    assert page.locator("#confirm button.action").count() == 3  # alone, or with either Axis air asset (7.3A)
    page.screenshot(path=str(artifacts / "playthrough-tunisia-confirm.png"))
    click_and_wait(page, button)

    # every decision the page asks of the Axis, through its controls, until the Allied turn is over (7.0)
    done: list[str] = []
    for _ in range(40):
        p = wait_ready(page)
        view = p["view"]
        if view["turn"] == 2 and view["phase"] == "Axis Movement Phase":
            break
        done.append(tunisia_decide(page, p))
    else:
        raise AssertionError(f"turn 2 never came: {done}")
    assert "map:advance" in done and "no air" in done  # 14.3 on the map; the defensive air choice (7.3C) in place
    assert page.inner_text("#turn").startswith("Turn 2 of")
    assert "Turn 2 begins" in page.inner_text("#log")
    allied = page.evaluate(  # the log tells a unit by its name
        "() => Object.values(window.warroomGame.layout.units).filter((u) => u.side === 'Allied').map((u) => u.name)"
    )
    computer_moves = [
        t for t in page.locator("#log .ev-move").all_inner_texts() if any(t.startswith(f"{n} moves") for n in allied)
    ]
    assert len(computer_moves) >= 5, computer_moves  # the computer's Allied Movement Phase (7.1)
    page.screenshot(path=str(artifacts / "playthrough-tunisia-turn-2.png"))

    before = page.evaluate("() => JSON.stringify(window.warroomGame.payload.view.state)")
    # the game's log comes back whole, the computer's reasons ("Why (Allied, computer): ...") with it
    assert page.locator("#log .ev-reason").count() > 0
    reasons = page.locator("#log .ev-reason").all_inner_texts()  # Tunisia 6.0E: shown where they tell nothing hidden
    assert any("Why (Allied, computer): Move " in text for text in reasons), reasons
    log_before = page.locator("#log li").all_inner_texts()
    page.reload()
    page.wait_for_selector('#board .counter[data-unit="Broich"]')
    page.wait_for_function("() => window.warroomGame && window.warroomGame.payload !== null")
    assert page.evaluate("() => JSON.stringify(window.warroomGame.payload.view.state)") == before
    assert page.locator("#log li").all_inner_texts() == log_before
    assert page.inner_text("#turn").startswith("Turn 2 of")
    assert not errors, errors
    context.close()


# -- Saint-Lo -----------------------------------------------------------------------------------------------------


def setup_over_api(live_server: Any, game_id: str, tokens: dict[str, str], wait: Callable[[int], None]) -> None:
    """Saint-Lo 4.2-4.3: every human seat's Command Posts and deployment over the API (each its first legal
    placement), until the setup is over; `wait(move)` for a computer seat to place its own after that move."""
    for _ in range(400):
        views = {s: api(live_server, "GET", f"/api/games/{game_id}", params={"token": t}) for s, t in tokens.items()}
        if next(iter(views.values()))["view"]["state"]["phase"] not in ("posts", "deploy"):
            return
        side = next((s for s, v in views.items() if v["view"]["legal"]), None)
        if side is None:
            wait(next(iter(views.values()))["move"])
            continue
        v = views[side]
        api(
            live_server,
            "POST",
            f"/api/games/{game_id}/actions",
            params={"token": tokens[side]},
            json={"action": v["view"]["legal"][0], "move": v["move"]},
        )
    raise AssertionError("the setup did not end")


HAND_CHECK = """() => {
  const p = window.warroomGame.payload;
  const lists = [...document.querySelectorAll('#score ul.hand')].map((ul) =>
    [ul.id, [...ul.querySelectorAll('li')].map((li) => li.dataset.card)]);
  const counts = [...document.querySelectorAll('#score p.muted')].map((el) => el.textContent);
  return { side: p.side, hands: p.view.state.hands, lists, counts };
}"""


def assert_own_hand_only(page: Any) -> list[str]:
    """Saint-Lo 9, 10.4: the panel lists the viewing seat's own Battle Reports and only the size of every other
    seat's hand; the payload the page holds carries no other hand either. The seat's hand."""
    seen = page.evaluate(HAND_CHECK)
    me, hands = seen["side"], seen["hands"]
    assert isinstance(hands[me], list)
    assert seen["lists"] == [["hand", hands[me]]]
    for seat, hand in hands.items():
        if seat != me:
            assert isinstance(hand, int) and f"{seat} holds {hand} Battle Reports" in seen["counts"]
    return list(hands[me])


def end_shown(page: Any, frames: list[str], responses: list[Any], artifacts: Path, name: str) -> dict[str, Any]:
    """Saint-Lo 3: the game is over and the page says so (its end card names the result and its reason), still
    shows only the seat's own hand, and no position it was sent, pushed or answered showed another's. The
    result."""
    result = payload(page)["view"]["result"]
    over = page.wait_for_selector("#game-over").inner_text()
    assert (result["winner"] or "Draw") in over and result["reason"] in over
    assert_own_hand_only(page)
    page.screenshot(path=str(artifacts / f"{name}.png"))
    seen, leaked = leaked_hands(frames + bodies(responses))
    assert seen > 20 and not leaked, leaked
    return result


def leaked_hands(texts: list[str]) -> tuple[int, list[str]]:
    """How many positions the page received, and those that show a hand other than their own seat's."""
    seen, bad = 0, []
    for text in texts:
        try:
            message = json.loads(text)
        except ValueError:
            continue
        view = message.get("view") if isinstance(message, dict) else None
        hands = view.get("state", {}).get("hands") if isinstance(view, dict) else None
        if hands is None:
            continue
        seen += 1
        if any(isinstance(h, list) and seat != message.get("side") for seat, h in hands.items()):
            bad.append(text[:200])
    return seen, bad


def watch_messages(page: Any) -> tuple[list[str], list[Any]]:
    """The push channel's frames (as they come) and the game API's answers (read later) the page receives."""
    frames: list[str] = []
    responses: list[Any] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    page.on("response", lambda r: responses.append(r) if "/api/games/" in r.url else None)
    return frames, responses


def bodies(responses: list[Any]) -> list[str]:
    out = []
    for r in responses:
        try:
            out.append(r.text())
        except Exception:  # noqa: BLE001 - a body the browser no longer holds (a response before a reload)
            continue
    return out


def alone_on_hex(page: Any, kind: str) -> list[dict[str, Any]]:
    """The seat's `kind` actions (move / attack) of units alone on their hex (a counter over another would take
    the click: 7.4), from its descriptors."""
    return list(
        page.evaluate(
            """(kind) => {
      const alone = new Set([...document.querySelectorAll('#board .stack')]
        .filter((st) => st.querySelectorAll('.counter').length === 1)
        .map((st) => st.querySelector('.counter').dataset.unit));
      return window.warroomGame.payload.actions.filter((d) => d.kind === kind && alone.has(d.unit));
    }""",
            kind,
        )
    )


def take_device(page: Any) -> str | None:
    """The pass-the-device screen's text, its button clicked in the same step; None where none shows. One step,
    because the screen closes by itself where the decision comes straight back to the same person."""
    return page.evaluate(  # type: ignore[no-any-return]
        "() => { const b = document.querySelector('#overlay:not([hidden]) #pass-ready');"
        " if (!b) return null; const t = document.querySelector('#overlay').innerText; b.click(); return t; }"
    )


class SaintLoPlayer:
    """Plays a seat's decisions in the page: one move, one attack with its exact odds, a Battle Report, then ends."""

    def __init__(self, page: Any, live_server: Any, game_id: str, artifacts: Path) -> None:
        self.page, self.live_server, self.game_id, self.artifacts = page, live_server, game_id, artifacts
        self.moved: set[str] = set()  # the seats that moved a unit by clicks
        self.attacks: list[str] = []
        self.played: list[str] = []  # Battle Reports played from the panel
        self.passes = 0  # hot-seat: the device passed
        self.done: list[str] = []

    def exact_odds(self, action: str) -> Fraction:
        from warroom.games.saintlo import attack as attacks
        from warroom.games.saintlo.actions import Action
        from warroom.games.saintlo.odds import win_fraction

        match = self.live_server.app.state.service.live[self.game_id].match
        t, s = match.ruleset.t, match.state
        act = Action.from_id(action)
        a = attacks.target_in(t, s, t.unit_index[act.subject], t.hex_of[act.where])
        return win_fraction(attacks.attack_dice(t, s, a), attacks.defense_dice(t, s, a))

    def move_by_clicks(self, d: dict[str, Any]) -> None:
        # Saint-Lo 5.3, 6.1: the glowing unit, then a lit hex with the Supply the move costs
        page = self.page
        page.click(f'#board .counter[data-unit="{d["unit"]}"]')
        lit = page.wait_for_selector(f'#board .hex-highlight.reach[data-hex="{d["to"]}"]')
        assert lit.get_attribute("data-cost") == str(d["cost"])
        click_and_wait(page, f'#board .hex-highlight.reach[data-hex="{d["to"]}"]')
        assert payload(page)["view"]["state"]["units"][d["unit"]]["hex"] == d["to"]

    def attack_by_clicks(self, d: dict[str, Any]) -> None:
        button, _ = self.attack_confirm(d)
        self.page.screenshot(path=str(self.artifacts / "playthrough-saintlo-confirm.png"))
        click_and_wait(self.page, button)
        self.attacks.append(d["id"])

    def attack_confirm(self, d: dict[str, Any]) -> tuple[str, str]:
        """Saint-Lo 6.2, 7.1, 9: the attacker, its target lit in red, the confirm card's odds checked: exactly the
        dice's, or the range while the defender may still play a Battle Report, its top the dice alone. The
        confirm button's selector and the odds shown."""
        page = self.page
        wait_odds(page)
        page.click(f'#board .counter[data-unit="{d["unit"]}"]')
        page.click(f'#board .hex-highlight.target[data-hex="{d["to"]}"]')
        button = f'#confirm button.action[data-action="{d["id"]}"]'
        odds = page.wait_for_selector(f"{button} .odds").inner_text()
        exact = self.exact_odds(d["id"])
        if "exactly" in odds:
            assert odds.endswith(f"exactly {exact}"), odds
        else:
            assert re.search(rf"{float(exact):.0%} if the \w+ army plays no Battle Report", odds), odds
            assert re.match(r"\d+-\d+%: ", odds), odds
        return button, odds

    def play_report(self) -> None:
        # Saint-Lo 9: a Battle Report from the panel: its fold opened, a button for it (and its target)
        page = self.page
        fold = page.locator("#prompt details.play-card").first
        card = fold.get_attribute("data-card")
        fold.locator("summary").click()
        action = fold.locator("button.action").first.get_attribute("data-action")
        hand = payload(page)["view"]["state"]["hands"][payload(page)["side"]]
        click_and_wait(page, f'#prompt details.play-card[data-card="{card}"] button.action[data-action="{action}"]')
        after = payload(page)["view"]["state"]
        assert sorted(after["hands"][payload(page)["side"]] + [card]) == sorted(hand)  # played from the hand
        self.played.append(str(action))

    def general(self, action: str) -> None:
        click_and_wait(self.page, f'#prompt .general-actions button.action[data-action="{action}"]')
        self.done.append(action)

    def decide(self, attacker: str | None) -> None:
        """One decision of the seat shown; `attacker` the seat that makes the game's one attack."""
        page = self.page
        if page.is_visible("#overlay:not([hidden]) #pass-ready"):
            # hot-seat: the board goes dark until the next player takes the device
            nxt = payload(page)["view"]["to_act"]
            text = take_device(page)
            if text is None:
                return  # it closed by itself: the next call finds the board
            assert f"Pass the device to {nxt}" in text, text
            page.wait_for_function("s => window.warroomGame.payload.side === s && !window.warroomGame.busy", arg=nxt)
            self.passes += 1
            return
        p = payload(page)
        me, state = p["side"], p["view"]["state"]
        legal = p["view"]["legal"]
        phase = state["phase"]
        if phase == "window":
            if not self.played and any(d["kind"] == "play" for d in p["actions"]):
                self.play_report()
            else:
                self.general("pass")
        elif phase == "actions":
            if state["current"] is not None and "done" in legal:  # the unit in use has done its part (5.3)
                self.general("done")
            elif me == attacker and not self.attacks and alone_on_hex(page, "attack"):
                self.attack_by_clicks(alone_on_hex(page, "attack")[0])
            elif me not in self.moved and alone_on_hex(page, "move"):
                self.move_by_clicks(alone_on_hex(page, "move")[0])
                self.moved.add(me)
            else:
                self.general("end")  # 5.3: the seat's activations end
        elif phase == "support":
            # Saint-Lo 7.3: the artillery called, or the dice thrown: "fire" with the attack's exact odds
            wait_odds(page)
            fire = page.inner_text('#prompt button.action[data-action="fire"] .odds')
            assert "exactly" in fire or re.search(r"\d+-\d+%: ", fire), fire  # one number, or the range left
            self.general("fire")
        elif phase == "support_reply":
            self.general("agree")  # 10.3
        elif phase == "reorganize":
            self.general("end")  # 5.4
        elif phase == "discard":
            self.general(next(a for a in legal if a.startswith("discard ")))  # 5.2
        else:
            raise AssertionError(f"a decision with no control known to this test: {phase} {legal[:5]}")


def test_saintlo_hot_seat_to_the_end_by_clicks(live_server: Any, browser: Any, artifacts: Path) -> None:
    context, page, errors = new_page(browser)
    frames, responses = watch_messages(page)
    game_id = start_from_lobby(page, live_server.url, "saintlo", "hotseat", 2, turn_limit="1")
    tokens = page.evaluate(f"() => JSON.parse(localStorage.getItem('warroom.seats.v1'))['{game_id}']")
    assert sorted(tokens) == ["Allied", "Axis"]  # hot-seat: this browser holds both seats
    page.goto("about:blank")
    setup_over_api(live_server, game_id, tokens, lambda _: pytest.fail("a hot-seat game has no computer seat"))

    open_game(page, f"{live_server.url}/play/{game_id}")
    p = payload(page)
    assert p["view"]["state"]["options"]["turn_limit"] == 1
    first = p["view"]["state"]["active"].capitalize()  # Saint-Lo 4: the dice chose the army that starts
    player = SaintLoPlayer(page, live_server, game_id, artifacts)
    hands: dict[str, list[str]] = {}
    for _ in range(80):
        p = wait_ready(page)
        if p["view"]["over"]:
            break
        if not page.is_visible("#overlay:not([hidden]) #pass-ready"):  # the board dark: nothing to look at
            hands[p["side"]] = assert_own_hand_only(page)
        player.decide(first)
    else:
        raise AssertionError(f"the game did not end: {player.done}")
    assert player.moved == {"Allied", "Axis"} and len(player.attacks) == 1 and player.played
    assert player.passes >= 2 and "end" in player.done
    assert sorted(hands) == ["Allied", "Axis"] and all(hands.values())  # each seat saw its own hand, never empty

    # Saint-Lo 3 (the turn limit): the game ends drawn, shown on the end card and in the panel
    result = end_shown(page, frames, responses, artifacts, "playthrough-saintlo-over")
    assert page.inner_text("#prompt h2") == (f"{result['winner']} victory" if result["winner"] else "Draw")
    assert not errors, errors
    context.close()


def test_saintlo_four_seats_one_human_three_computers_to_the_end(
    live_server: Any, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser)
    frames, responses = watch_messages(page)
    # Saint-Lo 10: four seats in two teams; the lobby's computer mode gives the human one seat, the computer three
    game_id = start_from_lobby(page, live_server.url, "saintlo-teams", "computer", 3, side="Allied A", turn_limit="1")
    token = page.url.split("token=")[1]
    seats = api(live_server, "GET", f"/api/games/{game_id}", params={"token": token})["seats"]
    assert {s["side"]: s["kind"] for s in seats} == {
        "Allied A": "human",
        "Allied B": "computer",
        "Axis A": "computer",
        "Axis B": "computer",
    }
    page.wait_for_selector("#help-ok").click()

    def computer_setup(move: int) -> None:
        # the computer seats place their own posts and units (4.2-4.3, 10.1): the page hears each push
        page.wait_for_function("m => window.warroomGame.payload.move > m", arg=move)

    setup_over_api(live_server, game_id, {"Allied A": token}, computer_setup)
    player = SaintLoPlayer(page, live_server, game_id, artifacts)
    for _ in range(80):
        p = wait_ready(page)
        if p["view"]["over"]:
            break
        assert_own_hand_only(page)
        player.decide("Allied A")
    else:
        raise AssertionError(f"the game did not end: {player.done}")
    assert player.moved == {"Allied A"} and len(player.attacks) == 1 and player.played and "end" in player.done

    # the team result (Saint-Lo 3, 10): the page shows it on the end card and in the panel
    result = end_shown(page, frames, responses, artifacts, "playthrough-saintlo-teams-over")
    assert set(result["score"]["Command Posts destroyed"]) == {"Allied", "Axis"}  # by team, not by seat
    assert json.dumps(result["score"], separators=(",", ":")) in page.inner_text("#score")
    assert not errors, errors
    context.close()
