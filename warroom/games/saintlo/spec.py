"""Panzer Saint-Lo 1944 as the registry sees it: the two-player game (`saintlo`) and the four-player team
variant of rule 10 (`saintlo-teams`), with what each offers the front ends.

Why two ids: a game's sides are its ruleset's `GameInfo.sides`, one tuple for every scenario and option,
and the front ends seat players by it; the variant has four seats in two teams, so it is a ruleset of its
own (SaintLoTeamRules) and a spec of its own, with every capability shared.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from warroom.engine.spec import (
    ConcealedDecision,
    GameSpec,
    ObservationEncoding,
    ScenarioTerms,
    lazy,
    web_board,
)

from .help import HELP
from .rules import SaintLoRules, SaintLoTeamRules

if TYPE_CHECKING:
    from .state import SaintLoState


def _option_specs() -> tuple[dict[str, Any], ...]:
    return (
        {
            "key": "objective",
            "label": "Command Posts to destroy",
            "short": "Objective",
            "kind": "choice",
            "default": 4,
            "rule": "Saint-Lo 3",
            "choices": [{"value": n, "label": f"{n} Command Posts", "short": f"{n} posts"} for n in (4, 6, 8)],
            "help": (
                "The game is won by destroying four of the enemy's Command Posts; for a longer game, six or all eight."
            ),
        },
        {
            "key": "turn_limit",
            "label": "Turn limit",
            "short": "Turn limit",
            "kind": "int",
            "default": 0,
            "min": 0,
            "max": 99,
            "simulate": 12,
            "rule": "Saint-Lo 3",
            "help": "Not a rule: the game ends drawn after each army has played this many turns (0: no limit). "
            "Simulations play 12 so that two computer players always finish.",
        },
    )


def _terms(scenario: str | None) -> ScenarioTerms:
    """The Allied army is American, the Axis German (1); a game stopped at the turn limit is drawn."""
    return ScenarioTerms({}, draws=True)


def _invariants(ruleset: Any, state: SaintLoState, previous: SaintLoState | None) -> list[str]:
    """One unit a hex, Supplies never negative, at most 10 activations, hand limits (invariants.py)."""
    from .invariants import problems

    found = problems(ruleset, state, previous)
    if previous is not None and state.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {state.turn}")
    return found


def _encoding() -> ObservationEncoding:
    """One layout for both ids: seats are slots by army and role (10), so the two-player game and the team
    game give vectors of one length (encoding.py)."""
    from .encoding import SaintLoEncoding

    return SaintLoEncoding()


@cache
def _rules_for(seats: int) -> Any:
    """One ruleset per seat count, built once (its tables take a moment to compile)."""
    return (SaintLoTeamRules if seats == 4 else SaintLoRules)()


def _determinize(state: SaintLoState, side: str, rng: random.Random) -> SaintLoState:
    from .determinize import determinize

    return determinize(_rules_for(state.seats), state, side, rng)


def _hidden() -> tuple[str, ...]:
    """Every card's count in each deck: a seat sees only how many cards are left (position.py)."""
    import tomllib
    from pathlib import Path

    data = tomllib.loads((Path(__file__).parent / "data" / "cards.toml").read_text(encoding="utf-8"))
    return tuple(f"deck.{army}.{card['id']}" for army in ("allied", "axis") for card in data[army])


def _final_decision(rules: Any, state: SaintLoState, action: str) -> str | None:
    """4.3: "Once a counter is placed in the board, it cannot be moved to another hex": a deployment is final,
    so undo never takes it back (nor lets it be placed again elsewhere), one counter or all the rest in bulk
    (`ready`, `sector NAME`: placement.py). The Command Posts of 4.2 are not counters deployed under that
    sentence, placed one by one or `ready` (NOTES.md)."""
    from .state import Phase

    if action.startswith(("deploy ", "sector ")) or (action == "ready" and state.phase == Phase.DEPLOY):
        return "Saint-Lo 4.3"
    return None


def _entry_outcomes(rules: Any, state: SaintLoState) -> list[int] | None:
    """9, table mode: a card draw typed in offers every kind of the drawer's deck, not only those left in it
    (which, with the cards played, would tell the table what the drawer's hands hold); dice their faces."""
    from .seats import army_of
    from .state import Phase

    if state.phase != Phase.DRAW:
        return None
    return list(range(len(rules.t.cards[army_of(state, state.draw_queue[0])])))


def _concealed_decision(rules: Any, state: SaintLoState) -> ConcealedDecision | None:
    """4.5, 9: a Battle Report window opens on what every seat knows, not on the hand (reports.py), so a seat may
    be asked holding nothing it can play: its answer is `pass`, given for a person without asking."""
    from .actions import PASS
    from .effects import has_playable
    from .seats import army_of
    from .state import Phase

    if state.phase != Phase.WINDOW:
        return None
    seat = state.seat
    playable = has_playable(rules.t, state, seat, army_of(state, seat))
    return ConcealedDecision("Saint-Lo 9", None if playable else PASS)


HIDDEN = _hidden()
"""What no seat's observation carries: which cards are left in each deck (a seat sees only their number).
The other seats' hands and the enemy's face-down deployment are hidden too, per seat (position.py: a
partner's or the enemy's hand is its size), and `determinize` draws them all again."""

SPEC: GameSpec[SaintLoState] = GameSpec(
    id="saintlo",
    keywords=(
        "Saint-Lo",
        "Saint-Lô",
        "St-Lo",
    ),  # its title's place, however spelled: no code outside warroom/games/ may name it
    ruleset=SaintLoRules,  # mypy holds it to the kernel's contract with the game's own state (Ruleset[SaintLoState])
    odds=lazy(".calculator:SaintLoOdds", __package__),
    encoding=_encoding,
    agents=lazy(".ai:agent_hooks", __package__),
    terminal=lazy(".render:terminal_view", __package__),
    board=web_board(__package__),
    help=HELP,
    option_specs=_option_specs,
    terms=_terms,
    bench_targets={"random_steps": 3_000, "mcts_sims": 20},
    invariants=_invariants,
    hidden=HIDDEN,
    determinize=_determinize,
    seen_hidden=lazy(".position:seen_hidden", __package__),
    final_decision=_final_decision,
    public_reason=lazy(".reasons:public_reason", __package__),
    entry_outcomes=_entry_outcomes,
    concealed_decision=_concealed_decision,
    seat_variants={2: "saintlo", 4: "saintlo-teams"},
)
TEAM_SPEC: GameSpec[SaintLoState] = replace(SPEC, id="saintlo-teams", ruleset=SaintLoTeamRules)
"""Rule 10's four seats: every capability of the two-player game, the team ruleset."""
