"""Every warroom game as an OpenSpiel Python game, so OpenSpiel's algorithms run on it unchanged.

    import pyspiel, warroom.openspiel
    game = pyspiel.load_game(game_name(game), {"scenario": scenario})  # python_warroom_<game>
    state = game.new_initial_state()

`import warroom.openspiel` registers `python_warroom_<game>` for each game whose spec declares an
observation encoding (warroom.engine.spec.ObservationEncoding). The scenario and the rules options
(a JSON object, `options`) are game parameters; an option not given takes the value studies use
(`study_options`: a game with no turn limit in its rules gets its spec's, so every game ends). Dice and
card draws are explicit chance nodes with the rules' exact probabilities, numbered by their place in
the rules' list of outcomes. A player's action is the index of a legal action (the rules list them in
one order for a position); `action_to_string` gives its text id. Observation and
information-state strings are the side's observation (JSON; what the rules hide is not in it) and
the tensors its encoded vector. Returns are the game's per-side returns (warroom Result.returns).

For information-set search (OpenSpiel's IS-MCTS), `resample_from_infostate` draws a state that the
acting side cannot tell from the real one, through the game's `determinize` where it hides anything.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from warroom.analysis.simulate import study_options
from warroom.engine.ruleset import CHANCE
from warroom.envs.core import game_spec

MAX_GAME_LENGTH = 100_000
"""A bound on decisions and chance events in one game (random games of the longest campaign take a few thousand)."""


def game_name(game: str) -> str:
    return f"python_warroom_{game}"


def _game_type(game: str) -> tuple[pyspiel.GameType, pyspiel.GameInfo]:
    spec, encoding = game_spec(game)
    ruleset = spec.ruleset()
    info = ruleset.info
    players = len(info.sides)
    two_sided = players == 2
    game_type = pyspiel.GameType(
        short_name=game_name(game),
        long_name=f"warroom: {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if spec.hidden
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_sided else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"scenario": info.scenarios[0], "options": "{}"},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=encoding.max_actions,
        max_chance_outcomes=encoding.max_chance_outcomes,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if two_sided else None,
        max_game_length=MAX_GAME_LENGTH,
    )
    return game_type, game_info


class WarroomGame(pyspiel.Game):  # type: ignore[misc]
    """One warroom game for OpenSpiel; `game_id` is the registry's id."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type, game_info = _game_type(self.game_id)
        super().__init__(game_type, game_info, params or {})
        params = self.get_parameters()
        self.spec, self.encoding = game_spec(self.game_id)
        self.ruleset = self.spec.ruleset()
        self.scenario = str(params.get("scenario") or self.ruleset.info.scenarios[0])
        # the options studies play: a rule with no turn limit gets its spec's simulation value unless given
        self.options: dict[str, Any] = study_options(
            self.game_id, self.scenario, json.loads(str(params.get("options") or "{}"))
        )
        self.sides = self.ruleset.info.sides
        self.size = self.encoding.size(self.scenario)

    def new_initial_state(self) -> WarroomState:
        return WarroomState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> WarroomObserver:
        return WarroomObserver(self)


