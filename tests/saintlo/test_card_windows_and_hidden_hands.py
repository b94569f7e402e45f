"""Panzer Saint-Lo 1944: rule points the code follows and no other module of tests/saintlo/ checked (a review
found them): the answer round of the pre-dice window and a Supplies card played in the opponent's turn
(9), an artillery unit moved after supporting (7.3), how long a card played in the opponent's window lasts
(9), the team game's windows and alternation (10.2, 10.4), and the hidden hands (4.5, 9)."""

from __future__ import annotations

import json

from saintlo_positions import bare, give, place, rules2, rules4

from warroom.engine.match import Match
from warroom.engine.ruleset import CHANCE
from warroom.games.saintlo.effects import stat
from warroom.games.saintlo.state import OFF, Phase
from warroom.games.saintlo.tables import DEFENSE_STAT


def dice(rules, s) -> int:
    """How many dice the pending throw has (an outcome is its faces written as one number)."""
    return len(str(rules.chance_outcomes(s)[0][0]))


# -- 9 the pre-dice window: the attacker's answer round ------------------------------------------------------
def test_a_card_played_by_the_defender_before_the_dice_opens_a_round_for_the_attacker() -> None:
    # Saint-Lo 9: "Battle Reports can be played at any moment": the defender plays in the window after the
    # attack is declared; the attacker then gets a window of its own before the dice, and its card counts
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "dug_in")
    give(rules, s, 0, "ace_of_tanks")
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis"
    rules.apply(s, "play dug_in de_infantry.1")
    # the defender played: the attacker's round, before any die is thrown
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Allied"
    assert rules.legal_actions(s) == ["play ace_of_tanks us_m4a1_76w.1", "pass"]
    rules.apply(s, "play ace_of_tanks us_m4a1_76w.1")
    assert rules.to_act(s) == CHANCE and s.phase == Phase.ATTACK_ROLL
    assert dice(rules, s) == 6  # the Sherman's 4 + Ace of Tanks 2
    rules.apply_chance(s, 111111)
    assert dice(rules, s) == 3  # the infantry's 1 + Dug In 2


def test_the_rounds_alternate_until_one_passes_with_no_card() -> None:
    # Saint-Lo 9 (NOTES.md reading of "at any moment"): a round in which a card was played opens a round for
    # the other army, back and forth, until a round passes with no card
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "dug_in")
    give(rules, s, 1, "hedgerow_defence")
    give(rules, s, 0, "ace_of_tanks")
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    rules.apply(s, "play dug_in de_infantry.1")
    assert rules.to_act(s) == "Axis"  # a seat that played may play again in its round
    rules.apply(s, "pass")
    assert rules.to_act(s) == "Allied"
    rules.apply(s, "play ace_of_tanks us_m4a1_76w.1")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis"  # the Allies played: the Axis answers
    assert rules.legal_actions(s) == ["play hedgerow_defence", "pass"]
    rules.apply(s, "play hedgerow_defence")
    assert rules.to_act(s) == CHANCE and dice(rules, s) == 6  # the Allies hold nothing more: the dice
    rules.apply_chance(s, 111111)
    assert dice(rules, s) == 4  # infantry 1 + Dug In 2 + Hedgerow Defence 1


def test_a_defender_who_passes_opens_no_round_for_the_attacker() -> None:
    # Saint-Lo 9 (NOTES.md reading): only a round in which a card was played opens one for the other army
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "dug_in")
    give(rules, s, 0, "ace_of_tanks")
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    rules.apply(s, "pass")
    assert rules.to_act(s) == CHANCE and dice(rules, s) == 4
    assert s.hands[0] and s.hands[1]  # nobody played


# -- 9 a Supplies card in the opponent's turn ------------------------------------------------------------------
def test_a_supplies_card_played_in_the_opponents_turn_goes_to_the_own_army() -> None:
    # Saint-Lo 9: Supplies events "grant extra supplies for the player": the Axis plays Fuel Depot in the
    # window of an Allied attack, and the Axis Supplies grow, not the Allies'
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "fuel_depot")
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.supplies == [4, 0]  # the attack cost the Allies 1
    assert rules.to_act(s) == "Axis" and "play fuel_depot" in rules.legal_actions(s)
    rules.apply(s, "play fuel_depot")
    assert s.supplies == [4, 2]  # Fuel Depot: +2 to the Axis, who played it
    assert s.hands[1] == [] and s.discard[1][rules.t.card_index[1]["fuel_depot"]] == 1
    assert s.effects == ()  # a Supplies card leaves no event in play
    assert rules.to_act(s) == CHANCE


