"""Tunisia 6.0D: "The stacking limit is only enforced after all units and support assets have completed their
movement during the Movement Phase." Two units trade places, three or six rotate; the phase ends only with
every hex within 6.0A-C, and a move may leave one hex overstacked only while the pieces that have yet to move
can mend it, by one move or a chain of them (overstack.py, NOTES.md reading 2). The random games check the fast
legal list against the rule's test, move by move, and small pockets check it against a search of every way
the phase could end."""

from __future__ import annotations

import random

import pytest
from tunisia_positions import BOARD, CAT, KEEPER, R, at, blank, loc, refused

from warroom.engine.errors import IllegalActionError
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.invariants import problems
from warroom.games.tunisia.overstack import Closure, overstacked, side_stacks
from warroom.games.tunisia.stacking import fits
from warroom.games.tunisia.state import Phase, TunisiaState

CENTRE = "7822"
RING = ["7722", "7723", "7823", "7923", "7922", "7821"]  # round 7822, each hex beside the next
OUTER = ["7621", "7622", "7623", "7721", "7724", "7820", "7824", "7921", "7924", "8021", "8022", "8023"]
RINGERS = ["78th", "46th", "1st-Gds", "DMC", "DMM", "1st-Para"]
AXIS_UNITS = [CAT.ids[p] for p in CAT.by_side[AXIS] if CAT.is_unit[p] and CAT.ids[p] != KEEPER]


def ring_position(**more: str) -> TunisiaState:
    """Six Allied units round an Axis unit in 7822, the twelve hexes round them Axis-held: every ring hex is in
    the centre's EZOC (9.1C) and the outer ring is closed to them (8.7A), so each unit can reach just the two
    ring hexes beside it, both full."""
    pieces = dict(zip(RINGERS, RING, strict=True))
    pieces.update(zip(AXIS_UNITS, [CENTRE, *OUTER], strict=False))
    s = blank(ALLIED, **pieces, **more)
    assert set(BOARD.grid.neighbours(at(CENTRE))) == {at(h) for h in RING}
    outer = {n for h in RING for n in BOARD.grid.neighbours(at(h))} - {at(h) for h in RING} - {at(CENTRE)}
    assert outer == {at(h) for h in OUTER} and all(CAT.side[p] == AXIS for p in range(CAT.n) if s.loc[p] in outer)
    assert len({s.loc[p] for p in CAT.by_side[AXIS]} & outer) == 12
    return s


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


def test_six_units_rotate_round_an_axis_hex() -> None:
    # Tunisia 6.0D: each of six units steps into the next ring hex round an Axis hex whose twelve outer hexes
    # are Axis-held; the position ends one unit a hex, so it is playable, from any unit and either way round
    for start in range(6):
        for step in (1, -1):
            s = ring_position()
            R.legal_actions(s)  # each piece's reach, made with the list
            assert {R.labels[d] for d in s.reach[CAT.index["78th"]].reach} == {"7723", "7821"}
            for k in range(6):
                i = (start + step * k) % 6
                action = f"move {RINGERS[i]} {RING[i]} {RING[(i + step) % 6]}"
                legal = R.legal_actions(s)
                assert action in legal and ("end" in legal) == (k == 0), (action, legal)
                R.apply(s, action)
                assert not problems(R, s)
            assert "end" in R.legal_actions(s) and not overstacked(CAT, side_stacks(CAT, s, ALLIED))
            assert all(loc(s, RINGERS[i]) == at(RING[(i + step) % 6]) for i in range(6))
            R.apply(s, "end")
            assert s.phase == Phase.ATTACK


def test_the_first_step_of_a_rotation_leaves_more_than_the_reverse_swap() -> None:
    # Tunisia 6.0D: after the 78th steps into the 46th's hex the 46th may go on round the ring (not only back),
    # and the 1st Para may take the hex the 78th left; `end` waits until the overstack is mended
    s = ring_position()
    R.apply(s, "move 78th 7722 7723")
    assert sorted(R.legal_actions(s)) == ["move 1st-Para 7821 7722", "move 46th 7723 7722", "move 46th 7723 7823"]
    refused(s, "end", "6.0A-D")


def test_two_units_swap_in_the_ring() -> None:
    # Tunisia 6.0D: two units hemmed in by enemy zones trade places, each with its support asset
    s = ring_position(II_Corps_Arty="7722", **{"601st-TD": "7723"})
    for action in (
        "move 78th 7722 7723",
        "move 46th 7723 7722",
        "move II-Corps-Arty 7722 7723",
        "move 601st-TD 7723 7722",
    ):
        assert action in R.legal_actions(s), action
        R.apply(s, action)
    assert "end" in R.legal_actions(s)
    assert loc(s, "78th") == loc(s, "II-Corps-Arty") == at("7723") and loc(s, "46th") == loc(s, "601st-TD") == at(
        "7722"
    )


def test_a_position_left_illegal_is_refused_naming_the_rule() -> None:
    # Tunisia 6.0A-D: five steps of the rotation leave 7821 overstacked; the 1st Para may end it only in the
    # hex the 78th left: into 7922, whose unit has moved, it would leave 7922 overstacked for good
    s = ring_position()
    for i in range(5):
        R.apply(s, f"move {RINGERS[i]} {RING[i]} {RING[i + 1]}")
    assert overstacked(CAT, side_stacks(CAT, s, ALLIED)) == [at("7821")]
    refused(s, "end", "6.0A-D")
    with pytest.raises(IllegalActionError) as info:
        R.apply(s, "move 1st-Para 7821 7922")
    assert "7922 overstacked" in str(info.value) and "6.0A-D" in str(info.value)
    refused(s, "move 1st-Para 7821 7922", "6.0A-D")
    assert R.legal_actions(s) == ["move 1st-Para 7821 7722"]
    R.apply(s, "move 1st-Para 7821 7722")
    assert R.legal_actions(s) == ["end"]


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


