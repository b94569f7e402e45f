"""N sides and teams: a result's per-side returns, search that backs them up, studies that report them.

Driven by Team Pick, a four-seat test game of two teams defined here (like a card game's
partnerships): North and South play against East and West; the seats take turns, in the order North,
East, West, South, to take one number from a pool of 1 to 6, and the team with the larger sum wins
(equal sums draw). Best play draws (North 6, East 5, West 4, South 3: 9 all), and one careless pick
loses, so a search that scored a seat by the wrong team, or gave partners nothing for their team's
win (as a winner-only back-up would: the winner is a team, not a seat), is caught. East and West
move in a row, so nothing may assume that sides alternate.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import warroom
from warroom.ai.mcts import MCTS, MCTSAgent
from warroom.engine.errors import IllegalActionError
from warroom.engine.ruleset import GameInfo, Result, win_returns
from warroom.games import REGISTRY, get_ruleset

SEATS = ("North", "East", "West", "South")  # in their order of play
TEAMS = (("North-South", ("North", "South")), ("East-West", ("East", "West")))
POOL = (1, 2, 3, 4, 5, 6)

State = dict[str, Any]  # {"picks": [[seat index, number], ...]}


class TeamPick:
    """The test game (see the module docstring): four seats, two teams, no dice."""

    info = GameInfo(id="teampick", title="Team Pick (test game)", scenarios=("standard",), sides=SEATS, teams=TEAMS)

    def initial_state(self, scenario: str | None, options: dict[str, Any]) -> State:
        return {"picks": []}

    def to_act(self, s: State) -> str | None:
        return SEATS[len(s["picks"])] if len(s["picks"]) < len(SEATS) else None

    def legal_actions(self, s: State) -> list[str]:
        taken = {n for _, n in s["picks"]}
        return [f"take {n}" for n in POOL if n not in taken] if self.to_act(s) else []

    def chance_outcomes(self, s: State) -> list[tuple[int, float]]:
        return []

    def die_sides(self, s: State) -> int:
        return 6

    def apply(self, s: State, action: str, log: bool = True) -> list[dict[str, Any]]:
        if action not in self.legal_actions(s):
            raise IllegalActionError(f"{action!r} is not legal here")
        s["picks"].append([len(s["picks"]), int(action.split()[1])])
        return [{"type": "pick", "text": f"{SEATS[s['picks'][-1][0]]} takes {action.split()[1]}"}] if log else []

    def apply_chance(self, s: State, outcome: int, log: bool = True) -> list[dict[str, Any]]:
        raise AssertionError("Team Pick has no dice")

    def observation(self, s: State, side: str | None) -> dict[str, Any]:
        return {"picks": [list(p) for p in s["picks"]]}

    def sums(self, s: State) -> dict[str, int]:
        return {team: sum(n for seat, n in s["picks"] if SEATS[seat] in members) for team, members in TEAMS}

    def result(self, s: State) -> Result | None:
        if self.to_act(s) is not None:
            return None
        sums = self.sums(s)
        (first, a), (second, b) = sums.items()
        winner = None if a == b else (first if a > b else second)
        return Result(winner, sums, f"{a} against {b}", "", win_returns(self.info, winner))

    def clone(self, s: State) -> State:
        return {"picks": [list(p) for p in s["picks"]]}

    def state_to_json(self, s: State) -> dict[str, Any]:
        return self.clone(s)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return {"picks": [list(p) for p in data["picks"]]}

    def turn_and_phase(self, s: State) -> tuple[Any, str]:
        return 1, "Pick"

    def describe_action(self, s: State, action: str) -> str:
        return action


@pytest.fixture
def team_pick() -> Iterator[str]:
    """Team Pick registered as a game for one test (as tests/web/conftest.py registers its card game)."""
    REGISTRY["teampick"] = f"{__name__}:TeamPick"
    get_ruleset.cache_clear()
    yield "teampick"
    del REGISTRY["teampick"]
    get_ruleset.cache_clear()


def position(*numbers: int) -> State:
    return {"picks": [[k, n] for k, n in enumerate(numbers)]}


@cache
def best(picks: tuple[int, ...]) -> float:
    """The mover's team's game value (+1, 0, -1) by brute force, both teams playing their best."""
    rules = TeamPick()
    s = position(*picks)
    side = rules.to_act(s)
    if side is None:
        result = rules.result(s)
        assert result is not None
        return result.returns["North"]  # North-South's value; negated below for East-West
    sign = 1.0 if rules.info.team_of(side) == "North-South" else -1.0
    return max(sign * best((*picks, int(a.split()[1]))) for a in rules.legal_actions(s)) * sign


def value_for_mover(picks: tuple[int, ...], action: str) -> float:
    side = TeamPick().to_act(position(*picks))
    assert side is not None
    after = best((*picks, int(action.split()[1])))
    return after if TeamPick.info.team_of(side) == "North-South" else -after


# -- GameInfo's teams and Result's returns -------------------------------------------------------------
def test_teams_default_to_one_per_side_and_must_cover_every_side() -> None:
    plain = GameInfo("duel", "Duel", ("s",), ("Red", "Blue"))
    assert plain.team_list() == (("Red", ("Red",)), ("Blue", ("Blue",)))
    assert plain.team_of("Blue") == "Blue"
    assert TeamPick.info.team_of("South") == "North-South" and TeamPick.info.team_of("West") == "East-West"
    with pytest.raises(KeyError):
        TeamPick.info.team_of("Nobody")
    with pytest.raises(ValueError, match="exactly once"):
        GameInfo("bad", "Bad", ("s",), SEATS, teams=(("A", ("North", "East")), ("B", ("South",))))
    with pytest.raises(ValueError, match="exactly once"):
        GameInfo("bad", "Bad", ("s",), ("A", "B"), teams=(("T", ("A",)), ("T", ("B",))))


def test_win_returns_for_teams_two_sides_solitaire_and_draws() -> None:
    assert win_returns(TeamPick.info, "East-West") == {"North": -1.0, "East": 1.0, "South": -1.0, "West": 1.0}
    assert win_returns(TeamPick.info, "South") == {
        "North": 1.0,
        "East": -1.0,
        "South": 1.0,
        "West": -1.0,
    }  # a side names its team
    assert win_returns(TeamPick.info, None) == dict.fromkeys(SEATS, 0.0)
    duel = GameInfo("duel", "Duel", ("s",), ("Red", "Blue"))
    assert win_returns(duel, "Red") == {"Red": 1.0, "Blue": -1.0}
    solitaire = GameInfo("solo", "Solo", ("s",), ("Allied",))
    assert win_returns(solitaire, "Allied") == {"Allied": 1.0}
    assert win_returns(solitaire, "German") == {"Allied": -1.0}  # the bot, which has no seat, won


@given(st.lists(st.integers(0, 3), min_size=1, max_size=7), st.integers(-2, 7))
def test_win_returns_credit_exactly_the_winners_team(team_of_side: list[int], pick: int) -> None:
    sides = tuple(f"s{k}" for k in range(len(team_of_side)))
    names = sorted(set(team_of_side))
    teams = tuple((f"t{t}", tuple(s for s, mine in zip(sides, team_of_side, strict=True) if mine == t)) for t in names)
    info = GameInfo("g", "G", ("x",), sides, teams=teams)
    # the winner: a side (0..n-1), a team (named t<k>), nobody (None: a draw) or an outsider without a seat
    winner = sides[pick] if 0 <= pick < len(sides) else {-1: None, -2: "outsider"}.get(pick, f"t{pick % 4}")
    returns = win_returns(info, winner)
    assert set(returns) == set(sides)
    if winner is None:
        assert set(returns.values()) == {0.0}
        return
    team = info.team_of(winner) if winner in sides else winner
    for side in sides:
        assert returns[side] == (1.0 if info.team_of(side) == team else -1.0)


def test_result_json_carries_returns_and_old_results_derive_them() -> None:
    result = Result(
        "East-West", {"North-South": 7, "East-West": 8}, "7 against 8", "", win_returns(TeamPick.info, "East-West")
    )
    data = json.loads(json.dumps(result.to_json()))
    assert data["returns"] == {"North": -1.0, "East": 1.0, "South": -1.0, "West": 1.0}
    assert Result.from_json(data) == result
    old = {"winner": "German", "score": {"VP": 5}, "reason": "5 VP", "rule": "How to Win"}  # saved before returns
    assert Result.from_json(old, get_ruleset("dragoon").info).returns == {"Allied": -1.0}
    assert Result.from_json({**old, "winner": None}, get_ruleset("patton").info).returns == {"Allied": 0.0, "Axis": 0.0}
    assert Result.from_json(old).returns == {}  # no game to derive them from


@pytest.mark.parametrize("game", ["dragoon", "patton"])
def test_both_games_fill_returns_for_every_side(game: str) -> None:
    match = warroom.new_game(game, seed=3, keep_log=False)
    while not match.over:
        match.play(match.legal_actions()[-1])
    result = match.result
    assert result is not None
    assert result.returns == win_returns(match.ruleset.info, result.winner)
    assert set(result.returns) == set(match.ruleset.info.sides)
    assert match.view()["result"]["returns"] == result.returns  # the protocol's and the web's view pass them through


@given(st.permutations(POOL))
def test_team_pick_returns_follow_the_sums(order: list[int]) -> None:
    rules = TeamPick()
    s = position(*order[:4])
    result = rules.result(s)
    assert result is not None
    ns, ew = order[0] + order[3], order[1] + order[2]  # North and South take the first and the last pick
    assert result.returns["North"] == result.returns["South"] == (ns > ew) - (ns < ew)
    assert result.returns["East"] == result.returns["West"] == -result.returns["North"]


# -- search backs up each side's return ---------------------------------------------------------------
@pytest.mark.parametrize("picks", [(), (5,), (6,), (6, 3), (6, 5), (6, 5, 4), (2, 6), (1, 2, 6)])
def test_mcts_picks_a_best_move_for_the_movers_team(picks: tuple[int, ...]) -> None:
    rules = TeamPick()
    action, stats = MCTS(rules, seed=5).search(position(*picks), simulations=3000)
    assert stats["side"] == SEATS[len(picks)]
    best_value = max(value_for_mover(picks, a) for a in rules.legal_actions(position(*picks)))
    assert value_for_mover(picks, action) == best_value, (picks, action, stats["children"])


def test_mcts_takes_the_one_winning_move_for_the_last_seat() -> None:
    # East 2 + West 4 = 6 against North 1 + South ?: of 3, 5 and 6 only 6 wins (5 draws, 3 loses)
    action, stats = MCTS(TeamPick(), seed=1).search(position(1, 2, 4), simulations=500)
    assert action == "take 6"
    assert stats["side"] == "South" and stats["value"] == pytest.approx(1.0)  # South's value: a certain win


def test_a_float_evaluation_is_the_first_sides_team_value() -> None:
    search = MCTS(TeamPick(), evaluate=lambda rules, s: 0.8)
    assert search._as_values(0.8) == pytest.approx((0.8, 0.2, 0.2, 0.8))  # North, East, West, South
    assert search._as_values({"West": 1.0}) == (0.0, 0.0, 1.0, 0.0)
    three = GameInfo("three", "Three", ("s",), ("A", "B", "C"))
    rules = TeamPick()
    rules.info = three
    with pytest.raises(ValueError, match="3 teams"):
        MCTS(rules)._as_values(0.5)


def test_mcts_agents_play_team_pick_to_the_end(team_pick: str) -> None:
    match = warroom.new_game(team_pick, seed=1)
    agents = {side: MCTSAgent(match.ruleset, simulations=2000, seed=k) for k, side in enumerate(SEATS)}
    picks: list[int] = []
    while not match.over:
        assert match.to_act is not None
        action, why = agents[match.to_act].choose(match)
        sign = 1 if TeamPick.info.team_of(match.to_act) == "North-South" else -1
        assert value_for_mover(tuple(picks), action) == sign * best(tuple(picks)), why
        match.play(action)
        picks.append(int(action.split()[1]))
    result = match.result
    assert result is not None and result.winner is None  # best play draws
    assert result.returns == dict.fromkeys(SEATS, 0.0)
    assert match.view()["result"]["returns"] == result.returns


def test_the_protocol_passes_returns_through(team_pick: str) -> None:
    from warroom.protocol import ProtocolSession

    session = ProtocolSession()
    view = session.handle({"cmd": "new", "game": team_pick, "seed": 1})["view"]
    for number in (1, 2, 4, 6):  # North 1 + South 6 beat East 2 + West 4
        assert view["result"] is None
        view = session.handle({"cmd": "play", "action": f"take {number}"})["view"]
    assert view["over"] and view["result"]["winner"] == "North-South"
    assert view["result"]["returns"] == {"North": 1.0, "East": -1.0, "West": -1.0, "South": 1.0}


# -- studies report it ----------------------------------------------------------------------------------
def test_simulate_counts_team_wins_and_mean_returns(team_pick: str) -> None:
    from warroom.analysis.simulate import simulate

    report = simulate(team_pick, 40, "random", seed=2)
    assert list(report.outcomes) == ["North-South", "East-West", "draw"]
    assert sum(report.outcomes.values()) == 40
    ns = (report.outcomes["North-South"] - report.outcomes["East-West"]) / 40
    assert report.returns == pytest.approx({"North": ns, "East": -ns, "South": ns, "West": -ns})
    data = report.to_json()
    assert data["mean_returns"] == report.returns and data["outcomes"] == report.outcomes
    assert "returns" not in report.events and "returns" not in report.numbers
    # the East-West team searches, North-South plays at random
    lopsided = simulate(team_pick, 10, "random", seed=2, side_agents={"East": "mcts", "West": "mcts"})
    assert lopsided.returns["East"] > 0 > lopsided.returns["North"]


def test_simulate_keeps_the_two_games_outcome_rows_and_adds_mean_returns() -> None:
    from warroom.analysis.simulate import simulate

    report = simulate("dragoon", 6, "random", seed=1)
    assert list(report.outcomes) == ["Allied", "draw", "German"]
    allied = (report.outcomes["Allied"] - report.outcomes["German"]) / 6
    assert report.returns == pytest.approx({"Allied": allied})