# -- 7.3 an artillery unit that supported may move later ----------------------------------------------------
def test_artillery_that_supported_may_move_later_and_is_then_used_like_any_unit() -> None:
    # Saint-Lo 7.3: supporting artillery "are not flipped over after the attack is resolved ... Only if
    # they move, they should be flipped face down"; 5.3: a moved unit costs 1 Supply and counts toward 10
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    infantry = place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    artillery = place(rules, s, "us_m2a1.1", "0603")
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.phase == Phase.SUPPORT
    rules.apply(s, "support us_m2a1.1")
    assert dice(rules, s) == 2  # infantry 1 + artillery 1
    rules.apply_chance(s, 11)
    rules.apply_chance(s, 6)  # the defender survives
    assert s.supplies[0] == 3 and s.activations == 1  # the attack and the support paid; one unit used
    assert s.current == infantry
    rules.apply(s, "done")
    assert s.used[infantry] and not s.used[artillery]  # the supporter is not flipped
    moves = [a for a in rules.legal_actions(s) if a.startswith("move us_m2a1.1 ")]
    assert moves  # it may still move this turn
    rules.apply(s, moves[0])
    assert s.pos[artillery] != rules.t.hex_of["0603"]
    assert s.used[artillery] and s.current == OFF  # moved: flipped face down (it cannot attack, 7.3)
    assert s.supplies[0] == 2  # the move cost 1 Supply
    assert s.activations == 2  # and the artillery counts toward the 10 units
    assert not any(a.startswith(("move us_m2a1.1 ", "support")) for a in rules.legal_actions(s))


# -- 9 a card played in the opponent's start-of-phase window ------------------------------------------------
def test_a_card_played_at_the_start_of_the_opponents_phase_ends_with_that_turn() -> None:
    # Saint-Lo 9: "Unique and General events last only until the end of the turn": the Axis plays Hedgerow
    # Defence in the window opening the Allied Movement and Attack phase; it holds through the Allied
    # turn and is gone when the Allied turn ends (not at the end of the next Axis turn)
    rules = rules2()
    s = bare(rules, supplies=(5, 5))
    give(rules, s, 1, "hedgerow_defence")
    defender = place(rules, s, "de_infantry.1", "1210")
    place(rules, s, "us_infantry.1", "0303")
    s.phase, s.draw_queue = Phase.DRAW, (0,)
    rules.apply_chance(s, rules.t.card_index[0]["fuel_depot"])  # the Allied draw, then phase 3 opens
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis" and s.active == 0
    assert stat(rules.t, s, defender, DEFENSE_STAT) == 1
    rules.apply(s, "play hedgerow_defence")
    assert rules.to_act(s) == "Allied" and s.phase == Phase.ACTIONS
    assert stat(rules.t, s, defender, DEFENSE_STAT) == 2  # in force in the Allied turn
    rules.apply(s, "move us_infantry.1 0403")
    assert stat(rules.t, s, defender, DEFENSE_STAT) == 2  # still, after Allied actions
    rules.apply(s, "end")  # the Allied Movement and Attack phase ends
    assert s.phase == Phase.REORGANIZE and stat(rules.t, s, defender, DEFENSE_STAT) == 2
    rules.apply(s, "end")  # the Allied turn ends: the Axis turn begins
    assert s.active == 1 and s.turn == 2
    assert s.effects == () and stat(rules.t, s, defender, DEFENSE_STAT) == 1


# -- 10.4, 10.2 the team game -------------------------------------------------------------------------------
def test_the_partner_plays_a_card_on_the_partners_unit_in_the_defenders_window() -> None:
    # Saint-Lo 10.4: "A player may use an event to benefit his partner directly": Axis B (artillery and
    # tanks) holds Dug In; the attacked unit is Axis A's infantry; Axis B is offered the window and plays
    rules = rules4()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 3, "dug_in")  # seat 3: Axis B
    place(rules, s, "us_infantry.1", "0303")
    target = place(rules, s, "de_infantry.1", "0304")  # Axis A's
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis B"
    assert rules.legal_actions(s) == ["play dug_in de_infantry.1", "pass"]
    rules.apply(s, "play dug_in de_infantry.1")
    assert s.hands[3] == [] and stat(rules.t, s, target, DEFENSE_STAT) == 3
    assert rules.to_act(s) == CHANCE and dice(rules, s) == 1
    rules.apply_chance(s, 1)
    assert dice(rules, s) == 3  # the defence throws 1 + 2


def test_after_an_attack_with_support_refused_and_a_window_the_partner_moves_next() -> None:
    # Saint-Lo 10.2: "Team members will alternate their moves, a player at a time"; 10.3: Player B may
    # refuse the support; 9: the defender's window. After all that, Allied A's unit finishes and the
    # activation passes to Allied B
    rules = rules4()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 2, "dug_in")  # seat 2: Axis A
    infantry = place(rules, s, "us_infantry.1", "0303")  # Allied A's
    place(rules, s, "de_infantry.1", "0304")
    place(rules, s, "us_m2a1.1", "0603")  # Allied B's artillery, in range
    place(rules, s, "us_m4a1_76w.1", "0808")  # Allied B's tank, to use next
    assert rules.to_act(s) == "Allied A"
    rules.apply(s, "attack us_infantry.1 0304")
    rules.apply(s, "support us_m2a1.1")
    assert s.phase == Phase.SUPPORT_REPLY and rules.to_act(s) == "Allied B"
    rules.apply(s, "refuse")
    assert s.phase == Phase.SUPPORT and rules.to_act(s) == "Allied A"
    assert "support us_m2a1.1" not in rules.legal_actions(s)
    rules.apply(s, "fire")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis A"
    rules.apply(s, "play dug_in de_infantry.1")
    assert rules.to_act(s) == CHANCE and dice(rules, s) == 1  # the refused artillery adds nothing
    assert s.supplies[0] == 4  # only the attacker paid
    rules.apply_chance(s, 1)
    rules.apply_chance(s, 666)  # the defender survives
    assert s.current == infantry and rules.to_act(s) == "Allied A"  # it may still move
    rules.apply(s, "done")
    assert s.used[infantry] and s.activations == 1
    assert rules.to_act(s) == "Allied B" and s.phase == Phase.ACTIONS
    legal = rules.legal_actions(s)
    assert any(a.startswith("move us_m4a1_76w.1 ") for a in legal)
    assert not any(a.startswith("move us_infantry.") for a in legal)


