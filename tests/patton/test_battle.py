"""Patton battles: dice, casualties, retreats, ties, the rulebook's Retreating examples and the
Optional Retreating Rule."""

from __future__ import annotations

from patton_sandbox import sandbox_board, sandbox_state

from warroom.engine.ruleset import CHANCE
from warroom.games.patton.combat import casualties_from, dice_for, losses
from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import CARD, CASUALTY, DICE, MOVING, OVER, RETREATING, STACKING, TIE, Stack

RULES = PattonRules()


def roll(s, *dice):
    for value in dice:
        assert RULES.to_act(s) == CHANCE and s.phase == DICE
        RULES.apply_chance(s, value)


def end(s):
    """End the moves (the rules end them by themselves once no move is left)."""
    if s.phase == MOVING:
        RULES.apply(s, "end")


def units(s, town):
    t = s.board.town_index[town]
    return (s.board.side_names[s.side[t]] if s.side[t] >= 0 else None, s.armor[t], s.inf[t])


# -- the arithmetic ---------------------------------------------------------------------------------
def test_dice_one_per_armor_one_per_two_infantry_max_5():
    # Patton: Battles
    assert dice_for(1, 0) == 1
    assert dice_for(0, 1) == 0  # "A single Infantry Unit does not add to a player's dice total."
    assert dice_for(0, 3) == 1
    assert dice_for(2, 4) == 4
    assert dice_for(4, 6) == 5  # "The maximum number of dice that a player can throw is 5"
    assert dice_for(0, 1, bonus=2) == 2  # Optional rule example: "the enemy would throw 2 dice"
    assert dice_for(4, 2, bonus=2) == 5


def test_casualties_six_on_one_die_and_doubles_triples():
    # Patton: Casualties
    assert casualties_from([6]) == 1 and casualties_from([5]) == 0
    assert casualties_from([6, 5]) == 0  # with 2+ dice a 6 is nothing special
    assert casualties_from([2, 2]) == 1
    assert casualties_from([3, 3, 3]) == 2
    assert casualties_from([4, 4, 4, 4]) == 3
    assert casualties_from([1, 1, 1, 1, 1]) == 4
    assert casualties_from([3, 3, 5, 5, 1]) == 2  # two doubles
    assert casualties_from([3, 3, 3, 5, 5]) == 3


def test_losses_infantry_first_then_armor_for_two_no_change():
    # Patton: Casualties
    assert losses(2, 3, 4) == (0, 2)
    assert losses(3, 3, 1) == (1, 1)  # 1 Infantry, then 1 Armored for the 2 left
    assert losses(1, 2, 0) == (
        1,
        0,
    )  # "a single Casualty ... must give up an Armored Unit (and does not receive change)"
    assert losses(3, 5, 0) == (2, 0)
    assert losses(9, 1, 1) == (1, 1)  # never more than there are


def test_stacks_on_two_roads_are_one_attack_force():
    # Patton: Battles — "If the attacking player has Units on two or more roads approaching the town
    # they are considered as a single attack force in figuring the number of dice he throws." and
    # "For each 2 Infantry Units, a player throws 1 die. A single Infantry Unit does not add to a
    # player's dice total." One Infantry Unit on each of two roads: 2 Infantry, 1 die (counted
    # stack by stack they would throw none).
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("C", "B", "dashed")])
    s = sandbox_state(board, {"A": ("Allied", 0, 1), "C": ("Allied", 0, 1), "B": ("Axis", 1, 0)}, mp=10)
    RULES.apply(s, "move 1I A->B")
    RULES.apply(s, "move 1I C->B")
    end(s)
    assert s.battle is not None and s.battle.n == 1 and s.battle.m == 1 and len(s.stacks) == 2
    roll(s, 6, 3)  # the attacker's one die shows 6: one casualty, the defender's lone Armored Unit
    assert s.eliminated[1] == [1, 0] and s.eliminated[0] == [0, 0]
    assert units(s, "B") == ("Allied", 0, 2) and s.stacks == []  # both stacks enter


