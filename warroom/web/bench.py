"""Load and fault tests of the web server over HTTP + WebSocket, on loopback only, bounded in time.

`run()` plays many concurrent games (`load_game`: the first registered game played by one side, each
player alone at its seat) and reports moves/s and action latency percentiles;
`run_processes()` does the same against several server processes on one PostgreSQL, each player
acting through one process and listening on another, and reports how late the pushes come;
`kill_restart_check()` kills the server process (SIGKILL) in the middle of the load, restarts it on
the same database, and checks that every acknowledged move is still there and every game resumes.
`warroom bench --web` and `python -m warroom.web.bench` call them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_GAMES = 1000
MAX_SECONDS = 300.0
STARTUP_CEILING_S = 120
"""How long a server process (or its computer players' workers) may take to start before it counts as hung: polled,
so a quick start goes on at once and a loaded machine is not taken for a broken server."""


@dataclass
class GameLoad:
    """One simulated player: its seat, and every move the server acknowledged."""

    id: str = ""
    token: str = ""
    acked: list[str] = field(default_factory=list)
    frames: int = 0
    sent_at: dict[int, float] | None = None  # run_processes: when the move that makes version N was sent
    push_ms: list[float] = field(default_factory=list)  # ... and how long after that its push arrived


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_started: int = 0
    games_finished: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class _Http:
    """A minimal HTTP/1.1 keep-alive client, one connection per player.

    General-purpose async clients spend more CPU per request than the server does; measured on
    a 2-core machine they, not the server, set the latency. This one only speaks what the bench needs.
    """

    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        payload = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status, headers, json.loads(payload) if payload else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()


def start_server(
    db: str, python: str = sys.executable, workers: int | None = None
) -> tuple[subprocess.Popen[str], str]:
    """`python -m warroom.web` on a free loopback port (`workers`: its thinking processes); returns the process
    and its address."""
    proc = subprocess.Popen(
        [
            python,
            "-m",
            "warroom.web",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            db,
            *(["--workers", str(workers)] if workers is not None else []),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + STARTUP_CEILING_S  # a ceiling for a hung start, not a measure of speed
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if "serving on" in line:
            return proc, line.split("serving on", 1)[1].split()[0].rstrip("/")
    proc.kill()
    raise RuntimeError("the warroom server did not start")


def stop_servers(procs: list[subprocess.Popen[str]]) -> None:
    """Ask the servers to stop (all at once, so their shutdowns overlap), then kill any still running after 10 s."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        if proc.poll() is None:
            proc.kill()


def _check_loopback(url: str) -> None:
    host = urlparse(url).hostname or ""
    if host not in LOOPBACK:
        raise ValueError(f"the load test only targets this machine's loopback address, not {host!r}")


def load_game() -> dict[str, Any]:
    """The new-game request of the load test's players: the first registered game played by one side,
    online, so that the one seat its creator holds acts on every move (a game of two sides would wait
    for an opponent who never comes)."""
    from warroom.games import game_ids, get_ruleset

    for game in game_ids():
        if len(get_ruleset(game).info.sides) == 1:
            return {"game": game, "mode": "online"}
    raise RuntimeError("no registered game is played by one side: the load test's players play alone")


async def _new_game(http: _Http, game: GameLoad, tally: Tally) -> dict[str, Any]:
    status, _headers, data = await http.request("POST", "/api/games", load_game())
    if status != 201:
        raise RuntimeError(f"creating a game answered {status}")
    game.id, game.token, game.acked = data["id"], data["seats"][0]["token"], []
    tally.games_started += 1
    game_id: dict[str, Any] = data["game"]
    return game_id


async def _listen(ws_url: str, game: GameLoad) -> None:
    import websockets

    with contextlib.suppress(Exception):
        async with websockets.connect(ws_url, max_size=2**22, compression=None) as socket:
            async for message in socket:
                game.frames += 1
                if game.sent_at is not None:
                    sent = game.sent_at.pop(json.loads(message).get("move", -1), None)
                    if sent is not None:
                        game.push_ms.append((time.perf_counter() - sent) * 1000)


async def _player(
    base: str,
    game: GameLoad,
    tally: Tally,
    deadline: float,
    think_ms: float,
    rng: random.Random,
    stop: asyncio.Event,
    listen_base: str | None = None,
) -> None:
    """Play random legal moves at a human-like pace until the deadline (or the server goes away).

    The seat's WebSocket goes to `listen_base` (another server process), or to the server it acts through.
    """
    http = _Http(base)
    ws_base = listen_base or base
    try:
        payload = await _new_game(http, game, tally)
    except Exception:
        tally.error("create")
        await http.close()
        return
    listener = asyncio.create_task(_listen(f"ws{ws_base[4:]}/api/games/{game.id}/ws?token={game.token}", game))
    try:
        while time.monotonic() < deadline and not stop.is_set():
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think_ms / 1000)
            if payload["view"]["over"]:
                tally.games_finished += 1
                payload = await _new_game(http, game, tally)
                listener.cancel()
                listener = asyncio.create_task(
                    _listen(f"ws{ws_base[4:]}/api/games/{game.id}/ws?token={game.token}", game)
                )
                continue
            legal = payload["view"]["legal"]
            # "end" only sometimes, so that games spend their turns on attacks and dice
            choices = [a for a in legal if a != "end"] if rng.random() < 0.85 else legal
            action = rng.choice(choices or legal)
            started = time.perf_counter()
            if game.sent_at is not None:
                game.sent_at[payload["move"] + 1] = started
            try:
                status, headers, body = await http.request(
                    "POST",
                    f"/api/games/{game.id}/actions?token={game.token}",
                    {"action": action, "move": payload["move"]},
                )
            except Exception:
                tally.error("connection")
                return
            elapsed = time.perf_counter() - started
            if status == 200:
                tally.latencies.append(elapsed)
                timing = headers.get("server-timing", "")
                if "dur=" in timing:
                    tally.server_ms.append(float(timing.split("dur=")[1]))
                game.acked.append(action)
                payload = body
            else:
                tally.error(f"http_{status}")
                _status, _headers, payload = await http.request("GET", f"/api/games/{game.id}?token={game.token}")
    except Exception:
        tally.error("connection")
    finally:
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await listener
        await http.close()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def _load(
    url: str,
    games: int,
    seconds: float,
    think_ms: float,
    seed: int,
    stop: asyncio.Event | None = None,
    players: list[GameLoad] | None = None,
    urls: list[str] | None = None,
) -> dict[str, Any]:
    """`urls` (several server processes): player i acts through urls[i % n] and listens on urls[(i + 1) % n]."""
    tally = Tally()
    stop = stop or asyncio.Event()
    players = players if players is not None else [GameLoad() for _ in range(games)]
    started = time.monotonic()
    deadline = started + seconds
    rng = random.Random(seed)
    urls = urls or [url]
    tasks = [
        asyncio.create_task(
            _player(
                urls[i % len(urls)],
                p,
                tally,
                deadline,
                think_ms,
                random.Random(rng.random()),
                stop,
                urls[(i + 1) % len(urls)],
            )
        )
        for i, p in enumerate(players)
    ]
    await asyncio.gather(*tasks)
    wall = time.monotonic() - started
    lat = tally.latencies
    return {
        "games": games,
        "seconds": round(wall, 2),
        "think_ms": think_ms,
        "moves": len(lat),
        "moves_per_s": round(len(lat) / wall, 1) if wall else 0.0,
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "max_ms": round(max(lat) * 1000, 2) if lat else float("nan"),
        "server_p50_ms": round(_percentile(tally.server_ms, 0.50), 2),
        "server_p95_ms": round(_percentile(tally.server_ms, 0.95), 2),
        "games_started": tally.games_started,
        "games_finished": tally.games_finished,
        "pushes_received": sum(p.frames for p in players),
        "errors": tally.errors,
        **_push_report(players),
    }


