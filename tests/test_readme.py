"""The README runs as written (issue 12: its Python example stopped with UndoLockedError).

Every fenced block is run the way a reader would: ```python blocks with the interpreter, in a
fresh folder; each ```bash line with bash, the `warroom` of this environment on the PATH;
```jsonl lines piped into `warroom protocol`, every answer ok. A command that installs packages,
starts a server or runs the whole suite is not run: SKIPPED lists those kinds by pattern, with
the reason, and every line skipped is matched by one of them (never skipped silently). A block
in another language fails the test until it is given a way to run here.

The inline commands (`warroom play ... --load FILE`) are checked too: every --option they name
exists on that command.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BIN = Path(sys.executable).parent  # where this environment's `warroom` script is

SKIPPED: list[tuple[str, str]] = [
    (r"\bpip install\b", "installs packages"),
    (r"\bapt-get\b", "installs Debian packages"),
    (r"\bpython3? -m venv\b", "makes a virtualenv"),
    (r"\bwarroom serve\b", "starts a server that runs until stopped"),
    (r"\.ci/run\b", "installs Debian packages, rebuilds .venv and runs the whole suite"),
    (r"\bpytest\b", "runs the test suite"),
]
"""Kinds of README command lines that are not run here, and why."""

RUNS = {"python", "bash", "sh", "console", "jsonl"}


def blocks() -> list[tuple[str, str, int]]:
    """The README's fenced blocks: (language, text, line number of the opening fence)."""
    found: list[tuple[str, str, int]] = []
    lang: str | None = None
    body: list[str] = []
    start = 0
    for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if lang is None:
                lang, body, start = line[3:].strip().lower(), [], number
            else:
                found.append((lang, "\n".join(body) + "\n", start))
                lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, f"README.md: the block opened at line {start} is never closed"
    return found


def command_lines(text: str) -> list[str]:
    """A shell block's commands: comments and blank lines dropped, backslash continuations joined."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    return lines


def skip_reason(line: str) -> str | None:
    return next((why for pattern, why in SKIPPED if re.search(pattern, line)), None)


def shell_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "120"
    env.pop("WARROOM_DB", None)
    return env


def test_every_block_is_one_the_test_can_run() -> None:
    found = blocks()
    assert {lang for lang, _, _ in found} >= {"python", "bash", "jsonl"}
    for lang, _, line in found:
        assert lang in RUNS, (
            f"README.md line {line}: a ```{lang} block; give it a language this test runs ({', '.join(sorted(RUNS))})"
        )


@pytest.mark.parametrize("text,line", [(text, line) for lang, text, line in blocks() if lang == "python"])
def test_python_blocks_run(text: str, line: int, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", text], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=shell_env()
    )
    assert done.returncode == 0, f"README.md line {line}:\n{done.stderr[-3000:]}"


def test_shell_lines_run_or_are_skipped_for_a_stated_reason(tmp_path: Path) -> None:
    ran, skipped = [], []
    for lang, text, line in blocks():
        if lang not in ("bash", "sh", "console"):
            continue
        for command in command_lines(text):
            why = skip_reason(command)
            if why is not None:
                skipped.append((command, why))
                continue
            done = subprocess.run(
                ["bash", "-c", f"set -euo pipefail; {command}"],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=300,
                env=shell_env(),
            )
            assert done.returncode == 0, (
                f"README.md block at line {line}: {command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
            )
            assert done.stdout.strip(), f"{command} printed nothing"
            ran.append(command)
    assert len(ran) >= 4, ran
    assert any(
        "bash .ci/run" in command for command, _ in skipped
    )  # the test command is named, and not run from a test


def test_protocol_lines_answer_ok() -> None:
    for lang, text, line in blocks():
        if lang != "jsonl":
            continue
        requests = [r for r in text.splitlines() if r.strip()]
        done = subprocess.run(
            [str(BIN / "warroom"), "protocol"], input=text, capture_output=True, text=True, timeout=300, env=shell_env()
        )
        assert done.returncode == 0, done.stderr
        answers = [json.loads(a) for a in done.stdout.splitlines()]
        assert len(answers) == len(requests), (
            f"README.md block at line {line}: {len(requests)} requests, {len(answers)} answers"
        )
        for request, answer in zip(requests, answers, strict=True):
            assert answer["ok"] is True, f"README.md block at line {line}: {request} -> {answer}"


def test_inline_commands_name_only_options_that_exist() -> None:
    import typer
    import typer.main

    from warroom.cli import app

    root = typer.main.get_command(app)
    commands = root.commands  # type: ignore[attr-defined]
    text = re.sub(r"^```.*?^```", "", README.read_text(encoding="utf-8"), flags=re.M | re.S)  # prose only
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)]
    spans += [line for lang, body, _ in blocks() if lang in ("bash", "sh", "console") for line in command_lines(body)]
    checked = 0
    for span in spans:
        for found in re.finditer(r"(?:^|&& |\| )warroom(?: ([a-z][\w-]*))?(.*?)(?=&&|\||$)", span):
            name, rest = found.group(1), found.group(2)  # no name: `warroom --version`, `warroom COMMAND --help`
            options = {"--help", *(opt for p in root.params for opt in p.opts)}
            if name is not None:
                assert name in commands, f"README.md: `{span}` names no warroom command {name!r}"
                command = commands[name]  # get_params: `odds` makes its options from the games' odds fields
                options |= {
                    opt for p in command.get_params(typer.Context(command)) for opt in (*p.opts, *p.secondary_opts)
                }
            for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", rest):
                assert flag in options, f"README.md: `{span}`: warroom {name} has no option {flag}"
            checked += 1
    assert checked >= 15, checked
