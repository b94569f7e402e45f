"""PettingZoo AEC environments: every game with two or more sides, through its spec.

    from warroom.envs import pettingzoo_env
    env = pettingzoo_env(game, scenario=None)  # any registered game of two or more sides
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)

The agents are the game's sides. A side may act several times in a row (a movement phase); AEC's
`agent_selection` follows whoever the rules say acts. Each observation is {"observation": the side's
encoded view, "action_mask": which action indices are legal}; `info["legal_actions"]` holds the
legal actions' text ids (in index order) and `info["side"]` the side. Rewards come at the end:
each side's return (+1 a win, -1 a loss, 0 a draw; a team game credits partners alike).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .core import GameDriver
from .seat import seat_observation, seat_space


class WarroomAEC(AECEnv):  # type: ignore[misc]
    """A warroom game as a PettingZoo agent-environment-cycle environment."""

    metadata = {"render_modes": ["ansi"], "name": "warroom", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        scenario: str | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.driver = GameDriver(game, scenario, options)
        if len(self.driver.sides) < 2:
            raise ValueError(f"{game} is a solitaire game: use its Gymnasium environment (warroom.envs.gym_env)")
        self.metadata = {**self.metadata, "name": f"warroom_{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self.driver.sides)
        self.observation_spaces = {side: seat_space(self.driver) for side in self.possible_agents}
        self.action_spaces = {side: spaces.Discrete(self.driver.max_actions) for side in self.possible_agents}
        self._seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return seat_observation(self.driver, agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = self._seed + 1 if self._seed is not None else secrets.randbelow(2**31)
        self._seed = seed
        self.driver.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {side: {} for side in self.agents}
        self._select()

    def _select(self) -> None:
        """Point agent_selection at the side the rules say acts, and fill every side's info."""
        side = self.driver.to_act()
        legal = self.driver.legal()
        for agent in self.agents:
            self.infos[agent] = {"side": agent, "legal_actions": legal if agent == side else []}
        if side is None:
            returns = self.driver.returns()
            for agent in self.agents:
                self.rewards[agent] = returns[agent]
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = side

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for an agent whose game is over")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.driver.step(int(action))
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        m = self.driver.current
        turn, phase = m.ruleset.turn_and_phase(m.state)
        return f"{self.driver.game} turn {turn}, {phase}: {m.to_act or 'game over'} to act"

    def close(self) -> None:
        pass


def pettingzoo_env(
    game: str, scenario: str | None = None, options: Mapping[str, Any] | None = None, render_mode: str | None = None
) -> WarroomAEC:
    """The AEC environment of `game` (any game with two or more sides and an observation encoding)."""
    return WarroomAEC(game, scenario, options, render_mode)
