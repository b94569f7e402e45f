"""A person's path through the two hex games in a real (headless Debian) chromium at 1280x800, a screenshot at
each step (test-artifacts/walkthrough-*.png) with a caption, and the summary written beside them
(walkthrough-summary.md; `pytest -s` prints it).

- Patton's First Victory: Tunisia against the computer, the person the Axis: the lobby, the board opened on the
  action, the stack viewer on hover, a unit picked with its destinations, a move, an attack with its odds before
  the commitment (each case said, or one exact number), "What just happened" after the d12 (every die drawn with
  its number), the computer's turn, turn 2.
- Panzer Saint-Lo 1944 hot-seat, turn limit 1: the lobby, the Command Posts placed by "the rest for me", the
  counters deployed the same way (one click a seat), a unit moved by clicks, an attack with its odds range (the
  Battle Report cases named), a Battle Report window, the throw drawn as dice, the end of the game.

At every step the page's visible text (and the odds' titles) shows no internal id, only names; each walk counts
the decisions the person made (clicks that sent an action). The play reuses test_web_playthrough_hex's helpers.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_playthrough_hex import (
    READY,
    TUNISIA_SEED,
    SaintLoPlayer,
    click_and_wait,
    end_shown,
    payload,
    start_from_lobby,
    take_device,
    tunisia_decide,
    wait_odds,
    wait_ready,
    watch_messages,
)
from web_pages import api, new_page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SAINTLO_ID = re.compile(r"\b(us|de)_[a-z0-9_]+(\.\d+)?\b")
"""A Saint-Lo counter's id (us_m5.1, de_tiger): never shown to a player (names.py)."""

SNAKE_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
"""A raw snake_case id (a phase, a kind, a unit written as the code names it)."""

VISIBLE_TEXT = """() => [document.body.innerText,
  ...[...document.querySelectorAll('.odds[title]')].map((el) => el.getAttribute('title'))].join('\\n')"""
"""What a player reads: the page's rendered text and the odds' titles (the cases, on hover)."""

TEXT_OFF_MAP = """() => { const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const skip = !el || el.closest('#board, script, style, title');
    if (!skip && el.checkVisibility()) out.push(n.textContent);
  }
  return out.join('\\n'); }"""
"""The visible text outside the map (the panel's prompt and unit card, the headers, the stack viewer, the confirm
card, the log and "What just happened"): where a unit's label is written out, not printed on its counter. Tunisia's
events tell a unit by its name as the rest does ("334th Infantry Division moves from 8212 to 8313")."""

ON_SCREEN = """(sel) => {
  const board = document.querySelector('#board').getBoundingClientRect();
  const panel = document.querySelector('.panel').getBoundingClientRect();
  return [...document.querySelectorAll(sel)].filter((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const inside = x > board.left + 4 && x < board.right - 4 && y > board.top + 4 && y < board.bottom - 4;
    const hit = document.elementFromPoint(x, y);
    return inside && r.width > 0 && !(x >= panel.left && x <= panel.right && y >= panel.top && y <= panel.bottom)
      && hit && (el === hit || el.contains(hit));
  }).map((el) => el.dataset.unit || el.dataset.hex);
}"""
"""The data-unit (or data-hex) of each element matching `sel` whose middle is on the board, on screen and not
under anything else: what a person can click in the view the board opened on."""

DICE_DRAWN = """() => [...document.querySelectorAll('#dice-tray .die-row')].map((row) => ({
  type: [...row.classList].find((c) => c.startsWith('happened-')),
  roll: row.dataset.roll === undefined ? null : Number(row.dataset.roll),
  dice: [...row.querySelectorAll('g.die')].map((g) => ({
    pips: g.querySelectorAll('circle.pip').length,
    number: (g.querySelector('text.die-number') || { textContent: '' }).textContent.trim(),
    title: (g.querySelector('title') || { textContent: '' }).textContent })),
  text: row.innerText }))"""
"""Every row of "What just happened": its event type, its roll, each SVG die drawn (pips or numeral) and the text."""


PIECES_AT = """(hx) => Object.entries(window.warroomGame.payload.view.state.pieces)
  .filter(([, p]) => p.at === hx).map(([id]) => id)"""
"""Tunisia: the ids of the pieces on a hex."""


def die_value(die: dict[str, Any]) -> int:
    """The face a drawn die shows: its pips (1-6), else its numeral; never blank."""
    assert die["pips"] or die["number"], f"a blank die: {die}"
    shown = die["pips"] if die["pips"] else int(die["number"])
    assert die["title"] == f"die: {shown}", die  # the face's title says the number it draws
    return int(shown)


