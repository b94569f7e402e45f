"""Patton rules the code follows but no other test checked (a review's gaps): the Bulge's siege broken in
the middle of the German turn, Units trapped on entering besieged Bastogne, the German reserves' limit,
Wiltz then relief, the Bulge's 12 turns; Sicily's landing capacity a turn and defection after a failed
oust; reserves caught by the same turn's stacking check."""

from __future__ import annotations

import pytest
from patton_positions import play, position, where

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import CARD, DICE, MOVING, OVER, RESERVE_DICE, RESERVE_PLACE, STACKING

RULES = PattonRules()

# Bastogne besieged: a German Unit in each of its five neighbours (The Bulge, Starting Forces).
RING = {
    "Bastogne": ("Allied", 1, 8),
    "Mageret": ("Axis", 0, 1),
    "Marvie": ("Axis", 0, 1),
    "Assenois": ("Axis", 0, 1),
    "Sibret": ("Axis", 0, 1),
}


def into_bastogne(s) -> list[str]:
    return [a for a in RULES.legal_actions(s) if a.endswith("->Bastogne")]


def out_of_bastogne(s) -> list[str]:
    return [a for a in RULES.legal_actions(s) if " Bastogne->" in a]


# -- The Bulge ------------------------------------------------------------------------------------------
def test_bulge_relief_opened_mid_german_turn_makes_bastogne_attackable_that_turn():
    # Patton: The Bulge, Objective (Bastogne): "As soon as a path completely free of German Units ... can be
    # followed from Bastogne to any town marked (*), the siege is broken"; "Until the trapped Units are
    # relieved they cannot take part in any battles. After being relieved they can be used in the same way
    # as any other units." A German move that opens the path breaks the siege at once, so the same German
    # turn may attack Bastogne.
    units = {**RING, "Noville": ("Axis", 2, 0), "Clervaux": ("Axis", 0, 2), "Arlon": ("Allied", 1, 0)}
    s = position("bulge", units, mover="Axis", mp=20)
    assert not s.relieved
    play(s, "move 1I Clervaux->Derenbach")  # a first move that changes nothing near Bastogne
    assert not s.relieved and into_bastogne(s) == []
    with pytest.raises(IllegalActionError):
        RULES.apply(s, "move 1A Noville->Bastogne")
    play(s, "move 1I Sibret->Vaux-les-Rosieres")  # Sibret empties: Bastogne-Sibret-Hompre-Chaumont-... to a (*)
    assert s.relieved and s.mover == 1 and s.phase == MOVING
    assert "move 2A Noville->Bastogne" in into_bastogne(s)
    play(s, "move 2A Noville->Bastogne", "end")
    bastogne = s.board.town_index["Bastogne"]
    assert s.phase == DICE and s.battle is not None and s.battle.target == bastogne and s.mover == 1


def test_bulge_american_units_entering_besieged_bastogne_are_trapped_there():
    # Patton: The Bulge, Objective (trapped Units): "Until the trapped Units are relieved they cannot take
    # part in any battles." NOTES.md reads this as no battle for Bastogne at all, the Units in it unable
    # to move out, and Units entering Bastogne before relief trapped too.
    units = {
        **RING,
        "Noville": ("Axis", 0, 1),
        "Sibret": ("Allied", 2, 0),
        "Hompre": ("Axis", 1, 0),
        "Vaux-les-Rosieres": ("Axis", 1, 0),
    }
    s = position("bulge", units, mover="Allied", mp=20)
    assert not s.relieved  # every road on from Sibret runs into a German town
    assert out_of_bastogne(s) == [] and "move 1A Sibret->Bastogne" in RULES.legal_actions(s)
    play(s, "move 1A Sibret->Bastogne")
    assert where(s, "Bastogne") == ("American", 2, 8) and not s.relieved and s.mp > 0
    assert out_of_bastogne(s) == []  # the Armored Unit that just came in cannot leave again
    with pytest.raises(IllegalActionError):
        RULES.apply(s, "move 1A Bastogne->Sibret")
    assert any(a.startswith("move 1A Sibret->") for a in RULES.legal_actions(s))  # Units outside still move


