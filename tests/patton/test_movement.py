"""Patton movement: road costs, the 5-Unit road-segment limit, moves that stop to fight,
Illustration 1's arithmetic, landings and trapped Units."""

from __future__ import annotations

import heapq

import pytest
from patton_sandbox import sandbox_board, sandbox_state

from warroom.engine.errors import IllegalActionError
from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import MOVING, Stack

RULES = PattonRules()


def illustration_1(mp: int):
    # Patton: Using Movement Points (Illustration 1): A-B-C the short way; A-D-C costs 5 a Unit,
    # A-B-E-C 4 a Unit. 2 Armored + 1 Infantry in A, 1 Armored + 3 Infantry in B, all bound for C.
    board = sandbox_board(
        ["A", "B", "C", "D", "E"],
        [
            ("A", "B", "solid"),
            ("B", "C", "solid"),
            ("A", "D", "dashed"),
            ("D", "C", "dotted"),
            ("B", "E", "dashed"),
            ("E", "C", "solid"),
        ],
    )
    return sandbox_state(board, {"A": ("Allied", 2, 1), "B": ("Allied", 1, 3)}, mp=mp)


def test_illustration_1_costs_4_plus_2_plus_8():
    # Patton: Using Movement Points — "a minimum of 14 Movement Points- 4 + 2 + 8"
    s = illustration_1(14)
    RULES.apply(s, "move 1A3I B->C")
    assert s.mp == 10  # "the 4 Units from B to C for a total of 4 Movement Points"
    RULES.apply(s, "move 1A A->B")
    RULES.apply(s, "move 1A B->C")
    assert s.mp == 8  # "1 of the Units from A, through B, and to C for a total of 2"
    # "He has now moved 5 Units along the road segment from B to C and cannot use it for further Units."
    RULES.apply(s, "move 1A A->B")
    assert "move 1A B->C" not in RULES.legal_actions(s)
    with pytest.raises(IllegalActionError, match="5 Units"):
        RULES.apply(s, "move 1A B->C")
    RULES.apply(s, "move 1I A->B")
    RULES.apply(s, "move 1A1I B->E")
    RULES.apply(s, "move 1A1I E->C")
    c = s.board.town_index["C"]
    assert (s.armor[c], s.inf[c]) == (3, 4)
    assert s.mp == 0  # 4 + 2 + 8 = 14


def test_illustration_1_through_d_costs_10():
    # "To move the remaining 2 Units through town D would take 10 Movement Points- 5 each."
    s = illustration_1(10)
    RULES.apply(s, "move 1A1I A->D")
    RULES.apply(s, "move 1A1I D->C")
    assert s.mp == 0


def _cheapest_all_to_c(s) -> int:
    """A* over positions, using only the rules' own legal moves: the least MP to bring every Unit to C.

    Only one-Unit moves are followed: any group move is the same as its Units moving one by one
    (same cost, same road-segment count), so nothing cheaper is missed. The estimate (each Unit's
    cheapest road distance to C, segment limits ignored) never overstates, so the first position
    with every Unit in C is a cheapest one."""
    b = s.board
    c = b.town_index["C"]
    start = s.mp

    def estimate(st):
        return sum((st.armor[t] + st.inf[t]) * b.distance[t][c] for t in range(b.n))

    def key(st):
        return (tuple(st.armor), tuple(st.inf), tuple(st.seg))

    heap = [(estimate(s), 0, 0, s)]
    seen = {key(s): 0}
    counter = 1
    while heap:
        _, cost, _, st = heapq.heappop(heap)
        if st.armor[c] + st.inf[c] == 7:
            return cost
        for action in RULES.legal_actions(st):
            if action == "end" or action.split()[1] not in ("1A", "1I"):
                continue
            nxt = st.clone()
            RULES.apply(nxt, action, log=False)
            spent = start - nxt.mp
            k = key(nxt)
            if nxt.phase == MOVING and seen.get(k, 10**9) > spent:
                seen[k] = spent
                heapq.heappush(heap, (spent + estimate(nxt), spent, counter, nxt))
                counter += 1
    return -1


def test_illustration_1_minimum_is_14_by_search():
    # Patton: Using Movement Points — the rules engine agrees that nothing cheaper than 14 exists.
    assert _cheapest_all_to_c(illustration_1(16)) == 14


