"""Undo between strangers online: a move the other player has been shown cannot be taken back, nor a look at
what the rules hide (a rules audit as a cheating opponent found both open, 6 December)."""

from __future__ import annotations

import random
from typing import Any

from web_pages import client_post, seat_tokens


def _online(client: Any, game: str, **extra: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/api/games", json={"game": game, "mode": "online", **extra}).json()
    return created["id"], seat_tokens(client_post(client), created)


def _view(client: Any, gid: str, token: str) -> dict[str, Any]:
    return client.get(f"/api/games/{gid}", params={"token": token}).json()


def test_no_undo_once_the_other_player_is_deciding(client: Any) -> None:
    # Saint-Lo 9: an attack declared opens the defender's Battle Report window; the attacker may not take the
    # attack back while the defender decides (he would learn the defender holds a card, risk-free)
    rng = random.Random(5)
    for _ in range(8):  # online dice are secret: a game may end before the case comes up, then another
        gid, tokens = _online(client, "saintlo", options={"turn_limit": 4})
        live = client.app.state.service.live[gid]
        while True:
            mover = _view(client, gid, tokens["Allied"])["view"]["to_act"]
            if mover not in tokens:
                break
            mine = _view(client, gid, tokens[mover])
            legal = mine["view"]["legal"]
            attacks = [a for a in legal if a.startswith("attack ")]
            if "fire" in legal:
                action = "fire"
            else:
                action = rng.choice(attacks) if attacks and rng.random() < 0.5 else rng.choice(legal)
            answer = client.post(
                f"/api/games/{gid}/actions",
                params={"token": tokens[mover]},
                json={"action": action, "move": mine["move"]},
            ).json()
            waiting = answer["view"]["to_act"]
            rolled = live.steps[-1].dice  # a roll locks undo anyway: not the case tested
            if waiting in tokens and waiting != mover and answer["view"]["state"].get("window") and not rolled:
                refused = client.post(
                    f"/api/games/{gid}/undo", params={"token": tokens[mover]}, json={"move": answer["move"]}
                )
                assert refused.status_code == 409 and refused.json()["error"]["code"] == "undo_locked"
                assert waiting in refused.json()["error"]["message"]
                assert _view(client, gid, tokens[waiting])["view"]["to_act"] == waiting  # nothing changed
                return
    raise AssertionError("no Battle Report window opened without a roll in 8 games")


def test_a_move_that_shows_what_lies_beneath_a_stack_cannot_be_undone(client: Any) -> None:
    # Tunisia 6.0E: a unit stepping beside an enemy stack sees beneath it; that look is not taken back
    rng = random.Random(7)
    undone = locked = 0
    for _ in range(6):  # online dice are secret: a game may pass no hidden stack, then another
        gid, tokens = _online(client, "tunisia")
        while True:
            mover = _view(client, gid, tokens["Axis"])["view"]["to_act"]
            if mover not in tokens:
                break
            mine = _view(client, gid, tokens[mover])
            before = set(mine["view"]["state"]["pieces"])
            moves = [a for a in mine["view"]["legal"] if a.startswith("move ")]
            action = rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(mine["view"]["legal"])
            answer = client.post(
                f"/api/games/{gid}/actions",
                params={"token": tokens[mover]},
                json={"action": action, "move": mine["move"]},
            ).json()
            if not action.startswith("move ") or answer["view"]["to_act"] != mover:
                continue
            shown = set(answer["view"]["state"]["pieces"]) - before
            undo = f"/api/games/{gid}/undo"
            reply = client.post(undo, params={"token": tokens[mover]}, json={"move": answer["move"]})
            if shown:
                assert reply.status_code == 409 and reply.json()["error"]["code"] == "undo_locked", shown
                locked += 1
            elif reply.status_code == 200:
                undone += 1  # a plain move is still taken back
                again = _view(client, gid, tokens[mover])
                client.post(
                    f"/api/games/{gid}/actions",
                    params={"token": tokens[mover]},
                    json={"action": action, "move": again["move"]},
                )
            if locked and undone >= 3:
                return
    raise AssertionError(f"a reveal and three plain undos were not both seen ({locked} locked, {undone} undone)")
