"""One conformance suite for every registered game (OpenSpiel's api_test, python-chess's perft).

For each game in `warroom.games.game_ids()`:
- thousands of random games, checking the kernel's invariants and the game's own (its spec's
  `invariants`) at every step;
- a golden playthrough (a recorded seeded game with every view) that must reproduce byte for byte;
- perft counts: legal action sequences (chance outcomes included) to a small depth from the
  start and from a mid-game position, so a rules change that adds or loses a move fails loudly.

The golden and perft files live in the game's own folder (the package of its spec module), in
data/golden/ (`golden_folder`). When a rules change is meant to change them, regenerate and review
the diff:  python tests/test_conformance.py --regen GAME
"""

from __future__ import annotations

import gzip
import json
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from conformance_checks import perft, random_games_keep_every_invariant
from random_play import random_steps

import warroom
from warroom.analysis.simulate import study_options
from warroom.games import REGISTRY, game_ids, get_ruleset

GOLDEN_SEED = 1944
MIDGAME_DECISIONS = 25
"""The perft mid-game position: the state after this many decisions of the golden game."""


# -- random games ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("game", game_ids())
def test_random_games_keep_every_invariant(game: str) -> None:
    random_games_keep_every_invariant(game)


# -- golden playthrough ---------------------------------------------------------------------
GZIP_OVER = 2_000_000
"""A golden file larger than this many characters is stored gzipped (a hex game's views list a thousand
moves a step: Tunisia's playthrough is 10 MB of JSON, under 1 MB packed)."""


def golden_folder(game: str) -> Path:
    """Where `game`'s golden files live: data/golden/ in the folder of its spec module, so a new game's goldens
    are in its own folder (a folder may hold several games' specs: each file is named by the game's id)."""
    module = REGISTRY[game].split(":")[0]
    found = find_spec(module)
    if found is None or found.origin is None:
        raise LookupError(f"{game}: its spec module {module} is not importable")
    return Path(found.origin).parent / "data" / "golden"


def golden_path(game: str) -> Path:
    """The stored golden playthrough: `playthrough_<game>.json`, or `.json.gz` where it was packed."""
    plain = golden_folder(game) / f"playthrough_{game}.json"
    packed = plain.with_name(plain.name + ".gz")
    return packed if packed.exists() else plain


def read_text(path: Path) -> str:
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def write_golden(game: str, text: str) -> Path:
    """Write the golden text, packed when large (gzip without a timestamp, so the bytes are reproducible)."""
    plain = golden_folder(game) / f"playthrough_{game}.json"
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
            f"{path} is missing: generate it with `python tests/test_conformance.py --regen {game}` and review it"
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
    return golden_folder(game) / f"perft_{game}.json"


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
    golden_folder(game).mkdir(parents=True, exist_ok=True)
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
    from session_games import register_session_games

    register_session_games()  # the test games regenerate as the registered ones do
    regenerate(sys.argv[2])
