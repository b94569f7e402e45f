"""Patton's three scenarios: setups, reserves, objectives, landings, defection, stacking."""

from __future__ import annotations

import pytest
from patton_positions import RULES, card, play, position, where

from warroom.engine.errors import WarroomError
from warroom.engine.ruleset import CHANCE
from warroom.games.patton.board import load_board
from warroom.games.patton.state import (
    CARD,
    DEFECTION,
    DICE,
    MOVING,
    OVER,
    PLACING,
    RESERVE_ASK,
    RESERVE_DICE,
    RESERVE_PLACE,
    RETREATING,
    STACKING,
)


# -- Breakout at Normandy ---------------------------------------------------------------------------
def test_normandy_default_setup_follows_starting_forces():
    # Patton: Normandy — Starting Forces
    s = RULES.initial_state("normandy", {})
    b = s.board
    allied = [t for t in range(b.n) if s.side[t] == 0]
    assert {b.names[t] for t in allied} <= {"Lessay", "Periers", "St-Lo"} and all(b.front[t] for t in allied)
    assert s.units_of(0) == (12, 12) and s.units_of(1) == (4, 9)
    assert where(s, "Le-Mans") == ("German", 3, 1)
    assert not any(b.front[t] for t in range(b.n) if s.side[t] == 1)
    assert sorted(b.names[t] for t in b.red_towns) == sorted(
        [
            "St-Sever",
            "Sourdeval",
            "Domfront",
            "Mayenne",
            "Le-Mans",
            "Sable",
            "Chateau-Gontier",
            "Rennes",
            "Dol-de-Bretagne",
        ]
    )
    assert len(b.star_towns) == 5


def test_normandy_manual_placement_front_towns_then_german_outside_them():
    # Patton: Normandy — Starting Forces: the American places first, in the three towns behind the
    # Front Line, at most 10 a town; then the German: Le Mans fixed, the rest not behind the Front Line.
    s = RULES.initial_state("normandy", {"placement": "manual"})
    assert s.phase == PLACING and RULES.to_act(s) == "Allied"
    legal = RULES.legal_actions(s)
    assert "place default" in legal and "place 5A5I Lessay" in legal
    assert not any(a.endswith("Rennes") for a in legal) and "place 6A5I Lessay" not in legal
    play(s, "place 5A5I Lessay", "place 5A5I Periers")
    assert "place 2A2I St-Lo" in RULES.legal_actions(s) and "place 1A1I St-Lo" in RULES.legal_actions(s)
    play(s, "place 2A2I St-Lo")
    assert RULES.to_act(s) == "Axis" and where(s, "Le-Mans") == ("German", 3, 1)
    legal = RULES.legal_actions(s)
    assert not any(a.endswith(("Lessay", "Periers", "St-Lo")) for a in legal)
    play(s, "place 1A8I Rennes")
    assert s.phase == CARD and where(s, "Rennes") == ("German", 1, 8)


def test_normandy_german_reserves_two_armor_for_five_turns_in_star_towns():
    # Patton: Normandy — Reserves: "2 at the end of each turn, for the player's first five turns ...
    # in any one- except one occupied by the Americans- of the five towns marked (*)"
    s = position(
        "normandy",
        {"Lessay": ("Allied", 1, 0), "Mamers": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)},
        mover="Axis",
        turn=1,
    )
    play(s, "end")
    assert s.phase == RESERVE_PLACE and RULES.to_act(s) == "Axis"
    assert sorted(RULES.legal_actions(s)) == [
        "reserves Argentan",
        "reserves Falaise",
        "reserves Mortagne",
        "reserves Sees",
    ]
    play(s, "reserves Sees")
    assert where(s, "Sees") == ("German", 2, 0) and s.reserve_entries[1] == 1
    s.reserve_entries[1] = 5
    s2 = position("normandy", {"Lessay": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)}, mover="Axis", turn=6)
    s2.reserve_entries[1] = 5
    play(s2, "end")
    assert s2.phase == CARD and s2.units_of(1) == (1, 0)


