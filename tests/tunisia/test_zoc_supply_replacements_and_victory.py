"""Tunisia's rules that the engine follows but no other test checked (a review's list): zones of control
(9.1-9.2), the minimum move into an EZOC (8.5), supply (7.8), replacements (7.7), Patton and Rommel (16.0,
17.0) and the victory conditions (4.0). Each test cites its rule (`# Tunisia 9.1A`) and, like
tests/tunisia/test_rules.py, builds its position in the open desert of the south-west unless the rule needs a
place of the map. Every die is given (`R.apply_chance`)."""

from __future__ import annotations

from tunisia_positions import BOARD, CAT, R, at, battle, blank, end_of_allied_turn, loc, put, refused

from warroom.engine.events import SILENT
from warroom.games.tunisia.arrivals import ii_corps_in_tunisia
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.movement import compute_reach, enemy_occupied
from warroom.games.tunisia.replacements import axis_ports
from warroom.games.tunisia.state import DEAD, REMOVED, Phase, TunisiaState
from warroom.games.tunisia.supply import supplied_hexes
from warroom.games.tunisia.victory import allied_ports
from warroom.games.tunisia.zoc import enemy_zoc


def board(player: int, phase: Phase = Phase.MOVEMENT, /, **pieces: str) -> TunisiaState:
    """tunisia_positions.blank, its two first arguments positional only (so a `**pieces` dict is typed)."""
    return blank(player, phase, **pieces)


def neighbours(label: str) -> set[int]:
    return set(BOARD.grid.neighbours(at(label)))


def reach_of(s: TunisiaState, piece: str) -> dict[int, float]:
    """The piece's reach in play: the enemy's zones of control and hexes as they stand."""
    side = CAT.side[CAT.index[piece]]
    return compute_reach(CAT, s, CAT.index[piece], enemy_zoc(CAT, s, side), enemy_occupied(CAT, s, side))


def play_out_the_phases(s: TunisiaState, roll: int = 6) -> None:
    """Ends the phasing side's Movement and Attack Phases, rolls the Axis port roll with `roll` and takes
    no replacement: on to the next player-turn (or the next die)."""
    R.apply(s, "end")  # Movement
    R.apply(s, "end")  # Attack; nothing flew: Return to Base passes
    if s.phase == Phase.REPLACEMENT_ROLL:
        R.apply_chance(s, roll)
    if s.phase == Phase.REPLACEMENT:
        R.apply(s, "end")


# -- 9.0 Zones of Control -------------------------------------------------------------------------------
def test_9_1a_a_support_asset_projects_no_zone_of_control() -> None:
    # Tunisia 9.1A: "Support assets do not project a ZOC". The 78th starts beside a lone Axis artillery:
    # not in an EZOC, so its MA is doubled (8.6), and it passes through the artillery's neighbours at will
    s = board(ALLIED, **{"78th": "8022", "Axis-Arty": "8122"})
    assert not neighbours("8122") & enemy_zoc(CAT, s, ALLIED)
    reach = reach_of(s, "78th")
    assert max(reach.values()) == 8.0  # MA 4 doubled: it did not start in an EZOC
    assert reach[at("8222")] == 2.0  # through 8123 or 8221, both beside the artillery, and on
    assert at("8122") not in reach  # 8.7A: the artillery's own hex is still never entered


def test_9_1b_a_reduced_unit_still_projects_a_zone_of_control_whatever_the_terrain() -> None:
    # Tunisia 9.1B: "Even if a unit is reduced, and regardless of the type of terrain in each surrounding
    # hex, it still projects a ZOC into them": the reduced panzers in 8322 cover the mountains of 8421
    # and 8422 as well as the open hexes
    s = board(ALLIED, **{"10th-Pz": "8322", "78th": "8222"})
    s.reduced[CAT.index["10th-Pz"]] = True
    assert {BOARD.terrain[h] for h in neighbours("8322")} == {"open", "mountain"}
    assert neighbours("8322") <= enemy_zoc(CAT, s, ALLIED)
    reach = reach_of(s, "78th")
    assert max(reach.values()) <= 4.0  # 8.6: the 78th starts in the reduced unit's zone: no doubled MA
    # into another hex of the zone, 8323, it stops: the mountain 8422 beyond (also in the zone) is out of reach
    assert reach[at("8323")] == 1.0 and at("8422") not in reach
    # and 7.7E: the reduced 78th in that zone is not rebuilt
    s.reduced[CAT.index["78th"]] = True
    s.loc[CAT.index["1st-Army-Arty"]] = DEAD
    R.start_replacements(s, SILENT)
    assert s.phase == Phase.REPLACEMENT and "rebuild 78th" not in R.legal_actions(s)