def _push_report(players: list[GameLoad]) -> dict[str, Any]:
    """Where pushes were timed: from sending a move to its push arriving on another server process's socket."""
    push = [ms for p in players for ms in p.push_ms]
    if not any(p.sent_at is not None for p in players):
        return {}
    return {
        "pushes_timed": len(push),
        "push_p50_ms": round(_percentile(push, 0.50), 2),
        "push_p95_ms": round(_percentile(push, 0.95), 2),
        "push_p99_ms": round(_percentile(push, 0.99), 2),
    }


def run(
    games: int = 200, seconds: float = 10, think_ms: float = 1000, url: str | None = None, seed: int = 0
) -> dict[str, Any]:
    """Play `games` concurrent games for `seconds` against a server (started here on a temporary SQLite file).

    Each player waits `think_ms` (±50%) before each move, like a quick person; latency is measured
    from sending an action to its acknowledgement (which comes after the move is committed).
    """
    games = max(1, min(int(games), MAX_GAMES))
    seconds = max(0.5, min(float(seconds), MAX_SECONDS))
    if url is not None:
        _check_loopback(url)
        return asyncio.run(_load(url.rstrip("/"), games, seconds, think_ms, seed))
    with tempfile.TemporaryDirectory(prefix="warroom-bench-") as tmp:
        proc, address = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}")
        try:
            report = asyncio.run(_load(address, games, seconds, think_ms, seed))
        finally:
            stop_servers([proc])
        report["server"] = "python -m warroom.web (SQLite, WAL), one process"
        return report