def test_normandy_german_reserves_are_lost_when_every_star_town_is_american():
    # Patton: Normandy — Reserves: "These are entered, 2 at the end of each turn, for the player's
    # first five turns. ... The 2 Units are entered together in any one- except one occupied by the
    # Americans- of the five towns marked (*)". With every (*) town American that turn's 2 Armored
    # cannot enter and are lost (NOTES.md reading: "for the player's first five turns"); they are
    # not carried over to the next turn.
    stars = ["Falaise", "Argentan", "Sees", "Mortagne", "Mamers"]
    units = {town: ("Allied", 1, 0) for town in stars}
    units["Le-Mans"] = ("Axis", 1, 0)
    s = position("normandy", units, mover="Axis", turn=1)
    s.reserve_entries[0] = 1  # the American has had his reserves: no reserve question below
    play(s, "end")
    assert s.phase == CARD and s.mover == 0
    assert s.units_of(1) == (1, 0) and s.entered[1] == [0, 0] and s.reserve_entries[1] == 1  # the turn's 2 are used up
    card(s)
    play(s, "move 1A Mamers->Alencon", "end")  # Mamers is free of Americans again
    card(s)
    play(s, "end")
    assert where(s, "Mamers") == ("German", 2, 0)  # the one (*) town open: 2 Armored, not 4
    assert s.entered[1] == [2, 0] and s.reserve_entries[1] == 2 and s.units_of(1) == (3, 0)


def test_normandy_american_reserves_may_wait_then_three_infantry_on_a_double():
    # Patton: Normandy — Reserves: 3 dice, a double (regardless of the 3rd) brings 3 Infantry; may wait.
    s = position("normandy", {"Lessay": ("Allied", 1, 0), "Periers": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)})
    play(s, "end")
    assert s.phase == RESERVE_ASK and RULES.legal_actions(s) == ["roll reserves", "wait"]
    play(s, "wait")
    assert s.phase == CARD and s.mover == 1
    s = position("normandy", {"Lessay": ("Allied", 1, 0), "Periers": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)})
    play(s, "end", "roll reserves", 1, 2, 3)
    assert s.phase == CARD and s.units_of(0) == (2, 0)
    s = position("normandy", {"Lessay": ("Allied", 1, 0), "Periers": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)})
    play(s, "end", "roll reserves", 4, 2, 4)
    assert sorted(RULES.legal_actions(s)) == ["reserves Lessay", "reserves Periers"]
    play(s, "reserves Periers")
    assert where(s, "Periers") == ("American", 1, 3) and s.reserve_entries[0] == 1
    s.mover, s.phase, s.legal = 0, MOVING, None
    play(s, "end")
    assert s.phase == CARD  # "once the Reserves have been entered he no longer throws"


def test_normandy_five_red_towns_at_end_of_german_turn_wins():
    # Patton: Normandy — Objective: "at the end of any turn by the German player"
    red = ["St-Sever", "Sourdeval", "Domfront", "Mayenne", "Rennes"]
    units = {town: ("Allied", 1, 0) for town in red}
    units["Le-Mans"] = ("Axis", 1, 0)
    s = position("normandy", units, mover="Allied")
    s.reserve_entries[0] = 1
    play(s, "end")
    assert s.phase == CARD  # the end of an American turn is not checked
    s = position("normandy", units, mover="Axis", turn=7)
    s.reserve_entries[1] = 5
    play(s, "end")
    assert s.phase == OVER and RULES.result(s).winner == "Allied"
    del units["Rennes"]
    s = position("normandy", units, mover="Axis", turn=7)
    s.reserve_entries[1] = 5
    play(s, "end")
    assert s.phase == CARD


