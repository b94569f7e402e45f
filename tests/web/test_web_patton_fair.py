"""Patton on the web server, played fairly: both seats see the exact odds of a battle before it is
fought (the side attacked too, and at the table before the dice are typed in), and an online game's
seed, which with the moves so far tells every movement card and die to come, is the server's secret.

API level (no browser): what each seat is sent, read as JSON text.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from web_pages import client_post, seat_tokens

import warroom
from warroom.games.patton.combat import dice_for
from warroom.games.patton.odds import round_outcome


def seats_of(client: Any, created: dict[str, Any]) -> dict[str, str]:
    """Every seat's token: the creator's, and an online game's invites claimed as the opponents would."""
    return seat_tokens(client_post(client), created)


def get(client: Any, game_id: str, token: str, route: str = "") -> Any:
    return client.get(f"/api/games/{game_id}{route}", params={"token": token})


def act(client: Any, game_id: str, token: str, action: str, move: int) -> dict[str, Any]:
    answer = client.post(
        f"/api/games/{game_id}/actions", params={"token": token}, json={"action": action, "move": move}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def target_of(action: str) -> str:
    return action.split(" ")[2].split("->")[1]


def mix_of(action: str) -> tuple[int, int]:
    mix = action.split(" ")[1]
    armor = int(mix.split("A")[0]) if "A" in mix else 0
    infantry = int(mix.rstrip("I").split("A")[-1]) if mix.endswith("I") else 0
    return armor, infantry


def first_attack(view: dict[str, Any]) -> str:
    towns, mover = view["state"]["towns"], view["state"]["mover"]
    return next(
        a
        for a in view["legal"]
        if a.startswith("move ") and towns.get(target_of(a), {}).get("side") not in (None, mover)
    )


def strongest_attack(view: dict[str, Any]) -> str:
    """The attack throwing the most dice (1 Infantry alone throws none: its battle has no dice to type in)."""
    towns, mover = view["state"]["towns"], view["state"]["mover"]
    attacks = [
        a
        for a in view["legal"]
        if a.startswith("move ") and towns.get(target_of(a), {}).get("side") not in (None, mover)
    ]
    return max(
        attacks,
        key=lambda a: (
            dice_for(*mix_of(a)) + dice_for(towns[target_of(a)]["armor"], towns[target_of(a)]["infantry"]),
            a,
        ),
    )


def expected(attack: tuple[int, int], town: dict[str, Any]) -> dict[str, Any]:
    """The engine's exact odds of one round, attacker's view (Patton: Battles)."""
    return round_outcome(*attack, town["armor"], town["infantry"])


def check_entry(entry: dict[str, Any], odds: dict[str, Any], mine: str) -> None:
    """A seat's entry: the attacker's win is the defender's loss (with both wiped out), and the reverse."""
    fraction = odds["attacker_wins"] if mine == "attacker" else odds["defender_wins"]
    assert entry["mine"] == mine and entry["fraction"] == f"{fraction.numerator}/{fraction.denominator}"
    lose = (odds["defender_wins"] if mine == "attacker" else odds["attacker_wins"]) + odds["both_eliminated"]
    assert entry["outcome"] == pytest.approx({"win": float(fraction), "tie": float(odds["tie"]), "lose": float(lose)})
    assert entry["exact"] == {k: f"{p.numerator}/{p.denominator}" for k, p in odds.items()}
    assert "%" in entry["text"] and entry["summary"]


# -- odds for both seats -----------------------------------------------------------------------------
def test_both_online_seats_get_the_odds_of_the_battle_set_up(client: Any) -> None:
    created = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": "online"})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], seats_of(client, created.json())
    view = get(client, game_id, tokens["Allied"]).json()["view"]
    attack = first_attack(view)
    town_id = target_of(attack)
    town = view["state"]["towns"][town_id]
    before = get(client, game_id, tokens["Allied"], "/odds").json()["odds"][
        attack
    ]  # the mover's own odds, before committing
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['Axis']}") as axis_ws:
        assert axis_ws.receive_json()["battle_odds"] == []  # no attack set up yet
        answer = act(client, game_id, tokens["Allied"], attack, 0)
        pushed = axis_ws.receive_json()  # what the German's browser is sent the moment the attack is set up
    odds = expected(mix_of(attack), town)
    allied = answer["battle_odds"]
    axis = get(client, game_id, tokens["Axis"]).json()
    assert axis["view"]["legal"] == [] and axis["view"]["to_act"] == "Allied"  # the side not acting...
    for entries, mine in ((allied, "attacker"), (axis["battle_odds"], "defender"), (pushed["battle_odds"], "defender")):
        assert [(e["town"], e["attacker"], e["defender"], e["status"]) for e in entries] == [
            (town_id, "Allied", "Axis", "pending")
        ]
        check_entry(entries[0], odds, mine)  # ...sees the same exact odds, from its side of the battle
        armor, infantry = mix_of(attack)
        assert entries[0]["forces"] == {
            "attacker": {"armor": armor, "infantry": infantry},
            "defender": {"armor": town["armor"], "infantry": town["infantry"]},
        }
        assert (entries[0]["attacker_dice"], entries[0]["defender_dice"]) == (
            dice_for(armor, infantry),
            dice_for(town["armor"], town["infantry"]),
        )
    assert (
        allied[0]["p"] == before["p"] and allied[0]["fraction"] == before["fraction"]
    )  # what the mover was shown before moving
    assert get(client, game_id, tokens["Axis"], "/odds").json()["battles"] == axis["battle_odds"]


