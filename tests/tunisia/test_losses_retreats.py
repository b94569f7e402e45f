"""Tunisia's losses, retreats, advances and breakthroughs (13.1, 12.2, 12.4, 14.1-14.3, 15.0): the rule
statements tests/tunisia/test_rules.py leaves unchecked. Each test cites its rule (`# Tunisia 14.2C`) and, like
that file, builds its position in the open desert of the south-west (columns 77-83, rows 20-25) unless
the rule needs a place of the map (the coast, for 14.2A). Every die is given (`R.apply_chance`).

The battle hex of most tests is 8122, attacked from 8022. Its neighbours are 8222 8221 8121 8021 8022 8123;
the attacking unit's zone of control covers 8021, 8123, 7922, 7923 and 8023, so the hexes two away that a
retreat from 8122 may reach are 8020 8120 8220 8223 8321 8322 8323 (`OPEN_RETREATS`)."""

from __future__ import annotations

import pytest
from tunisia_positions import BOARD, CAT, R, at, battle, loc, put, refused

from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.combat import support_drm
from warroom.games.tunisia.state import DEAD, Phase, TunisiaState
from warroom.games.tunisia.zoc import enemy_zoc

OPEN_RETREATS = ["8020", "8120", "8220", "8223", "8321", "8322", "8323"]


def ids(s: TunisiaState) -> list[str]:
    return R.legal_actions(s)


def retreat_ends(s: TunisiaState) -> list[str]:
    """The hexes the piece now retreating may end in, from the legal `retreat PIECE FROM TO` ids."""
    assert s.phase == Phase.RETREAT
    return [a.split()[-1] for a in ids(s)]


def fight(s: TunisiaState, attack: str, attack_roll: int, defence_roll: int | None) -> None:
    """Declare `attack` (no defensive air is in range in these positions) and roll its dice."""
    R.apply(s, attack)
    assert s.phase == Phase.ATTACK_ROLL and R.to_act(s) == CHANCE
    R.apply_chance(s, attack_roll)
    if defence_roll is not None:
        assert s.phase == Phase.DEFENSE_ROLL
        R.apply_chance(s, defence_roll)


def common_neighbours(a: str, b: str) -> list[str]:
    near = set(BOARD.grid.neighbours(at(b)))
    return sorted(BOARD.label(h) for h in BOARD.grid.neighbours(at(a)) if h in near)


# -- 13.1A: two-step support assets ---------------------------------------------------------------------
TWO_STEP_SUPPORTS = ["8th-Army-Arty", "501st-Tiger", "II-Corps-Arty**", "601st-TD**"]


def test_13_1b_the_two_step_support_assets_are_the_ones_with_a_printed_reverse() -> None:
    # Tunisia 13.1B: "most support assets do not have any data printed on their reverse sides"; the
    # non-air support assets with a printed back (counters.toml steps = 2) are exactly these four
    two_step = {CAT.ids[p] for p in range(CAT.n) if not CAT.is_unit[p] and not CAT.is_air[p] and CAT.steps[p] == 2}
    assert two_step == set(TWO_STEP_SUPPORTS)


@pytest.mark.parametrize("asset", TWO_STEP_SUPPORTS)
def test_13_1a_a_two_step_support_asset_is_flipped_then_eliminated(asset: str) -> None:
    # Tunisia 13.1A: "When a counter is reduced, flip it to its reverse side, which typically features lower
    # combat factors"; 13.1C: the owner chooses the piece that takes the loss. Both rolls succeed (12.3), so
    # nothing retreats and the asset defends again in the second battle, where its second loss eliminates it
    piece = CAT.index[asset]
    side = CAT.side[piece]
    assert CAT.steps[piece] == 2
    if side == ALLIED:
        player, defender, first, second = AXIS, "78th", "10th-Pz", "15th-Pz"
    else:
        player, defender, first, second = ALLIED, "10th-Pz", "78th", "46th"
    s = battle(player, **{first: "8022", second: "8222", defender: "8122", asset: "8122"})
    assert support_drm(CAT, s, at("8122"), side, -1) == CAT.drm[piece] == -2
    fight(s, "attack 8022 8122", 1, 1)
    assert s.phase == Phase.DEFENDER_LOSS
    assert sorted(ids(s)) == sorted([f"loss {defender}", f"loss {asset}"])
    R.apply(s, f"loss {asset}")
    assert loc(s, asset) == at("8122") and s.reduced[piece]  # flipped, still in its hex
    assert not s.reduced[CAT.index[defender]]
    assert support_drm(CAT, s, at("8122"), side, -1) == CAT.reduced_drm[piece] == -1  # its reverse side
    assert s.phase == Phase.ATTACK  # the attacker's own loss had one candidate: taken at once
    fight(s, "attack 8222 8122", 1, 1)
    R.apply(s, f"loss {asset}")
    assert loc(s, asset) == DEAD and not s.reduced[piece]  # reduced again: eliminated, to the dead pile
    assert loc(s, defender) == at("8122") and not s.reduced[CAT.index[defender]]