# -- The Bulge -----------------------------------------------------------------------------------------
def test_bulge_default_setup_and_bastogne_has_five_neighbours():
    # Patton: The Bulge — Starting Forces
    s = RULES.initial_state("bulge", {})
    b = s.board
    bastogne = b.town_index["Bastogne"]
    assert len(b.neighbours[bastogne]) == 5
    assert all(s.side[t] == 1 for t in b.neighbours[bastogne])  # "At least 1 Unit each in the five towns adjacent"
    assert where(s, "Bastogne") == ("American", 1, 8)
    assert {b.names[t] for t in range(b.n) if s.side[t] == 0} - {"Bastogne"} <= {b.names[t] for t in b.star_towns}
    assert not any(b.star[t] for t in range(b.n) if s.side[t] == 1)
    assert len(b.star_towns) == 7 and not s.relieved


def test_bulge_german_placement_keeps_a_unit_for_each_town_next_to_bastogne():
    # Patton: The Bulge — Starting Forces: "the German places his Units as follows: At least 1 Unit
    # each in the five towns adjacent to Bastogne, and the remainder in any towns the player wishes-
    # except any of those marked (*) and, of course, Bastogne."
    s = RULES.initial_state("bulge", {"placement": "Axis"})
    assert RULES.to_act(s) == "Axis"
    assert not any(a.endswith(("Bastogne", "Arlon")) for a in RULES.legal_actions(s))
    play(s, "place 5A10I Wiltz".replace("5A10I", "5A5I"), "place 10I Clervaux", "place 4I Derenbach")
    legal = RULES.legal_actions(s)  # 5 Infantry left for 5 towns that each need one
    assert {a.split()[-1] for a in legal} == {"Noville", "Mageret", "Marvie", "Assenois", "Sibret"}
    assert all(a.startswith("place 1I") for a in legal)


def test_bulge_american_manual_placement_only_in_star_towns_bastogne_fixed():
    # Patton: The Bulge — Starting Forces: "The American player (blue) starts with 10 Armored Units and
    # 26 Infantry Units. These are placed as follows: 1 Armored Unit and 8 Infantry Units in Bastogne
    # (upper left corner of board) and the remainder distributed as desired in the seven towns marked (*)"
    s = RULES.initial_state("bulge", {"placement": "manual"})
    b = s.board
    assert s.phase == PLACING and RULES.to_act(s) == "Allied"
    assert where(s, "Bastogne") == ("American", 1, 8) and s.placing[0] == [9, 18]  # the fixed Units are down
    legal = RULES.legal_actions(s)
    stars = {b.names[t] for t in b.star_towns}
    assert len(stars) == 7 and "Bastogne" not in stars
    assert {a.split()[-1] for a in legal if a != "place default"} == stars
    assert "place 9A1I Arlon" in legal and "place 9A2I Arlon" not in legal  # at most 10 a town
    play(s, "place 9A1I Arlon", "place 10I Mersch", "place 7I Habay")
    assert RULES.to_act(s) == "Axis" and s.placing[0] == [0, 0]
    assert s.units_of(0) == (10, 26) and where(s, "Bastogne") == ("American", 1, 8)
    assert not any(a.endswith(tuple(stars | {"Bastogne"})) for a in RULES.legal_actions(s))


def test_bulge_relief_by_any_german_free_path_is_permanent():
    # Patton: The Bulge — Objective: "a path completely free of German Units- no matter how indirect ...
    # Even if the German player is able to block the path ... the American Units are still relieved."
    units = {
        "Bastogne": ("Allied", 1, 8),
        "Noville": ("Axis", 0, 1),
        "Mageret": ("Axis", 0, 1),
        "Marvie": ("Axis", 0, 1),
        "Assenois": ("Axis", 0, 1),
        "Sibret": ("Axis", 0, 1),
        "Hompre": ("Allied", 2, 0),
        "Arlon": ("Allied", 1, 0),
    }
    s = position("bulge", units, mover="Axis")
    assert not s.relieved
    play(s, "move 1I Sibret->Vaux-les-Rosieres")  # Sibret opens: Bastogne-Sibret-Hompre-Chaumont-Fauvillers-Leglise(*)
    assert s.relieved
    play(s, "move 1I Vaux-les-Rosieres->Sibret")
    assert s.relieved