class WarroomState(pyspiel.State):  # type: ignore[misc]
    """A position: the ruleset's state, acted on by index."""

    def __init__(self, game: WarroomGame, state: Any = None) -> None:
        super().__init__(game)
        # Only the position is kept here: OpenSpiel copies a Python state by deep-copying its
        # attributes, so the game and the ruleset are reached through get_game() instead.
        self.state = state if state is not None else game.ruleset.initial_state(game.scenario, dict(game.options))

    @property
    def wgame(self) -> WarroomGame:
        game: WarroomGame = self.get_game()
        return game

    @property
    def rs(self) -> Any:
        return self.wgame.ruleset

    # -- whose turn, and what may be done ------------------------------------------------------
    def current_player(self) -> int:
        side = self.rs.to_act(self.state)
        if side is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if side == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self.wgame.sides.index(side)

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.rs.legal_actions(self.state))))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome numbered by its place in the rules' list (a die face, a card, a whole throw of
        several dice: not every game's outcome is a number), with its exact probability."""
        return [(index, float(p)) for index, (_, p) in enumerate(self.rs.chance_outcomes(self.state))]

    def _outcome(self, index: int) -> Any:
        outcomes = self.rs.chance_outcomes(self.state)
        return outcomes[index][0] if 0 <= index < len(outcomes) else None

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            outcome = self._outcome(int(action))
            if outcome is None:
                raise ValueError(f"chance outcome {action} is not one of the {len(self.chance_outcomes())} here")
            self.rs.apply_chance(self.state, outcome, False)
        else:
            self.rs.apply(self.state, self.rs.legal_actions(self.state)[int(action)], False)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            outcome = self._outcome(action)
            return f"roll {outcome}" if outcome is not None else f"chance {action}"
        legal = self.rs.legal_actions(self.state)
        return legal[action] if 0 <= action < len(legal) else f"action {action}"

    # -- the end -------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.rs.to_act(self.state) is None

    def returns(self) -> list[float]:
        result = self.rs.result(self.state)
        if result is None:
            return [0.0] * len(self.wgame.sides)
        return [float(result.returns.get(side, 0.0)) for side in self.wgame.sides]

    # -- what a side sees ----------------------------------------------------------------------
    def observation_json(self, player: int) -> dict[str, Any]:
        return dict(self.rs.observation(self.state, self.wgame.sides[player]))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> WarroomState:
        """A state `player_id` cannot tell from this one: the hidden parts drawn anew (the game's
        `determinize`), the rest as it is. A game that hides nothing gives an exact copy."""
        spec = self.wgame.spec
        if spec.determinize is None or not spec.hidden:
            return self.clone()
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.randrange(2**31)
        sampled = spec.determinize(self.rs.clone(self.state), self.wgame.sides[player_id], random.Random(seed))
        return WarroomState(self.wgame, sampled)

    def clone(self) -> WarroomState:
        return WarroomState(self.wgame, self.rs.clone(self.state))

    def __deepcopy__(self, memo: dict[int, Any]) -> WarroomState:
        """OpenSpiel copies a Python state with copy.deepcopy: share the game and the ruleset (both
        immutable) and clone only the position, the ruleset's own cheap way."""
        return self.clone()

    def __str__(self) -> str:
        return json.dumps(self.rs.observation(self.state, None), sort_keys=True)


class WarroomObserver:
    """OpenSpiel's observer: a side's encoded observation as the tensor, its JSON as the string."""

    def __init__(self, game: WarroomGame) -> None:
        self.game = game
        self.tensor = np.zeros(game.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: WarroomState, player: int) -> None:
        side = self.game.sides[player]
        self.tensor[:] = self.game.encoding.encode(state.observation_json(player), side, self.game.scenario)

    def string_from(self, state: WarroomState, player: int) -> str:
        return json.dumps(state.observation_json(player), sort_keys=True)


class GameEvaluator:
    """An evaluator for OpenSpiel's MCTS bots (open_spiel.python.algorithms.mcts.Evaluator) from the
    game's own position value (AgentHooks.evaluate), where a random rollout to the end would take
    thousands of steps (a long campaign). Priors are uniform. A game without an evaluation gets
    the result of one random playout."""

    def __init__(self, game: WarroomGame, seed: int = 0) -> None:
        self.game = game
        hooks = game.spec.agents() if game.spec.agents is not None else None
        self._evaluate = hooks.evaluate if hooks is not None else None
        self._rng = random.Random(seed)

    def evaluate(self, state: WarroomState) -> np.ndarray:
        """Each player's value in [-1, 1]."""
        if state.is_terminal() or self._evaluate is None:
            state = state.clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(self._rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    state.apply_action(self._rng.choice(state.legal_actions()))
            return np.asarray(state.returns(), dtype=np.float64)
        value = self._evaluate(state.rs, state.state)
        sides = self.game.sides
        chances = value if isinstance(value, dict) else {sides[0]: float(value)}
        return np.asarray([2.0 * float(chances.get(side, 0.5)) - 1.0 for side in sides], dtype=np.float64)

    def prior(self, state: WarroomState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def register_all() -> list[str]:
    """Register every game with an observation encoding; the OpenSpiel names registered."""
    from warroom.games import game_ids, get_spec

    names = []
    registered = set(pyspiel.registered_names())
    for game in game_ids():
        if get_spec(game).encoding is None:
            continue
        name = game_name(game)
        if name not in registered:
            game_type, _info = _game_type(game)
            pyspiel.register_game(game_type, type(f"WarroomGame_{game}", (WarroomGame,), {"game_id": game}))
        names.append(name)
    return names


REGISTERED = register_all()
"""The OpenSpiel names registered on import."""
