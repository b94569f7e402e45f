"""Operation Dragoon 1944: the German BOT chart interpreter, and How to Win.

The BOT chart is reconstructed data, so these tests read each line from `rules.board.bot_lines`
and check that the rules carry out what the line says (attacks, desperate defense, bad weather,
stalls), whatever the lead tunes the chart to.
"""

from __future__ import annotations

from typing import Any

import pytest
from dragoon_positions import (
    ESCAPE_A,
    ESCAPE_B,
    ESCAPE_C,
    before,
    events_of,
    game,
    position,
    quiet_bot_roll,
    route,
    rules,
    unit,
    where,
)

from warroom.engine.dice import ScriptedDice
from warroom.engine.match import Match
from warroom.games.dragoon.board import Board, BotEffect, BotLine
from warroom.games.dragoon.bot import _allied_units
from warroom.games.dragoon.rules import DragoonRules

# Every route unit faces its Allied unit; the 11th PzD (in Avignon) faces nobody in FRONTS, and
# faces the 3rd ID in PANZER_FRONT. 189-ID on the escape route faces nobody in either.
FRONTS = {
    "allied": {
        "VI-Corps": before("VI-Corps", "Crest"),
        "3rd-ID": "Salon",
        "1st-ABTF": before("1st-ABTF", "Cannes"),
        "II-Corps": "Hyeres",
        "3e-DIA": before("3e-DIA", "Marseilles"),
    },
    "german": {"19-RS": "Crest", "338-ID": "Orgon", "148-ID": "Cannes", "242-ID": "Toulon", "244-ID": "Marseilles"},
    "facing": {"19-RS": "VI-Corps", "338-ID": "3rd-ID", "148-ID": "1st-ABTF", "242-ID": "II-Corps", "244-ID": "3e-DIA"},
}
PANZER_FRONT = {
    "allied": {**FRONTS["allied"], "3rd-ID": "Orgon"},
    "german": {k: v for k, v in FRONTS["german"].items() if k != "338-ID"},
    "facing": {**{k: v for k, v in FRONTS["facing"].items() if k != "338-ID"}, "11-PzD": "3rd-ID"},
}


def front_position(front: dict[str, Any]) -> dict[str, Any]:
    german: dict[str, Any] = {gid: {"location": loc, "desperate": False} for gid, loc in front["german"].items()}
    german["11-PzD"] = {"location": "Avignon", "desperate": False}
    german[ESCAPE_A] = "Orange"
    return position(
        turn=20,
        phase="bot_roll",
        allied={uid: {"location": loc} for uid, loc in front["allied"].items()},
        german=german,
        panzer="held in Avignon",
        **{"198_entered_avignon": True},
    )


def expected_attackers(effect: BotEffect, facing: dict[str, str]) -> list[str]:
    """Who an attack effect sends in: the named units, or every route unit and the 11th PzD ('adjacent')."""
    b = rules().board
    route_units_and_panzer = [g.id for g in b.german if g.route_of or g.kind == "panzer"]
    named = route_units_and_panzer if effect.units == "adjacent" else list(effect.units or [])
    return [g for g in named if g in facing]


def play_line(roll: int, front: dict[str, Any], attack_die: int) -> tuple[Match, list[dict[str, Any]]]:
    """Roll `roll` on the BOT chart from `front`; every German attack die shows `attack_die`."""
    line = rules().board.bot_lines[roll]
    attacks = sum(len(expected_attackers(e, front["facing"])) for e in line.effects if e.kind == "attack")
    m = game(front_position(front), dice=[roll, *[attack_die] * attacks, 4])
    bot = [i for i, e in enumerate(m.log) if e["type"] == "bot"]
    turn = [i for i, e in enumerate(m.log) if e["type"] == "turn"]
    assert len(bot) == 1 and len(turn) == 1
    return m, m.log[bot[0] : turn[0]]