class Walk:
    """One walk's screenshots, each with its caption, and the decisions the person made on the way."""

    def __init__(self, name: str, page: Any, artifacts: Path, forbidden: re.Pattern[str]) -> None:
        self.name, self.page, self.artifacts, self.forbidden = name, page, artifacts, forbidden
        self.steps: list[tuple[int, str, str]] = []
        self.decisions = 0  # clicks that sent an action to the game
        self.setup_decisions = 0  # of those, the setup's (Saint-Lo 4.2, 4.3)

    def no_ids(self) -> str:
        """The page's visible text, asserted free of internal ids."""
        text = str(self.page.evaluate(VISIBLE_TEXT))
        found = sorted({m.group(0) for m in self.forbidden.finditer(text)})
        assert not found, f"{self.name}: ids on screen: {found}"
        return text

    def name_of(self, slug: str) -> str:
        return f"walkthrough-{self.name}-{len(self.steps) + 1:02d}-{slug}.png"

    def shot(self, slug: str, caption: str) -> str:
        """Check the page shows no id, save the screenshot, record the step; the page's visible text."""
        text = self.no_ids()
        name = self.name_of(slug)
        self.page.screenshot(path=str(self.artifacts / name))
        self.steps.append((len(self.steps) + 1, name, caption))
        return text

    def act(self, selector: str, setup: bool = False) -> None:
        """A decision: click a control that sends an action, wait for the position after it."""
        click_and_wait(self.page, selector)
        self.decisions += 1
        self.setup_decisions += setup

    def summary(self) -> str:
        lines = [f"## {self.name}", "", "| step | screenshot | what it shows |", "|---|---|---|"]
        lines += [f"| {n} | {name} | {caption} |" for n, name, caption in self.steps]
        setup = f" ({self.setup_decisions} of them in the setup)" if self.setup_decisions else ""
        lines += ["", f"Decisions the person made (clicks that sent an action): {self.decisions}{setup}.", ""]
        return "\n".join(lines)


def report(walk: Walk, artifacts: Path) -> None:
    """Print the walk's summary (`pytest -s`) and write it into walkthrough-summary.md (one section a walk)."""
    text = walk.summary()
    print("\n" + text)
    path = artifacts / "walkthrough-summary.md"
    kept = path.read_text() if path.exists() else "# Walkthrough\n\n"
    sections = re.split(r"(?m)^(?=## )", kept)
    kept = "".join(s for s in sections if not s.startswith(f"## {walk.name}\n"))
    path.write_text(kept.rstrip("\n") + "\n\n" + text)


def lobby(page: Any, url: str, game: str, mode: str, **choices: str) -> None:
    """The lobby with the person's choices made (start_from_lobby makes them again and starts)."""
    page.goto(url + "/")
    page.select_option("#new-game-select", game)
    page.check(f'[data-mode="{mode}"] input')
    if "side" in choices:
        page.select_option("#new-side", choices["side"])
    if "turn_limit" in choices:
        page.fill("#option-turn_limit", choices["turn_limit"])


# -- Tunisia ------------------------------------------------------------------------------------------------------


def tunisia_names_only(units: dict[str, dict[str, Any]], text: str) -> None:
    """Tunisia: units are written by name off the map; a unit's id where it differs from its name (6th-Armd for
    6th Armoured Division) never shows there but after its name, as the designation its counter prints; no
    snake_case id anywhere (checked by the walk). The counters on the map carry their short designation."""
    ids = [u for u, info in units.items() if u != info["name"]]
    for u in ids:  # "La Spezia Division (La-Spezia)": the name, then the designation its counter prints
        text = text.replace(f"{units[u]['name']} ({u})", "")
    for name in sorted((info["name"] for info in units.values()), key=len, reverse=True):
        text = text.replace(name, "")  # "Marines (San Marco)": a name may hold a word of an id
    shown = [u for u in ids if re.search(rf"(?<![\w-]){re.escape(u)}(?![\w-])", text)]
    where = [text[max(0, m.start() - 60) : m.end() + 20] for u in shown for m in re.finditer(re.escape(u), text)]
    assert not shown, f"unit ids on screen: {shown}: {where}"


def tunisia_dice(page: Any) -> list[dict[str, Any]]:
    """Tunisia's d12 rows in "What just happened": every die drawn with its number (pips or numeral), none blank."""
    rows = page.evaluate(DICE_DRAWN)
    rolled = [r for r in rows if r["roll"] is not None]
    for row in rolled:
        assert len(row["dice"]) == 1 and die_value(row["dice"][0]) == row["roll"], row
    return rolled


