"""Load and faults, small enough for CI: concurrent games over HTTP + WebSocket, and a SIGKILL mid-load.

Each run goes until an amount of work is done (bench_counts), never for a time: a loaded machine takes longer
and passes all the same; SLOW_STATE_SECONDS only stops a hung run.
"""

from __future__ import annotations

import pytest
from bench_counts import stop_when
from patience import SLOW_STATE_SECONDS

from warroom.web import bench


def test_concurrent_games_over_http_and_websocket(monkeypatch: pytest.MonkeyPatch) -> None:
    # 12 players at once, until more than 50 moves are acknowledged and every game's socket has had its first view
    stop_when(monkeypatch, lambda done: done.moves > 50 and done.games_started >= 12 and done.pushes >= 12)
    report = bench.run(games=12, seconds=SLOW_STATE_SECONDS, think_ms=50)
    assert report["errors"] == {}
    assert report["moves"] > 50 and report["games_started"] >= 12
    assert report["pushes_received"] >= report["games_started"]  # every socket got at least its first view
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"]


def test_a_killed_server_loses_no_acknowledged_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # the kill comes once all 12 games are under way with more than 24 moves acknowledged, however long that takes
    # (a margin over the 20 asserted: a game that ends meanwhile starts its player's count again)
    stop_when(monkeypatch, lambda done: done.games_created == 12 and done.acknowledged > 24)
    report = bench.kill_restart_check(games=12, seconds=SLOW_STATE_SECONDS, think_ms=20)
    assert report["acknowledged_moves"] > 20
    assert report["games_with_lost_moves"] == []
    assert report["games_resumed"] == report["games_created"] == 12


def test_the_load_test_refuses_any_address_but_loopback() -> None:
    with pytest.raises(ValueError, match="loopback"):
        bench.run(games=1, seconds=0.5, url="http://10.0.0.1:8000")