# -- 4.5, 9 the hidden hands --------------------------------------------------------------------------------
def _hidden_words(rules, s, seat: int) -> set[str]:
    """The ids and names of the cards in `seat`'s hand."""
    army = seat if s.seats == 2 else seat // 2
    cards = rules.t.cards[army]
    return {cards[c].id for c in s.hands[seat]} | {cards[c].name for c in s.hands[seat]}


def _check_hands_hidden(rules, s) -> None:
    """Every seat's view (the match's, and the ruleset's observation) names its own cards and gives only a
    count of each opposing seat's hand, whose card ids and names appear nowhere in it."""
    match = Match(rules, s, keep_log=False)
    sides = rules.info.sides
    army_of_seat = [k if s.seats == 2 else k // 2 for k in range(s.seats)]
    for seat, side in enumerate(sides):
        for view in (match.view(side), {"state": rules.observation(s, side)}):
            text = json.dumps(view)
            hands = view["state"]["hands"]
            own = [rules.t.cards[army_of_seat[seat]][c].id for c in s.hands[seat]]
            assert hands[side] == own
            for other, other_side in enumerate(sides):
                if army_of_seat[other] == army_of_seat[seat]:
                    continue
                assert hands[other_side] == len(s.hands[other]) > 0
                for word in _hidden_words(rules, s, other):
                    assert word not in text, (side, word)


def test_no_seat_sees_the_names_of_the_opponents_cards() -> None:
    # Saint-Lo 4.5: each player "takes 6 Battle Reports ... to his hand without showing them"; 9: a seat
    # sees its own Battle Reports and only how many the opponent holds (the Axis cards chosen have names and
    # ids no Allied card in play shares)
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    for card in ("ace_of_tanks", "forced_march"):
        give(rules, s, 0, card)
    for card in ("combat_engineers", "fighter_ace", "supply_convoy"):  # "Pioniere", "Experte", "Night Convoy"
        give(rules, s, 1, card)
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    assert rules.to_act(s) == "Allied"
    _check_hands_hidden(rules, s)
    rules.apply(s, "attack us_m4a1_76w.1 0304")  # the Axis window: the Axis now has a legal list
    assert rules.to_act(s) == "Axis" and "play supply_convoy" in rules.legal_actions(s)
    _check_hands_hidden(rules, s)


def test_no_seat_sees_the_names_of_the_opposing_teams_cards() -> None:
    # Saint-Lo 10.1 (6 Battle Reports dealt to each player) and 9: in the team game too, each seat sees a
    # count of each enemy player's hand
    rules = rules4()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ace_of_tanks")
    give(rules, s, 1, "forced_march")
    give(rules, s, 2, "combat_engineers")  # "Pioniere"
    give(rules, s, 3, "reserve_stocks")  # "Captured Stores"
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    _check_hands_hidden(rules, s)
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.phase == Phase.WINDOW and rules.to_act(s) == "Axis A"
    _check_hands_hidden(rules, s)


def test_a_battle_report_played_cannot_be_taken_back() -> None:
    # Saint-Lo 9: a Battle Report is read out loud when played; an undo (against the computer, of its card
    # with the person's move) would leave the others knowing a card that is back in a hand (an audit as a
    # cheating opponent, 6 December). A move that shows nothing is still taken back.
    import random

    import warroom

    rng = random.Random(2)
    played = plain = 0
    for seed in range(10):
        match = warroom.new_game("saintlo", seed=seed, options={"turn_limit": 3})
        while not match.over and not (played and plain >= 3):
            legal = match.legal_actions()
            cards = [a for a in legal if a.startswith("play ")]
            action = rng.choice(cards) if cards and rng.random() < 0.5 else rng.choice(legal)
            twin = match.clone()
            rolls = len(twin.dice_rolled)
            twin.play(action)
            if len(twin.dice_rolled) == rolls and twin.to_act == match.to_act:
                if action.startswith("play "):
                    assert not twin.can_undo, action
                    played += 1
                elif action.startswith("move "):
                    assert twin.can_undo, action
                    plain += 1
            match.play(action)
        if played and plain >= 3:
            return
    raise AssertionError(f"{played} cards played, {plain} plain moves seen")