def test_bulge_german_reserves_stop_after_five_entries():
    # Patton: The Bulge, Reserves: "The German player has 5 Armored Units as reserves. At the end of each
    # turn he also throws 3 dice. When he throws a double he enters 1 Armored Unit in Longuilly": five
    # doubles bring all five, and then there is nothing left to throw for.
    units = {"Bastogne": ("Allied", 1, 8), "Wiltz": ("Axis", 1, 0)}
    s = position("bulge", units, mover="Axis")
    s.reserve_entries[1] = 4
    play(s, "end")
    assert s.phase == RESERVE_DICE
    play(s, 2, 2, 5)  # the fifth double: the fifth Armored Unit
    assert where(s, "Longuilly") == ("German", 1, 0) and s.reserve_entries[1] == 5 and s.entered[1] == [1, 0]
    s = position("bulge", units, mover="Axis")
    s.reserve_entries[1] = 5
    play(s, "end")
    assert s.phase == CARD and s.mover == 0 and s.reserve_dice == []  # no dice thrown at all
    assert where(s, "Longuilly") == (None, 0, 0) and s.entered[1] == [0, 0] and s.units_of(1) == (1, 0)


def test_bulge_wiltz_held_first_then_relief_wins_at_the_end_of_the_relieving_turn():
    # Patton: The Bulge, Objective: "The American player wins if he is able to achieve both objectives."
    # Wiltz is achieved once the German fails to oust the American in the turn that follows; the relief
    # may come later, and then the American wins when his relieving turn is over.
    units = {
        **RING,
        "Noville": ("Axis", 0, 1),
        "Vaux-les-Rosieres": ("Allied", 2, 0),
        "Wiltz": ("Allied", 1, 0),
        "Clervaux": ("Axis", 0, 1),
    }
    s = position("bulge", units, mover="Allied", turn=5)
    play(s, "end", 1, 2, 3)  # American reserve dice: no double
    assert s.mover == 1 and s.allied_end[s.board.town_index["Wiltz"]]
    play(s, 4, "end", 1, 2, 3)  # the German card; he leaves Wiltz alone; no reserves
    assert s.held and not s.relieved and s.phase == CARD and s.mover == 0 and s.turn == 6
    play(s, 8, "move 2A Vaux-les-Rosieres->Sibret", "end", 6, 5)  # 11 against nothing: Sibret falls
    assert s.relieved and s.phase != OVER and s.mover == 0  # relieved mid-turn; the turn is not over yet
    play(s, 1, 2, 3)  # American reserve dice: no double; the turn ends
    result = RULES.result(s)
    assert s.phase == OVER and result.winner == "Allied" and s.turn == 6 and s.mover == 0
    assert "relieved" in result.reason and "Wiltz" in result.reason


def test_bulge_game_ends_after_twelve_turns_with_a_german_win():
    # Patton: The Bulge, Duration of Game: "The same as in 'Breakout at Normandy.'": the Game Ends card at
    # the bottom of the American pack, "giving each player 12 turns"; "The German player wins if he stops
    # the American player from achieving either- or both- objectives for 12 turns."
    m = warroom.new_game("patton", "bulge", seed=7, keep_log=False)
    decisions = 0
    while not m.over and decisions < 2000:
        legal = m.legal_actions()
        m.play("end" if "end" in legal else legal[0])
        decisions += 1
    s = m.state
    assert m.over and m.result.winner == "Axis" and "Game Ends" in m.result.reason
    assert len(s.cards[0]) == 12 and len(s.cards[1]) == 12 and s.cards[1][11] == s.cards[1][0]
    assert s.turn == 13 and s.mover == 0  # over when the 13th American card would be turned
    assert not s.relieved and not s.held


