"""Operation Dragoon 1944: the contested readings as rules options, and attacks that can never advance.

Where two sections of the rulebook disagree or a rule reads two ways, the game offers both as a
rules option (warroom/games/dragoon/options.py, NOTES.md "Readings"); each test plays a position
under both readings. Issue 12, items 20-22.
"""

from __future__ import annotations

from typing import Any

import pytest
from dragoon_positions import ESCAPE_A, events_of, game, position, quiet_bot_roll, rules, unit, where

import warroom
from warroom.engine.errors import PositionError, WarroomError
from warroom.games.dragoon.options import DEFAULTS, option_specs


# -- the options themselves -------------------------------------------------------------------
def test_each_contested_reading_is_an_option_with_the_calibrated_default() -> None:
    specs = {spec["key"]: spec for spec in rules().option_specs()}
    assert specs.keys() == DEFAULTS.keys() == {"panzer_counterattack", "montelimar_infantry", "panzer_to_montelimar"}
    for key, spec in specs.items():
        assert spec["default"] == DEFAULTS[key] and spec["kind"] == "choice" and len(spec["choices"]) == 2
        assert spec["rule"].startswith("Dragoon: ") and spec["help"]
    assert warroom.new_game("dragoon", seed=1).view()["state"]["options"] == DEFAULTS
    assert option_specs() is option_specs()  # described once


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"no_such": True}, "unknown Operation Dragoon option"),
        ({"montelimar_infantry": "maybe"}, "'retreat_south', 'eliminated'"),
    ],
)
def test_an_unknown_option_or_reading_is_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(WarroomError, match=words):
        warroom.new_game("dragoon", seed=1, options=options)
    with pytest.raises(PositionError, match=words):
        game(position(options=options))


def test_options_travel_with_the_position_and_the_record() -> None:
    chosen = {"montelimar_infantry": "eliminated", "panzer_to_montelimar": "next_movement"}
    m = warroom.new_game("dragoon", seed=3, options=chosen)
    state = m.view()["state"]
    assert state["options"] == {**DEFAULTS, **chosen}
    assert rules().state_to_json(rules().state_from_json(state)) == state
    m.play(m.legal_actions()[0])
    assert warroom.load(m.record().to_json()).view()["state"]["options"] == {**DEFAULTS, **chosen}


# -- the 11th PzD beating a stalled unit --------------------------------------------------------
def _panzer_counterattack(stalled: bool, reading: str) -> dict[str, Any]:
    return position(
        turn=23,
        phase="bot_attack_roll",
        allied={"VI-Corps": {"location": "Crest", "stalled": stalled}},
        german={"11-PzD": {"location": "Montelimar", "desperate": True}},
        panzer="pinned in Montelimar",
        allied_control=["Die", "Crest"],
        options={"panzer_counterattack": reading},
        bot_attack={"attacker": "11-PzD", "target": "VI-Corps", "rerolled": False, "roll": None},
    )


def test_panzer_push_back_reading_retreats_the_stalled_unit_and_stays() -> None:
    # Dragoon: Resolving Unit Attacks ("If the German unit advances, the 'stalled' Allied unit is
    # retreated") with 11th PzD Special Rules ("remains in Montelimar for the remainder of the game"):
    # default reading: the stalled unit retreats, the 11th PzD does not advance.
    m = game(_panzer_counterattack(True, "push_back"), dice=[6])
    assert (where(m, "VI-Corps"), where(m, "11-PzD")) == ("Die", "Montelimar")
    assert "Crest" in m.view()["state"]["allied_control"]  # nobody German entered Crest


def test_panzer_stall_only_reading_never_attacks_a_stalled_unit() -> None:
    # Dragoon: 11th PzD Special Rules — the option: a win against a stalled unit is an advance, which
    # the 11th PzD never makes, so it has no result: the PzD attacks only active units (to stall them).
    stalled = rules().state_from_json(_panzer_counterattack(True, "stall_only"))
    panzer = rules().board.german_index["11-PzD"]
    assert rules().bot_target(stalled, panzer) == -1
    pushing = rules().state_from_json(_panzer_counterattack(True, "push_back"))
    assert rules().bot_target(pushing, panzer) == rules().board.vi_corps
    both = position(
        turn=23,
        phase="bot_roll",
        allied={"VI-Corps": {"location": "Crest", "stalled": True}, "3rd-ID": {"location": "Bollene"}},
        german={"11-PzD": {"location": "Montelimar", "desperate": True}},
        panzer="pinned in Montelimar",
        options={"panzer_counterattack": "stall_only"},
    )
    assert rules().bot_target(rules().state_from_json(both), panzer) == rules().board.us_3rd  # the active one
    m = game(_panzer_counterattack(False, "stall_only"), dice=[6])  # an active unit is still stalled
    assert where(m, "VI-Corps") == "Crest" and unit(m, "VI-Corps")["stalled"]