def test_bulge_wiltz_must_be_held_through_the_german_reply():
    # Patton: The Bulge — Objective: ousted in the German's next turn, the objective is not achieved
    units = {
        "Bastogne": ("Allied", 1, 8),
        "Wiltz": ("Allied", 2, 0),
        "Doncols": ("Axis", 3, 0),
        "Mersch": ("Allied", 1, 0),
    }
    s = position("bulge", units, mover="Allied")
    s.relieved = True
    play(s, "end", 1, 2, 3)  # American reserve dice: no double
    assert s.mover == 1 and s.allied_end[s.board.town_index["Wiltz"]]
    RULES.apply_chance(s, 4)
    play(s, "move 3A Doncols->Wiltz", "end", 6, 5, 4, 1, 2)  # the Germans take Wiltz back
    while s.phase not in (CARD, OVER):
        play(s, 1) if RULES.to_act(s) == CHANCE else play(s, RULES.legal_actions(s)[0])
    assert s.phase == CARD and not s.held
    s = position("bulge", units, mover="Allied")
    s.relieved = True
    play(s, "end", 1, 2, 3, 4, "end", 1, 2, 3)  # the Germans do nothing; their reserve dice: no double
    assert s.phase == OVER and RULES.result(s).winner == "Allied" and s.held


def test_bulge_american_reserves_two_infantry_in_one_american_town_five_times():
    # Patton: The Bulge — Reserves: "The American player has 10 Infantry Units as Reserves. At the end
    # of each turn he throws 3 dice. When he throws a double (2 dice the same number, regardless of the
    # 3rd die) he enters 2 Infantry Units to join the Units in any town- both in the same town- that he
    # occupies at that time." Besieged Bastogne is a town he occupies; 5 entries bring all 10.
    units = {
        "Bastogne": ("Allied", 1, 7),
        "Arlon": ("Allied", 1, 0),
        "Noville": ("Axis", 0, 1),
        "Mageret": ("Axis", 0, 1),
        "Marvie": ("Axis", 0, 1),
        "Assenois": ("Axis", 0, 1),
        "Sibret": ("Axis", 0, 1),
    }
    s = position("bulge", units, mover="Allied")
    assert not s.relieved
    play(s, "end", 4, 1, 4)  # no roll question: the Bulge American throws every turn
    assert s.phase == RESERVE_PLACE and sorted(RULES.legal_actions(s)) == ["reserves Arlon", "reserves Bastogne"]
    play(s, "reserves Bastogne")
    assert where(s, "Bastogne") == ("American", 1, 9) and where(s, "Arlon") == ("American", 1, 0)
    assert s.entered[0] == [0, 2] and s.reserve_entries[0] == 1 and s.units_of(0) == (2, 9)
    # the fifth entry is still thrown for, and brings the last 2 of the 10
    s = position("bulge", units, mover="Allied")
    s.reserve_entries[0] = 4
    play(s, "end", 6, 6, 6)  # a triple holds a double
    play(s, "reserves Arlon")
    assert where(s, "Arlon") == ("American", 1, 2) and s.reserve_entries[0] == 5
    # after 5 entries (10 Units) nothing is thrown any more
    s = position("bulge", units, mover="Allied")
    s.reserve_entries[0] = 5
    play(s, "end")
    assert s.phase == CARD and s.mover == 1 and s.reserve_dice == [] and s.units_of(0) == (2, 7)


