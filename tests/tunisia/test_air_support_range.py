"""Tunisia 7.3A and 7.3C read alike: an air support asset flies "from its airfield hex ... to the hex containing"
the attacking unit (7.3A) or the defending unit (7.3C), if that unit is within its range factor. An asset whose
airfield is the unit's own hex (range 0) is offered to either side; one out of range is offered to neither
(NOTES.md, reading 6)."""

from __future__ import annotations

from tunisia_positions import BOARD, CAT, R, at, battle, loc, refused

from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.state import RETURN_TO_BASE, Phase


def test_7_3a_the_attacker_flies_from_the_attacking_units_own_airfield() -> None:
    # Tunisia 7.3A: the 78th attacks from Bone (7607), whose airfield holds XII Air Support Command: range 0
    s = battle(ALLIED, **{"78th": "7607", "XII-ASC": "7607", "334th": "7707"})
    assert at("7607") in BOARD.airfields and BOARD.grid.distance(at("7607"), at("7707")) == 1
    assert "attack 7607 7707 +air XII-ASC" in R.legal_actions(s)
    R.apply(s, "attack 7607 7707 +air XII-ASC")
    assert s.battle is not None and s.battle.attacker_air == CAT.index["XII-ASC"]
    assert loc(s, "XII-ASC") == RETURN_TO_BASE  # it flew to the battle (7.4D)


def test_7_3a_the_attacker_is_not_offered_an_asset_out_of_range() -> None:
    # Tunisia 7.3A: "The attacking unit must be within the air support asset's range factor" (the Regia
    # Aeronautica: 20; Bizerte 8305 lies 21 hexes from 7522); the Fliegerkorps (32) in Tunis reaches it
    s = battle(AXIS, **{"10th-Pz": "7522", "78th": "7422", "Regia-Aeronautica": "8305", "Fliegerkorps": "8407"})
    assert BOARD.grid.distance(at("8305"), at("7522")) > CAT.range[CAT.index["Regia-Aeronautica"]]
    assert BOARD.grid.distance(at("8407"), at("7522")) <= CAT.range[CAT.index["Fliegerkorps"]]
    attacks = [a for a in R.legal_actions(s) if a.startswith("attack 7522 7422")]
    assert attacks == ["attack 7522 7422", "attack 7522 7422 +air Fliegerkorps"]
    refused(s, "attack 7522 7422 +air Regia-Aeronautica", "7.3A")


def test_7_3c_the_defender_flies_from_the_defending_units_own_airfield() -> None:
    # Tunisia 7.3C, read as 7.3A: the Fliegerkorps on Kairouan's airfield (8411) with the 334th may fly to the
    # defence of the hex it stands in (range 0), as the attacker's asset may fly from the attacking unit's hex
    s = battle(ALLIED, **{"334th": "8411", "Fliegerkorps": "8411", "78th": "8410"})
    R.apply(s, "attack 8410 8411")
    assert s.phase == Phase.DEFENSIVE_AIR and R.to_act(s) == "Axis"
    assert sorted(R.legal_actions(s)) == ["air Fliegerkorps", "no air"]
    R.apply(s, "air Fliegerkorps")
    assert s.battle is not None and s.battle.defender_air == CAT.index["Fliegerkorps"]
    assert loc(s, "Fliegerkorps") == RETURN_TO_BASE and s.phase == Phase.ATTACK_ROLL


def test_7_3c_the_defender_is_not_offered_an_asset_out_of_range() -> None:
    # Tunisia 7.3C: "if the defending unit is within range of the air support asset": the Regia Aeronautica
    # (range 20) in Bizerte does not reach 7522, 21 hexes away; the Fliegerkorps (32) in Tunis does
    s = battle(ALLIED, **{"334th": "7522", "78th": "7422", "Regia-Aeronautica": "8305", "Fliegerkorps": "8407"})
    R.apply(s, "attack 7422 7522")
    assert s.phase == Phase.DEFENSIVE_AIR
    assert sorted(R.legal_actions(s)) == ["air Fliegerkorps", "no air"]
    refused(s, "air Regia-Aeronautica", "7.3C")
    # with only the asset out of range the defender has no air choice: the attack is rolled at once
    s = battle(ALLIED, **{"334th": "7522", "78th": "7422", "Regia-Aeronautica": "8305"})
    R.apply(s, "attack 7422 7522")
    assert s.phase == Phase.ATTACK_ROLL and loc(s, "Regia-Aeronautica") == at("8305")


def test_7_3d_a_lone_air_asset_attacked_does_not_fly_to_its_own_defence() -> None:
    # Tunisia 7.3D with 12.4 and 13.3: the Fliegerkorps alone on Kairouan's airfield is the piece attacked, not
    # a supporter flying in: it is not offered; another asset in range may still fly to the hex's defence
    s = battle(ALLIED, **{"Fliegerkorps": "8411", "Regia-Aeronautica": "8407", "78th": "8410"})
    R.apply(s, "attack 8410 8411")
    assert s.phase == Phase.DEFENSIVE_AIR
    assert sorted(R.legal_actions(s)) == ["air Regia-Aeronautica", "no air"]
    refused(s, "air Fliegerkorps", "7.3D")
