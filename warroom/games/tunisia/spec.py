"""Patton's First Victory: Tunisia as the registry sees it: its ruleset and what it offers each front end (odds,
computer players, the terminal, the browser's board, help, options, observation hiding per 6.0E and the
determinization search needs, invariants)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.engine.spec import (
    GameSpec,
    ScenarioTerms,
    lazy,
    web_board,
)

from .help import HELP
from .rules import TunisiaRules

if TYPE_CHECKING:
    from .state import TunisiaState


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


def _invariants(ruleset: Any, state: TunisiaState, previous: TunisiaState | None) -> list[str]:
    """Stacking, never both sides in a hex, MPs, supply, the dead stay dead (invariants.py); time goes forward."""
    from .invariants import problems

    found = problems(ruleset, state, previous)
    if previous is not None and state.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {state.turn}")
    return found


SPEC: GameSpec[TunisiaState] = GameSpec(
    id="tunisia",
    keywords=("Kasserine",),  # a place only its map has: no code outside warroom/games/ may name it
    ruleset=TunisiaRules,  # mypy holds it to the kernel's contract with the game's own state (Ruleset[TunisiaState])
    odds=lazy(".odds:TunisiaOdds", __package__),
    agents=lazy(".ai:agent_hooks", __package__),
    terminal=lazy(".render:terminal_view", __package__),
    board=web_board(__package__),
    help=HELP,
    option_specs=_option_specs,
    terms=_terms,
    bench_targets={"random_steps": 2_000, "mcts_sims": 40},
    invariants=_invariants,
    hidden=("beneath",),  # 6.0E: what lies under the top of each stack, in the save; no side's observation has it
    determinize=lazy(".determinize:determinize", __package__),
    seen_hidden=lazy(".position:seen_hidden", __package__),
    name_seen=lazy(".position:name_seen", __package__),
    public_reason=lazy(".reasons:public_reason", __package__),
    encoding=lazy(".encoding:TunisiaEncoding", __package__),  # numbers for warroom.envs; 6.0E hides there too
)
