"""Patton's three scenarios: setups, reserves, objectives, landings, defection, stacking."""

from __future__ import annotations

import pytest

from warroom.engine.errors import WarroomError
from warroom.engine.ruleset import CHANCE
from warroom.games.patton.board import load_board
from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import CARD, DEFECTION, DICE, MOVING, OVER, PLACING, RESERVE_ASK, RESERVE_DICE, RESERVE_PLACE, STACKING

RULES = PattonRules()


def position(scenario, units, mover="Allied", mp=10, turn=3):
    """A movement-phase position of `scenario`: `units` maps town -> (side, armor, infantry); nothing else on the board."""
    s = RULES.initial_state(scenario, {})
    RULES.apply_chance(s, 5)
    b = s.board
    for t in range(b.n):
        s.side[t], s.armor[t], s.inf[t] = -1, 0, 0
    for town, (side, armor, infantry) in units.items():
        t = b.town_index[town]
        s.side[t], s.armor[t], s.inf[t] = (0 if side == "Allied" else 1), armor, infantry
    s.mover = s.actor = 0 if mover == "Allied" else 1
    s.turn = turn
    s.mp = s.mp_total = mp
    s.phase = MOVING
    s.offboard = [0, 0]
    s.legal = None
    return s


def play(s, *actions):
    """Decisions and dice in order; "end" is skipped when the moves already ended by themselves."""
    for action in actions:
        if action == "end" and s.phase != MOVING:
            continue
        if isinstance(action, int):
            RULES.apply_chance(s, action)
        else:
            RULES.apply(s, action)


def where(s, town):
    t = s.board.town_index[town]
    return (s.board.side_names[s.side[t]] if s.side[t] >= 0 else None, s.armor[t], s.inf[t])


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
        ["St-Sever", "Sourdeval", "Domfront", "Mayenne", "Le-Mans", "Sable", "Chateau-Gontier", "Rennes", "Dol-de-Bretagne"])
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
    s = position("normandy", {"Lessay": ("Allied", 1, 0), "Mamers": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)}, mover="Axis", turn=1)
    play(s, "end")
    assert s.phase == RESERVE_PLACE and RULES.to_act(s) == "Axis"
    assert sorted(RULES.legal_actions(s)) == ["reserves Argentan", "reserves Falaise", "reserves Mortagne", "reserves Sees"]
    play(s, "reserves Sees")
    assert where(s, "Sees") == ("German", 2, 0) and s.reserve_entries[1] == 1
    s.reserve_entries[1] = 5
    s2 = position("normandy", {"Lessay": ("Allied", 1, 0), "Le-Mans": ("Axis", 1, 0)}, mover="Axis", turn=6)
    s2.reserve_entries[1] = 5
    play(s2, "end")
    assert s2.phase == CARD and s2.units_of(1) == (1, 0)


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
    s = RULES.initial_state("bulge", {"placement": "Axis"})
    assert RULES.to_act(s) == "Axis"
    assert not any(a.endswith(("Bastogne", "Arlon")) for a in RULES.legal_actions(s))
    play(s, "place 5A10I Wiltz".replace("5A10I", "5A5I"), "place 10I Clervaux", "place 4I Derenbach")
    legal = RULES.legal_actions(s)  # 5 Infantry left for 5 towns that each need one
    assert {a.split()[-1] for a in legal} == {"Noville", "Mageret", "Marvie", "Assenois", "Sibret"}
    assert all(a.startswith("place 1I") for a in legal)


def test_bulge_relief_by_any_german_free_path_is_permanent():
    # Patton: The Bulge — Objective: "a path completely free of German Units- no matter how indirect ...
    # Even if the German player is able to block the path ... the American Units are still relieved."
    units = {"Bastogne": ("Allied", 1, 8), "Noville": ("Axis", 0, 1), "Mageret": ("Axis", 0, 1), "Marvie": ("Axis", 0, 1),
             "Assenois": ("Axis", 0, 1), "Sibret": ("Axis", 0, 1), "Hompre": ("Allied", 2, 0), "Arlon": ("Allied", 1, 0)}
    s = position("bulge", units, mover="Axis")
    assert not s.relieved
    play(s, "move 1I Sibret->Vaux-les-Rosieres")  # Sibret opens: Bastogne-Sibret-Hompre-Chaumont-Fauvillers-Leglise(*)
    assert s.relieved
    play(s, "move 1I Vaux-les-Rosieres->Sibret")
    assert s.relieved