def test_walkthrough_tunisia_against_the_computer(live_server: Any, browser: Any, artifacts: Path) -> None:
    context, page, errors = new_page(browser, whole_map=False)  # a new game opens on the action
    walk = Walk("tunisia", page, artifacts, SNAKE_ID)
    units = api(live_server, "GET", "/api/boards/tunisia")["units"]

    def shot(slug: str, caption: str) -> str:
        text = walk.shot(slug, caption)
        tunisia_names_only(units, page.evaluate(TEXT_OFF_MAP))
        return text

    lobby(page, live_server.url, "tunisia", "computer", side="Axis")
    shot("lobby", "The lobby: Patton's First Victory: Tunisia, against the computer, the person the Axis.")
    start_from_lobby(page, live_server.url, "tunisia", "computer", TUNISIA_SEED, side="Axis")
    page.wait_for_selector("#help-ok").click()
    page.wait_for_selector("#board .counter.selectable")
    # the board opened on the action: a counter at least MIN_COUNTER_PX (28 px) on screen, not the whole map
    zoom = page.evaluate(
        "() => { const b = window.warroomGame.board, z = b.zoom, r = b.svg.getBoundingClientRect();"
        " return { px: Math.min(r.width / z.view.w, r.height / z.view.h) * b.map.counterSize,"
        " share: Math.min(1, z.view.w / z.bounds.w) * Math.min(1, z.view.h / z.bounds.h) }; }"
    )
    assert zoom["px"] >= 27.5, zoom
    shot("board", f"The board opened on the action: counters {zoom['px']:.0f} px wide, Turn 1, Axis Movement Phase.")

    # the stack viewer: the biggest stack on screen, hovered
    stacks = page.evaluate(ON_SCREEN, "#board .stack")
    biggest = max(stacks, key=lambda hx: page.locator(f'#board .stack[data-hex="{hx}"] .counter').count())
    page.hover(f'#board .stack[data-hex="{biggest}"]')
    viewer = page.wait_for_selector(".stack-viewer:not([hidden])")
    names = {u["name"] for u in units.values()}
    listed = page.locator(".stack-viewer li").all_inner_texts()
    assert listed and all(any(item.startswith(n) for n in names) for item in listed), listed  # each piece by name
    shot("stack-viewer", f"Hovering the stack on {biggest}: the stack viewer lists its {len(listed)} piece(s) by name.")
    assert viewer.get_attribute("data-hex") == biggest

    # Tunisia 7.1, 8.0: a unit on screen picked: its destinations light up with their MP cost
    movers = [u for u in page.evaluate(ON_SCREEN, "#board .counter.selectable") if u]
    mover = "Broich" if "Broich" in movers else movers[0]
    page.mouse.move(1, 1)  # the stack viewer closes as the pointer leaves
    page.click(f'#board .counter[data-unit="{mover}"]')
    page.wait_for_selector("#board .hex-highlight.reach")
    reach = page.evaluate(ON_SCREEN, "#board .hex-highlight.reach")
    assert reach, "no destination of the picked unit is on screen"
    mover_name = page.evaluate("(u) => window.warroomGame.layout.units[u].name", mover)
    shot(
        "unit-selected",
        f"{mover_name} picked: {page.locator('#board .hex-highlight.reach').count()} hexes it may reach lit "
        "with their MP cost.",
    )
    to = "8406" if "8406" in reach else reach[0]
    walk.act(f'#board .hex-highlight.reach[data-hex="{to}"]')
    assert payload(page)["view"]["state"]["pieces"][mover]["at"] == to
    shot("moved", f"{mover_name} moved to {to}; the log tells it by the counter's designation.")

    # 7.1: the Movement Phase ends; 7.2, 11.0: an attack on screen, its odds before the commitment
    while not payload(page)["view"]["state"]["phase_name"].endswith("Attack Phase"):
        walk.decisions += 1
        tunisia_decide(page, wait_ready(page))
    wait_odds(page)
    attacks = page.evaluate("() => window.warroomGame.payload.actions.filter((d) => d.kind === 'attack')")
    counters = set(page.evaluate(ON_SCREEN, "#board .counter.selectable"))

    def attackers(d: dict[str, Any]) -> list[str]:  # the attack's pieces a person can click on screen
        return sorted(set(page.evaluate(PIECES_AT, d["from"])) & counters)

    attack, attacker = next((d, on[0]) for d in attacks if (on := attackers(d)))
    page.click(f'#board .counter[data-unit="{attacker}"]')
    page.click(f'#board .hex-highlight.target[data-hex="{attack["to"]}"]')
    page.wait_for_selector("#confirm .odds")
    odds = page.evaluate(
        "() => [...document.querySelectorAll('#confirm button.action')].map((b) => ({action: b.dataset.action,"
        " card: b.querySelector('.odds').textContent, title: b.querySelector('.odds').getAttribute('title')}))"
    )
    for o in odds:  # Tunisia 7.3C-E, 6.0E: each case the attacker can see said, or one exact number
        assert re.search(r"exactly \d+/\d+$", o["card"]) or (
            re.match(r"\d+-\d+%: ", o["card"]) and ("with no defending air" in o["card"] or " defends" in o["card"])
        ), o
    shot(
        "attack-odds",
        f"Attack on {attack['to']}: {len(odds)} ways to attack, each with its odds before the commitment: "
        + "; ".join(o["card"] for o in odds)
        + ".",
    )
    walk.act(f'#confirm button.action[data-action="{odds[0]["action"]}"]')

    # every decision the page asks of the Axis until turn 2; the d12 drawn, the computer's turn caught
    seen_dice = seen_computer = False
    for _ in range(60):
        # a d12 shown (the tray changes with each push: caught as it comes, kept only if the shot shows it)
        page.wait_for_function(f"() => !!document.querySelector('#dice-tray .die-row[data-roll]') || ({READY})()")
        rows = page.evaluate(DICE_DRAWN)

        rolled = tunisia_dice(page)
        if rolled and not seen_dice:
            caption = "; ".join(
                f'the d12 drawn showing {r["roll"]} beside "{r["text"].splitlines()[-1]}"' for r in rolled
            )
            shot("what-happened", f'"What just happened": {caption}.')
            seen_dice = page.evaluate(DICE_DRAWN) == rows
            if not seen_dice:  # the next push came during the shot: taken again at the next roll
                walk.steps.pop()
        p = payload(page)
        waiting = page.evaluate(
            "() => { const w = document.querySelector('#prompt .waiting'); return w && w.innerText; }"
        )
        if not seen_computer and p["view"]["to_act"] == "Allied" and waiting:  # read once: the turn may end now
            seen_computer = True
            shot("computer-turn", f'The computer\'s turn: "{waiting}" ({p["view"]["phase"]}).')
        p = wait_ready(page)
        view = p["view"]
        if view["turn"] == 2 and view["phase"] == "Axis Movement Phase":
            break
        tunisia_decide(page, p)
        walk.decisions += 1
    else:
        raise AssertionError("turn 2 never came")
    assert seen_dice, "no d12 shown in What just happened"
    assert page.inner_text("#turn").startswith("Turn 2 of")
    moves = len(page.locator("#log .ev-move").all_inner_texts())
    shot(
        "turn-2",
        f"Turn 2, the Axis Movement Phase again: the computer's Allied turn in the log ({moves} moves logged in all).",
    )
    assert not errors, errors
    report(walk, artifacts)
    context.close()


