"""Computer players think in worker processes: off the server's interpreter, never with the game's dice.

Searches are kept short (50-100 ms; Patton's games against the computer use its heuristic, since
its MCTS runs at least 16 simulations of about 50 ms whatever the budget); the app is built with
one worker, so that which worker gets a job is known.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from bench_counts import stop_when
from patience import SLOW_STATE_SECONDS

import warroom
from warroom.engine.dice import DiceSource
from warroom.web import agents, thinking
from warroom.web.thinking import Job, ProcessThinker, ThinkError, ThreadThinker, WorkersError

D6 = tuple((value, 1 / 6) for value in range(1, 7))


@pytest.fixture
def app_client(db_url: str) -> Iterator[Any]:
    """The real app (lifespan on) with one thinking worker process."""
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app

    app = create_app(db_url, workers=1)
    with TestClient(app) as test_client:
        yield test_client
    app.state.store.close()


def _view(client: Any, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", params={"token": token})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def _wait_for(client: Any, game_id: str, token: str, side: str, seconds: float = SLOW_STATE_SECONDS) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        payload = _view(client, game_id, token)
        if payload["view"]["to_act"] == side or payload["view"]["over"]:
            return payload
        assert time.monotonic() < deadline, (
            f"the computer did not hand the move to {side}: {payload['view']['to_act']} to act"
        )
        time.sleep(0.02)


def test_the_computer_plays_its_side_in_a_worker_process(app_client: Any) -> None:
    created = app_client.post(
        "/api/games",
        json={
            "game": "patton",
            "scenario": "bulge",
            "seed": 11,
            "mode": "computer",
            "human": ["Axis"],
            "agent": "heuristic",
            "budget_ms": 50,
        },
    )
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    payload = _wait_for(app_client, game_id, token, "Axis")  # the Allies (the computer) move first in the Bulge
    assert payload["move"] >= 1
    thinker = app_client.app.state.service.thinker
    assert isinstance(thinker, ProcessThinker)
    assert thinker.submitted >= payload["move"]  # every computer decision went to the pool
    assert thinker.last is not None and thinker.last.pid != os.getpid() and thinker.last.pid in thinker.worker_pids()
    assert thinker.last.why.startswith("Heuristic")


def test_a_hint_is_thought_in_a_worker_process(app_client: Any) -> None:
    # a game whose search is offered (Dragoon withholds its generic MCTS: AgentHooks.withheld)
    created = app_client.post("/api/games", json={"game": "patton", "seed": 3, "mode": "hotseat"}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    legal = created["game"]["view"]["legal"]
    thinker = app_client.app.state.service.thinker
    before = thinker.submitted
    hint = app_client.get(f"/api/games/{game_id}/hint", params={"token": token, "agent": "mcts", "budget_ms": 80})
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] in legal and hint.json()["why"].startswith("MCTS")
    assert thinker.submitted == before + 1 and thinker.last.pid != os.getpid()
    unknown = app_client.get(f"/api/games/{game_id}/hint", params={"token": token, "agent": "no-such-agent"})
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_agent"
    assert thinker.submitted == before + 1  # refused here, before any worker was asked


def test_the_worker_gets_neither_the_seed_nor_the_dice_to_come(
    app_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[dict[str, Any]] = []
    real = thinking.private_record

    def spy(match: Any) -> dict[str, Any]:
        record = real(match)
        sent.append(json.loads(json.dumps(record)))
        return record

    monkeypatch.setattr(thinking, "private_record", spy)
    created = app_client.post(
        "/api/games",
        json={
            "game": "patton",
            "scenario": "bulge",
            "seed": 5,
            "mode": "computer",
            "human": ["Axis"],
            "agent": "heuristic",
        },
    ).json()
    _wait_for(app_client, created["id"], created["seats"][0]["token"], "Axis")
    online = app_client.post("/api/games", json={"game": "dragoon", "mode": "online"}).json()
    hint = app_client.get(
        f"/api/games/{online['id']}/hint", params={"token": online["seats"][0]["token"], "agent": "heuristic"}
    )
    assert hint.status_code == 200, hint.text
    service = app_client.app.state.service
    assert service.get(created["id"]).stored.header["seed"] == 5 and service.get(online["id"]).match.seed is not None
    assert len(sent) >= 2
    for record in sent:
        assert record["header"]["seed"] is None and record["header"]["dice"] == "auto" and "rng" not in record["header"]


def test_the_rebuilt_position_is_the_game_s_and_its_dice_are_its_own() -> None:
    match = warroom.new_game("dragoon", seed=9, dice=[6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    for _ in range(6):
        match.play(match.legal_actions()[0])
    record = thinking.private_record(match)
    assert (
        record["header"]["seed"] is None and record["header"]["dice"] == "auto"
    )  # the script's unused sixes are not in it
    assert record["dice"] == match.dice_rolled
    rebuilt = thinking.rebuild(Job("dragoon", "heuristic", 50, 1, 1234, record))
    assert rebuilt.view(None)["state"] == match.view(None)["state"] and rebuilt.legal_actions() == match.legal_actions()
    assert rebuilt.seed is None and rebuilt.dice.seed == 1234
    ahead, real = rebuilt.dice, match.clone().dice
    assert [ahead.roll(D6) for _ in range(30)] != [real.roll(D6) for _ in range(30)]
    copy = thinking.private_copy(match, 77)  # the thread thinker's copy: the same, in this process
    assert (
        copy.seed is None and type(copy.dice) is DiceSource and copy.dice.seed == 77 and copy.state is not match.state
    )


def test_a_worker_killed_mid_think_reports_an_error_and_the_game_goes_on(tmp_path: Any) -> None:
    import httpx
    from websockets.sync.client import connect

    from warroom.web.server import BackgroundServer

    with (
        BackgroundServer(f"sqlite:///{tmp_path / 'kill.db'}", workers=1) as server,
        httpx.Client(base_url=server.url, timeout=SLOW_STATE_SECONDS) as http,
    ):
        thinker = server.app.state.service.thinker
        warm = http.post("/api/games", json={"game": "dragoon", "seed": 1, "mode": "hotseat"}).json()
        assert (
            http.get(
                f"/api/games/{warm['id']}/hint", params={"token": warm["seats"][0]["token"], "agent": "random"}
            ).status_code
            == 200
        )
        [pid] = thinker.worker_pids()
        thinker.grace_s = 2 * SLOW_STATE_SECONDS  # the kill, not the thinker's patience, ends the job, however slow
        os.kill(pid, signal.SIGSTOP)  # the next job waits in its pipe: the worker is "thinking" when it is killed
        try:
            created = http.post(
                "/api/games",
                json={
                    "game": "patton",
                    "scenario": "bulge",
                    "seed": 2,
                    "mode": "computer",
                    "human": ["Axis"],
                    "agent": "heuristic",
                    "budget_ms": 50,
                },
            ).json()
            game_id, token = created["id"], created["seats"][0]["token"]
            with connect(f"ws{server.url[4:]}/api/games/{game_id}/ws?token={token}") as socket:
                assert json.loads(socket.recv(timeout=SLOW_STATE_SECONDS))["type"] == "update"
                deadline = time.monotonic() + SLOW_STATE_SECONDS
                while thinker.busy_pids() != [pid]:
                    assert time.monotonic() < deadline, "the computer's job never reached the worker"
                    time.sleep(0.01)
                os.kill(pid, signal.SIGKILL)
                errors: list[dict[str, Any]] = []
                while not errors:
                    message = json.loads(socket.recv(timeout=SLOW_STATE_SECONDS))
                    errors = [e for e in message.get("events", []) if e.get("type") == "error"]
            assert "stopped while it thought" in errors[0]["text"] and "Reload" in errors[0]["text"]
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)  # should the test fail before the kill, the worker must not stay stopped
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # gone: killed and reaped
        assert thinker.replaced == 1
        stuck = http.get(f"/api/games/{game_id}", params={"token": token}).json()  # a reload: the computer tries again
        assert stuck["move"] == 0
        deadline = time.monotonic() + SLOW_STATE_SECONDS
        while (payload := http.get(f"/api/games/{game_id}", params={"token": token}).json())["view"][
            "to_act"
        ] != "Axis":
            assert time.monotonic() < deadline, "the computer did not finish its turn on a fresh worker"
            time.sleep(0.05)
        assert thinker.worker_pids() != [pid] and thinker.last.pid != pid
        answer = http.post(
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"action": payload["view"]["legal"][0], "move": payload["move"]},
        )
        assert answer.status_code == 200, answer.text


def test_a_hung_worker_is_stopped_and_replaced() -> None:
    async def scenario() -> None:
        thinker = ProcessThinker(1)  # the server's grace for the answers that come (however slow the machine)
        match = warroom.new_game("dragoon", seed=4)
        try:
            first = await thinker.think(match, "random", 50, 1, 2)
            os.kill(first.pid, signal.SIGSTOP)  # alive, but it will never answer
            thinker.grace_s = 0.3  # no answer can come: the thinker soon gives up on it (twice the budget and this)
            with pytest.raises(ThinkError, match="did not answer"):
                await asyncio.wait_for(thinker.think(match, "random", 50, 1, 2), SLOW_STATE_SECONDS)
            assert thinker.replaced == 1 and first.pid not in thinker.worker_pids()  # stopped, not waited for
            thinker.grace_s = thinking.GRACE_S
            again = await thinker.think(match, "random", 50, 1, 2)
            assert again.pid != first.pid and again.action in match.legal_actions()
        finally:
            thinker.close()
        assert thinker.worker_pids() == []

    asyncio.run(scenario())


def test_queued_decisions_share_the_pool_and_refusals_come_back() -> None:
    async def scenario() -> None:
        thinker = ProcessThinker(1)
        match = warroom.new_game("patton", seed=6)
        try:
            thoughts = await asyncio.gather(*(thinker.think(match, "mcts", 50, seed, seed) for seed in range(3)))
            assert len({t.pid for t in thoughts}) == 1 and thinker.submitted == 3

            async def twice() -> (
                None
            ):  # as a computer seat does: its next decision is asked for at once, while others wait
                await thinker.think(match, "random", 50, 1, 1)
                await thinker.think(match, "random", 50, 1, 1)

            await asyncio.gather(twice(), *(thinker.think(match, "random", 50, 1, 1) for _ in range(3)))
            assert thinker.worker_pids() == [thoughts[0].pid]  # never more workers than the pool's size
            with pytest.raises(Exception) as refused:
                await thinker.think(match, "no-such-agent", 50, 1, 1)
            assert (
                getattr(refused.value, "code", None) == "unknown_agent"
                and getattr(refused.value, "status", None) == 400
            )
        finally:
            thinker.close()

    asyncio.run(scenario())


def test_agents_replaced_in_this_process_think_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    class Fixed:
        def choose(self, match: Any) -> tuple[str, str]:
            return match.legal_actions()[-1], "the last one"

    monkeypatch.setattr(agents, "make_agent", lambda name, game, budget_ms, seed: Fixed())
    thinker = ProcessThinker(1)
    match = warroom.new_game("dragoon", seed=6)
    thought = asyncio.run(thinker.think(match, "fixed", 50, 1, 1))
    assert thought.pid == os.getpid() and thought.action == match.legal_actions()[-1] and thinker.submitted == 0
    assert thinker.worker_pids() == []  # no process was started for it


def test_the_number_of_workers_is_checked(
    monkeypatch: pytest.MonkeyPatch, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from warroom.web.server import create_app, main

    monkeypatch.setenv(thinking.WORKERS_ENV, "3")
    assert thinking.default_workers() == 3
    monkeypatch.setenv(thinking.WORKERS_ENV, "0")
    assert isinstance(thinking.make_thinker(), ThreadThinker)
    for bad in ("many", "-1"):
        monkeypatch.setenv(thinking.WORKERS_ENV, bad)
        with pytest.raises(WorkersError, match="WARROOM_WORKERS must be a whole number"):
            create_app(db_url)
    monkeypatch.delenv(thinking.WORKERS_ENV)
    assert thinking.default_workers() >= 1
    with pytest.raises(SystemExit) as exited:
        main(["--workers", "-2", "--db", db_url, "--port", "0"])
    assert exited.value.code == 1 and "cannot be negative" in capsys.readouterr().err


def test_the_bench_times_people_while_computer_seats_search(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    from warroom.web import bench
    from warroom.web.server import BackgroundServer

    # until the people made moves while the computer seats decided (bench_counts), however long that takes
    stop_when(monkeypatch, lambda done: done.moves >= 1 and done.decisions >= 1)

    with BackgroundServer(f"sqlite:///{tmp_path / 'bench.db'}", workers=1) as server:
        with httpx.Client(
            base_url=server.url, timeout=SLOW_STATE_SECONDS
        ) as http:  # the pool starts on first use: start it before the clock
            warm = http.post("/api/games", json={"game": "dragoon", "seed": 1, "mode": "hotseat"}).json()
            http.get(f"/api/games/{warm['id']}/hint", params={"token": warm["seats"][0]["token"], "agent": "random"})
        report = asyncio.run(
            bench._with_computers(
                server.url,
                games=2,
                computer_seats=2,
                seconds=SLOW_STATE_SECONDS,
                think_ms=100,
                budget_ms=50,
                seed=0,
            )
        )
    people, computer = report["people"], report["computer"]
    assert people["moves"] > 0 and people["p95_ms"] > 0 and not people["errors"]
    assert computer["games"] == 2 and computer["decisions"] >= 1 and not computer["errors"]
    assert report["thinking"]["workers"] == 1 and report["thinking"]["submitted"] >= computer["decisions"]


def test_a_warm_app_starts_its_workers_at_startup_and_health_shows_them(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app

    app = create_app(db_url, workers=1, warm=True)  # as `warroom serve` builds it
    with TestClient(app) as client:
        deadline = time.monotonic() + SLOW_STATE_SECONDS
        while (pool := client.get("/api/health").json()["thinking"])["started"] < 1:
            assert time.monotonic() < deadline, "the worker was not started at startup"
            time.sleep(0.05)
        assert pool["workers"] == 1 and pool["submitted"] == 0 and pool["method"] in ("forkserver", "spawn")
        [pid] = app.state.service.thinker.worker_pids()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the lifespan's end stopped it
    app.state.store.close()


def test_a_hint_whose_worker_dies_answers_503_and_the_next_hint_works(app_client: Any) -> None:
    import threading

    created = app_client.post("/api/games", json={"game": "dragoon", "seed": 8, "mode": "hotseat"}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    ask = {"token": token, "agent": "random"}
    assert app_client.get(f"/api/games/{game_id}/hint", params=ask).status_code == 200
    thinker = app_client.app.state.service.thinker
    [pid] = thinker.worker_pids()
    os.kill(pid, signal.SIGSTOP)
    answers: list[Any] = []
    asking = threading.Thread(target=lambda: answers.append(app_client.get(f"/api/games/{game_id}/hint", params=ask)))
    asking.start()
    try:
        deadline = time.monotonic() + SLOW_STATE_SECONDS
        while thinker.busy_pids() != [pid]:
            assert time.monotonic() < deadline, "the hint never reached the worker"
            time.sleep(0.01)
    finally:
        os.kill(pid, signal.SIGKILL)
        asking.join(timeout=SLOW_STATE_SECONDS)
    assert answers[0].status_code == 503 and answers[0].json()["error"]["code"] == "thinking_failed"
    again = app_client.get(f"/api/games/{game_id}/hint", params=ask)
    assert again.status_code == 200 and thinker.last.pid != pid and thinker.replaced == 1


def test_a_game_registered_at_run_time_is_thought_about_in_a_worker(app_client: Any, secret_cards: str) -> None:
    created = app_client.post("/api/games", json={"game": secret_cards, "seed": 2, "mode": "hotseat"}).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    thinker = app_client.app.state.service.thinker
    before = thinker.submitted
    hint = app_client.get(f"/api/games/{game_id}/hint", params={"token": token, "agent": "random"})
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] in created["game"]["view"]["legal"]
    assert thinker.submitted == before + 1 and thinker.last.pid != os.getpid()