def test_bulge_relieved_by_an_american_battle_win():
    # Patton: The Bulge — Objective: "As soon as a path completely free of German Units- no matter how
    # indirect- can be followed from Bastogne to any town marked (*), the siege is broken." A battle the
    # American wins opens the path at once, in his own turn (end_battle checks the relief).
    units = {
        "Bastogne": ("Allied", 1, 8),
        "Noville": ("Axis", 0, 1),
        "Mageret": ("Axis", 0, 1),
        "Marvie": ("Axis", 0, 1),
        "Assenois": ("Axis", 0, 1),
        "Sibret": ("Axis", 0, 1),
        "Vaux-les-Rosieres": ("Allied", 2, 0),
    }
    s = position("bulge", units, mover="Allied")
    assert not s.relieved
    play(s, "move 2A Vaux-les-Rosieres->Sibret", "end")
    assert s.battle is not None and s.battle.n == 2 and s.battle.m == 0 and not s.relieved
    events = RULES.apply_chance(s, 6)
    events += RULES.apply_chance(s, 5)  # 11 against nothing: Sibret's Infantry retreats to Hompre
    assert where(s, "Sibret") == ("American", 2, 0) and where(s, "Hompre") == ("German", 0, 1)
    # Bastogne-Sibret-Vaux-les-Rosieres-Neufchateau (*) is free: relieved before the turn is over
    assert s.relieved and s.mover == 0 and s.phase == RESERVE_DICE
    assert any(e["type"] == "relieved" for e in events)


def test_bulge_german_reserves_enter_longuilly_unless_american():
    # Patton: The Bulge — Reserves: a double brings 1 Armored to Longuilly unless the Americans occupy it
    s = position("bulge", {"Bastogne": ("Allied", 1, 8), "Wiltz": ("Axis", 1, 0)}, mover="Axis")
    play(s, "end", 3, 3, 1)
    assert where(s, "Longuilly") == ("German", 1, 0) and s.reserve_entries[1] == 1
    s = position(
        "bulge", {"Bastogne": ("Allied", 1, 8), "Longuilly": ("Allied", 1, 0), "Wiltz": ("Axis", 1, 0)}, mover="Axis"
    )
    play(s, "end", 3, 3, 1)
    assert where(s, "Longuilly") == ("American", 1, 0) and s.reserve_entries[1] == 0


# -- The Sicily Campaign ---------------------------------------------------------------------------------
def test_sicily_map_has_11_landing_areas_and_11_yellow_towns():
    # Patton: Sicily — Allied Landings: "one of the 11 triangular landing areas (with an arrow pointing
    # to a coastal town). The number in the landing area is the maximum number of Units it can handle
    # in one turn." Patton: Sicily — Italian Defection: "Eleven of the towns are marked with yellow
    # circles containing numbers." The numbers are not printed in the rulebook: data/sicily.toml
    # reconstructs them (capacities 26 in all; Palermo 2, the other yellow towns 1).
    b = load_board("sicily")
    assert len(b.landings) == 11 and len(b.defection_towns) == 11
    assert all(b.landing_town[k] in range(b.n) for k in range(11))
    assert sum(b.landing_capacity) == 26 and all(c >= 1 for c in b.landing_capacity)
    numbers = {b.names[t]: b.defection[t] for t in b.defection_towns}
    assert numbers.pop("Palermo") == 2 and set(numbers.values()) == {1} and len(numbers) == 10
    s = RULES.initial_state("sicily", {})
    assert s.offboard == [13, 20] and s.units_of(1) == (9, 24)  # Starting Forces: none on the island


def test_sicily_lost_landing_battle_eliminates_the_landers_only():
    # Patton: Sicily — Allied Landings: "if the Allied player throws the lower total, all of his
    # Units attempting to land are eliminated"; landed Units may help the battle
    s = position("sicily", {"Vittoria": ("Allied", 2, 0), "Gela": ("Axis", 3, 0), "Messina": ("Axis", 1, 0)}, mp=10)
    s.offboard = [3, 0]
    play(s, "land 3A Gela-Landing->Gela", "move 2A Vittoria->Gela", "end")
    assert s.battle is not None and s.battle.n == 5
    play(s, 1, 2, 3, 4, 5, 6, 5, 4)  # 15 against 15: a tie
    play(s, "stand", "stand", 1, 2, 3, 4, 5, 6, 6, 5)  # 15 against 17, the 6-6 costs an Armored Unit
    assert sorted(RULES.legal_actions(s)) == ["casualties Gela-Landing:1A", "casualties Vittoria:1A"]
    play(s, "casualties Vittoria:1A")
    assert where(s, "Vittoria") == ("Allied", 1, 0)  # the road stack retreats along its road
    assert s.eliminated[0] == [4, 0] and where(s, "Gela") == ("Axis", 3, 0)  # the 3 landers are eliminated


