"""Three-card bluff (Kuhn poker): the smallest game with a chance node, two sides and hidden cards.

Rules (test game; cited as "Bluff: ..."): Deal — three cards (Jack < Queen < King) are shuffled (one d6
picks one of the six orders); North takes the top card, South the next, the third stays face down and
is never seen. Betting — each has put one chip in; North checks or bets one chip; after a bet the
other calls or folds; after North's check South checks or bets, and after that bet North calls or
folds. End — a fold loses the chips in the pot; otherwise the cards are shown and the higher wins.

Each side sees its own card only, the third card nobody, and both cards once shown: the shuffled
`deck` is hidden, and `determinize` deals again what a side cannot see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from warroom.engine.errors import IllegalActionError, PositionError
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result

NORTH, SOUTH = "North", "South"
SIDES = (NORTH, SOUTH)
CARDS = ("Jack", "Queen", "King")
ORDERS = tuple(permutations(range(3)))
"""The six orders of the shuffled deck, one for each face of the d6 (face k: ORDERS[k - 1])."""
D6 = tuple((face, 1 / 6) for face in range(1, 7))
ENDINGS = {("bet", "call"), ("bet", "fold"), ("check", "check"), ("check", "bet", "call"), ("check", "bet", "fold")}


@dataclass(slots=True)
class BluffState:
    deck: list[int] = field(default_factory=list)
    """The shuffled deck, top first: North's card, South's, the one never drawn ([] before the deal)."""
    history: list[str] = field(default_factory=list)


class Bluff:
    """The ruleset (warroom.engine.ruleset.Ruleset)."""

    info = GameInfo(id="bluff", title="Three-card bluff (test game)", scenarios=("standard",), sides=SIDES)

    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> BluffState:
        return BluffState()

    def to_act(self, s: BluffState) -> str | None:
        if not s.deck:
            return CHANCE
        if tuple(s.history) in ENDINGS:
            return None
        return SIDES[len(s.history) % 2]

    def legal_actions(self, s: BluffState) -> list[str]:
        if self.to_act(s) in (None, CHANCE):
            return []
        return ["call", "fold"] if s.history and s.history[-1] == "bet" else ["check", "bet"]

    def chance_outcomes(self, s: BluffState) -> tuple[tuple[int, float], ...]:
        return D6

    def die_sides(self, s: BluffState) -> int:
        return 6

    def apply(self, s: BluffState, action: str, log: bool = True) -> list[Event]:
        legal = self.legal_actions(s)
        if action not in legal:
            raise IllegalActionError(f"{action!r} is not legal now; legal: {', '.join(legal) or 'nothing'}")
        side = SIDES[len(s.history) % 2]
        s.history.append(action)
        events: list[Event] = [{"type": action, "text": f"{side} {action}s.", "rule": "Bluff: Betting"}] if log else []
        if log and tuple(s.history) in ENDINGS and action != "fold":
            shown = ", ".join(f"{who} shows the {CARDS[s.deck[k]]}" for k, who in enumerate(SIDES))
            events.append({"type": "showdown", "text": f"{shown}.", "rule": "Bluff: End"})
        return events

    def apply_chance(self, s: BluffState, outcome: int, log: bool = True) -> list[Event]:
        if s.deck or not 1 <= outcome <= 6:
            raise IllegalActionError(f"no shuffle is pending that a {outcome} could decide")
        s.deck = list(ORDERS[outcome - 1])
        if not log:
            return []
        events: list[Event] = [{"type": "deal", "text": "The cards are shuffled and dealt.", "rule": "Bluff: Deal"}]
        for k, side in enumerate(SIDES):
            events.append(
                {
                    "type": "card",
                    "text": f"{side} draws the {CARDS[s.deck[k]]}.",
                    "rule": "Bluff: Deal",
                    "visible_to": [side],
                }
            )
        return events

    def observation(self, s: BluffState, side: str | None) -> dict[str, Any]:
        """Own card, the betting, and both cards once shown; the omniscient observer (None) sees the deck."""
        if side is None:
            return self.state_to_json(s)
        seen = {k for k, who in enumerate(SIDES) if who == side and s.deck}
        if tuple(s.history) in ENDINGS and s.history[-1] != "fold":
            seen = {0, 1}
        return {
            "cards": {SIDES[k]: CARDS[s.deck[k]] for k in sorted(seen)},
            "history": list(s.history),
            "pot": pot(s),
            "viewer": side,
        }

    def result(self, s: BluffState) -> Result | None:
        if self.to_act(s) is not None:
            return None
        if s.history[-1] == "fold":
            winner, reason = SIDES[len(s.history) % 2], "the other side folded"
        else:
            winner, reason = SIDES[0] if s.deck[0] > s.deck[1] else SIDES[1], "the higher card"
        loser = SIDES[1 - SIDES.index(winner)]
        won = 1 + sum(1 for k, action in enumerate(s.history) if SIDES[k % 2] == loser and action in ("bet", "call"))
        returns = {side: (1.0 if side == winner else -1.0) * won / 2 for side in SIDES}  # the loser's chips: 1 or 2
        return Result(winner, {"pot": pot(s)}, reason, "Bluff: End", returns)

    def clone(self, s: BluffState) -> BluffState:
        return BluffState(s.deck[:], s.history[:])

    def state_to_json(self, s: BluffState) -> dict[str, Any]:
        return {"deck": [CARDS[c] for c in s.deck], "history": list(s.history)}

    def state_from_json(self, data: dict[str, Any]) -> BluffState:
        try:
            state = BluffState([CARDS.index(c) for c in data["deck"]], [str(a) for a in data["history"]])
        except (KeyError, TypeError, ValueError):
            raise PositionError("a bluff position is {'deck': [three cards or none], 'history': [...]}") from None
        if sorted(state.deck) not in ([], [0, 1, 2]) or (not state.deck and state.history):
            raise PositionError("the deck holds the three cards once dealt, and nobody bets before the deal")
        return state

    def turn_and_phase(self, s: BluffState) -> tuple[int, str]:
        return 1, "deal" if not s.deck else "over" if self.to_act(s) is None else "betting"

    def describe_action(self, s: BluffState, action: str) -> str:
        return {"check": "Check", "bet": "Bet one chip", "call": "Call the bet", "fold": "Fold"}.get(action, action)


def pot(s: BluffState) -> int:
    """Chips in the pot: the two antes and every bet or call."""
    return 2 + sum(1 for action in s.history if action in ("bet", "call"))


def determinize(s: BluffState, side: str, rng: random.Random) -> BluffState:
    """A state `side` cannot tell from `s`: the cards it has not seen dealt again at random.

    Reads only what `side` sees (its own card; both once shown), so two states with the same
    observation give the same state for the same `rng`."""
    twin = Bluff().clone(s)
    if not s.deck:
        return twin
    shown = tuple(s.history) in ENDINGS and s.history[-1] != "fold"
    keep = {0, 1} if shown else {SIDES.index(side)} if side in SIDES else {0, 1, 2}
    free = [k for k in range(3) if k not in keep]
    cards = sorted(s.deck[k] for k in free)
    rng.shuffle(cards)
    for k, card in zip(free, cards, strict=True):
        twin.deck[k] = card
    return twin


def heuristic_policy(rs: Bluff, s: BluffState) -> tuple[str, str]:
    """Bet and call with the King, check and fold with the Jack, check and call with the Queen."""
    card = s.deck[len(s.history) % 2]
    facing_bet = bool(s.history) and s.history[-1] == "bet"
    if card == 2:
        return ("call" if facing_bet else "bet"), "the King wins every showdown"
    if card == 0:
        return ("fold" if facing_bet else "check"), "the Jack loses every showdown"
    return ("call" if facing_bet else "check"), "the Queen beats a bluffing Jack"


def win_chance(card: str) -> float:
    """The chance that `card` is the higher at a showdown, knowing only one's own card."""
    if card not in CARDS:
        raise ValueError(f"card must be one of {', '.join(CARDS)}, not {card!r}")
    return CARDS.index(card) / 2