# -- "Retreating": the 2-2 against 6 example ----------------------------------------------------------
def two_armor_attack():
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 2, 0), "B": ("Axis", 1, 0)}, mp=10)
    RULES.apply(s, "move 2A A->B")
    end(s)
    return s


def test_retreating_example_eliminated_defender_lets_lower_total_enter():
    # Patton: Retreating — "The attacker throws 2-2 for a total of 4, while the defender throws 6 ...
    # each must give up an Armored Unit. Since the defender has no remaining Units, the attacker
    # enters the town even though his dice total was lower."
    s = two_armor_attack()
    roll(s, 2, 2, 6)
    assert units(s, "B") == ("Allied", 1, 0)
    assert units(s, "A") == (None, 0, 0)
    assert s.eliminated == [[1, 0], [1, 0]]


def test_retreating_example_2_3_against_6_retreats():
    # Patton: Retreating — "If, instead, the attacker had thrown 2-3, he would have been forced to retreat."
    s = two_armor_attack()
    roll(s, 2, 3, 6)
    assert units(s, "B") == ("Axis", 1, 0)
    assert units(s, "A") == ("Allied", 1, 0)  # back along the road, one Armored lost to the 6


# -- Illustration 2 ------------------------------------------------------------------------------------
def illustration_2(defender=(2, 2), d_town=None, advanced=False):
    # Patton: Retreating (Illustration 2): stacks X (from B) and Y (from C) attack A; the attacker
    # also holds E and F (F a single Infantry Unit); D is empty.
    board = sandbox_board(
        ["A", "B", "C", "D", "E", "F"],
        [("A", "B", "solid"), ("A", "C", "solid"), ("A", "D", "solid"), ("A", "E", "solid"), ("A", "F", "solid")],
    )
    layout = {
        "A": ("Axis", *defender),
        "B": ("Allied", 3, 0),
        "C": ("Allied", 2, 1),
        "E": ("Allied", 1, 0),
        "F": ("Allied", 0, 1),
    }
    if d_town:
        layout["D"] = ("Allied", *d_town)
    s = sandbox_state(board, layout, mp=20)
    s.advanced = advanced
    RULES.apply(s, "move 3A B->A")  # stack X
    RULES.apply(s, "move 2A1I C->A")  # stack Y
    end(s)
    return s


def test_illustration_2_defender_higher_stacks_retreat_to_their_towns():
    # "If the defender's total is higher, he remains in town A, stack X retreats to town B, and stack Y retreats to
    # town C."
    s = illustration_2()
    assert (
        s.battle.n == 5 and s.battle.m == 3
    )  # "The attacking player throws 5 dice; the defending player throws 3 dice."
    roll(s, 1, 2, 3, 4, 5, 6, 6, 5)  # 15 against 17; the double 6 costs Y its Infantry Unit
    assert units(s, "A") == ("Axis", 2, 2)
    assert units(s, "B") == ("Allied", 3, 0)
    assert units(s, "C") == ("Allied", 2, 0)
    assert s.stacks == []


def test_illustration_2_attacker_higher_defender_takes_only_clear_road():
    # "the defender must retreat to town D, using the only road that is completely clear of enemy
    # Units, and the attacker moves stacks X and Y into town A."
    s = illustration_2()
    roll(s, 6, 5, 4, 3, 2, 1, 2, 3)
    assert units(s, "D") == ("Axis", 2, 2)
    assert units(s, "A") == ("Allied", 5, 1)


def test_illustration_2_more_than_5_defenders_surrender_the_rest():
    # "If the defender had had more than 5 Units in town A he could only retreat with 5, the remainder having to
    # surrender."
    s = illustration_2(defender=(2, 5))
    roll(s, 6, 5, 4, 3, 2)
    roll(s, *([1, 2, 3, 4][: s.battle.m]))
    assert s.phase == RETREATING and RULES.to_act(s) == "Axis"
    assert sorted(RULES.legal_actions(s)) == [
        "retreat 1A4I A->D",
        "retreat 2A3I A->D",
        "retreat 5I A->D",
    ]  # he chooses which 5
    RULES.apply(s, "retreat 2A3I A->D")
    assert units(s, "D") == ("Axis", 2, 3)
    assert s.eliminated[1] == [0, 2]
    assert units(s, "A") == ("Allied", 5, 1)


