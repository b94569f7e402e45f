"""Three-card bluff's game contract: the ruleset and every capability it can have in a few lines.

Registered only by the tests: `register_game("bluff", "games.bluff.spec:SPEC")`, or for a subprocess
WARROOM_GAMES="bluff=games.bluff.spec:SPEC" with tests/ on PYTHONPATH.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.fields import reject_unknown
from warroom.engine.spec import (
    AgentHooks,
    GameSpec,
    HelpSection,
    OddsCapability,
    OddsField,
    ScenarioTerms,
    TerminalView,
)
from warroom.engine.vector import Vector

from . import rules

HELP = (
    "Each side holds one card of three (Jack < Queen < King) and has put one chip in. North checks or bets a "
    "chip; a bet is called or folded; after a check South may bet. The higher card wins the pot at a showdown."
)


class BluffOdds:
    """The chance of holding the higher card, knowing one's own card only (no die is rolled after the deal)."""

    fields: tuple[OddsField, ...] = (OddsField("card", "string", "your card: Jack, Queen or King", required=True),)
    answer = '{"ok":true,"card","p","text"}'
    position_answer = '{"ok":true,"battles":[]}'

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        reject_unknown(request, ["card"], "bluff odds")  # a typo is an error, as in every game's odds
        card = request.get("card")
        try:
            p = rules.win_chance(str(card))
        except ValueError as exc:
            raise WarroomError(f'field "card": {exc}') from None
        return {"card": card, "p": p, "text": f"the {card} is the higher card {p:.0%} of the time"}

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any]:
        return {"card": values.get("card", "").strip().capitalize()}

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        return [str(answer["text"])]

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        return {"battles": []}  # nothing is decided by a die after the deal

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        return None

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        return []


def _odds() -> OddsCapability:
    return BluffOdds()


def _agents() -> AgentHooks[rules.BluffState]:
    return AgentHooks(heuristic_policy=rules.heuristic_policy)


def _terminal() -> TerminalView:
    from rich.text import Text

    def render_board(match: Any) -> Text:
        side = match.to_act if match.to_act in rules.SIDES else None
        seen: dict[str, Any] = (
            match.ruleset.observation(match.state, side) if side else {"cards": {}, "history": [], "pot": 2}
        )
        cards = ", ".join(f"{who}: {card}" for who, card in seen["cards"].items()) or "none shown"
        return Text(f"Bluff · pot {seen['pot']} · cards {cards} · bets: {' '.join(seen['history']) or 'none yet'}")

    return TerminalView(render_board=render_board, help_text=HELP)


def _invariants(ruleset: Any, state: rules.BluffState, previous: rules.BluffState | None) -> list[str]:
    problems = []
    if sorted(state.deck) not in ([], [0, 1, 2]):
        problems.append(f"the deck {state.deck} is not the three cards")
    if len(state.history) > 3:
        problems.append(f"more than three bets: {state.history}")
    if previous is not None and state.history[: len(previous.history)] != previous.history:
        problems.append(f"the betting {previous.history} was rewritten as {state.history}")
    return problems


class BluffEncoding:
    """Bluff's observation as numbers for the research environments: whose view, each side's card if
    seen (one-hot), the betting so far (one-hot per round), the pot."""

    max_actions = 2
    max_chance_outcomes = 7  # a d6 picks the deal

    def size(self, scenario: str | None) -> int:
        return len(self.encode({}, None, scenario))

    def encode(self, observation: Mapping[str, Any], side: str | None, scenario: str | None) -> list[float]:
        v = Vector().one_hot(side, rules.SIDES)
        cards = observation.get("cards") or {}
        for seat in rules.SIDES:
            v.one_hot(cards.get(seat), rules.CARDS)
        history = list(observation.get("history") or ())
        for k in range(3):
            v.one_hot(history[k] if k < len(history) else None, ("check", "bet", "call", "fold"))
        return v.number(observation.get("pot"), 4).values


SPEC: GameSpec[rules.BluffState] = GameSpec(
    id="bluff",
    keywords=("Kuhn",),  # the poker it is: no code outside warroom/games/ may name it
    ruleset=rules.Bluff,
    odds=_odds,
    agents=_agents,
    terminal=_terminal,
    help=(HelpSection("How to play", HELP, "Bluff: Betting"),),
    terms=lambda scenario: ScenarioTerms(draws=False),
    bench_targets={"random_steps": 1000.0, "mcts_sims": 100.0},
    invariants=_invariants,
    hidden=("deck",),
    determinize=rules.determinize,
    encoding=BluffEncoding,
)
