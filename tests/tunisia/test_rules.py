"""Tunisia's rules, section by section: each test cites the rule it checks (`# Tunisia 8.3`) and builds its
position in the open desert of the south-west (columns 77-83, rows 21-25: open ground, no road, river or
village), far from everything else, unless the rule needs a place of the map."""

from __future__ import annotations

import random

import pytest
from tunisia_positions import BOARD, CAT, KEEPER, R, at, battle, blank, end_of_allied_turn, loc, put, refused

from warroom.engine.errors import WarroomError
from warroom.engine.events import SILENT as R_SILENT
from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.combat import attack_modifier, succeeds
from warroom.games.tunisia.movement import compute_reach, enemy_occupied
from warroom.games.tunisia.rules import D6, D12
from warroom.games.tunisia.sequence import SEQUENCE_OF_PLAY
from warroom.games.tunisia.setup import setup_problems
from warroom.games.tunisia.state import DEAD, OFF_MAP, REMOVED, RETURN_TO_BASE, Phase, TunisiaState
from warroom.games.tunisia.zoc import enemy_zoc


# -- 5.0 Setup, 7.0 Turn Sequence ------------------------------------------------------------------------
def test_default_setup_obeys_5_1_and_5_2() -> None:
    # Tunisia 5.1, 5.2: every piece in its zone, the fixed hexes, one II Corps unit a II Corps hex
    s = R.initial_state()
    assert setup_problems(CAT, s) == []
    assert loc(s, "Broich") == at("8306") and loc(s, "1st-Para") == at("7607")  # 5.2B, 5.1B
    assert {loc(s, p) for p in ("La-Spezia", "Marines", "Messe")} == {at("8519")}  # 5.2B
    assert loc(s, "Patton") == OFF_MAP and loc(s, "CCA**") == OFF_MAP  # 5.1A: they come with Patton
    broken = s.clone()
    broken.loc[CAT.index["Broich"]] = at("8407")
    assert any("Broich" in p and "5.2" in p for p in setup_problems(CAT, broken))
    broken = s.clone()
    broken.loc[CAT.index["CCA"]] = OFF_MAP
    assert any("5.1C" in p for p in setup_problems(CAT, broken))


def test_free_setup_places_every_piece_where_5_1_and_5_2_allow() -> None:
    # Tunisia 5.1-5.2: the Allies set up first, then the Axis; the fixed hexes, the zones, one air asset a
    # silhouette, a II Corps unit in every II Corps hex, 6.0's stacking
    for seed in range(4):
        rng = random.Random(seed)
        s = R.initial_state(None, {"allied_setup": "free", "axis_setup": "free"})
        assert s.phase == Phase.SETUP and R.to_act(s) == "Allied"
        assert all(s.loc[p] == OFF_MAP for p in CAT.by_side[AXIS])  # nothing of the Axis before it sets up
        assert R.legal_actions(s) == ["place 1st-Para 7607"]  # 5.1B: the fixed hexes come first
        while s.phase == Phase.SETUP:
            legal = R.legal_actions(s)
            piece = CAT.index[legal[0].split()[1]]
            assert {at(a.split()[2]) for a in legal} <= CAT.pieces[piece].setup_hexes
            R.apply(s, rng.choice(legal))
        assert setup_problems(CAT, s) == [] and (s.turn, s.player, s.phase) == (1, AXIS, Phase.MOVEMENT)
    s = R.initial_state(None, {"axis_setup": "free"})
    assert R.to_act(s) == "Axis" and R.legal_actions(s)[0].startswith("place Broich 8306")
    refused(s, "place Broich 8407", "5.2")
    refused(s, "place Rommel 8514", "5.0")
    with pytest.raises(WarroomError):
        R.initial_state(None, {"allied_setup": "random"})
    with pytest.raises(WarroomError):
        R.initial_state(None, {"weather": "fine"})


def test_the_axis_moves_first_and_the_player_turn_has_eight_phases() -> None:
    # Tunisia 7.0: two player-turns, the Axis first; eight phases in order
    s = R.initial_state()
    assert (s.turn, s.player, s.phase) == (1, AXIS, Phase.MOVEMENT) and R.to_act(s) == "Axis"
    assert [p.name for p in SEQUENCE_OF_PLAY] == [
        "Movement Phase",
        "Attack Phase",
        "Air Support Phase",
        "Combat Phase",
        "Advance After Combat Phase",
        "Return to Base Phase",
        "Replacement Phase",
        "Supply Phase",
    ]
    R.apply(s, "end")  # Axis movement
    assert s.phase == Phase.ATTACK
    R.apply(s, "end")  # Axis attacks: Return to Base, Replacement (the port roll), Supply
    assert R.to_act(s) == CHANCE and s.phase == Phase.REPLACEMENT_ROLL and R.chance_outcomes(s) == D6
    R.apply_chance(s, 6)
    if s.phase == Phase.REPLACEMENT:
        R.apply(s, "end")
    assert (s.turn, s.player, s.phase) == (1, ALLIED, Phase.MOVEMENT) and R.to_act(s) == "Allied"


# -- 8.0 Movement -----------------------------------------------------------------------------------------
def test_8_3_river_example_through_the_movement_rules() -> None:
    # Tunisia 8.3: "across an unbridged river hexside into an open ground hex expends a total of 4 MPs"
    s = blank(ALLIED, **{"78th": "8109"})
    south, north = at("8109"), at("8208")
    others = set(range(BOARD.grid.n)) - {south, north}  # the straight crossing alone, as the example has it
    s.loc[CAT.index["78th"]] = south
    reach = compute_reach(CAT, s, CAT.index["78th"], set(), others)
    assert reach[north] == 4.0
    s.reduced[CAT.index["78th"]] = True  # 8.5: with less than 4 MP it still crosses, one hex and no further
    cat78 = CAT.index["78th"]
    assert CAT.reduced_ma[cat78] == 4
    # in play: enemy support assets (no zone of control, but never entered: 8.7A) in the five other
    # neighbours leave the straight crossing as the only way out of 8109
    s = blank(
        ALLIED,
        **{
            "78th": "8109",
            "Rommel": "8209",
            "Messe": "8108",
            "Marines": "8008",
            "501st-Tiger": "8009",
            "Axis-Arty": "8110",
        },
    )
    assert "move 78th 8109 8208" in R.legal_actions(s)
    events = R.apply(s, "move 78th 8109 8208")
    assert s.mp_spent[cat78] == 4.0 and "(4 MP)" in events[0]["text"] and events[0]["rule"] == "8.1"