@pytest.mark.parametrize("front", [FRONTS, PANZER_FRONT], ids=["route-units", "11th-pzd"])
@pytest.mark.parametrize("roll", range(1, 7))
@pytest.mark.parametrize("attack_die", [1, 6], ids=["attacks-fail", "attacks-succeed"])
def test_bot_line_does_what_it_says(roll: int, front: dict[str, Any], attack_die: int) -> None:
    # Dragoon: Sequence of Play Each Turn (German BOT Actions) — "Roll 1 die ... on the German action
    # chart following its instructions": attacks (Resolving Unit Attacks), desperate defense (German
    # Desperate Defense), bad weather (Air Support) and stalls (Using Action Charts).
    b = rules().board
    line = b.bot_lines[roll]
    m, events = play_line(roll, front, attack_die)
    assert f"rolls {roll}: {line.title}" in events[0]["text"]
    facing = front["facing"]
    stalled = {uid: False for uid in front["allied"]}
    desperate = {gid: False for gid in [*front["german"], "11-PzD", ESCAPE_A]}
    location = dict(front["allied"])
    attackers: list[str] = []
    grounded = False
    for effect in line.effects:
        if effect.kind == "bad_weather":
            grounded = True
        elif effect.kind == "stall":
            named = (
                list(front["allied"])
                if effect.units == "adjacent"
                else [u for u in effect.units or [] if u in front["allied"]]
            )
            for uid in named:
                stalled[uid] = True
        elif effect.kind == "desperate":
            named = list(facing) if effect.units == "adjacent" else [g for g in effect.units or [] if g in desperate]
            for gid in named:
                desperate[gid] = True
        else:
            for gid in expected_attackers(effect, facing):
                attackers.append(gid)
                target = facing[gid]
                if attack_die >= b.advance_on:
                    if stalled[target]:
                        location[target] = before(target, location[target])
                    stalled[target] = True
    names = [e["text"] for e in events_of(events, "counterattack")]
    assert len(names) == len(attackers)
    for text, gid in zip(names, attackers, strict=True):
        assert text.startswith(b.german[b.german_index[gid]].name)
    for uid in front["allied"]:
        assert unit(m, uid)["stalled"] is stalled[uid], uid
        assert where(m, uid) == location[uid], uid
    for gid, flag in desperate.items():
        assert unit(m, gid)["desperate"] is flag, gid
    assert m.view()["state"]["air"]["grounded"] is grounded


def test_stall_on_a_unit_still_in_its_box_does_nothing() -> None:
    # Dragoon: Using Action Charts — only an Allied unit marker on the map can be flipped to stalled.
    stall = next(
        r
        for r, line in sorted(rules().board.bot_lines.items())
        if any(e.kind == "stall" and isinstance(e.units, list) for e in line.effects)
    )
    m = game(position(phase="bot_roll"), dice=[stall, 4])
    assert not any(unit(m, uid)["stalled"] for uid in m.view()["state"]["allied"])


def custom_rules(*effects: BotEffect) -> DragoonRules:
    """The Dragoon rules with every BOT chart line replaced by one carrying `effects`."""
    data = rules().board.data
    chart = [
        BotLine(roll=r, title=f"test {r}", text="test line", effects=list(effects), source="test") for r in range(1, 7)
    ]
    return DragoonRules(Board(data.model_copy(update={"bot_chart": chart})))


def test_interpreter_reads_stall_adjacent_and_named_desperate() -> None:
    # Dragoon: German BOT Actions — the chart's data may name units or say "adjacent" for any effect.
    ruleset = custom_rules(
        BotEffect(kind="stall", units="adjacent"), BotEffect(kind="desperate", units=[ESCAPE_A, "242-ID"])
    )
    pos = front_position(FRONTS)
    pos["allied"]["VI-Corps"]["location"] = route("VI-Corps")[1]  # faces no German unit (19-RS is in Crest)
    m = Match(ruleset, ruleset.state_from_json(pos), dice=ScriptedDice([2, 4], seed=1))
    state = ruleset.state_to_json(m.state)
    assert {uid for uid, info in state["allied"].items() if info["stalled"]} == {
        "3rd-ID",
        "1st-ABTF",
        "II-Corps",
        "3e-DIA",
    }
    assert {gid for gid, info in state["german"].items() if info["desperate"]} == {ESCAPE_A, "242-ID"}


