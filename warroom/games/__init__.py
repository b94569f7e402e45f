"""The game registry: ids to rulesets, imported lazily so `import warroom` stays fast."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from warroom.engine.errors import UnknownGameError
from warroom.engine.ruleset import Ruleset

REGISTRY: dict[str, str] = {
    "dragoon": "warroom.games.dragoon.rules:DragoonRules",
    "patton": "warroom.games.patton.rules:PattonRules",
}


@cache
def get_ruleset(game: str) -> Ruleset:
    """The (stateless, shareable) ruleset of a registered game."""
    path = REGISTRY.get(game)
    if path is None:
        raise UnknownGameError(f"unknown game {game!r}; known games: {', '.join(sorted(REGISTRY))}")
    module, name = path.split(":")
    return getattr(import_module(module), name)()


def game_ids() -> list[str]:
    return sorted(REGISTRY)


def catalog() -> list[dict[str, object]]:
    """Every registered game: id, title, scenarios, sides (imports each ruleset)."""
    out: list[dict[str, object]] = []
    for game in game_ids():
        info = get_ruleset(game).info
        out.append({"id": info.id, "title": info.title, "scenarios": list(info.scenarios), "sides": list(info.sides)})
    return out