def test_13_1a_the_attacker_may_take_its_loss_on_a_two_step_support_asset() -> None:
    # Tunisia 13.1A, 13.1C ("the owner may choose which of them is reduced or eliminated after a successful
    # enemy attack or defense"), 12.2A: a successful defence flips the attacker's 501st Tigers, and
    # eliminates them when they are already reduced
    s = battle(AXIS, **{"10th-Pz": "8022", "501st-Tiger": "8022", "78th": "8122"})
    fight(s, "attack 8022 8122", 12, 1)
    assert s.phase == Phase.ATTACKER_LOSS and R.to_act(s) == "Axis"
    assert sorted(ids(s)) == ["loss 10th-Pz", "loss 501st-Tiger"]
    R.apply(s, "loss 501st-Tiger")
    assert loc(s, "501st-Tiger") == at("8022") and s.reduced[CAT.index["501st-Tiger"]]
    assert not s.reduced[CAT.index["10th-Pz"]] and s.phase == Phase.ATTACK
    s = battle(AXIS, **{"10th-Pz": "8022", "501st-Tiger": "8022", "78th": "8122"})
    s.reduced[CAT.index["501st-Tiger"]] = True
    fight(s, "attack 8022 8122", 12, 1)
    R.apply(s, "loss 501st-Tiger")
    assert loc(s, "501st-Tiger") == DEAD and loc(s, "10th-Pz") == at("8022")


# -- 12.2A / 13.1A: the attacker's battlegroup ---------------------------------------------------------------
def test_12_2a_a_reduced_attacker_hit_by_the_defence_is_replaced_by_a_battlegroup() -> None:
    # Tunisia 12.2A: "that attacking unit is reduced (flipped), or is replaced by a battlegroup if it began
    # the combat already reduced"; 13.1A
    s = battle(AXIS, **{"10th-Pz": "8022", "78th": "8122"})
    s.reduced[CAT.index["10th-Pz"]] = True
    fight(s, "attack 8022 8122", 12, 1)
    bg = CAT.battlegroups[AXIS][0]
    assert loc(s, "10th-Pz") == DEAD
    assert s.loc[bg] == at("8022") and s.origin[bg] == CAT.index["10th-Pz"] and CAT.cf[bg] == 2
    assert loc(s, "78th") == at("8122") and not s.reduced[CAT.index["78th"]]  # the attack missed
    # the battlegroup has made its unit's attack (11.1A): nothing is left to do in this Attack Phase
    assert s.phase == Phase.ATTACK and s.attacked[bg] and ids(s) == ["end"]


def test_12_2a_with_no_battlegroup_counter_left_the_reduced_attacker_is_eliminated() -> None:
    # Tunisia 12.2A, 13.1A, and NOTES.md reading 13: "With none free the unit is eliminated"
    s = battle(AXIS, **{"10th-Pz": "8022", "78th": "8122"})
    s.reduced[CAT.index["10th-Pz"]] = True
    elsewhere = ["7225", "7425", "7625", "7825", "7224", "7424"]  # every Axis battlegroup counter in play
    for bg, label in zip(CAT.battlegroups[AXIS], elsewhere, strict=True):
        s.loc[bg] = at(label)
        s.origin[bg] = CAT.index["90th-Lt"]
    fight(s, "attack 8022 8122", 12, 1)
    assert loc(s, "10th-Pz") == DEAD
    assert not any(where == at("8022") for where in s.loc)  # nothing replaces it
    assert [BOARD.label(s.loc[bg]) for bg in CAT.battlegroups[AXIS]] == elsewhere
    assert s.phase == Phase.ATTACK and loc(s, "78th") == at("8122")


