"""The browser's Saint-Lo speaks players' words (issue item 2): the buttons' labels (the view's packed action
descriptors), the events pushed after each move, the odds of the battle under way and the game log name a
counter by its printed name and hex ("Tiger I at 1408"), never by its id (`de_tiger_i.1`), in the two-player
and the team game (10). A hot-seat game is played over the API (a TestClient on SQLite), choosing attacks and
Battle Reports often so that the log holds moves, attacks, dice and cards.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from web_pages import client_post, seat_tokens

import warroom
from warroom.games.saintlo.state import Phase
from warroom.web.packed import unpack_actions

ID = re.compile(r"\b(us|de)_[a-z0-9_]+(\.\d+)?\b")
FIGHTS = ("attack ", "play ", "support ", "fire")
ATTACKS = 4
"""Attacks a game is played to: each with its dice in the log."""


def _texts(payload: dict[str, Any]) -> list[str]:
    """What a view shows in words: each legal action's label, the events that came with it, the battle's odds."""
    descriptors = unpack_actions(payload["actions"], payload["view"]["legal"])
    texts = [d["label"] for d in descriptors]
    texts += [event["text"] for event in payload.get("events", [])]
    texts += [battle["text"] for battle in payload.get("battle_odds", [])]
    return texts


def _after_the_setup(client: Any, game: str, seed: int) -> dict[str, Any]:
    """A hot-seat game uploaded from a record whose setup (4) was played by seeded random choices: the setup's
    thousands of placements a decision are read by tests/saintlo/test_names.py; here the play matters."""
    m = warroom.new_game(game, seed=seed, options={"turn_limit": 6})
    rng = random.Random(seed)
    while m.state.phase in (Phase.POSTS, Phase.DEPLOY):
        m.play(rng.choice(m.legal_actions()))
    uploaded = client.post("/api/games/upload", json={"record": m.record().to_json(), "mode": "hotseat"})
    assert uploaded.status_code == 201, uploaded.text
    return uploaded.json()


def _view(client: Any, game_id: str, token: str) -> dict[str, Any]:
    return client.get(f"/api/games/{game_id}", params={"token": token}).json()


@pytest.mark.parametrize(("game", "seed"), [("saintlo", 21), ("saintlo-teams", 22)])
def test_the_browser_shows_names_not_ids(client: Any, game: str, seed: int) -> None:
    created = _after_the_setup(client, game, seed)
    game_id = created["id"]
    tokens = seat_tokens(client_post(client), created)
    rng = random.Random(seed)
    shown: list[str] = []
    attacks = 0
    side = _view(client, game_id, next(iter(tokens.values())))["view"]["to_act"]
    for _ in range(20_000):  # decisions, and polls while the server answers a seat's concealed one itself (9)
        payload = _view(client, game_id, tokens[side])
        legal = payload["view"]["legal"]
        assert not payload["view"]["over"], "the game ended before it showed attacks"
        if not legal:
            side = payload["view"]["to_act"] if payload["view"]["to_act"] in tokens else side
            continue
        shown.extend(_texts(payload))
        fights = [a for a in legal if a.startswith(FIGHTS)]
        action = rng.choice(fights if fights and rng.random() < 0.7 else legal)
        attacks += action.startswith("attack ")
        answer = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[side]},
            json={"action": action, "move": payload["move"]},
        )
        assert answer.status_code < 300, answer.text
        shown.extend(_texts(answer.json()))
        if attacks >= ATTACKS:
            break
        side = answer.json()["view"]["to_act"] if answer.json()["view"]["to_act"] in tokens else side
    assert attacks >= ATTACKS
    log: list[str] = []
    for token in tokens.values():
        log += [
            event["text"] for event in client.get(f"/api/games/{game_id}/log", params={"token": token}).json()["events"]
        ]
    # Saint-Lo 6.2: attacks and their dice are in the log, in words
    assert any(" attacks " in text for text in log) and any(text.startswith("The attacker throws ") for text in log)
    assert [text for text in shown + log if ID.search(text)] == []
