"""One conformance suite for every registered game (OpenSpiel's api_test, python-chess's perft).

For each game in `warroom.games.game_ids()`:
- thousands of random games, checking the kernel's invariants and the game's own (its spec's
  `invariants`) at every step;
- a golden playthrough (a recorded seeded game with every view) that must reproduce byte for byte;
- perft counts: legal action sequences (chance outcomes included) to a small depth from the
  start and from a mid-game position, so a rules change that adds or loses a move fails loudly.

The golden and perft files live in tests/data/. When a rules change is meant to change them,
regenerate and review the diff:  python tests/test_conformance.py --regen GAME
"""

from __future__ import annotations

import gzip
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from random_play import random_steps

import warroom
from warroom import CHANCE
from warroom.analysis.simulate import study_options
from warroom.engine.ruleset import Ruleset
from warroom.games import game_ids, get_ruleset, get_spec

DATA = Path(__file__).parent / "data"
RANDOM_GAMES = {"dragoon": 2000, "patton": 3000}  # Patton: 1,000 in each scenario (issue 4: "thousands")
"""Random games per game id (keep_log off for speed); a game not listed gets DEFAULT_RANDOM_GAMES."""
DEFAULT_RANDOM_GAMES = 60
LOGGED_GAMES = {"saintlo": 12, "saintlo-teams": 12, "tunisia": 12}
"""Of those, this many keep their log: every event is checked and every state round-trips as JSON. A game not
listed logs DEFAULT_LOGGED_GAMES; the hex games' random games are long (a logged one takes 0.6-1.5 s, six to
ten times an unlogged one: thousands of positions a game), so they log fewer."""
DEFAULT_LOGGED_GAMES = 50
MAX_STEPS = 20_000
"""A random game that has not ended after this many decisions is a bug (a loop in the rules)."""
SAFETY_CAPS = {("patton", "sicily"): ({"turn_limit": 20}, 10)}
"""Options that cap random games of a scenario without a fixed end, and how many games of it play
uncapped (the last ones, unlogged, for speed). Patton's Sicily goes on until an objective is decided
(no turn limit by default): random games do end (the Allies run out of dice: about 160 turns on
average) but take about a second each, so all but the first few use the rules option turn_limit as a
safety cap."""
GOLDEN_SEED = 1944
MIDGAME_DECISIONS = 25
"""The perft mid-game position: the state after this many decisions of the golden game."""
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


@pytest.mark.parametrize("game", game_ids())
def test_random_games_keep_every_invariant(game: str) -> None:
    ruleset = get_ruleset(game)
    info = ruleset.info
    invariants = get_spec(game).invariants
    total = RANDOM_GAMES.get(game, DEFAULT_RANDOM_GAMES)
    for k in range(total):
        logged = k < LOGGED_GAMES.get(game, DEFAULT_LOGGED_GAMES)
        scenario = info.scenarios[k % len(info.scenarios)]
        cap, uncapped = SAFETY_CAPS.get((game, scenario), ({}, 0))
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


# -- golden playthrough ---------------------------------------------------------------------
GZIP_OVER = 2_000_000
"""A golden file larger than this many characters is stored gzipped (a hex game's views list a thousand
moves a step: Tunisia's playthrough is 10 MB of JSON, under 1 MB packed)."""


def golden_path(game: str) -> Path:
    """The stored golden playthrough: `playthrough_<game>.json`, or `.json.gz` where it was packed."""
    plain = DATA / f"playthrough_{game}.json"
    packed = plain.with_name(plain.name + ".gz")
    return packed if packed.exists() else plain


def read_text(path: Path) -> str:
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def write_golden(game: str, text: str) -> Path:
    """Write the golden text, packed when large (gzip without a timestamp, so the bytes are reproducible)."""
    plain = DATA / f"playthrough_{game}.json"
    packed = plain.with_name(plain.name + ".gz")
    keep, drop = (packed, plain) if len(text) > GZIP_OVER else (plain, packed)
    if keep is packed:
        packed.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    else:
        plain.write_text(text, encoding="utf-8")
    drop.unlink(missing_ok=True)
    return keep