# -- 14.1C: each piece to its own hex ---------------------------------------------------------------------
def test_14_1c_the_pieces_of_one_hex_may_retreat_to_different_hexes() -> None:
    # Tunisia 14.1C: "If a hex contains more than one unit, each may retreat to a different hex (owner's
    # choice on a unit-by-unit and battle-by-battle basis) provided each final retreat hex is two hexes
    # distant from the battle hex"
    s = battle(AXIS, **{"10th-Pz": "8022", "78th": "8122", "1st-Army-Arty": "8122"})
    fight(s, "attack 8022 8122", 1, 12)
    R.apply(s, "loss 78th")
    assert s.phase == Phase.RETREAT and R.to_act(s) == "Allied"
    assert ids(s) == [f"retreat 78th 8122 {h}" for h in OPEN_RETREATS]
    R.apply(s, "retreat 78th 8122 8020")
    assert s.phase == Phase.RETREAT  # the artillery retreats on its own, and may go elsewhere
    assert ids(s) == [f"retreat 1st-Army-Arty 8122 {h}" for h in OPEN_RETREATS]
    R.apply(s, "retreat 1st-Army-Arty 8122 8323")
    assert loc(s, "78th") == at("8020") and s.reduced[CAT.index["78th"]]
    assert loc(s, "1st-Army-Arty") == at("8323")
    assert BOARD.grid.distance(at("8020"), at("8122")) == BOARD.grid.distance(at("8323"), at("8122")) == 2
    assert s.phase == Phase.ADVANCE


# -- 14.2A-C: retreat restrictions ---------------------------------------------------------------------------
def test_14_2a_no_retreat_into_or_through_the_sea() -> None:
    # Tunisia 14.2A: "Units may not retreat into or through a prohibited hex"; the sea is a non-hex area
    # (8.7A). On the coast at 8611 (attacked from 8712), 8609 is two hexes north, open land, but the only
    # hex between them, 8610, is sea; 8710, 8810 and 8811 are two away and at sea
    assert common_neighbours("8611", "8609") == ["8610"]
    assert BOARD.terrain[at("8610")] == "sea" and at("8609") in BOARD.land
    sea_ends = [h for h in ("8710", "8810", "8811") if BOARD.grid.distance(at(h), at("8611")) == 2]
    assert sea_ends == ["8710", "8810", "8811"] and not any(at(h) in BOARD.land for h in sea_ends)
    s = battle(ALLIED, **{"78th": "8712", "10th-Pz": "8611"})
    fight(s, "attack 8712 8611", 1, 12)
    assert s.reduced[CAT.index["10th-Pz"]] and R.to_act(s) == "Axis"
    assert at("8609") not in enemy_zoc(CAT, s, AXIS)  # nothing else keeps the panzers out of 8609
    assert retreat_ends(s) == ["8410", "8411", "8412", "8510", "8513"]  # neither 8609 nor the sea
    refused(s, "retreat 10th-Pz 8611 8609", "14.1")
    refused(s, "retreat 10th-Pz 8611 8710", "14.1")


def test_14_2b_no_retreat_ending_overstacked() -> None:
    # Tunisia 14.2B: "Units may not end a retreat in any hex that would create an overstacked situation"
    # (6.0A: one unit a hex; 6.0B: two support assets, with a unit or alone). 8322 holds an Allied unit,
    # 8223 two Allied support assets
    pieces = {"10th-Pz": "8022", "78th": "8122", "1st-Army-Arty": "8122", "46th": "8322"}
    s = battle(AXIS, **pieces, **{"II-Corps-Arty": "8223", "601st-TD": "8223"})
    fight(s, "attack 8022 8122", 1, 12)
    R.apply(s, "loss 78th")
    # the unit may join the two support assets in 8223 but not the 46th in 8322
    assert retreat_ends(s) == [h for h in OPEN_RETREATS if h != "8322"]
    refused(s, "retreat 78th 8122 8322", "14.1")
    R.apply(s, "retreat 78th 8122 8020")
    # the artillery may join a unit (8322, 8020 where the 78th now is) but not two support assets (8223)
    assert retreat_ends(s) == [h for h in OPEN_RETREATS if h != "8223"]
    refused(s, "retreat 1st-Army-Arty 8122 8223", "14.1")
    R.apply(s, "retreat 1st-Army-Arty 8122 8322")
    assert loc(s, "1st-Army-Arty") == loc(s, "46th") == at("8322")


