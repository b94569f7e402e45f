"""The tests' ways into a game's front ends from outside: the command line in-process, and the JSON-lines
protocol in a subprocess (which knows a game only from the environment it is given).

    output = cli(["simulate", "tunisia", "--games", "2", "--json"])
    answers = protocol(env, {"cmd": "new", "game": "tunisia", "seed": 2}, {"cmd": "view"})

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