def test_the_table_die_prompt_carries_the_odds_of_the_battle_being_thrown(client: Any) -> None:
    created = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": "table"}).json()
    game_id, tokens = created["id"], seats_of(client, created)
    payload = created["game"]
    assert payload["view"]["to_act"] == "dice" and payload["view"]["state"]["phase"] == "card"
    assert payload["battle_odds"] == []  # a movement card: no battle
    payload = act(client, game_id, tokens["Allied"], payload["view"]["legal"][-1], 0)  # the highest card left
    attack = strongest_attack(payload["view"])
    town = payload["view"]["state"]["towns"][target_of(attack)]
    assert dice_for(*mix_of(attack)) + dice_for(town["armor"], town["infantry"]) >= 2
    payload = act(client, game_id, tokens["Allied"], attack, payload["move"])
    payload = act(
        client, game_id, tokens["Allied"], "end", payload["move"]
    )  # the one battle starts: its dice are typed in
    odds = expected(mix_of(attack), town)
    for typed in range(2):
        battle = payload["view"]["state"]["battle"]
        assert payload["view"]["to_act"] == "dice" and battle["target"] == target_of(attack)
        for side, mine in (("Allied", "attacker"), ("Axis", "defender")):
            prompt = get(client, game_id, tokens[side]).json()
            assert prompt["view"]["legal"] == [
                f"roll {n}" for n in range(1, 7)
            ]  # the die prompt, at either seat of the table
            fighting = [e for e in prompt["battle_odds"] if e["status"] == "fighting"]
            assert [e["town"] for e in fighting] == [battle["target"]], (
                f"{side} is asked for die {typed + 1} without the battle's odds"
            )
            assert (fighting[0]["attacker_dice"], fighting[0]["defender_dice"]) == (
                battle["attacker_dice"],
                battle["defender_dice"],
            )
            check_entry(fighting[0], odds, mine)
        if battle["attacker_dice"] + battle["defender_dice"] < 2:
            break
        payload = act(
            client, game_id, tokens["Allied"], "roll 3", payload["move"]
        )  # the odds stay those before the dice


# -- the seed ----------------------------------------------------------------------------------------
def test_an_online_game_refuses_a_chosen_seed(client: Any) -> None:
    refused = client.post("/api/games", json={"game": "patton", "scenario": "bulge", "mode": "online", "seed": 5})
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "seed_not_allowed" and "seed" in error["message"] and "secret" in error["message"]
    assert (
        client.post(
            "/api/games", json={"game": "patton", "scenario": "bulge", "mode": "online", "seed": None}
        ).status_code
        == 201
    )
    for mode in (
        "hotseat",
        "computer",
        "table",
    ):  # studying a game: a chosen seed is allowed (the lobby says it is predictable)
        created = client.post("/api/games", json={"game": "patton", "scenario": "bulge", "mode": mode, "seed": 5})
        assert created.status_code == 201, (mode, created.text)


def future_cards(match: Any, count: int = 6) -> list[int]:
    """The movement cards a match will turn up next, played on in private (ending every turn at once)."""
    twin = match.clone()
    cards: list[int] = []
    while len(cards) < count and not twin.over:
        legal = twin.legal_actions()
        cards += [e["card"] for e in twin.play("end" if "end" in legal else legal[0]) if e["type"] == "card"]
    return cards


