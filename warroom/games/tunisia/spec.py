"""Patton's First Victory: Tunisia as the registry sees it: its ruleset and what it offers each front end (odds,
computer players, the terminal, the browser's board, help, options, observation hiding per 6.0E and the
determinization search needs, invariants)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from random import Random
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
    from .rules import TunisiaRules

    return TunisiaRules()


def _odds() -> OddsCapability:
    from .odds import TunisiaOdds

    return TunisiaOdds()


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


def _terminal() -> TerminalView:
    from .render import terminal_view

    return terminal_view()


def _board() -> WebBoard:
    """The browser's board: web/static/board.js draws web/layout.py's data, with web/static/board.css."""
    from .web.layout import layout

    return WebBoard(
        layout=layout, static=Path(__file__).parent / "web" / "static", module="board.js", styles=("board.css",)
    )


def _describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    from .web.actions import describe_actions

    return describe_actions(ruleset, state, legal)


def _option_specs() -> tuple[dict[str, Any], ...]:
    """5.0: each side takes the default setup or places its own pieces (the Allies first, 5.2A)."""
    from .options import CHOICES, DEFAULTS

    words = {"allied_setup": ("Allied setup", "the Allies"), "axis_setup": ("Axis setup", "the Axis")}
    return tuple(
        {
            "key": key,
            "label": words[key][0],
            "short": words[key][0],
            "kind": "choice",
            "default": DEFAULTS[key],
            "rule": "5.0",
            "choices": [
                {
                    "value": v,
                    "label": "The default setup" if v == "default" else "Placed by hand",
                    "short": "default" if v == "default" else "by hand",
                }
                for v in CHOICES[key]
            ],
            "help": f"Whether {words[key][1]} take the default setup (the historical positions of 20 February 1943) "
            "or place each piece in the hexes 5.1-5.2 allow.",
        }
        for key in CHOICES
    )


def _terms(scenario: str | None) -> ScenarioTerms:
    """The Axis and the Allies; the game always has a winner (4.0B: the Axis wins at the end of the last turn)."""
    return ScenarioTerms({"Axis": "Axis", "Allied": "Allies"}, draws=False)


def _invariants(ruleset: Any, state: Any, previous: Any) -> list[str]:
    """Stacking, never both sides in a hex, MPs, supply, the dead stay dead (invariants.py); time goes forward."""
    from .invariants import problems

    found = problems(ruleset, state, previous)
    if previous is not None and state.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {state.turn}")
    return found


def _encoding() -> ObservationEncoding:
    """The observation as numbers for the research environments (encoding.py: what 6.0E hides stays hidden)."""
    from .encoding import TunisiaEncoding

    return TunisiaEncoding()


def _determinize(state: Any, side: str, rng: Random) -> Any:
    from .determinize import determinize

    return determinize(state, side, rng)


def _public_reason(rules: Any, before: Any, after: Any, action: str, why: str, viewer: str) -> bool:
    from .reasons import public_reason

    return public_reason(rules, before, after, action, why, viewer)


def _seen_hidden(rules: Any, state: Any, side: str) -> frozenset[Any]:
    from .position import seen_hidden

    return seen_hidden(rules, state, side)


def _name_seen(rules: Any, state: Any, side: str, pieces: frozenset[Any]) -> str:
    from .position import name_seen

    return name_seen(rules, state, side, pieces)


SPEC = GameSpec(
    id="tunisia",
    ruleset=_ruleset,
    odds=_odds,
    agents=_agents,
    terminal=_terminal,
    board=_board,
    describe_actions=_describe_actions,
    help=HELP,
    option_specs=_option_specs,
    terms=_terms,
    bench_targets={"random_steps": 2_000, "mcts_sims": 40},
    invariants=_invariants,
    hidden=("beneath",),  # 6.0E: what lies under the top of each stack, in the save; no side's observation has it
    determinize=_determinize,
    seen_hidden=_seen_hidden,
    name_seen=_name_seen,
    public_reason=_public_reason,
    encoding=_encoding,
)
