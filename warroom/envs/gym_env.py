"""Gymnasium environments: a solitaire game as it is, a game of several sides as one seat against
computer players (warroom.ai: "random", "heuristic", "mcts").

    import gymnasium as gym, warroom.envs
    env = gym.make(gym_id(game), side=None, opponent="heuristic")  # warroom/<Game>-v0; side None: the first
    obs, info = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))

The observation is {"observation": the seat's encoded view, "action_mask": legal action indices};
`info["legal_actions"]` holds the text ids in index order. The reward is the seat's return when the
game ends (+1 a win, -1 a loss, 0 a draw), 0 before. The opponents' moves and the dice happen
inside `step`, seeded from `reset(seed=...)`, so the same seed and actions replay the same game.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .core import ActionIndexError, GameDriver
from .seat import seat_observation, seat_space


class WarroomEnv(gym.Env):
    """One seat of a warroom game; the other seats are computer players."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        scenario: str | None = None,
        options: Mapping[str, Any] | None = None,
        side: str | None = None,
        opponent: str = "heuristic",
        opponent_budget_ms: int = 100,
        illegal_reward: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        self.driver = GameDriver(game, scenario, options)
        self.side = side if side is not None else self.driver.sides[0]
        if self.side not in self.driver.sides:
            raise ValueError(f"{game} has no side {self.side!r}; sides: {', '.join(self.driver.sides)}")
        self.opponent = opponent
        self.opponent_budget_ms = opponent_budget_ms
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = seat_space(self.driver)
        self.action_space = spaces.Discrete(self.driver.max_actions)
        self._opponents: dict[str, Any] = {}

    def _observation(self) -> dict[str, np.ndarray]:
        return seat_observation(self.driver, self.side)

    def _info(self) -> dict[str, Any]:
        return {"side": self.side, "legal_actions": self.driver.legal() if self.driver.to_act() == self.side else []}

    def _play_others(self) -> None:
        """The computer seats move until it is this seat's turn or the game is over."""
        while (side := self.driver.to_act()) is not None and side != self.side:
            agent = self._opponents[side]
            action, _why = agent.choose(self.driver.current)
            self.driver.current.play(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = (
            seed
            if seed is not None
            else int(self.np_random.integers(2**31))
            if self.np_random is not None
            else secrets.randbelow(2**31)
        )
        self.driver.reset(game_seed)
        from warroom.ai import agent_seed, get_agent

        self._opponents = {
            side: get_agent(self.opponent, self.driver.game, self.opponent_budget_ms, agent_seed(game_seed, side))
            for side in self.driver.sides
            if side != self.side
        }
        self._play_others()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the legal action at index `action`. An index the mask rules out changes nothing: the
        reward is `illegal_reward` and `info["error"]` says why (the learner sees its mistake; the game
        is untouched, as for any illegal action in warroom)."""
        try:
            self.driver.step(int(action))
        except ActionIndexError as exc:
            return self._observation(), self.illegal_reward, False, False, {**self._info(), "error": str(exc)}
        self._play_others()
        over = self.driver.to_act() is None
        reward = self.driver.returns()[self.side] if over else 0.0
        return self._observation(), float(reward), over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        m = self.driver.current
        turn, phase = m.ruleset.turn_and_phase(m.state)
        return f"{self.driver.game} turn {turn}, {phase}: {m.to_act or 'game over'} to act"


def gym_env(game: str, **kwargs: Any) -> WarroomEnv:
    """The Gymnasium environment of `game` (see WarroomEnv for the keyword arguments)."""
    return WarroomEnv(game, **kwargs)


def gym_id(game: str) -> str:
    """The id `import warroom.envs` registers for a game: warroom/<Game>-v0."""
    return f"warroom/{game.capitalize()}-v0"


def register_all() -> list[str]:
    """Register every game that has an observation encoding with Gymnasium; the ids registered."""
    from warroom.games import game_ids, get_spec

    ids = []
    for game in game_ids():
        if get_spec(game).encoding is None:
            continue
        env_id = gym_id(game)
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="warroom.envs.gym_env:WarroomEnv", kwargs={"game": game})
        ids.append(env_id)
    return ids
