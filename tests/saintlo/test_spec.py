"""Panzer Saint-Lo 1944 through the whole stack, as tests/test_contract_proof.py proves bluff: the Python API,
the agents, the conformance checks (the spec's invariants), what each seat observes, the protocol in a
subprocess (odds included), the terminal, simulate, bench and the web API; for the two-player game
(`saintlo`) and rule 10's four seats (`saintlo-teams`).

The games join through the registry only (`registered`, WARROOM_GAMES for a subprocess), so these tests pass
whether or not warroom/games/__init__.py lists them. Random games are played with a turn limit (the rules have
none, and random players rarely destroy four Command Posts).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from front_ends import cli, protocol
from typer.testing import CliRunner

import warroom
from warroom.engine.match import replay_record
from warroom.games import REGISTRY, get_ruleset, get_spec, register_game, seat_variant
from warroom.games.saintlo import calculator, odds

GAMES = {"saintlo": "warroom.games.saintlo.spec:SPEC", "saintlo-teams": "warroom.games.saintlo.spec:TEAM_SPEC"}
RUNNER = CliRunner()
SHORT = {"turn_limit": 1}


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    before = dict(REGISTRY)
    for game, path in GAMES.items():
        register_game(game, path)
    yield
    REGISTRY.clear()
    REGISTRY.update(before)
    get_spec.cache_clear()
    get_ruleset.cache_clear()


def _env() -> dict[str, str]:
    return {**os.environ, "WARROOM_GAMES": ",".join(f"{g}={p}" for g, p in GAMES.items()), "COLUMNS": "160"}


# -- odds (6.2) ----------------------------------------------------------------------------------------
def test_the_fast_odds_are_the_rulebooks_comparison_exactly() -> None:
    # Saint-Lo 6.2: the O(n^3) count by faces equals the comparison of every pair of throws
    for a in range(0, 6):
        for d in range(0, 6):
            assert calculator.win_fraction(a, d) == odds.win_fraction(a, d), (a, d)
    assert calculator.SaintLoOdds().calculate({"attack_dice": 1, "defense_dice": 1})["destroyed"] == 0.5


def test_the_calculator_refuses_bad_dice() -> None:
    from warroom.engine.errors import BadRequestError, WarroomError

    with pytest.raises(WarroomError, match="attack_dice"):
        calculator.SaintLoOdds().calculate({"attack_dice": -1, "defense_dice": 2})
    with pytest.raises(WarroomError, match="defense_dice"):
        calculator.SaintLoOdds().calculate({"attack_dice": 2})
    with pytest.raises(BadRequestError, match="'attack_die'"):  # a typo is an error, never ignored
        calculator.SaintLoOdds().calculate({"attack_die": 2, "defense_dice": 2})


def _midgame(game: str, seed: int, want: str = "attack ") -> warroom.Match:
    """A heuristic game played until an attack is legal (Saint-Lo 6.2)."""
    m = warroom.new_game(game, seed=seed, options={"turn_limit": 6})
    policy = get_spec(game).agents().heuristic_policy  # type: ignore[misc]
    assert policy is not None
    while not m.over and not any(a.startswith(want) for a in m.legal_actions()):
        if m.to_act in m.ruleset.info.sides:
            m.play(policy(m.ruleset, m.state)[0])
    return m


def test_the_position_survey_gives_each_legal_attack_its_exact_odds() -> None:
    m = _midgame("saintlo", 1)
    spec = get_spec("saintlo")
    assert spec.odds is not None
    capability = spec.odds()
    survey = capability.position(m.ruleset, m.state)
    attacks = [a for a in m.legal_actions() if a.startswith("attack ")]
    assert [x["action"] for x in survey["attacks"]] == attacks and attacks
    for found in survey["attacks"]:
        p = m.ruleset.attack_odds(m.state, found["action"])  # type: ignore[attr-defined]
        assert found["destroyed"] == pytest.approx(p)
        assert found["supported_dice"] >= found["attack_dice"] and found["supported"] >= found["destroyed"]
        assert capability.action_odds(m.ruleset, m.state, found["action"])["p"] == found["destroyed"]  # type: ignore[index]


# -- the Python API and the agents ---------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_python_api_plays_saves_and_replays(game: str, tmp_path: Path) -> None:
    m = warroom.new_game(game, seed=3, options=SHORT)
    chooser = random.Random(3)
    while not m.over:
        m.play(chooser.choice(m.legal_actions()))
    assert m.result is not None and m.result.rule == "Saint-Lo 3"
    path = tmp_path / "game.json"
    warroom.save(m, path)
    assert warroom.load(path).view() == m.view()
    replayed = replay_record(m.ruleset, m.record(), m.ruleset.initial_state(None, SHORT))
    assert replayed.view() == m.view()


def test_the_team_result_credits_both_partners() -> None:
    # Saint-Lo 10: a team result for each seat
    m = warroom.new_game("saintlo-teams", seed=2, options={"turn_limit": 12})
    from warroom.ai import get_agent

    agent = get_agent("heuristic", "saintlo-teams", seed=1)
    while not m.over:
        m.play(agent.choose(m)[0])
    result = m.result
    assert result is not None
    returns = result.returns
    assert returns["Allied A"] == returns["Allied B"] and returns["Axis A"] == returns["Axis B"]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_agent_plays_legal_moves(game: str) -> None:
    from warroom.ai import get_agent

    m = _midgame(game, 4)
    for name in ("random", "heuristic", "mcts"):
        agent = get_agent(name, game, budget_ms=30, seed=1)
        action, why = agent.choose(m)
        assert action in m.legal_actions() and why


def test_the_heuristic_beats_random_play() -> None:
    from warroom.ai import get_agent

    wins = 0
    games = 4
    for k in range(games):
        m = warroom.new_game("saintlo", seed=k, options={"turn_limit": 10}, keep_log=False)
        mine = m.ruleset.info.sides[k % 2]
        heuristic, rand = get_agent("heuristic", "saintlo", seed=k), get_agent("random", "saintlo", seed=k)
        while not m.over:
            m.play((heuristic if m.to_act == mine else rand).choose(m)[0])
        wins += m.result is not None and m.result.winner == mine
    assert wins >= 3, wins


# -- conformance and observations -------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_random_games_keep_every_invariant_and_round_trip(game: str) -> None:
    # one unit a hex (4.3, 6.1, 7.4), Supplies never negative and at most 10 activations (5.3), hands (5.2)
    spec = get_spec(game)
    assert spec.invariants is not None
    ruleset = get_ruleset(game)
    for seed in range(2):
        m = warroom.new_game(game, seed=seed, options=SHORT)
        chooser = random.Random(seed)
        previous = None
        while not m.over:
            assert spec.invariants(ruleset, m.state, previous) == []
            previous = ruleset.clone(m.state)
            m.play(chooser.choice(m.legal_actions()))
            data = json.loads(json.dumps(ruleset.state_to_json(m.state)))
            assert ruleset.state_to_json(ruleset.state_from_json(data)) == data


@pytest.mark.parametrize("game", list(GAMES))
def test_no_seat_sees_the_decks_hands_or_face_down_units(game: str) -> None:
    # the generic checks of tests/test_observations.py, position by position (Saint-Lo 4.3, 4.5, 9, 10.1)
    import observation_checks

    spec = get_spec(game)
    ruleset = get_ruleset(game)
    seen: dict[str, bool] = {}
    m = warroom.new_game(game, seed=5, options=SHORT, keep_log=False)
    chooser = random.Random(5)
    step = 0
    while not m.over:
        if step % 7 == 0 or m.state.phase <= 1:  # every setup step (face-down units), then a sample
            observation_checks.check_position(spec, ruleset, m.state, step, seen)
        for side in ruleset.info.sides:
            hands = m.view(side)["state"]["hands"]
            assert all(isinstance(h, int) for s, h in hands.items() if s != side)
        m.play(chooser.choice(m.legal_actions()))
        step += 1
    assert seen.get("sampled") and all(seen.get(path) for path in spec.hidden)


# -- the protocol, in a subprocess that knows the games from the environment only --------------------------
def test_protocol_plays_it_and_answers_odds() -> None:
    answers = protocol(
        _env(),
        {"cmd": "odds", "game": "saintlo", "attack_dice": 3, "defense_dice": 2},
        {"cmd": "new", "game": "saintlo-teams", "seed": 2},
        {"cmd": "view", "side": "Allied A"},
        {"cmd": "odds"},
    )
    assert all(a["ok"] for a in answers), answers
    assert answers[0]["destroyed"] == pytest.approx(float(odds.win_fraction(3, 2)))
    view = answers[2]["view"]
    assert view["to_act"] == "Allied A" and view["legal"][0].startswith("post ")
    assert isinstance(view["state"]["hands"]["Allied B"], int)
    assert answers[3]["attacks"] == []


# -- the terminal, simulate and bench --------------------------------------------------------------------
def _cli(args: list[str], lines: list[str] | None = None) -> str:
    return cli(args, lines, columns=160)  # the board is wider than the others'


def test_terminal_draws_the_board_and_takes_typed_numbers() -> None:
    output = _cli(["play", "saintlo-teams", "--seed", "2", "--vs", "human", "--flat"], ["1", "q", "n"])
    assert "Allied A" in output and "Command Post" in output and "Supplies" in output


def test_players_4_seats_the_team_variant_and_other_counts_are_refused() -> None:
    # Saint-Lo 10: four players in two teams
    output = _cli(["play", "saintlo", "--players", "4", "--seed", "2", "--vs", "human", "--flat"], ["q", "n"])
    assert "(2 v 2)" in output and "Allied A" in output
    output = _cli(["play", "saintlo-teams", "--players", "2", "--seed", "2", "--vs", "human", "--flat"], ["q", "n"])
    assert "(2 v 2)" not in output and "Allied A" not in output
    from warroom.cli import app

    refused = RUNNER.invoke(app, ["play", "saintlo", "--players", "3"])
    assert refused.exit_code != 0 and "played by 2 or 4 players" in refused.output
    assert "Traceback" not in refused.output
    for game, players in (("saintlo", 2), ("saintlo", 4), ("saintlo-teams", 4)):
        assert len(get_ruleset(seat_variant(game, players)).info.sides) == players


def test_simulate_plays_it_with_its_heuristic() -> None:
    report = json.loads(_cli(["simulate", "saintlo", "--games", "2", "--json", "--option", "turn_limit=2"]))
    assert report["games"] == 2 and sum(report["outcomes"].values()) == 2


def test_bench_measures_its_search() -> None:
    # `warroom bench` also plays uniform random games to their end, which with the rules' default (no turn
    # limit) takes minutes for Saint-Lo (random players seldom destroy four Command Posts): the search alone here
    from warroom.analysis.bench import bench_mcts

    report = bench_mcts("saintlo", 0.3)
    # measured and judged against the spec's target; whether it is met is the bench's to say, not a timed test's
    # (the machine's speed varies by 3x between days here)
    assert report["simulations"] > 0 and report["target_sims_per_s"] == 20
    assert isinstance(report["meets_target"], bool)


# -- the web API -----------------------------------------------------------------------------------------
def test_web_api_seats_four_players_each_seeing_only_its_own_hand(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    from fastapi.testclient import TestClient

    from warroom.web.packed import unpack_actions
    from warroom.web.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'warroom.db'}")
    try:
        with TestClient(app) as client:
            assert "saintlo-teams" in json.dumps(client.get("/api/catalog").json())
            board = client.get("/api/boards/saintlo").json()
            assert board["kind"] == "hexmap" and len(board["map"]["hexes"]) == 384
            created = client.post("/api/games", json={"game": "saintlo-teams", "mode": "online"})
            assert created.status_code == 201, created.text
            data = created.json()
            game_id = data["id"]
            tokens = {seat["side"]: seat["token"] for seat in data["seats"] if "token" in seat}
            for seat in data["seats"]:
                if "invite" in seat:
                    tokens[seat["side"]] = client.post(
                        f"/api/games/{game_id}/claim", json={"invite": seat["invite"]}
                    ).json()["token"]
            assert set(tokens) == {"Allied A", "Allied B", "Axis A", "Axis B"}
            for _ in range(3):
                views = {
                    side: client.get(f"/api/games/{game_id}", params={"token": t}).json() for side, t in tokens.items()
                }
                for side, answer in views.items():
                    hands = answer["view"]["state"]["hands"]
                    assert all(isinstance(h, int) for s, h in hands.items() if s != side)
                side = next(s for s, answer in views.items() if answer["view"]["legal"])
                descriptors = unpack_actions(views[side]["actions"], views[side]["view"]["legal"])
                assert descriptors[0]["kind"] == "post" and "to" in descriptors[0]
                played = client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": tokens[side]},
                    json={"action": views[side]["view"]["legal"][0], "move": views[side]["move"]},
                )
                assert played.status_code == 200, played.text
    finally:
        app.state.store.close()