def test_road_types_cost_1_2_3_and_unused_points_are_kept_optional():
    # Patton: Using Movement Points — solid 1, dashed 2, dotted 3 a Unit; not compelled to use them all
    board = sandbox_board(["A", "B", "C", "D"], [("A", "B", "solid"), ("A", "C", "dashed"), ("A", "D", "dotted")])
    s = sandbox_state(board, {"A": ("Allied", 3, 0)}, mp=6)
    RULES.apply(s, "move 1A A->B")
    RULES.apply(s, "move 1A A->C")
    RULES.apply(s, "move 1A A->D")
    assert s.mp == 0
    s = sandbox_state(board, {"A": ("Allied", 3, 0)}, mp=5)
    RULES.apply(s, "move 2A A->C")
    assert "move 1A A->D" not in RULES.legal_actions(s)  # 3 MP needed, 1 left
    assert "end" in RULES.legal_actions(s)


def test_moving_into_an_enemy_town_stops_outside_and_costs_the_full_road():
    # Patton: Battles — "he must stop outside of the town (but uses Movement Points as if he had reached the town)"
    board = sandbox_board(["A", "B", "C"], [("A", "B", "dashed"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 2, 0), "B": ("Axis", 0, 2)}, mp=10)
    RULES.apply(s, "move 2A A->B")
    assert s.mp == 6
    assert s.stacks == [Stack(target=1, source=0, armor=2, infantry=0, owner=0)]
    assert s.side[1] == 1 and s.armor[1] == 0  # not in the town
    assert not any(a.startswith("move") and "B->C" in a for a in RULES.legal_actions(s))  # cannot move past it


def test_segment_limit_counts_both_directions():
    # Patton: Using Movement Points — "A maximum of 5 Units can use any one road segment during a turn."
    board = sandbox_board(["A", "B"], [("A", "B", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 3, 0), "B": ("Allied", 0, 4)}, mp=20)
    RULES.apply(s, "move 3A A->B")
    RULES.apply(s, "move 2I B->A")
    legal = RULES.legal_actions(s)
    assert legal == ["end"] or all(not a.startswith("move") for a in legal)


def test_landing_costs_one_point_a_unit_capacity_and_no_road_move():
    # Patton: Sicily — Allied Landings: 1 MP a Unit, the area's capacity a turn, no road move that turn
    board = sandbox_board(
        ["Beach-Town", "Inland"],
        [("Beach-Town", "Inland", "solid")],
        landings=[("Sea", "Beach-Town", 3), ("Other-Sea", "Inland", 2)],
    )
    s = sandbox_state(board, {}, mp=10)
    s.offboard = [2, 2]
    board.force = [(2, 2), (0, 0)]
    RULES.apply(s, "land 2A1I Sea->Beach-Town")
    assert s.mp == 7
    assert "land 1I Sea->Beach-Town" not in RULES.legal_actions(s)  # capacity 3 used
    assert "land 1I Other-Sea->Inland" in RULES.legal_actions(s)
    assert not any(a.startswith("move") for a in RULES.legal_actions(s))  # landed Units stay put
    with pytest.raises(IllegalActionError, match="landed this turn"):
        RULES.apply(s, "move 1A Beach-Town->Inland")


def test_previously_landed_units_move_while_new_ones_land():
    # Patton: Sicily — "Units previously landed can be moved on a turn when new landings are being attempted"
    board = sandbox_board(
        ["Beach-Town", "Inland"], [("Beach-Town", "Inland", "solid")], landings=[("Sea", "Beach-Town", 3)]
    )
    s = sandbox_state(board, {"Beach-Town": ("Allied", 1, 0)}, mp=10)
    s.offboard = [0, 2]
    board.force = [(1, 2), (0, 0)]
    RULES.apply(s, "land 2I Sea->Beach-Town")
    assert "move 1A Beach-Town->Inland" in RULES.legal_actions(s)
    assert "move 1I Beach-Town->Inland" not in RULES.legal_actions(s)


def test_trapped_bastogne_units_cannot_move_and_cannot_be_attacked():
    # Patton: The Bulge — Objective: "Until the trapped Units are relieved they cannot take part in any battles."
    board = sandbox_board(
        ["Bastogne", "Ring", "Road", "Star"],
        [("Bastogne", "Ring", "solid"), ("Ring", "Road", "solid"), ("Road", "Star", "solid")],
        star=["Star"],
        objective="relief_and_hold",
        hold="Road",
        relieve="Bastogne",
    )
    s = sandbox_state(board, {"Bastogne": ("Allied", 1, 8), "Ring": ("Axis", 1, 1), "Star": ("Allied", 2, 0)}, mp=10)
    assert not any("Bastogne->" in a for a in RULES.legal_actions(s))
    s.mover = s.actor = 1
    s.forget_derived()
    assert not any("->Bastogne" in a for a in RULES.legal_actions(s))
    with pytest.raises(IllegalActionError, match="trapped"):
        RULES.apply(s, "move 1A Ring->Bastogne")