def run_processes(
    db: str, processes: int = 2, games: int = 200, seconds: float = 10, think_ms: float = 1000, seed: int = 0
) -> dict[str, Any]:
    """Several server processes on one PostgreSQL, as behind a load balancer (give a scratch database:
    the games played stay in it).

    Player i acts through process i mod n and holds its WebSocket on the next process, so every push
    it receives crossed processes (commit, NOTIFY, the other process reads the game back and pushes).
    Reports what `run` does, plus `push_*_ms`: from sending a move to its push arriving.
    """
    from .storage import normalize_url

    if not normalize_url(db).startswith("postgresql"):
        raise ValueError(
            "several server processes share games through PostgreSQL: give --db postgresql://USER@HOST/DATABASE"
        )
    processes = max(1, min(int(processes), 16))
    games = max(1, min(int(games), MAX_GAMES))
    seconds = max(0.5, min(float(seconds), MAX_SECONDS))
    started: list[subprocess.Popen[str]] = []
    try:
        urls = []
        for _ in range(processes):
            proc, address = start_server(db)
            started.append(proc)
            urls.append(address)
        players = [GameLoad(sent_at={}) for _ in range(games)]
        report = asyncio.run(_load(urls[0], games, seconds, think_ms, seed, players=players, urls=urls))
    finally:
        stop_servers(started)
    report["server"] = (
        f"{processes} × python -m warroom.web on one PostgreSQL; each seat acts through one and listens on another"
    )
    return report


async def _kill_during_load(
    url: str, proc: subprocess.Popen[str], players: list[GameLoad], seconds: float, think_ms: float, seed: int
) -> dict[str, Any]:
    stop = asyncio.Event()
    load = asyncio.create_task(_load(url, len(players), seconds + 30, think_ms, seed, stop=stop, players=players))
    await asyncio.sleep(seconds)
    proc.send_signal(signal.SIGKILL)  # no shutdown, no flush: whatever was committed is all there is
    proc.wait()
    await asyncio.sleep(0.2)
    stop.set()
    return await load


def kill_restart_check(
    games: int = 20, seconds: float = 3, think_ms: float = 30, seed: int = 1, db: str | None = None
) -> dict[str, Any]:
    """Kill the server mid-load, restart it on the same database, and compare with what was acknowledged.

    Passes when, for every game, the moves acknowledged before the kill are exactly the first moves
    of the stored record (one more may be stored if its answer was lost in the kill), and every game
    accepts a new move after the restart.
    """
    import httpx

    games = max(1, min(int(games), MAX_GAMES))
    seconds = max(0.5, min(float(seconds), MAX_SECONDS))
    with tempfile.TemporaryDirectory(prefix="warroom-kill-") as tmp:
        database = db or f"sqlite:///{Path(tmp) / 'kill.db'}"
        proc, url = start_server(database)
        players = [GameLoad() for _ in range(games)]
        try:
            load = asyncio.run(_kill_during_load(url, proc, players, seconds, think_ms, seed))
        finally:
            if proc.poll() is None:
                proc.kill()
        proc2, url2 = start_server(database)
        lost: list[str] = []
        unacked_but_stored = 0
        resumed = 0
        try:
            with httpx.Client(base_url=url2, timeout=30) as http:
                for p in players:
                    if not p.id:
                        continue
                    record = http.get(f"/api/games/{p.id}/record", params={"token": p.token}).json()
                    stored = record["actions"]
                    if stored[: len(p.acked)] != p.acked:
                        lost.append(p.id)
                        continue
                    extra = len(stored) - len(p.acked)
                    if extra > 1:
                        lost.append(p.id)  # more stored than was ever sent: a bookkeeping error, count it as a failure
                    unacked_but_stored += extra
                    view = http.get(f"/api/games/{p.id}", params={"token": p.token}).json()
                    if view["view"]["over"]:
                        resumed += 1
                        continue
                    answer = http.post(
                        f"/api/games/{p.id}/actions",
                        params={"token": p.token},
                        json={"action": view["view"]["legal"][0], "move": view["move"]},
                    )
                    resumed += answer.status_code == 200
        finally:
            proc2.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc2.wait(timeout=10)
            if proc2.poll() is None:
                proc2.kill()
    return {
        "games": games,
        "killed_after_s": seconds,
        "acknowledged_moves": sum(len(p.acked) for p in players),
        "games_with_lost_moves": lost,
        "stored_but_unacknowledged": unacked_but_stored,
        "games_resumed": resumed,
        "games_created": sum(1 for p in players if p.id),
        "load": {k: load[k] for k in ("moves", "moves_per_s", "p50_ms", "p95_ms", "errors")},
    }


