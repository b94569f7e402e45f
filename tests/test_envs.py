"""The research environments pass their libraries' own checkers, for every game with an encoding.

PettingZoo's api_test (every game of two or more sides, every scenario), Gymnasium's check_env
(every registered id), OpenSpiel's random-simulation test, and OpenSpiel's MCTS and IS-MCTS bots
playing a game of each to the end. The test game bluff (tests/games/bluff, hidden cards) is in
every list through the registry alone: no environment code names a game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

import warroom.envs as envs  # noqa: E402
import warroom.openspiel as wos  # noqa: E402
from warroom import CHANCE  # noqa: E402
from warroom.games import game_ids, get_ruleset, get_spec, registered  # noqa: E402

TEST_GAME = ("bluff", "games.bluff.spec:SPEC")
"""The hidden-information test game joins the registry for this module's tests only."""

with registered(*TEST_GAME):
    GAMES = [g for g in game_ids() if get_spec(g).encoding is not None]
    SCENARIOS = [(g, s) for g in GAMES for s in get_ruleset(g).info.scenarios]
    MULTI = [(g, s) for g, s in SCENARIOS if len(get_ruleset(g).info.sides) > 1]
    HIDING = [g for g in GAMES if get_spec(g).hidden]
    envs.register_all()  # Gymnasium's and OpenSpiel's registries keep the ids; they find the game by id when made
    wos.register_all()


@pytest.fixture(autouse=True, scope="module")
def _test_game() -> Any:
    with registered(*TEST_GAME):
        yield


def test_every_game_has_an_environment() -> None:
    assert {"dragoon", "patton", "bluff"} <= set(GAMES)
    assert {envs.gym_id(g) for g in GAMES} <= set(envs.GYM_IDS) | set(envs.register_all())


@pytest.mark.parametrize(("game", "scenario"), MULTI)
def test_pettingzoo_api(game: str, scenario: str) -> None:
    from pettingzoo.test import api_test

    api_test(envs.pettingzoo_env(game, scenario), num_cycles=200)


@pytest.mark.parametrize(("game", "scenario"), SCENARIOS)
def test_gymnasium_check_env(game: str, scenario: str) -> None:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    env = gym.make(envs.gym_id(game), scenario=scenario, opponent="random").unwrapped
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize(("game", "scenario"), SCENARIOS)
def test_the_encoding_keeps_its_bounds(game: str, scenario: str) -> None:
    """Random games: the vector has its declared length, the legal actions fit the action space,
    chance outcomes fit OpenSpiel's numbering."""
    spec = get_spec(game)
    assert spec.encoding is not None
    encoding = spec.encoding()
    driver = envs.GameDriver(game, scenario)
    for seed in range(3):
        driver.reset(seed)
        rng = random.Random(seed)
        steps = 0
        while (side := driver.to_act()) is not None and steps < 600:
            assert len(driver.observe(side)) == encoding.size(scenario)
            mask = driver.mask()
            assert len(mask) == encoding.max_actions and sum(mask) == len(driver.legal())
            driver.step(rng.randrange(sum(mask)))
            steps += 1
        assert 0 < _most_chance_outcomes(game, scenario, seed) <= encoding.max_chance_outcomes


def _most_chance_outcomes(game: str, scenario: str, seed: int, steps: int = 600) -> int:
    """The most outcomes any chance node of a random game has (OpenSpiel numbers them from 0)."""
    ruleset = get_ruleset(game)
    state = ruleset.initial_state(scenario, {})
    rng = random.Random(seed)
    most = 0
    for _ in range(steps):
        side = ruleset.to_act(state)
        if side is None:
            break
        if side == CHANCE:
            outcomes = ruleset.chance_outcomes(state)
            most = max(most, len(outcomes))
            pick = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
            ruleset.apply_chance(state, pick, False)
        else:
            ruleset.apply(state, rng.choice(ruleset.legal_actions(state)), False)
    return most


def test_same_seed_same_actions_same_game() -> None:
    """Determinism: two environments reset with one seed and fed one action list agree at every step."""
    a, b = envs.pettingzoo_env("patton", "bulge"), envs.pettingzoo_env("patton", "bulge")
    a.reset(seed=11)
    b.reset(seed=11)
    for _ in range(80):
        if not a.agents:
            break
        obs_a, _, done, _, _ = a.last()
        obs_b = b.observe(b.agent_selection)
        assert a.agent_selection == b.agent_selection
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
        action = None if done else int(np.flatnonzero(obs_a["action_mask"])[-1])
        a.step(action)
        b.step(action)