def test_illustration_2_attacker_in_d_all_surrender():
    # "And if the attacker had had Units in town D, all of the defender's Units would be forced to surrender."
    s = illustration_2(d_town=(1, 0))
    roll(s, 6, 5, 4, 3, 2, 1, 2, 3)
    assert s.eliminated[1] == [2, 2]
    assert units(s, "A") == ("Allied", 5, 1)
    assert s.phase == CARD


def optional_rule_towards_f():
    # Patton: Optional Retreating Rule — D occupied: "the retreating defender could move towards town
    # D, E, or F. He could not move towards stack X or stack Y. If he chose town F, the enemy would
    # throw 2 dice"
    s = illustration_2(d_town=(1, 0), advanced=True)
    roll(s, 6, 5, 4, 3, 2, 1, 2, 3)
    legal = RULES.legal_actions(s)
    assert {a.split()[-1] for a in legal} == {"A->D", "A->E", "A->F"}
    RULES.apply(s, "retreat 2A2I A->F")
    assert units(s, "A") == ("Allied", 5, 1)  # X and Y enter A
    assert s.battle is not None and s.battle.n == 3 and s.battle.m == 2
    return s


def test_optional_rule_retreat_towards_enemy_town_f_two_dice():
    s = optional_rule_towards_f()
    # the retreaters stand on the road from A
    assert s.battle.bonus == 2 and s.stacks == [Stack(target=5, source=0, armor=2, infantry=2, owner=1)]


def test_optional_rule_lower_total_eliminates_the_retreaters():
    # "If the retreating defender throws a lower total, his Units are trapped and eliminated."
    s = optional_rule_towards_f()
    roll(s, 1, 2, 3, 5, 6)
    assert s.eliminated[1] == [2, 2]
    assert units(s, "F") == ("Allied", 0, 1)


def test_optional_rule_enemy_lower_total_retreats():
    # "If the enemy throws a lower total, his Units retreat to an adjacent town." F's only road, to A,
    # carries the retreating stack, so here the lone Infantry Unit has no clear road and surrenders.
    s = optional_rule_towards_f()
    roll(s, 4, 5, 6, 1, 2)
    assert units(s, "F") == ("Axis", 2, 2)
    assert units(s, "A") == ("Allied", 5, 1)
    assert s.eliminated[0] == [0, 1]


def test_optional_rule_enemy_retreats_along_a_clear_road():
    board = sandbox_board(["A", "B", "F", "G"], [("B", "A", "solid"), ("A", "F", "solid"), ("F", "G", "solid")])
    s = sandbox_state(board, {"B": ("Allied", 3, 0), "A": ("Axis", 1, 1), "F": ("Allied", 0, 1)}, mp=5)
    s.advanced = True
    RULES.apply(s, "move 3A B->A")
    end(s)
    roll(s, 6, 5, 4, 1)  # surrounded: the one way out is the fighting retreat towards F, taken at once
    assert s.battle.target == s.board.town_index["F"] and s.battle.n == 1 and s.battle.m == 2
    roll(s, 5, 1, 2)  # 5 against 3
    assert units(s, "F") == ("Axis", 1, 1)
    assert units(s, "G") == ("Allied", 0, 1)


# -- ties, joined Units, casualty choices ---------------------------------------------------------------
def tie_position():
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 2, 0), "B": ("Axis", 2, 0)}, mp=5)
    RULES.apply(s, "move 2A A->B")
    end(s)
    roll(s, 3, 4, 2, 5)  # 7 against 7
    assert s.phase == TIE and RULES.to_act(s) == "Allied"
    return s


