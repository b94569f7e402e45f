"""Panzer Saint-Lo 1944's rules, section by section (panzer-saint-lo-1944.txt): setup, the turn, movement,
attacks and their dice, each unit type, swaps, Battle Reports and victory; illegal actions are refused
naming the rule and change nothing."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from saintlo_positions import bare, give, neighbours, place, refused, rules2

import warroom
from warroom.engine.errors import UndoLockedError, WarroomError
from warroom.engine.ruleset import CHANCE
from warroom.games.saintlo import turn
from warroom.games.saintlo.actions import Action
from warroom.games.saintlo.invariants import problems
from warroom.games.saintlo.movement import destinations
from warroom.games.saintlo.odds import ATTACKER, DEFENDER, REROLL, compare, encode, throw_outcomes, win_fraction
from warroom.games.saintlo.state import OFF, Phase


@pytest.fixture(scope="module")
def rules():
    return rules2()


def unit(rules, name: str) -> int:
    return rules.t.unit_index[name]


def labels(rules, hexes) -> set[str]:
    return {rules.t.labels[h] for h in hexes}


# -- 4 setup ------------------------------------------------------------------------------------------------
def test_command_posts_go_on_the_own_colour(rules) -> None:
    # Saint-Lo 4.2: the Allies on the yellow hexes, the Axis on the red, one Command Post a hex
    s = rules.initial_state()
    assert rules.to_act(s) == "Allied" and s.phase == Phase.POSTS
    legal = [a for a in rules.legal_actions(s) if a.startswith("post ")]  # and `ready`: tests/saintlo/test_placement.py
    yellow = labels(rules, rules.t.post_hexes[0])
    assert {Action.from_id(a).subject for a in legal} == yellow
    assert {Action.from_id(a).where for a in legal} == {str(v) for v in rules.t.post_values[0]}  # any value left
    red = rules.t.labels[rules.t.post_hexes[1][0]]
    refused(rules, s, f"post {red} 5", "4")
    rules.apply(s, f"post {rules.t.labels[rules.t.post_hexes[0][0]]} 5")
    assert not any(a.startswith(f"post {rules.t.labels[rules.t.post_hexes[0][0]]} ") for a in rules.legal_actions(s))


def play_setup(rules, s, until: Phase = Phase.DRAW) -> None:
    """Play the setup with the first legal choice until `until`."""
    while s.phase != until:
        rules.apply(s, rules.legal_actions(s)[0], log=False)


def test_deployment_in_the_own_sector_one_unit_a_hex(rules) -> None:
    # Saint-Lo 4.3: own sector, one unit a hex, land units not on rivers or Command Posts; 7.5: Supply on roads
    s = rules.initial_state()
    play_setup(rules, s, Phase.DEPLOY)
    t = rules.t
    by_kind: dict[str, set[str]] = {}
    for a in rules.legal_actions(s):
        if not a.startswith("deploy "):
            continue  # the deployments in bulk: tests/saintlo/test_placement.py
        act = Action.from_id(a)
        by_kind.setdefault(act.subject, set()).add(act.where)
    for kind, hexes in by_kind.items():
        kind_type = t.kinds[t.kind_index[kind]].type
        for label in hexes:
            h = t.hex_of[label]
            assert t.sector[h] == 0
            if kind_type != "aircraft":
                assert t.land_ok[h] and h not in t.all_post_hexes
            if kind_type == "supply":
                assert t.on_road[h]
    assert any(t.board.terrain[t.hex_of[h]] == "river" for h in by_kind["us_p51d"])  # 4.3: aircraft excepted
    refused(rules, s, "deploy de_tiger_i 0303", "own units")
    refused(rules, s, "deploy us_m5 1202", "rivers")  # the Vire at 1202


def test_deployment_of_an_aircraft_over_an_own_land_unit(rules) -> None:
    # Saint-Lo 4.3 with 7.4 "Aircraft can also be placed over a (friendly or enemy) land unit ... Even so, two
    # aircraft units cannot occupy the same hex" (NOTES.md): at setup too, one land unit and one aircraft a hex
    s = rules.initial_state()
    play_setup(rules, s, Phase.DEPLOY)

    def hexes_for(kind: str) -> set[str]:
        return {Action.from_id(a).where for a in rules.legal_actions(s) if a.startswith(f"deploy {kind} ")}

    land = sorted(hexes_for("us_infantry") & hexes_for("us_p51d"))[0]
    rules.apply(s, f"deploy us_infantry {land}")
    assert land in hexes_for("us_p51d") and land not in hexes_for("us_infantry")
    rules.apply(s, f"deploy us_p51d {land}")
    assert land not in hexes_for("us_p51d") and land not in hexes_for("us_p47n")
    refused(rules, s, f"deploy us_p51d {land}")


def test_deployment_face_down_then_revealed(rules) -> None:
    # Saint-Lo 4.3: units placed face down are hidden from the opponent until all are flipped up
    s = rules.initial_state()
    play_setup(rules, s, Phase.DEPLOY)
    while s.active == 0:
        rules.apply(s, rules.legal_actions(s)[0], log=False)
    rules.apply(s, rules.legal_actions(s)[0], log=False)  # the Axis has deployed one
    allied_view, axis_view = rules.observation(s, "Allied"), rules.observation(s, "Axis")
    assert len(allied_view["units"]) == 65 and allied_view["face_down"] == {"axis": 1}
    assert len(axis_view["units"]) == 1 and axis_view["face_down"] == {"allied": 65}
    play_setup(rules, s, Phase.DRAW)
    assert len(rules.observation(s, "Axis")["units"]) == 130  # revealed together
    assert all(s.pos[u] != OFF for u in range(130))  # NOTES.md: every unit is deployed


def test_deal_six_and_dice_for_the_starting_player(rules) -> None:
    # Saint-Lo 4.5: six Battle Reports each; 4: dice decide who starts, a tie rolls again
    s = rules.initial_state()
    play_setup(rules, s, Phase.DRAW)
    for _ in range(12):
        assert rules.to_act(s) == CHANCE and s.phase == Phase.DRAW
        outcomes = rules.chance_outcomes(s)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
        rules.apply_chance(s, outcomes[0][0])
    assert [len(h) for h in s.hands] == [6, 6] and sum(s.deck[0]) == 18
    assert s.phase == Phase.START_ROLL
    rules.apply_chance(s, 4)
    rules.apply_chance(s, 4)
    assert s.phase == Phase.START_ROLL and s.turn == 0  # a tie: again
    rules.apply_chance(s, 2)
    rules.apply_chance(s, 5)
    assert s.turn == 1 and s.active == 1  # the Axis rolled higher
    assert s.phase == Phase.DRAW  # 5.2: its first draw


# -- 5 the turn -----------------------------------------------------------------------------------------------
def test_resupply_one_a_supply_unit_and_a_draw(rules) -> None:
    # Saint-Lo 5.1: 1 Supply for each Supply unit on the board; 5.2: one Battle Report
    s = bare(rules, supplies=(0, 0))
    place(rules, s, "us_gmc_6x6.1", "1001")
    place(rules, s, "us_mack_no.1", "1002")
    place(rules, s, "de_opel_blitz.1", "1402")
    s.active = 1
    turn.end_turn(rules, s, rules_silent())
    assert s.supplies == [2, 0] and s.active == 0 and s.phase == Phase.DRAW
    c = rules.chance_outcomes(s)[0][0]
    rules.apply_chance(s, c)
    assert s.hands[0] == [c]


def rules_silent():
    from warroom.engine.events import SILENT

    return SILENT


def test_hand_limit_discard_the_eighth(rules) -> None:
    # Saint-Lo 5.2: never more than 7; holding 8, discard one before continuing
    s = bare(rules)
    for card in ("ace_of_tanks", "ace_of_tanks", "dug_in", "ambush", "fuel_depot", "fuel_depot", "low_clouds"):
        give(rules, s, 0, card)
    s.phase, s.draw_queue = Phase.DRAW, (0,)
    rules.apply_chance(s, rules.t.card_index[0]["reserve_stocks"])
    assert s.phase == Phase.DISCARD and rules.to_act(s) == "Allied"
    assert "discard ambush" in rules.legal_actions(s)
    refused(rules, s, "move us_m5.1 0303", "discard")
    rules.apply(s, "discard ambush")
    assert len(s.hands[0]) == 7 and s.discard[0][rules.t.card_index[0]["ambush"]] == 1
    assert s.phase == Phase.ACTIONS


def test_a_unit_pays_once_to_move_and_attack_in_either_order(rules) -> None:
    # Saint-Lo 5.3: 1 Supply to use a unit, to move, attack, or both in any order; then flipped face down
    s = bare(rules, supplies=(3, 0))
    m5 = place(rules, s, "us_m5.1", "0303")
    place(rules, s, "de_infantry.1", "0305")
    rules.apply(s, "move us_m5.1 0304")
    assert s.supplies[0] == 2 and s.current == m5 and s.activations == 1
    assert "attack us_m5.1 0305" in rules.legal_actions(s)
    assert not any(a.startswith("move ") for a in rules.legal_actions(s))  # 6.1: once per turn
    rules.apply(s, "attack us_m5.1 0305")
    assert s.supplies[0] == 2  # the same Supply
    rules.apply_chance(s, 6)
    rules.apply_chance(s, 1)
    assert s.pos[unit(rules, "de_infantry.1")] == OFF
    assert s.used[m5] and s.current == OFF  # moved and attacked: flipped
    refused(rules, s, "move us_m5.1 0303", "face down", "5.3")


def test_attack_then_move(rules) -> None:
    # Saint-Lo 5.3: "attack-move"
    s = bare(rules, supplies=(3, 0))
    place(rules, s, "us_m5.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m5.1 0304")
    rules.apply_chance(s, 1)
    rules.apply_chance(s, 6)  # it survives
    assert s.phase == Phase.ACTIONS and s.supplies[0] == 2
    moves = [a for a in rules.legal_actions(s) if a.startswith("move us_m5.1 ")]
    assert moves and "done" in rules.legal_actions(s)
    rules.apply(s, moves[0])
    assert s.supplies[0] == 2 and s.current == OFF


def test_foot_infantry_moves_free_but_pays_to_attack(rules) -> None:
    # Saint-Lo 7.1: foot soldiers pay no Supplies to move; they pay to attack
    s = bare(rules, supplies=(0, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "us_m5.1", "0502")
    place(rules, s, "de_infantry.1", "0305")
    legal = rules.legal_actions(s)
    assert "move us_infantry.1 0304" in legal
    assert not any(a.startswith("move us_m5.1") for a in legal)  # 5.3: no Supply, no motorized move
    refused(rules, s, "move us_m5.1 0503", "Supply", "5.3")
    rules.apply(s, "move us_infantry.1 0304")
    assert s.supplies[0] == 0 and s.current == OFF  # nothing to pay the attack with: finished
    s = bare(rules, supplies=(1, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0305")
    rules.apply(s, "move us_infantry.1 0304")
    assert s.supplies[0] == 1
    rules.apply(s, "attack us_infantry.1 0305")
    assert s.supplies[0] == 0


def test_at_most_ten_units_a_turn(rules) -> None:
    # Saint-Lo 5.3: up to 10 units a turn, then phase 4 with every unit flipped back up
    s = bare(rules, supplies=(20, 0))
    spots = ["0202", "0402", "0602", "0802", "0204", "0404", "0604", "0804", "0206", "0406", "0606"]
    for n, label in enumerate(spots):
        place(rules, s, f"us_m5.{n + 1}" if n < 8 else f"us_infantry.{n - 7}", label)
    for n in range(10):
        mover = f"us_m5.{n + 1}" if n < 8 else f"us_infantry.{n - 7}"
        move = next(a for a in rules.legal_actions(s) if a.startswith(f"move {mover} "))
        rules.apply(s, move)
        assert problems(rules, s) == []
    assert s.phase == Phase.REORGANIZE and s.activations == 10
    assert not any(s.used)  # 5.3: flipped back up before phase 4
    refused(rules, s, "move us_infantry.3 0207", "5.4")


# -- 6.1 movement ------------------------------------------------------------------------------------------
def test_mobility_counts_hexes(rules) -> None:
    # Saint-Lo 6.1 f6: an infantry of mobility 2 reaches every hex within 2
    s = bare(rules)
    u = place(rules, s, "us_infantry.1", "0404")
    t = rules.t
    reach = destinations(t, s, u)
    assert set(reach) == {h for h in range(t.n_hexes) if 0 < t.distance[t.hex_of["0404"]][h] <= 2}


def test_through_friends_not_enemies_never_onto_a_unit(rules) -> None:
    # Saint-Lo 6.1 f7, f8: through friendly land units, not enemy ones; never ending on a land unit
    s = bare(rules)
    u = place(rules, s, "us_infantry.1", "0404")
    ring = neighbours(rules, "0404")
    for label in ring:
        place(rules, s, "us_m5." + str(ring.index(label) + 1), label)
    reach = labels(rules, destinations(rules.t, s, u))
    assert reach and not reach & set(ring)  # jumped over the friends, never onto them
    s = bare(rules)
    u = place(rules, s, "us_infantry.1", "0404")
    for n, label in enumerate(ring):
        place(rules, s, f"de_infantry.{n + 1}", label)
    assert destinations(rules.t, s, u) == []  # 6.1 f8: surrounded by enemies


def test_command_posts_block_the_end_of_a_move(rules) -> None:
    # Saint-Lo 6.1: no land unit enters a Command Post's hex; enemy posts are not passed (NOTES.md)
    s = bare(rules)
    post = rules.t.labels[s.post_hex[0]]
    near = neighbours(rules, post)[0]
    u = place(rules, s, "us_m5.1", near)
    assert post not in labels(rules, destinations(rules.t, s, u))
    v = place(rules, s, "de_sdkfz_251.1", neighbours(rules, post)[3])
    assert post not in labels(rules, destinations(rules.t, s, v))


def test_rivers_only_at_bridges(rules) -> None:
    # Saint-Lo 6.1 f9: land units cross rivers only by the bridges
    s = bare(rules)
    u = place(rules, s, "us_infantry.1", "1102")
    reach = labels(rules, destinations(rules.t, s, u))
    t = rules.t
    assert not any(t.board.terrain[t.hex_of[h]] == "river" for h in reach)
    assert "1302" not in reach and t.distance[t.hex_of["1102"]][t.hex_of["1302"]] == 2
    refused(rules, s, "move us_infantry.1 1202", "rivers", "6.1")


def test_supply_units_move_along_roads(rules) -> None:
    # Saint-Lo 7.5: Supply units move only along roads and bridges
    s = bare(rules)
    u = place(rules, s, "us_gmc_6x6.1", "1001")
    reach = destinations(rules.t, s, u)
    assert reach and all(rules.t.on_road[h] for h in reach)
    assert "1102" not in labels(rules, reach)
    refused(rules, s, "move us_gmc_6x6.1 1102", "roads", "7.5")


# -- 6.2 attack and its dice --------------------------------------------------------------------------------
def test_dice_compare_as_the_figures_show() -> None:
    # Saint-Lo 6.2 f11-f14: highest against highest, a tie passes to the next pair, more dice prevail,
    # a full tie re-rolls
    assert compare((5,), (3,)) == ATTACKER
    assert compare((3,), (5,)) == DEFENDER
    assert compare((5, 4), (5, 2)) == ATTACKER
    assert compare((5, 2), (5, 4)) == DEFENDER
    assert compare((5, 4), (5,)) == ATTACKER
    assert compare((5,), (5, 1)) == DEFENDER
    assert compare((6, 3), (6, 3)) == REROLL


def test_throw_outcomes_are_exact() -> None:
    # Saint-Lo 6.2: a throw of n dice, its multisets with their exact chances
    for n in (1, 2, 3):
        outcomes = throw_outcomes(n)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
        counted: dict[int, int] = {}
        for dice in itertools.product(range(1, 7), repeat=n):
            counted[encode(dice)] = counted.get(encode(dice), 0) + 1
        assert {o: round(p * 6**n) for o, p in outcomes} == counted


@pytest.mark.parametrize(("a", "d"), [(1, 1), (1, 2), (2, 1), (2, 2), (3, 2), (2, 3), (1, 3), (3, 3)])
def test_exact_odds_match_brute_force(a: int, d: int) -> None:
    # Saint-Lo 6.2: the attack's odds, re-rolls included, against every throw enumerated
    win = lose = 0
    for att in itertools.product(range(1, 7), repeat=a):
        for dfn in itertools.product(range(1, 7), repeat=d):
            verdict = compare(tuple(sorted(att, reverse=True)), tuple(sorted(dfn, reverse=True)))
            win += verdict == ATTACKER
            lose += verdict == DEFENDER
    assert win_fraction(a, d) == Fraction(win, win + lose)
    assert win_fraction(1, 1) == Fraction(1, 2)


def test_attack_rolls_as_chance_nodes(rules) -> None:
    # Saint-Lo 6.2 f10-f12: the attacker rolls its attack, the defender its defence; the highest pair decides
    s = bare(rules, supplies=(3, 0))
    place(rules, s, "us_m4a1_76w.1", "0303")  # attack 4
    target = place(rules, s, "de_panzer_iii_l.1", "0304")  # defence 3
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    assert rules.to_act(s) == CHANCE and len(str(rules.chance_outcomes(s)[0][0])) == 4
    rules.apply_chance(s, 6431)
    assert s.phase == Phase.DEFENSE_ROLL and len(str(rules.chance_outcomes(s)[0][0])) == 3
    rules.apply_chance(s, 653)  # 6 ties 6, then 4 against 5: the defender survives
    assert s.pos[target] != OFF and s.phase == Phase.ACTIONS
    refused(rules, s, "attack us_m4a1_76w.1 0304", "attacked")  # 5.3: one attack a unit


def test_more_dice_prevail_and_full_ties_reroll(rules) -> None:
    # Saint-Lo 6.2 f14: all compared pairs tie, the side with more dice prevails; equal dice re-roll
    s = bare(rules, supplies=(3, 0))
    place(rules, s, "us_m4a1_76w.1", "0303")  # attack 4
    target = place(rules, s, "de_panzer_iii_l.1", "0304")  # defence 3
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    rules.apply_chance(s, 6431)
    rules.apply_chance(s, 643)
    assert s.pos[target] == OFF  # 6-4-3 tie 6-4-3; the attacker's fourth die prevails
    s = bare(rules, supplies=(3, 0))
    place(rules, s, "us_infantry.1", "0303")
    target = place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_infantry.1 0304")
    rules.apply_chance(s, 4)
    rules.apply_chance(s, 4)
    assert s.phase == Phase.ATTACK_ROLL and s.pos[target] != OFF  # a full tie: again
    rules.apply_chance(s, 2)
    rules.apply_chance(s, 5)
    assert s.pos[target] != OFF and s.phase in (Phase.ACTIONS, Phase.REORGANIZE)


def test_attack_needs_an_adjacent_enemy(rules) -> None:
    # Saint-Lo 6.2: "When two opposing units occupy adjacent hexes, the active player may attack"
    s = bare(rules)
    place(rules, s, "us_m5.1", "0303")
    place(rules, s, "de_infantry.1", "0305")
    place(rules, s, "us_infantry.1", "0304")
    assert not any(a.startswith("attack us_m5.1") for a in rules.legal_actions(s))
    assert "attack us_infantry.1 0305" in rules.legal_actions(s)
    refused(rules, s, "attack us_m5.1 0305", "adjacent", "6.2")
    refused(rules, s, "attack us_m5.1 0304", "6.2")  # a friend


def test_destroying_command_posts_wins(rules) -> None:
    # Saint-Lo 2.4, 3: a destroyed Command Post never returns; four destroyed win the game
    s = bare(rules, supplies=(3, 0))
    post_index = 8 + rules.t.post_values[1].index(2)
    post = rules.t.labels[s.post_hex[post_index]]
    place(rules, s, "us_m4a1_76w.1", neighbours(rules, post)[0])
    s.lost_posts[1] = 3
    for p in range(8, 11):
        if p != post_index:
            s.post_at[s.post_hex[p]] = OFF
            s.post_hex[p] = -2
    if post_index < 11:
        s.post_at[s.post_hex[11]] = OFF
        s.post_hex[11] = -2
    assert problems(rules, s) == []
    rules.apply(s, f"attack us_m4a1_76w.1 {post}")
    rules.apply_chance(s, 6666)
    rules.apply_chance(s, 11)
    assert s.phase == Phase.OVER and rules.to_act(s) is None
    result = rules.result(s)
    assert result is not None and result.winner == "Allied" and result.returns == {"Allied": 1.0, "Axis": -1.0}
    assert result.rule == "Saint-Lo 3"


@pytest.mark.parametrize("objective", [6, 8])
def test_longer_objectives(rules, objective: int) -> None:
    # Saint-Lo 3: "the game objective be to destroy 6 or all 8 Command Posts"
    s = bare(rules, supplies=(3, 0), objective=objective)
    post = rules.t.labels[s.post_hex[8]]
    place(rules, s, "us_m4a1_76w.1", neighbours(rules, post)[0])
    s.lost_posts[1] = 3
    rules.apply(s, f"attack us_m4a1_76w.1 {post}")
    rules.apply_chance(s, 6666)
    rules.apply_chance(s, int("1" * rules.t.post_values[1][0]))
    assert s.phase != Phase.OVER and s.lost_posts[1] == 4
    assert rules.t.labels[s.post_hex[8]] != post if s.post_hex[8] >= 0 else True
    assert post not in labels(rules, [h for h in s.post_at if h != OFF])


def test_options_are_checked(rules) -> None:
    # Saint-Lo 3: 4, 6 or 8 Command Posts
    for options in ({"objective": 5}, {"objective": 4.0}, {"objective": True}, {"turn_limit": -1}, {"speed": 2}):
        with pytest.raises(WarroomError):
            rules.initial_state(None, options)


def test_turn_limit_ends_in_a_draw(rules) -> None:
    # NOTES.md: an optional turn limit for simulations ends the game drawn
    s = bare(rules, turn_limit=1)
    s.turn = 2
    turn.end_turn(rules, s, rules_silent())
    result = rules.result(s)
    assert result is not None and result.winner is None and result.returns == {"Allied": 0.0, "Axis": 0.0}


# -- 7 units ---------------------------------------------------------------------------------------------
def test_infantry_and_tanks_cannot_attack_aircraft(rules) -> None:
    # Saint-Lo 7.1, 7.2: infantry and tank units cannot attack aircraft
    s = bare(rules)
    place(rules, s, "us_m5.1", "0303")
    place(rules, s, "us_m4a1_76w.1", "0403")
    place(rules, s, "de_bf109_f2.1", "0304")
    assert not any(a.startswith("attack") for a in rules.legal_actions(s))
    refused(rules, s, "attack us_m5.1 0304", "aircraft", "7.1")


def test_artillery_support_by_range_one_supply_each_not_flipped(rules) -> None:
    # Saint-Lo 7.3 f18: artillery in range of the target adds its attack, 1 Supply each, and is not flipped
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    art = place(rules, s, "us_m2a1.1", "0603")  # range 3 to 0304
    place(rules, s, "us_m2a1.2", "1008")  # out of range
    assert rules.t.distance[rules.t.hex_of["0603"]][rules.t.hex_of["0304"]] <= 3
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.phase == Phase.SUPPORT and s.supplies[0] == 4
    assert rules.legal_actions(s)[:2] == ["support us_m2a1.1", "fire"]
    refused(rules, s, "support us_m2a1.2", "range", "7.3")
    rules.apply(s, "support us_m2a1.1")
    assert s.supplies[0] == 3 and rules.to_act(s) == CHANCE
    assert len(str(rules.chance_outcomes(s)[0][0])) == 2  # 1 + 1 dice (f18: "the resulting attack value is 2")
    rules.apply_chance(s, 11)
    rules.apply_chance(s, 6)
    assert not s.used[art]
    rules.apply(s, "done")
    place(rules, s, "us_infantry.2", "0505")
    place(rules, s, "de_infantry.2", "0506")
    s.legal = None
    rules.apply(s, "attack us_infantry.2 0506")
    assert "support us_m2a1.1" in rules.legal_actions(s)  # called again in the same turn


def test_artillery_cannot_attack_and_is_flipped_when_it_moves(rules) -> None:
    # Saint-Lo 7.3: no attack by itself; flipped face down only if it moves
    s = bare(rules, supplies=(5, 0))
    art = place(rules, s, "us_m2a1.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    assert not any(a.startswith("attack us_m2a1") for a in rules.legal_actions(s))
    refused(rules, s, "attack us_m2a1.1 0304", "artillery", "7.3")
    rules.apply(s, "move us_m2a1.1 0302")
    assert s.used[art]
    place(rules, s, "us_infantry.1", "0404")
    place(rules, s, "de_infantry.2", "0405")
    rules.apply(s, "attack us_infantry.1 0405")
    assert s.phase != Phase.SUPPORT  # a flipped artillery unit is not called


def test_aircraft_fly_over_anything_one_a_hex(rules) -> None:
    # Saint-Lo 7.4 f19: aircraft move freely, over land units of any army and Command Posts, never two in a hex
    s = bare(rules)
    u = place(rules, s, "us_p51d.1", "0505")
    place(rules, s, "us_p51d.2", "0506")
    place(rules, s, "de_infantry.1", "0504")
    reach = labels(rules, destinations(rules.t, s, u))
    assert "0504" in reach and "0506" not in reach
    assert rules.t.labels[s.post_hex[0]] in reach or rules.t.distance[rules.t.hex_of["0505"]][s.post_hex[0]] > 9
    assert rules.t.board.terrain[rules.t.hex_of["1202"]] == "river" and "1202" in reach  # the Vire, 7 hexes off


def test_air_to_air_adjacent_air_to_ground_same_hex_no_command_posts(rules) -> None:
    # Saint-Lo 7.4 f21, f22: air against air in adjacent hexes (upper value), against land in the same hex (lower)
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_b17b.1", "0505")  # 1 air / 5 land
    place(rules, s, "de_bf109_f2.1", "0506")
    place(rules, s, "de_infantry.1", "0505")
    place(rules, s, "de_infantry.2", "0504")
    legal = rules.legal_actions(s)
    assert "attack us_b17b.1 0506" in legal and "attack us_b17b.1 0505" in legal
    assert "attack us_b17b.1 0504" not in legal
    rules.apply(s, "attack us_b17b.1 0505")
    assert rules.to_act(s) == CHANCE and len(str(rules.chance_outcomes(s)[0][0])) == 5  # land attack 5, no support
    s = bare(rules, supplies=(5, 0))
    post = rules.t.labels[s.post_hex[8]]
    place(rules, s, "us_b17b.1", post)
    assert not any(a.startswith("attack") for a in rules.legal_actions(s))
    refused(rules, s, f"attack us_b17b.1 {post}", "Command Posts", "7.4")


def test_aircraft_take_no_artillery_support(rules) -> None:
    # Saint-Lo 7.4: aircraft cannot use artillery support
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_p47n.1", "0505")
    place(rules, s, "de_infantry.1", "0505")
    place(rules, s, "us_m2a1.1", "0504")
    rules.apply(s, "attack us_p47n.1 0505")
    assert rules.to_act(s) == CHANCE


# -- 5.4 and 8: reorganization --------------------------------------------------------------------------
def reorganizing(rules, supplies: int = 0):
    s = bare(rules, supplies=(supplies, 0))
    s.phase = Phase.REORGANIZE
    return s


def test_swap_nine_and_eighteen(rules) -> None:
    # Saint-Lo 8: a unit of cost 9 gives 4 Supplies; two of cost 9 give half of 18, 9
    s = reorganizing(rules)
    place(rules, s, "us_m7_priest.1", "0303")
    place(rules, s, "us_m7_priest.2", "0305")
    assert rules.t.cost[unit(rules, "us_m7_priest.1")] == 9
    rules.apply(s, "swap us_m7_priest.1")
    assert s.supplies[0] == 4
    rules.apply(s, "swap us_m7_priest.2")
    assert s.supplies[0] == 9
    assert s.pos[unit(rules, "us_m7_priest.1")] == OFF


def test_supply_units_cannot_be_swapped(rules) -> None:
    # Saint-Lo 8: "Supply units cannot be deactivated for Supplies"
    s = reorganizing(rules)
    place(rules, s, "us_gmc_6x6.1", "1001")
    assert "swap us_gmc_6x6.1" not in rules.legal_actions(s)
    refused(rules, s, "swap us_gmc_6x6.1", "Supply units", "8")


def test_buy_next_to_an_own_command_post_at_full_cost(rules) -> None:
    # Saint-Lo 5.4: units not in play bought at their cost, entering next to an own Command Post; 8: re-bought in full
    s = reorganizing(rules, supplies=4)
    place(rules, s, "us_m5.1", "0303")
    rules.apply(s, "swap us_m5.1")
    assert s.supplies[0] == 6
    buys = [Action.from_id(a) for a in rules.legal_actions(s) if a.startswith("buy ")]
    entry = set().union(*(neighbours(rules, rules.t.labels[s.post_hex[k]]) for k in range(8)))
    assert buys and all(b.where in entry for b in buys)
    assert "us_m5" in {b.subject for b in buys}
    assert all(rules.t.kinds[rules.t.kind_index[b.subject]].cost <= 6 for b in buys)
    assert "buy us_m5 0303" not in rules.legal_actions(s)
    rules.apply(s, f"buy us_m5 {buys[0].where}")
    assert s.supplies[0] == 2 and s.pos[unit(rules, "us_m5.1")] == rules.t.hex_of[buys[0].where]
    refused(rules, s, "buy us_infantry 0303", "5.4")


def test_end_of_turn_passes_to_the_other_army(rules) -> None:
    # Saint-Lo 5: the turn ends after Reorganization; the other player's turn begins with 5.1
    s = reorganizing(rules)
    rules.apply(s, "end")
    assert s.active == 1 and s.turn == 2 and s.phase == Phase.DRAW


# -- 9 Battle Reports --------------------------------------------------------------------------------------
def test_ace_of_tanks(rules) -> None:
    # Saint-Lo 9: "The selected tank unit increases its attack by 2, until the end of the turn"
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ace_of_tanks")
    place(rules, s, "us_m4a1_76w.1", "0303")  # attack 4
    place(rules, s, "us_m5.1", "0502")
    place(rules, s, "de_infantry.1", "0304")
    legal = rules.legal_actions(s)
    assert "play ace_of_tanks us_m4a1_76w.1" in legal and "play ace_of_tanks us_m5.1" not in legal
    refused(rules, s, "play ace_of_tanks us_m5.1", "9")
    rules.apply(s, "play ace_of_tanks us_m4a1_76w.1")
    assert s.hands[0] == [] and s.discard[0][0] == 1
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    assert len(str(rules.chance_outcomes(s)[0][0])) == 6  # 4 + 2
    rules.apply_chance(s, 111111)
    rules.apply_chance(s, 6)
    from warroom.games.saintlo.effects import stat
    from warroom.games.saintlo.tables import ATTACK_STAT

    tank = unit(rules, "us_m4a1_76w.1")
    assert stat(rules.t, s, tank, ATTACK_STAT) == 6
    turn.end_turn(rules, s, rules_silent())
    assert s.effects == () and stat(rules.t, s, tank, ATTACK_STAT) == 4  # the unit returns to its original condition


def test_the_window_is_offered_to_the_defender_with_a_playable_card(rules) -> None:
    # Saint-Lo 9: Battle Reports are played at any moment, the opponent's turn included
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "dug_in")
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis"
    assert rules.legal_actions(s) == ["play dug_in de_infantry.1", "pass"]
    rules.apply(s, "play dug_in de_infantry.1")
    assert rules.to_act(s) == CHANCE  # nothing left to play; the Allies hold nothing: the dice
    rules.apply_chance(s, 6666)
    assert len(str(rules.chance_outcomes(s)[0][0])) == 3  # defence 1 + 2


def test_the_window_opens_on_what_both_sides_know_not_on_the_hand(rules) -> None:
    # Saint-Lo 4.5, 9: a hand is held "without showing" it, so the window opens whether or not the card held
    # is playable; a seat with nothing playable may only pass. An empty hand is public: no window.
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "low_clouds")  # no Allied aircraft on the board: nothing to act on
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis"
    assert rules.legal_actions(s) == ["pass"]
    rules.apply(s, "pass")
    assert rules.to_act(s) == CHANCE  # no card played: no answer round
    empty = bare(rules, supplies=(5, 0))
    place(rules, empty, "us_m4a1_76w.1", "0303")
    place(rules, empty, "de_infantry.1", "0304")
    rules.apply(empty, "attack us_m4a1_76w.1 0304")
    assert rules.to_act(empty) == CHANCE


def test_no_window_when_every_unseen_card_is_unplayable(rules) -> None:
    # Saint-Lo 9: the discard pile is public; when every card of the deck not on it is one that could not be
    # played now, all can tell the hand holds nothing playable, and no window opens
    def attacked(aircraft: bool):
        s = bare(rules, supplies=(5, 0))
        give(rules, s, 1, "low_clouds")
        low_clouds = rules.t.card_index[1]["low_clouds"]
        for c, copies in enumerate(rules.t.deck_counts[1]):
            if c != low_clouds:  # every other card is on the discard pile, as if played earlier
                s.discard[1][c], s.deck[1][c] = copies, 0
        place(rules, s, "us_m4a1_76w.1", "0303")
        place(rules, s, "de_infantry.1", "0304")
        if aircraft:
            place(rules, s, "us_p51d.1", "0505")  # an Allied aircraft: Low Clouds could act on it now
        rules.apply(s, "attack us_m4a1_76w.1 0304")
        return s

    assert rules.to_act(attacked(False)) == CHANCE
    s = attacked(True)
    assert rules.to_act(s) == "Axis" and rules.legal_actions(s) == ["play low_clouds", "pass"]


def test_low_clouds_ground_enemy_aircraft_in_their_turn(rules) -> None:
    # Saint-Lo 9: a general event played in the opponent's turn removes an attribute of its units
    s = bare(rules, supplies=(5, 5))
    give(rules, s, 1, "low_clouds")
    place(rules, s, "us_p51d.1", "0505")
    s.phase, s.draw_queue = Phase.DRAW, (0,)
    rules.apply_chance(s, rules.t.card_index[0]["fuel_depot"])
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis"  # at the start of the Allied phase 3
    rules.apply(s, "play low_clouds")
    assert rules.to_act(s) == "Allied" and not any(a.startswith("move us_p51d") for a in rules.legal_actions(s))
    rules.apply(s, "play fuel_depot")
    assert s.supplies[0] == 7


def test_the_deck_is_reshuffled_when_exhausted(rules) -> None:
    # Saint-Lo 9: "If at any point the Battle Reports deck is exhausted, reshuffle the discard pile"
    s = bare(rules)
    s.discard[0], s.deck[0] = s.deck[0], [0] * len(s.deck[0])
    s.phase, s.draw_queue = Phase.DRAW, (0,)
    turn.next_draw(rules, s, rules_silent())
    assert sum(s.deck[0]) == 24 and sum(s.discard[0]) == 0 and rules.to_act(s) == CHANCE


# -- the contract ------------------------------------------------------------------------------------------
def test_illegal_actions_name_the_rule_and_change_nothing(rules) -> None:
    # Saint-Lo 5.3, 6.1, 6.2: refusals name the rule; the position is untouched
    s = bare(rules, supplies=(0, 0))
    place(rules, s, "us_m5.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    refused(rules, s, "nonsense", "not a Saint-Lo action")
    refused(rules, s, "move de_infantry.1 0305", "enemy", "5.3")
    refused(rules, s, "attack us_m5.1 0304", "Supply", "5.3")
    refused(rules, s, "swap us_m5.1", "Reorganization")
    refused(rules, s, "move us_zz.1 0305", "no unit")


def test_observation_hides_hands_and_decks(rules) -> None:
    # Saint-Lo 4.5, 9: a hand is its owner's; the deck is face down
    s = bare(rules)
    give(rules, s, 0, "ace_of_tanks")
    give(rules, s, 1, "dug_in")
    allied = rules.observation(s, "Allied")
    assert allied["hands"] == {"Allied": ["ace_of_tanks"], "Axis": 1}
    assert allied["deck"] == {"allied": 23, "axis": 23}
    assert "dug_in" not in json.dumps(allied["hands"])
    full = rules.observation(s, None)
    assert full["hands"]["Axis"] == ["dug_in"]


def test_positions_round_trip(rules) -> None:
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "dug_in")
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    data = rules.state_to_json(s)
    again = rules.state_from_json(json.loads(json.dumps(data)))
    assert rules.state_to_json(again) == data
    assert rules.legal_actions(again) == rules.legal_actions(s)


def test_action_ids_round_trip(rules) -> None:
    for text in (
        "post 1411 5",
        "deploy us_m5 0304",
        "move us_m5.3 0506",
        "attack us_m5.3 0607",
        "support us_m2a1.1",
        "fire",
        "agree",
        "refuse",
        "done",
        "end",
        "play ace_of_tanks de_tiger_i.1",
        "play fuel_depot",
        "pass",
        "discard dug_in",
        "buy us_m5 0305",
        "swap us_m5.3",
    ):
        assert Action.from_id(text).id == text


def test_room_is_kept_for_the_supply_units(rules) -> None:
    # Saint-Lo 4.3 with 7.5 (NOTES.md): a placement that would leave a Supply unit no road hex is refused
    s = rules.initial_state()
    play_setup(rules, s, Phase.DEPLOY)
    t = rules.t
    roads = [h for h in t.sector_land[0] if t.on_road[h]]
    counters = [t.unit_ids[u].rsplit(".", 1)[0] for u in t.army_units[0] if t.unit_type[u] not in (3, 4)]
    for kind, h in zip(counters, roads[: len(roads) - 10], strict=False):
        rules.apply(s, f"deploy {kind} {t.labels[h]}")
    free_roads = labels(rules, [h for h in roads if s.land_at[h] == OFF])
    assert len(free_roads) == 10  # just the room the ten Supply units need
    others = [
        Action.from_id(a)
        for a in rules.legal_actions(s)
        if a.startswith("deploy ") and not a.startswith(("deploy us_gmc", "deploy us_mack"))
    ]
    assert others and not any(
        a.where in free_roads for a in others if t.kinds[t.kind_index[a.subject]].type != "aircraft"
    )
    supply_hexes = {Action.from_id(a).where for a in rules.legal_actions(s) if a.startswith("deploy us_gmc")}
    assert supply_hexes == free_roads


def test_combat_engineers_cross_but_do_not_stop_on_a_river(rules) -> None:
    # Saint-Lo 9 (Combat Engineers, reconstructed): the unit may cross rivers without a bridge
    s = bare(rules, supplies=(3, 0))
    give(rules, s, 0, "combat_engineers")
    u = place(rules, s, "us_m5.1", "1102")
    assert "1302" not in labels(rules, destinations(rules.t, s, u))
    rules.apply(s, "play combat_engineers us_m5.1")
    reach = labels(rules, destinations(rules.t, s, u))
    assert "1302" in reach and "1202" not in reach


def test_a_bad_position_is_refused(rules) -> None:
    # Saint-Lo 4.3, 5.3: a saved position that breaks the rules is not loaded
    from warroom.engine.errors import PositionError

    s = bare(rules)
    place(rules, s, "us_m5.1", "0303")
    data = rules.state_to_json(s)
    broken = json.loads(json.dumps(data))
    broken["units"]["us_m5.2"] = {"hex": "0303", "used": False}
    with pytest.raises(PositionError):
        rules.state_from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["supplies"]["allied"] = -1
    with pytest.raises(PositionError):
        rules.state_from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["deck"]["allied"]["ace_of_tanks"] = 5
    with pytest.raises(PositionError):
        rules.state_from_json(broken)


def test_draws_are_seen_by_the_drawer_only(rules) -> None:
    # Saint-Lo 4.5: "takes 6 Battle Reports ... to his hand without showing them"
    s = bare(rules)
    s.phase, s.draw_queue = Phase.DRAW, (0,)
    events = rules.apply_chance(s, rules.t.card_index[0]["dug_in"])
    named = [e for e in events if "Hedgerow Position" in e["text"]]
    assert named and all(e["visible_to"] == ["Allied"] for e in named)


def test_manual_dice_take_the_faces_thrown(rules) -> None:
    # Saint-Lo 6.2 at the table: the dice are typed in as thrown, highest first
    from warroom import Match
    from warroom.engine.dice import make_dice

    s = bare(rules, supplies=(3, 0))
    place(rules, s, "us_m4a1_76w.1", "0303")
    target = place(rules, s, "de_infantry.1", "0304")
    match = Match(rules, s, dice=make_dice("manual", 1))
    match.play("attack us_m4a1_76w.1 0304")
    assert match.to_act == "dice" and "roll 6543" in match.legal_actions()
    match.play("roll 6543")
    match.play("roll 6")
    assert match.state.pos[target] == OFF  # 6 ties 6; then the attacker, with more dice, prevails


def test_attack_odds_count_the_dice_thrown(rules) -> None:
    # Saint-Lo 6.2, 7.3: the odds of an attack as declared, and with its support
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    place(rules, s, "us_m2a1.1", "0603")
    assert rules.attack_odds(s, "attack us_infantry.1 0304") == pytest.approx(0.5)
    assert rules.attack_odds(s, "move us_infantry.1 0302") is None
    rules.apply(s, "attack us_infantry.1 0304")
    rules.apply(s, "support us_m2a1.1")
    assert s.phase != Phase.SUPPORT
    s.phase = Phase.SUPPORT
    assert rules.attack_odds(s, "fire") == pytest.approx(float(win_fraction(2, 1)))


def test_legal_counts_through_the_setup(rules) -> None:
    # Saint-Lo 4.2, 4.3 (perft-like, STYLE.md): the number of choices at each setup step, taking the first
    # Command Post choice and the last single deployment, so a rules change that adds or loses one fails; the
    # decisions in bulk (placement.py) are counted apart: `ready` at every step, `sector NAME` where all fit
    s = rules.initial_state()
    posts = []
    while s.phase == Phase.POSTS:
        legal = rules.legal_actions(s)
        assert legal[-1] == "ready"
        posts.append(len(legal) - 1)
        rules.apply(s, legal[0], log=False)
    assert posts == [40, 35, 24, 15, 12, 6, 4, 1] * 2  # 8 hexes x 5 values (2, 2, 3, 4, 4, 5, 5, 6), ...
    deploys, bulk = [], []
    for _ in range(130):
        legal = rules.legal_actions(s)
        singles = [a for a in legal if a.startswith("deploy ")]
        deploys.append(len(singles))
        bulk.append(len(legal) - len(singles))
        rules.apply(s, singles[-1], log=False)
    assert (deploys[0], deploys[64], deploys[65], deploys[129], sum(deploys)) == (2528, 115, 2632, 123, 149883)
    assert bulk == [3] * 130  # `ready` and both halves: the last single deployment never fills a half


def test_a_defence_brought_to_zero_throws_no_dice(rules) -> None:
    # Saint-Lo 6.2 f14 with 9 (Ambush, reconstructed): a defender with no dice; the attacker has more and prevails
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ambush")
    place(rules, s, "us_infantry.1", "0303")
    target = place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "play ambush de_infantry.1")
    rules.apply(s, "attack us_infantry.1 0304")
    rules.apply_chance(s, 1)
    assert s.pos[target] == OFF and s.phase != Phase.DEFENSE_ROLL


def test_low_clouds_in_the_window_call_an_air_attack_off(rules) -> None:
    # Saint-Lo 9 (Low Clouds, reconstructed) and NOTES.md: a card forbidding the attack, played before the dice
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "low_clouds")
    bomber = place(rules, s, "us_b17b.1", "0505")
    target = place(rules, s, "de_infantry.1", "0505")
    rules.apply(s, "attack us_b17b.1 0505")
    assert rules.to_act(s) == "Axis"
    rules.apply(s, "play low_clouds")
    assert s.phase == Phase.ACTIONS and s.pos[target] != OFF and s.supplies[0] == 4
    assert s.used[bomber] or s.current == bomber


# -- 4.3: a counter placed stays --------------------------------------------------------------------------------
def _at_the_first_deployment(game: str = "saintlo") -> tuple[warroom.Match, str, str]:
    """A game at its first deployment decision (the posts placed), the kind deployed first and a second hex."""
    m = warroom.new_game(game, seed=1)
    while not any(a.startswith("deploy ") for a in m.legal_actions()):
        m.play(m.legal_actions()[0])
    first = next(a for a in m.legal_actions() if a.startswith("deploy "))
    kind = first.split()[1]
    other = next(a for a in m.legal_actions() if a.startswith(f"deploy {kind} ") and a != first)
    return m, first, other


def test_a_deployed_counter_cannot_be_taken_back_to_be_placed_elsewhere() -> None:
    # Saint-Lo 4.3: "Once a counter is placed in the board, it cannot be moved to another hex" (issue 38, 9:
    # `deploy us_infantry 0101`, undo, `deploy us_infantry 0107` moved it)
    m, first, _ = _at_the_first_deployment()
    assert m.can_undo  # the Command Posts' placement may still be taken back (NOTES.md: 4.2 is not 4.3)
    m.play(first)
    assert not m.can_undo
    before = m.record().to_json()
    with pytest.raises(UndoLockedError, match="final"):
        m.undo()
    assert m.record().to_json() == before  # the refusal changed nothing
    # a saved game keeps the lock: loaded, it still cannot be taken back
    assert not warroom.load(m.record()).can_undo


def test_the_protocol_refuses_to_take_a_deployment_back() -> None:
    # Saint-Lo 4.3 over the engine protocol, as a script would try it
    from warroom.protocol import ProtocolSession

    m, first, _ = _at_the_first_deployment()
    session = ProtocolSession()
    assert session.handle({"cmd": "new", "game": "saintlo", "seed": 1})["ok"]
    for action in m.actions:
        assert session.handle({"cmd": "play", "action": action})["ok"]
    assert session.handle({"cmd": "play", "action": first})["ok"]
    refused = session.handle({"cmd": "undo"})
    assert not refused["ok"] and refused["error"]["code"] == "undo_locked"
