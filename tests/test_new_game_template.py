"""A new game truly touches one folder: copied from the template game and given its own id, it passes the suite
with nothing outside its folder but the registry line.

The test copies the proof game (tests/games/bluff) into a temporary folder under a new id, the way a contributor
starts a game, and registers it the way a game outside the package joins: one entry of WARROOM_GAMES (the
registry line), with the folder's parent on PYTHONPATH. Everything else runs in subprocesses that know the game
from that environment only: the documented command writes its goldens (into its own folder), the suite's loops
over every registered game (conformance, observations, the one-folder check, the ladder page, the web boards) run
on it, and the protocol, the terminal, simulate and the web API play it. No file outside its folder is written.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from front_ends import protocol

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
TEMPLATE = TESTS / "games" / "bluff"
TEMPLATE_ID = "bluff"
GAME = "cardduel"
"""The new game's id, and its folder's (its package's) name."""
SUITE = [
    "tests/test_conformance.py",
    "tests/test_observations.py",
    "tests/test_one_folder.py",
    "tests/test_ladder.py",
    "tests/test_envs.py",
    "tests/test_table_assistant.py",
    "tests/web/test_web_boards.py",
]
"""The test modules that loop over every registered game (a new game is in each of their lists): the rules'
conformance, what each seat sees, the one-folder check, the ladder page, the research environments (PettingZoo,
Gymnasium, OpenSpiel), the table assistant's typed dice and the web boards."""


@pytest.fixture(scope="module")
def new_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template copied under the new id, without the template's goldens: the folder of a game just begun."""
    games = tmp_path_factory.mktemp("contributor")
    folder = games / GAME
    shutil.copytree(TEMPLATE, folder, ignore=shutil.ignore_patterns("__pycache__", "data"))
    for source in folder.glob("*.py"):  # the contributor's one edit of the copy: the id it declares
        text = source.read_text(encoding="utf-8")
        source.write_text(text.replace(f'id="{TEMPLATE_ID}"', f'id="{GAME}"'), encoding="utf-8")
    assert f'id="{GAME}"' in (folder / "rules.py").read_text() and f'id="{GAME}"' in (folder / "spec.py").read_text()
    return folder


def _env(folder: Path) -> dict[str, str]:
    """The registry line (WARROOM_GAMES) and the folder importable: all that is outside the new game's folder."""
    path = os.pathsep.join([str(folder.parent), str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])
    games = ",".join(filter(None, [os.environ.get("WARROOM_GAMES"), f"{GAME}={GAME}.spec:SPEC"]))
    return {**os.environ, "WARROOM_GAMES": games, "PYTHONPATH": path, "COLUMNS": "120", "NO_COLOR": "1"}


def _run(folder: Path, args: list[str], stdin: str = "") -> str:
    done = subprocess.run(
        [sys.executable, *args], input=stdin, capture_output=True, text=True, env=_env(folder), cwd=ROOT, timeout=300
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout[-4000:] + done.stderr[-4000:]
    return done.stdout


def _outside_files() -> set[str]:
    """Files under the checkout that name the new game (a golden, a test, a page written outside its folder)."""
    return {
        str(path.relative_to(ROOT))
        for top in ("tests", "warroom", "docs")
        for path in (ROOT / top).rglob(f"*{GAME}*")
        if path.is_file()
    }


def test_the_copy_passes_the_suite_from_its_own_folder(new_game: Path) -> None:
    before = _outside_files()
    written = _run(new_game, ["tests/test_conformance.py", "--regen", GAME])  # the documented command
    golden = new_game / "data" / "golden"
    assert sorted(p.name for p in golden.iterdir()) == [f"perft_{GAME}.json", f"playthrough_{GAME}.json"], written
    # the suite, selected to the new game where a module is parametrized by game, whole where it is not
    pytest_args = ["-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider", "-rs"]
    report = _run(new_game, [*pytest_args, "-k", f"{GAME} or one_folder", *SUITE])  # fails on any failure
    skipped = [line for line in report.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1 and "docs/ladder.md has no standings" in skipped[0], report[-4000:]  # no ladder yet
    assert re.search(r"\b(\d+) passed, 1 skipped", report), report[-4000:]
    collected = _run(new_game, [*pytest_args, "--collect-only", "-k", GAME, *SUITE])
    for module in (
        "test_conformance.py",
        "test_observations.py",
        "test_ladder.py",
        "test_envs.py",
        "test_web_boards.py",
    ):
        assert f"{module}::" in collected and f"[{GAME}]" in collected, (module, collected[-2000:])
    assert _outside_files() == before, "the new game wrote files outside its folder"


def test_the_front_ends_play_the_copy(new_game: Path) -> None:
    # the JSON-lines protocol: a hand to its showdown, each side seeing its own card only
    answers = protocol(
        _env(new_game),
        {"cmd": "games"},
        {"cmd": "new", "game": GAME, "seed": 2},
        {"cmd": "view", "side": "North"},
        {"cmd": "play", "action": "bet", "side": "North"},
        {"cmd": "play", "action": "call", "side": "South"},
    )
    assert all(a["ok"] for a in answers), answers
    assert GAME in json.dumps(answers[0]) and set(answers[2]["view"]["state"]["cards"]) == {"North"}
    assert answers[4]["view"]["over"]
    # the terminal, by typed numbers: check, the device passed to South, check: the showdown
    screen = _run(new_game, ["-m", "warroom", "play", GAME, "--seed", "2", "--vs", "human", "--flat"], "1\n\n1\n\n\n\n")
    assert "pot 2" in screen and "victory" in screen.lower(), screen[-3000:]
    # simulate, with the copy's own heuristic
    report = json.loads(_run(new_game, ["-m", "warroom", "simulate", GAME, "--games", "20", "--json"]))
    assert report["games"] == 20 and sum(report["outcomes"].values()) == 20
    # the web API, in a process that knows the game from the environment only
    played = json.loads(_run(new_game, ["-c", WEB_GAME, GAME]))
    assert played["listed"] and played["over"] and played["statuses"] == [200, 200, 200], played


WEB_GAME = """
import json, sys, tempfile
from pathlib import Path
from fastapi.testclient import TestClient
from warroom.web.server import create_app

game = sys.argv[1]
with tempfile.TemporaryDirectory() as folder:
    app = create_app(f"sqlite:///{Path(folder) / 'warroom.db'}")
    try:
        with TestClient(app) as client:
            listed = game in json.dumps(client.get("/api/catalog").json())
            data = client.post("/api/games", json={"game": game, "mode": "online"}).json()
            tokens = {seat["side"]: seat["token"] for seat in data["seats"] if "token" in seat}
            for seat in data["seats"]:
                if "invite" in seat:
                    claimed = client.post(f"/api/games/{data['id']}/claim", json={"invite": seat["invite"]})
                    tokens[seat["side"]] = claimed.json()["token"]
            statuses = []
            for action in ("check", "bet", "call"):
                views = {s: client.get(f"/api/games/{data['id']}", params={"token": t}).json()
                         for s, t in tokens.items()}
                side = next(s for s, answer in views.items() if answer["view"]["legal"])
                answer = client.post(
                    f"/api/games/{data['id']}/actions", params={"token": tokens[side]},
                    json={"action": action, "move": views[side]["move"]},
                )
                statuses.append(answer.status_code)
            token = tokens["North"]
            final = client.get(f"/api/games/{data['id']}", params={"token": token}).json()["view"]
    finally:
        app.state.store.close()
print(json.dumps({"listed": listed, "statuses": statuses, "over": final["over"]}))
"""
"""An online hand, each seat with its own token, played through the web API (check, bet, call: a showdown)."""
