"""Tunisia's exact odds (warroom/games/tunisia/odds.py) against brute force: the calculator against the rules'
own d12 test, and every battle's joint outcome against the engine playing out every combination of dice."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from warroom.engine.chance import sample
from warroom.engine.errors import WarroomError
from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia.combat import succeeds
from warroom.games.tunisia.odds import TunisiaOdds, air_combat_odds, attack_survey, success
from warroom.games.tunisia.rules import TunisiaRules
from warroom.games.tunisia.state import Phase, TunisiaState

R = TunisiaRules()
ODDS = TunisiaOdds()


def test_one_d12_test_matches_the_rule_for_every_cf_and_modifier() -> None:
    # Tunisia 11.5, 12.2: roll + modifier <= CF succeeds, a natural 1 always, a natural 12 never
    for cf in range(0, 12):
        for modifier in range(-6, 7):
            wins = sum(succeeds(roll, modifier, cf) for roll in range(1, 13))
            assert success(cf, modifier) == Fraction(wins, 12)
            answer = ODDS.calculate({"cf": cf, "modifier": modifier})
            assert answer["success"] == pytest.approx(wins / 12) and answer["fraction"] == str(Fraction(wins, 12))
    assert success(0, 5) == Fraction(1, 12) and success(20, -5) == Fraction(11, 12)  # 11.5C: the naturals


def test_calculator_refuses_bad_fields_and_the_cli_surveys_modifiers() -> None:
    with pytest.raises(WarroomError, match="cf"):
        ODDS.calculate({"cf": "five"})
    with pytest.raises(WarroomError, match="colour"):
        ODDS.calculate({"cf": 5, "colour": "red"})
    survey = ODDS.parse_cli({"cf": "5"})
    assert isinstance(survey, list) and [r["modifier"] for r in survey] == list(range(-5, 6))
    lines = ODDS.describe({"survey": [ODDS.calculate(r) for r in survey]})
    assert lines[0].startswith("Tunisia") and len(lines) == 12


def test_air_combat_odds_by_brute_force() -> None:
    # Tunisia 10.2: the lower modified roll wins; a tie, or both at zero or less, reduce both
    for a_drm in (-3, -2, -1):
        for d_drm in (-2, -1):
            found = Counter()
            for ra in range(1, 13):
                for rd in range(1, 13):
                    a, d = ra + a_drm, rd + d_drm
                    found["none" if a == d or (a <= 0 and d <= 0) else "attacker" if a < d else "defender"] += 1
            odds = air_combat_odds(a_drm, d_drm)
            assert {k: Fraction(n, 144) for k, n in found.items()} == {k: v for k, v in odds.items() if v}


def _attack_positions(count: int) -> list[TunisiaState]:
    """Attack Phases of random games where some attack is legal, some with air on both sides."""
    found: list[TunisiaState] = []
    for seed in range(40):
        rng = random.Random(seed)
        s = R.initial_state()
        while (who := R.to_act(s)) is not None and len(found) < count:
            if who == CHANCE:
                R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
                continue
            legal = R.legal_actions(s)
            if s.phase == Phase.ATTACK and any(a.startswith("attack") for a in legal) and rng.random() < 0.3:
                found.append(s.clone())
            R.apply(s, rng.choice(legal), False)
        if len(found) >= count:
            break
    return found


BATTLE_DICE = (Phase.AIR_ROLL_ATTACKER, Phase.AIR_ROLL_DEFENDER, Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL)


def _dice(t: TunisiaState, hits: tuple[bool, bool], memo: dict[str, dict[str, Fraction]]) -> dict[str, Fraction]:
    """The engine itself over every remaining face of the battle's dice: which of the two tests succeeded
    (read from the roll events), exactly. Positions at the attack roll are met again after the air combat, so
    they are walked once each (`memo`)."""
    if R.to_act(t) != CHANCE or t.phase not in BATTLE_DICE:
        a, d = hits
        return {"both" if a and d else "defender" if a else "attacker" if d else "neither": Fraction(1)}
    key = ""
    if t.phase == Phase.ATTACK_ROLL:  # the air combat's first die is only a record once the combat is over
        data = R.state_to_json(t)
        data["battle"][6] = 0
        key = json.dumps(data, sort_keys=True)
    if key in memo:
        return memo[key]
    out: dict[str, Fraction] = dict.fromkeys(("defender", "attacker", "both", "neither"), Fraction(0))
    for face in range(1, 13):
        u = t.clone()
        a, d = hits
        for e in R.apply_chance(u, face, True):
            a = e["text"].endswith("success.") if e["type"] == "attack_roll" else a
            d = e["text"].endswith("success.") if e["type"] == "defense_roll" else d
        for k, p in _dice(u, (a, d), memo).items():
            out[k] += p / 12
    if key:
        memo[key] = out
    return out


def _brute_force(s: TunisiaState, action: str, defence: str | None) -> dict[str, Fraction]:
    t = s.clone()
    R.apply(t, action, False)
    if t.phase == Phase.DEFENSIVE_AIR:
        R.apply(t, defence or "no air", False)
    return _dice(t, (False, False), {})


def test_every_legal_attacks_joint_outcome_matches_the_engine_over_all_dice() -> None:
    # Tunisia 7.3, 10.2, 11.3-11.5, 12.1-12.4: the survey's numbers are what the engine does, exactly
    positions = _attack_positions(6)
    assert positions
    checked = with_air = 0
    for s in positions:
        attacks = [a for a in R.legal_actions(s) if a.startswith("attack")]
        for action in attacks[:4] + [a for a in attacks if "+air" in a][:2]:
            entry = attack_survey(R, s, action)
            t = s.clone()
            R.apply(t, action, False)
            choices = [a for a in R.legal_actions(t)] if t.phase == Phase.DEFENSIVE_AIR else [None]
            for choice, listed in zip(choices, entry["defence_choices"], strict=True):
                expected = _brute_force(s, action, choice)
                got = listed["outcome"]
                assert got == pytest.approx({k: float(v) for k, v in expected.items()}), (action, choice)
                checked += 1
                with_air += "+air" in action and choice not in (None, "no air")
    assert checked >= 10 and with_air > 0  # some battles had an air combat (10.2) folded in


def test_position_survey_lists_every_attack_and_the_battle_in_progress() -> None:
    s = _attack_positions(1)[0]
    answer = ODDS.position(R, s)
    attacks = [a for a in R.legal_actions(s) if a.startswith("attack")]
    assert [e["action"] for e in answer["attacks"]] == attacks and answer["battle"] is None
    for e in answer["attacks"]:
        assert sum(e["outcome"].values()) == pytest.approx(1.0)
    R.apply(s, attacks[0], False)
    during = ODDS.position(R, s)
    assert during["attacks"] == [] and during["battle"] is not None
    assert ODDS.battle_odds(R, s, "Axis")[0]["outcome"] == during["battle"]["outcome"]
    odds = ODDS.action_odds(R, _attack_positions(1)[0], attacks[0])
    assert odds is not None and 0 <= odds["p"] <= 1


def _succeeds(outcome: dict[str, Fraction]) -> Fraction:
    return outcome["defender"] + outcome["both"]


def test_the_xii_asc_attack_shows_each_defensive_air_case_and_the_range() -> None:
    # Tunisia 7.3A, 7.3C, 7.3E, 10.2: the Allies commit XII ASC first; the Axis then decides whether the
    # Fliegerkorps (range 32, 16 hexes away) flies to the defence, and an air combat follows. The odds before
    # the commitment give both cases, each exactly as the engine plays it over every die, and the range.
    from tunisia_positions import battle

    from warroom.games.tunisia.catalog import ALLIED
    from warroom.web.odds import card_line

    s = battle(ALLIED, **{"78th": "8122", "Young-Fascists": "8222", "XII-ASC": "7712", "Fliegerkorps": "8407"})
    action = next(a for a in R.legal_actions(s) if a.endswith("+air XII-ASC"))
    shown = ODDS.action_odds(R, s, action)
    assert shown is not None
    cases = {c["if"]: Fraction(c["fraction"]) for c in shown["cases"]}
    assert set(cases) == {"with no defending air", "if Fliegerkorps Tunis defends"}  # the asset by its name
    assert cases["with no defending air"] == _succeeds(_brute_force(s, action, "no air"))
    assert cases["if Fliegerkorps Tunis defends"] == _succeeds(_brute_force(s, action, "air Fliegerkorps"))
    low, high = cases["if Fliegerkorps Tunis defends"], cases["with no defending air"]
    assert low < high and shown["low"] == float(low) and shown["high"] == float(high)
    assert shown["p"] == float(low)  # the headline: the defence worst for the attacker (he decides after, 7.3E)
    text = shown["text"]
    assert text.startswith(f"attack succeeds {float(low) * 100:.1f}-{float(high):.1%} (")
    assert (
        f"{float(low):.1%} if Fliegerkorps Tunis defends" in text and f"{float(high):.1%} with no defending air" in text
    )
    assert "Fliegerkorps" in shown["assumes"] and "7.3C" in shown["assumes"]
    assert card_line(shown) == (
        f"{float(low) * 100:.0f}-{float(high):.0%}: {float(high):.0%} with no defending air; "
        f"{float(low):.0%} if Fliegerkorps Tunis defends"
    )  # the browser's button says the range and what each end assumes


def test_with_no_enemy_air_able_to_reach_the_odds_are_one_number() -> None:
    # Tunisia 7.3C: the Regia Aeronautica (range 20) is more than 20 hexes from 8222 and the Fliegerkorps is
    # gone: no choice is left to the Axis, so one exact number, and the reason for it
    from tunisia_positions import battle

    from warroom.games.tunisia.catalog import ALLIED
    from warroom.web.odds import card_line

    s = battle(ALLIED, **{"78th": "8122", "Young-Fascists": "8222", "XII-ASC": "7712", "Regia-Aeronautica": "7201"})
    assert R.board.grid.distance(R.board.at("7201"), R.board.at("8222")) > 20
    action = next(a for a in R.legal_actions(s) if a.endswith("+air XII-ASC"))
    shown = ODDS.action_odds(R, s, action)
    assert shown is not None and len(shown["cases"]) == 1
    exact = _succeeds(_brute_force(s, action, None))
    assert Fraction(shown["fraction"]) == exact and shown["low"] == shown["high"] == shown["p"] == float(exact)
    assert shown["text"].startswith(f"attack succeeds {float(exact):.1%} (no Axis air can fly to the defence")
    assert card_line(shown) == f"{float(exact):.1%} · exactly {exact}"


def test_the_calculator_gives_each_defensive_air_case_against_an_enumeration() -> None:
    # Tunisia 7.3A-F, 10.2, 11.5: `warroom odds tunisia --cf C --modifier M --air A --defending-air D`: the attack
    # with its air unopposed, and over the air combat where the enemy asset flies: every die enumerated
    for cf, modifier, air, enemy in ((5, 0, -2, -2), (4, 1, -2, -1), (7, -1, -1, -2)):
        answer = ODDS.calculate({"cf": cf, "modifier": modifier, "air": air, "defending_air": enemy})
        alone = Fraction(sum(succeeds(r, modifier + air, cf) for r in range(1, 13)), 12)
        opposed = Fraction(0)
        for ra in range(1, 13):
            for rd in range(1, 13):
                a, d = ra + air, rd + enemy
                kept = not (a == d or (a <= 0 and d <= 0)) and a < d  # only the attacker's asset flies on
                drm = modifier + (air if kept else 0)
                opposed += Fraction(sum(succeeds(r, drm, cf) for r in range(1, 13)), 12 * 144)
        assert [Fraction(c["fraction"]) for c in answer["cases"]] == [alone, opposed]
        assert answer["fraction"] == str(min(alone, opposed)) and answer["high"] == float(max(alone, opposed))
        assert "7.3E" in answer["assumes"]
    # defending air with no air attacking: only the defence roll changes (12.1B), one number
    single = ODDS.calculate({"cf": 5, "modifier": 0, "defending_air": -2})
    assert single["low"] == single["high"] == float(Fraction(5, 12)) and "12.1B" in single["text"]
    assert ODDS.calculate({"cf": 5, "modifier": 0}).keys() >= {"success", "fraction", "text"}  # no air: as before
    with pytest.raises(WarroomError, match="air"):
        ODDS.calculate({"cf": 5, "air": "lots"})