def test_9_1d_an_air_asset_returns_to_an_airfield_in_an_enemy_zone() -> None:
    # Tunisia 9.1D: "Air support assets may always ignore EZOCs"; 7.6A: back to any own airfield. The
    # British 78th stands beside the Axis airfield of La Fauconnerie (8514): the Fliegerkorps may still land
    s = battle(AXIS, **{"10th-Pz": "8022", "46th": "8122", "Fliegerkorps": "8407", "78th": "8614"})
    assert at("8514") in enemy_zoc(CAT, s, AXIS)
    R.apply(s, "attack 8022 8122 +air Fliegerkorps")
    R.apply_chance(s, 12)
    R.apply_chance(s, 12)
    R.apply(s, "end")
    assert s.phase == Phase.RETURN_ATTACKER
    assert "base Fliegerkorps 8514" in R.legal_actions(s)
    R.apply(s, "base Fliegerkorps 8514")
    assert loc(s, "Fliegerkorps") == at("8514")


def test_9_2b_no_rebuild_in_an_ezoc_even_with_a_friendly_counter_in_the_hex() -> None:
    # Tunisia 9.2B: "A reduced unit may not be rebuilt when in an EZOC, even if a friendly counter is also
    # in that same hex" (unlike a supply path, 7.8B, a friendly piece does not negate the EZOC here)
    s = board(ALLIED, **{"78th": "8022", "1st-Army-Arty": "8022", "10th-Pz": "8122", "46th": "7722"})
    s.reduced[CAT.index["78th"]] = s.reduced[CAT.index["46th"]] = True
    R.start_replacements(s, SILENT)
    assert s.phase == Phase.REPLACEMENT
    assert sorted(R.legal_actions(s)) == ["end", "rebuild 46th"]
    refused(s, "rebuild 78th", "7.7")


def test_9_1c_a_friendly_counter_does_not_negate_the_ezoc_for_movement() -> None:
    # Tunisia 9.1C: a unit "moving into a hex containing an EZOC must end all movement there"; 9.2B and 7.8B
    # name the only cases a friendly counter matters, so a zone hex holding friendly pieces still stops it.
    # Every hex of the panzers' zone holds an Allied piece: the 78th may end its move in one of them, but
    # never go through to 8622, which it reaches when the panzers are gone
    zone = {
        "1st-Army-Arty": "8022",
        "8th-Army-Arty": "8021",
        "II-Corps-Arty": "8121",
        "601st-TD": "8221",
        "46th": "8222",
        "6th-Armd": "8123",
    }
    assert {at(h) for h in zone.values()} == neighbours("8122")
    s = board(ALLIED, **{"78th": "7922", "10th-Pz": "8122"}, **zone)
    s.moved[CAT.index["6th-Armd"]] = True  # it has moved: it will not leave 8123 for the 78th (6.0D)
    legal = R.legal_actions(s)
    assert "move 78th 7922 8022" in legal and "move 78th 7922 8123" not in legal  # 6.0A: the 6th Armoured
    assert "move 78th 7922 8622" not in legal
    refused(s, "move 78th 7922 8622", "9.1C")
    s.loc[CAT.index["10th-Pz"]] = DEAD  # the zone is gone
    s.legal, s.reach = None, {}
    assert "move 78th 7922 8622" in R.legal_actions(s)


