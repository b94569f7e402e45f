"""The bridge to warroom.ai's computer players, imported lazily (search is heavy; the server is not)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .errors import ApiError

DEFAULT_AGENTS = ("heuristic", "mcts", "random")


@cache
def agent_names(game: str) -> list[str]:
    """Agents the AI package can field for a game (each one is built once to be sure); empty without AI."""
    try:
        import warroom.ai as ai
    except ImportError:
        return []
    get_agent = getattr(ai, "get_agent", None)
    if not callable(get_agent):
        return []
    lister = getattr(ai, "agent_names", None)
    names = list(lister(game)) if callable(lister) else list(getattr(ai, "AGENT_NAMES", DEFAULT_AGENTS))
    usable = []
    for name in names:
        try:
            get_agent(name, game, 100, 0)
        except Exception:  # noqa: BLE001 - any agent that cannot be built for this game is simply not offered
            continue  # e.g. a game without a heuristic of its own
        usable.append(name)
    preferred = {name: rank for rank, name in enumerate(("heuristic", "mcts", "random"))}
    return sorted(usable, key=lambda name: preferred.get(name, len(preferred)))


def make_agent(name: str, game: str, budget_ms: int, seed: int | None) -> Any:
    """An agent with `choose(match) -> (action, why)`; a 503 ApiError when none can be had."""
    try:
        import warroom.ai as ai
    except ImportError:
        raise ApiError(503, "no_ai", "no computer players are installed on this server (warroom.ai is missing)") from None
    get_agent = getattr(ai, "get_agent", None)
    if not callable(get_agent):
        raise ApiError(503, "no_ai", "warroom.ai offers no get_agent(); computer players are not available")
    try:
        return get_agent(name, game, budget_ms, seed)
    except (KeyError, ValueError) as exc:
        raise ApiError(400, "unknown_agent", f"no computer player {name!r} for {game}: {exc}") from None


_MAKE_AGENT = make_agent


def replaced() -> bool:
    """Whether `make_agent` was swapped for another in this process (tests do): such agents cannot think in a worker process.

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
