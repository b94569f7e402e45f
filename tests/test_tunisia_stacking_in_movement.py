"""Tunisia 6.0D: "The stacking limit is only enforced after all units and support assets have completed their
movement during the Movement Phase." Two units trade places, three rotate; the phase ends only with every
hex within 6.0A-C, and a move may leave one hex overstacked only while it keeps a way out (overstack.py,
NOTES.md reading 2). The random games check the fast legal list against the rule's test, move by move."""

from __future__ import annotations

import random

import pytest
from tunisia_positions import CAT, R, blank, refused

from warroom.engine.errors import IllegalActionError
from warroom.games.tunisia.catalog import ALLIED
from warroom.games.tunisia.invariants import problems
from warroom.games.tunisia.overstack import Closure, overstacked, side_stacks
from warroom.games.tunisia.state import Phase


def test_two_units_trade_places() -> None:
    # Tunisia 6.0D: the 78th ends in the 46th's hex, the 46th then leaves for the 78th's
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022"})
    R.apply(s, "move 78th 7922 8022")
    assert overstacked(CAT, side_stacks(CAT, s, ALLIED)) == [R.hex("8022")]
    assert "end" not in R.legal_actions(s)
    refused(s, "end", "6.0A-D")  # the phase may not end with 8022 overstacked
    assert not problems(R, s)  # a Movement Phase's overstack with a way out breaks no invariant
    R.apply(s, "move 46th 8022 7922")
    assert "end" in R.legal_actions(s)
    assert s.loc[CAT.index["78th"]] == R.hex("8022") and s.loc[CAT.index["46th"]] == R.hex("7922")
    R.apply(s, "end")
    assert s.phase == Phase.ATTACK and not problems(R, s)


def test_three_units_rotate() -> None:
    # Tunisia 6.0D: one overstacked hex at a time is enough for a rotation
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022", "1st-Gds": "8122"})
    for action in ("move 78th 7922 8022", "move 46th 8022 8122", "move 1st-Gds 8122 7922"):
        assert action in R.legal_actions(s)
        R.apply(s, action)
    assert "end" in R.legal_actions(s) and not overstacked(CAT, side_stacks(CAT, s, ALLIED))


def test_a_second_overstacked_hex_and_a_filled_way_out_are_refused() -> None:
    # Tunisia 6.0D, NOTES.md reading 2: while 8022 is overstacked no move may overstack another hex, nor
    # take the last hex its unmoved unit could leave to
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022", "1st-Gds": "7722", "DMC": "7822"})
    R.apply(s, "move 78th 7922 8022")
    refused(s, "move DMC 7822 7722", "6.0D")  # 7722 full: two hexes overstacked
    assert "move DMC 7822 8122" in R.legal_actions(s)


def test_a_unit_with_nowhere_to_go_is_never_joined() -> None:
    # Tunisia 6.0D: the unit in 8022 has moved (8.1B): nothing could leave, so the move is refused
    s = blank(ALLIED, **{"78th": "7922", "46th": "8122"})
    R.apply(s, "move 46th 8122 8022")
    with pytest.raises(IllegalActionError, match="6.0"):
        R.apply(s, "move 78th 7922 8022")


def test_the_heuristic_makes_no_exchange_but_finishes_one_it_is_handed() -> None:
    # the computer weighs a move by where it ends; it never starts a 6.0D exchange, but when handed a phase
    # with an overstacked hex it moves a piece out before it ends the phase
    from warroom.games.tunisia.ai import heuristic_policy

    s = blank(ALLIED, **{"78th": "7922", "46th": "8022"})
    action, _ = heuristic_policy(R, s)
    assert action != "move 78th 7922 8022"
    R.apply(s, "move 78th 7922 8022")
    action, _ = heuristic_policy(R, s)
    assert action.startswith("move 46th 8022 ")  # the exchange is finished first
    while s.phase == Phase.MOVEMENT:
        action, _ = heuristic_policy(R, s)
        R.apply(s, action)
    assert not overstacked(CAT, side_stacks(CAT, s, ALLIED))