def test_sicily_defection_after_holding_a_yellow_town_through_the_axis_turn():
    # Patton: Sicily — Italian Defection: remove as many Infantry as the number, from any town but
    # Messina; 1 Armored instead of 2 Infantry when Infantry runs out; each town only once.
    units = {"Palermo": ("Allied", 2, 0), "Messina": ("Axis", 0, 4), "Enna": ("Axis", 1, 1), "Catania": ("Axis", 2, 0)}
    s = position("sicily", units, mover="Allied")
    play(s, "end")
    RULES.apply_chance(s, 4)
    play(s, "end", 1, 2, 3)  # Axis does not try; no reserves
    # Palermo's 2 (data/sicily.toml): 1 Infantry from Enna (the only one outside Messina: no
    # choice, so taken at once), then an Armored Unit for the last 1 (a single one left over costs
    # a whole Armored Unit, as with casualties: NOTES.md)
    assert s.phase == DEFECTION and where(s, "Enna") == ("Axis", 1, 0)
    assert sorted(RULES.legal_actions(s)) == ["defect 1A Catania", "defect 1A Enna"]
    play(s, "defect 1A Catania")
    assert s.phase == CARD and s.defection_owed == 0 and where(s, "Messina") == ("Axis", 0, 4)
    assert s.defection_used[s.board.town_index["Palermo"]]


def test_sicily_axis_reserves_by_pairs_in_messina():
    # Patton: Sicily — Reserves: pairs of 1-4 give 2 Infantry, pairs of 5-6 one Armored, in Messina
    s = position("sicily", {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 0, 1)}, mover="Axis")
    play(s, "end", 2, 5, 2)
    assert where(s, "Messina") == ("Axis", 0, 3)
    s = position("sicily", {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 0, 1)}, mover="Axis")
    play(s, "end", 6, 6, 6)
    assert where(s, "Messina") == ("Axis", 1, 1)


def test_sicily_messina_taken_and_held_wins():
    # Patton: Sicily — Objective: "occupying Messina and holding it during the immediately following Axis turn"
    s = position("sicily", {"Messina": ("Allied", 3, 0), "Enna": ("Axis", 1, 0)}, mover="Allied")
    play(s, "end", 4, "end", 1, 2, 3)
    assert s.phase == OVER and RULES.result(s).winner == "Allied"


def test_sicily_axis_wins_when_the_allies_have_nothing_left_or_the_option_limit_runs_out():
    # Patton: Sicily — Objective: "The Axis player wins by reducing the Allied forces to such an extent
    # that it becomes impossible to take Messina (remembering that the longer the game continues, the
    # more Reserves the Axis is likely to get)." No Allied Units left at all; or, with the rules option
    # turn_limit (off by default: "The game continues until one player has achieved his objective"),
    # Messina not fallen after that many turns. More in tests/patton/test_readings.py.
    s = position("sicily", {"Messina": ("Axis", 3, 0)}, mover="Allied")
    play(s, "end")
    assert s.phase == OVER and RULES.result(s).winner == "Axis"
    s = position("sicily", {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 3, 0)}, mover="Axis", turn=15)
    s.turn_limit = 15
    play(s, "end", 1, 2, 3)
    assert s.phase == OVER and RULES.result(s).winner == "Axis" and "15" in RULES.result(s).reason
    s = position("sicily", {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 3, 0)}, mover="Axis", turn=15)
    play(s, "end", 1, 2, 3)
    assert s.phase != OVER and s.turn == 16


