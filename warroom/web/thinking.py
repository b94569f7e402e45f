"""Where computer players think: worker processes, so a search never holds the server's interpreter.

A search is pure Python CPU. In a thread of the server it competes with every request for the
interpreter: 50 mixed games with computer seats answered human moves at a median of 50 ms and a
p95 of 0.42 s. Here each decision (a computer seat's move, or a hint) goes to one of a few worker
processes instead, as many as the machine has cores less one for the server (`default_workers`;
`warroom serve --workers N` or WARROOM_WORKERS=N choose; 0 keeps thinking in threads). Workers run
at a lower CPU priority (`WORKER_NICE`): where cores are short, people's moves come first.

A worker gets what it needs to rebuild the position, and nothing more: the game's record (decisions
and dice rolled so far) with the seed and any scripted dice to come taken out. It replays that with
`warroom.load` and hands the agent a match whose dice come from a fresh, independent source: the
search may look ahead at chance, never at the game's real dice. The record, not a pickled Match,
is sent because it costs the event loop least: making and pickling it took 0.04 ms (a 150-action two-player
game, 5 kB), a clone's state without its ruleset 0.9 ms (28 kB), the whole Match 3.7 ms
(275 kB, its ruleset included); the worker's replay (3-10 ms for those games) runs off the loop.

Workers start from a fork server (never `fork`: the server has threads) that builds every game's
ruleset and agent hooks once (`warroom.ai.preload`); on first use, or at startup with `warm` (`warroom
serve`). Each thinks about one job at a time; callers queue for a free one. A worker that dies, or answers
nothing within twice its budget plus `grace_s`, is killed and replaced; the caller gets a `ThinkError` (an
ApiError, 503), which a computer seat reports to the seats as an error event (a reload of the page lets it try again).
Agents replaced in this process (tests do that) cannot be shipped to a worker: those think in a
thread here, as every agent did before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from warroom.engine.dice import DiceSource
from warroom.engine.errors import WarroomError
from warroom.engine.match import Match

from . import agents
from .errors import ApiError

log = logging.getLogger("warroom.web")

WORKERS_ENV = "WARROOM_WORKERS"
"""Environment variable: how many worker processes think for computer seats (0: threads of the server)."""
WORKER_NICE = 10
"""Workers run at a lower CPU priority than the server: on a busy machine a person's move is answered
first, and a search (whose budget is wall-clock time) just runs fewer simulations."""
GRACE_S = 30.0
"""How long past twice its budget a worker may take before it is taken for hung (its first job imports the game)."""


class WorkersError(WarroomError):
    """A number of worker processes that cannot be (from --workers or WARROOM_WORKERS): said in one line at startup."""

    code = "bad_workers"


class ThinkError(ApiError):
    """The thinking process died or hung; nothing was played, and the position can be asked about again."""

    def __init__(self, message: str) -> None:
        super().__init__(503, "thinking_failed", message)


@dataclass(frozen=True)
class Thought:
    """An agent's decision, and where and how long it thought (the pid shows it was another process)."""

    action: str
    why: str
    pid: int
    seconds: float
    analysis: dict[str, Any] | None = None
    """For a hint (`top` > 0): the measure and the best alternatives with their numbers (warroom.ai.analysis), as
    JSON."""


@dataclass(frozen=True)
class Job:
    """One decision to think about, small and picklable: the game's record without its seed or dice to come."""

    game: str
    agent: str
    budget_ms: int
    seed: int | None
    """The agent's own random numbers (never the game's)."""
    dice_seed: int | None
    """The seed of the fresh dice the rebuilt match rolls in the worker, should anything roll there."""
    record: dict[str, Any]
    ruleset: str = ""
    """Where the game's rules live ("module:Class", its registry entry): a game registered at run time
    (a plug-in, a test's game) is registered in the worker too."""
    top: int = 0
    """A hint asks for this many alternatives with their numbers too (0: the move and its reason alone)."""


