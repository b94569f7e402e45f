"""Operation Dragoon 1944 as the registry sees it: its ruleset and what it offers each front end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.ruleset import Ruleset
from warroom.engine.spec import (
    ActionDescriptor,
    AgentHooks,
    GameSpec,
    ObservationEncoding,
    OddsCapability,
    TerminalView,
    WebBoard,
)

from .help import HELP


def _ruleset() -> Ruleset:
    from .rules import DragoonRules

    return DragoonRules()


def _agents() -> AgentHooks:
    from . import ai
    from .search import search_agent

    # search: paired heuristic playouts to the end of the game (search.py); MCTS with the projection
    # at its leaves plays worse than the heuristic (NOTES.md, "Search")
    return AgentHooks(
        heuristic_policy=ai.heuristic_policy,
        evaluate=ai.evaluate,
        value_text=ai.value_text,
        summarize=ai.summarize,
        search=search_agent,
    )


def _encoding() -> ObservationEncoding:
    from .encoding import DragoonEncoding

    return DragoonEncoding()


def _invariants(ruleset: Any, state: Any, previous: Any) -> list[str]:
    from .invariants import problems

    return problems(ruleset, state, previous)


def _option_specs() -> tuple[dict[str, object], ...]:
    from .options import option_specs

    return option_specs()


def _odds() -> OddsCapability:
    from .odds import DragoonOdds

    return DragoonOdds()


def _board() -> WebBoard:
    """The browser's board: web/static/board.js draws web/layout.py's data, with web/static/board.css."""
    from pathlib import Path

    from .web.layout import layout

    return WebBoard(
        layout=layout, static=Path(__file__).parent / "web" / "static", module="board.js", styles=("board.css",)
    )


def _describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    from .web.actions import describe_actions

    return describe_actions(ruleset, state, legal)


def _terminal() -> TerminalView:
    from .render import terminal_view

    return terminal_view()


SPEC = GameSpec(
    id="dragoon",
    ruleset=_ruleset,
    odds=_odds,
    terminal=_terminal,
    board=_board,
    describe_actions=_describe_actions,
    help=HELP,
    agents=_agents,
    option_specs=_option_specs,
    bench_targets={"random_steps": 50_000, "mcts_sims": 3_000},
    invariants=_invariants,
    hidden=(),  # solitaire against a BOT that shows everything; the dice are outside the state (NOTES.md)
    encoding=_encoding,
)