def test_8_4_road_rate_and_8_2_terrain_costs() -> None:
    # Tunisia 8.4: road to road across a road hexside costs 1/2 MP; 8.2A: open 1, mountain 3
    road = next(iter(BOARD.road_sides - BOARD.river_sides))
    a, b = BOARD.grid.side_ends[road]
    s = blank(ALLIED)
    s.loc[CAT.index["78th"]] = a
    reach = compute_reach(CAT, s, CAT.index["78th"], set(), enemy_occupied(CAT, s, ALLIED))
    assert reach[b] == 0.5
    s = blank(ALLIED, **{"78th": "8322"})
    reach = compute_reach(CAT, s, CAT.index["78th"], set(), set())
    assert reach[at("8422")] == 3.0 and reach[at("8222")] == 1.0


def test_8_5_minimum_move_and_8_6_strategic_movement() -> None:
    # Tunisia 8.6: a unit neither starting nor ending in an EZOC has its MA doubled
    s = blank(ALLIED, **{"78th": "7922"})
    unit = CAT.index["78th"]
    reach = compute_reach(CAT, s, unit, enemy_zoc(CAT, s, ALLIED), enemy_occupied(CAT, s, ALLIED))
    assert max(reach.values()) == 8.0  # MA 4 doubled, on open ground one MP a hex
    assert at("7522") not in reach or reach[at("7522")] <= 8.0
    # a support asset is not a unit: no doubling (8.6 says "a unit")
    s = blank(ALLIED, **{"1st-Army-Arty": "7922"})
    arty = CAT.index["1st-Army-Arty"]
    assert max(compute_reach(CAT, s, arty, set(), set()).values()) == 4.0
    # starting in an EZOC: no doubling; 8.5: the one hex into the mountain at 3 MP for a 2-MP battlegroup
    s = blank(ALLIED, **{"BG-A1": "8322", "10th-Pz": "8221"})
    s.origin[CAT.index["BG-A1"]] = CAT.index["78th"]
    bg = CAT.index["BG-A1"]
    ezoc = enemy_zoc(CAT, s, ALLIED)
    assert at("8322") in ezoc
    reach = compute_reach(CAT, s, bg, ezoc, enemy_occupied(CAT, s, ALLIED))
    assert reach[at("8422")] == 3.0  # more than its MA 2: the minimum move, one hex
    assert max(c for h, c in reach.items() if BOARD.grid.distance(h, at("8322")) > 1) <= 2.0


def test_9_1_entering_an_ezoc_ends_the_move_and_8_7_no_entering_enemy_hexes() -> None:
    # Tunisia 9.1C, 9.2A, 8.7A
    s = blank(ALLIED, **{"78th": "7922", "10th-Pz": "8122"})
    unit = CAT.index["78th"]
    ezoc = enemy_zoc(CAT, s, ALLIED)
    reach = compute_reach(CAT, s, unit, ezoc, enemy_occupied(CAT, s, ALLIED))
    assert at("8122") not in reach  # 8.7A
    zone = set(BOARD.grid.neighbours(at("8122")))
    for h in zone & set(reach):
        assert reach[h] <= 4.0  # 8.6: a move that ends in an EZOC has no doubled MA
    # 9.1C: 8622, behind the panzer's zone, is in the 78th's doubled MA on an empty board (8 MP) and only
    # through that zone: with the zone hexes closed it is out of reach, with only the panzer's hex closed in
    # reach. Entering the zone ends the move, so in play the 78th never gets there
    beyond = at("8622")
    empty = blank(ALLIED)
    put(empty, "78th", "7922")
    assert beyond not in zone and compute_reach(CAT, empty, unit, set(), set())[beyond] == 8.0
    assert beyond in compute_reach(CAT, s, unit, set(), {at("8122")})
    assert beyond not in compute_reach(CAT, s, unit, set(), zone | {at("8122")})
    assert beyond not in reach
    refused(s, "move 78th 7922 8622", "9.1C")
    refused(s, "move 78th 7922 8122", "8.7A")


def test_6_0_stacking_is_enforced_when_the_moves_are_done_and_passing_through_is_free() -> None:
    # Tunisia 6.0A-D: one unit a hex once the Movement Phase's moves are done; a move may end in a full
    # hex whose piece has yet to move (NOTES.md reading 2), never in one whose pieces have all moved
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022"})
    legal = R.legal_actions(s)
    assert "move 78th 7922 8022" in legal and "move 78th 7922 8122" in legal
    R.apply(s, "move 46th 8022 8122")
    refused(s, "move 78th 7922 8122", "6.0")  # the 46th has moved: nothing would leave 8122
    s = blank(ALLIED, **{"78th": "7922", "1st-Army-Arty": "8022", "8th-Army-Arty": "8122"})
    assert "move 78th 7922 8022" in R.legal_actions(s)  # 6.0B: a unit with support assets
    s = blank(ALLIED, **{"1st-Army-Arty": "7922", "8th-Army-Arty": "8023", "II-Corps-Arty": "8122"})
    R.apply(s, "move 1st-Army-Arty 7922 8022")
    R.apply(s, "move 8th-Army-Arty 8023 8022")
    refused(s, "move II-Corps-Arty 8122 8022", "6.0")  # 6.0B: two support assets there, both moved