def test_tie_attacker_may_retreat_voluntarily():
    # Patton: Retreating — "In case of a tie, either player may choose to retreat voluntarily"
    s = tie_position()
    RULES.apply(s, "retreat")
    assert units(s, "A") == ("Allied", 2, 0) and units(s, "B") == ("Axis", 2, 0)


def test_tie_defender_may_retreat_voluntarily():
    # Patton: Retreating — "In case of a tie, either player may choose to retreat voluntarily" and
    # "If the defending player is forced to retreat (or chooses to after a tie) he picks a road
    # (regardless of type) that is completely clear of enemy Units and moves his Units, up to a
    # maximum of 5, to an adjacent town." The attacker stands; the defender retreats to C, the
    # attacker enters B.
    s = tie_position()
    RULES.apply(s, "stand")
    assert RULES.to_act(s) == "Axis" and s.phase == TIE
    RULES.apply(s, "retreat")
    assert units(s, "C") == ("Axis", 2, 0) and units(s, "B") == ("Allied", 2, 0)


def test_tie_refought_with_dice_adjusted_for_casualties():
    # "if neither player will retreat the battle is refought, each player first adjusting his number of dice"
    board = sandbox_board(["A", "B"], [("A", "B", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 3, 0), "B": ("Axis", 3, 0)}, mp=5)
    RULES.apply(s, "move 3A A->B")
    end(s)
    roll(s, 2, 2, 5, 1, 3, 5)  # 9 against 9; the 2-2 costs the defender an Armored Unit
    RULES.apply(s, "stand")
    RULES.apply(s, "stand")
    assert s.phase == DICE and s.battle.round == 2 and s.battle.n == 3 and s.battle.m == 2


def test_no_dice_on_either_side_attacker_falls_back():
    # Patton: Retreating — a lone Infantry Unit against a lone Infantry Unit: neither throws; either
    # side may retreat from the tie (asked in turn), and if both stand a refight could never end, so
    # the attacker falls back (NOTES.md; tests/patton/test_readings.py has each choice).
    board = sandbox_board(["A", "B"], [("A", "B", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 0, 2), "B": ("Axis", 0, 1)}, mp=5)
    RULES.apply(s, "move 1I A->B")
    end(s)
    assert s.phase == TIE and RULES.to_act(s) == "Allied"
    RULES.apply(s, "stand")
    RULES.apply(s, "stand")
    assert units(s, "A") == ("Allied", 0, 2) and units(s, "B") == ("Axis", 0, 1)


def test_lone_defending_infantry_throws_no_dice_but_can_be_destroyed():
    # Patton: Battles — "he does not throw any dice. The attacker, however, still throws to try and destroy the Unit."
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 1, 0), "B": ("Axis", 0, 1)}, mp=5)
    RULES.apply(s, "move 1A A->B")
    end(s)
    assert s.battle.m == 0
    roll(s, 6)
    assert s.eliminated[1] == [0, 1] and units(s, "B") == ("Allied", 1, 0)


def test_units_retreating_into_a_town_still_under_attack_do_not_fight():
    # Patton: Retreating — they "join those already in the town, but are not considered in
    # determining how many dice the defender throws. They also cannot be used for covering Casualties."
    board = sandbox_board(["H", "A", "G", "K"], [("H", "A", "solid"), ("A", "G", "solid"), ("K", "G", "solid")])
    s = sandbox_state(
        board, {"H": ("Allied", 3, 0), "A": ("Axis", 1, 0), "G": ("Axis", 1, 2), "K": ("Allied", 2, 0)}, mp=10
    )
    RULES.apply(s, "move 3A H->A")
    RULES.apply(s, "move 2A K->G")
    end(s)
    RULES.apply(s, "battle A")
    roll(s, 6, 5, 4, 1)  # A's Armored Unit retreats to G, the only road without the enemy
    g = s.board.town_index["G"]
    assert (s.armor[g], s.inf[g], s.joined_a[g]) == (2, 2, 1)
    assert s.battle.target == g and s.battle.m == 2  # 1 Armored + 2 Infantry fight; the newcomer does not
    roll(s, 5, 5, 6, 6)  # 10 against 12, a casualty each: an Infantry Unit of G's own garrison
    assert s.inf[g] == 1 and s.armor[g] == 2 and s.joined_a[g] == 0  # battle over: the newcomer is ordinary again
    assert units(s, "K") == ("Allied", 1, 0)


