"""A tiny two-side card game with hidden hands, registered only in the web tests.

It exists to prove the server's filtering generically: each side's hand is secret, the deck is
dealt by chance, and the deal events name the card only to its owner (`visible_to`). Card names are
unusual words, so a test can search any payload, page or frame for a leak.
"""

from __future__ import annotations

import copy
from typing import Any

from warroom.engine.errors import IllegalActionError, PositionError
from warroom.engine.ruleset import CHANCE, GameInfo, Result

NORTH, SOUTH = "North", "South"
CARDS = {1: "ONE-AARDVARK", 2: "TWO-QUOKKA", 3: "THREE-NARWHAL", 4: "FOUR-AXOLOTL", 5: "FIVE-PANGOLIN", 6: "SIX-OKAPI"}
HAND = 2


class SecretCards:
    info = GameInfo(id="secretcards", title="Secret Cards (test game)", scenarios=("standard",), sides=(NORTH, SOUTH))

    def initial_state(self, scenario: str | None, options: dict[str, Any]) -> dict[str, Any]:
        return {
            "deck": sorted(CARDS),
            "hands": {NORTH: [], SOUTH: []},
            "table": {},
            "score": {NORTH: 0, SOUTH: 0},
            "round": 1,
            "dealt": 0,
            "turn": NORTH,
        }

    def to_act(self, s: dict[str, Any]) -> str | None:
        if s["dealt"] < 2 * HAND:
            return CHANCE
        if s["round"] > HAND:
            return None
        return s["turn"]

    def legal_actions(self, s: dict[str, Any]) -> list[str]:
        side = self.to_act(s)
        if side in (None, CHANCE):
            return []
        return [f"play {card}" for card in s["hands"][side]]

    def chance_outcomes(self, s: dict[str, Any]) -> list[tuple[int, float]]:
        return [(card, 1 / len(s["deck"])) for card in s["deck"]]

    def die_sides(self, s: dict[str, Any]) -> int:
        return 6

    def apply(self, s: dict[str, Any], action: str, log: bool = True) -> list[dict[str, Any]]:
        if action not in self.legal_actions(s):
            raise IllegalActionError(f"{action!r} is not legal: {s['turn']} holds other cards")
        side = s["turn"]
        card = int(action.split()[1])
        s["hands"][side].remove(card)
        s["table"][side] = card
        events = [{"type": "play", "text": f"{side} plays {CARDS[card]}.", "rule": "Secret Cards: Play"}]
        if len(s["table"]) == 2:
            winner = max(s["table"], key=lambda k: s["table"][k])
            s["score"][winner] += 1
            events.append(
                {"type": "trick", "text": f"{winner} wins round {s['round']}.", "rule": "Secret Cards: Rounds"}
            )
            s["table"] = {}
            s["round"] += 1
            s["turn"] = NORTH
        else:
            s["turn"] = SOUTH if side == NORTH else NORTH
        return events

    def apply_chance(self, s: dict[str, Any], outcome: int, log: bool = True) -> list[dict[str, Any]]:
        side = NORTH if s["dealt"] % 2 == 0 else SOUTH
        s["deck"].remove(outcome)
        s["hands"][side].append(outcome)
        s["dealt"] += 1
        return [
            {
                "type": "deal",
                "text": f"{side} draws {CARDS[outcome]}.",
                "rule": "Secret Cards: Deal",
                "visible_to": [side],
            },
            {
                "type": "deal",
                "text": f"{side} draws a card.",
                "rule": "Secret Cards: Deal",
                "visible_to": [s for s in self.info.sides if s != side],
            },
        ]

    def observation(self, s: dict[str, Any], side: str | None) -> dict[str, Any]:
        if side is None:
            return self.state_to_json(s)
        other = SOUTH if side == NORTH else NORTH
        return {
            "hand": [CARDS[c] for c in s["hands"][side]],
            "opponent_cards": len(s["hands"][other]),
            "table": {k: CARDS[v] for k, v in s["table"].items()},
            "score": dict(s["score"]),
            "round": s["round"],
        }

    def result(self, s: dict[str, Any]) -> Result | None:
        if self.to_act(s) is not None:
            return None
        north, south = s["score"][NORTH], s["score"][SOUTH]
        winner = NORTH if north > south else SOUTH if south > north else None
        return Result(winner, dict(s["score"]), "more rounds won" if winner else "rounds shared", "Secret Cards: End")

    def clone(self, s: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(s)

    def state_to_json(self, s: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(s)

    def state_from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(data, dict) or "hands" not in data:
            raise PositionError("not a Secret Cards position")
        return copy.deepcopy(data)

    def turn_and_phase(self, s: dict[str, Any]) -> tuple[int, str]:
        return s["round"], "deal" if s["dealt"] < 2 * HAND else "play"

    def describe_action(self, s: dict[str, Any], action: str) -> str:
        return f"Play {CARDS[int(action.split()[1])]}"


class FirstCardAgent:
    """A computer player for the tests: plays the lowest legal card, and says why."""

    def __init__(self, name: str, game: str, budget_ms: int, seed: int | None) -> None:
        self.name = name

    def choose(self, match: Any) -> tuple[str, str]:
        legal = sorted(match.legal_actions())
        return legal[0], "the lowest card"