def test_14_2c_no_retreat_into_or_through_a_hex_with_a_lone_enemy_support_asset() -> None:
    # Tunisia 14.2C: "Units may not retreat into or through hex containing an enemy counter": a lone
    # support asset projects no zone of control (9.1A) yet bars the hex. The Axis artillery in 8222 closes
    # 8223 and 8323 (only reached through 8222; 8322 is still reached through 8221), the Marines in 8020
    # close 8020 itself
    assert common_neighbours("8122", "8323") == ["8222"]
    assert common_neighbours("8122", "8223") == ["8123", "8222"]  # 8123 is in the panzer's zone
    assert common_neighbours("8122", "8322") == ["8221", "8222"]
    s = battle(AXIS, **{"10th-Pz": "8022", "78th": "8122", "Axis-Arty": "8222", "Marines": "8020"})
    zone = enemy_zoc(CAT, s, ALLIED)
    assert not any(at(h) in zone for h in ("8222", "8223", "8323", "8020"))  # support assets: no ZOC
    fight(s, "attack 8022 8122", 1, 12)
    assert retreat_ends(s) == ["8120", "8220", "8321", "8322"]
    refused(s, "retreat 78th 8122 8323", "14.1")
    refused(s, "retreat 78th 8122 8020", "14.1")


def test_14_2c_a_friendly_unit_does_not_negate_an_ezoc_for_a_retreat() -> None:
    # Tunisia 14.2C: "(Friendly units do not negate EZOCs for retreat purposes.)" The 15th Panzer in 8222
    # puts 8221, where the Allied 46th stands, in its zone; 8321 is outside every zone but only reached
    # through 8221, so it is closed although a friendly unit holds the hex on the way
    assert common_neighbours("8122", "8321") == ["8221"]
    pieces = {"10th-Pz": "8022", "78th": "8122", "46th": "8221"}
    s = battle(AXIS, **pieces)  # first without the 15th Panzer: through the 46th's hex is open
    fight(s, "attack 8022 8122", 1, 12)
    assert retreat_ends(s) == OPEN_RETREATS
    s = battle(AXIS, **pieces, **{"15th-Pz": "8222"})
    zone = enemy_zoc(CAT, s, ALLIED)
    assert at("8221") in zone and at("8321") not in zone
    fight(s, "attack 8022 8122", 1, 12)
    assert "8321" not in retreat_ends(s)
    assert retreat_ends(s) == ["8020", "8120", "8220"]  # 8322, 8323, 8223 are in the zone too
    refused(s, "retreat 78th 8122 8321", "14.1")


# -- 14.3: advance after combat -----------------------------------------------------------------------------
def test_14_3a_an_advance_ignores_ezocs() -> None:
    # Tunisia 14.3A: "the attacker may move the attacking force into that hex. EZOCs are ignored." The 10th
    # Panzer moved this turn into the 46th's zone (9.1C: it must end all movement there for the phase) and
    # the vacated hex lies in the zone of the 34th; it advances all the same, its artillery with it (7.5C)
    s = battle(AXIS, **{"10th-Pz": "8022", "Axis-Arty": "8022", "1st-Gds": "8122", "46th": "7922"})
    put(s, "34th-ID", "8222")
    panzer = CAT.index["10th-Pz"]
    s.moved[panzer], s.moved_from[panzer] = True, at("7822")
    zone = enemy_zoc(CAT, s, AXIS)
    assert at("8022") in zone and at("8122") in zone
    fight(s, "attack 8022 8122", 1, 12)
    assert loc(s, "1st-Gds") == DEAD
    assert s.phase == Phase.ADVANCE and R.to_act(s) == "Axis"
    assert ids(s) == ["advance 8022 8122", "no advance"]
    R.apply(s, "advance 8022 8122")
    assert loc(s, "10th-Pz") == loc(s, "Axis-Arty") == at("8122") and s.phase == Phase.ATTACK