def test_sicily_defection_one_armored_instead_of_two_infantry():
    # Patton: Sicily — Italian Defection: "The Infantry Units can be removed from any town the Axis
    # player wishes, except Messina. If enough Infantry Units are not available, the Axis player must
    # remove Armored Units- 1 Armored Unit instead of 2 Infantry Units."
    units = {"Palermo": ("Allied", 2, 0), "Messina": ("Axis", 0, 4), "Enna": ("Axis", 1, 0), "Catania": ("Axis", 2, 0)}
    s = position("sicily", units, mover="Allied")
    play(s, "end")
    card(s)
    play(s, "end", 1, 2, 3)  # Palermo's 2 Infantry owed, none outside Messina
    assert s.phase == DEFECTION and s.defection_owed == 2
    assert sorted(RULES.legal_actions(s)) == ["defect 1A Catania", "defect 1A Enna"]
    play(s, "defect 1A Catania")
    assert s.phase == CARD and s.defection_owed == 0
    assert (
        where(s, "Catania") == ("Axis", 1, 0)
        and where(s, "Enna") == ("Axis", 1, 0)
        and where(s, "Messina") == ("Axis", 0, 4)
    )
    assert s.eliminated[1] == [1, 0]


def test_sicily_a_yellow_town_causes_defections_only_once():
    # Patton: Sicily — Italian Defection: "Any one town can only be used once to cause defections."
    units = {"Palermo": ("Allied", 2, 0), "Messina": ("Axis", 0, 4), "Enna": ("Axis", 0, 4)}
    s = position("sicily", units, mover="Allied")
    s.offboard = [0, 1]
    play(s, "end")
    card(s)
    play(s, "end", 1, 2, 3)  # the Axis leaves Palermo alone: its 2 defect (from Enna, the one choice)
    assert s.phase == CARD and where(s, "Enna") == ("Axis", 0, 2)
    assert s.defection_used[s.board.town_index["Palermo"]]
    card(s)
    play(s, "land 1I Trapani-Landing->Trapani", "end")  # Palermo held again, and now Trapani too
    assert where(s, "Palermo") == ("Allied", 2, 0) and where(s, "Trapani") == ("Allied", 0, 1)
    card(s)
    play(s, "end", 1, 2, 3)
    assert s.phase == CARD and where(s, "Enna") == ("Axis", 0, 1)  # Trapani's 1 only, not Palermo's 2 again
    assert s.eliminated[1] == [0, 3] and where(s, "Messina") == ("Axis", 0, 4)


def test_sicily_axis_reserves_do_not_enter_while_the_allies_hold_messina():
    # Patton: Sicily — Reserves: "If he throws 2 - 1s, 2 - 2s, 2 - 3s, or 2 - 4s he enters 2 Infantry
    # Units in Messina (upper right corner of board). If he throws 2 - 5s or 2 - 6s he enters 1 Armored
    # Unit in Messina." Messina held by the Allies: nothing enters (NOTES.md, Reserves).
    for dice, held_at_allied_end in (((2, 2, 5), True), ((6, 6, 1), False)):
        s = position("sicily", {"Messina": ("Allied", 3, 0), "Enna": ("Axis", 1, 0)}, mover="Allied")
        play(s, "end")
        card(s)
        s.allied_end[s.board.town_index["Messina"]] = held_at_allied_end  # False: the game goes on after the roll
        play(s, "end", *dice)
        assert where(s, "Messina") == ("Allied", 3, 0) and s.entered[1] == [0, 0] and s.units_of(1) == (1, 0)
        if held_at_allied_end:
            assert s.phase == OVER and RULES.result(s).winner == "Allied"
        else:
            assert s.phase == CARD and s.mover == 0


