"""Operation Dragoon 1944 as the registry sees it: its ruleset and what it offers each front end."""

from __future__ import annotations

from warroom.engine.ruleset import Ruleset
from warroom.engine.spec import AgentHooks, GameSpec


def _ruleset() -> Ruleset:
    from .rules import DragoonRules

    return DragoonRules()


def _agents() -> AgentHooks:
    from . import ai

    return AgentHooks(heuristic_policy=ai.heuristic_policy, evaluate=ai.evaluate, value_text=ai.value_text, summarize=ai.summarize)


def _option_specs() -> tuple[dict[str, object], ...]:
    from .options import option_specs

    return option_specs()


SPEC = GameSpec(
    id="dragoon",
    ruleset=_ruleset,
    agents=_agents,
    option_specs=_option_specs,
    bench_targets={"random_steps": 50_000, "mcts_sims": 3_000},
    hidden=(),  # solitaire against a BOT that shows everything; the dice are outside the state (NOTES.md)
)
