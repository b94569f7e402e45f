"""One conformance suite for every registered game (OpenSpiel's api_test, python-chess's perft).

For each game in `warroom.games.game_ids()`:
- thousands of random games, checking the kernel's and the game's invariants at every step;
- a golden playthrough (a recorded seeded game with every view) that must reproduce byte for byte;
- perft counts: legal action sequences (chance outcomes included) to a small depth from the
  start and from a mid-game position, so a rules change that adds or loses a move fails loudly.

The golden and perft files live in tests/data/. When a rules change is meant to change them,
regenerate and review the diff:  python tests/test_conformance.py --regen GAME
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import warroom
from warroom import CHANCE
from warroom.engine.ruleset import Ruleset
from warroom.games import game_ids, get_ruleset

DATA = Path(__file__).parent / "data"
RANDOM_GAMES = {"dragoon": 2000, "patton": 3000}  # Patton: 1,000 in each scenario (issue 4: "thousands")
"""Random games per game id (keep_log off for speed); a game not listed gets DEFAULT_RANDOM_GAMES."""
DEFAULT_RANDOM_GAMES = 60
LOGGED_GAMES = 50
"""Of those, this many keep their log: every event is checked and every state round-trips as JSON."""
MAX_STEPS = 20_000
"""A random game that has not ended after this many decisions is a bug (a loop in the rules)."""
SAFETY_CAPS = {("patton", "sicily"): ({"turn_limit": 20}, 10)}
"""Options that cap random games of a scenario without a fixed end, and how many games of it play
uncapped (the last ones, unlogged, for speed). Patton's Sicily goes on until an objective is decided (no turn limit by default):
random games do end (the Allies run out of dice: about 160 turns on average) but take about a second
each, so all but the first few use the rules option turn_limit as a safety cap."""
GOLDEN_SEED = 1944
MIDGAME_DECISIONS = 25
"""The perft mid-game position: the state after this many decisions of the golden game."""
PERFT_BUDGET = 12_000
"""Perft depth grows until the next depth would exceed this many nodes (chosen at --regen)."""


# -- per-game invariants --------------------------------------------------------------------
def dragoon_invariants(ruleset: Any, state: Any, seen: dict[str, Any]) -> None:
    """Dragoon: what the rulebook guarantees of every position, checked after every step."""
    from warroom.games.dragoon.state import ELIMINATED, IN_BOX, PHASE_KEYS

    b = ruleset.board
    assert b.first_turn <= state.turn <= b.last_turn
    assert 0 <= state.phase < len(PHASE_KEYS)
    assert 0 <= state.rp <= 4  # Using Action Charts: "2-4 actions per turn"
    # Resolving Unit Attacks: "Allied units are never eliminated" — always in the box or on their route
    assert len(state.allied_pos) == len(b.allied)
    allied_at = set()
    for i, p in enumerate(state.allied_pos):
        assert IN_BOX <= p < len(b.routes[i])
        if p != IN_BOX:
            allied_at.add(b.routes[i][p])
            assert state.control[b.routes[i][p]], "a location an Allied unit holds is Allied-controlled"
    # no Allied unit shares a location with a German unit
    assert not allied_at & set(state.german_loc)
    # German Movement: infantry may not stack with infantry (the 11th PzD may stack with one)
    infantry = [loc for g, loc in enumerate(state.german_loc) if loc >= 0 and not b.is_panzer[g]]
    assert len(infantry) == len(set(infantry))
    # German units are conserved: each is somewhere; the eliminated ones are exactly those recorded
    assert len(state.german_loc) == len(b.german)
    gone = {g for g, loc in enumerate(state.german_loc) if loc == ELIMINATED}
    assert gone == set(state.eliminated)
    assert not any(b.never_eliminated[g] for g in gone)  # the 148th ID and the 11th PzD never are
    assert seen.setdefault("eliminated", set()) <= gone  # nobody comes back
    seen["eliminated"] = gone
    # How to Win: VP within the table's bounds
    vp, _ = ruleset.victory_points(state)
    assert 0 <= vp <= sum(b.vp) + sum(1 for g in range(len(b.german)) if not b.never_eliminated[g])


def patton_invariants(ruleset: Any, state: Any, seen: dict[str, Any]) -> None:
    """Patton: stacking (10 a town at the start of a turn), unit counts (placed + entered -
    eliminated), MP spent equal to the roads' and landings' costs, 5 Units a road segment, landing
    capacities, attack stacks only against enemy towns (Patton: Positioning of Units, Using
    Movement Points, Battles, Sicily — Allied Landings)."""
    from warroom.games.patton.invariants import problems

    found = problems(state)
    assert not found, found
    assert seen.setdefault("turn", 0) <= state.turn  # time only goes forward
    seen["turn"] = state.turn


INVARIANTS: dict[str, Callable[[Any, Any, dict[str, Any]], None]] = {"dragoon": dragoon_invariants, "patton": patton_invariants}
"""Game-specific invariants by game id; every game also gets the kernel's own checks below."""


# -- random games ---------------------------------------------------------------------------
def check_events(events: list[dict[str, Any]]) -> None:
    for event in events:
        assert isinstance(event.get("type"), str) and event["type"], event
        assert isinstance(event.get("text"), str) and event["text"], event
        assert "rule" not in event or isinstance(event["rule"], str)
    json.dumps(events)


