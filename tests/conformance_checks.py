"""The conformance checks of tests/test_conformance.py, for any registered game (also run by the tests of a game's
own spec): thousands of random games checked step by step against the kernel's invariants and the game's own
(`random_games_keep_every_invariant`), and perft counts (`perft`: legal action sequences, chance outcomes included,
to a small depth).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from random_play import random_steps
from sizes import sized

import warroom
from warroom import CHANCE
from warroom.analysis.simulate import study_options
from warroom.engine.ruleset import Ruleset
from warroom.games import get_ruleset, get_spec

RANDOM_GAMES = {"dragoon": 2000, "patton": 3000}  # Patton: 1,000 in each scenario (issue 4: "thousands")
"""Random games per game id at full size (keep_log off for speed); a game not listed gets DEFAULT_RANDOM_GAMES."""
DEFAULT_RANDOM_GAMES = 60
QUICK_RANDOM_GAMES = {"dragoon": 300, "patton": 240}
"""The same at the smaller size every run plays (tests/sizes.py; `pytest -m slow` plays the full size): Patton's 240
are 80 a scenario, and the first of every game still keep their logs."""
DEFAULT_QUICK_RANDOM_GAMES = 16
LOGGED_GAMES = {"saintlo": 12, "saintlo-teams": 12, "tunisia": 12}
"""Of those, this many keep their log: every event is checked and every state round-trips as JSON. A game not
listed logs DEFAULT_LOGGED_GAMES; the hex games' random games are long (a logged one takes 0.6-1.5 s, six to
ten times an unlogged one: thousands of positions a game), so they log fewer."""
DEFAULT_LOGGED_GAMES = 50
QUICK_LOGGED_GAMES = {"saintlo": 4, "saintlo-teams": 4, "tunisia": 6}
DEFAULT_QUICK_LOGGED_GAMES = 30
MAX_STEPS = 20_000
"""A random game that has not ended after this many decisions is a bug (a loop in the rules)."""
SAFETY_CAPS = {("patton", "sicily"): ({"turn_limit": 20}, 10)}
"""Options that cap random games of a scenario without a fixed end, and how many games of it play
uncapped at full size (the last ones, unlogged, for speed; QUICK_UNCAPPED at the smaller size). Patton's
Sicily goes on until an objective is decided (no turn limit by default): random games do end (the Allies
run out of dice: about 160 turns on average) but take about a second each, so all but the last few use the
rules option turn_limit as a safety cap."""
QUICK_UNCAPPED = 2


def random_games(game: str) -> tuple[int, int]:
    """How many random games of `game` this run plays, and how many of them keep their log."""
    total = sized(
        RANDOM_GAMES.get(game, DEFAULT_RANDOM_GAMES), QUICK_RANDOM_GAMES.get(game, DEFAULT_QUICK_RANDOM_GAMES)
    )
    logged = sized(
        LOGGED_GAMES.get(game, DEFAULT_LOGGED_GAMES), QUICK_LOGGED_GAMES.get(game, DEFAULT_QUICK_LOGGED_GAMES)
    )
    return total, min(total, logged)


PERFT_BUDGET = 12_000
"""Perft depth grows until the next depth would exceed this many nodes (chosen at --regen)."""


# -- random games ---------------------------------------------------------------------------
def check_events(events: list[dict[str, Any]]) -> None:
    for event in events:
        assert isinstance(event.get("type"), str) and event["type"], event
        assert isinstance(event.get("text"), str) and event["text"], event
        assert "rule" not in event or isinstance(event["rule"], str)
    json.dumps(events)


def check_position(game: str, k: int, m: warroom.Match) -> None:
    """The kernel's own checks of a position a random game reached: someone acts until the end, with legal moves."""
    if m.over:
        return
    assert m.to_act in m.ruleset.info.sides, f"{game} seed {k}: to_act {m.to_act!r} with automatic dice"
    legal = m.legal_actions()
    assert legal, f"{game} seed {k}: no legal action though the game is not over"
    assert len(legal) == len(set(legal))


def random_games_keep_every_invariant(game: str) -> None:
    """Random games of `game` (`random_games`: fewer unless the run plays full size), every position checked: the
    kernel's checks, the game's invariants, and for the logged ones the events, the views and the JSON round trip."""
    ruleset = get_ruleset(game)
    info = ruleset.info
    invariants = get_spec(game).invariants
    total, logging = random_games(game)
    for k in range(total):
        logged = k < logging
        scenario = info.scenarios[k % len(info.scenarios)]
        cap, uncapped = SAFETY_CAPS.get((game, scenario), ({}, 0))
        uncapped = sized(uncapped, min(uncapped, QUICK_UNCAPPED))
        capped = k < total - uncapped * len(info.scenarios)
        options = cap if capped else {}
        if (game, scenario) not in SAFETY_CAPS:  # a game with no fixed end plays its studies' turn limit
            options = study_options(game, scenario, options)
        m = warroom.new_game(game, scenario, seed=k, keep_log=logged, options=options)
        previous = None
        for step in itertools.chain([None], random_steps(m, k, MAX_STEPS)):  # the start, then after each decision
            if invariants:
                problems = invariants(ruleset, m.state, previous)
                assert not problems, f"{game} seed {k}: {problems}"
                previous = ruleset.clone(m.state)
            check_position(game, k, m)
            if logged and step is not None:
                check_events(step[1])
                for side in info.sides:  # each side's view is JSON, with moves only for the side to act
                    view = json.loads(json.dumps(m.view(side)))
                    assert view["to_act"] == m.to_act and (view["legal"] == [] or side == m.to_act)
                data = ruleset.state_to_json(m.state)
                assert ruleset.state_to_json(ruleset.state_from_json(json.loads(json.dumps(data)))) == data
        if not m.over:
            pytest.fail(f"{game} seed {k}: not over after {MAX_STEPS} decisions")
        result = m.result
        assert result is not None and m.to_act is None and m.legal_actions() == []
        assert result.winner is None or isinstance(result.winner, str) and result.winner  # a solitaire's BOT may win
        assert result.rule and result.reason
        json.dumps(result.to_json())


# -- perft ----------------------------------------------------------------------------------
def children(ruleset: Ruleset[Any], state: Any) -> list[Any]:
    """Every state one step on: each legal decision, or each chance outcome."""
    side = ruleset.to_act(state)
    if side is None:
        return []
    out = []
    if side == CHANCE:
        for outcome, _ in ruleset.chance_outcomes(state):
            twin = ruleset.clone(state)
            ruleset.apply_chance(twin, outcome, False)
            out.append(twin)
    else:
        for action in ruleset.legal_actions(state):
            twin = ruleset.clone(state)
            ruleset.apply(twin, action, False)
            out.append(twin)
    return out


def perft(ruleset: Ruleset[Any], state: Any, depth: int | None) -> dict[str, list[int]]:
    """Nodes and distinct states at each depth 1..depth (depth None: as deep as PERFT_BUDGET allows)."""
    layer, nodes, distinct = [state], [], []
    while depth is None or len(nodes) < depth:
        following: list[Any] = []
        for node in layer:  # at --regen, stop building a layer once it is over budget (a hex game's layers explode)
            following += children(ruleset, node)
            if depth is None and nodes and len(following) > PERFT_BUDGET:
                break
        if depth is None and (not following or nodes and len(following) > PERFT_BUDGET):
            break  # at --regen: as deep as the budget allows, and always at least one step
        layer = following
        nodes.append(len(layer))
        distinct.append(len({json.dumps(ruleset.state_to_json(s), sort_keys=True) for s in layer}))
    return {"nodes": nodes, "distinct_states": distinct}
