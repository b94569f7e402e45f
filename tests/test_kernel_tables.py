"""The precomputed tables the game kernels read on their hot paths give what the rules' plain loops give.

Issue 16 ("A faster kernel") replaced loops over every unit and ids built on first use with tables
built once per board; each is checked here against the plain definition it replaces, over the
positions of seeded random games, so a table that drifts from its rule fails loudly.
"""

from __future__ import annotations

import random

import pytest
from random_play import random_steps

import warroom
from warroom.engine.dice import DiceSource
from warroom.engine.errors import WarroomError
from warroom.games.dragoon import bot as dragoon_bot
from warroom.games.dragoon.state import IN_BOX
from warroom.games.patton.actions import MOVE, SEGMENT_LIMIT, ActionTable, _read
from warroom.games.patton.board import SCENARIOS, load_board


def test_a_remembered_uniform_die_rolls_as_the_plain_draw_between_other_dice() -> None:
    # Kernel: the last uniform tuple is recognised by identity; a weighted roll in between changes nothing
    d6, weighted = tuple((face, 1 / 6) for face in range(1, 7)), ((1, 0.5), (2, 0.25), (3, 0.25))
    dice, reference = DiceSource(11), random.Random(11)
    for _ in range(30):
        assert dice.roll(d6) == int(reference.random() * 6) + 1
        assert dice.roll(weighted) == reference.choices([1, 2, 3], weights=[0.5, 0.25, 0.25])[0]
        assert dice.roll(tuple(d6)) == int(reference.random() * 6) + 1  # an equal tuple, not the same one


def test_a_weighted_roll_is_random_choices_draw_for_draw() -> None:
    # Kernel: weighted dice (Patton's movement cards: the unseen cards' counts over their total) are drawn as
    # random.choices draws them, without its lists: the same stream gives the same cards, so records replay
    pools = random.Random(5)
    dice, reference = DiceSource(23), random.Random(23)
    for _ in range(500):
        counts = [pools.randrange(0, 4) for _ in range(pools.randrange(1, 13))]
        counts[pools.randrange(len(counts))] += 1
        total = sum(counts)
        outcomes = tuple((value, count / total) for value, count in enumerate(counts) if count)
        values, weights = [v for v, _ in outcomes], [p for _, p in outcomes]
        assert dice.roll(outcomes) == reference.choices(values, weights=weights)[0]


def test_a_weighted_roll_with_no_weight_is_refused_clearly() -> None:
    # Kernel: outcomes whose probabilities add up to nothing name the fault, as a WarroomError
    with pytest.raises(WarroomError, match="positive finite total"):
        DiceSource(1).roll(((1, 0.5), (2, -0.5)))


def _dragoon_positions(games: int = 12, limit: int = 60) -> list:
    positions = []
    for seed in range(games):
        match = warroom.new_game("dragoon", seed=seed, keep_log=False)
        for _ in random_steps(match, seed, limit=limit):
            positions.append(match.ruleset.clone(match.state))
    return positions


def test_dragoon_route_tables_answer_as_the_loops_over_every_unit() -> None:
    # Dragoon: Resolving Unit Attacks (who stands where, whom a German unit may counterattack)
    rules = warroom.new_game("dragoon", seed=0).ruleset
    b = rules.board
    for s in _dragoon_positions():
        on_map = [(i, p) for i, p in enumerate(s.allied_pos) if p != IN_BOX]
        for loc in range(len(b.locations)):
            assert rules.allied_at(s, loc) == any(b.routes[i][p] == loc for i, p in on_map)
        for g, loc in enumerate(s.german_loc):
            facing = loc >= 0 and any(rules.next_stop[i][p + 1] == loc for i, p in on_map)
            assert dragoon_bot.faces_allied(rules, s, g) == facing
            target = rules.bot_target(s, g)
            assert target == -1 or (facing and rules.next_stop[target][s.allied_pos[target] + 1] == loc)


def test_dragoon_arrival_order_is_by_arrival_turn_then_unit() -> None:
    # Dragoon: Movement Phase Sequence ("Check for an arriving unit and place it in Arles")
    b = warroom.new_game("dragoon", seed=0).ruleset.board
    turns = [g.arrival_turn or 0 for g in b.german]
    assert list(b.arrival_order) == sorted(range(len(b.german)), key=lambda g: (turns[g], g))
    assert [g for g in range(len(b.german)) if b.route_of[g] < 0] == list(b.escape_column)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_patton_move_ids_built_with_the_table_are_the_ones_built_on_demand(scenario: str) -> None:
    # Patton: Using Movement Points ("A maximum of 5 Units can use any one road segment during a turn")
    table = ActionTable(load_board(scenario))
    filled = 0
    for d in range(len(table.arrow)):
        for k in range(1, SEGMENT_LIMIT + 1):
            for a in range(k + 1):
                for i in range(k + 1):
                    slot = table.move_cache[d * 216 + (a * 6 + i) * 6 + k]
                    assert slot is not None and slot == table.mixes(MOVE, d, a, i, 1, k)
                    filled += 1
    assert filled == len(table.arrow) * 90
    for text, action in list(table._parsed.items()):
        lazily = table._resolve(_read(text))
        assert action is not None and lazily == action and lazily.where == action.where and action.id == text


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_patton_mover_rows_kept_by_the_moves_are_the_rows_listed_afresh(scenario: str) -> None:
    # Patton: Using Movement Points. The towns a Movement phase lists moves from are kept by each move
    # (movement.note_town; a landing leaves them as they were, Sicily — Allied Landings); at every decision of
    # random games they are the ones listed afresh, and the legal moves are the rule's alone, road by road
    from warroom.games.patton import movement
    from warroom.games.patton.state import MOVING

    checked = 0
    for seed in range(6):
        match = warroom.new_game("patton", scenario, seed=seed, keep_log=False)
        for _ in random_steps(match, seed, limit=400):
            s = match.state
            if s.phase != MOVING or s.move_rows is None:
                continue
            assert s.move_rows == movement.mover_rows(s)
            fresh = s.clone()  # a clone lists its towns afresh
            kept_ids: list[str] = []
            fresh_ids: list[str] = []
            tab = match.ruleset.table(s.board)
            movement.legal_moves(s, tab, kept_ids)
            movement.legal_moves(fresh, tab, fresh_ids)
            assert kept_ids == fresh_ids
            assert [i for i in kept_ids if i.startswith("move ")] == _plain_road_moves(s, tab)
            checked += 1
    assert checked > 50


def _plain_road_moves(s, tab: ActionTable) -> list[str]:
    """Patton's road moves by the rule alone, town by town and road by road (no cache): up to k Units of those
    free to move, k the MP's limit (Units x the road's cost) or the segment's room (5 a turn)."""
    from warroom.games.patton import movement

    b, out = s.board, []
    trapped = movement.trapped_town(s)
    no_attack = trapped if s.mover == 1 else -2
    for town in range(b.n):
        if s.side[town] != s.mover or town == trapped:
            continue
        ma, mi = movement.movable(s, town)
        for d, road, to, cost in b.out[town]:
            k = min(s.mp // cost, SEGMENT_LIMIT - s.seg[road], SEGMENT_LIMIT)
            if k > 0 and to != no_attack and ma + mi:
                out.extend(tab.mixes(MOVE, d, min(ma, k), min(mi, k), 1, k))
    return out
