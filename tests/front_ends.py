"""The tests' ways into a game's front ends from outside: the command line in-process, and the JSON-lines
protocol in a subprocess (which knows a game only from the environment it is given).

    output = cli(["simulate", "tunisia", "--games", "2", "--json"])
    answers = protocol(env, {"cmd": "new", "game": "tunisia", "seed": 2}, {"cmd": "view"})
    screen = terminal_against_the_computer("saintlo", seed=11, computer="Axis", answers=90)
    child = terminal_process(["play", "dragoon", "--seed", "3"])  # a real pseudo-terminal (pexpect)

Each game's contract tests drive them the same way, so a change to how the command line or the
protocol is run is made once.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from typer.testing import CliRunner

RUNNER = CliRunner()


def terminal_process(args: list[str]) -> Any:
    """`warroom ARGS` in a pseudo-terminal of 120x50 without colour, as a person's terminal runs it (pexpect):
    each answer waits for its prompt, so pexpect's own pause before every send (50 ms, for programs that read a
    password before they are ready) is off, and Ctrl-C interrupts (a test worker may run with it ignored, which
    the child would inherit). A prompt waited for longer than SLOW_STATE_SECONDS is a hung program."""
    import os
    import signal

    import pexpect
    from patience import SLOW_STATE_SECONDS

    child = pexpect.spawn(
        sys.executable,
        ["-m", "warroom.cli", *args],
        env={**os.environ, "COLUMNS": "120", "LINES": "50", "NO_COLOR": "1"},
        encoding="utf-8",
        timeout=SLOW_STATE_SECONDS,
        dimensions=(50, 120),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.delaybeforesend = None
    return child


def terminal_against_the_computer(game: str, *, seed: int, computer: str, answers: int) -> str:
    """The terminal (flat menus, no pauses) against the heuristic playing `computer`, the person answering "1" to
    the first `answers` prompts and then closing the input; everything it printed."""
    import io

    from rich.console import Console

    import warroom
    from warroom.ai import get_agent
    from warroom.terminal import TerminalGame

    match = warroom.new_game(game, seed=seed)
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False, color_system=None)
    asked = 0

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if asked > answers:
            raise EOFError
        return "1"

    agent = get_agent("heuristic", game, seed=1)
    TerminalGame(match, console, ask=ask, agent=agent, agent_sides={computer}, flat=True, pace=0).run()
    return out.getvalue()


def cli(args: list[str], lines: list[str] | None = None, columns: int = 120) -> str:
    """`warroom ARGS` with `lines` typed in; its output, after checking it ran to the end without a traceback."""
    from warroom.cli import app

    result = RUNNER.invoke(app, args, input="".join(f"{line}\n" for line in lines or []), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.output


def protocol(env: dict[str, str], *requests: dict[str, Any], timeout: float = 120) -> list[dict[str, Any]]:
    """The answers of `python -m warroom protocol` (run with `env`) to `requests`, one each (a final quit is
    sent and its answer dropped)."""
    text = "".join(json.dumps(r) + "\n" for r in (*requests, {"cmd": "quit"}))
    done = subprocess.run(
        [sys.executable, "-m", "warroom", "protocol"],
        input=text,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()][:-1]