def test_8_1_each_piece_moves_once_and_air_never_moves() -> None:
    # Tunisia 8.1A-B, 7.1A
    s = blank(ALLIED, **{"78th": "7922", "XII-ASC": "7712"})
    R.apply(s, "move 78th 7922 8022")
    refused(s, "move 78th 8022 8122", "8.1B")
    refused(s, "move XII-ASC 7712 7812", "8.1A")
    refused(s, "move Superga 8409 8410", "7.1A")
    refused(s, "fly away", "not a Tunisia action")


# -- 11.0-12.0 Combat ---------------------------------------------------------------------------------------
def test_11_5_and_12_2_the_d12_test() -> None:
    # Tunisia 11.5A-C, 12.2A-C: final result at or under the CF succeeds; a natural 1 always, a 12 never
    assert succeeds(5, 0, 5) and not succeeds(6, 0, 5)
    assert succeeds(7, -2, 5) and not succeeds(8, -2, 5)
    assert succeeds(1, 9, 3) and not succeeds(12, -9, 12)


def test_11_3_one_terrain_modifier_and_11_4_support_drms() -> None:
    # Tunisia 11.3: the highest of the hex and the hexside; 11.4: the stacked supports' DRMs
    s = blank(AXIS, **{"10th-Pz": "8323", "78th": "8423"})
    assert attack_modifier(CAT, s, at("8323"), at("8423"), AXIS, -1) == BOARD.hex_combat[at("8423")] == 2
    put(s, "Axis-Arty", "8323")
    put(s, "501st-Tiger", "8323")
    assert attack_modifier(CAT, s, at("8323"), at("8423"), AXIS, -1) == 2 - 1 - 2
    flyer = CAT.index["Fliegerkorps"]
    assert attack_modifier(CAT, s, at("8323"), at("8423"), AXIS, flyer) == 2 - 1 - 2 - 2


def test_a_successful_attack_reduces_the_defender_who_retreats_and_the_attacker_may_advance() -> None:
    # Tunisia 11.2, 11.5A, 12.1, 14.1A-B, 7.5, 14.3
    s = battle(**{"10th-Pz": "8022", "78th": "8122"})
    assert "attack 8022 8122" in R.legal_actions(s)
    R.apply(s, "attack 8022 8122")
    assert R.to_act(s) == CHANCE and R.chance_outcomes(s) == D12 and R.die_sides(s) == 12
    R.apply_chance(s, 1)  # the attack: a natural 1 always succeeds
    assert s.phase == Phase.DEFENSE_ROLL
    R.apply_chance(s, 12)  # the defence: a natural 12 always fails
    unit = CAT.index["78th"]
    assert s.reduced[unit]
    assert s.phase == Phase.RETREAT and R.to_act(s) == "Allied"  # 14.1B: the defender's choice
    options = R.legal_actions(s)
    for action in options:
        to = at(action.split()[-1])
        assert BOARD.grid.distance(to, at("8122")) == 2
        assert to not in enemy_zoc(CAT, s, ALLIED)  # 14.2C
    R.apply(s, options[0])
    assert s.phase == Phase.ADVANCE and R.to_act(s) == "Axis"
    R.apply(s, "advance 8022 8122")
    assert loc(s, "10th-Pz") == at("8122") and s.phase == Phase.ATTACK
    put(s, "46th", "8222")
    refused(s, "attack 8122 8222", "11.1A")  # 11.1A: once a Combat Phase


def test_12_3_attack_and_defence_are_simultaneous() -> None:
    # Tunisia 12.3: both succeed: both are reduced, no retreat
    s = battle(**{"10th-Pz": "8022", "78th": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 1)
    assert s.reduced[CAT.index["10th-Pz"]] and s.reduced[CAT.index["78th"]]
    assert loc(s, "78th") == at("8122") and s.phase == Phase.ATTACK


def test_13_1_a_reduced_unit_becomes_a_battlegroup_and_a_one_step_unit_is_eliminated() -> None:
    # Tunisia 13.1A, 13.1B, 13.2
    s = battle(**{"10th-Pz": "8022", "78th": "8122"})
    s.reduced[CAT.index["78th"]] = True
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 1)  # the defence succeeds too: no retreat, the battlegroup stays
    bg = next(p for p in CAT.battlegroups[ALLIED] if s.loc[p] == at("8122"))
    assert loc(s, "78th") == DEAD and s.origin[bg] == CAT.index["78th"]
    assert CAT.cf[bg] == 2 and CAT.ma[bg] == 2
    s = battle(**{"10th-Pz": "8022", "1st-Gds": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 1)
    assert loc(s, "1st-Gds") == DEAD  # one step
    s = battle(**{"10th-Pz": "8022", "BG-A1": "8122"})
    s.origin[CAT.index["BG-A1"]] = CAT.index["78th"]
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 1)
    assert s.loc[CAT.index["BG-A1"]] < 0 and not any(s.loc[p] >= 0 for p in CAT.battlegroups[ALLIED])