def test_interpreter_attacks_with_named_units_only_when_they_face_an_allied_unit() -> None:
    # Dragoon: Resolving Unit Attacks — a BOT attack needs an Allied unit to attack.
    ruleset = custom_rules(BotEffect(kind="attack", units=[ESCAPE_A, "242-ID", "II-Corps"]))
    m = Match(ruleset, ruleset.state_from_json(front_position(FRONTS)), dice=ScriptedDice([5, 6, 4], seed=1))
    attacks = [e["text"] for e in events_of(m.log, "counterattack")]
    assert len(attacks) == 1 and attacks[0].startswith("242nd Infantry Division attacks II-Corps")
    state = ruleset.state_to_json(m.state)
    assert state["allied"]["II-Corps"]["stalled"]
    assert not any(info["stalled"] for uid, info in state["allied"].items() if uid != "II-Corps")


# -- How to Win -------------------------------------------------------------------------------
def test_vp_table_is_the_rulebooks() -> None:
    # Dragoon: How to Win — "Add 2 VPs if Marseilles ... 1 VP if Cannes ... 1 VP if Toulon".
    b = rules().board
    assert {b.locations[loc].id: vp for loc, vp in enumerate(b.vp) if vp} == {"Marseilles": 2, "Cannes": 1, "Toulon": 1}


ELIMINABLE = ["242-ID", "244-ID", "338-ID", "19-RS", "198-ID", ESCAPE_A, ESCAPE_B, ESCAPE_C]


def final_turn(control: list[str], eliminated: int) -> Match:
    """The 29 Aug BOT roll with `control` Allied-held and the first `eliminated` eliminable units gone."""
    gone = ELIMINABLE[:eliminated]
    pos = position(
        turn=29,
        phase="bot_roll",
        german={gid: "eliminated" for gid in gone},
        allied_control=control,
        eliminated=dict.fromkeys(gone, 20),
    )
    return game(pos, dice=[quiet_bot_roll()])


@pytest.mark.parametrize(
    ("control", "eliminated", "vp", "winner"),
    [
        (["Toulon"], 5, 6, "German"),
        (["Toulon", "Cannes"], 5, 7, None),
        (["Marseilles"], 5, 7, None),
        (["Marseilles", "Toulon", "Cannes"], 4, 8, "Allied"),
        (["Marseilles", "Toulon", "Cannes"], 8, 12, "Allied"),
        (["Toulon"], 0, 1, "German"),
    ],
)
def test_victory_points_decide_the_winner(control: list[str], eliminated: int, vp: int, winner: str | None) -> None:
    # Dragoon: How to Win — "6 VP OR LESS = GERMAN VICTORY; 7 VP = DRAW; 8 VP OR MORE = ALLIED VICTORY".
    m = final_turn(control, eliminated)
    assert m.over
    result = m.result
    assert result is not None
    assert (result.score["VP"], result.winner, result.rule) == (vp, winner, "Dragoon: How to Win")
    assert events_of(m.log, "game_over")[0]["result"] == result.to_json()


def test_no_port_is_an_automatic_german_victory() -> None:
    # Dragoon: How to Win — "If neither the fortress port of Marseilles nor Toulon is controlled by the
    # Allies, it is an automatic GERMAN VICTORY."
    m = final_turn(["Cannes"], 8)
    result = m.result
    assert result is not None and result.winner == "German" and result.score["VP"] == 9
    assert "automatic German victory" in result.reason


def test_the_game_ends_after_the_29_aug_turn() -> None:
    # Dragoon: How to Win — "The game ends at the end of the 29 Aug turn."
    m = game(position(turn=28, phase="bot_roll", allied_control=["Toulon"]), dice=[quiet_bot_roll(), 4])
    assert not m.over and m.state.turn == 29
    m.play("end")
    assert m.over and m.to_act is None and m.legal_actions() == []
    assert m.view()["over"] and m.view()["result"]["winner"] == "German"


def test_an_adjacent_stall_names_no_unit_at_the_end_of_its_route_while_germans_wait_to_arrive() -> None:
    # Dragoon: BOT chart "stall" (adjacent): only Allied units with a German unit in front of them; a unit with
    # no stop ahead is not facing the German units still in the arrival box (a rules review, 6 December)
    r = rules()
    pos = position(
        turn=20, allied={"1st-ABTF": {"location": "Nice"}}, german={"716-ID": "arrival box"}, allied_control=["Nice"]
    )
    s = r.state_from_json(game(pos).view()["state"])
    assert _allied_units(r, s, None) == []
