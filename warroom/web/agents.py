"""The bridge to warroom.ai's computer players, imported lazily (search is heavy; the server is not)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .errors import ApiError

PREFERRED = ("heuristic", "mcts", "random")
"""The order agents are offered in: the game's own policy first, then search, then chance."""


@cache
def agent_names(game: str) -> list[str]:
    """Agents warroom.ai can field for a game (each one is built once to be sure: a game whose spec
    declares no heuristic is not offered one)."""
    from warroom.ai import AGENT_NAMES, get_agent

    usable = []
    for name in AGENT_NAMES:
        try:
            get_agent(name, game, 100, 0)
        except Exception:  # noqa: BLE001 - any agent that cannot be built for this game is simply not offered
            continue  # e.g. a game without a heuristic of its own
        usable.append(name)
    preferred = {name: rank for rank, name in enumerate(PREFERRED)}
    return sorted(usable, key=lambda name: preferred.get(name, len(preferred)))


def make_agent(name: str, game: str, budget_ms: int, seed: int | None) -> Any:
    """An agent with `choose(match) -> (action, why)`; a 400 ApiError for a name no agent answers to."""
    from warroom.ai import get_agent

    try:
        return get_agent(name, game, budget_ms, seed)
    except (KeyError, ValueError) as exc:
        raise ApiError(400, "unknown_agent", f"no computer player {name!r} for {game}: {exc}") from None


_MAKE_AGENT = make_agent


def replaced() -> bool:
    """Whether `make_agent` was swapped for another in this process (tests do): such agents cannot think in a
    worker process.

    A worker process imports this module afresh, so it would build the real agents instead: a
    thinker asks this and keeps such agents in a thread of this process.
    """
    return make_agent is not _MAKE_AGENT


def choose(agent: Any, match: Any) -> tuple[str, str]:
    """Ask an agent for a move on a copy of the match; normalises a bare action to (action, "")."""
    answer = agent.choose(match)
    if isinstance(answer, tuple):
        action, why = answer[0], (answer[1] if len(answer) > 1 else "")
        return str(action), str(why or "")
    return str(answer), ""
