"""Saint-Lo 9 in table mode (cards and dice typed in at one screen): a card draw offers every kind of the
drawer's deck, not only the kinds left in it, which with the cards played would tell the table what the
drawer's hands hold; a kind none of which is left is refused without naming those that are
(the spec's `entry_outcomes`, warroom.engine.match)."""

from __future__ import annotations

import json

import pytest

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.games.saintlo.seats import army_of
from warroom.games.saintlo.state import Phase
from warroom.web.layouts import describe_actions


def _step(m: warroom.Match) -> None:
    """The first legal decision, or the first card or face that can come up now."""
    if m.to_act == "dice":
        m.play(f"roll {m.ruleset.chance_outcomes(m.state)[0][0]}", side="dice")
    else:
        m.play(m.legal_actions()[0], side=m.to_act)


def _at_a_draw() -> warroom.Match:
    m = warroom.new_game("saintlo", seed=3, dice="manual")
    while not (m.state.phase == Phase.DRAW and m.to_act == "dice"):
        _step(m)
    return m


def test_a_typed_in_draw_offers_every_kind_and_refuses_one_none_of_is_left() -> None:
    # Saint-Lo 9 (a Battle Report drawn; a hand is seen by its owner only), typed in at the table
    m = _at_a_draw()
    s = m.state
    army = army_of(s, s.draw_queue[0])
    deck = s.deck[army]
    kinds = len(m.ruleset.t.cards[army])
    deck[0] = 0  # every card of the first kind is out of the deck (drawn or played before)
    s.legal = None
    assert m.legal_actions() == [f"roll {k}" for k in range(kinds)]  # the kind with none left is offered too
    assert [d["face"] for d in describe_actions(m, m.legal_actions())] == list(range(kinds))
    before = json.dumps(m.view()["state"], sort_keys=True)
    with pytest.raises(IllegalActionError) as refused:
        m.play("roll 0", side="dice")
    assert str(refused.value) == "0 cannot come up now: check what was turned up and enter it again"
    assert json.dumps(m.view()["state"], sort_keys=True) == before
    left = sum(m.state.deck[army])
    m.play("roll 1", side="dice")  # a kind that is left is drawn as typed
    assert sum(m.state.deck[army]) == left - 1


def test_dice_typed_in_still_offer_their_faces() -> None:
    # Saint-Lo 4 (setup: "Roll dices to determine starting player"): typed in, the six faces, as every die
    m = warroom.new_game("saintlo", seed=3, dice="manual")
    while m.state.phase != Phase.START_ROLL:  # 4.4: who starts, by dice, once the hands are dealt
        _step(m)
    assert m.legal_actions() == [f"roll {v}" for v in range(1, 7)]


def test_a_typed_in_card_and_throw_read_as_words_at_the_table() -> None:
    # Saint-Lo 9 (a Battle Report turned up), 6.2 (a throw typed in): the menus name the card, not a number
    from warroom.games.saintlo.render import pending_roll, roll_name

    m = _at_a_draw()
    s = m.state
    cards = m.ruleset.t.cards[army_of(s, s.draw_queue[0])]
    assert m.ruleset.describe_action(s, "roll 0") == f"Draw {cards[0].name}"
    assert roll_name(m) == "Battle Report"
    listing = pending_roll(m)
    assert listing is not None and all(card.name in str(listing) for card in cards)
    s.phase = Phase.ATTACK_ROLL
    assert m.ruleset.describe_action(s, "roll 6551") == "Throw 6, 5, 5 and 1"  # dice as dice, not 6551