def test_an_unfinished_record_continued_online_is_reseeded(client: Any) -> None:
    m = warroom.new_game("patton", "normandy", seed=424242)
    m.play(first_attack(m.view("Allied")))
    m.play("end")
    record = m.record().to_json()
    assert record["dice"] and not m.over
    online = client.post("/api/games/upload", json={"record": record, "mode": "online"})
    assert online.status_code == 201, online.text
    game_id = online.json()["id"]
    stored = client.app.state.store.load(game_id)
    assert stored.header["seed"] not in (None, 424242)  # the uploader knows the old seed; the new one is the server's
    assert (
        stored.header["rng"] == "hmac-sha256" and len(stored.header["seed"]) == 64
    )  # a committed key, as a new online game gets
    assert (
        stored.header["dice"] == record["dice"]
    )  # the dice so far are the record's own: the key's stream starts after them
    live = client.app.state.service.live[game_id].match
    assert live.view("Allied")["state"] == m.view("Allied")["state"]  # everything played stays as it was
    assert future_cards(live, 8) != future_cards(m, 8)  # what the uploader could work out no longer comes true
    hotseat = client.post("/api/games/upload", json={"record": record, "mode": "hotseat"}).json()
    assert (
        client.app.state.store.load(hotseat["id"]).header["seed"] == 424242
    )  # elsewhere the record goes on as recorded
    # scripted dice not yet rolled would tell the future just as well: only those rolled are kept
    scripted = {**record, "header": {**record["header"], "dice": [*record["dice"], 6, 6, 6, 6]}}
    online = client.post("/api/games/upload", json={"record": scripted, "mode": "online"})
    assert online.status_code == 201, online.text
    assert client.app.state.store.load(online.json()["id"]).header["dice"] == record["dice"]


def test_no_payload_to_an_online_seat_holds_the_seed(client: Any) -> None:
    created = client.post("/api/games", json={"game": "patton", "scenario": "normandy", "mode": "online"})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["id"], seats_of(client, created.json())
    seed = client.app.state.store.load(game_id).header["seed"]
    assert (
        isinstance(seed, str) and seed == client.app.state.service.live[game_id].match.seed
    )  # the key the dice come from
    assert len(bytes.fromhex(seed)) * 8 >= 128 and client.app.state.store.load(game_id).header["rng"] == "hmac-sha256"
    sent: dict[str, list[str]] = {"Allied": [created.text], "Axis": []}

    def read_all(side: str) -> None:
        token = tokens[side]
        for route in ("", "/log", "/odds", "/record", "/replay"):
            sent[side].append(get(client, game_id, token, route).text)
        sent[side].append(client.post("/api/lobby", json={"tokens": [token]}).text)

    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['Allied']}") as allied_ws,
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['Axis']}") as axis_ws,
    ):
        sockets = {"Allied": allied_ws, "Axis": axis_ws}
        for side, ws in sockets.items():
            sent[side].append(json.dumps(ws.receive_json()))
        payload = get(client, game_id, tokens["Allied"]).json()
        battles = 0
        for _ in range(40):  # through the first turn's moves and battles into the German turn
            side = payload["view"]["to_act"]
            if side not in tokens or payload["view"]["over"]:
                break
            mine = get(client, game_id, tokens[side]).json()
            legal = mine["view"]["legal"]
            attacks = (
                [a for a in legal if a.startswith("move ")] if mine["view"]["state"]["phase"] == "movement" else []
            )
            action = (
                first_attack(mine["view"])
                if attacks and battles < 1 and side == "Allied"
                else ("end" if "end" in legal else legal[0])
            )
            battles += action.startswith("move ")
            answer = client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[side]},
                json={"action": action, "move": mine["move"]},
            )
            assert answer.status_code == 200, answer.text
            sent[side].append(answer.text)
            for seat, ws in sockets.items():
                sent[seat].append(json.dumps(ws.receive_json()))
            read_all(side)
            payload = answer.json()
            if payload["view"]["state"]["turn"] > 1:
                break
    assert battles == 1 and payload["view"]["state"]["turn"] > 1  # an attack was set up, fought, and the play went on
    assert any(
        '"status": "pending"' in x or '"status":"pending"' in x for x in sent["Axis"]
    )  # the German was told its odds
    for side in tokens:
        read_all(side)
        text = "\n".join(sent[side])
        assert len(sent[side]) > 10 and '"battle_odds"' in text
        assert seed not in text, f"{side} was sent the seed {seed}, which tells every card and die to come"
        assert seed.upper() not in text and seed[:16] not in text  # not even in part, in any spelling
        assert set(re.findall(r'"seed":\s*([^,}\s]+)', text)) == {
            "null"
        }  # the only seed any seat was sent: fairness's, null till the end