# -- 8.5 Minimum Movement -------------------------------------------------------------------------------
def test_8_5_the_one_hex_minimum_move_into_an_ezoc_hex_costing_more_than_the_ma() -> None:
    # Tunisia 8.5: "a counter may always move at least one hex during a movement phase (regardless of the MP
    # cost in that hex) if it does not move any further", also into an EZOC (9.1C stops it there anyway).
    # A battlegroup (MA 2) outside any EZOC; the mountain 8422 (3 MP) is in the panzers' zone, so the
    # move there ends in an EZOC and its MA is not doubled (8.6): only the minimum move takes it there
    s = board(ALLIED, **{"BG-A1": "8322", "10th-Pz": "8523"})
    s.origin[CAT.index["BG-A1"]] = CAT.index["78th"]
    bg = CAT.index["BG-A1"]
    ezoc = enemy_zoc(CAT, s, ALLIED)
    assert at("8322") not in ezoc and at("8422") in ezoc and BOARD.terrain[at("8422")] == "mountain"
    assert CAT.ma[bg] == 2
    reach = reach_of(s, "BG-A1")
    assert reach[at("8422")] == 3.0
    assert "move BG-A1 8322 8422" in R.legal_actions(s)
    R.apply(s, "move BG-A1 8322 8422")
    assert s.mp_spent[bg] == 3.0 and loc(s, "BG-A1") == at("8422")
    # one hex, and no further: the mountain 8423 beyond is out of reach (8522, 8523's zone, likewise)
    assert at("8423") not in reach and at("8522") not in reach


# -- 7.8 Supply -------------------------------------------------------------------------------------------
# 8125 lies on the map's southern edge: five land neighbours, no airfield near
SOUTH_EDGE, RING = "8125", ["8225", "8224", "8124", "8024", "8025"]
AXIS_SUPPORTS = ["Rommel", "Messe", "Marines", "501st-Tiger", "Axis-Arty"]


def test_7_8a_a_lone_enemy_support_asset_blocks_the_supply_path() -> None:
    # Tunisia 7.8A: the path "may not include any hexes occupied by any enemy units or support assets"; the
    # five Axis support assets around the 78th project no zone (9.1A), yet no path leaves its hex
    assert {at(h) for h in RING} == neighbours(SOUTH_EDGE) and len(BOARD.grid.neighbours(at(SOUTH_EDGE))) == 5
    s = board(ALLIED, Phase.REPLACEMENT, **{"78th": SOUTH_EDGE, **dict(zip(AXIS_SUPPORTS, RING, strict=True))})
    s.turn = 1
    assert not neighbours(SOUTH_EDGE) & enemy_zoc(CAT, s, ALLIED)
    assert at(SOUTH_EDGE) not in supplied_hexes(CAT, s, ALLIED)
    gap = s.clone()
    gap.loc[CAT.index["Axis-Arty"]] = at("7725")  # one support asset out of the ring opens a way out
    assert at(SOUTH_EDGE) in supplied_hexes(CAT, gap, ALLIED)
    R.end_player_turn(s, SILENT)
    assert s.reduced[CAT.index["78th"]] and loc(s, "78th") == at(SOUTH_EDGE)  # 7.8C
    R.end_player_turn(gap, SILENT)
    assert not gap.reduced[CAT.index["78th"]]


def _surrounded(player: int, side: int, centre: str, **pieces: str) -> TunisiaState:
    """`player`'s Replacement Phase; `side`'s pieces in `centre`, a unit of the other side in each of its
    six neighbours (every way out held and in an EZOC)."""
    s = board(player, Phase.REPLACEMENT, **dict.fromkeys(pieces, centre))
    s.turn = 1
    ring = [p for p in CAT.by_side[1 - side] if CAT.is_unit[p] and not CAT.is_battlegroup[p] and s.loc[p] < 0]
    for piece, h in zip(ring, BOARD.grid.neighbours(at(centre)), strict=False):
        s.loc[piece] = h
    return s


