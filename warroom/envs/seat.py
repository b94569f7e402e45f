"""One seat's space and observation, as both Gymnasium and PettingZoo give them: {"observation": the side's
encoded view, "action_mask": the legal action indices (all zero when the side is not the one to act)}. Kept
apart from core.py, which the OpenSpiel wrapper uses without gymnasium or numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from .core import OBSERVATION_HIGH, GameDriver


def seat_space(driver: GameDriver) -> spaces.Dict:
    """The observation space of every seat of `driver`'s game: the encoded view and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=-1.0, high=OBSERVATION_HIGH, shape=(driver.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(driver.max_actions,), dtype=np.int8),
        }
    )


def seat_observation(driver: GameDriver, side: str) -> dict[str, np.ndarray[Any, Any]]:
    """What `side` sees now, in `seat_space`'s shape; a side not to act may choose nothing (its mask is zero)."""
    mask = driver.mask() if driver.to_act() == side else [0] * driver.max_actions
    return {
        "observation": np.asarray(driver.observe(side), dtype=np.float32),
        "action_mask": np.asarray(mask, dtype=np.int8),
    }


__all__ = ["seat_observation", "seat_space"]
