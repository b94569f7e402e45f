"""warroom.ai.playouts: the loop every game's leaf playout is made of (a policy for every side, chance sampled)."""

from __future__ import annotations

import random
from typing import Any

from warroom.ai.playouts import play_turns, play_while
from warroom.engine.ruleset import CHANCE


class Steps:
    """A toy game: three decisions a turn, a die after each, over when `end` steps are played."""

    def __init__(self, end: int = 1_000) -> None:
        self.end = end

    def to_act(self, s: dict[str, Any]) -> str | None:
        if s["steps"] >= self.end:
            return None
        return CHANCE if s["die"] is None else "A"

    def chance_outcomes(self, s: dict[str, Any]) -> list[tuple[int, float]]:
        return [(face, 1 / 6) for face in range(1, 7)]

    def apply_chance(self, s: dict[str, Any], outcome: int, log: bool) -> list[Any]:
        s["die"] = outcome
        s["rolled"].append(outcome)
        return []

    def apply(self, s: dict[str, Any], action: str, log: bool) -> list[Any]:
        assert action == "step"
        s["steps"] += 1
        s["turn"] = s["steps"] // 3
        s["die"] = None
        return []


def _policy(rules: Any, s: Any) -> tuple[str, str]:
    return "step", "the only move"


def _state() -> dict[str, Any]:
    return {"steps": 1, "turn": 0, "die": 0, "rolled": []}  # a turn under way, no die pending


def test_play_turns_stops_when_the_turn_after_next_begins() -> None:
    s = _state()
    play_turns(Steps(), s, random.Random(1), _policy, lambda st: st["turn"], turns=2, steps_per_turn=50)  # type: ignore[arg-type]
    assert s["turn"] == 2 and s["steps"] == 6  # turn 0's rest and turn 1, then stopped at turn 2's start
    # a die after each step but the last, whose die belongs to the turn not played
    assert len(s["rolled"]) == 4 and all(1 <= face <= 6 for face in s["rolled"])


def test_play_turns_ends_with_the_game_and_within_its_bound() -> None:
    s = _state()
    play_turns(Steps(end=4), s, random.Random(1), _policy, lambda st: st["turn"], turns=5, steps_per_turn=50)  # type: ignore[arg-type]
    assert s["steps"] == 4  # the game ended first
    s = _state()
    play_turns(Steps(), s, random.Random(1), _policy, lambda st: st["turn"], turns=3, steps_per_turn=1)  # type: ignore[arg-type]
    assert s["steps"] == 3  # 3 steps in all, chance included: a decision, a die, a decision


def test_play_while_stops_as_soon_as_its_condition_fails() -> None:
    s = _state()
    play_while(Steps(), s, random.Random(1), _policy, lambda st: st["steps"] < 3, steps=100)  # type: ignore[arg-type]
    assert s["steps"] == 3 and s["die"] is None  # stopped before the die of the step that ended it