def test_7_8a_d_only_the_phasing_side_checks_its_supply() -> None:
    # Tunisia 7.8A: "At the end of each player-turn, the phasing side must check the supply status of each
    # of its units and support assets"; 7.8D: then the player-turn ends. The surrounded panzers are left
    # alone at the end of the Allied player-turn and reduced at the end of their own
    s = _surrounded(ALLIED, AXIS, "8022", **{"10th-Pz": ""})
    panzer = CAT.index["10th-Pz"]
    assert at("8022") not in supplied_hexes(CAT, s, AXIS)
    R.end_player_turn(s, SILENT)
    assert not s.reduced[panzer] and loc(s, "10th-Pz") == at("8022")
    assert s.phase == Phase.PATTON_ROLL  # the Allied player-turn is over, the panzers untouched
    s = _surrounded(AXIS, AXIS, "8022", **{"10th-Pz": ""})
    R.end_player_turn(s, SILENT)
    assert s.reduced[panzer]


def test_7_8c_supply_reduces_a_support_asset_and_eliminates_a_one_step_piece() -> None:
    # Tunisia 7.8C: "becomes immediately reduced (or eliminated if already reduced)"; 13.1B: a one-step piece
    # (the 1st Guards brigade, the 1st Army artillery) is eliminated at once, with no battlegroup (NOTES.md
    # reading 17); the two-step 8th Army artillery is flipped, then eliminated the next time
    s = _surrounded(ALLIED, ALLIED, "8022", **{"1st-Gds": "", "1st-Army-Arty": "", "8th-Army-Arty": ""})
    assert CAT.steps[CAT.index["1st-Gds"]] == CAT.steps[CAT.index["1st-Army-Arty"]] == 1
    assert CAT.steps[CAT.index["8th-Army-Arty"]] == 2
    R.end_player_turn(s, SILENT)
    assert loc(s, "1st-Gds") == DEAD and loc(s, "1st-Army-Arty") == DEAD
    assert loc(s, "8th-Army-Arty") == at("8022") and s.reduced[CAT.index["8th-Army-Arty"]]
    assert not any(s.loc[bg] >= 0 for bg in CAT.battlegroups[ALLIED])
    s.player, s.phase = ALLIED, Phase.REPLACEMENT
    R.end_player_turn(s, SILENT)
    assert loc(s, "8th-Army-Arty") == DEAD


# -- 7.7 Replacements -------------------------------------------------------------------------------------
def _axis_with_two_reduced(**allied: str) -> TunisiaState:
    s = board(AXIS, **{"10th-Pz": "7922", "15th-Pz": "8022"}, **allied)
    s.reduced[CAT.index["10th-Pz"]] = s.reduced[CAT.index["15th-Pz"]] = True
    R.start_replacements(s, SILENT)
    return s


def test_7_7c_a_port_roll_equal_to_the_axis_ports_gives_nothing() -> None:
    # Tunisia 7.7C: "If the result is less than the number of ports the Axis controls, it gains an
    # additional replacement": a roll equal to the ports is not less
    s = _axis_with_two_reduced()
    assert axis_ports(CAT, s) == 5 and s.phase == Phase.REPLACEMENT_ROLL
    R.apply_chance(s, 5)
    assert s.replacements_left == 1
    s = _axis_with_two_reduced(CCA="8611")  # the Allies hold Sousse: four Axis ports
    assert axis_ports(CAT, s) == 4
    R.apply_chance(s, 4)
    assert s.replacements_left == 1
    s = _axis_with_two_reduced(CCA="8611")
    R.apply_chance(s, 3)
    assert s.replacements_left == 2


def test_7_7c_no_port_roll_with_one_axis_port_or_fewer() -> None:
    # Tunisia 7.7C, NOTES.md reading 16: with one port no d6 is ever less than it, so no roll is made; with
    # two the roll is made
    s = _axis_with_two_reduced(CCA="8305", CCB="8418", CCC="8611")  # Tunis and Sfax left: two
    assert axis_ports(CAT, s) == 2 and s.phase == Phase.REPLACEMENT_ROLL
    s = _axis_with_two_reduced(CCA="8305", CCB="8418", CCC="8611", **{"1st-ID": "8615"})  # Tunis alone
    assert axis_ports(CAT, s) == 1
    assert s.phase == Phase.REPLACEMENT and s.replacements_left == 1
    assert sorted(R.legal_actions(s)) == ["end", "rebuild 10th-Pz", "rebuild 15th-Pz"]


