"""Patton's movement deck: 23 movement cards dealt 12/11, MP = own new card + the opponent's
face-up card, a used-up pack turned over unshuffled, the Game Ends card."""

from __future__ import annotations

from fractions import Fraction

import pytest

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.engine.ruleset import CHANCE
from warroom.games.patton.board import load_board, load_deck
from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import CARD, MOVING

RULES = PattonRules()


def end_turn(s):
    """End the side's moves (no attacks), so the turn passes straight on."""
    while s.phase != CARD and RULES.to_act(s) is not None:
        if RULES.to_act(s) == CHANCE:
            RULES.apply_chance(s, 1)
        elif s.phase == MOVING:
            RULES.apply(s, "end")
        elif "wait" in RULES.legal_actions(s):
            RULES.apply(s, "wait")
        else:
            RULES.apply(s, RULES.legal_actions(s)[0])


def test_deck_has_23_movement_cards_dealt_12_and_11():
    # Patton: The Movement Deck; Normandy — Duration of Game: "12 to the American and 11 to the German"
    deck = load_deck()
    assert len(deck.cards) == 23 and "reconstructed" in deck.source
    for scenario in ("normandy", "bulge", "sicily"):
        assert load_board(scenario).deal == (12, 11)


def test_rulebook_example_6_then_9_then_2():
    # Patton: The Movement Deck — "the American player turns over a 6 ... The German player turns over a 9.
    # He has 15 Movement Points ... The American player now turns over a 2 and has 11"
    s = RULES.initial_state("normandy", {})
    assert s.phase == CARD and RULES.to_act(s) == CHANCE
    RULES.apply_chance(s, 6)
    assert s.mp == 6
    end_turn(s)
    RULES.apply_chance(s, 9)
    assert s.mover == 1 and s.mp == 15
    end_turn(s)
    RULES.apply_chance(s, 2)
    assert s.mover == 0 and s.mp == 11


def test_card_chance_is_exact_over_the_unseen_cards():
    s = RULES.initial_state("bulge", {})
    outcomes = dict(RULES.chance_outcomes(s))
    deck = load_deck().cards
    assert outcomes == {v: deck.count(v) / 23 for v in set(deck)}
    RULES.apply_chance(s, 10)
    end_turn(s)
    outcomes = dict(RULES.chance_outcomes(s))
    assert outcomes[10] == pytest.approx((deck.count(10) - 1) / 22)
    assert sum(Fraction(p).limit_denominator(1000) for p in outcomes.values()) == 1
    with pytest.raises(IllegalActionError):
        RULES.apply_chance(s, 1)  # no 1 in this deck


def test_used_up_pack_is_turned_over_unshuffled_and_game_ends_after_12_turns():
    # Patton: The Movement Deck — "turns over the face up cards, without shuffling, and uses them again";
    # Normandy — Duration of Game: the Game Ends card at the bottom of the American pack, 12 turns each
    m = warroom.new_game("patton", "normandy", seed=5, keep_log=False)
    while not m.over:
        if m.ruleset.to_act(m.state) == "Allied" and m.state.phase == MOVING:
            m.play("end")
        else:
            legal = m.legal_actions()
            m.play("wait" if "wait" in legal else ("end" if "end" in legal else legal[0]))
    s = m.state
    german = s.cards[1]
    assert len(s.cards[0]) == 12 and len(german) == 12
    assert german[11] == german[0]  # the 12th German turn reuses his first card
    assert sorted(s.cards[0] + german[:11]) == sorted(load_deck().cards)
    assert m.result.winner == "Axis" and "Game Ends" in m.result.reason


def test_sicily_packs_recycle_without_a_game_ends_card():
    # Patton: Sicily — "The 'Game Ends' card is not used." and "The game continues until one player has
    # achieved his objective": no turn limit unless the option sets one (here, to see the packs recycle)
    board = load_board("sicily")
    assert not board.game_ends_card and board.turn_limit is None
    m = warroom.new_game("patton", "sicily", seed=2, options={"turn_limit": 14}, keep_log=False)
    while not m.over:
        legal = m.legal_actions()
        m.play("end" if "end" in legal else legal[0])
    allied = m.state.cards[0]
    assert len(allied) == 14 and allied[12:] == allied[:2]
