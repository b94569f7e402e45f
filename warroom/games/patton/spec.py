"""Major Battles and Campaigns of General George S. Patton as the registry sees it: its ruleset and
what it offers each front end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.engine.spec import (
    GameSpec,
    ScenarioTerms,
    lazy,
    web_board,
)

from .help import HELP
from .rules import PattonRules

if TYPE_CHECKING:
    from .state import PattonState


def _terms(scenario: str | None) -> ScenarioTerms:
    """Normandy's Allied are the Americans; no Patton scenario ends drawn (each objective is won or denied)."""
    from .board import SCENARIOS, SIDES, load_board

    board = load_board(scenario or SCENARIOS[0])
    return ScenarioTerms(dict(zip(SIDES, board.side_names, strict=True)), draws=False)


def _invariants(ruleset: Any, state: PattonState, previous: PattonState | None) -> list[str]:
    """Stacking, unit counts, MP spent, road segments, landings (see invariants.py); time only goes forward."""
    from .invariants import problems

    found = problems(state)
    if previous is not None and state.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {state.turn}")
    return found


SPEC: GameSpec[PattonState] = GameSpec(
    id="patton",
    keywords=("Normandy", "Bulge", "Sicily"),  # its scenarios' names: no code outside warroom/games/ may name it
    ruleset=PattonRules,  # mypy holds it to the kernel's contract with the game's own state (Ruleset[PattonState])
    odds=lazy(".odds:PattonOdds", __package__),
    terminal=lazy(".render:terminal_view", __package__),
    board=web_board(__package__),
    help=HELP,
    agents=lazy(".ai:agent_hooks", __package__),
    option_specs=lazy(".options:option_specs", __package__),
    terms=_terms,
    bench_targets={"random_steps": 20_000},
    invariants=_invariants,
    hidden=(),  # the face-down packs hold no order: a card is chance when turned (NOTES.md, Observations)
    encoding=lazy(".encoding:PattonEncoding", __package__),
)