def test_7_7i_no_eligible_hex_no_replacement() -> None:
    # Tunisia 7.7I: "place it in any controlled village or port hex that is not in an EZOC. If no eligible
    # placement hex is available, no eliminated support assets may be replaced that turn". The Allies
    # control only the Algerian villages (every Tunisian place is the Axis's); an Axis unit beside each puts
    # them all in an EZOC
    s = board(ALLIED, **{"78th": "7922"})
    s.reduced[CAT.index["78th"]] = True
    s.loc[CAT.index["1st-Army-Arty"]] = DEAD
    villages = sorted(h for h in BOARD.villages if BOARD.country[h] == "algeria")
    watchers = iter(p for p in CAT.by_side[AXIS] if CAT.is_unit[p] and not CAT.is_battlegroup[p] and s.loc[p] < 0)
    for v in villages:
        if v not in enemy_zoc(CAT, s, ALLIED):
            n = next(h for h in BOARD.grid.neighbours(v) if h in BOARD.land and h not in BOARD.place_at)
            s.loc[next(watchers)] = n
    assert all(v in enemy_zoc(CAT, s, ALLIED) for v in villages)
    R.start_replacements(s, SILENT)
    assert s.phase == Phase.REPLACEMENT and s.replacements_left == 2
    assert sorted(R.legal_actions(s)) == ["end", "rebuild 78th"]  # the artillery has nowhere to go
    refused(s, "replace 1st-Army-Arty 7607", "7.7")
    R.apply(s, "rebuild 78th")
    assert s.phase != Phase.REPLACEMENT and loc(s, "1st-Army-Arty") == DEAD


def test_7_7i_a_support_asset_is_replaced_into_a_controlled_port() -> None:
    # Tunisia 7.7I: "any controlled village or port hex": Sousse, held by an Allied unit, is the Allies'
    # (4.0A); the empty Sfax is not. The Axis places its artillery in Sfax, which it controls empty
    s = board(ALLIED, **{"CCA": "8611"})
    s.loc[CAT.index["1st-Army-Arty"]] = DEAD
    R.start_replacements(s, SILENT)
    legal = R.legal_actions(s)
    assert "replace 1st-Army-Arty 8611" in legal and "replace 1st-Army-Arty 8615" not in legal
    R.apply(s, "replace 1st-Army-Arty 8611")
    assert loc(s, "1st-Army-Arty") == at("8611") and not s.reduced[CAT.index["1st-Army-Arty"]]
    s = board(AXIS, **{"CCA": "8611"})
    s.loc[CAT.index["Axis-Arty"]] = DEAD
    R.start_replacements(s, SILENT)
    R.apply_chance(s, 6)
    legal = R.legal_actions(s)
    assert "replace Axis-Arty 8615" in legal and "replace Axis-Arty 8611" not in legal
    R.apply(s, "replace Axis-Arty 8615")
    assert loc(s, "Axis-Arty") == at("8615")


def test_7_7j_unused_replacements_do_not_carry_over() -> None:
    # Tunisia 7.7J: "Unused replacement capacity may not be accumulated from turn to turn". The Allies pass
    # up both replacements on turn 1; on turn 2 they have two again, not four, for their three reduced units
    s = board(ALLIED, **{"78th": "7922", "46th": "7722", "6th-Armd": "7822"})
    reduced = ["78th", "46th", "6th-Armd"]
    for name in reduced:
        s.reduced[CAT.index[name]] = True
    R.apply(s, "end")
    R.apply(s, "end")
    assert s.phase == Phase.REPLACEMENT and s.replacements_left == 2
    R.apply(s, "end")  # none taken
    assert s.phase == Phase.PATTON_ROLL
    R.apply_chance(s, 12)
    assert (s.turn, s.player) == (2, AXIS)
    play_out_the_phases(s)  # the Axis player-turn, its one replacement (and the port roll's) unused too
    assert (s.turn, s.player, s.phase) == (2, ALLIED, Phase.MOVEMENT)
    R.apply(s, "end")
    R.apply(s, "end")
    assert s.phase == Phase.REPLACEMENT and s.replacements_left == 2
    R.apply(s, "rebuild 78th")
    R.apply(s, "rebuild 46th")
    assert s.phase == Phase.PATTON_ROLL and s.reduced[CAT.index["6th-Armd"]]