# -- Saint-Lo -----------------------------------------------------------------------------------------------------


class WalkingPlayer(SaintLoPlayer):
    """The play-through's Saint-Lo player, with a screenshot at each first of a kind and every decision counted."""

    def __init__(self, walk: Walk, live_server: Any, game_id: str, artifacts: Path) -> None:
        super().__init__(walk.page, live_server, game_id, artifacts)
        self.walk = walk
        self.shown: set[str] = set()

    def once(self, slug: str, caption: str) -> None:
        if slug not in self.shown:
            self.shown.add(slug)
            self.walk.shot(slug, caption)

    def move_by_clicks(self, d: dict[str, Any]) -> None:
        super().move_by_clicks(d)
        name = self.page.evaluate(
            "(u) => window.warroomGame.board.unitName(window.warroomGame.payload.view.state, u)", d["unit"]
        )
        self.once(
            "moved",
            f"First activation ({payload(self.page)['side']}): {name} moved by clicks (the counter, then a lit "
            f"hex costing {d['cost']} Supply).",
        )

    def attack_by_clicks(self, d: dict[str, Any]) -> None:
        page = self.page
        button, card = self.attack_confirm(d)
        title = page.get_attribute(f"{button} .odds", "title") or ""
        label = page.inner_text(f"{button} .action-label")
        self.walk.shot("attack-odds", f'Attack confirmed only after its odds: "{label}" — {card}.')
        self.walk.act(button)
        self.attacks.append(d["id"])
        assert title  # the odds' title (checked for ids with the page) says how they were worked out

    def decide(self, attacker: str | None) -> None:
        page = self.page
        passes = self.passes
        if not page.is_visible("#overlay:not([hidden]) #pass-ready"):
            phase = payload(page)["view"]["state"]["phase"]
            if phase == "window":
                heading = page.inner_text("#prompt h2")
                self.once(
                    "report-window",
                    f'A Battle Report window ({payload(page)["side"]}): "{heading}", the hand\'s cards to play '
                    "or pass.",
                )
        sent = self.walk.decisions
        before = len(self.done) + len(self.played) + len(self.moved)
        super().decide(attacker)
        passed = self.passes > passes or page.is_visible("#overlay:not([hidden]) #pass-ready")
        if not passed and self.walk.decisions == sent:  # attack_by_clicks counts its own
            assert len(self.done) + len(self.played) + len(self.moved) == before + 1
            self.walk.decisions += 1
        dice = [r for r in page.evaluate(DICE_DRAWN) if r["type"] == "happened-dice"]
        if dice and "dice" not in self.shown and not page.is_visible("#overlay:not([hidden]) #pass-ready"):
            for row in dice:  # Saint-Lo 6.2: the throw drawn as dice, every face with its pips, as the text says
                values = [die_value(die) for die in row["dice"]]
                assert values and all(str(v) in row["text"] for v in values), row
            self.once("dice", '"What just happened": the throw drawn as dice, ' + "; ".join(r["text"] for r in dice))