def test_sicily_won_landing_battle_the_landers_enter_the_town():
    # Patton: Sicily — Allied Landings: "If the connected town is occupied by the Axis, the Units must
    # fight a battle for the town- but also do not use further Movement Points. The battle is fought in
    # the usual manner"; Units previously landed "can be used to assist in a battle being fought by the
    # landing Units". Won, the landers enter the town with the road stack.
    s = position("sicily", {"Vittoria": ("Allied", 2, 0), "Gela": ("Axis", 1, 0), "Messina": ("Axis", 1, 0)}, mp=10)
    s.offboard = [3, 0]
    play(s, "land 3A Gela-Landing->Gela", "move 2A Vittoria->Gela", "end")
    assert s.battle is not None and s.battle.n == 5 and s.battle.m == 1 and s.offboard == [0, 0]
    play(s, 6, 5, 4, 3, 1, 2)  # 19 against 2
    while s.phase == RETREATING:
        play(s, RULES.legal_actions(s)[0])
    assert where(s, "Gela") == ("Allied", 5, 0) and s.units_of(0) == (5, 0) and s.eliminated[0] == [0, 0]
    assert s.stacks == []


def test_sicily_axis_manual_placement_anywhere_within_starting_forces():
    # Patton: Sicily — Starting Forces: "The Allied player (blue) starts with 13 Armored Units and 20
    # Infantry Units. None of these are on the island of Sicily at the start of the game. The Axis
    # player (red) starts with 9 Armored Units and 24 Infantry Units. These are placed in any towns the
    # player wishes."
    s = RULES.initial_state("sicily", {"placement": "manual"})
    b = s.board
    assert s.phase == PLACING and RULES.to_act(s) == "Axis"  # the Allies have nothing to place
    assert s.offboard == [13, 20] and s.placing[1] == [9, 24] and s.units_of(1) == (0, 0)  # none on the board yet
    assert not any(s.side[t] >= 0 for t in range(b.n))
    legal = RULES.legal_actions(s)
    assert {a.split()[-1] for a in legal if a != "place default"} == set(b.names)
    assert "place 9A1I Messina" in legal and "place 10I Trapani" in legal and "place 9A2I Messina" not in legal
    play(s, "place 9A1I Messina", "place 10I Palermo", "place 10I Gela", "place 3I Enna")
    assert s.phase == CARD and s.mover == 0 and s.units_of(1) == (9, 24)
    assert where(s, "Messina") == ("Axis", 9, 1) and where(s, "Enna") == ("Axis", 0, 3)


# -- stacking ----------------------------------------------------------------------------------------------
def test_more_than_ten_units_after_a_turn_are_removed_by_their_owner():
    # Patton: Positioning of Units — "he must remove enough to reduce the Units to 10"
    s = position("normandy", {"Lessay": ("Allied", 6, 4), "Periers": ("Allied", 2, 1), "Le-Mans": ("Axis", 1, 0)})
    s.reserve_entries[0] = 1
    play(s, "move 2A1I Periers->Lessay", "end")
    assert s.phase == STACKING and RULES.to_act(s) == "Allied"
    assert sorted(RULES.legal_actions(s)) == [
        "remove 1A2I Lessay",
        "remove 2A1I Lessay",
        "remove 3A Lessay",
        "remove 3I Lessay",
    ]
    play(s, "remove 3I Lessay")
    assert where(s, "Lessay") == ("American", 8, 2) and s.eliminated[0] == [0, 3]


def test_unknown_option_and_scenario_are_errors():
    with pytest.raises(WarroomError):
        RULES.initial_state("normandy", {"placment": "manual"})
    with pytest.raises(WarroomError):
        RULES.initial_state("anzio", {})


def test_reserve_dice_are_rolled_die_by_die():
    s = position(
        "bulge", {"Bastogne": ("Allied", 1, 8), "Arlon": ("Allied", 1, 0), "Wiltz": ("Axis", 1, 0)}, mover="Allied"
    )
    play(s, "end")
    assert s.phase == RESERVE_DICE and list(RULES.chance_outcomes(s)) == [(f, 1 / 6) for f in range(1, 7)]
    play(s, 5, 5)
    assert s.phase == RESERVE_DICE
    play(s, 2)
    assert s.phase == RESERVE_PLACE
    assert s.phase != DICE
