"""Each game's board for the browser comes from its own folder, through its spec (issue 13).

The server serves a game's board module and styles at /games/<id>/static/ as it serves /static (the
same headers, ETag, 304), refuses anything else with 404; /api/boards/<id> says where they are and
carries the game's help for the browser; every view carries a descriptor for each legal action
(the game's `describe_actions`), so the page never parses an action id; nothing under warroom/web
names a game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import warroom
from warroom.engine.ruleset import DICE_SIDE
from warroom.games import game_ids, get_ruleset, get_spec
from warroom.web.layouts import board_layout, describe_actions
from warroom.web.packed import unpack_actions

WEB = Path(__file__).resolve().parents[2] / "warroom" / "web"
BOARD_GAMES = [g for g in game_ids() if get_spec(g).board is not None]


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_each_board_is_served_from_its_games_folder(client: Any, game: str) -> None:
    layout = client.get(f"/api/boards/{game}").json()
    board = get_spec(game).board
    assert board is not None
    folder = board().static
    assert layout["module"] == f"/games/{game}/static/{board().module}"
    assert layout["styles"] and all(url.startswith(f"/games/{game}/static/") for url in layout["styles"])
    for url in [layout["module"], *layout["styles"]]:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.content == (folder / url.rsplit("/static/", 1)[1]).read_bytes()
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        # cached as /static is: a validator, and 304 when the browser holds the same file
        assert client.get(url, headers={"if-none-match": answer.headers["etag"]}).status_code == 304
        assert client.head(url).status_code == 200
    assert client.get(layout["module"]).headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize(
    "url",
    [
        "/games/no-such-game/static/board.js",
        "/games/{game}/static/no-such-file.js",
        "/games/{game}/static/%2e%2e/layout.py",
        "/games/{game}/static/..%2flayout.py",
        "/games/{game}/static/%2e%2e%2f%2e%2e%2fspec.py",
        "/games/{game}/static/",
    ],
)
def test_nothing_else_is_served_from_a_game(client: Any, url: str) -> None:
    answer = client.get(url.format(game=BOARD_GAMES[0]))
    assert answer.status_code == 404
    assert answer.json()["ok"] is False


def test_the_help_for_the_browser_comes_from_the_spec() -> None:
    for game in game_ids():
        spec = get_spec(game)
        shown = board_layout(game)["help"]
        assert shown == [{"title": s.title, "text": s.text, "rule": s.rule} for s in spec.help if s.only != "terminal"]
    assert any(s.only == "terminal" for g in game_ids() for s in get_spec(g).help)  # and those stay out


def _positions(game: str, scenario: str | None, seed: int, steps: int) -> Iterator[Any]:
    rng = random.Random(seed)
    match = warroom.new_game(game, scenario, seed=seed, dice="manual" if seed % 2 else "auto")
    for _ in range(steps):
        if match.over:
            return
        yield match
        legal = match.legal_actions()
        match.play(rng.choice(legal), side=DICE_SIDE if match.to_act == DICE_SIDE else None)


HORIZON = 400
"""Decisions of each random game whose actions are described: past a long setup (Saint-Lo places 16 Command
Posts and 130 units before the first move), into movement, attacks and cards."""


@pytest.mark.parametrize("game", game_ids())
def test_every_legal_action_has_a_descriptor_naming_its_parts(game: str) -> None:
    info = get_ruleset(game).info
    spec = get_spec(game)
    odds = spec.odds() if spec.odds is not None else None
    seen: set[str] = set()
    for k, scenario in enumerate(info.scenarios):
        names = _declared_names(spec.board().layout(scenario)) if spec.board is not None else set()
        for match in _positions(game, scenario, k, HORIZON):
            legal = match.legal_actions()
            found = describe_actions(match, legal)
            assert [d["id"] for d in found] == legal
            for d in found:
                seen.add(d["kind"])
                assert d["label"] == match.ruleset.describe_action(match.state, d["id"]) or "face" in d
                words = d["id"].split(" ")
                for key in (
                    "unit",
                    "from",
                    "to",
                ):  # each place or unit named is in the id, as a word or an end of a road
                    if key in d:
                        assert d[key] in words or any(
                            d[key] in w.split("->") or w.startswith(d[key] + ":") for w in words
                        ), (d, key)
                if "armor" in d:
                    assert d["armor"] + d.get("infantry", 0) > 0
                if "face" in d:
                    assert match.to_act == DICE_SIDE and d["id"] == f"roll {d['face']}"
                elif odds is not None and odds.action_odds(match.ruleset, match.state, d["id"]):
                    assert d.get("odds") is True, d  # the page asks for the odds of exactly such actions
                if names:  # a board draws each place a descriptor names: its layout declares them (units are pieces)
                    named = [d[key] for key in ("from", "to") if key in d]
                    named += [part["from"] for part in d.get("parts", ()) if "from" in part]
                    assert all(name in names for name in named), (d, [n for n in named if n not in names])
    if spec.board is None or spec.board().describe_actions is None:
        assert seen <= PLAIN_KINDS, seen  # without its own descriptors a game's actions are plain
    else:
        assert seen - PLAIN_KINDS, seen  # the game's descriptors name what its actions do (a verb of its own)


PLAIN_KINDS = {"action", "roll"}
"""The kinds of descriptor the server gives by itself: an action of a game without descriptors, a die typed in."""


def _declared_names(layout: Any) -> set[str]:
    """Every name a board's layout declares (its keys and string values, at any depth): the ids of its places are
    among them, however the game lays its data out."""
    if isinstance(layout, dict):
        return {str(key) for key in layout} | {name for value in layout.values() for name in _declared_names(value)}
    if isinstance(layout, list | tuple):
        return {name for value in layout for name in _declared_names(value)}
    return {layout} if isinstance(layout, str) else set()


def test_a_view_carries_the_descriptors_once_in_the_order_of_legal(client: Any) -> None:
    created = client.post("/api/games", json={"game": BOARD_GAMES[0], "mode": "hotseat", "seed": 3}).json()
    view = client.get(f"/api/games/{created['id']}", params={"token": created["seats"][0]["token"]}).json()
    match = client.app.state.service.live[created["id"]].match
    assert "labels" not in view and "id" not in view["actions"]["fields"]  # the ids are view.legal, sent once
    assert unpack_actions(view["actions"], view["view"]["legal"]) == describe_actions(match, match.legal_actions())


PLAIN_GAMES = [g for g in game_ids() if get_spec(g).board is None]
"""Registered games with neither a board nor descriptors of their own (the test session registers one)."""


@pytest.mark.skipif(not PLAIN_GAMES, reason="no registered game lacks both a board and descriptors")
def test_a_game_without_descriptors_or_board_gets_plain_ones() -> None:
    game = PLAIN_GAMES[0]
    assert board_layout(game)["kind"] == "none" and board_layout(game)["help"]
    match = warroom.new_game(game, seed=1)
    while match.to_act == DICE_SIDE or not match.legal_actions():
        match.play(match.legal_actions()[0], side=DICE_SIDE)
    found = describe_actions(match, match.legal_actions())
    assert found and all(d["kind"] == "action" and set(d) == {"id", "label", "kind"} for d in found)


def test_nothing_under_warroom_web_names_a_game() -> None:
    """Generic code asks the spec: no page, script, style or module of the server names a registered game."""
    pattern = re.compile("|".join(re.escape(g) for g in game_ids()), re.IGNORECASE)
    found = [
        f"{path.relative_to(WEB)}:{n}"
        for path in WEB.rglob("*")
        if path.suffix in (".py", ".js", ".html", ".css")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, found


def test_board_modules_load_nothing_inline() -> None:
    for game in BOARD_GAMES:
        board = get_spec(game).board
        assert board is not None
        for script in board().static.glob("*.js"):
            text = script.read_text()
            assert 'h("style"' not in text and 'setAttribute("style"' not in text and "eval(" not in text, script
            # a board imports only the page's shared helpers (served at /static/js/) and files of its own folder
            for source in re.findall(r'^import .* from "([^"]+)";$', text, re.MULTILINE):
                assert source.startswith("/static/js/") or source.startswith("./"), (script, source)
