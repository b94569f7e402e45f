"""Storage: SQLite in WAL mode, migrations at startup, no acknowledged move lost on a restart, and on
PostgreSQL (every test that takes `db_url` runs on both) the notices that carry pushes across processes."""

from __future__ import annotations

import queue
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from patience import SLOW_STATE_SECONDS

import warroom
from warroom.web.server import create_app
from warroom.web.service import GameService
from warroom.web.storage import MIGRATIONS, StaleError, Step, Store

pytestmark = pytest.mark.both_databases


def _client(db_url: str) -> tuple[Any, TestClient]:
    app = create_app(db_url)
    return app, TestClient(app)


def _act(client: TestClient, game_id: str, token: str, action: str, move: int) -> dict[str, Any]:
    answer = client.post(
        f"/api/games/{game_id}/actions", params={"token": token}, json={"action": action, "move": move}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _wait(condition: Callable[[], bool], what: str, seconds: float = SLOW_STATE_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.01)


def _version(service: GameService, game_id: str) -> int | None:
    """The version of the game in the service's memory (read from the test's thread while the server's changes it)."""
    live = service.live.get(game_id)
    return None if live is None else live.version


def _until_pong(socket: Any) -> list[dict[str, Any]]:
    """Every message up to the answer to a ping: what was pushed before it, without waiting for ever."""
    socket.send_text("ping")
    messages = []
    while (message := socket.receive_json())["type"] != "pong":
        messages.append(message)
    return messages


def test_sqlite_is_in_wal_mode_and_at_the_newest_migration(tmp_path: Path) -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    db_url = f"sqlite:///{tmp_path / 'warroom.db'}"
    store = Store(db_url)
    store.close()
    with sqlite3.connect(tmp_path / "warroom.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        version = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert version == ScriptDirectory.from_config(config).get_current_head()
    Store(db_url).close()  # upgrading an up-to-date database is a no-op that keeps it


def test_a_restarted_server_resumes_every_game_with_every_acknowledged_move(db_url: str) -> None:
    app, client = _client(db_url)
    created = client.post("/api/games", json={"game": "dragoon", "seed": 11}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    table = client.post("/api/games", json={"game": "dragoon", "seed": 5, "mode": "table"}).json()
    table_id, table_token = table["id"], table["seats"][0]["token"]
    reference = warroom.new_game("dragoon", seed=11)
    payload = created["game"]
    for _ in range(6):  # invasions, FFI, attacks, the BOT: each acknowledged step
        action = payload["view"]["legal"][0]
        payload = _act(client, game_id, token, action, payload["move"])
        assert payload["events"] == reference.play(action)
    _act(client, table_id, table_token, "invade VI-Corps Delta-Beach", 0)
    _act(client, table_id, table_token, "roll 4", 1)
    log_before = client.get(f"/api/games/{game_id}/log", params={"token": token}).json()["events"]
    client.close()
    app.state.store.close()
    del app, client  # the server is gone; only the database file remains

    app, client = _client(db_url)
    resumed = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert resumed["move"] == payload["move"] and resumed["view"] == payload["view"]
    assert client.get(f"/api/games/{game_id}/log", params={"token": token}).json()["events"] == log_before
    # the dice go on exactly as they would have without the restart
    action = resumed["view"]["legal"][-1]
    assert _act(client, game_id, token, action, resumed["move"])["events"] == reference.play(action)
    table_view = client.get(f"/api/games/{table_id}", params={"token": table_token}).json()
    assert table_view["move"] == 2 and table_view["view"]["state"]["allied"]["VI-Corps"]["location"] == "Delta-Beach"
    client.close()
    app.state.store.close()


def test_the_computers_reasons_come_back_after_a_restart(db_url: str) -> None:
    """Issue 17: every computer move has its reason in the log; stored with the step, a restarted server (or
    another process reading the game) shows each where it was, after the move it explains."""
    app = create_app(db_url)
    with TestClient(app) as client:  # the server's loop runs between requests: the computer plays its turn
        created = client.post(
            "/api/games",
            json={"game": "tunisia", "seed": 3, "mode": "computer", "human": ["Allied"], "agent": "heuristic"},
        ).json()
        game_id, token = created["id"], created["seats"][0]["token"]

        def game(c: TestClient) -> dict[str, Any]:
            return c.get(f"/api/games/{game_id}", params={"token": token}).json()

        def log(c: TestClient) -> list[dict[str, Any]]:
            return c.get(f"/api/games/{game_id}/log", params={"token": token}).json()["events"]

        _wait(lambda: game(client)["view"]["to_act"] == "Allied", "the computer's first turn")
        before = log(client)
        reasons = [n for n, e in enumerate(before) if e["type"] == "reason"]
        stored = app.state.store.load(game_id)
        assert len(reasons) >= 3 and sum(1 for step in stored.steps if step.reason) == len(reasons)
        # Tunisia 6.0E: the Allied seat reads at once the reasons that tell nothing of what lies beneath the
        # computer's stacks (tests/tunisia/test_reasons.py), and is told the others are kept secret
        said = [before[n]["text"] for n in reasons]
        assert any(text.startswith("Why (Axis, computer): Move ") for text in said), said
        assert any(text.endswith("kept secret, it may tell what Axis holds") for text in said), said
    app.state.store.close()
    del app, client  # the server is gone; only the database remains

    app, client = _client(db_url)
    assert log(client) == before  # each reason back in its place, after the move it explains
    client.close()
    app.state.store.close()


def test_a_database_of_the_previous_schema_is_upgraded_with_its_games(tmp_path: Path) -> None:
    """Migration 0003 adds the steps' reasons to a database made before it: the games in it load and go on."""
    from alembic import command
    from alembic.config import Config

    db_url = f"sqlite:///{tmp_path / 'warroom.db'}"
    app, client = _client(db_url)
    created = client.post("/api/games", json={"game": "dragoon", "seed": 4}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    payload = _act(client, game_id, token, created["game"]["view"]["legal"][0], 0)
    client.close()
    app.state.store.close()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    store = Store(db_url)
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    store.close()
    with sqlite3.connect(tmp_path / "warroom.db") as conn:
        assert "reason" not in {row[1] for row in conn.execute("PRAGMA table_info(steps)")}

    app, client = _client(db_url)  # the server upgrades the database as it starts
    resumed = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert resumed["move"] == payload["move"] and resumed["view"] == payload["view"]
    assert [step.reason for step in app.state.store.load(game_id).steps] == [None]
    client.close()
    app.state.store.close()


def test_two_server_processes_on_one_database_refuse_a_stale_write(db_url: str) -> None:
    app_a, a = _client(db_url)
    app_b, b = _client(db_url)
    created = a.post("/api/games", json={"game": "dragoon", "seed": 2}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    assert b.get(f"/api/games/{game_id}", params={"token": token}).json()["move"] == 0  # b caches the game
    _act(a, game_id, token, "invade 3rd-ID Alpha-Beach", 0)
    clash = b.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"action": "invade VI-Corps Delta-Beach", "move": 0},
    )
    assert clash.status_code == 409
    fresh = b.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert fresh["move"] == 1 and fresh["view"]["state"]["allied"]["VI-Corps"]["location"] is None
    for app, client in ((app_a, a), (app_b, b)):
        client.close()
        app.state.store.close()


def test_a_move_that_cannot_be_stored_is_not_acknowledged(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app, client = _client(db_url)
    created = client.post("/api/games", json={"game": "dragoon", "seed": 2}).json()
    game_id, token = created["id"], created["seats"][0]["token"]

    def disk_full(*_args: Any, **_kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(app.state.store, "append_step", disk_full)
    failed = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"action": "invade 3rd-ID Alpha-Beach", "move": 0},
    )
    assert failed.status_code == 503
    monkeypatch.undo()
    again = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert again["move"] == 0 and again["view"]["state"]["allied"]["3rd-ID"]["location"] is None
    client.close()
    app.state.store.close()


def test_sockets_keep_their_pushes_after_a_failed_save(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed save drops the game from memory; the seats' open sockets must still hear the next move."""
    created = client.post("/api/games", json={"game": "patton", "mode": "hotseat", "seed": 3}).json()
    game_id, tokens = created["id"], {seat["side"]: seat["token"] for seat in created["seats"]}
    service = client.app.state.service  # type: ignore[attr-defined]
    store = client.app.state.store  # type: ignore[attr-defined]
    legal = created["game"]["view"]["legal"]
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['Axis']}") as axis,
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['Allied']}") as allied,
    ):
        assert axis.receive_json()["move"] == 0 and allied.receive_json()["move"] == 0
        saved = store.append_step

        def disk_full_once(*args: Any, **kwargs: Any) -> None:
            monkeypatch.setattr(store, "append_step", saved)
            raise OSError("disk full")

        monkeypatch.setattr(store, "append_step", disk_full_once)
        failed = client.post(
            f"/api/games/{game_id}/actions", params={"token": tokens["Allied"]}, json={"action": legal[0], "move": 0}
        )
        assert failed.status_code == 503 and failed.json()["error"]["code"] == "storage"
        assert game_id not in service.live  # memory ran ahead of storage: the game was dropped, to be read back
        assert _until_pong(axis) == []  # nothing was pushed for the move that was not made
        payload = _act(client, game_id, tokens["Allied"], legal[0], 0)
        for socket in (axis, allied):
            pushed = _until_pong(socket)
            assert [m["move"] for m in pushed] == [1] and pushed[0]["type"] == "update"
        assert pushed[0]["view"] == payload["view"]


def test_sqlite_has_no_listener(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'one.db'}")
    assert not store.shared and store.listen(lambda game_id, version: None) is None  # one process owns a SQLite file
    store.close()


def test_every_committed_change_is_announced_once_and_a_refused_one_never(pg_url: str) -> None:
    store = Store(pg_url)
    assert store.url.startswith("postgresql+psycopg") and store.shared
    heard: queue.Queue[tuple[str | None, int | None]] = queue.Queue()
    listener = store.listen(lambda game_id, version: heard.put((game_id, version)))
    assert listener is not None and listener.listening.is_set()
    try:
        game_id = (
            GameService(store).create("dragoon", seed=7, mode="hotseat").live.id
        )  # creating tells nobody: no one watches it yet
        store.append_step(game_id, 0, 0, Step("decision", "invade 3rd-ID Alpha-Beach", [4]), False, None, "1")
        assert heard.get(timeout=SLOW_STATE_SECONDS) == (game_id, 1)
        store.append_step(game_id, 1, 1, Step("decision", "end", []), False, None, "1")
        assert heard.get(timeout=SLOW_STATE_SECONDS) == (game_id, 2)
        with pytest.raises(StaleError):  # a write that loses the race changes nothing and tells nobody
            store.append_step(game_id, 1, 2, Step("decision", "end", []), False, None, "1")
        store.remove_last_steps(game_id, 2, 1, "1")  # undo
        assert heard.get(timeout=SLOW_STATE_SECONDS) == (game_id, 3)
        with store.engine.begin() as conn:  # another program's notice on the channel is ignored
            conn.exec_driver_sql("NOTIFY warroom_games, 'not a change'")
        store.append_step(game_id, 3, 1, Step("decision", "end", []), False, None, "1")
        assert heard.get(timeout=SLOW_STATE_SECONDS) == (game_id, 4)
        # nothing more was told of those changes: the notices come in commit order, so the next one heard is the
        # next change's (waited for, rather than a pause that hopes any stray notice came within it)
        store.append_step(game_id, 4, 2, Step("decision", "end", []), False, None, "1")
        assert heard.get(timeout=SLOW_STATE_SECONDS) == (game_id, 5)
        assert heard.empty()
    finally:
        listener.stop()
        store.close()
    assert not listener.listening.is_set()


def test_a_move_through_one_server_reaches_the_sockets_another_holds(pg_url: str) -> None:
    """Two apps on one PostgreSQL, as two server processes would be: pushes and caches follow the other's moves."""
    with TestClient(create_app(pg_url)) as a, TestClient(create_app(pg_url)) as b:
        created = a.post("/api/games", json={"game": "patton", "mode": "hotseat", "seed": 3}).json()
        game_id, tokens = created["id"], {seat["side"]: seat["token"] for seat in created["seats"]}
        service_a = a.app.state.service  # type: ignore[attr-defined]
        legal = created["game"]["view"]["legal"]
        with a.websocket_connect(f"/api/games/{game_id}/ws?token={tokens['Axis']}") as axis:
            assert axis.receive_json()["move"] == 0
            held = service_a.live[game_id]
            payload = _act(b, game_id, tokens["Allied"], legal[0], 0)
            _wait(lambda: _version(service_a, game_id) == 1, "server A to read back the move made through B")
            pushed = _until_pong(axis)
            assert [m["move"] for m in pushed] == [1]
            axis_view = b.get(f"/api/games/{game_id}", params={"token": tokens["Axis"]}).json()
            assert pushed[0]["view"] == axis_view["view"] and pushed[0]["side"] == "Axis"
            assert [e["type"] for e in pushed[0]["events"]] == [
                e["type"] for e in payload["events"]
            ]  # the move's events too
            assert (
                service_a.live[game_id] is held and len(held.steps) == 1
            )  # caught up by playing the one new step, not read back
            # an undo through B: A cannot just play on, reads the game back whole, and says a move was taken back
            undone = b.post(f"/api/games/{game_id}/undo", params={"token": tokens["Allied"]}, json={"move": 1})
            assert undone.status_code == 200, undone.text
            _wait(lambda: _version(service_a, game_id) == 2, "server A to read back the undo made through B")
            pushed = _until_pong(axis)
            assert [m["move"] for m in pushed] == [2] and pushed[0]["events"][0]["type"] == "undo"
            assert pushed[0]["view"] == b.get(f"/api/games/{game_id}", params={"token": tokens["Axis"]}).json()["view"]
            # a watched game A no longer holds in memory is read back for its sockets
            del service_a.live[game_id]
            payload = _act(b, game_id, tokens["Allied"], legal[0], 2)
            _wait(lambda: _version(service_a, game_id) == 3, "server A to read the game back")
            pushed = _until_pong(axis)
            assert [m["move"] for m in pushed] == [3] and pushed[0]["view"]["state"] == b.get(
                f"/api/games/{game_id}", params={"token": tokens["Axis"]}
            ).json()["view"]["state"]
        # a game A holds but nobody watches there is dropped when B changes it: A's next move is not refused as stale
        payload = _act(a, game_id, tokens["Allied"], payload["view"]["legal"][0], 3)
        # B hears of A's move by PostgreSQL's notice, a moment later: a move sent before that is answered stale
        # (reload), so the player's next move through B is sent once B shows the game at that move
        _wait(
            lambda: b.get(f"/api/games/{game_id}", params={"token": tokens["Allied"]}).json()["move"] == 4,
            "server B to hear of the move made through A",
        )
        _act(b, game_id, tokens["Allied"], payload["view"]["legal"][0], 4)
        _wait(lambda: game_id not in service_a.live, "server A to drop its outdated copy")
        view = a.get(f"/api/games/{game_id}", params={"token": tokens["Allied"]}).json()
        assert view["move"] == 5
        a.app.state.store.close()  # type: ignore[attr-defined]
        b.app.state.store.close()  # type: ignore[attr-defined]


def test_server_processes_starting_at_once_on_an_empty_postgresql_migrate_it_once(pg_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    # two racing migrations fail after SLOW_STATE_SECONDS rather than wait for ever (only a hung test waits so long)
    url = pg_url + f"?options=-c%20lock_timeout%3D{int(SLOW_STATE_SECONDS * 1000)}"

    def start() -> str:
        store = Store(url)  # each runs the migrations at startup
        try:
            with store.engine.connect() as conn:
                return str(conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar())
        finally:
            store.close()

    with ThreadPoolExecutor(4) as pool:
        versions = list(pool.map(lambda _: start(), range(4)))
    assert len(set(versions)) == 1


def test_a_seat_claimed_through_one_server_opens_on_the_other(pg_url: str) -> None:
    """Behind a load balancer the opponent may claim the invite through B and then play through A."""
    with TestClient(create_app(pg_url)) as a, TestClient(create_app(pg_url)) as b:
        created = a.post("/api/games", json={"game": "patton", "mode": "online"}).json()
        game_id = created["id"]
        invite = next(seat["invite"] for seat in created["seats"] if "invite" in seat)
        mine = next(seat["token"] for seat in created["seats"] if "token" in seat)
        with a.websocket_connect(f"/api/games/{game_id}/ws?token={mine}") as creator:
            assert creator.receive_json()["move"] == 0
            claimed = b.post(f"/api/games/{game_id}/claim", json={"invite": invite})
            assert claimed.status_code == 200, claimed.text
            token = claimed.json()["token"]
            _wait(
                lambda: all(s.token_hash for s in a.app.state.service.live[game_id].stored.seats),  # type: ignore[attr-defined]
                "server A to hear that the seat was taken",
            )
            pushed = _until_pong(creator)  # the creator, on A, is told the opponent took the seat
            assert [e["type"] for m in pushed for e in m["events"]] == ["seat"]
        assert a.get(f"/api/games/{game_id}", params={"token": token}).json()["side"] == "Axis"
        assert a.get(f"/api/games/{game_id}", params={"token": "not-a-seat"}).status_code == 403


def test_a_seat_claimed_elsewhere_opens_even_when_the_notice_was_missed(pg_url: str) -> None:
    a, b = create_app(pg_url), create_app(pg_url)  # no lifespan: nobody listens to notices
    client_a, client_b = TestClient(a), TestClient(b)
    created = client_a.post("/api/games", json={"game": "patton", "mode": "online"}).json()
    invite = next(seat["invite"] for seat in created["seats"] if "invite" in seat)
    token = client_b.post(f"/api/games/{created['id']}/claim", json={"invite": invite}).json()["token"]
    assert client_a.get(f"/api/games/{created['id']}", params={"token": token}).status_code == 200
    for app, client in ((a, client_a), (b, client_b)):
        client.close()
        app.state.store.close()
