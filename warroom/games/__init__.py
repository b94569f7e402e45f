"""The game registry: ids to game specs (warroom.engine.spec), imported lazily so `import warroom` stays fast.

A game is one folder under warroom/games with a `spec.py` that defines `SPEC`, plus one line in
`REGISTRY`. Generic code asks `get_spec(game)` what a game can do and never names one.

Games outside this package (a test game, a game in development) join with `register_game(id,
"module:attribute")`, or for every process of a run (the web server's workers, a protocol
subprocess) through the environment: WARROOM_GAMES="id=module:attribute,..." .

A game whose folder holds a compiled module edited since the build (warroom.engine.compiled) is
refused by `get_spec` with the fix, and left out of `game_ids()`, so the other games list and play.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from typing import Any

from warroom.engine.compiled import check_game
from warroom.engine.errors import StaleBuildError, UnknownGameError
from warroom.engine.ruleset import GameInfo, Ruleset
from warroom.engine.spec import GameSpec

REGISTRY: dict[str, str] = {
    "dragoon": "warroom.games.dragoon.spec:SPEC",
    "patton": "warroom.games.patton.spec:SPEC",
    "saintlo": "warroom.games.saintlo.spec:SPEC",
    "saintlo-teams": "warroom.games.saintlo.spec:TEAM_SPEC",
    "tunisia": "warroom.games.tunisia.spec:SPEC",
}
"""Game id -> "module:attribute" of its GameSpec (or of a bare ruleset class, for a game with nothing else)."""

GAMES_ENV = "WARROOM_GAMES"
"""More games for every process of a run: "id=module:attribute" pairs, comma-separated."""


def _from_environment() -> None:
    for entry in filter(None, (part.strip() for part in os.environ.get(GAMES_ENV, "").split(","))):
        game, sep, path = entry.partition("=")
        if not sep or ":" not in path:
            raise UnknownGameError(f"{GAMES_ENV} entry {entry!r} is not id=module:attribute")
        REGISTRY.setdefault(game.strip(), path.strip())


_from_environment()


def register_game(game: str, path: str) -> None:
    """Register a game by the "module:attribute" of its GameSpec (imported on first use)."""
    REGISTRY[game] = path
    get_spec.cache_clear()
    get_ruleset.cache_clear()


@contextmanager
def registered(game: str, path: str) -> Iterator[None]:
    """`game` registered for the duration of a `with` block, the registry as it was afterwards (tests)."""
    before = dict(REGISTRY)
    register_game(game, path)
    try:
        yield
    finally:
        REGISTRY.clear()
        REGISTRY.update(before)
        get_spec.cache_clear()
        get_ruleset.cache_clear()


@cache
def get_spec(game: str) -> GameSpec[Any]:
    """The spec of a registered game: its ruleset factory and every capability it declares."""
    path = REGISTRY.get(game)
    if path is None:
        raise UnknownGameError(f"unknown game {game!r}; known games: {', '.join(sorted(REGISTRY))}")
    module, name = path.split(":")
    check_game(module)  # a compiled module of its folder edited since the build would play the old rules
    found = getattr(import_module(module), name)
    info = getattr(found, "info", None)
    if isinstance(found, type) and isinstance(info, GameInfo):
        found = GameSpec(id=info.id, ruleset=found)  # a bare ruleset class: a game with no other capability
    if not isinstance(found, GameSpec) or found.id != game:
        raise UnknownGameError(f"{path} is neither the GameSpec nor the ruleset class of {game!r}")
    return found


@cache
def get_ruleset(game: str) -> Ruleset[Any]:
    """The (stateless, shareable) ruleset of a registered game."""
    return get_spec(game).ruleset()


def game_ids() -> list[str]:
    """The registered games that can be loaded: all of them, but for those `refused_games` names, in the order they
    were registered: the package's own games first (as `REGISTRY` lists them), then those joined from outside, so a
    test game or a game in development never becomes the first one a front end offers or a command defaults to."""
    refused = refused_games()
    return [game for game in REGISTRY if game not in refused]


def refused_games() -> dict[str, str]:
    """Registered games that a stale compiled module keeps from loading -> why, and the fix."""
    refused: dict[str, str] = {}
    for game, path in REGISTRY.items():
        try:
            check_game(path.split(":")[0])
        except StaleBuildError as error:
            refused[game] = str(error)
    return refused


def seat_variant(game: str, players: int) -> str:
    """The id of `game`'s variant for `players` players (the game itself where that is its own count)."""
    spec = get_spec(game)
    sides = len(get_ruleset(game).info.sides)
    if players == sides and not spec.seat_variants:
        return game
    variant = spec.seat_variants.get(players)
    if variant is None:
        counts = sorted({sides, *spec.seat_variants})
        raise UnknownGameError(
            f"{game} is not played by {players}: it is played by {' or '.join(map(str, counts))} players"
        )
    return variant


def spec_modules() -> list[str]:
    """The module of every loadable game's spec (a worker imports them once, ahead of its jobs)."""
    refused = refused_games()
    return [path.split(":")[0] for game, path in REGISTRY.items() if game not in refused]


def catalog() -> list[dict[str, object]]:
    """Every registered game: id, title, scenarios, sides (imports each ruleset)."""
    out: list[dict[str, object]] = []
    for game in game_ids():
        info = get_ruleset(game).info
        out.append({"id": info.id, "title": info.title, "scenarios": list(info.scenarios), "sides": list(info.sides)})
    return out
