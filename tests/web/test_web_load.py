"""Load and faults, small enough for CI: concurrent games over HTTP + WebSocket, and a SIGKILL mid-load."""

from __future__ import annotations

from warroom.web import bench


def test_concurrent_games_over_http_and_websocket() -> None:
    report = bench.run(games=12, seconds=2.0, think_ms=50)
    assert report["errors"] == {}
    assert report["moves"] > 50 and report["games_started"] >= 12
    assert report["pushes_received"] >= report["games_started"]  # every socket got at least its first view
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"]


def test_a_killed_server_loses_no_acknowledged_move() -> None:
    report = bench.kill_restart_check(games=12, seconds=1.5, think_ms=20)
    assert report["acknowledged_moves"] > 20
    assert report["games_with_lost_moves"] == []
    assert report["games_resumed"] == report["games_created"] == 12


def test_the_load_test_refuses_any_address_but_loopback() -> None:
    import pytest

    with pytest.raises(ValueError, match="loopback"):
        bench.run(games=1, seconds=0.5, url="http://10.0.0.1:8000")
