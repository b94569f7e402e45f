"""Research environments for every game with an observation encoding (an optional extra:
pip install 'warroom[research]').

- `pettingzoo_env(game, scenario=None, options=None)`: a PettingZoo AEC environment (two or more sides);
- `gym_env(game, ...)` and the ids `warroom/<Game>-v0` registered with Gymnasium on import;
- `warroom.openspiel`: every game as an OpenSpiel Python game, `python_warroom_<game>`.

They ask only the game's spec (warroom.engine.spec.GameSpec.encoding); see docs/research.md.
"""

from __future__ import annotations

from .core import ActionIndexError, GameDriver, NoEnvironmentError
from .gym_env import WarroomEnv, gym_env, gym_id, register_all
from .pettingzoo_env import WarroomAEC, pettingzoo_env

GYM_IDS = register_all()
"""The Gymnasium ids registered on import."""

__all__ = [
    "GYM_IDS",
    "ActionIndexError",
    "GameDriver",
    "NoEnvironmentError",
    "WarroomAEC",
    "WarroomEnv",
    "gym_env",
    "gym_id",
    "pettingzoo_env",
]