# -- computer seats thinking while people play ------------------------------------------------------
COMPUTER_AGENT = "mcts"


def computer_game() -> dict[str, Any]:
    """A new game against a searching computer: the first registered game with two sides or more (a
    solitaire game has no computer seat), the person on its last side, the computer on the others."""
    from warroom.games import game_ids, get_ruleset

    for game in game_ids():
        sides = get_ruleset(game).info.sides
        if len(sides) > 1:
            return {"game": game, "mode": "computer", "human": [sides[-1]], "agent": COMPUTER_AGENT}
    raise RuntimeError("no registered game has a computer seat: every game is played alone")


@dataclass
class ComputerTally:
    decisions: int = 0
    replies: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def _computer_seat(
    base: str, tally: ComputerTally, deadline: float, budget_ms: int, rng: random.Random, stop: asyncio.Event
) -> None:
    """Play the human side of a game against the computer as fast as it may, so that the computer keeps searching.

    The seat answers the moment its turn comes (a push says so), preferring to end its phase: the
    computer is then thinking, in this game, nearly all the time.
    """
    import websockets

    http = _Http(base)
    new_game = {**computer_game(), "budget_ms": budget_ms}
    human = new_game["human"][0]
    try:
        while time.monotonic() < deadline and not stop.is_set():
            status, _headers, data = await _request(http, "POST", "/api/games", new_game)
            if status != 201:
                tally.error(f"create_{status}")
                return
            tally.games += 1
            game_id, token = data["id"], data["seats"][0]["token"]
            async with websockets.connect(
                f"ws{base[4:]}/api/games/{game_id}/ws?token={token}", max_size=2**22, compression=None
            ) as socket:
                moves = 0
                while time.monotonic() < deadline and not stop.is_set():
                    try:
                        message = json.loads(
                            await asyncio.wait_for(socket.recv(), max(0.1, deadline - time.monotonic()))
                        )
                    except TimeoutError:
                        break
                    if message.get("type") != "update":
                        continue
                    if any(e.get("type") == "error" for e in message.get("events", [])):
                        tally.error("computer_failed")
                    tally.decisions += max(0, message["move"] - moves)  # our own moves were counted in when answered
                    moves = max(moves, message["move"])
                    view = message["view"]
                    if view["over"]:
                        break
                    if view["to_act"] != human or not view["legal"]:
                        continue  # the computer is thinking: its moves come as pushes
                    ends = [a for a in view["legal"] if a.startswith("end")]
                    action = rng.choice(ends) if ends and rng.random() < 0.8 else rng.choice(view["legal"])
                    status, _headers, answer = await _request(
                        http, "POST", f"/api/games/{game_id}/actions?token={token}", {"action": action, "move": moves}
                    )
                    if status != 200:
                        tally.error(f"http_{status}")
                        continue
                    tally.replies += 1
                    moves = answer["move"]
    except Exception as exc:  # noqa: BLE001 - a bench counts what went wrong and goes on reporting
        tally.error(type(exc).__name__)
    finally:
        await http.close()


