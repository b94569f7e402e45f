"""Major Battles and Campaigns of General George S. Patton as the registry sees it: its ruleset and
what it offers each front end."""

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
    ScenarioTerms,
    TerminalView,
    WebBoard,
)

from .help import HELP


def _ruleset() -> Ruleset:
    from .rules import PattonRules

    return PattonRules()


def _agents() -> AgentHooks:
    from . import ai

    return AgentHooks(
        heuristic_policy=ai.heuristic_policy,
        evaluate=ai.evaluate,
        value_text=ai.value_text,
        summarize=ai.summarize,
        candidate_actions=ai.candidate_actions,
        leaf_playout=ai.leaf_playout,
        search_confidence=ai.SEARCH_CONFIDENCE,
    )


def _option_specs() -> tuple[dict[str, Any], ...]:
    from .options import option_specs

    return option_specs()


def _terms(scenario: str | None) -> ScenarioTerms:
    """Normandy's Allied are the Americans; no Patton scenario ends drawn (each objective is won or denied)."""
    from .board import SCENARIOS, SIDES, load_board

    board = load_board(scenario or SCENARIOS[0])
    return ScenarioTerms(dict(zip(SIDES, board.side_names, strict=True)), draws=False)


def _encoding() -> ObservationEncoding:
    from .encoding import PattonEncoding

    return PattonEncoding()


def _invariants(ruleset: Any, state: Any, previous: Any) -> list[str]:
    """Stacking, unit counts, MP spent, road segments, landings (see invariants.py); time only goes forward."""
    from .invariants import problems

    found = problems(state)
    if previous is not None and state.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {state.turn}")
    return found


def _odds() -> OddsCapability:
    from .odds import PattonOdds

    return PattonOdds()


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
    id="patton",
    ruleset=_ruleset,
    odds=_odds,
    terminal=_terminal,
    board=_board,
    describe_actions=_describe_actions,
    help=HELP,
    agents=_agents,
    option_specs=_option_specs,
    terms=_terms,
    bench_targets={"random_steps": 20_000},
    invariants=_invariants,
    hidden=(),  # the face-down packs hold no order: a card is chance when turned (NOTES.md, Observations)
    encoding=_encoding,
)
