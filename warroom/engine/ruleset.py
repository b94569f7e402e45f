"""The Ruleset contract: what a game must provide so every front end can drive it.

A ruleset is pure rules: no I/O and no randomness of its own. Dice are chance nodes whose
exact outcomes the ruleset lists; the `Match` decides how they are rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

CHANCE = "chance"
"""`to_act` answers this when the next step is a die roll, not a decision."""

DICE_SIDE = "dice"
"""The side that types in die results when a match uses manual dice (table assistant)."""

Event = dict[str, Any]
"""An event: `type`, a human `text`, and `rule` (the rulebook section) where one applies."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: winner (a side, or None for a draw), score and why."""

    winner: str | None
    score: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "score": self.score, "reason": self.reason, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str
    title: str
    scenarios: tuple[str, ...]
    sides: tuple[str, ...]


@runtime_checkable
class Ruleset(Protocol):
    """Every game implements this; the engine and front ends never name a game.

    Optional hooks, used when a ruleset has them: `observe_events(events, side)` filters events
    for a side (else each event's `visible_to`; see engine/observe.py), and `action_odds(state,
    action)` gives {"p", "fraction", "text"} for an action that involves a die (the web client).
    """

    info: GameInfo

    def initial_state(self, scenario: str | None, options: dict[str, Any]) -> Any: ...

    def to_act(self, state: Any) -> str | None:
        """A side, CHANCE, or None when the game is over."""

    def legal_actions(self, state: Any) -> list[str]:
        """Every legal action id for the side to act, nothing else."""

    def chance_outcomes(self, state: Any) -> Sequence[tuple[int, float]]:
        """Exact (outcome, probability) pairs when `to_act` is CHANCE; callers only read them.

        Return one shared tuple for a die that is always the same (a d6): the dice source then
        checks once, not at every roll, that its faces are equally likely."""

    def die_sides(self, state: Any) -> int:
        """Faces of the die rolled at this chance node (6 or 12); used by manual dice."""

    def apply(self, state: Any, action: str, log: bool = True) -> list[Event]:
        """Apply a legal action id in place; raise IllegalActionError (state unchanged) if not."""

    def apply_chance(self, state: Any, outcome: int, log: bool = True) -> list[Event]:
        """Apply a chance outcome in place."""

    def observation(self, state: Any, side: str | None) -> dict[str, Any]:
        """What `side` may see (None: an omniscient observer); JSON-ready."""

    def result(self, state: Any) -> Result | None: ...

    def clone(self, state: Any) -> Any: ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from `state_to_json` output; PositionError if it is not valid."""

    def turn_and_phase(self, state: Any) -> tuple[Any, str]: ...

    def describe_action(self, state: Any, action: str) -> str:
        """A plain-language label for a legal action id, for menus."""
