"""The web bench (warroom/web/bench.py) run to an amount of work rather than for a time.

The bench plays for `seconds` and reports what got done, so a test asserting "more than 50 moves in 2 s" passed
or failed with the machine's speed (issue 37: 44 moves on a loaded CI machine). `stop_when(monkeypatch, enough)`
makes each load the bench starts stop as soon as `enough(progress)` holds, and `kill_restart_check` kill its
server then rather than after its seconds: a test gives the bench SLOW_STATE_SECONDS (tests/patience.py), a
ceiling that only stops a hung run, and asserts on the work done.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from warroom.web import bench

POLL_S = 0.02


@dataclass
class Progress:
    """What the bench's runs have done so far, read while they run."""

    tallies: list[bench.Tally] = field(default_factory=list)
    computers: list[bench.ComputerTally] = field(default_factory=list)
    players: list[bench.GameLoad] = field(default_factory=list)

    @property
    def moves(self) -> int:
        """Moves acknowledged (the report's "moves")."""
        return sum(len(t.latencies) for t in self.tallies)

    @property
    def games_started(self) -> int:
        return sum(t.games_started for t in self.tallies)

    @property
    def pushes(self) -> int:
        """Messages the players' sockets received (the report's "pushes_received")."""
        return sum(p.frames for p in self.players)

    @property
    def pushes_timed(self) -> int:
        """Pushes timed from their move's sending (several server processes: the report's "pushes_timed")."""
        return sum(len(p.push_ms) for p in self.players)

    @property
    def acknowledged(self) -> int:
        """Moves acknowledged in the players' current games (the kill check's "acknowledged_moves")."""
        return sum(len(p.acked) for p in self.players)

    @property
    def games_created(self) -> int:
        """Players holding a game (the kill check's "games_created")."""
        return sum(1 for p in self.players if p.id)

    @property
    def decisions(self) -> int:
        """The computer seats' decisions (a run with computer seats)."""
        return sum(c.decisions for c in self.computers)


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(POLL_S)


def stop_when(monkeypatch: pytest.MonkeyPatch, enough: Callable[[Progress], bool]) -> Progress:
    """Make the bench's loads stop once `enough(progress)` holds (or at the seconds they were given, a ceiling),
    and `kill_restart_check` kill its server once it holds; the progress, read as the runs go."""
    progress = Progress()
    real_load = bench._load

    class Tally(bench.Tally):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            progress.tallies.append(self)

    class ComputerTally(bench.ComputerTally):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            progress.computers.append(self)

    async def load(
        url: str,
        games: int,
        seconds: float,
        think_ms: float,
        seed: int,
        stop: asyncio.Event | None = None,
        players: list[bench.GameLoad] | None = None,
        urls: list[str] | None = None,
    ) -> dict[str, Any]:
        stop = stop or asyncio.Event()
        players = players if players is not None else [bench.GameLoad() for _ in range(games)]
        progress.players.extend(players)

        async def watch() -> None:
            await _until(lambda: enough(progress))
            stop.set()

        watcher = asyncio.create_task(watch())
        try:
            return await real_load(url, games, seconds, think_ms, seed, stop, players, urls)
        finally:
            watcher.cancel()

    async def kill_during_load(
        url: str,
        proc: subprocess.Popen[str],
        players: list[bench.GameLoad],
        seconds: float,
        think_ms: float,
        seed: int,
    ) -> dict[str, Any]:
        """bench._kill_during_load, the kill coming once enough is done rather than after `seconds`."""
        stop = asyncio.Event()
        progress.players.extend(players)
        running = asyncio.create_task(
            real_load(url, len(players), seconds + 30, think_ms, seed, stop=stop, players=players)
        )
        with contextlib.suppress(TimeoutError):  # at the ceiling, killed all the same: the test says what was missing
            await asyncio.wait_for(_until(lambda: enough(progress) or running.done()), seconds)
        proc.send_signal(signal.SIGKILL)  # no shutdown, no flush: whatever was committed is all there is
        proc.wait()
        await asyncio.sleep(0.2)  # as the bench does: the players meet the dead server before they are stopped
        stop.set()
        return await running

    monkeypatch.setattr(bench, "Tally", Tally)
    monkeypatch.setattr(bench, "ComputerTally", ComputerTally)
    monkeypatch.setattr(bench, "_load", load)
    monkeypatch.setattr(bench, "_kill_during_load", kill_during_load)
    return progress