def test_bulge_wiltz_must_be_held_through_the_german_reply():
    # Patton: The Bulge — Objective: ousted in the German's next turn, the objective is not achieved
    units = {"Bastogne": ("Allied", 1, 8), "Wiltz": ("Allied", 2, 0), "Doncols": ("Axis", 3, 0), "Mersch": ("Allied", 1, 0)}
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


def test_bulge_german_reserves_enter_longuilly_unless_american():
    # Patton: The Bulge — Reserves: a double brings 1 Armored to Longuilly unless the Americans occupy it
    s = position("bulge", {"Bastogne": ("Allied", 1, 8), "Wiltz": ("Axis", 1, 0)}, mover="Axis")
    play(s, "end", 3, 3, 1)
    assert where(s, "Longuilly") == ("German", 1, 0) and s.reserve_entries[1] == 1
    s = position("bulge", {"Bastogne": ("Allied", 1, 8), "Longuilly": ("Allied", 1, 0), "Wiltz": ("Axis", 1, 0)}, mover="Axis")
    play(s, "end", 3, 3, 1)
    assert where(s, "Longuilly") == ("American", 1, 0) and s.reserve_entries[1] == 0


# -- The Sicily Campaign ---------------------------------------------------------------------------------
def test_sicily_map_has_11_landing_areas_and_11_yellow_towns():
    b = load_board("sicily")
    assert len(b.landings) == 11 and len(b.defection_towns) == 11
    assert all(b.defection[t] >= 1 for t in b.defection_towns)
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
    # Palermo's 3: 1 Infantry from Enna (the only one outside Messina: no choice, so taken at
    # once), then an Armored Unit for the last 2
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


def test_sicily_axis_wins_when_the_allies_have_nothing_left_or_time_runs_out():
    s = position("sicily", {"Messina": ("Axis", 3, 0)}, mover="Allied")
    play(s, "end")
    assert s.phase == OVER and RULES.result(s).winner == "Axis"
    s = position("sicily", {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 3, 0)}, mover="Axis", turn=15)
    play(s, "end", 1, 2, 3)
    assert s.phase == OVER and RULES.result(s).winner == "Axis" and "15" in RULES.result(s).reason


# -- stacking ----------------------------------------------------------------------------------------------
def test_more_than_ten_units_after_a_turn_are_removed_by_their_owner():
    # Patton: Positioning of Units — "he must remove enough to reduce the Units to 10"
    s = position("normandy", {"Lessay": ("Allied", 6, 4), "Periers": ("Allied", 2, 1), "Le-Mans": ("Axis", 1, 0)})
    s.reserve_entries[0] = 1
    play(s, "move 2A1I Periers->Lessay", "end")
    assert s.phase == STACKING and RULES.to_act(s) == "Allied"
    assert sorted(RULES.legal_actions(s)) == ["remove 1A2I Lessay", "remove 2A1I Lessay", "remove 3A Lessay", "remove 3I Lessay"]
    play(s, "remove 3I Lessay")
    assert where(s, "Lessay") == ("American", 8, 2) and s.eliminated[0] == [0, 3]


def test_unknown_option_and_scenario_are_errors():
    with pytest.raises(WarroomError):
        RULES.initial_state("normandy", {"placment": "manual"})
    with pytest.raises(WarroomError):
        RULES.initial_state("anzio", {})


def test_reserve_dice_are_rolled_die_by_die():
    s = position("bulge", {"Bastogne": ("Allied", 1, 8), "Arlon": ("Allied", 1, 0), "Wiltz": ("Axis", 1, 0)}, mover="Allied")
    play(s, "end")
    assert s.phase == RESERVE_DICE and RULES.chance_outcomes(s) == [(f, 1 / 6) for f in range(1, 7)]
    play(s, 5, 5)
    assert s.phase == RESERVE_DICE
    play(s, 2)
    assert s.phase == RESERVE_PLACE
    assert s.phase != DICE