def test_walkthrough_saintlo_hot_seat(live_server: Any, browser: Any, artifacts: Path) -> None:
    # the whole map, as a player who chose "Whole map" sees it: the play-through's player clicks any counter
    context, page, errors = new_page(browser, whole_map=True)
    frames, responses = watch_messages(page)
    walk = Walk("saintlo", page, artifacts, SAINTLO_ID)
    lobby(page, live_server.url, "saintlo", "hotseat", turn_limit="1")
    walk.shot("lobby", "The lobby: Panzer Saint-Lo 1944, hot-seat (both armies on this device), turn limit 1.")
    game_id = start_from_lobby(page, live_server.url, "saintlo", "hotseat", 2, turn_limit="1")
    page.wait_for_selector("#board polygon.hex")

    # Saint-Lo 4.2, 4.3: each seat's Command Posts, then its counters, placed for it (one click each)
    shown: set[str] = set()
    ready = '#prompt button.action[data-action="ready"]'
    for _ in range(40):
        p = wait_ready(page)
        if page.is_visible("#help-ok"):
            page.click("#help-ok")
        if take_device(page) is not None:
            page.wait_for_function("() => !window.warroomGame.busy && document.querySelector('#overlay').hidden")
            continue
        phase = p["view"]["state"]["phase"]
        if phase not in ("posts", "deploy"):
            break
        label = page.inner_text(f"{ready} .action-label")
        if phase not in shown:
            shown.add(phase)
            walk.shot(
                f"{phase}-ready",
                f'{p["side"]} to place its {"Command Posts" if phase == "posts" else "counters"}: "{label}" '
                "offered first.",
            )
        walk.act(ready, setup=True)
    else:
        raise AssertionError("the setup did not end")
    assert walk.setup_decisions == 4, walk.setup_decisions  # posts and counters, one click a seat each
    page.wait_for_function("() => !['posts', 'deploy'].includes(window.warroomGame.payload.view.state.phase)")
    walk.shot(
        "deployed",
        f"Setup done in {walk.setup_decisions} clicks: every counter face up on its hex, "
        f"{payload(page)['side']}'s view.",
    )

    first = payload(page)["view"]["state"]["active"].capitalize()  # Saint-Lo 4: the dice chose who starts
    player = WalkingPlayer(walk, live_server, game_id, artifacts)
    for _ in range(80):
        p = wait_ready(page)
        if p["view"]["over"]:
            break
        player.decide(first)
    else:
        raise AssertionError(f"the game did not end: {player.done}")
    assert player.attacks and player.moved and {"moved", "report-window", "dice"} <= player.shown, player.shown

    # Saint-Lo 3 (the turn limit): the end card
    page.wait_for_selector("#game-over")
    walk.no_ids()
    name = walk.name_of("over")
    result = end_shown(page, frames, responses, artifacts, name.removesuffix(".png"))
    walk.steps.append(
        (len(walk.steps) + 1, name, f'The end: "{page.inner_text("#game-over h2")}" — {result["reason"]}')
    )
    assert not errors, errors
    report(walk, artifacts)
    context.close()
