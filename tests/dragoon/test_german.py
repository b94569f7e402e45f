"""Operation Dragoon 1944: the German escape column, the 11th PzD and the Rhone valley restrictions.

German Movement (with its Movement Phase Sequence), 11th PzD Special Rules and Allied
Advance/German Retreat Restrictions, each from a position built as state JSON.
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
    name,
    position,
    quiet_bot_roll,
    rules,
    unit,
    where,
)

from warroom import IllegalActionError, Match

COLUMN = ("198-ID", ESCAPE_A, ESCAPE_B, ESCAPE_C)  # the escape column's infantry (rulebook: 4 units)


def end_turn(pos: dict[str, Any], dice: list[int] | None = None) -> tuple[Match, list[dict[str, Any]]]:
    """Play the Allied 'end' from a position: German movement and a quiet BOT line follow."""
    m = game(pos, dice=[quiet_bot_roll(), *(dice or [4])])
    events = m.play("end")
    return m, events


def test_escape_column_is_the_rulebooks() -> None:
    # Dragoon: German Movement — "4 German infantry units and the 11th PzD form the escape column";
    # the withdrawal route runs Arles-Avignon-Orange-Bollene-Montelimar-Escaped.
    b = rules().board
    column = {g.id for g, owner in zip(b.german, b.route_of, strict=True) if owner < 0}
    assert column == {*COLUMN, "11-PzD"}
    assert [b.locations[loc].id for loc in b.escape_track] == ["Arles", "Avignon", "Orange", "Bollene", "Montelimar"]


# -- German Movement --------------------------------------------------------------------------
def test_column_moves_lowest_numbered_location_first() -> None:
    # Dragoon: German Movement (Movement Phase Sequence) — "Starting with the unit in the lowest
    # numbered location, move all units of the escape column north one location".
    _, events = end_turn(position(german={ESCAPE_A: "Orange", ESCAPE_B: "Avignon", ESCAPE_C: "Arles"}))
    moves = [e["text"] for e in events_of(events, "move")]
    assert len(moves) == 3
    assert (
        "from Orange to Bollene" in moves[0]
        and "from Avignon to Orange" in moves[1]
        and "from Arles to Avignon" in moves[2]
    )


def test_column_unit_in_montelimar_escapes() -> None:
    # Dragoon: German Movement — Montelimar leads to the Escaped to German Frontier box.
    m, events = end_turn(position(german={ESCAPE_A: "Montelimar"}))
    assert where(m, ESCAPE_A) == "escaped"
    assert events_of(events, "escaped")


def test_infantry_may_not_stack_with_infantry() -> None:
    # Dragoon: German Movement — "Infantry units may not stack with other infantry units, so if the
    # next lower numbered location is occupied by another unit, the unit cannot move."
    m, events = end_turn(
        position(allied={"3rd-ID": {"location": "Bollene"}}, german={ESCAPE_A: "Orange", ESCAPE_B: "Avignon"})
    )
    assert (where(m, ESCAPE_A), where(m, ESCAPE_B)) == ("Orange", "Avignon")
    assert len(events_of(events, "blocked")) == 2


def test_infantry_may_stack_with_the_11th_pzd() -> None:
    # Dragoon: German Movement — "Infantry units of the escape column may stack with the 11th PzD."
    pos = position(turn=18, german={"11-PzD": "Avignon", ESCAPE_A: "Arles"}, panzer="held in Avignon")
    m, _ = end_turn(pos)
    assert where(m, ESCAPE_A) == where(m, "11-PzD") == "Avignon"
    # and the moving 11th PzD may enter a location held by an infantry unit that cannot move
    pos = position(
        turn=17,
        allied={"3rd-ID": {"location": "Bollene"}},
        german={ESCAPE_B: "Orange", ESCAPE_A: "Avignon", "11-PzD": "Arles"},
    )
    m, _ = end_turn(pos)
    assert where(m, "11-PzD") == where(m, ESCAPE_A) == "Avignon"


def test_arrivals_are_placed_in_arles_and_do_not_move_that_turn() -> None:
    # Dragoon: German Movement (Movement Phase Sequence) — "Check for an arriving unit and place it in
    # Arles. This unit does not move on the turn it is placed."
    b = rules().board
    for g in b.german:
        if g.arrival_turn is None or g.kind == "panzer":
            continue
        m, events = end_turn(position(turn=g.arrival_turn, german={g.id: "arrival box"}))
        assert where(m, g.id) == "Arles"
        assert len(events_of(events, "arrival")) == 1 and not events_of(events, "move")
        m.play("end")
        assert where(m, g.id) == "Avignon"


def test_arrival_waits_while_arles_holds_infantry() -> None:
    # Dragoon: German Movement — infantry may not stack with infantry: an arrival that finds Arles
    # held by a unit that could not move waits in the box and arrives later (NOTES.md).
    b = rules().board
    late = max(
        (g for g in b.german if g.arrival_turn is not None and g.kind != "panzer"), key=lambda g: g.arrival_turn or 0
    )
    pos = position(
        turn=late.arrival_turn or 0,
        allied={"3rd-ID": {"location": "Orange"}},
        german={ESCAPE_A if late.id != ESCAPE_A else ESCAPE_B: "Arles", "198-ID": "Avignon", late.id: "arrival box"},
    )
    m, events = end_turn(pos)
    assert where(m, late.id) == "arrival box"
    assert events_of(events, "arrival_delayed")


def test_198th_entering_avignon_is_recorded() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — the 3rd ID may enter Avignon once the 198th has.
    m, _ = end_turn(position(german={"198-ID": "Arles"}))
    assert where(m, "198-ID") == "Avignon"
    assert m.view()["state"]["198_entered_avignon"]


# -- 11th PzD Special Rules -------------------------------------------------------------------
def test_11th_pzd_holds_avignon_until_vi_corps_enters_crest() -> None:
    # Dragoon: 11th PzD Special Rules — "Turn 17: When 11th PzD enters Avignon, it ceases movement and
    # remains in Avignon until the US VI Corps enters Crest."
    m, events = end_turn(position(turn=17, german={"11-PzD": {"location": "Arles", "desperate": True}}))
    assert where(m, "11-PzD") == "Avignon"
    assert m.view()["state"]["panzer"] == "held in Avignon"
    assert events_of(events, "panzer")
    for _ in range(3):
        m.play("end")
        assert where(m, "11-PzD") == "Avignon"


def test_11th_pzd_goes_to_montelimar_from_turn_21_once_vi_corps_is_in_crest() -> None:
    # Dragoon: 11th PzD Special Rules — "Turn 21 or later: Once the US VI Corps enters Crest, the 11th
    # PzD (in desperate -2 DRM status) is placed in Montelimar during the next German movement phase
    # and remains in Montelimar for the remainder of the game."
    held = {"11-PzD": {"location": "Avignon", "desperate": False}}
    m, _ = end_turn(position(turn=20, german=held, panzer="held in Avignon", vi_corps_entered_crest=True))
    assert where(m, "11-PzD") == "Avignon"  # turn 20: not yet
    m, _ = end_turn(position(turn=21, german=held, panzer="held in Avignon"))
    assert where(m, "11-PzD") == "Avignon"  # turn 21, VI Corps not in Crest: not yet
    m, events = end_turn(position(turn=21, german=held, panzer="held in Avignon", vi_corps_entered_crest=True))
    assert unit(m, "11-PzD") == {"location": "Montelimar", "desperate": True}
    assert m.view()["state"]["panzer"] == "pinned in Montelimar"
    assert "Montelimar" in events_of(events, "panzer")[0]["text"]
    for _ in range(3):
        m.play("end")
        assert where(m, "11-PzD") == "Montelimar"


def test_vi_corps_entering_crest_releases_the_11th_pzd() -> None:
    # Dragoon: 11th PzD Special Rules — "Once the US VI Corps enters Crest".
    origin = before("VI-Corps", "Crest")
    pos = position(
        turn=22,
        rp=2,
        allied={"VI-Corps": {"location": origin}},
        german={"19-RS": "Crest", "11-PzD": "Avignon"},
        panzer="held in Avignon",
    )
    m = game(pos, dice=[6, quiet_bot_roll()])
    m.play(f"attack VI-Corps {origin}->Crest")
    assert where(m, "VI-Corps") == "Crest" and m.view()["state"]["vi_corps_entered_crest"]
    m.play("end")
    assert where(m, "11-PzD") == "Montelimar"


def test_desperate_11th_pzd_is_on_top_and_goes_under_when_defeated() -> None:
    # Dragoon: 11th PzD Special Rules — "The 11th PzD, when in desperate -2 DRM status, is placed on top
    # of the infantry unit. If the 11th PzD is attacked and defeated, it is flipped from desperate -2 DRM
    # status to normal status and placed under the infantry unit." "Only the unit stacked on the top can
    # be attacked by the Allies."
    pos = position(
        rp=3,
        allied={"3rd-ID": {"location": "Orgon"}},
        german={"11-PzD": {"location": "Avignon", "desperate": True}, "198-ID": "Avignon"},
        panzer="held in Avignon",
        **{"198_entered_avignon": True},
    )
    m = game(pos, dice=[4])  # 4 - 2 = 2: the panzer holds
    events = m.play("attack 3rd-ID Orgon->Avignon")
    assert (
        "11th Panzer" in events_of(events, "attack")[0]["text"] and "DRM -2" in events_of(events, "attack")[0]["text"]
    )
    assert unit(m, "11-PzD")["desperate"]
    m = game(pos, dice=[5])  # 5 - 2 = 3: defeated
    events = m.play("attack 3rd-ID Orgon->Avignon")
    assert unit(m, "11-PzD") == {"location": "Avignon", "desperate": False}
    assert where(m, "198-ID") == "Avignon" and where(m, "3rd-ID") == "Orgon"  # the stack holds: no advance
    assert events_of(events, "panzer_defeated")
    state = m.view()["state"]
    state["allied"]["3rd-ID"]["spent"] = False
    events = game(state, dice=[1]).play("attack 3rd-ID Orgon->Avignon")
    assert "198th" in events_of(events, "attack")[0]["text"]  # now the infantry is on top


def test_only_the_infantry_on_top_of_a_normal_11th_pzd_is_attacked() -> None:
    # Dragoon: 11th PzD Special Rules — only the top unit may be attacked; a normal 11th PzD is under.
    pos = position(
        rp=3,
        allied={"3rd-ID": {"location": "Orgon"}},
        german={"11-PzD": "Avignon", ESCAPE_A: "Avignon"},
        panzer="held in Avignon",
    )
    m = game(pos, dice=[6])
    events = m.play("attack 3rd-ID Orgon->Avignon")
    assert name(ESCAPE_A) in events_of(events, "attack")[0]["text"]
    assert (where(m, ESCAPE_A), where(m, "11-PzD"), where(m, "3rd-ID")) == ("Orange", "Avignon", "Orgon")


# -- Allied Advance/German Retreat Restrictions ---------------------------------------------
def test_3rd_id_cannot_enter_avignon_before_the_198th() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "the US 3rd ID cannot advance into Avignon
    # until the German 198th ID has entered Avignon first."
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Orgon"}}), dice=[6])
    assert not any(a.startswith("attack 3rd-ID") for a in m.legal_actions())
    with pytest.raises(IllegalActionError, match="198th.*Restrictions"):
        m.play("attack 3rd-ID Orgon->Avignon")
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Orgon"}}, **{"198_entered_avignon": True}), dice=[6])
    m.play("attack 3rd-ID Orgon->Avignon")
    assert where(m, "3rd-ID") == "Avignon"


def test_3rd_id_may_attack_avignon_from_orgon_but_not_enter_before_the_198th() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "The Allied player may attack the units
    # located in Avignon from Orgon, but ..."
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Orgon"}}, german={ESCAPE_A: "Avignon"}), dice=[6])
    m.play("attack 3rd-ID Orgon->Avignon")
    assert (where(m, ESCAPE_A), where(m, "3rd-ID")) == ("Orange", "Orgon")


@pytest.mark.parametrize("attacker", ["VI-Corps", "3rd-ID"])
def test_allied_units_never_advance_into_montelimar(attacker: str) -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "Allied units can never advance into Montelimar."
    origin = {"VI-Corps": "Crest", "3rd-ID": "Bollene"}[attacker]
    m = game(position(rp=3, allied={attacker: {"location": origin}}, german={ESCAPE_A: "Montelimar"}), dice=[6])
    events = m.play(f"attack {attacker} {origin}->Montelimar")
    assert where(m, attacker) == origin
    assert where(m, ESCAPE_A) != "Montelimar"
    assert events_of(events, "no_entry")
    assert not any(a.startswith(f"attack {attacker}") for a in m.legal_actions())
    pos = m.view()["state"]
    pos["allied"][attacker]["spent"] = False
    m = game(pos)
    with pytest.raises(IllegalActionError, match="never advance into Montelimar"):
        m.play(f"attack {attacker} {origin}->Montelimar")


def test_two_attacks_on_montelimar_from_crest_and_bollene() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "The Allied player may make 2 attacks on the
    # units (11th PzD and an infantry unit) located in Montelimar from Crest and Bollene, if he has a
    # unit in both locations and pays RP for both attacks."
    pos = position(
        turn=23,
        rp=3,
        allied={"VI-Corps": {"location": "Crest"}, "3rd-ID": {"location": "Bollene"}},
        german={"11-PzD": {"location": "Montelimar", "desperate": True}, ESCAPE_B: "Montelimar"},
        panzer="pinned in Montelimar",
    )
    m = game(pos, dice=[6, 6])
    m.play("attack VI-Corps Crest->Montelimar")  # the desperate 11th PzD on top: defeated, flips, goes under
    assert unit(m, "11-PzD") == {"location": "Montelimar", "desperate": False}
    assert m.state.rp == 2
    events = m.play("attack 3rd-ID Bollene->Montelimar")  # now the infantry: no retreat (Bollene is held)
    assert name(ESCAPE_B) in events_of(events, "attack")[0]["text"]
    assert where(m, ESCAPE_B) == "eliminated" and m.state.rp == 1
    assert (where(m, "VI-Corps"), where(m, "3rd-ID"), where(m, "11-PzD")) == ("Crest", "Bollene", "Montelimar")


@pytest.mark.parametrize(
    ("attacker_at", "held", "retreat_to"),
    [("Orgon", "Avignon", "Orange"), ("Avignon", "Orange", "Bollene"), ("Orange", "Bollene", "Montelimar")],
)
def test_retreats_from_avignon_orange_bollene_go_north(attacker_at: str, held: str, retreat_to: str) -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "German units forced to retreat from Avignon,
    # Orange and Bollene must retreat north to the next lowest-numbered location."
    pos = position(
        rp=3, allied={"3rd-ID": {"location": attacker_at}}, german={ESCAPE_A: held}, **{"198_entered_avignon": True}
    )
    m = game(pos, dice=[6])
    m.play(f"attack 3rd-ID {attacker_at}->{held}")
    assert (where(m, ESCAPE_A), where(m, "3rd-ID")) == (retreat_to, held)


def test_retreat_from_montelimar_goes_south_to_bollene() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "German units forced to retreat from
    # Montelimar must retreat south to Bollene." (If Bollene is held it is eliminated: NOTES.md.)
    m = game(position(rp=3, allied={"VI-Corps": {"location": "Crest"}}, german={ESCAPE_A: "Montelimar"}), dice=[6])
    m.play("attack VI-Corps Crest->Montelimar")
    assert where(m, ESCAPE_A) == "Bollene"
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Bollene"}}, german={ESCAPE_A: "Montelimar"}), dice=[6])
    m.play("attack 3rd-ID Bollene->Montelimar")
    assert where(m, ESCAPE_A) == "eliminated"


def test_infantry_retreating_into_german_infantry_is_eliminated() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — "German infantry units forced to retreat into a
    # location already occupied by a German infantry unit are eliminated."
    pos = position(rp=3, allied={"3rd-ID": {"location": "Orgon"}}, german={ESCAPE_A: "Avignon", ESCAPE_B: "Orange"})
    m = game(pos, dice=[6])
    events = m.play("attack 3rd-ID Orgon->Avignon")
    assert where(m, ESCAPE_A) == "eliminated" and where(m, ESCAPE_B) == "Orange"
    assert "already held by German infantry" in events_of(events, "eliminated")[0]["text"]
    # ... but it may retreat onto the 11th PzD
    pos = position(
        turn=23,
        rp=3,
        allied={"3rd-ID": {"location": "Orange"}},
        german={ESCAPE_A: "Bollene", "11-PzD": "Montelimar"},
        panzer="pinned in Montelimar",
    )
    m = game(pos, dice=[6])
    m.play("attack 3rd-ID Orange->Bollene")
    assert where(m, ESCAPE_A) == "Montelimar" == where(m, "11-PzD")