def test_14_3c_no_new_attack_while_an_advance_is_pending() -> None:
    # Tunisia 14.3C: "An advance after combat must be made before starting the resolution of any subsequent
    # battle (7.5)"; 7.5B "the attacker must decide whether to advance immediately after each attack"
    s = battle(AXIS, **{"10th-Pz": "8022", "1st-Gds": "8122", "15th-Pz": "7821", "46th": "7922"})
    assert "attack 7821 7922" in ids(s)
    fight(s, "attack 8022 8122", 1, 12)
    assert s.phase == Phase.ADVANCE
    assert ids(s) == ["advance 8022 8122", "no advance"]  # the decision first, and nothing else
    refused(s, "attack 7821 7922", "7.5")
    refused(s, "end", "7.5")
    R.apply(s, "no advance")
    assert s.phase == Phase.ATTACK and "attack 7821 7922" in ids(s) and loc(s, "10th-Pz") == at("8022")


def test_12_4b_and_7_5a_the_attacker_may_advance_after_lone_support_assets_retreat() -> None:
    # Tunisia 12.4B: lone support assets "must retreat even if they survive"; 7.5A: "If any enemy unit and/or
    # support asset ... retreats from a hex, the attacking unit that caused that ... retreat may move into that
    # hex"; 14.3A "if the defender's original hex is vacant" (NOTES.md readings 8 and 11)
    s = battle(AXIS, **{"10th-Pz": "8022", "1st-Army-Arty": "8122", "8th-Army-Arty": "8122"})
    fight(s, "attack 8022 8122", 12, None)  # the attack fails; lone support assets never roll (12.4A)
    assert ids(s) == [f"retreat 1st-Army-Arty 8122 {h}" for h in OPEN_RETREATS]  # each in turn (14.1C)
    R.apply(s, "retreat 1st-Army-Arty 8122 8323")
    R.apply(s, "retreat 8th-Army-Arty 8122 8020")
    assert loc(s, "8th-Army-Arty") == at("8020") and loc(s, "1st-Army-Arty") == at("8323")
    assert not s.reduced[CAT.index["8th-Army-Arty"]]  # the failed attack cost them nothing
    assert s.phase == Phase.ADVANCE and ids(s) == ["advance 8022 8122", "no advance"]
    R.apply(s, "advance 8022 8122")
    assert loc(s, "10th-Pz") == at("8122") and s.phase == Phase.ATTACK


# -- 15.0 Breakthroughs -------------------------------------------------------------------------------------
def test_15_0a_no_breakthrough_after_a_failed_attack_even_when_lone_support_assets_retreat() -> None:
    # Tunisia 15.0A: a breakthrough comes only "after conducting a successful attack"; the retreat that 12.4B
    # forces on lone support assets the attack missed (15.0B's condition) is not enough
    s = battle(AXIS, **{"10th-Pz": "8022", "Rommel": "8022", "1st-Army-Arty": "8122"})
    fight(s, "attack 8022 8122", 12, None)
    R.apply(s, "retreat 1st-Army-Arty 8122 8020")
    R.apply(s, "advance 8022 8122")
    assert loc(s, "10th-Pz") == loc(s, "Rommel") == at("8122")
    assert s.phase == Phase.ATTACK and s.breakthrough == -1


def test_15_0b_a_breakthrough_opens_when_the_defender_retreats() -> None:
    # Tunisia 15.0B: "A breakthrough can be made only if the enemy counters involved in the first battle hex
    # retreated or were eliminated": here the 78th survives, reduced, and retreats
    s = battle(AXIS, **{"10th-Pz": "8022", "Rommel": "8022", "78th": "8122"})
    fight(s, "attack 8022 8122", 1, 12)
    R.apply(s, "retreat 78th 8122 8020")
    assert loc(s, "78th") == at("8020") and s.reduced[CAT.index["78th"]]
    R.apply(s, "no advance")
    assert s.phase == Phase.BREAKTHROUGH and R.to_act(s) == "Axis"
    assert s.breakthrough == CAT.index["10th-Pz"]
    assert "move 10th-Pz 8022 8222" in ids(s) and "end" in ids(s)


