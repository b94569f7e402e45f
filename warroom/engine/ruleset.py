"""The Ruleset contract: what a game must provide so every front end can drive it.

A ruleset is pure rules: no I/O and no randomness of its own. Dice are chance nodes whose
exact outcomes the ruleset lists; the `Match` decides how they are rolled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

CHANCE = "chance"
"""`to_act` answers this when the next step is a die roll, not a decision."""

DICE_SIDE = "dice"
"""The side that types in die results when a match uses manual dice (table assistant)."""

S = TypeVar("S")
"""A game's state type: `Ruleset[TunisiaState]` is a ruleset whose states are a TunisiaState. Generic code that
serves every game holds a `Ruleset[Any]`; a game's spec checks (under TYPE_CHECKING) that its rules meet
`Ruleset[ItsState]`, so mypy holds each game's methods to the contract with its own state type."""

Event = dict[str, Any]
"""An event: `type`, a human `text`, and `rule` (the rulebook section) where one applies."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is: its id, title, scenarios and sides, and which sides play as a team.

    `teams` groups the sides: (team name, its sides) pairs, every side in exactly one team. Empty
    (the default) means each side is its own team, named after the side: a two-player game is two
    teams of one, a solitaire game one. A four-seat game of two against two (a team variant)
    names two teams of two, so a result and a search credit a side with its partner's win."""

    id: str
    title: str
    scenarios: tuple[str, ...]
    sides: tuple[str, ...]
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.teams:
            grouped = sorted(side for _, members in self.teams for side in members)
            if grouped != sorted(self.sides) or len({name for name, _ in self.teams}) != len(self.teams):
                raise ValueError(f"{self.id}: teams {self.teams!r} must name each side of {self.sides!r} exactly once")

    def team_list(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The teams: those declared, else each side its own team, named after it."""
        return self.teams or tuple((side, (side,)) for side in self.sides)

    def team_of(self, side: str) -> str:
        """The name of the team `side` plays in (the side itself where no teams are declared)."""
        for name, members in self.team_list():
            if side in members:
                return name
        raise KeyError(side)


def win_returns(info: GameInfo, winner: str | None) -> dict[str, float]:
    """Each side's return when `winner` wins: +1 for every side of the winning team, -1 for every
    other side, 0 for all in a draw (`winner` None).

    `winner` is a side or a team name. A winner that is neither is an opponent without a seat, such
    as a solitaire game's bot (a rules-driven opponent): every seated side then loses, -1. This is the
    return of a game scored by win, draw or loss; a game that scores by margin fills `returns`
    itself."""
    if winner is None:
        return dict.fromkeys(info.sides, 0.0)
    for name, members in info.team_list():
        if winner == name or winner in members:
            return {side: 1.0 if side in members else -1.0 for side in info.sides}
    return dict.fromkeys(info.sides, -1.0)


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: winner (a side or a team, or None for a draw), score, why, and
    each side's return.

    `returns` maps every side to its payoff in [-1, 1] (+1 the best there is): what search backs up
    and what studies count, so a game with teams or with more than two sides has a result that
    says how it went for each seat. Games fill it (usually with `win_returns(info, winner)`);
    `from_json` derives it for a result saved before it existed."""

    winner: str | None
    score: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    rule: str = ""
    returns: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "score": self.score,
            "reason": self.reason,
            "rule": self.rule,
            "returns": dict(self.returns),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], info: GameInfo | None = None) -> Result:
        """A result from `to_json` output. One saved without `returns` gets them from its winner
        (`win_returns`) where the game's `info` is given, else none."""
        returns = data.get("returns")
        if returns is None:
            returns = win_returns(info, data.get("winner")) if info is not None else {}
        return cls(
            data.get("winner"),
            dict(data.get("score") or {}),
            str(data.get("reason", "")),
            str(data.get("rule", "")),
            {side: float(value) for side, value in returns.items()},
        )


@runtime_checkable
class Ruleset(Protocol[S]):
    """Every game implements this; the engine and front ends never name a game.

    Whatever else a game offers (an event filter beyond `visible_to`, odds, agents) is a capability
    of its spec (warroom.engine.spec.GameSpec), declared there, never a method looked for here.
    """

    @property
    def info(self) -> GameInfo:
        """The game's id, title, scenarios and sides: a class attribute of the ruleset (a `ClassVar` where
        the class is compiled by mypyc, which would otherwise make it an instance's)."""
        ...

    def initial_state(self, scenario: str | None, options: dict[str, Any]) -> S: ...

    def to_act(self, state: S) -> str | None:
        """A side, CHANCE, or None when the game is over."""

    def legal_actions(self, state: S) -> list[str]:
        """Every legal action id for the side to act, nothing else, as a fresh list the caller may keep or
        change (`Match.legal_actions` hands it on without another copy)."""

    def chance_outcomes(self, state: S) -> Sequence[tuple[int, float]]:
        """Exact (outcome, probability) pairs when `to_act` is CHANCE; callers only read them.

        Return one shared tuple for a die that is always the same (a d6): the dice source then
        checks once, not at every roll, that its faces are equally likely."""

    def die_sides(self, state: S) -> int:
        """Faces of the die rolled at this chance node (6 or 12); used by manual dice."""

    def apply(self, state: S, action: str, log: bool = True) -> list[Event]:
        """Apply a legal action id in place; raise IllegalActionError (state unchanged) if not."""

    def apply_chance(self, state: S, outcome: int, log: bool = True) -> list[Event]:
        """Apply a chance outcome in place."""

    def observation(self, state: S, side: str | None) -> dict[str, Any]:
        """What `side` may see (None: an omniscient observer); JSON-ready."""

    def result(self, state: S) -> Result | None:
        """None while the game goes on; at the end, a Result whose `returns` name every side."""

    def clone(self, state: S) -> S: ...

    def state_to_json(self, state: S) -> dict[str, Any]: ...

    def state_from_json(self, data: dict[str, Any]) -> S:
        """Rebuild a state from `state_to_json` output; PositionError if it is not valid."""

    def turn_and_phase(self, state: S) -> tuple[Any, str]: ...

    def describe_action(self, state: S, action: str) -> str:
        """A plain-language label for a legal action id, for menus."""