def test_a_refusal_names_the_hex_left_overstacked() -> None:
    # Tunisia 6.0D: the 46th leaving the overstacked 8022 for 8122, whose unit has moved, would leave 8122
    # overstacked with nothing to leave it: the message names 8122, not the 8022 it mends
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022", "DMC": "8222"})
    R.apply(s, "move DMC 8222 8122")
    R.apply(s, "move 78th 7922 8022")
    with pytest.raises(IllegalActionError) as refused_move:
        R.apply(s, "move 46th 8022 8122")
    assert "leave 8122 overstacked" in str(refused_move.value) and "8022" not in str(refused_move.value).split(":")[1]


def test_a_position_with_an_overstack_nothing_can_mend_is_refused() -> None:
    # Tunisia 6.0D, the invariants: an overstacked hex whose unmoved piece has nowhere to go could never be
    # mended (the side would have no legal action), so such a position is not accepted
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022"})
    R.apply(s, "move 78th 7922 8022")
    assert not problems(R, s)
    ring = ["7922", "7923", "8021", "8023", "8122", "8123"]
    assert {R.hex(h) for h in ring} == set(R.board.grid.neighbours(R.hex("8022")))
    for name, label in zip(["10th-Pz", "15th-Pz", "21st-Pz", "Centauro", "90th-Lt", "164th-Lt"], ring, strict=True):
        s.loc[CAT.index[name]] = R.hex(label)
    s.reach, s.legal = {}, None
    assert any("overstacked" in p for p in problems(R, s))


def test_a_port_counts_once_for_two_units_mid_exchange() -> None:
    # Tunisia 4.0A: "ports occupied"; two Allied units in one port mid-exchange (6.0D) hold one port
    from warroom.games.tunisia.victory import allied_ports

    port = sorted(R.board.ports)[0]
    s = blank(ALLIED, **{"78th": R.labels[port], "46th": R.labels[port]})
    assert allied_ports(CAT, s) == 1


def test_the_other_side_cannot_tell_which_stack_hides_the_second_unit() -> None:
    # Tunisia 6.0E with 6.0D: mid-exchange the second unit lies beneath the first; a search for the other
    # side deals the hidden pieces again, that unit among them, never the true places alone
    from warroom.games.tunisia.determinize import determinize

    s = blank(ALLIED, **{"78th": "7922", "46th": "8022", "6th_Armd": "7212", "II_Corps_Arty": "7212"})
    R.apply(s, "move 78th 7922 8022")
    places = set()
    for k in range(30):
        world = determinize(s, "Axis", random.Random(k))
        assert not problems(R, world)
        places.add(tuple(world.loc[CAT.index[name]] for name in ("46th", "II-Corps-Arty")))
    assert len(places) == 2


def _by_the_rule(s) -> set[str]:
    """The legal list as 6.0D reads, asked move by move of the exact test (overstack.Closure.allows)."""
    closure = Closure(CAT, s, lambda r: s.reach[r].reach)
    out = set()
    for q in CAT.by_side[s.player]:
        if s.loc[q] >= 0 and not s.moved[q] and not CAT.is_air[q]:
            moves = s.reach[q]
            out |= {moves.by_hex[d] for d in moves.reach if closure.allows(q, d)}
    return out | ({"end"} if not closure.over else set())


def test_random_games_list_exactly_the_moves_the_rule_allows() -> None:
    # Tunisia 6.0D: every Movement Phase list of 12 random games against the move-by-move test; no
    # position breaks the invariants (one overstacked hex at most, with a way out; none once the phase ends)
    rng = random.Random(5)
    import warroom

    lists = with_overstack = 0
    for seed in range(12):
        match = warroom.new_game("tunisia", seed=seed, keep_log=False)
        while not match.over:
            s = match.state
            legal = match.legal_actions()
            if s.phase == Phase.MOVEMENT:
                assert set(legal) == _by_the_rule(s) and len(legal) == len(set(legal))
                lists += 1
                with_overstack += "end" not in legal
            match.play(legal[int(rng.random() * len(legal))])
            assert not problems(match.ruleset, match.state)
    assert lists > 2000 and with_overstack > 100  # random play trades places often