def test_attacker_chooses_which_stack_loses():
    # Patton: Casualties — the side that suffers chooses where a choice exists.
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("C", "B", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 1, 2), "C": ("Allied", 1, 2), "B": ("Axis", 3, 0)}, mp=10)
    RULES.apply(s, "move 1A2I A->B")
    RULES.apply(s, "move 1A2I C->B")
    end(s)
    roll(s, 6, 5, 4, 2, 3, 3, 1)  # the defender's 3-3: one casualty
    assert s.phase == CASUALTY and RULES.to_act(s) == "Allied"
    assert sorted(RULES.legal_actions(s)) == ["casualties A:1I", "casualties C:1I"]
    RULES.apply(s, "casualties C:1I")
    assert units(s, "B") == ("Allied", 2, 3)


def test_defender_may_split_between_clear_roads():
    # Patton: Retreating — "If more than one road is clear of enemy Units, he can if he wishes split his Units"
    board = sandbox_board(["A", "B", "C", "D"], [("A", "B", "solid"), ("B", "C", "solid"), ("B", "D", "dashed")])
    s = sandbox_state(board, {"A": ("Allied", 3, 0), "B": ("Axis", 2, 3)}, mp=10)
    RULES.apply(s, "move 3A A->B")
    end(s)
    roll(s, 6, 5, 4, 1, 2, 3)
    legal = RULES.legal_actions(s)
    assert "retreat 1A1I B->C" in legal and "retreat 2A3I B->D" in legal and RULES.to_act(s) == "Axis"
    RULES.apply(s, "retreat 1A1I B->C")
    RULES.apply(s, "retreat 1A2I B->D")
    assert units(s, "C") == ("Axis", 1, 1) and units(s, "D") == ("Axis", 1, 2) and units(s, "B") == ("Allied", 3, 0)


def test_a_defender_over_ten_by_retreating_is_checked_after_his_own_turn():
    # Patton: Positioning of Units — "after a player's turn is completed HE has more than 10 Units in a town, he
    # must remove enough": Axis Units that retreat into a full town in the American turn stay until the end of
    # the Axis's own turn, and are removed then if still over 10
    board = sandbox_board(["X", "A", "D"], [("X", "A", "solid"), ("A", "D", "solid")])
    s = sandbox_state(board, {"X": ("Allied", 5, 0), "A": ("Axis", 2, 0), "D": ("Axis", 0, 9)}, mp=20)
    RULES.apply(s, "move 5A X->A")
    end(s)
    roll(s, 6, 5, 4, 3, 2, 1, 2)  # 20 against 3, no casualties: the defender retreats, by the one clear road, to D
    while s.mover == 0:  # the rest of the American turn: no removal for the Axis
        assert s.phase != STACKING
        if RULES.to_act(s) == CHANCE:
            RULES.apply_chance(s, RULES.chance_outcomes(s)[0][0])
        else:
            RULES.apply(s, RULES.legal_actions(s)[0])
    assert units(s, "D") == ("Axis", 2, 9) and units(s, "A") == ("Allied", 5, 0) and s.eliminated[1] == [0, 0]
    while s.phase != STACKING:  # the Axis turn: he does nothing about it
        assert s.mover == 1 and s.phase not in (OVER,)
        if RULES.to_act(s) == CHANCE:
            RULES.apply_chance(s, RULES.chance_outcomes(s)[0][0])
        else:
            legal = RULES.legal_actions(s)
            RULES.apply(s, "end" if "end" in legal else legal[0])
    assert RULES.to_act(s) == "Axis" and len(RULES.legal_actions(s)) == 2  # 1A or 1I of the 11 in D