# -- infantry beaten in Montelimar -------------------------------------------------------------
@pytest.mark.parametrize(("reading", "fate"), [("retreat_south", "Bollene"), ("eliminated", "eliminated")])
def test_infantry_beaten_in_montelimar(reading: str, fate: str) -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions ("German units forced to retreat from
    # Montelimar must retreat south to Bollene") against German Movement ("If located in Montelimar
    # and attacked, a German infantry unit is eliminated instead of retreating"): the option picks.
    pos = position(
        rp=3,
        allied={"VI-Corps": {"location": "Crest"}},
        german={ESCAPE_A: "Montelimar"},
        options={"montelimar_infantry": reading},
    )
    m = game(pos, dice=[6])
    assert "cannot take Montelimar" in rules().action_odds(m.state, "attack VI-Corps Crest->Montelimar")["text"]
    events = m.play("attack VI-Corps Crest->Montelimar")
    assert where(m, ESCAPE_A) == fate and where(m, "VI-Corps") == "Crest"
    if fate == "eliminated":
        assert "instead of retreating" in events_of(events, "eliminated")[0]["text"]
        assert rules().victory_points(m.state)[1]["German units eliminated"] == 1


# -- the 11th PzD's timing when VI Corps reaches Crest early ---------------------------------------
@pytest.mark.parametrize(("reading", "where_then"), [("turn_21", "Avignon"), ("next_movement", "Montelimar")])
def test_vi_corps_in_crest_before_turn_21(reading: str, where_then: str) -> None:
    # Dragoon: 11th PzD Special Rules — "Turn 21 or later: Once the US VI Corps enters Crest, the 11th
    # PzD ... is placed in Montelimar during the next German movement phase": a condition (default) or
    # the heading of what happened (the option: the next movement phase, whatever the turn).
    held = {"11-PzD": {"location": "Avignon", "desperate": False}}
    pos = position(
        turn=19,
        german=held,
        panzer="held in Avignon",
        vi_corps_entered_crest=True,
        options={"panzer_to_montelimar": reading},
    )
    m = game(pos, dice=[quiet_bot_roll(), 4, quiet_bot_roll()])
    m.play("end")
    assert where(m, "11-PzD") == where_then
    m.play("end")  # turn 20
    assert where(m, "11-PzD") == where_then
    if where_then == "Montelimar":
        assert unit(m, "11-PzD")["desperate"] and m.view()["state"]["panzer"] == "pinned in Montelimar"


# -- attacks that can never advance (item 21) ---------------------------------------------------
@pytest.mark.parametrize(
    ("attacker", "origin", "target"),
    [("VI-Corps", "Crest", "Montelimar"), ("3rd-ID", "Bollene", "Montelimar"), ("3rd-ID", "Orgon", "Avignon")],
)
def test_an_attack_on_a_normal_11th_pzd_alone_says_it_cannot_take_the_location(
    attacker: str, origin: str, target: str
) -> None:
    # Dragoon: 11th PzD Special Rules — "The 11th PzD neither retreats nor can it be eliminated"; a
    # normal PzD beaten stays normal: the attack can never take the location, and the odds say so.
    pos = position(
        turn=23,
        rp=3,
        allied={attacker: {"location": origin}},
        german={"11-PzD": target},
        panzer="pinned in Montelimar" if target == "Montelimar" else "held in Avignon",
        **{"198_entered_avignon": True},
    )
    m = game(pos, dice=[6])
    action = f"attack {attacker} {origin}->{target}"
    odds = rules().action_odds(m.state, action)
    assert odds["fraction"] == "2/3"
    assert (
        "to advance" not in odds["text"]
        and f"cannot take {target}" in odds["text"]
        and "changes nothing" in odds["text"]
    )
    label = rules().describe_action(m.state, action)
    assert "to advance" not in label and "to win" in label and f"cannot take {target}" in label
    events = m.play(action)
    assert "to advance" not in events_of(events, "attack")[0]["text"]
    assert where(m, attacker) == origin and unit(m, "11-PzD") == {"location": target, "desperate": False}


def test_an_attack_on_a_desperate_11th_pzd_says_a_win_flips_it() -> None:
    # Dragoon: 11th PzD Special Rules — "If the 11th PzD is attacked and defeated, it is flipped from
    # desperate -2 DRM status to normal status".
    pos = position(
        turn=23,
        rp=3,
        allied={"VI-Corps": {"location": "Crest"}},
        german={"11-PzD": {"location": "Montelimar", "desperate": True}},
        panzer="pinned in Montelimar",
    )
    text = rules().action_odds(game(pos).state, "attack VI-Corps Crest->Montelimar")["text"]
    assert text.startswith("1/3 to win") and "flips the 11th Panzer Division from desperate to normal" in text


def test_an_attack_that_can_advance_still_says_so() -> None:
    # Dragoon: Resolving Unit Attacks — "If the Allied player advances, move their unit marker into the location".
    pos = position(
        rp=3, allied={"3rd-ID": {"location": "Orgon"}}, german={ESCAPE_A: "Avignon"}, **{"198_entered_avignon": True}
    )
    m = game(pos)
    assert rules().action_odds(m.state, "attack 3rd-ID Orgon->Avignon")["text"].startswith("2/3 to advance")
    assert "to advance" in rules().describe_action(m.state, "attack 3rd-ID Orgon->Avignon")


# -- the BOT chart (item 20) ---------------------------------------------------------------------
def test_several_bot_actions_make_units_desperate() -> None:
    # Dragoon: German Desperate Defense — units become desperate "through several German BOT actions".
    lines = rules().board.bot_lines.values()
    assert sum(1 for line in lines if any(e.kind == "desperate" for e in line.effects)) >= 2