# -- 16.0 Patton, 17.0 Rommel -----------------------------------------------------------------------------
def test_16_0a_a_ii_corps_unit_in_algeria_does_not_count() -> None:
    # Tunisia 16.0A: "the number of US II Corps units currently in Tunisia": CCA east of the orange border
    # counts, CCB in Algeria (7812) does not
    s = end_of_allied_turn(1, CCA="8113", CCB="7812")
    assert BOARD.country[at("8113")] == "tunisia" and BOARD.country[at("7812")] == "algeria"
    assert ii_corps_in_tunisia(CAT, s) == 1
    R.end_player_turn(s, SILENT)
    assert s.phase == Phase.PATTON_ROLL
    R.apply_chance(s, 2)
    assert not s.patton_arrived and loc(s, "CCB") == at("7812") and s.turn == 2
    s = end_of_allied_turn(1, CCA="8113", CCB="7812")
    R.end_player_turn(s, SILENT)
    R.apply_chance(s, 1)
    assert s.patton_arrived and loc(s, "CCB**") == at("7812")


def test_16_0b_a_blocked_forced_arrival_comes_again_next_turn() -> None:
    # Tunisia 16.0B, NOTES.md reading 18: with no II Corps unit on the map and every II Corps hex held by
    # the Axis, Patton cannot arrive at the end of turn 3; at the end of turn 4 he arrives without a roll
    holders = {"10th-Pz": "7912", "15th-Pz": "7914", "21st-Pz": "8013", "DAK": "8112", "Centauro": "8113"}
    assert {at(h) for h in holders.values()} == BOARD.ii_corps
    s = end_of_allied_turn(3, **holders)
    assert not any(s.loc[p] >= 0 for p in CAT.by_side[ALLIED] if CAT.ii_corps[p])
    R.end_player_turn(s, SILENT)
    assert not s.patton_arrived and loc(s, "Patton") < 0
    assert (s.turn, s.player, s.phase) == (4, AXIS, Phase.MOVEMENT)
    R.apply(s, "move DAK 8112 8110")  # one II Corps hex is free again
    play_out_the_phases(s)
    assert (s.turn, s.player) == (4, ALLIED)
    R.apply(s, "end")
    R.apply(s, "end")  # the Allies have nothing to replace: the turn ends, Patton arrives (no die)
    assert s.patton_arrived and loc(s, "Patton") == at("8112")
    assert (s.turn, s.player, s.phase) == (5, AXIS, Phase.MOVEMENT)


def _rommel_roll_after(s: TunisiaState, roll: int) -> None:
    """The end of the Allied turn 6 with the Allies in Sousse, Sfax and Mareth (two ports), then `roll`."""
    s.player, s.phase, s.turn, s.patton_arrived = ALLIED, Phase.REPLACEMENT, 6, True
    for name, label in {"Rommel": "8514", "CCA": "8611", "CCB": "8615", "CCC": "8519"}.items():
        put(s, name, label)
    R.end_player_turn(s, SILENT)
    assert s.phase == Phase.ROMMEL_ROLL and allied_ports(CAT, s) == 2
    R.apply_chance(s, roll)


def test_17_0b_an_axis_unit_ever_in_an_8th_army_hex_cancels_the_mareth_drm() -> None:
    # Tunisia 17.0B: the -1 applies "as long as no Axis unit had ever occupied any 8th Army hex": the
    # panzers entered 8720 and left it; later, with Mareth Allied, a roll of 3 against two ports keeps Rommel
    s = board(AXIS, **{"10th-Pz": "8620"})
    R.apply(s, "move 10th-Pz 8620 8720")
    assert s.axis_entered_eighth_army
    put(s, "10th-Pz", "8620")  # gone from the 8th Army hexes
    _rommel_roll_after(s, 3)
    assert loc(s, "Rommel") == at("8514")
    # a support asset is not a unit: the Marines in 8720 leave the -1 in force, and 3 - 1 <= 2 recalls him
    s = board(AXIS, Marines="8620")
    R.apply(s, "move Marines 8620 8720")
    assert not s.axis_entered_eighth_army
    _rommel_roll_after(s, 3)
    assert loc(s, "Rommel") == REMOVED