@pytest.mark.parametrize("game", game_ids())
def test_random_games_keep_every_invariant(game: str) -> None:
    ruleset = get_ruleset(game)
    info = ruleset.info
    invariants = INVARIANTS.get(game)
    total = RANDOM_GAMES.get(game, DEFAULT_RANDOM_GAMES)
    for k in range(total):
        logged = k < LOGGED_GAMES
        scenario = info.scenarios[k % len(info.scenarios)]
        cap, uncapped = SAFETY_CAPS.get((game, scenario), ({}, 0))
        capped = k < total - uncapped * len(info.scenarios)
        m = warroom.new_game(game, scenario, seed=k, keep_log=logged, options=cap if capped else {})
        chooser = random.Random(k)
        seen: dict[str, Any] = {}
        for _ in range(MAX_STEPS):
            if invariants:
                invariants(ruleset, m.state, seen)
            if m.over:
                break
            assert m.to_act in info.sides, f"{game} seed {k}: to_act {m.to_act!r} with automatic dice"
            legal = m.legal_actions()
            assert legal, f"{game} seed {k}: no legal action though the game is not over"
            assert len(legal) == len(set(legal))
            events = m.play(chooser.choice(legal))
            if logged:
                check_events(events)
                for side in info.sides:  # each side's view is JSON, with moves only for the side to act
                    view = json.loads(json.dumps(m.view(side)))
                    assert view["to_act"] == m.to_act and (view["legal"] == [] or side == m.to_act)
                data = ruleset.state_to_json(m.state)
                assert ruleset.state_to_json(ruleset.state_from_json(json.loads(json.dumps(data)))) == data
        else:
            pytest.fail(f"{game} seed {k}: not over after {MAX_STEPS} decisions")
        result = m.result
        assert result is not None and m.to_act is None and m.legal_actions() == []
        assert result.winner is None or isinstance(result.winner, str) and result.winner  # a solitaire's BOT may win
        assert result.rule and result.reason
        json.dumps(result.to_json())


# -- golden playthrough ---------------------------------------------------------------------
def golden_path(game: str) -> Path:
    return DATA / f"playthrough_{game}.json"


def playthrough(game: str, actions: list[str] | None = None) -> dict[str, Any]:
    """The golden game: seeded dice, and either the given actions or a seeded random choice."""
    m = warroom.new_game(game, seed=GOLDEN_SEED)
    chooser = random.Random(GOLDEN_SEED)
    steps = [{"action": None, "events": list(m.log), "view": m.view()}]
    todo = list(actions) if actions is not None else None
    while not m.over and (todo is None or todo):
        action = todo.pop(0) if todo is not None else chooser.choice(m.legal_actions())
        events = m.play(action)
        steps.append({"action": action, "events": events, "view": m.view()})
    views = {side: m.view(side) for side in m.ruleset.info.sides}
    return {"game": game, "seed": GOLDEN_SEED, "record": m.record().to_json(), "steps": steps, "final_views": views}


def dumps(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def stored(path: Path, game: str) -> dict[str, Any]:
    if not path.exists():
        pytest.fail(f"{path.name} is missing: generate it with `python tests/test_conformance.py --regen {game}` and review it")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game", game_ids())
def test_golden_playthrough_reproduces_exactly(game: str) -> None:
    path = golden_path(game)
    golden = stored(path, game)
    actions = [step["action"] for step in golden["steps"][1:]]
    again = playthrough(game, actions)
    assert again["steps"][-1]["view"]["over"], "the golden game is played to its end"
    assert dumps(again) == path.read_text(encoding="utf-8")
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
        following = [child for node in layer for child in children(ruleset, node)]
        if depth is None and (not following or nodes and len(following) > PERFT_BUDGET):
            break  # at --regen: as deep as the budget allows, and always at least one step
        layer = following
        nodes.append(len(layer))
        distinct.append(len({json.dumps(ruleset.state_to_json(s), sort_keys=True) for s in layer}))
    return {"nodes": nodes, "distinct_states": distinct}


def perft_positions(game: str) -> dict[str, Any]:
    """The start of each scenario, and the golden game's position after MIDGAME_DECISIONS decisions."""
    ruleset = get_ruleset(game)
    positions = {f"start:{scenario}": ruleset.state_to_json(ruleset.initial_state(scenario, {})) for scenario in ruleset.info.scenarios}
    golden = playthrough(game)
    m = warroom.new_game(game, seed=GOLDEN_SEED)
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
        assert perft(ruleset, state, len(entry["nodes"])) == {"nodes": entry["nodes"], "distinct_states": entry["distinct_states"]}, name


def regenerate(game: str) -> None:
    """Write the golden playthrough and the perft table of `game` (review the diff before committing)."""
    DATA.mkdir(exist_ok=True)
    golden_path(game).write_text(dumps(playthrough(game)), encoding="utf-8")
    ruleset = get_ruleset(game)
    table = {}
    for name, position in perft_positions(game).items():
        counts = perft(ruleset, ruleset.state_from_json(position), None)
        table[name] = {"position": position, **counts}
    perft_path(game).write_text(dumps(table), encoding="utf-8")
    print(f"wrote {golden_path(game)} and {perft_path(game)}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--regen":
        sys.exit("usage: python tests/test_conformance.py --regen GAME")
    regenerate(sys.argv[2])