# -- Sicily -------------------------------------------------------------------------------------------
def test_sicily_landing_capacity_is_per_turn_and_resets_next_allied_turn():
    # Patton: Sicily, Allied Landings: "The number in the landing area is the maximum number of Units it can
    # handle in one turn."
    s = position("sicily", {"Messina": ("Axis", 1, 0)}, mover="Allied", mp=10)
    s.offboard = [0, 8]
    b = s.board
    gela = next(k for k, area in enumerate(b.landings) if area.id == "Gela-Landing")
    cap = b.landing_capacity[gela]
    assert cap == 4
    play(s, f"land {cap}I Gela-Landing->Gela")
    assert s.mp == 10 - cap and s.offboard == [0, 8 - cap]
    assert not any("Gela-Landing" in a for a in RULES.legal_actions(s))  # full for this turn
    assert "land 1I Licata-Landing->Licata" in RULES.legal_actions(s)  # another area still has room
    play(s, "end")
    assert s.phase == CARD and s.mover == 1
    play(s, 4, "end", 1, 2, 3)  # Axis card; no moves; no reserves (Gela's defection: nothing outside Messina)
    assert s.phase == CARD and s.mover == 0
    play(s, 7)
    assert s.phase == MOVING and s.mp >= cap
    assert f"land {cap}I Gela-Landing->Gela" in RULES.legal_actions(s)
    play(s, f"land {cap}I Gela-Landing->Gela")
    assert where(s, "Gela") == ("Allied", 0, 2 * cap) and s.offboard == [0, 8 - 2 * cap]


def test_sicily_defection_after_a_failed_axis_attempt_to_oust():
    # Patton: Sicily, Italian Defection: "If the Allied player occupies one of these towns, the Axis player
    # can try to oust him in the immediately following turn. If not successful- or if he doesn't try- the
    # Axis player must, at the end of this turn, remove as many Infantry Units as the number in the yellow
    # circle". Gela (1) is attacked and the attack fails: 1 Infantry defects.
    units = {
        "Gela": ("Allied", 2, 0),
        "Caltagirone": ("Axis", 1, 0),
        "Messina": ("Axis", 0, 2),
        "Enna": ("Axis", 0, 3),
    }
    s = position("sicily", units, mover="Axis")
    gela = s.board.town_index["Gela"]
    s.allied_end[gela] = True
    assert s.board.defection[gela] == 1
    play(s, "move 1A Caltagirone->Gela", "end")
    assert s.battle is not None and s.battle.target == gela
    play(s, 1, 4, 5)  # 1 against 9: the attacker falls back
    assert where(s, "Gela") == ("Allied", 2, 0) and where(s, "Caltagirone") == ("Axis", 1, 0)
    play(s, 1, 2, 3)  # Axis reserve dice: no double
    assert s.defection_used[gela]
    assert s.phase == CARD and s.mover == 0  # the one choice (Enna's Infantry) was taken by itself
    assert where(s, "Enna") == ("Axis", 0, 2) and where(s, "Messina") == ("Axis", 0, 2)
    assert s.eliminated[1] == [0, 1]


# -- stacking -----------------------------------------------------------------------------------------
def test_reserves_over_ten_in_a_town_are_trimmed_in_the_same_turns_stacking_check():
    # Patton: Positioning of Units: "If it is discovered that after a player's turn is completed he has
    # more than 10 Units in a town, he must remove enough to reduce the Units to 10." Reserves enter "at the
    # end of each turn" (The Bulge, Reserves; Sicily, Reserves), so they are part of the turn: a town they
    # push over 10 is cut down before the other side's turn begins.
    units = {**RING, "Noville": ("Axis", 0, 1), "Arlon": ("Allied", 1, 9)}
    s = position("bulge", units, mover="Allied")
    play(s, "end", 4, 4, 1)  # a double: 2 Infantry
    assert s.phase == RESERVE_PLACE
    play(s, "reserves Arlon")
    assert where(s, "Arlon") == ("American", 1, 11)
    assert s.phase == STACKING and s.mover == 0 and RULES.to_act(s) == "Allied"
    assert sorted(RULES.legal_actions(s)) == ["remove 1A1I Arlon", "remove 2I Arlon"]
    play(s, "remove 2I Arlon")
    assert where(s, "Arlon") == ("American", 1, 9) and s.eliminated[0] == [0, 2]
    assert s.phase == CARD and s.mover == 1
    # Sicily: the Axis reserves go to Messina by themselves; 10 there plus 2 Infantry is 12
    s = position("sicily", {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 4, 6)}, mover="Axis")
    play(s, "end", 3, 3, 1)
    assert where(s, "Messina") == ("Axis", 4, 8)
    assert s.phase == STACKING and s.mover == 1 and RULES.to_act(s) == "Axis"
    assert sorted(RULES.legal_actions(s)) == ["remove 1A1I Messina", "remove 2A Messina", "remove 2I Messina"]
    play(s, "remove 2A Messina")
    assert where(s, "Messina") == ("Axis", 2, 8) and s.phase == CARD and s.mover == 0