def test_an_illegal_index_changes_nothing() -> None:
    """Gymnasium: a masked-out index is answered in info["error"] and the game is untouched;
    PettingZoo: it raises ActionIndexError (warroom's illegal_action), the game untouched too."""
    import gymnasium as gym

    env = gym.make(envs.gym_id("dragoon")).unwrapped
    obs, info = env.reset(seed=5)
    before = env.driver.current.ruleset.state_to_json(env.driver.current.state)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert "not legal now" in info2["error"] and reward == 0.0 and not terminated
    assert env.driver.current.ruleset.state_to_json(env.driver.current.state) == before
    aec = envs.pettingzoo_env("patton", "normandy")
    aec.reset(seed=5)
    with pytest.raises(envs.ActionIndexError, match="not legal now"):
        aec.step(envs.GameDriver("patton").max_actions - 1)


def test_a_solitaire_game_has_no_pettingzoo_environment() -> None:
    with pytest.raises(ValueError, match="Gymnasium"):
        envs.pettingzoo_env("dragoon")


def test_the_observation_hides_what_the_rules_hide() -> None:
    """Bluff: a seat's vector is the same whatever the other seat holds (its card is hidden)."""
    seen = set()
    for seed in range(40):
        env = envs.pettingzoo_env("bluff")
        env.reset(seed=seed)
        north = (
            env.observe("North")["observation"] if "North" in env.agents else env.observe(env.agents[0])["observation"]
        )
        own = tuple(north)
        seen.add(own)
    assert len(seen) == 3  # one vector per own card: Jack, Queen or King, never the other's


# -- OpenSpiel ----------------------------------------------------------------------------------
OPENSPIEL_PARAMS: dict[str, dict[str, Any]] = {
    "patton": {"scenario": "bulge"},  # the shortest scenario
    "saintlo": {"options": '{"turn_limit": 1}'},  # no turn limit in the rules: one turn a side
    "saintlo-teams": {"options": '{"turn_limit": 1}'},
}
"""Game parameters that keep a game short enough for these tests (every game with an encoding is tested)."""
OPENSPIEL_SIMS = {"bluff": 50, "dragoon": 3}
"""Random simulations per game (1 where not listed)."""
OPENSPIEL_GAMES: list[tuple[str, dict[str, Any], int]] = [
    (game, OPENSPIEL_PARAMS.get(game, {}), OPENSPIEL_SIMS.get(game, 1)) for game in GAMES
]


@pytest.mark.parametrize(("game", "params", "sims"), OPENSPIEL_GAMES)
def test_openspiel_random_simulation(game: str, params: dict[str, Any], sims: int) -> None:
    import pyspiel

    pyspiel.random_sim_test(
        pyspiel.load_game(wos.game_name(game), params), num_sims=sims, serialize=False, verbose=False
    )


def _play_out(game: Any, bot: Any, seed: int) -> list[float]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(bot.step(state))
    return list(state.returns())


@pytest.mark.parametrize(("game", "params"), [(game, params) for game, params, _ in OPENSPIEL_GAMES])
def test_openspiel_mcts_plays_a_game_to_the_end(game: str, params: dict[str, Any]) -> None:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    g = pyspiel.load_game(wos.game_name(game), params)
    bot = mcts.MCTSBot(g, 2.0, 4, wos.GameEvaluator(g, seed=1), random_state=np.random.RandomState(1), solve=False)
    returns = _play_out(g, bot, 1)
    assert len(returns) == g.num_players() and all(-1.0 <= r <= 1.0 for r in returns)


def test_the_information_type_is_the_games() -> None:
    """IS-MCTS is for games that hide something (OpenSpiel's bot asserts imperfect information); a game
    that hides nothing (Dragoon, Patton: chance draws are open once drawn) is declared perfect."""
    import pyspiel

    assert "bluff" in HIDING and not {"dragoon", "patton"} & set(HIDING)
    for game in GAMES:
        info = pyspiel.load_game(wos.game_name(game)).get_type().information
        hiding = game in HIDING
        assert info == (
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hiding
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        )


@pytest.mark.parametrize("game", HIDING)
def test_openspiel_ismcts_plays_a_game_to_the_end(game: str) -> None:
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    g = pyspiel.load_game(wos.game_name(game), OPENSPIEL_PARAMS.get(game, {}))
    # the game's own evaluation at the leaves (a random rollout of a whole campaign per simulation takes minutes)
    sims = 20 if game == "bluff" else 4
    bot = ismcts.ISMCTSBot(g, wos.GameEvaluator(g, seed=2), 2.0, sims, random_state=np.random.RandomState(3))
    returns = _play_out(g, bot, 2)
    assert len(returns) == g.num_players()


def test_resampling_draws_hidden_cards_anew() -> None:
    """IS-MCTS's resample_from_infostate: the acting seat's view is kept, the other card varies."""
    import pyspiel

    g = pyspiel.load_game(wos.game_name("bluff"))
    state = g.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    views, hidden = set(), set()
    for _ in range(30):
        sample = state.resample_from_infostate(player, sampler)
        views.add(sample.information_state_string(player))
        hidden.add(sample.information_state_string(1 - player))
    assert views == {state.information_state_string(player)}
    assert len(hidden) == 2  # the other seat holds either remaining card