# -- 4.0 Winning the Game -----------------------------------------------------------------------------------
def test_4_0a_a_port_entered_then_left_no_longer_counts() -> None:
    # Tunisia 4.0A: "If an Allied unit enters but then leaves a port hex, that hex is no longer considered
    # captured": the 1st ID leaves Gabes, the 34th ID takes Sfax, four ports held at once, no victory
    s = board(ALLIED, **{"CCA": "8305", "CCB": "8407", "CCC": "8611", "1st-ID": "8418", "34th-ID": "8614"})
    R.apply(s, "move 1st-ID 8418 8417")
    R.apply(s, "move 34th-ID 8614 8615")
    assert R.result(s) is None and allied_ports(CAT, s) == 4 and s.phase == Phase.MOVEMENT
    assert "move CCA 8305 8306" in R.legal_actions(s)  # the game goes on


def test_4_0b_three_airfields_do_not_win_while_the_allies_hold_a_port() -> None:
    # Tunisia 4.0B: "If three Allied airfields (including the Axis airfield at Souk al Arba) are occupied at
    # the end of a turn and the Allies control no ports": the CCA in Sousse denies it
    pieces = {"10th-Pz": "7712", "15th-Pz": "7607", "21st-Pz": "8008"}
    s = end_of_allied_turn(4, CCA="8611", **pieces)
    s.patton_arrived = True
    R.end_player_turn(s, SILENT)
    assert R.result(s) is None and (s.turn, s.player, s.phase) == (5, AXIS, Phase.MOVEMENT)
    s = end_of_allied_turn(4, CCA="8612", **pieces)  # beside Sousse, not in it: the Axis wins
    s.patton_arrived = True
    R.end_player_turn(s, SILENT)
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and result.rule == "4.0B"


def test_4_0b_the_airfields_are_counted_only_at_the_end_of_a_turn() -> None:
    # Tunisia 4.0B "occupied at the end of a turn": the third airfield taken in the Axis Movement Phase wins
    # nothing then, nor at the end of the Axis player-turn; at the end of the turn (after the Allies') it does
    s = board(AXIS, **{"10th-Pz": "7712", "15th-Pz": "7607", "21st-Pz": "8009"})
    s.turn, s.patton_arrived = 4, True
    R.apply(s, "move 21st-Pz 8009 8008")
    assert R.result(s) is None
    play_out_the_phases(s)
    assert R.result(s) is None and (s.turn, s.player, s.phase) == (4, ALLIED, Phase.MOVEMENT)
    R.apply(s, "end")
    R.apply(s, "end")
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and result.rule == "4.0B"
    assert "three Allied airfields" in result.reason and s.turn == 4


def test_4_0b_8821_reached_by_an_advance_after_combat_wins() -> None:
    # Tunisia 4.0B "By occupying hex 8821 at any time": the panzers advance into it (7.5, no movement)
    s = battle(AXIS, **{"10th-Pz": "8721", "1st-Gds": "8821"})
    R.apply(s, "attack 8721 8821")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)  # the one-step Guards are eliminated
    assert loc(s, "1st-Gds") == DEAD and s.phase == Phase.ADVANCE and R.result(s) is None
    R.apply(s, "advance 8721 8821")
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and result.rule == "4.0B" and R.to_act(s) is None


def test_4_0b_8821_reached_by_a_retreat_wins() -> None:
    # Tunisia 4.0B "at any time": even in the Allied player-turn, the panzers retreating (14.1B, the owner's
    # choice) two hexes from 8621 into 8821
    s = battle(ALLIED, **{"78th": "8521", "10th-Pz": "8621"})
    R.apply(s, "attack 8521 8621")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    assert s.phase == Phase.RETREAT and R.to_act(s) == "Axis"
    assert "retreat 10th-Pz 8621 8821" in R.legal_actions(s)
    R.apply(s, "retreat 10th-Pz 8621 8821")
    result = R.result(s)
    assert result is not None and result.winner == "Axis" and result.rule == "4.0B" and R.to_act(s) is None