def test_15_0d_a_breakthrough_may_be_just_an_attack() -> None:
    # Tunisia 15.0D: "A breakthrough may be a move and attack, just a move, or just an attack": the 10th
    # Panzer, not moving again, attacks the 1st Para next to it, and may not move after that attack
    s = battle(AXIS, **{"10th-Pz": "8022", "Rommel": "8022", "1st-Gds": "8122", "1st-Para": "7922"})
    assert "attack 8022 7922" in ids(s)
    fight(s, "attack 8022 8122", 1, 12)
    R.apply(s, "no advance")
    assert s.phase == Phase.BREAKTHROUGH and "attack 8022 7922" in ids(s)
    assert any(a.startswith("move 10th-Pz 8022 ") for a in ids(s))
    fight(s, "attack 8022 7922", 12, 12)  # the second attack (11.1A's exception), from where it stands
    assert not s.bt_moved and s.phase == Phase.ATTACK and s.breakthrough == -1
    assert loc(s, "10th-Pz") == loc(s, "Rommel") == at("8022")
    assert ids(s) == ["end"]  # 15.0E: after the breakthrough, no more movement or attacks by it


def test_15_0d_a_breakthrough_attack_alone_that_the_defence_holds_ends_the_breakthrough() -> None:
    # Tunisia 15.0D: "just an attack"; 15.0E: "Regardless, after a breakthrough is completed, no more movement
    # or attacks by that same unit or support asset(s) may occur": the hex holds (both rolls succeed), the
    # attacker takes its loss (13.1C), and the unit may neither move nor attack again
    s = battle(AXIS, **{"10th-Pz": "8022", "Rommel": "8022", "1st-Gds": "8122", "78th": "7922"})
    fight(s, "attack 8022 8122", 1, 12)
    R.apply(s, "no advance")
    fight(s, "attack 8022 7922", 1, 1)  # both succeed: no retreat (14.1A)
    assert s.phase == Phase.ATTACKER_LOSS and sorted(ids(s)) == ["loss 10th-Pz", "loss Rommel"]
    R.apply(s, "loss 10th-Pz")
    assert s.reduced[CAT.index["10th-Pz"]] and s.reduced[CAT.index["78th"]]
    assert s.phase == Phase.ATTACK and s.breakthrough == -1 and ids(s) == ["end"]


def test_15_0e_the_unit_may_advance_after_a_successful_breakthrough_attack() -> None:
    # Tunisia 15.0E: "If a breakthrough attack is successful, the involved attacking unit and any non-air
    # support asset(s) may advance after combat again normally. Regardless, after a breakthrough is
    # completed, no more movement or attacks by that same unit or support asset(s) may occur"
    pieces = {"10th-Pz": "8022", "Rommel": "8022", "Axis-Arty": "8022", "1st-Gds": "8122", "1st-Para": "8324"}
    s = battle(AXIS, **pieces)
    fight(s, "attack 8022 8122", 1, 12)
    R.apply(s, "advance 8022 8122")
    assert s.phase == Phase.BREAKTHROUGH
    R.apply(s, "move 10th-Pz 8122 8223")
    assert loc(s, "10th-Pz") == loc(s, "Rommel") == loc(s, "Axis-Arty") == at("8223")
    fight(s, "attack 8223 8324", 1, 12)
    assert loc(s, "1st-Para") == DEAD  # one step (13.1B)
    assert s.phase == Phase.ADVANCE and ids(s) == ["advance 8223 8324", "no advance"]
    R.apply(s, "advance 8223 8324")
    assert loc(s, "10th-Pz") == loc(s, "Rommel") == loc(s, "Axis-Arty") == at("8324")
    assert s.phase == Phase.ATTACK and s.breakthrough == -1  # no second breakthrough
    assert ids(s) == ["end"]
