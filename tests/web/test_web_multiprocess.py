"""Two real server processes (`python -m warroom.web`) on one PostgreSQL, as behind a load balancer.

A game made through one is played through the other; a WebSocket held by one hears the moves made
through the other (PostgreSQL LISTEN/NOTIFY); a server killed with SIGKILL right after acknowledging
moves loses none of them. Needs the test PostgreSQL (WARROOM_TEST_PG; `.ci/run` starts one).
"""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from bench_counts import stop_when
from patience import SLOW_STATE_SECONDS

from warroom.web import bench
from warroom.web.bench import start_server

pytest.importorskip("websockets.sync.client")


class Server:
    """One server process and an HTTP client on it."""

    def __init__(self, db: str) -> None:
        self.proc, self.url = start_server(db)
        self.http = httpx.Client(base_url=self.url, timeout=SLOW_STATE_SECONDS)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; whatever was committed is all there is."""
        self.http.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=SLOW_STATE_SECONDS)

    def stop(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def socket(self, game_id: str, token: str) -> Any:
        from websockets.sync.client import connect

        return connect(f"ws{self.url[4:]}/api/games/{game_id}/ws?token={token}", open_timeout=SLOW_STATE_SECONDS)

    def view(self, game_id: str, token: str) -> dict[str, Any]:
        answer = self.http.get(f"/api/games/{game_id}", params={"token": token})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def act(self, game_id: str, token: str, action: str, move: int) -> dict[str, Any]:
        answer = self.http.post(
            f"/api/games/{game_id}/actions", params={"token": token}, json={"action": action, "move": move}
        )
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


@pytest.fixture
def servers(pg_url: str) -> Iterator[Callable[[], Server]]:
    """Start server processes on one fresh PostgreSQL database; every one is stopped after the test."""
    started: list[Server] = []

    def start() -> Server:
        server = Server(pg_url)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _next_update(socket: Any, seconds: float = SLOW_STATE_SECONDS) -> dict[str, Any]:
    while True:
        message = json.loads(socket.recv(timeout=seconds))
        if message["type"] == "update":
            return dict(message)


def test_a_game_made_through_one_server_is_played_through_the_other_and_pushed_across(
    servers: Callable[[], Server],
) -> None:
    a, b = servers(), servers()
    created = a.http.post("/api/games", json={"game": "patton", "mode": "hotseat", "seed": 3})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = {seat["side"]: seat["token"] for seat in created.json()["seats"]}
    assert b.view(game_id, tokens["Axis"])["move"] == 0  # the other process finds the game in the shared database
    with a.socket(game_id, tokens["Axis"]) as axis_on_a, b.socket(game_id, tokens["Allied"]) as allied_on_b:
        assert _next_update(axis_on_a)["move"] == 0 and _next_update(allied_on_b)["move"] == 0
        payload = created.json()["game"]
        for n in range(4):  # the Allied seat's moves, through B and A in turn
            through, other = (b, a) if n % 2 == 0 else (a, b)
            payload = through.act(game_id, tokens["Allied"], payload["view"]["legal"][0], payload["move"])
            assert payload["move"] == n + 1
            pushed = _next_update(
                axis_on_a
            )  # the Axis seat's socket, held by A, hears every move, whichever server took it
            assert pushed["move"] == n + 1 and pushed["side"] == "Axis"
            assert (
                pushed["view"]
                == other.view(game_id, tokens["Axis"])["view"]
                == through.view(game_id, tokens["Axis"])["view"]
            )
            own = _next_update(allied_on_b)  # and the mover's own socket on B, for the moves made through A as well
            assert own["move"] == n + 1 and own["view"] == payload["view"]
            if through is a:
                assert [e["type"] for e in own["events"]] == [
                    e["type"] for e in payload["events"]
                ]  # with the move's events


def test_kill_9_of_either_server_loses_no_acknowledged_move(servers: Callable[[], Server]) -> None:
    a, b = servers(), servers()
    created = a.http.post("/api/games", json={"game": "dragoon", "mode": "hotseat", "seed": 7}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    acked: list[str] = []
    payload = created["game"]
    for through in (a, b, a):
        action = payload["view"]["legal"][0]
        payload = through.act(game_id, token, action, payload["move"])
        acked.append(action)
    a.kill()  # right after acknowledging a move
    for _ in range(2):
        action = payload["view"]["legal"][0]
        payload = b.act(game_id, token, action, payload["move"])
        acked.append(action)
    b.kill()
    c = servers()  # a server started again on the same database
    record = c.http.get(f"/api/games/{game_id}/record", params={"token": token})
    assert record.status_code == 200, record.text
    assert record.json()["actions"] == acked
    resumed = c.view(game_id, token)
    assert resumed["move"] == len(acked) and resumed["view"] == payload["view"]
    assert c.act(game_id, token, resumed["view"]["legal"][0], resumed["move"])["move"] == len(acked) + 1


def test_kill_9_under_load_on_postgresql_loses_no_acknowledged_move(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the kill comes once all 6 games are under way with moves acknowledged, however long that takes (bench_counts)
    stop_when(monkeypatch, lambda done: done.games_created == 6 and done.acknowledged >= 12)
    report = bench.kill_restart_check(games=6, seconds=SLOW_STATE_SECONDS, think_ms=20, db=pg_url)
    assert report["acknowledged_moves"] > 0 and report["games_with_lost_moves"] == []
    assert report["games_resumed"] == report["games_created"] > 0


def test_bench_measures_two_processes_on_one_postgresql(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # until moves were made and their pushes crossed from one process to the other (bench_counts), not for a time
    stop_when(monkeypatch, lambda done: done.moves >= 4 and done.pushes_timed >= 4)
    report = bench.run_processes(pg_url, processes=2, games=4, seconds=SLOW_STATE_SECONDS, think_ms=50)
    assert report["moves"] > 0 and report["errors"] == {}
    assert (
        report["pushes_timed"] > 0 and report["push_p50_ms"] > 0
    )  # every timed push crossed from one process to the other
    assert "2 ×" in report["server"]


def test_bench_refuses_several_processes_on_sqlite() -> None:
    from typer.testing import CliRunner

    from warroom.cli import app

    result = CliRunner().invoke(app, ["bench", "--web", "--db", "sqlite:///never.db"])
    assert result.exit_code == 1 and "PostgreSQL" in result.output
    result = CliRunner().invoke(app, ["bench", "--db", "postgresql://nobody@127.0.0.1/none"])
    assert result.exit_code == 1 and "--web" in result.output


def test_a_read_that_overtakes_the_notice_still_tells_the_sockets_held_here(db_url: str) -> None:
    """Another process's move read back by a request here before its notice arrives is pushed all the same.

    The race seen in CI: a move through server A, then a GET through server B before B heard A's
    NOTIFY; B read the game back at the new version, so the late notice found nothing to do and B's
    sockets never heard of the move. Two services on one database stand for the two processes."""
    from warroom.web.service import GameService
    from warroom.web.storage import Store

    store_a, store_b = Store(db_url), Store(db_url)
    try:
        a, b = GameService(store_a), GameService(store_b)
        created = a.create("patton", "normandy", "hotseat", seed=5)
        game_id, tokens = created.live.id, created.tokens
        live_b, _ = b.seat(game_id, tokens["Axis"])
        socket_on_b = b.subscribe(live_b, "Axis")
        live_a, _ = a.seat(game_id, tokens["Allied"])
        a.play(live_a, "Allied", live_a.match.legal_actions()[0], live_a.version)
        b.seat(game_id, tokens["Axis"], fresh=True)  # the GET overtakes the notice
        pushed = socket_on_b.queue.get_nowait()
        assert pushed is not None and pushed["move"] == 1 and pushed["side"] == "Axis"
        b.changed_elsewhere(game_id, 1)  # the late notice: nothing more to say
        assert socket_on_b.queue.empty()
    finally:
        store_a.close()
        store_b.close()
