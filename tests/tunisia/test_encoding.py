"""Tunisia's observation encoding (warroom/games/tunisia/encoding.py): a fixed length along whole games, nothing
of what 6.0E hides in a side's vector, and the declared bounds on legal actions and chance outcomes."""

from __future__ import annotations

import random

import pytest

import warroom
from warroom.games import get_spec
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.determinize import determinize
from warroom.games.tunisia.encoding import MAX_ACTIONS, TunisiaEncoding
from warroom.games.tunisia.movement import compute_reach
from warroom.games.tunisia.rules import SCENARIO, TunisiaRules
from warroom.games.tunisia.state import TunisiaState

R = TunisiaRules()
ENCODING = TunisiaEncoding()
SIZE = ENCODING.size(SCENARIO)
VIEWERS = (None, "Axis", "Allied")


def _vector(s: TunisiaState, side: str | None) -> list[float]:
    return ENCODING.encode(R.observation(s, side), side, SCENARIO)


def test_the_spec_offers_the_encoding() -> None:
    spec = get_spec("tunisia")
    assert spec.encoding is not None and isinstance(spec.encoding(), TunisiaEncoding)
    assert SCENARIO == "campaign" and R.info.scenarios == (SCENARIO,)
    assert 3_000 < SIZE < 8_000  # a few thousand numbers: the land hexes, the counters, the rest
    assert ENCODING.size(None) == SIZE and len(ENCODING.encode({}, "Axis", SCENARIO)) == SIZE


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_vector_keeps_its_length_along_random_games(seed: int) -> None:
    m = warroom.new_game("tunisia", seed=seed, keep_log=False)
    rng = random.Random(seed)
    steps = 0
    while True:
        for side in VIEWERS:
            x = _vector(m.state, side)
            assert len(x) == SIZE, f"seed {seed} step {steps} side {side}"
            assert min(x) >= 0.0 and max(x) <= 2.0  # scaled to about [0, 1]
        if m.over:
            break
        m.play(rng.choice(m.legal_actions()))
        steps += 1
    assert steps > 100


def test_what_lies_beneath_an_unexamined_stack_changes_nothing_for_the_enemy() -> None:
    # Tunisia 6.0E: at the start no Axis unit is adjacent to the Allied stacks in 7607, 7709 and 8013, so the
    # Axis sees only their top (a unit) and the number beneath
    s = R.initial_state()
    view = R.observation(s, "Axis")
    assert {"7709": 1, "8013": 1}.items() <= view["hidden"].items()
    beneath = R.state_to_json(s)["beneath"]
    first, second = beneath["7709"][0], beneath["8013"][0]  # 1st-Army-Arty and II-Corps-Arty, both artillery
    assert first not in view["pieces"] and second not in view["pieces"]
    before = {side: _vector(s, side) for side in VIEWERS}
    swapped = s.clone()
    a, b = R.piece(first), R.piece(second)
    swapped.loc[a], swapped.loc[b] = s.loc[b], s.loc[a]  # the tops stay, and each stack's count
    assert R.observation(swapped, "Axis")["hidden"] == view["hidden"]
    assert _vector(swapped, "Axis") == before["Axis"]
    assert _vector(swapped, None) != before[None]  # the omniscient view sees the swap
    assert _vector(swapped, "Allied") != before["Allied"]  # and so does the owner
    air = beneath["7607"][0]  # 242-Group, a two-step air asset: its step is hidden too
    flipped = s.clone()
    flipped.reduced[R.piece(air)] = True
    assert _vector(flipped, "Axis") == before["Axis"]
    assert _vector(flipped, None) != before[None]


def test_a_determinized_position_encodes_as_the_real_one_for_its_side() -> None:
    # Tunisia 6.0E: a determinization deals the hidden pieces again, which the side's vector never shows
    rng = random.Random(7)
    m = warroom.new_game("tunisia", seed=7, keep_log=False)
    compared = differ = 0
    while not m.over and compared < 120:
        for side in ("Axis", "Allied"):
            if not R.observation(m.state, side)["hidden"]:
                continue
            dealt = determinize(R.clone(m.state), side, rng)
            assert _vector(dealt, side) == _vector(m.state, side)
            differ += _vector(dealt, None) != _vector(m.state, None)
            compared += 1
        m.play(rng.choice(m.legal_actions()))
    assert compared >= 20 and differ > 0


def test_every_position_of_random_games_fits_the_action_bound() -> None:
    most = 0
    for seed in range(20):
        options = {"allied_setup": "free", "axis_setup": "free"} if seed % 4 == 3 else {}
        m = warroom.new_game("tunisia", seed=seed, keep_log=False, options=options)
        rng = random.Random(seed)
        while not m.over:
            legal = m.legal_actions()
            most = max(most, len(legal))
            m.play(rng.choice(legal))
    assert 1_000 < most < MAX_ACTIONS == ENCODING.max_actions  # random games reach about 3,000


def test_the_action_bound_follows_from_the_data() -> None:
    # Tunisia 8.0: the Movement Phase offers the most, a move for each piece to each hex it can reach. On an
    # empty map (nothing to block, 8.7A, or to stop a move, 9.1C; every unit's MA doubled, 8.6) each piece
    # reaches the most from any start; summed over all of a side's non-air pieces, plus the end of the phase,
    # that is more than any position can offer
    cat, board = R.cat, R.board
    land = sorted(board.land)
    assert all(cat.reduced_ma[p] <= cat.ma[p] for p in range(cat.n))  # a reduced piece reaches no further
    most = {}
    for p in range(cat.n):
        if cat.is_air[p]:
            continue
        best = 0
        for h in land:
            s = TunisiaState(cat.n)
            s.loc[p] = h
            reach = set(compute_reach(cat, s, p, set(), set())) | {
                j for j in board.grid.neighbour_table[h] if j in board.land
            }
            best = max(best, len(reach))
        most[p] = best
    assert max(most.values()) < len(land)
    for side in (AXIS, ALLIED):
        assert sum(most[p] for p in cat.by_side[side] if p in most) + 1 < MAX_ACTIONS


def test_chance_outcomes_fit_the_bound() -> None:
    # Tunisia 7.7C, 10.2: a d6 and a d12, numbered by OpenSpiel from 0
    from warroom.games.tunisia.rules import D6, D12

    assert max(len(D6), len(D12)) == ENCODING.max_chance_outcomes == 12