class Thinker(Protocol):
    """What the game service asks for a decision (`GameService(store, thinker=...)`)."""

    async def think(
        self, match: Match, agent: str, budget_ms: int, seed: int | None, dice_seed: int | None, top: int = 0
    ) -> Thought: ...

    async def warm(self) -> None: ...

    def stats(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


def default_workers() -> int:
    """WARROOM_WORKERS if set, else the cores this process may use less one for the server, at least 1."""
    configured = os.environ.get(WORKERS_ENV, "").strip()
    if configured:
        try:
            count = int(configured)
        except ValueError:
            count = -1
        if count < 0:
            raise WorkersError(
                f"{WORKERS_ENV} must be a whole number of worker processes (0: think in threads), not {configured!r}"
            )
        return count
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def resolve_workers(workers: int | None) -> int:
    """`workers` checked (WorkersError below 0), or `default_workers()` when None."""
    count = default_workers() if workers is None else workers
    if count < 0:
        raise WorkersError(
            f"the number of thinking workers cannot be negative ({count}); 0 thinks in threads of the server"
        )
    return count


def make_thinker(workers: int | None = None, grace_s: float = GRACE_S) -> Thinker:
    """Worker processes (`workers`, default `default_workers()`), or threads of this process when 0."""
    count = resolve_workers(workers)
    return ProcessThinker(count, grace_s=grace_s) if count > 0 else ThreadThinker()


# -- what the thinker sees -----------------------------------------------------------------------
def private_record(match: Match) -> dict[str, Any]:
    """The match's record with nothing about dice to come: no seed, no scripted values (the rolls made stay)."""
    record = match.record().to_json()
    header = record["header"]
    header["seed"] = None
    header["dice"] = "auto"  # the rolls made replay from the record's dice list; the script or seed would tell the next
    header.pop("rng", None)  # whichever generator the game uses, the worker rolls with its own
    return record


def private_copy(match: Match, dice_seed: int | None) -> Match:
    """A copy of the match to think on, whose dice (if it rolls them) come from a source of its own."""
    twin = match.clone()
    twin.seed = None
    if not twin.dice.manual:
        twin.dice = DiceSource(dice_seed)
    return twin


def rebuild(job: Job) -> Match:
    """The position of a job, in a worker: the record replayed, then dice of its own."""
    import warroom
    from warroom.games import REGISTRY, register_game

    if job.ruleset and job.game not in REGISTRY:
        register_game(job.game, job.ruleset)
    match = warroom.load(job.record, keep_log=False)
    match.dice = DiceSource(job.dice_seed)
    return match


def decide(agent: Any, match: Match, top: int) -> tuple[str, str, dict[str, Any] | None]:
    """The agent's move and reason; with `top` > 0 also its best alternatives with numbers (the same search, read
    afterwards)."""
    if top <= 0:
        action, why = agents.choose(agent, match)
        return action, why, None
    from warroom.ai.analysis import analyse, shortlist

    found = analyse(shortlist(agent, match), match, top)  # a few moves, each with the simulations behind it
    return (
        found.action,
        found.why,
        {"measure": found.measure, "searched": found.searched, "top": [a.to_json() for a in found.top]},
    )


def answer(job: Job) -> tuple[Any, ...]:
    """Think about one job (in a worker): ("ok", action, why, pid, seconds, analysis) or ("refused", status, code,
    message)."""
    from .errors import from_engine

    started = time.perf_counter()
    try:
        match = rebuild(job)
        agent = agents.make_agent(job.agent, job.game, job.budget_ms, job.seed)
        action, why, analysis = decide(agent, match, job.top)
    except ApiError as exc:
        return ("refused", exc.status, exc.code, exc.message)
    except WarroomError as exc:
        err = from_engine(exc)
        return ("refused", err.status, err.code, err.message)
    except Exception as exc:  # noqa: BLE001 - an agent's bug is reported to the seat, and the worker lives on
        return ("failed", f"{type(exc).__name__}: {exc}")
    return ("ok", action, why, os.getpid(), time.perf_counter() - started, analysis)


def _worker_main(conn: Connection) -> None:
    """A worker process: answer jobs one at a time until told to stop (None) or the server goes away."""
    signal.signal(
        signal.SIGINT, signal.SIG_IGN
    )  # Ctrl+C reaches the whole process group: the server stops its workers itself
    with contextlib.suppress(AttributeError, OSError):  # not on Windows
        os.nice(WORKER_NICE)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            conn.send(answer(job))
        except OSError:  # the server went away mid-thought
            return


def _thought(reply: tuple[Any, ...]) -> Thought:
    kind = reply[0]
    if kind == "ok":
        return Thought(
            str(reply[1]), str(reply[2]), int(reply[3]), float(reply[4]), reply[5] if len(reply) > 5 else None
        )
    if kind == "refused":
        raise ApiError(int(reply[1]), str(reply[2]), str(reply[3]))
    raise ThinkError(f"the computer player failed: {reply[1]}")


# -- threads of this process ---------------------------------------------------------------------
class ThreadThinker:
    """Think in a thread of this process: for `--workers 0`, and for agents that exist only here (tests)."""

    def __init__(self) -> None:
        self.submitted = 0

    async def think(
        self, match: Match, agent: str, budget_ms: int, seed: int | None, dice_seed: int | None, top: int = 0
    ) -> Thought:
        twin = private_copy(match, dice_seed)
        ai = agents.make_agent(agent, match.ruleset.info.id, budget_ms, seed)
        self.submitted += 1
        started = time.perf_counter()
        action, why, analysis = await asyncio.to_thread(decide, ai, twin, top)
        return Thought(action, why, os.getpid(), time.perf_counter() - started, analysis)

    async def warm(self) -> None:
        """Nothing to start."""

    def stats(self) -> dict[str, Any]:
        return {"workers": 0, "submitted": self.submitted}

    def close(self) -> None:
        """Nothing to stop: a thread still thinking ends with its search."""


# -- worker processes ----------------------------------------------------------------------------
class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process, self.conn = process, conn

    @property
    def pid(self) -> int:
        return self.process.pid or 0

    async def ask(self, job: Job, timeout: float) -> tuple[Any, ...]:
        """Send a job and wait for the answer without blocking the event loop (the pipe wakes it)."""
        loop = asyncio.get_running_loop()
        self.conn.send(job)  # small (a few kB) and the worker is waiting for it
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_reader(fd, wake)
        except NotImplementedError:  # an event loop without readers (Windows): a thread waits instead
            waiting = await asyncio.wait_for(asyncio.to_thread(self.conn.poll, timeout), timeout + 1)
            if not waiting:
                raise TimeoutError from None
        else:
            try:
                await asyncio.wait_for(ready, timeout)
            finally:
                loop.remove_reader(fd)
        reply: tuple[Any, ...] = self.conn.recv()  # EOFError when the worker died
        return reply

    def stop(self, kill: bool) -> None:
        with contextlib.suppress(OSError):
            if kill:
                self.process.kill()
            else:
                self.conn.send(None)
        with contextlib.suppress(OSError):
            self.conn.close()


class ProcessThinker:
    """A pool of worker processes owned by the app: started on first use, replaced when one dies or hangs."""

    def __init__(self, workers: int, *, grace_s: float = GRACE_S, method: str | None = None) -> None:
        if workers < 1:
            raise ValueError("a process thinker needs at least one worker")
        self.size = workers
        self.grace_s = grace_s
        self.method = method or ("forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn")
        self.submitted = 0
        """Jobs sent to a worker process (hints and computer moves)."""
        self.replaced = 0
        """Workers killed because they died or hung mid-thought."""
        self.last: Thought | None = None
        """The latest decision a worker answered (its pid says which)."""
        self.threads = ThreadThinker()
        self._idle: list[_Worker] = []
        self._busy: dict[int, _Worker] = {}
        self._starting = 0
        self._waiters: deque[asyncio.Future[_Worker]] = deque()
        self._closed = False

    def busy_pids(self) -> list[int]:
        """The pids of workers thinking now (to watch them, or to test what happens when one dies)."""
        return [w.pid for w in self._busy.values()]

    def worker_pids(self) -> list[int]:
        """The pids of every started worker, idle or busy."""
        return [w.pid for w in self._idle] + self.busy_pids()

    def stats(self) -> dict[str, Any]:
        """For /api/health: the pool's size, how many workers run, and how many jobs went to them."""
        return {
            "workers": self.size,
            "started": len(self._idle) + len(self._busy),
            "busy": len(self._busy),
            "submitted": self.submitted,
            "replaced": self.replaced,
            "method": self.method,
        }

    async def think(
        self, match: Match, agent: str, budget_ms: int, seed: int | None, dice_seed: int | None, top: int = 0
    ) -> Thought:
        if agents.replaced():
            return await self.threads.think(match, agent, budget_ms, seed, dice_seed, top)
        # taken before the first await: the position as it is now, whatever happens to the game meanwhile
        game = match.ruleset.info.id
        job = Job(game, agent, budget_ms, seed, dice_seed, private_record(match), _registered(game), top)
        worker = await self._acquire()
        timeout = budget_ms / 1000 * 2 + self.grace_s
        trouble = "was cancelled"  # the caller gave up (shutdown): the worker is still busy, so it goes
        try:
            self.submitted += 1
            reply = await worker.ask(job, timeout)
            trouble = ""
        except TimeoutError:
            trouble = f"hung (no answer in {timeout:.0f} s)"
            if self._closed:
                raise asyncio.CancelledError from None
            raise ThinkError(
                f"the computer player ({agent}) did not answer within {timeout:.0f} s; its worker process was stopped"
            ) from None
        except (EOFError, OSError) as exc:
            trouble = f"died ({type(exc).__name__})"
            if self._closed:  # stopped by `close`: the thought is called off, which is no failure to report
                raise asyncio.CancelledError from None
            raise ThinkError(
                f"the computer player's worker process ({agent}) stopped while it thought; nothing was played"
            ) from None
        finally:
            self._release(worker, trouble)
        thought = _thought(reply)
        self.last = thought
        return thought

    async def warm(self) -> None:
        """Start every worker now (a server at startup): the first computer move then waits for no imports.

        The fork server imports the games and agents once (seconds on a busy machine); each worker
        is then a fork of it. Without this, workers start on first use.
        """
        while not self._closed and len(self._idle) + len(self._busy) + self._starting < self.size:
            self._starting += 1
            try:
                worker = await asyncio.to_thread(self._start)
            except OSError as exc:
                log.error("a thinking worker could not be started: %s", exc)
                return
            finally:
                self._starting -= 1
            self._release(worker, "")

    async def _acquire(self) -> _Worker:
        if self._closed:
            raise ThinkError("the server is shutting down; the computer cannot think now")
        if self._idle:
            worker = self._idle.pop()
        elif len(self._busy) + self._starting < self.size:
            self._starting += 1
            try:
                worker = await asyncio.to_thread(
                    self._start
                )  # the first start launches the fork server: keep it off the loop
            except OSError as exc:
                raise ThinkError(f"a thinking worker could not be started: {exc}") from None
            finally:
                self._starting -= 1
        else:
            waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                worker = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                    self._release(waiter.result(), "")  # handed over just as this caller gave up: pass it on
                else:
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(waiter)
                raise
        self._busy[id(worker)] = worker
        return worker

    def _start(self) -> _Worker:
        context: Any = multiprocessing.get_context(self.method)  # typeshed's BaseContext lacks Process
        if self.method == "forkserver":
            context.set_forkserver_preload(
                _preload_modules()
            )  # each worker is forked with the games and agents imported
        parent, child = context.Pipe()
        process = context.Process(target=_worker_main, args=(child,), name="warroom-thinker", daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def _release(self, worker: _Worker, trouble: str) -> None:
        """Give a worker back after a job: to the next waiter or the idle list; killed (and so replaced) after
        `trouble`."""
        if trouble or self._closed or not worker.process.is_alive():
            self._busy.pop(id(worker), None)
            if not self._closed:
                self.replaced += 1
                log.error("thinking worker %s %s; a fresh one replaces it", worker.pid, trouble or "died")
            worker.stop(kill=True)
            worker.process.join(timeout=1)
            self._wake_next()  # one slot is free: the next caller starts a fresh worker
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._busy[id(worker)] = (
                    worker  # still counted while handed over, so that no caller starts one too many meanwhile
                )
                waiter.set_result(worker)
                return
        self._busy.pop(id(worker), None)
        self._idle.append(worker)

    def _wake_next(self) -> None:
        """A slot freed by a dead worker goes to the next waiter, which starts a fresh one (a task of its loop)."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._starting += 1  # counted now, so that no other caller takes the slot meanwhile
                waiter.get_loop().create_task(self._start_for(waiter))
                return

    async def _start_for(self, waiter: asyncio.Future[_Worker]) -> None:
        try:
            worker = await asyncio.to_thread(self._start)
        except Exception as exc:  # noqa: BLE001 - the waiter hears why no worker came
            if not waiter.done():
                waiter.set_exception(ThinkError(f"a thinking worker could not be started: {exc}"))
            return
        finally:
            self._starting -= 1
        if waiter.done():
            self._release(worker, "")
        else:
            waiter.set_result(worker)

    def close(self) -> None:
        """Stop every worker: idle ones are asked to stop, busy ones killed; thoughts under way or waiting are
        cancelled."""
        self._closed = True
        idle, busy = list(self._idle), list(self._busy.values())
        self._idle.clear()
        for worker in idle:
            worker.stop(kill=False)
        for worker in busy:
            worker.stop(kill=True)
        for worker in idle + busy:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=1)
        for waiter in self._waiters:
            if not waiter.done():
                waiter.get_loop().call_soon_threadsafe(waiter.cancel)  # called off: the server stops, nothing failed
        self._waiters.clear()


def _registered(game: str) -> str:
    from warroom.games import REGISTRY

    return REGISTRY.get(game, "")


def _preload_modules() -> list[str]:
    """What the fork server imports once for every worker: the agents, each registered game's spec
    module, and `warroom.ai.preload`, which builds each spec's ruleset and agent hooks (so whatever
    their factories import is imported too)."""
    from warroom.games import spec_modules

    return ["warroom", "warroom.web.thinking", "warroom.ai", "warroom.ai.mcts", *spec_modules(), "warroom.ai.preload"]


__all__ = [
    "GRACE_S",
    "WORKERS_ENV",
    "WORKER_NICE",
    "Job",
    "ProcessThinker",
    "ThinkError",
    "Thinker",
    "Thought",
    "ThreadThinker",
    "WorkersError",
    "answer",
    "default_workers",
    "make_thinker",
    "resolve_workers",
    "private_copy",
    "private_record",
    "rebuild",
]