def playthrough(game: str, actions: list[str] | None = None) -> dict[str, Any]:
    """The golden game: seeded dice, and either the given actions or a seeded random choice."""
    m = warroom.new_game(game, seed=GOLDEN_SEED, options=study_options(game, None, {}))
    steps = [{"action": None, "events": list(m.log), "view": m.view()}]
    given = ((action, m.play(action)) for action in actions or () if not m.over)
    for action, events in random_steps(m, GOLDEN_SEED) if actions is None else given:
        steps.append({"action": action, "events": events, "view": m.view()})
    views = {side: m.view(side) for side in m.ruleset.info.sides}
    return {"game": game, "seed": GOLDEN_SEED, "record": m.record().to_json(), "steps": steps, "final_views": views}


def dumps(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def stored(path: Path, game: str) -> dict[str, Any]:
    if not path.exists():
        pytest.fail(
            f"{path.name} is missing: generate it with `python tests/test_conformance.py --regen {game}` and review it"
        )
    data: dict[str, Any] = json.loads(read_text(path))
    return data


@pytest.mark.parametrize("game", game_ids())
def test_golden_playthrough_reproduces_exactly(game: str) -> None:
    path = golden_path(game)
    golden = stored(path, game)
    actions = [step["action"] for step in golden["steps"][1:]]
    again = playthrough(game, actions)
    assert again["steps"][-1]["view"]["over"], "the golden game is played to its end"
    assert dumps(again) == read_text(path)
    loaded = warroom.load(golden["record"])
    assert loaded.view() == golden["steps"][-1]["view"]
    assert loaded.log == [event for step in golden["steps"] for event in step["events"]]


# -- perft ----------------------------------------------------------------------------------
def children(ruleset: Ruleset, state: Any) -> list[Any]:
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


def perft(ruleset: Ruleset, state: Any, depth: int | None) -> dict[str, list[int]]:
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


def perft_positions(game: str) -> dict[str, Any]:
    """The start of each scenario, and the golden game's position after MIDGAME_DECISIONS decisions."""
    ruleset = get_ruleset(game)
    positions = {
        f"start:{scenario}": ruleset.state_to_json(ruleset.initial_state(scenario, {}))
        for scenario in ruleset.info.scenarios
    }
    golden = playthrough(game)
    m = warroom.new_game(game, seed=GOLDEN_SEED, options=study_options(game, None, {}))
    for step in golden["steps"][1 : MIDGAME_DECISIONS + 1]:
        m.play(step["action"])
    positions["midgame"] = ruleset.state_to_json(m.state)
    return positions


def perft_path(game: str) -> Path:
    return DATA / f"perft_{game}.json"


@pytest.mark.parametrize("game", game_ids())
def test_perft_counts(game: str) -> None:
    ruleset = get_ruleset(game)
    table = stored(perft_path(game), game)
    for name, entry in table.items():
        state = ruleset.state_from_json(entry["position"])
        assert perft(ruleset, state, len(entry["nodes"])) == {
            "nodes": entry["nodes"],
            "distinct_states": entry["distinct_states"],
        }, name


def regenerate(game: str) -> None:
    """Write the golden playthrough and the perft table of `game` (review the diff before committing)."""
    DATA.mkdir(exist_ok=True)
    golden = write_golden(game, dumps(playthrough(game)))
    ruleset = get_ruleset(game)
    table = {}
    for name, position in perft_positions(game).items():
        counts = perft(ruleset, ruleset.state_from_json(position), None)
        table[name] = {"position": position, **counts}
    perft_path(game).write_text(dumps(table), encoding="utf-8")
    print(f"wrote {golden} and {perft_path(game)}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--regen":
        sys.exit("usage: python tests/test_conformance.py --regen GAME")
    regenerate(sys.argv[2])
