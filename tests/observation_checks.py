"""The observation checks of tests/test_observations.py, for any registered game: random games of every scenario
and, at each step that `checked` picks, each side's observation checked (`check_game`, `check_position`): it is JSON,
it carries no path the spec declares `hidden`, and the spec's `determinize` gives states the side cannot tell apart
from the real one, reading only what the side sees, and really samples.
"""

from __future__ import annotations

import json
import random
from typing import Any

from sizes import sized

import warroom
from warroom.engine.spec import GameSpec
from warroom.games import get_spec

GAMES_PER_SCENARIO = 2
"""Random games per scenario at full size (each step checks every side's observation and its determinizations);
one at the smaller size every run plays (tests/sizes.py)."""
DETERMINIZATIONS = 3
MAX_STEPS = 20_000
EVERY_STEP_UNTIL = 2_000
STRIDE = 37
"""After the first EVERY_STEP_UNTIL steps every STRIDE-th position is checked: a random game of Saint-Lo
runs to 200,000 steps (these stop at MAX_STEPS), the same phases over and over, and checking every one made
this test 11 of the suite's 25 minutes; a prime stride does not fall into step with a repeating phase."""
QUICK_EVERY_STEP_UNTIL = 800
QUICK_STRIDE = 101
"""The same at the smaller size: the setup and the first turns step by step, then a sample to the end."""


def checked(step: int) -> bool:
    until, stride = sized(EVERY_STEP_UNTIL, QUICK_EVERY_STEP_UNTIL), sized(STRIDE, QUICK_STRIDE)
    return step < until or step % stride == 0


def _lookup(data: Any, path: str) -> tuple[bool, Any]:
    """(found, value) of a dotted path in nested dicts."""
    for key in path.split("."):
        if not isinstance(data, dict) or key not in data:
            return False, None
        data = data[key]
    return True, data


def _canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, allow_nan=False)


def check_position(spec: GameSpec, ruleset: Any, state: Any, seed: int, seen: dict[str, bool]) -> None:
    """Every check of one position, for every side; `seen` gathers what the whole game showed."""
    whole = ruleset.state_to_json(state)
    saved = _canon(whole)
    for path in spec.hidden:
        seen[path] = seen.get(path, False) or _lookup(whole, path)[0]
    _canon(ruleset.observation(state, None))  # the omniscient observer's is JSON too
    for side in ruleset.info.sides:
        observed = _canon(ruleset.observation(state, side))
        sent = json.loads(observed)  # what a front end receives
        for path in spec.hidden:
            assert not _lookup(sent, path)[0], f"{spec.id}: {side}'s observation carries hidden {path!r}"
        if spec.determinize is None:
            continue
        worlds = []
        for k in range(DETERMINIZATIONS):
            world = spec.determinize(state, side, random.Random(seed * 31 + k))
            assert _canon(ruleset.observation(world, side)) == observed, (
                f"{spec.id}: {side} could tell a determinization from the real state (a leak, or a sample that"
                f" changes what {side} sees)"
            )
            worlds.append(world)
            seen["sampled"] = seen.get("sampled", False) or _canon(ruleset.state_to_json(world)) != saved
        # reads only what the side sees: worlds it cannot tell apart give the same sample for one rng
        again = {_canon(ruleset.state_to_json(spec.determinize(world, side, random.Random(seed)))) for world in worlds}
        assert len(again) == 1, f"{spec.id}: determinize for {side} depends on what {side} cannot see"
    assert _canon(ruleset.state_to_json(state)) == saved, f"{spec.id}: observing or determinizing changed the state"


def check_game(game: str, games_per_scenario: int | None = None) -> None:
    """Random games of every scenario (GAMES_PER_SCENARIO at full size, one otherwise), every position that
    `checked` picks checked (check_position)."""
    if games_per_scenario is None:
        games_per_scenario = sized(GAMES_PER_SCENARIO, 1)
    spec = get_spec(game)
    assert bool(spec.hidden) == (spec.determinize is not None), (
        f"{game}: a game that hides fields needs determinize (search would peek), and one that hides none needs none"
    )
    ruleset = warroom.games.get_ruleset(game)
    seen: dict[str, bool] = {}
    for scenario in ruleset.info.scenarios:
        for seed in range(games_per_scenario):
            m = warroom.new_game(game, scenario, seed=seed, keep_log=False)
            chooser = random.Random(seed)
            for step in range(MAX_STEPS):
                if checked(step) or m.over:
                    check_position(spec, ruleset, m.state, seed * MAX_STEPS + step, seen)
                if m.over:
                    break
                m.play(chooser.choice(m.legal_actions()))
    stale = [path for path in spec.hidden if not seen.get(path)]
    assert not stale, f"{game}: hidden paths {stale} never appear in the save format (a stale declaration)"
    if spec.hidden:
        assert seen.get("sampled"), f"{game}: determinize never changed anything it could have hidden"
