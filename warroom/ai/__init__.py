"""Computer players for every game: random, the game's own heuristic, and MCTS.

    agent = get_agent("mcts", game_ids()[0], budget_ms=200, seed=1)  # any registered game id
    action, why = agent.choose(match)

Game-agnostic: what a game gives its computer players is the `agents` capability of its spec
(`warroom.engine.spec.AgentHooks`, asked for with `agent_hooks(game)`): its heuristic policy, its
evaluation (the first side's value in [0, 1], or a mapping side -> value, which games of more than
two teams need), its words for a value, its report facts and its search hints. A game without
them still gets the random agent and a plain MCTS. Search backs up each side's `Result.returns`
(see ai/mcts.py), so agents play any number of sides and teams.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from warroom.engine.errors import WarroomError
from warroom.engine.ruleset import CHANCE, Ruleset
from warroom.engine.spec import AgentHooks

AGENT_NAMES = ("random", "heuristic", "mcts", "search")


class UnknownAgentError(WarroomError):
    """An agent name that no agent answers to."""

    code = "unknown_agent"


class NoDecisionError(WarroomError):
    """The agent was asked to move when no side may decide (game over, or a die to roll by hand)."""

    code = "no_decision"


class NoHeuristicError(WarroomError):
    """The game has no heuristic policy of its own."""

    code = "no_heuristic"


class NoSearchError(WarroomError):
    """The game has no search of its own (its spec's agents declare none): "mcts" is its search."""

    code = "no_search"


class WithheldAgentError(WarroomError):
    """The game does not offer this agent (`AgentHooks.withheld`: it plays below the game's own heuristic)."""

    code = "withheld_agent"


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action for the side to act, and says why in plain language."""

    name: str

    def choose(self, match: Any) -> tuple[str, str]: ...


NO_HOOKS: AgentHooks[Any] = AgentHooks()
"""The hooks of a game that declares none: search plays with uniform priors and random rollouts."""


def agent_hooks(game: str) -> AgentHooks[Any]:
    """What `game`'s spec gives the computer players (its `agents` capability), or `NO_HOOKS`.

    Built on each call (the factory imports the game's search module once; after that it costs
    microseconds), so a game registered again under the same id is asked afresh."""
    from warroom.games import get_spec

    factory = get_spec(game).agents
    return factory() if factory is not None else NO_HOOKS


def decision_state(match: Any) -> Any:
    """The match's state, if a side (not the dice, not nobody) must decide now."""
    side = match.ruleset.to_act(match.state)
    if side is None:
        raise NoDecisionError("the game is over: there is no decision to make")
    if side == CHANCE:
        raise NoDecisionError("a die roll is pending: the dice decide, not an agent")
    return match.state


class HeuristicAgent:
    """The game's hand-written policy: fast, explainable, the yardstick for search.

    In a game that hides something from a side (its spec's `hidden`), the policy is shown a world the
    deciding side cannot tell from the real one (the spec's `determinize`, drawn with the agent's own
    random numbers), never the real state: whatever the policy reads, it cannot peek at an enemy's hand,
    a face-down unit or the pieces beneath a stack. A policy that reads only what its side sees chooses
    as it would have on the real state."""

    name = "heuristic"

    def __init__(
        self,
        ruleset: Ruleset[Any],
        hooks: AgentHooks[Any],
        seed: int | None = None,
        determinize: Callable[[Any, str, random.Random], Any] | None = None,
    ) -> None:
        policy = hooks.heuristic_policy
        if policy is None:
            raise NoHeuristicError(f"{ruleset.info.id} has no heuristic policy (its spec's agents declare none)")
        self.ruleset = ruleset
        self._policy = policy
        self._unpredictable = hooks.unpredictable
        self._determinize = determinize
        self._rng = random.Random(seed)
        self._order_rng = random.Random(None if seed is None else f"order {seed}")
        """Draws for `unpredictable` alone, so the determinizations draw as they would without it."""

    def choose(self, match: Any) -> tuple[str, str]:
        state = decision_state(match)
        if self._unpredictable is not None:  # a choice the opponent watches but must not foresee
            drawn = self._unpredictable(match.ruleset, state, self._order_rng)
            if drawn is not None:
                return drawn
        if self._determinize is not None:
            state = self._determinize(state, match.ruleset.to_act(state), self._rng)
        action, why = self._policy(match.ruleset, state)
        return action, why


def agent_seed(game_seed: int | str | None, role: str = "agent") -> int | None:
    """A seed for an agent's own random numbers, drawn from the game's seed but independent of it.

    An agent seeded with the game's seed would draw from the very stream the game's dice come
    from: a random player's choices would move in step with the dice, and a search could sample
    the real dice to come. Hashing gives a reproducible seed with a stream of its own; `role`
    (say, the side) keeps two agents of one game apart too. The game's seed is an integer, or a
    keyed generator's 64 hex digits (hashed as the text it is; SHA-256 does not reveal it)."""
    if game_seed is None:
        return None
    digest = hashlib.sha256(f"warroom {role} {game_seed}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def get_agent(
    name: str,
    game: str,
    budget_ms: int | None = None,
    seed: int | None = None,
    *,
    simulations: int | None = None,
) -> Agent:
    """An agent by name: "random", "heuristic" (the game's own policy), "mcts", or "search" (the game's
    own search, where its spec's agents give one: `AgentHooks.search`).

    `budget_ms` bounds MCTS thinking time per decision and `simulations` its simulation count
    (either or both; neither gives MCTS its default count). `seed` makes random and MCTS
    agents reproducible, and the heuristic's draws of what its side cannot see.
    """
    from warroom.games import get_ruleset

    ruleset = get_ruleset(game)
    if name not in AGENT_NAMES:
        raise UnknownAgentError(f"unknown agent {name!r}; agents: {', '.join(AGENT_NAMES)}")
    if name == "random":
        from .random_agent import RandomAgent

        return RandomAgent(seed)
    hooks = agent_hooks(game)
    why = hooks.withheld.get(name)
    if why is not None:
        offered = [other for other in AGENT_NAMES if other not in hooks.withheld]
        raise WithheldAgentError(f"{game} does not offer {name}: {why}; agents: {', '.join(offered)}")
    if name == "heuristic":
        from warroom.games import get_spec

        spec = get_spec(game)
        return HeuristicAgent(ruleset, hooks, seed, spec.determinize if spec.hidden else None)
    if name == "search":
        if hooks.search is None:
            raise NoSearchError(
                f"{ruleset.info.id} has no search of its own (its spec's agents declare none); use mcts"
            )
        agent: Agent = hooks.search(ruleset, budget_ms=budget_ms, simulations=simulations, seed=seed)
        return agent
    from .mcts import MCTSAgent

    return MCTSAgent(ruleset, hooks=hooks, budget_ms=budget_ms, simulations=simulations, seed=seed)


__all__ = [
    "AGENT_NAMES",
    "NO_HOOKS",
    "Agent",
    "HeuristicAgent",
    "NoDecisionError",
    "NoHeuristicError",
    "NoSearchError",
    "UnknownAgentError",
    "WithheldAgentError",
    "agent_hooks",
    "agent_seed",
    "decision_state",
    "get_agent",
]
