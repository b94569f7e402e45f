"""Tunisia: hex control of ports (4.0A, 7.7I), battlegroups lost to supply (7.8C), and where Patton may arrive
once the II Corps is swapped (16.0A-C): three points a rules review found the code reading two ways."""

from __future__ import annotations

from tunisia_positions import BOARD, CAT, R, at, blank

from warroom.engine.events import SILENT, Events
from warroom.games.tunisia.arrivals import patton_hexes
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.invariants import problems
from warroom.games.tunisia.replacements import axis_ports
from warroom.games.tunisia.state import DEAD, OFF_MAP, Phase
from warroom.games.tunisia.victory import allied_ports, controller


def test_a_port_with_a_lone_allied_support_asset_stays_axis_for_every_rule() -> None:
    # Tunisia 4.0A ("only considered captured while an Allied unit occupies that hex"), 7.7C, 7.7I
    s = blank(ALLIED, **{"1st-Army-Arty": "8611"})  # Sousse, a port, held by an artillery asset alone
    s.loc[CAT.index["8th-Army-Arty"]] = DEAD
    assert controller(CAT, s, at("8611")) == AXIS
    assert allied_ports(CAT, s) == 0 and axis_ports(CAT, s) == len(BOARD.ports)
    R.start_replacements(s, SILENT)
    assert "replace 8th-Army-Arty 8611" not in R.legal_actions(s)  # 7.7I: not a controlled port
    # with an Allied unit in it the port is Allied, and the asset may come back there
    t = blank(ALLIED, **{"78th": "8611"})
    t.loc[CAT.index["8th-Army-Arty"]] = DEAD
    assert controller(CAT, t, at("8611")) == ALLIED
    R.start_replacements(t, SILENT)
    assert "replace 8th-Army-Arty 8611" in R.legal_actions(t)


def test_a_village_is_the_side_of_the_pieces_in_it_and_else_of_its_country() -> None:
    # Tunisia 7.7I, 16.0C (NOTES.md reading 15)
    village = next(h for h in sorted(BOARD.villages) if BOARD.country[h] == "tunisia" and h not in BOARD.ports)
    s = blank(ALLIED)
    assert controller(CAT, s, village) == AXIS
    s.loc[CAT.index["1st-Army-Arty"]] = village
    assert controller(CAT, s, village) == ALLIED  # any Allied piece holds a village


def test_a_battlegroup_lost_to_supply_goes_back_to_the_counter_mix() -> None:
    # Tunisia 7.8C (eliminated), 13.2 / NOTES.md reading 17: a battlegroup counter is reused, never dead
    s = blank(ALLIED, Phase.REPLACEMENT, **{"BG-A1": "8022"})
    bg = CAT.index["BG-A1"]
    s.origin[bg] = CAT.index["78th"]
    s.loc[CAT.index["78th"]] = DEAD
    for name, h in zip(
        ["10th-Pz", "15th-Pz", "21st-Pz", "DAK", "Centauro", "334th"], BOARD.grid.neighbours(at("8022")), strict=False
    ):
        s.loc[CAT.index[name]] = h  # surrounded: no supply path
    R.end_player_turn(s, SILENT)
    assert s.loc[bg] == OFF_MAP and s.origin[bg] == -1
    assert R.observation(s, "Axis")["pieces"]["BG-A1"]["at"] == "off map"


def test_patton_arrives_where_the_swap_puts_a_ii_corps_unit() -> None:
    # Tunisia 16.0B-C: at the end of turn 3 he arrives in a US II Corps hex; the swap (made whenever he
    # arrives) turns a battlegroup standing for CCA into a reduced CCA**, whose hex takes him
    s = blank(ALLIED, Phase.REPLACEMENT, **{"BG-A1": "8322"})
    s.turn = 3
    s.origin[CAT.index["BG-A1"]] = CAT.index["CCA"]
    for unit in ("CCA", "CCB", "CCC", "1st-ID", "34th-ID"):
        s.loc[CAT.index[unit]] = DEAD
    for name, h in zip(["10th-Pz", "15th-Pz", "21st-Pz", "DAK", "Centauro"], sorted(BOARD.ii_corps), strict=False):
        s.loc[CAT.index[name]] = h  # every II Corps crest hex held by the enemy
    assert patton_hexes(CAT, s) == []  # before the swap no hex could take him
    events = Events()
    R.end_player_turn(s, events)
    assert s.patton_arrived
    texts = [e["text"] for e in events.items]
    assert any("swapped" in text for text in texts)
    assert s.loc[CAT.patton] == at("8322")  # the only hex: the one the battlegroup stood in
    assert s.loc[CAT.index["BG-A1"]] < 0


def test_a_replaced_asset_never_goes_into_a_port_an_enemy_piece_holds() -> None:
    # Tunisia 7.7I ("place it in any controlled village or port hex that is not in an EZOC") with 8.7A: a port
    # held by a lone Allied asset counts as the Axis's (4.0A), but no Axis piece may join the Allied one there
    # (a rules review, 6 December: the replacement used to put both sides in one hex)
    s = blank(AXIS, Phase.MOVEMENT, **{"1st-Army-Arty": "8615"})  # an Allied asset alone in Sfax
    s.loc[CAT.index["501st-Tiger"]] = DEAD
    s.phase, s.replacements_left, s.legal = Phase.REPLACEMENT, 2, None
    legal = R.legal_actions(s)
    assert "replace 501st-Tiger 8615" not in legal
    assert any(a.startswith("replace 501st-Tiger ") for a in legal)  # other places are offered
    for action in legal:
        if action.startswith("replace "):
            twin = s.clone()
            R.apply(twin, action)
            assert problems(R, twin) == []
