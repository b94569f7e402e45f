"""Storage: SQLite in WAL mode, migrations at startup, and no acknowledged move lost on a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import warroom
from warroom.web.server import create_app
from warroom.web.storage import MIGRATIONS, Store


def _client(db_url: str) -> tuple[Any, TestClient]:
    app = create_app(db_url)
    return app, TestClient(app)


def _act(client: TestClient, game_id: str, token: str, action: str, move: int) -> dict[str, Any]:
    answer = client.post(f"/api/games/{game_id}/actions", params={"token": token}, json={"action": action, "move": move})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_sqlite_is_in_wal_mode_and_at_the_newest_migration(db_url: str, tmp_path: Path) -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

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


def test_two_server_processes_on_one_database_refuse_a_stale_write(db_url: str) -> None:
    app_a, a = _client(db_url)
    app_b, b = _client(db_url)
    created = a.post("/api/games", json={"game": "dragoon", "seed": 2}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    assert b.get(f"/api/games/{game_id}", params={"token": token}).json()["move"] == 0  # b caches the game
    _act(a, game_id, token, "invade 3rd-ID Alpha-Beach", 0)
    clash = b.post(f"/api/games/{game_id}/actions", params={"token": token}, json={"action": "invade VI-Corps Delta-Beach", "move": 0})
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
    failed = client.post(f"/api/games/{game_id}/actions", params={"token": token}, json={"action": "invade 3rd-ID Alpha-Beach", "move": 0})
    assert failed.status_code == 503
    monkeypatch.undo()
    again = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert again["move"] == 0 and again["view"]["state"]["allied"]["3rd-ID"]["location"] is None
    client.close()
    app.state.store.close()


@pytest.mark.skipif(not __import__("os").environ.get("WARROOM_TEST_POSTGRES"),
                    reason="set WARROOM_TEST_POSTGRES=postgresql://user:pass@127.0.0.1/db to run against PostgreSQL")
def test_postgresql_through_the_same_url() -> None:
    import os

    url = os.environ["WARROOM_TEST_POSTGRES"]
    app, client = _client(url)
    assert app.state.store.url.startswith("postgresql")
    created = client.post("/api/games", json={"game": "dragoon", "seed": 7}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    payload = _act(client, game_id, token, "invade 3rd-ID Alpha-Beach", 0)
    client.close()
    app.state.store.close()
    app, client = _client(url)
    assert client.get(f"/api/games/{game_id}", params={"token": token}).json()["view"] == payload["view"]
    client.close()
    app.state.store.close()