def test_13_1c_the_owner_chooses_which_piece_takes_the_loss() -> None:
    # Tunisia 13.1C: the defender picks among his unit and non-air support assets; never an air asset (13.3)
    s = battle(**{"10th-Pz": "8022", "78th": "8122", "1st-Army-Arty": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    assert s.phase == Phase.DEFENDER_LOSS and R.to_act(s) == "Allied"
    assert sorted(R.legal_actions(s)) == ["loss 1st-Army-Arty", "loss 78th"]
    R.apply(s, "loss 1st-Army-Arty")
    assert loc(s, "1st-Army-Arty") == DEAD and not s.reduced[CAT.index["78th"]]


def test_12_3_a_defender_eliminated_by_a_held_battle_leaves_its_support_assets_in_place() -> None:
    # Tunisia 12.3, 14.1A: both rolls succeed: no retreat, even when the defending unit itself is gone
    s = battle(**{"10th-Pz": "8022", "1st-Gds": "8122", "1st-Army-Arty": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 1)
    R.apply(s, "loss 1st-Gds")  # the defender's choice (13.1C): the one-step brigade goes
    if s.phase == Phase.ATTACKER_LOSS:
        R.apply(s, R.legal_actions(s)[0])
    assert loc(s, "1st-Gds") == DEAD and loc(s, "1st-Army-Arty") == at("8122") and s.phase == Phase.ATTACK


def test_14_2_no_retreat_through_ezoc_eliminates() -> None:
    # Tunisia 14.2C-D: a unit that cannot retreat two hexes is eliminated
    s = battle(**{"10th-Pz": "8022", "78th": "8122", "15th-Pz": "8222", "21st-Pz": "8123"})
    put(s, "DAK", "8121")
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    # every hex two away from 8122 is in a panzer's zone or behind one: no retreat, eliminated (14.2D)
    assert loc(s, "78th") == DEAD and s.phase == Phase.ADVANCE


def test_12_4_lone_support_assets() -> None:
    # Tunisia 12.4A-B: lone support assets do not defend and retreat even if they survive
    s = battle(**{"10th-Pz": "8022", "1st-Army-Arty": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 12)  # fails; no defence roll
    assert s.phase == Phase.RETREAT and R.to_act(s) == "Allied"
    R.apply(s, R.legal_actions(s)[0])
    assert loc(s, "1st-Army-Arty") != at("8122")
    assert BOARD.grid.distance(loc(s, "1st-Army-Arty"), at("8122")) == 2 or loc(s, "1st-Army-Arty") == DEAD
    # 12.4C: a lone air asset unsuccessfully attacked goes to the Return to Base box; 13.3: successfully, eliminated
    s = battle(**{"10th-Pz": "7812", "XII-ASC": "7712"})
    R.apply(s, "attack 7812 7712")
    if s.phase == Phase.DEFENSIVE_AIR:
        R.apply(s, "no air")
    R.apply_chance(s, 12)
    assert loc(s, "XII-ASC") == RETURN_TO_BASE
    s = battle(**{"10th-Pz": "7812", "XII-ASC": "7712"})
    R.apply(s, "attack 7812 7712")
    if s.phase == Phase.DEFENSIVE_AIR:
        R.apply(s, "no air")
    R.apply_chance(s, 1)
    assert loc(s, "XII-ASC") == DEAD


# -- 7.3, 10.0 Air ------------------------------------------------------------------------------------------
def test_7_3_air_support_and_10_2_air_combat() -> None:
    # Tunisia 7.3A-F: the attacker announces first, then the defender decides; 10.2: both fight first
    s = battle(**{"10th-Pz": "8022", "78th": "8122", "Fliegerkorps": "8407", "XII-ASC": "7712"})
    assert "attack 8022 8122 +air Fliegerkorps" in R.legal_actions(s)
    R.apply(s, "attack 8022 8122 +air Fliegerkorps")
    assert loc(s, "Fliegerkorps") == RETURN_TO_BASE  # in the battle, then back to base (7.4D)
    assert s.phase == Phase.DEFENSIVE_AIR and R.to_act(s) == "Allied"
    assert sorted(R.legal_actions(s)) == ["air XII-ASC", "no air"]
    R.apply(s, "air XII-ASC")
    assert s.phase == Phase.AIR_ROLL_ATTACKER and R.to_act(s) == CHANCE
    R.apply_chance(s, 3)  # 3 - 2 = 1
    R.apply_chance(s, 8)  # 8 - 2 = 6: the Allied asset loses, reduced (10.2A)
    assert s.reduced[CAT.index["XII-ASC"]] and not s.reduced[CAT.index["Fliegerkorps"]]
    assert s.battle is not None and s.battle.attacker_air == CAT.index["Fliegerkorps"] and s.battle.defender_air == -1
    # 10.2B: equal results reduce both
    s = battle(**{"10th-Pz": "8022", "78th": "8122", "Fliegerkorps": "8407", "XII-ASC": "7712"})
    R.apply(s, "attack 8022 8122 +air Fliegerkorps")
    R.apply(s, "air XII-ASC")
    R.apply_chance(s, 5)
    R.apply_chance(s, 5)
    assert s.reduced[CAT.index["XII-ASC"]] and s.reduced[CAT.index["Fliegerkorps"]]
    assert s.battle is not None and s.battle.attacker_air == -1 == s.battle.defender_air


def test_7_3_range_limits_air_support() -> None:
    # Tunisia 7.3A: the attacking unit within the air asset's range factor (the Regia Aeronautica: 20)
    s = battle(**{"10th-Pz": "7522", "78th": "7422", "Regia-Aeronautica": "8305"})
    assert BOARD.grid.distance(at("8305"), at("7522")) > CAT.range[CAT.index["Regia-Aeronautica"]]
    assert "attack 7522 7422 +air Regia-Aeronautica" not in R.legal_actions(s)
    refused(s, "attack 7522 7422 +air Regia-Aeronautica", "7.3A")


def test_7_6_return_to_base_the_attacker_first_one_a_field() -> None:
    # Tunisia 7.6A-C: back to any own airfield, one asset each; an asset with no free field is eliminated
    s = battle(**{"10th-Pz": "8022", "78th": "8122", "Fliegerkorps": "8407"})
    R.apply(s, "attack 8022 8122 +air Fliegerkorps")
    R.apply_chance(s, 12)
    R.apply_chance(s, 12)
    R.apply(s, "end")
    assert s.phase == Phase.RETURN_ATTACKER and R.to_act(s) == "Axis"
    fields = {at(a.split()[-1]) for a in R.legal_actions(s)}
    assert fields == {h for h, f in BOARD.airfields.items() if f.side == "axis"}
    R.apply(s, "base Fliegerkorps 8514")
    assert loc(s, "Fliegerkorps") == at("8514")


# -- 15.0 Breakthroughs ------------------------------------------------------------------------------------
def test_15_0_breakthrough_with_a_general() -> None:
    # Tunisia 15.0A-E: after a successful attack that empties the hex, the unit with its general moves and
    # attacks once more, then no more
    s = battle(**{"10th-Pz": "8022", "Rommel": "8022", "1st-Gds": "8122", "78th": "8324"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)  # 1st Guards, one step, eliminated
    assert loc(s, "1st-Gds") == DEAD and s.phase == Phase.ADVANCE
    R.apply(s, "no advance")
    assert s.phase == Phase.BREAKTHROUGH and R.to_act(s) == "Axis"
    moves = [a for a in R.legal_actions(s) if a.startswith("move 10th-Pz 8022 ")]
    assert "move 10th-Pz 8022 8223" in moves
    R.apply(s, "move 10th-Pz 8022 8223")
    assert loc(s, "Rommel") == at("8223")  # the general goes with it (15.0C)
    assert "attack 8223 8324" in R.legal_actions(s) and not any(a.startswith("move") for a in R.legal_actions(s))
    R.apply(s, "attack 8223 8324")
    R.apply_chance(s, 12)
    R.apply_chance(s, 12)
    assert s.phase == Phase.ATTACK and s.breakthrough == -1
    assert not any(a.startswith("attack 8223") for a in R.legal_actions(s))  # 15.0E


def test_15_0_c_a_support_asset_that_would_overstack_stays_and_never_bars_the_move() -> None:
    # Tunisia 15.0C ("may move a second time ... using the normal movement procedure") with 6.0B (a unit and
    # two support assets a hex): the artillery that attacked with the breakthrough unit goes along where the
    # hex has room for it, stays where it would overstack, and does not bar the unit and general's move
    pieces = {"10th-Pz": "8022", "Rommel": "8022", "Axis-Arty": "8022", "1st-Gds": "8122", "78th": "7725"}
    s = battle(**pieces, Marines="8223")  # an Axis support asset already in 8223
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)  # 1st Guards eliminated
    R.apply(s, "no advance")
    assert s.phase == Phase.BREAKTHROUGH
    R.apply(s, "move 10th-Pz 8022 8223")  # unit + general + Marines: two support assets, legal
    assert loc(s, "10th-Pz") == loc(s, "Rommel") == loc(s, "Marines") == at("8223")
    assert loc(s, "Axis-Arty") == at("8022")  # a third would overstack: it stays
    s = battle(**pieces)
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    R.apply(s, "no advance")
    R.apply(s, "move 10th-Pz 8022 8123")
    assert loc(s, "Axis-Arty") == loc(s, "Rommel") == at("8123")  # room for it: it keeps up


def test_15_0_a_breakthrough_after_advancing() -> None:
    # Tunisia 15.0C: with or without the advance; the general advances with the unit (7.5C)
    s = battle(**{"10th-Pz": "8022", "Rommel": "8022", "1st-Gds": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    R.apply(s, "advance 8022 8122")
    assert loc(s, "Rommel") == at("8122") and s.phase == Phase.BREAKTHROUGH
    assert "move 10th-Pz 8122 8222" in R.legal_actions(s)
    R.apply(s, "end")
    assert s.phase == Phase.ATTACK and s.breakthrough == -1


def test_15_0_no_breakthrough_without_a_general_or_when_the_hex_holds() -> None:
    # Tunisia 15.0A-B
    s = battle(**{"10th-Pz": "8022", "1st-Gds": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    R.apply(s, "no advance")
    assert s.phase == Phase.ATTACK
    s = battle(**{"10th-Pz": "8022", "Rommel": "8022", "78th": "8122"})
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 1)
    R.apply_chance(s, 1)  # the defence holds the hex
    assert s.phase == Phase.ATTACKER_LOSS and sorted(R.legal_actions(s)) == ["loss 10th-Pz", "loss Rommel"]
    R.apply(s, "loss 10th-Pz")
    assert s.phase == Phase.ATTACK


# -- 7.7 Replacements, 7.8 Supply ---------------------------------------------------------------------------
def test_7_7_replacements_rebuild_and_replace() -> None:
    # Tunisia 7.7B: the Allies two; 7.7E: not in an EZOC; 7.7G-I: a support asset into a village or airfield
    s = blank(ALLIED, **{"78th": "7922", "46th": "8022", "10th-Pz": "8122"})
    s.reduced[CAT.index["78th"]] = s.reduced[CAT.index["46th"]] = True
    s.loc[CAT.index["1st-Army-Arty"]] = DEAD
    s.loc[CAT.index["XII-ASC"]] = DEAD
    R.start_replacements(s, R_SILENT)
    legal = R.legal_actions(s)
    assert s.phase == Phase.REPLACEMENT and s.replacements_left == 2
    assert "rebuild 78th" in legal and "rebuild 46th" not in legal  # 46th is in the panzer's zone
    assert "replace XII-ASC 7712" in legal and "replace XII-ASC 8407" not in legal
    assert "replace 1st-Army-Arty 7607" in legal and not any(a.startswith("replace 1st-Army-Arty 8") for a in legal)
    assert not any("BG" in a or "78th 7" in a for a in legal)  # 7.7E: no eliminated unit
    R.apply(s, "rebuild 78th")
    R.apply(s, "replace XII-ASC 7712")
    assert not s.reduced[CAT.index["78th"]] and loc(s, "XII-ASC") == at("7712")
    assert s.phase != Phase.REPLACEMENT  # 7.7B: two at most


def test_7_7_the_axis_port_roll_and_the_tunis_rule() -> None:
    # Tunisia 7.7C: a d6 under the ports the Axis controls gives one more; 7.7D: none while Tunis is Allied
    s = blank(AXIS, **{"10th-Pz": "7922", "15th-Pz": "8022"})
    s.reduced[CAT.index["10th-Pz"]] = s.reduced[CAT.index["15th-Pz"]] = True
    R.start_replacements(s, R_SILENT)
    assert s.phase == Phase.REPLACEMENT_ROLL and R.chance_outcomes(s) == D6 and R.die_sides(s) == 6
    R.apply_chance(s, 4)  # under 5 ports: two this turn
    assert s.replacements_left == 2
    s = blank(AXIS, **{"10th-Pz": "7922", "78th": "8407"})
    s.reduced[CAT.index["10th-Pz"]] = True
    R.start_replacements(s, R_SILENT)
    assert s.phase != Phase.REPLACEMENT and s.replacements_left == 0


def test_7_8_supply() -> None:
    # Tunisia 7.8A-C: no path to a friendly airfield: reduced, then eliminated; 7.8B: a friendly piece
    # negates the EZOC in its hex
    s = blank(ALLIED, **{"78th": "8022", "46th": "7712"})
    ring = BOARD.grid.neighbours(at("8022"))
    axis_units = ["10th-Pz", "15th-Pz", "21st-Pz", "DAK", "Centauro", "334th"]
    for name, h in zip(axis_units, ring, strict=False):  # surround it: every neighbour enemy-held
        s.loc[CAT.index[name]] = h
    R.end_player_turn(s, R_SILENT)
    assert s.reduced[CAT.index["78th"]] and not s.reduced[CAT.index["46th"]]
    s.player, s.phase = ALLIED, Phase.REPLACEMENT
    R.end_player_turn(s, R_SILENT)
    assert loc(s, "78th") == DEAD


# -- 16.0 Patton, 17.0 Rommel --------------------------------------------------------------------------------
def test_16_0_patton_arrives_on_a_roll_and_the_ii_corps_is_swapped() -> None:
    # Tunisia 16.0A: at or under the II Corps units in Tunisia; 16.0C: the two-star pieces take their places
    s = end_of_allied_turn(1, CCA="8113", CCB="8013", **{"601st-TD": "8113", "BG-A1": "7914"})
    s.origin[CAT.index["BG-A1"]] = CAT.index["CCC"]
    s.loc[CAT.index["CCC"]] = DEAD
    s.loc[CAT.index["1st-ID"]] = DEAD
    s.reduced[CAT.index["CCB"]] = True
    R.end_player_turn(s, R_SILENT)
    assert s.phase == Phase.PATTON_ROLL and R.chance_outcomes(s) == D12
    R.apply_chance(s, 3)  # three II Corps units in Tunisia? CCA, CCB and the battlegroup is not one: two
    assert not s.patton_arrived and s.turn == 2
    s = end_of_allied_turn(1, CCA="8113", CCB="8013", **{"601st-TD": "8113", "BG-A1": "7914"})
    s.origin[CAT.index["BG-A1"]] = CAT.index["CCC"]
    s.loc[CAT.index["CCC"]] = DEAD
    s.loc[CAT.index["1st-ID"]] = DEAD
    s.reduced[CAT.index["CCB"]] = True
    R.end_player_turn(s, R_SILENT)
    R.apply_chance(s, 2)
    assert s.patton_arrived and s.phase == Phase.PLACEMENT and R.to_act(s) == "Allied"
    assert loc(s, "CCA") == REMOVED and loc(s, "CCA**") == at("8113") and not s.reduced[CAT.index["CCA**"]]
    assert loc(s, "CCB**") == at("8013") and s.reduced[CAT.index["CCB**"]]
    assert loc(s, "CCC**") == at("7914") and s.reduced[CAT.index["CCC**"]]  # from its battlegroup
    assert loc(s, "601st-TD**") == at("8113")
    assert sorted(R.legal_actions(s)) == ["place Patton 7914", "place Patton 8013", "place Patton 8113"]
    R.apply(s, "place Patton 8013")
    # the eliminated 1st ID comes back reduced in an Allied village free of EZOCs
    while s.phase == Phase.PLACEMENT:
        R.apply(s, R.legal_actions(s)[0])
    assert s.loc[CAT.index["1st-ID**"]] in BOARD.villages and s.reduced[CAT.index["1st-ID**"]]
    assert loc(s, "Patton") == at("8013")


def test_16_0b_patton_arrives_at_the_end_of_turn_3_whatever_the_dice() -> None:
    # Tunisia 16.0B
    s = end_of_allied_turn(3, CCA="8113")
    R.end_player_turn(s, R_SILENT)
    assert s.patton_arrived and loc(s, "Patton") == at("8113") and loc(s, "CCA**") == at("8113")


def test_17_0_rommel_recalled() -> None:
    # Tunisia 17.0A: in the last three turns, at or under the Allied ports; 17.0B: -1 while Mareth is Allied
    s = end_of_allied_turn(6, Rommel="8514", CCA="8611", CCB="8615")
    s.patton_arrived = True
    R.end_player_turn(s, R_SILENT)
    assert s.phase == Phase.ROMMEL_ROLL
    R.apply_chance(s, 3)
    assert loc(s, "Rommel") == at("8514") and s.turn == 7
    s = end_of_allied_turn(6, Rommel="8514", CCA="8611", CCB="8615", CCC="8519")
    s.patton_arrived = True
    R.end_player_turn(s, R_SILENT)
    R.apply_chance(s, 3)  # 3 - 1 <= 2 ports
    assert loc(s, "Rommel") == REMOVED
    s = end_of_allied_turn(5, Rommel="8514")
    s.patton_arrived = True
    R.end_player_turn(s, R_SILENT)
    assert s.phase == Phase.MOVEMENT and s.turn == 6  # not yet the last three turns


# -- 4.0 Winning ---------------------------------------------------------------------------------------------
def test_4_0_victory() -> None:
    # Tunisia 4.0B: an Axis unit in 8821 at any time wins at once
    s = blank(AXIS, **{"10th-Pz": "8721"})
    R.apply(s, "move 10th-Pz 8721 8821")
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and result.rule == "4.0B" and R.to_act(s) is None
    assert result.returns == {"Axis": 1.0, "Allied": -1.0}
    # 4.0A: all five ports occupied by Allied units
    s = blank(ALLIED, **{"CCA": "8305", "CCB": "8407", "CCC": "8611", "1st-ID": "8615", "34th-ID": "8417"})
    R.apply(s, "move 34th-ID 8417 8418")
    result = R.result(s)
    assert result is not None and result.winner == "Allied" and result.rule == "4.0A"
    # 4.0A: every Axis counter eliminated
    s = battle(ALLIED, **{"78th": "8122", "Young-Fascists": "8222"})
    s.loc[CAT.index[KEEPER]] = OFF_MAP
    R.apply(s, "attack 8122 8222")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    result = R.result(s)
    assert result is not None and result.winner == "Allied" and "Every Axis counter" in result.reason
    # 4.0B: three Allied airfields (Souk el Arba among them) held at the end of a turn, no Allied port
    s = end_of_allied_turn(4, **{"10th-Pz": "7712", "15th-Pz": "7607", "21st-Pz": "8008"})
    s.patton_arrived = True
    R.end_player_turn(s, R_SILENT)
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and "three Allied airfields" in result.reason


def test_4_0_the_last_turn_ends_in_an_axis_victory() -> None:
    # Tunisia 4.0B: preventing the Allied victory
    s = end_of_allied_turn(R.last_turn)
    s.patton_arrived = True
    s.loc[CAT.rommel] = REMOVED
    R.end_player_turn(s, R_SILENT)
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and f"Turn {R.last_turn}" in result.reason


# -- 6.0E Observation ---------------------------------------------------------------------------------------
def test_6_0e_the_enemy_sees_only_the_top_of_a_stack_unless_a_unit_is_adjacent() -> None:
    # Tunisia 6.0E
    s = blank(AXIS, **{"10th-Pz": "8022", "501st-Tiger": "8022", "Axis-Arty": "8022", "1st-Army-Arty": "8122"})
    view = R.observation(s, "Allied")
    assert "10th-Pz" in view["pieces"] and "501st-Tiger" not in view["pieces"] and "Axis-Arty" not in view["pieces"]
    assert view["hidden"] == {"8022": 2}
    assert "501st-Tiger" in R.observation(s, "Axis")["pieces"]  # one's own stacks are open
    assert "501st-Tiger" in R.observation(s, None)["pieces"]
    put(s, "78th", "8122")  # a unit adjacent: the stack is examined
    view = R.observation(s, "Allied")
    assert "501st-Tiger" in view["pieces"] and view["hidden"] == {}


# -- more of 6.0, 7.6, 7.7, 7.8, 9.2, 13.3, 14.1C -----------------------------------------------------------
def test_9_2a_leaving_an_ezoc_is_free_but_entering_another_stops() -> None:
    # Tunisia 9.2A
    s = blank(ALLIED, **{"78th": "8022", "10th-Pz": "8122"})
    unit = CAT.index["78th"]
    ezoc = enemy_zoc(CAT, s, ALLIED)
    assert at("8022") in ezoc
    reach = compute_reach(CAT, s, unit, ezoc, enemy_occupied(CAT, s, ALLIED))
    assert at("7922") in reach and at("7822") in reach  # out of the zone and on
    assert at("8123") in ezoc and at("8123") in reach  # into the next EZOC hex, where it halts
    assert at("8223") not in reach or reach[at("8223")] <= 4.0
    assert max(reach.values()) <= 4.0  # 8.6: it started in an EZOC, so no doubled MA


def test_6_0c_three_support_assets_with_an_air_asset() -> None:
    # Tunisia 6.0B-C: two support assets, or three when one is an air asset
    s = blank(ALLIED, **{"XII-ASC": "7712", "1st-Army-Arty": "7812"})
    assert "move 1st-Army-Arty 7812 7712" in R.legal_actions(s)
    R.apply(s, "move 1st-Army-Arty 7812 7712")
    put(s, "II-Corps-Arty", "7811")
    assert "move II-Corps-Arty 7811 7712" in R.legal_actions(s)
    put(s, "8th-Army-Arty", "7611")
    R.apply(s, "move II-Corps-Arty 7811 7712")
    assert "move 8th-Army-Arty 7611 7712" not in R.legal_actions(s)


def _fliegerkorps_back_from_an_attack(free_fields: int) -> tuple[TunisiaState, list[int]]:
    """An attack with the Fliegerkorps, fought; every Axis airfield but the last `free_fields` held by the
    Allies (8.7A), the attacker's turn about to end. The Axis airfields, in hex order, come with it."""
    s = battle(**{"10th-Pz": "8022", "78th": "8122", "Fliegerkorps": "8407"})
    R.apply(s, "attack 8022 8122 +air Fliegerkorps")
    R.apply_chance(s, 12)
    R.apply_chance(s, 12)
    axis_fields = sorted(h for h, f in BOARD.airfields.items() if f.side == "axis")
    held = axis_fields[: len(axis_fields) - free_fields]
    for name, h in zip(["46th", "1st-Gds", "DMC", "DMM", "6th-Armd", "CCA", "CCB"], held, strict=False):
        s.loc[CAT.index[name]] = h
    s.legal = None
    return s, axis_fields


def test_7_6b_an_air_asset_without_a_free_airfield_is_eliminated() -> None:
    # Tunisia 7.6B: one air asset an airfield; with none free (every Axis field held by the Allies, 8.7A)
    # the excess is eliminated
    s, _ = _fliegerkorps_back_from_an_attack(free_fields=0)
    R.apply(s, "end")
    assert loc(s, "Fliegerkorps") == DEAD


def test_7_6a_the_owner_chooses_which_asset_takes_the_last_free_airfield() -> None:
    # Tunisia 7.6A "back to any of their own airfield hexes they wish", 7.6B "all excess air support assets
    # are eliminated": with one free field for two returning assets, the owner chooses which one keeps flying
    s, axis_fields = _fliegerkorps_back_from_an_attack(free_fields=1)
    free = axis_fields[-1]
    s.loc[CAT.index["Regia-Aeronautica"]] = RETURN_TO_BASE  # a second Axis air asset coming back
    s.legal = None
    R.apply(s, "end")
    assert s.phase == Phase.RETURN_ATTACKER and R.to_act(s) == "Axis"
    field = R.labels[free]
    assert sorted(R.legal_actions(s)) == [f"base Fliegerkorps {field}", f"base Regia-Aeronautica {field}"]
    R.apply(s, f"base Regia-Aeronautica {field}")
    assert loc(s, "Regia-Aeronautica") == free and loc(s, "Fliegerkorps") == DEAD


def test_12_4c_a_missed_air_asset_beside_a_lone_ground_asset_goes_back_to_base() -> None:
    # Tunisia 12.4C "A lone air support asset that is unsuccessfully attacked must be immediately moved to its
    # own Return to Base box" ("lone": not stacked with a unit, 12.4A-B); 12.4B: the artillery with it retreats
    s = blank(ALLIED, Phase.ATTACK, Fliegerkorps="8008", Axis_Arty="8008", CCA="8109")
    R.apply(s, "attack 8109 8008")
    R.apply_chance(s, 12)  # a natural 12: the attack fails
    assert loc(s, "Fliegerkorps") == RETURN_TO_BASE
    assert s.phase == Phase.RETREAT and R.legal_actions(s)
    assert all(a.startswith("retreat Axis-Arty 8008 ") for a in R.legal_actions(s))


def test_7_8b_a_friendly_piece_negates_the_ezoc_in_its_hex() -> None:
    # Tunisia 7.8A-B: the supply path may not enter an EZOC unless a friendly piece stands there
    from warroom.games.tunisia.supply import supplied_hexes

    s = blank(ALLIED, **{"10th-Pz": "7813", "46th": "7712"})
    supplied = supplied_hexes(CAT, s, ALLIED)
    ezoc = enemy_zoc(CAT, s, ALLIED)
    zone = [h for h in BOARD.grid.neighbours(at("7813")) if h in ezoc and h != at("7712")]
    assert at("7712") in supplied  # the airfield holds a friendly unit: its EZOC is negated
    assert not any(h in supplied for h in zone)
    put(s, "1st-Army-Arty", BOARD.label(zone[0]))
    assert zone[0] in supplied_hexes(CAT, s, ALLIED)


def test_7_7h_an_air_asset_is_not_replaced_into_an_ezoc() -> None:
    # Tunisia 7.7H
    s = blank(ALLIED, **{"10th-Pz": "7812", "78th": "7922"})
    s.reduced[CAT.index["78th"]] = True
    s.loc[CAT.index["XII-ASC"]] = DEAD
    R.start_replacements(s, R_SILENT)
    legal = R.legal_actions(s)
    assert "replace XII-ASC 7712" not in legal and "replace XII-ASC 7209" in legal


def test_13_3_and_14_1c_air_assets_never_take_the_loss_and_never_retreat() -> None:
    # Tunisia 13.3: never chosen for a loss; 14.1C: attacked at its airfield, it cannot retreat
    s = battle(**{"10th-Pz": "7812", "78th": "7712", "XII-ASC": "7712", "1st-Army-Arty": "7712"})
    R.apply(s, "attack 7812 7712")
    if s.phase == Phase.DEFENSIVE_AIR:
        R.apply(s, "no air")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    assert sorted(R.legal_actions(s)) == ["loss 1st-Army-Arty", "loss 78th"]
    R.apply(s, "loss 78th")
    assert loc(s, "XII-ASC") == DEAD  # the retreat leaves it behind
    while s.phase == Phase.RETREAT:
        R.apply(s, R.legal_actions(s)[0])
    assert loc(s, "78th") != at("7712") and loc(s, "1st-Army-Arty") != at("7712")


def test_16_0c_an_eliminated_ii_corps_piece_with_no_village_is_lost() -> None:
    # Tunisia 16.0C: "must be placed in an Allied-controlled village hex not in an EZOC"
    s = end_of_allied_turn(3, CCA="8113")
    s.loc[CAT.index["1st-ID"]] = DEAD
    axis = [p for p in CAT.by_side[AXIS] if CAT.is_unit[p] and not CAT.is_battlegroup[p]]
    villages = sorted(h for h in BOARD.villages if BOARD.country[h] == "algeria")
    watchers = iter(axis)
    watched: set[int] = set()
    for v in villages:  # an Axis unit next to every Algerian village: each is in an EZOC
        if v in watched:
            continue
        n = next(h for h in BOARD.grid.neighbours(v) if h in BOARD.land and h not in BOARD.villages)
        s.loc[next(watchers)] = n
        watched |= set(BOARD.grid.neighbours(n))
    R.end_player_turn(s, R_SILENT)
    assert s.patton_arrived and loc(s, "1st-ID**") == DEAD


# -- the rulebook's other worked examples ------------------------------------------------------------------
def test_7_4b_example_a_unit_attacked_three_times_defends_three_times() -> None:
    # Tunisia 7.4B-C: "If a unit is attacked three times, that unit may therefore defend, via a separate die
    # roll, against each of those three attacks"; each attacker rolls once a Combat Phase
    s = battle(**{"10th-Pz": "8022", "15th-Pz": "8222", "21st-Pz": "8121", "46th": "8122"})
    for origin in ("8022", "8222", "8121"):
        R.apply(s, f"attack {origin} 8122")
        R.apply_chance(s, 11)  # the attack misses
        assert s.phase == Phase.DEFENSE_ROLL  # and the 46th defends, every time
        R.apply_chance(s, 11)
        assert s.phase == Phase.ATTACK
    assert not any(a.startswith("attack") for a in R.legal_actions(s))


def test_11_3_example_a_river_around_a_hill_counts_once() -> None:
    # Tunisia 11.3: "a river around the perimeter of a hill hex": only the single highest modifier
    attacker, defender = at("8208"), at("8209")  # across the Medjerda into rough ground
    side = BOARD.grid.side(attacker, defender)
    assert side in BOARD.river_sides and side not in BOARD.bridges and BOARD.terrain[defender] == "rough"
    s = blank(AXIS, **{"10th-Pz": "8208", "78th": "8209"})
    hill, river = BOARD.hex_combat[defender], BOARD.side_combat[side]
    assert attack_modifier(CAT, s, attacker, defender, AXIS, -1) == max(hill, river) == 1 < hill + river
