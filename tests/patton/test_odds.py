"""Patton's exact battle odds, checked against brute force over every sequence of dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from warroom.engine.errors import WarroomError
from warroom.games.patton.combat import casualties_from, dice_for, losses
from warroom.games.patton.odds import casualty_distribution, comparison, protocol_odds, round_outcome, throw_table


@pytest.mark.parametrize("n", range(6))
def test_throw_table_counts_every_ordering(n):
    assert sum(w for _, _, w in throw_table(n)) == 6**n


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 1), (2, 3), (3, 3), (0, 2), (4, 2)])
def test_comparison_matches_brute_force(n, m):
    counts = Counter()
    for a in product(range(1, 7), repeat=n):
        for d in product(range(1, 7), repeat=m):
            counts[(sum(a) > sum(d)) - (sum(a) < sum(d))] += 1
    whole = 6 ** (n + m)
    assert comparison(n, m) == (Fraction(counts[1], whole), Fraction(counts[0], whole), Fraction(counts[-1], whole))


@pytest.mark.parametrize("n", range(1, 5))
def test_casualty_distribution_matches_brute_force(n):
    # Patton: Casualties — a 6 on one die; doubles, triples ... on two or more
    counts = Counter(casualties_from(dice) for dice in product(range(1, 7), repeat=n))
    assert casualty_distribution(n) == {k: Fraction(v, 6**n) for k, v in counts.items()}


@pytest.mark.parametrize(
    "forces", [(2, 0, 1, 0), (1, 2, 0, 3), (0, 2, 0, 1), (2, 1, 1, 1), (1, 0, 0, 1), (0, 2, 0, 2), (0, 3, 0, 2)]
)
def test_round_outcome_matches_brute_force(forces):
    aa, ai, da, di = forces
    n, m = dice_for(aa, ai), dice_for(da, di)
    counts = Counter()
    for a in product(range(1, 7), repeat=n):
        for d in product(range(1, 7), repeat=m):
            la, li = losses(casualties_from(a), da, di)
            ka, ki = losses(casualties_from(d), aa, ai)
            att_left, def_left = aa + ai - ka - ki, da + di - la - li
            if not att_left and not def_left:
                counts["both_eliminated"] += 1
            elif not def_left or (att_left and sum(a) > sum(d)):
                counts["attacker_wins"] += 1
            elif not att_left or sum(a) < sum(d):
                counts["defender_wins"] += 1
            else:
                counts["tie"] += 1  # a tie neither side can refight too: either may retreat, it is asked (Retreating)
    whole = 6 ** (n + m)
    assert round_outcome(*forces) == {
        k: Fraction(counts[k], whole) for k in ("attacker_wins", "defender_wins", "tie", "both_eliminated")
    }


def test_retreating_example_odds():
    # Patton: Retreating — 2 Armored against 1 Armored: the defender can be wiped out even when his total is higher
    o = round_outcome(2, 0, 1, 0)
    assert o["attacker_wins"] > comparison(2, 1)[0]
    assert sum(o.values()) == 1


def test_protocol_answer_shape_and_values():
    answer = protocol_odds(
        {
            "cmd": "odds",
            "game": "patton",
            "attacker": {"armor": 5, "infantry": 0},
            "defender": {"armor": 5, "infantry": 4},
        }
    )
    assert answer["ok"] is True and answer["attacker_dice"] == 5 and answer["defender_dice"] == 5
    assert answer["attacker_higher"] == pytest.approx(answer["defender_higher"])
    assert answer["attacker_higher"] + answer["defender_higher"] + answer["tie"] == pytest.approx(1)
    assert set(answer["casualties_to_defender"]) == {"0", "1", "2", "3", "4"}
    assert sum(answer["casualties_to_attacker"].values()) == pytest.approx(1)
    assert answer["casualties_to_defender"]["0"] == pytest.approx(720 / 7776)  # five different numbers
    lone = protocol_odds({"attacker": {"armor": 1, "infantry": 0}, "defender": {"armor": 0, "infantry": 1}})
    assert lone["defender_dice"] == 0 and lone["casualties_to_defender"] == {
        "0": pytest.approx(5 / 6),
        "1": pytest.approx(1 / 6),
    }
    assert lone["attacker_higher"] == 1.0
    bonus = protocol_odds({"attacker": {"armor": 1}, "defender": {"infantry": 1}, "retreat_battle": True})
    assert bonus["defender_dice"] == 2


def test_protocol_rejects_bad_input():
    with pytest.raises(WarroomError):
        protocol_odds({"attacker": {"armor": -1}, "defender": {"armor": 1}})
    with pytest.raises(WarroomError):
        protocol_odds({"attacker": {"armor": 1}})


def test_protocol_rejects_unknown_fields():
    # the protocol's handlers check their own fields: a typo is an error, not silently ignored
    with pytest.raises(WarroomError, match="not 'bogus'"):
        protocol_odds({"cmd": "odds", "game": "patton", "attacker": {"armor": 1}, "defender": {"armor": 1}, "bogus": 3})
    with pytest.raises(WarroomError, match="not 'armour'"):
        protocol_odds({"attacker": {"armour": 1}, "defender": {"armor": 1}})
    with pytest.raises(WarroomError, match="true or false"):
        protocol_odds({"attacker": {"armor": 1}, "defender": {"armor": 1}, "retreat_battle": "yes"})
    import warroom

    with pytest.raises(WarroomError, match="take no fields"):
        protocol_odds({"cmd": "odds", "typo": 1}, warroom.new_game("patton", "normandy", seed=1))


def test_no_dice_on_either_side_is_a_tie_the_players_decide():
    # Patton: Battles — a lone Infantry Unit "does not add to a player's dice total": 1 Infantry against
    # 1 Infantry throws nothing on either side: a tie, and (Retreating) "either player may choose to
    # retreat voluntarily"; if both stand a refight could never end and the attacker falls back
    # (NOTES.md). The odds say a tie and what follows; the AI's estimate counts it as held.
    from warroom.games.patton.odds import attack_success, choice_odds, stalemate

    assert round_outcome(0, 1, 0, 1) == {"attacker_wins": 0, "defender_wins": 0, "tie": 1, "both_eliminated": 0}
    assert stalemate(0, 1, 0, 1) == 1 and stalemate(2, 0, 1, 0) == 0
    entry = choice_odds(0, 1, 0, 1, 0, True, "")
    assert (
        entry["outcome"] == {"win": 0.0, "tie": 1.0, "lose": 0.0}
        and "if both stand, the attacker falls back" in entry["text"]
    )
    assert attack_success(0, 1, 0, 1) == 0.0
    assert stalemate(0, 2, 0, 2) == Fraction(1, 36)  # 6 against 6: one casualty each, 1 Infantry against 1 Infantry


def test_protocol_odds_of_the_current_battle():
    # a request naming no game asks for the battles of the current position
    import warroom

    m = warroom.new_game("patton", "normandy", seed=1, dice=[9])
    m.play("move 3A St-Lo->Torigni")
    answer = protocol_odds({"cmd": "odds"}, m)
    assert answer["battles"][0]["town"] == "Torigni" and answer["battles"][0]["attacker_dice"] == 3
    assert answer["battles"][0]["defender_dice"] == 0 and answer["battles"][0]["attacker_higher"] == 1.0
