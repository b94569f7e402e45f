"""The random agent: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random
from typing import Any

from . import decision_state


class RandomAgent:
    """Uniform over the legal actions; the floor every other agent must clear."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, match: Any) -> tuple[str, str]:
        state = decision_state(match)
        legal = match.ruleset.legal_actions(state)
        action = legal[int(self._rng.random() * len(legal))]
        return action, f"Random: one of {len(legal)} legal actions, picked uniformly."