async def _request(http: _Http, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
    """A request on a connection that may have been closed while idle (the server's keep-alive timeout
    ends it while the computer thinks for longer): once more on a fresh connection."""
    try:
        return await http.request(method, path, body)
    except (ConnectionError, asyncio.IncompleteReadError):
        await http.close()
        http.reader = http.writer = None
        return await http.request(method, path, body)


async def _thinking(url: str) -> dict[str, Any]:
    """The server's thinking pool, as /api/health reports it."""
    http = _Http(url)
    try:
        _status, _headers, health = await http.request("GET", "/api/health")
    finally:
        await http.close()
    return dict((health or {}).get("thinking") or {})


async def _warm(url: str, timeout: float = STARTUP_CEILING_S) -> None:
    """Wait until every worker process of the server is up: a measure of steady play, not of the server's start."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pool = await _thinking(url)
        if pool.get("started", 0) >= pool.get("workers", 0):
            return
        await asyncio.sleep(0.2)


async def _with_computers(
    url: str, games: int, computer_seats: int, seconds: float, think_ms: float, budget_ms: int, seed: int
) -> dict[str, Any]:
    await _warm(url)
    computers = ComputerTally()
    stop = asyncio.Event()
    rng = random.Random(seed + 1)
    deadline = time.monotonic() + seconds
    seats = [
        asyncio.create_task(_computer_seat(url, computers, deadline, budget_ms, random.Random(rng.random()), stop))
        for _ in range(computer_seats)
    ]
    await asyncio.sleep(min(2.0, seconds / 5))  # the computers are searching before the people start
    people = await _load(url, games, max(0.5, deadline - time.monotonic()), think_ms, seed)
    stop.set()
    await asyncio.gather(*seats)
    return {
        "people": people,
        "computer": {
            "seats": computer_seats,
            "agent": COMPUTER_AGENT,
            "budget_ms": budget_ms,
            "games": computers.games,
            "decisions": computers.decisions,
            "decisions_per_s": round(computers.decisions / seconds, 1),
            "errors": computers.errors,
        },
        "thinking": await _thinking(url),
    }


def run_computer_seats(
    computer_seats: int = 20,
    games: int = 50,
    seconds: float = 10,
    think_ms: float = 1000,
    budget_ms: int = 1000,
    workers: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """People's move latency while computer seats search: `computer_seats` games against MCTS (`computer_game`)
    (`budget_ms` a decision; each seat answers at once, so its computer is nearly always thinking)
    alongside `games` games played as `run` plays them (`load_game`), on a server started here on SQLite
    with `workers` thinking processes (default: the server's; 0: threads of the server, as before
    worker processes). `people` holds the human moves' latency percentiles, `computer` what the
    computer seats got through.
    """
    computer_seats = max(0, min(int(computer_seats), MAX_GAMES))
    games = max(1, min(int(games), MAX_GAMES))
    seconds = max(2.0, min(float(seconds), MAX_SECONDS))
    with tempfile.TemporaryDirectory(prefix="warroom-bench-") as tmp:
        proc, address = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}", workers=workers)
        try:
            report = asyncio.run(_with_computers(address, games, computer_seats, seconds, think_ms, budget_ms, seed))
        finally:
            stop_servers([proc])
    shown = "the server's default" if workers is None else ("threads of the server" if workers == 0 else str(workers))
    report["server"] = f"python -m warroom.web (SQLite, WAL), one process; computer players think in: {shown}"
    report["cores"] = os.cpu_count()
    return report


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m warroom.web.bench", description="Load-test the web server on loopback."
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--think-ms", type=float, default=1000)
    parser.add_argument("--url", default=None, help="a running server on this machine (default: start one)")
    parser.add_argument(
        "--kill", action="store_true", help="kill the server mid-load, restart it, check no acknowledged move was lost"
    )
    parser.add_argument(
        "--db", default=None, help="with --processes: a scratch PostgreSQL database the server processes share"
    )
    parser.add_argument(
        "--processes", type=int, default=0, help="start this many server processes on --db (PostgreSQL)"
    )
    parser.add_argument(
        "--computer-seats",
        type=int,
        default=0,
        help="also play this many games against a searching computer (MCTS) and report the people's latency",
    )
    parser.add_argument(
        "--budget-ms", type=int, default=1000, help="with --computer-seats: the computer's thinking time a decision"
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="with --computer-seats: the server's thinking processes (0: threads)"
    )
    args = parser.parse_args(argv)
    if args.computer_seats:
        report = run_computer_seats(
            args.computer_seats, args.games, args.seconds, args.think_ms, args.budget_ms, args.workers
        )
    elif args.processes:
        if not args.db:
            parser.error("--processes needs --db postgresql://USER@HOST/DATABASE")
        report = run_processes(args.db, args.processes, args.games, args.seconds, args.think_ms)
    elif args.kill:
        report = kill_restart_check(args.games, args.seconds, db=args.db)
    else:
        report = run(args.games, args.seconds, args.think_ms, args.url)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
