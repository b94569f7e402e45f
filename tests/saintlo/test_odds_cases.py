"""Saint-Lo's odds before a commitment count the Battle Reports the defender may still play (9) and the
artillery the attacker may call (7.3): each case exactly, against the brute-force enumeration of odds.py (6.2,
every pair of throws), the range they make, and what is assumed; never from the defender's hand itself."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from saintlo_positions import bare, give, place, rules2

from warroom.games.saintlo import odds
from warroom.games.saintlo.calculator import SaintLoOdds
from warroom.games.saintlo.state import Phase
from warroom.web.odds import card_line

ODDS = SaintLoOdds()
ATTACK = "attack us_m4a1_76w.1 0304"  # a Sherman, attack 4, on Axis infantry, defence 1


def _position(*axis_hand: str, discarded: tuple[str, ...] = (), artillery: bool = False) -> Any:
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    if artillery:
        place(rules, s, "us_m2a1.1", "0603")  # range 3 to 0304 (7.3)
    for card in axis_hand:
        give(rules, s, 1, card)
    for card in discarded:  # played earlier: read out loud, on the public pile (9)
        c = rules.t.card_index[1][card]
        s.deck[1][c] -= 1
        s.discard[1][c] += 1
    s.legal = None
    return rules, s


def _cases(rules: Any, s: Any, action: str = ATTACK) -> dict[tuple[int, int], Fraction]:
    entry = next(e for e in ODDS.position(rules, s)["attacks"] if e["action"] == action)
    return {(c["attack_dice"], c["defense_dice"]): Fraction(c["fraction"]) for c in entry["cases"]}


def test_one_card_in_the_defenders_hand_gives_each_card_that_could_change_the_dice() -> None:
    # Saint-Lo 9: the Axis may play a Battle Report once the attack is declared; with one card in hand that is
    # Dug In (+2 defence on its unit), Hedgerow Defence (+1 to its infantry) or none. 6.2: each case exact.
    rules, s = _position("fuel_depot")
    cases = _cases(rules, s)
    assert set(cases) == {(4, 1), (4, 3), (4, 2)}
    for (a, d), p in cases.items():
        assert p == odds.win_fraction(a, d)  # every pair of throws enumerated
    shown = ODDS.action_odds(rules, s, ATTACK)
    assert shown is not None
    assert shown["high"] == float(odds.win_fraction(4, 1)) == shown["p"]  # the headline: no card played
    assert shown["low"] == float(odds.win_fraction(4, 3))
    assert shown["cases"][0]["if"] == "if the Axis army plays no Battle Report"
    assert any("Dug In" in c["if"] for c in shown["cases"]) and any(
        "Hedgerow Defence" in c["if"] for c in shown["cases"]
    )
    assert f"destroyed {shown['low'] * 100:.1f}-{shown['high']:.1%}" in shown["text"]
    assert "1 Battle Report" in shown["assumes"] and "not counted" in shown["assumes"]
    assert card_line(shown).startswith(f"{shown['low'] * 100:.0f}-{shown['high']:.0%}: ")  # the browser's button


def test_the_attackers_odds_never_read_the_defenders_hand() -> None:
    # Saint-Lo 2.5, 9: hands are held face down; only their size and the discard pile are public
    held_dug_in = _cases(*_position("dug_in", "dug_in"))
    held_supplies = _cases(*_position("fuel_depot", "supply_convoy"))
    assert held_dug_in == held_supplies
    # two cards: Dug In twice (+4) and Dug In with Hedgerow Defence (+3) are possible too
    assert {(4, 4), (4, 5)} <= set(held_dug_in)
    # one Dug In on the public discard pile: Dug In twice is no longer possible
    one_left = _cases(*_position("fuel_depot", "supply_convoy", discarded=("dug_in",)))
    assert (4, 5) not in one_left and (4, 4) in one_left


def test_an_empty_hand_leaves_one_number_and_says_why() -> None:
    # Saint-Lo 9: an army holding no Battle Report can play none: the one number, exactly (6.2)
    rules, s = _position()
    shown = ODDS.action_odds(rules, s, ATTACK)
    assert shown is not None and shown["low"] == shown["high"] == shown["p"] == float(odds.win_fraction(4, 1))
    assert "holds no Battle Report" in shown["text"]
    assert card_line(shown) == f"{shown['p']:.1%} · exactly {shown['fraction']}"


def test_artillery_support_gives_its_own_range_with_jammed_radios() -> None:
    # Saint-Lo 7.3: the M2A1 in range adds its die; 9: Jammed Radios (enemy artillery may not support) would
    # take it back (the tank's 4 dice alone), one of the cases of the supported attack
    rules, s = _position("fuel_depot", artillery=True)
    entry = next(e for e in ODDS.position(rules, s)["attacks"] if e["action"] == ATTACK)
    assert entry["support"] == ["us_m2a1.1"] and entry["supported_dice"] == 5
    assert "Jammed Radios" in entry["supported_range"]
    assert entry["supported_low"] == float(odds.win_fraction(5, 3))  # one card in hand: Dug In is the worst
    assert "with 1 artillery in support (7.3)" in str(ODDS.action_odds(rules, s, ATTACK)["text"])  # type: ignore[index]


def test_the_declared_attack_keeps_its_range_until_the_window_closes() -> None:
    # Saint-Lo 9: after the attack is declared the Axis window is open; once the dice are thrown no card is left
    rules, s = _position("fuel_depot")
    rules.apply(s, ATTACK)
    assert s.phase == Phase.WINDOW
    [battle] = ODDS.battle_odds(rules, s, None)
    assert battle["low"] < battle["high"] and "Dug In" in battle["text"]
    rules.apply(s, "pass")
    [battle] = ODDS.battle_odds(rules, s, None)
    assert battle["low"] == battle["high"] and battle["cases"] == []


def test_the_calculator_gives_each_case_of_the_defenders_cards() -> None:
    # Saint-Lo 9, 6.2: `warroom odds saintlo --attack-dice 4 --defense-dice 1 --card-defense 2`: the Battle
    # Reports the defender may still play could add up to 2 dice: each case exact, against every pair of throws
    answer = ODDS.calculate({"attack_dice": 4, "defense_dice": 1, "card_defense": 2})
    assert [Fraction(c["fraction"]) for c in answer["cases"]] == [odds.win_fraction(4, d) for d in (1, 2, 3)]
    assert answer["low"] == float(odds.win_fraction(4, 3)) and answer["high"] == float(odds.win_fraction(4, 1))
    assert answer["text"].startswith("4 dice against 1: destroyed 62.0-87.4% (87.4% if no Battle Report adds")
    assert "9" in answer["assumes"]
    plain = ODDS.calculate({"attack_dice": 4, "defense_dice": 1})
    assert "cases" not in plain and plain["text"] == "4 dice against 1: destroyed 87.4%"
    assert ODDS.parse_cli({"attack_dice": "4", "defense_dice": "1", "card_defense": "2"})["card_defense"] == "2"
