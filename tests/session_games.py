"""The test-only games registered for the whole test run, in this process and in every subprocess it starts.

The proof game bluff (tests/games/bluff) joins the registry as any game outside the package does: in this
process through `register_game`, and for the subprocesses a test starts (the protocol, the terminal, the web
server's workers) through WARROOM_GAMES, with tests/ on PYTHONPATH so `games.bluff` imports. So every test that
loops over the registered games (conformance, observations, the environments, the web boards) sees it too.
"""

from __future__ import annotations

import os
from pathlib import Path

from warroom.games import GAMES_ENV, REGISTRY, register_game

TESTS = Path(__file__).resolve().parent
SESSION_GAMES = {"bluff": "games.bluff.spec:SPEC"}
"""Test game id -> "module:attribute" of its spec (importable with tests/ on the path)."""


def register_session_games() -> None:
    """Register SESSION_GAMES here and in the environment every subprocess inherits (idempotent)."""
    for game, path in SESSION_GAMES.items():
        if REGISTRY.get(game) != path:
            register_game(game, path)
    entries = [entry for entry in os.environ.get(GAMES_ENV, "").split(",") if entry.strip()]
    named = {entry.partition("=")[0].strip() for entry in entries}
    entries += [f"{game}={path}" for game, path in SESSION_GAMES.items() if game not in named]
    os.environ[GAMES_ENV] = ",".join(entries)
    paths = [part for part in os.environ.get("PYTHONPATH", "").split(os.pathsep) if part]
    if str(TESTS) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(TESTS), *paths])