def _some_end_is_legal(s: TunisiaState) -> bool:
    """Whether some moves of the pieces that have yet to move would leave every hex within 6.0A-C: every way
    the phase could end, tried piece by piece (each staying or going to a hex it can reach), a hex judged once
    the last piece that could leave or enter it has been placed."""
    side = s.player
    pieces = [p for p in CAT.by_side[side] if s.loc[p] >= 0 and not s.moved[p] and not CAT.is_air[p]]
    options = [[s.loc[p], *s.reach[p].reach] for p in pieces]
    stacks: dict[int, list[int]] = {}
    for p in CAT.by_side[side]:
        if s.loc[p] >= 0 and p not in pieces:
            stacks.setdefault(s.loc[p], []).append(p)
    last: dict[int, int] = {h: -1 for h in stacks}
    for i, hexes in enumerate(options):
        for h in hexes:
            last[h] = i
    settled: dict[int, list[int]] = {}
    for h, i in last.items():
        settled.setdefault(i, []).append(h)
    if any(not fits(CAT, stacks.get(h, [])) for h in settled.get(-1, [])):
        return False

    open_at = [sorted(h for h, j in last.items() if j >= i) for i in range(len(pieces))]
    failed: set[tuple[int, tuple[tuple[int, int], ...]]] = set()  # (next piece, the open hexes' units, assets)

    def place(i: int) -> bool:
        if i == len(pieces):
            return True
        key = (i, tuple(_counts(stacks.get(h, [])) for h in open_at[i]))
        if key in failed:
            return False
        for h in options[i]:
            stacks.setdefault(h, []).append(pieces[i])
            if all(fits(CAT, stacks.get(g, [])) for g in settled.get(i, [])) and place(i + 1):
                return True
            stacks[h].pop()
        failed.add(key)
        return False

    return place(0)


def _counts(here: list[int]) -> tuple[int, int]:
    """A stack's units and support assets, all 6.0A-C looks at (its air assets never move here, 8.1A)."""
    units = sum(CAT.is_unit[p] for p in here)
    return units, len(here) - units


def _pocket(rng: random.Random) -> TunisiaState:
    """Two to five Allied units and up to three support assets in a hex, its ring and a few hexes beyond, every
    land hex round the pocket Axis-held: each piece starts in an EZOC and reaches only the pocket's hexes beside
    it, so its moves are few and its hexes often full."""
    grid = BOARD.grid
    centre = at(rng.choice(["7822", "7922", "8022", "7823", "8122"]))
    pocket = {centre, *grid.neighbours(centre)}
    beyond = sorted({n for h in pocket for n in grid.neighbours(h)} - pocket)
    pocket |= set(rng.sample(beyond, rng.randint(0, 3)))
    edge = sorted({n for h in pocket for n in grid.neighbours(h) if n in BOARD.land} - pocket)
    axis = [p for p in CAT.by_side[AXIS] if CAT.ids[p] != KEEPER]
    s = blank(ALLIED)
    for p, h in zip(axis, edge, strict=False):
        s.loc[p] = h
    assert len(edge) <= len(axis)
    hexes = sorted(pocket)
    units = [p for p in CAT.by_side[ALLIED] if CAT.is_unit[p]]
    count = rng.randint(2, 5)
    for p, h in zip(rng.sample(units, count), rng.sample(hexes, count), strict=True):
        s.loc[p] = h
    assets = [p for p in CAT.by_side[ALLIED] if not CAT.is_unit[p] and not CAT.is_air[p]]
    for p in rng.sample(assets, rng.randint(0, 3)):
        h = rng.choice(hexes)
        if fits(CAT, [*(q for q in CAT.by_side[ALLIED] if s.loc[q] == h), p]):
            s.loc[p] = h
    s.reach, s.legal = {}, None
    return s


def test_pockets_list_exactly_the_moves_after_which_the_phase_can_still_end() -> None:
    # Tunisia 6.0D: in random pockets, played at random to the phase's end, a move is listed exactly when it
    # leaves no hex overstacked, or one hex over by one piece, and some moves of the pieces yet to move would then
    # leave every hex within 6.0A-C (found by trying every way the phase could end, not by overstack.py)
    rng = random.Random(11)
    into_full = refused_moves = 0
    for _ in range(40):
        s = _pocket(rng)
        while s.phase == Phase.MOVEMENT:
            legal = R.legal_actions(s)
            assert ("end" in legal) == (not overstacked(CAT, side_stacks(CAT, s, ALLIED)))
            for q in CAT.by_side[ALLIED]:
                if s.loc[q] < 0 or s.moved[q] or CAT.is_air[q]:
                    continue
                for d, action in s.reach[q].by_hex.items():
                    after = s.clone()
                    after.loc[q], after.moved[q] = d, True
                    stacks = side_stacks(CAT, after, ALLIED)
                    over = overstacked(CAT, stacks)
                    by_one = len(over) == 1 and any(
                        fits(CAT, [r for r in stacks[over[0]] if r != p]) for p in stacks[over[0]]
                    )
                    allowed = not over or (by_one and _some_end_is_legal(after))
                    assert (action in legal) == allowed, action
                    into_full += allowed and bool(over)
                    refused_moves += not allowed
            R.apply(s, rng.choice(legal))
    assert into_full > 200 and refused_moves > 200
