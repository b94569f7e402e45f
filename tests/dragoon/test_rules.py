"""Operation Dragoon 1944: the Allied side of the rulebook, section by section.

Sequence of Play, Using Action Charts, Resolving Unit Attacks (with the French landings),
FFI, Air Support and German Desperate Defense. Each test builds its position as state JSON and
scripts the dice, so it checks the rule, not the reconstructed charts that would lead there.
"""

from __future__ import annotations

import pytest
from dragoon_positions import (
    ESCAPE_A,
    ESCAPE_B,
    ESCAPE_C,
    after,
    before,
    bot_attack_roll,
    bot_roll_for,
    events_of,
    game,
    position,
    quiet_bot_roll,
    route,
    rules,
    unit,
    where,
)

import warroom
from warroom import IllegalActionError

ADVANCE_ON = 3  # rulebook worked examples: "a 3 or better was required"


def test_attack_chart_matches_the_rulebook() -> None:
    # Dragoon: Resolving Unit Attacks — the two worked examples give the chart: 3+ advances,
    # fortress -1, desperate -1 (cumulative), Air +1, a 1 stalls an invasion or unopposed advance.
    b = rules().board
    assert (b.advance_on, b.fortress_drm, b.air_drm, b.stall_on) == (ADVANCE_ON, -1, 1, 1)
    assert b.desperate_drm[b.panzer] == -2
    assert {b.desperate_drm[g] for g in range(len(b.german)) if g != b.panzer} == {-1}


def test_set_up() -> None:
    # Dragoon: Game Components and Set Up — "Place the 5 Allied units in the invasion boxes. Place the
    # designated 5 German unit markers on each of the German starting locations of the 5 advancement
    # routes; place the 5 escape column German units on the Arrive at Arles from West box. Free French
    # of the Interior (FFI) and Air Support markers are kept off the board until used."
    b = rules().board
    state = warroom.new_game("dragoon", seed=0).view()["state"]
    assert len(state["allied"]) == 5 and all(
        info["location"] is None and not info["ffi"] for info in state["allied"].values()
    )
    on_routes = {gid: info["location"] for gid, info in state["german"].items() if info["location"] != "arrival box"}
    assert len(on_routes) == 5
    for gid, where_ in on_routes.items():
        owner = b.allied[b.route_of[b.german_index[gid]]].id
        assert where_ in route(owner)[1:]  # on its Allied unit's route, past the beach
    assert sorted(gid for gid, info in state["german"].items() if info["location"] == "arrival box") == sorted(
        ["198-ID", ESCAPE_A, ESCAPE_B, ESCAPE_C, "11-PzD"]
    )
    assert state["air"] == {"used": False, "grounded": False, "bad_weather_next": False}
    assert (state["turn"], state["phase"]) == (15, "actions")


def test_rp_chart_gives_two_to_four_actions() -> None:
    # Dragoon: Using Action Charts —
    # "The Allied player can play 2-4 actions per turn based on the number of RP received."
    b = rules().board
    assert all(2 <= rp <= 4 for rp in [*b.rp_roll.values(), *b.rp_designated.values()])
    assert sorted(b.rp_roll) == [1, 2, 3, 4, 5, 6]


# -- Sequence of Play Each Turn -------------------------------------------------------------
def test_phases_run_in_rulebook_order() -> None:
    # Dragoon: Sequence of Play Each Turn — Allied RPs, Allied Actions, German Movement,
    # German BOT Actions, Turn End, then the next turn's RPs.
    pos = position(turn=20, rp=2, german={ESCAPE_A: "Avignon"})
    m = game(pos, dice=[quiet_bot_roll(), 4])
    events = m.play("end")
    kinds = [e["type"] for e in events]
    assert kinds[0] == "end_actions"
    assert kinds.index("move") < kinds.index("bot") < kinds.index("turn") < kinds.index("rp")
    assert where(m, ESCAPE_A) == "Orange"
    assert (m.state.turn, m.view()["phase"]) == (21, "Allied Actions")


@pytest.mark.parametrize("leftover", [1, 2, 4])
def test_rp_cannot_be_saved(leftover: int) -> None:
    # Dragoon: Using Action Charts — "RP cannot be saved from turn to turn."
    b = rules().board
    m = game(position(turn=20, rp=leftover), dice=[quiet_bot_roll(), 1])
    events = m.play("end")
    assert f"{leftover} RP unused" in events_of(events, "end_actions")[0]["text"]
    assert m.state.rp == b.rp_roll[1]
    m = warroom.new_game("dragoon", position=position(turn=20, rp=leftover), dice="manual", seed=1)
    m.play("end")
    assert m.view()["phase"] == "German BOT Actions" and m.state.rp == 0  # the unused RP are gone
    m = game(position(turn=15, rp=leftover), dice=[quiet_bot_roll()])
    m.play("end")
    assert (m.state.turn, m.state.rp) == (16, b.rp_designated[16])


def test_spending_the_last_rp_ends_the_actions() -> None:
    # Dragoon: Using Action Charts — it costs 1 RP to play 1 action; with none left the turn moves on.
    m = game(position(turn=20, rp=1, allied={"3rd-ID": {"location": "Salon"}}), dice=[quiet_bot_roll(), 3])
    events = m.play("ffi 3rd-ID")
    assert events_of(events, "end_actions") and events_of(events, "bot")
    assert m.state.turn == 21


def test_no_action_without_rp() -> None:
    # Dragoon: Using Action Charts — "It costs 1 RP to play 1 action": with none left only "end" remains.
    m = game(position(rp=0, allied={"3rd-ID": {"location": "Aix"}}))
    assert m.legal_actions() == ["end"]
    with pytest.raises(IllegalActionError, match="no RP left.*Using Action Charts"):
        m.play("ffi 3rd-ID")


def test_ffi_choice_is_refused_when_no_roll_is_pending() -> None:
    # Dragoon: French Forces of the Interior (FFI) — the re-roll follows a roll; without one it is illegal.
    m = game(position(rp=3, allied={"3e-DIA": {"location": route("3e-DIA")[1]}}))
    for action in ("reroll ffi", "accept"):
        with pytest.raises(IllegalActionError, match="no failed roll.*Dragoon: FFI"):
            m.play(action)


# -- Using Action Charts ----------------------------------------------------------------------
def test_legal_actions_are_exactly_the_three_kinds() -> None:
    # Dragoon: Using Action Charts — attack (or unopposed attack, or invade), flip stalled to
    # active, add 1 FFI; each costs 1 RP; Air only with an attack on a German-held location.
    pos = position(
        rp=3,
        allied={
            "3rd-ID": {"location": "Aix"},
            "VI-Corps": {"location": before("VI-Corps", "Crest"), "stalled": True},
            "1st-ABTF": {"location": route("1st-ABTF")[1], "ffi": True},
        },
        german={"338-ID": "Salon"},
    )
    m = game(pos)
    abtf_next = route("1st-ABTF")[2]
    legal = set(m.legal_actions())
    assert legal == {
        "attack 3rd-ID Aix->Salon",
        "attack 3rd-ID Aix->Salon +air",
        "ffi 3rd-ID",
        "activate VI-Corps",
        "ffi VI-Corps",
        f"attack 1st-ABTF {route('1st-ABTF')[1]}->{abtf_next}",
        "end",
    }


@pytest.mark.parametrize("action", ["ffi 3rd-ID", "activate VI-Corps", "attack 3rd-ID Aix->Salon"])
def test_every_action_costs_one_rp(action: str) -> None:
    # Dragoon: Using Action Charts — "It costs 1 RP to play 1 action."
    pos = position(
        rp=3,
        allied={"3rd-ID": {"location": "Aix"}, "VI-Corps": {"location": "Crest", "stalled": True}},
        german={"338-ID": "Salon"},
    )
    m = game(pos, dice=[6])
    m.play(action)
    assert m.state.rp == 2


def test_invasion_costs_one_rp_and_no_attack_that_turn() -> None:
    # Dragoon: Using Action Charts — invading is an action (1 RP); "An Allied unit cannot attack
    # on the turn it invades or lands."
    m = game(position(turn=15, rp=3, german={"338-ID": "Aix"}), dice=[6])
    m.play("invade 3rd-ID Alpha-Beach")
    assert (where(m, "3rd-ID"), m.state.rp, unit(m, "3rd-ID")["stalled"]) == ("Alpha-Beach", 2, False)
    attack = f"attack 3rd-ID Alpha-Beach->{route('3rd-ID')[1]}"
    assert attack not in m.legal_actions()
    with pytest.raises(IllegalActionError, match="Using Action Charts"):
        m.play(attack)


def test_a_unit_may_flip_to_active_and_attack_the_same_turn() -> None:
    # Dragoon: Using Action Charts — "An Allied unit can flip to active status and attack on the same turn."
    m = game(
        position(rp=3, allied={"3rd-ID": {"location": "Aix", "stalled": True}}, german={"338-ID": "Salon"}), dice=[5]
    )
    assert "attack 3rd-ID Aix->Salon" not in m.legal_actions()  # stalled units may not attack
    with pytest.raises(IllegalActionError, match="stalled.*Using Action Charts"):
        m.play("attack 3rd-ID Aix->Salon")
    m.play("activate 3rd-ID")
    m.play("attack 3rd-ID Aix->Salon")
    assert where(m, "3rd-ID") == "Salon"


def test_no_unit_attacks_twice_a_turn() -> None:
    # Dragoon: Using Action Charts — "An Allied unit cannot attack more than once in a single turn."
    start = route("3rd-ID")[1]
    m = game(position(rp=3, allied={"3rd-ID": {"location": start}}), dice=[6])
    m.play(f"attack 3rd-ID {start}->{after('3rd-ID', start)}")  # unopposed: into the empty next stop
    assert unit(m, "3rd-ID")["spent"]
    assert not any(a.startswith("attack 3rd-ID") for a in m.legal_actions())
    with pytest.raises(IllegalActionError, match="once a turn"):
        m.play(f"attack 3rd-ID {where(m, '3rd-ID')}->{after('3rd-ID', where(m, '3rd-ID'))}")


# -- Resolving Unit Attacks -------------------------------------------------------------------
@pytest.mark.parametrize("roll", range(1, 7))
def test_opposed_attack_advances_on_three_or_better(roll: int) -> None:
    # Dragoon: Resolving Unit Attacks — advance or no advance; on an advance the German retreats.
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix"}}, german={"338-ID": "Salon"}), dice=[roll])
    events = m.play("attack 3rd-ID Aix->Salon")
    if roll >= ADVANCE_ON:
        assert (where(m, "3rd-ID"), where(m, "338-ID")) == ("Salon", "Orgon")
        assert events_of(events, "retreat") and events_of(events, "advance")
    else:
        assert (where(m, "3rd-ID"), where(m, "338-ID")) == ("Aix", "Salon")
        assert events_of(events, "no_advance")
    assert not unit(m, "3rd-ID")["stalled"]  # an opposed attack never stalls the attacker


@pytest.mark.parametrize(("roll", "advances"), [(3, False), (4, True)])
def test_fortress_subtracts_one(roll: int, advances: bool) -> None:
    # Dragoon: Resolving Unit Attacks — "Attacks on port fortress locations controlled by the Germans apply a -1 DRM."
    origin = before("3e-DIA", "Marseilles")
    m = game(position(rp=3, allied={"3e-DIA": {"location": origin}}, german={"244-ID": "Marseilles"}), dice=[roll])
    m.play(f"attack 3e-DIA {origin}->Marseilles")
    assert (where(m, "3e-DIA") == "Marseilles") is advances


@pytest.mark.parametrize(("roll", "advances"), [(3, False), (4, True)])
def test_desperate_defense_subtracts_one(roll: int, advances: bool) -> None:
    # Dragoon: German Desperate Defense — "apply a -1 ... DRM to the Allied attack die roll".
    m = game(
        position(
            rp=3, allied={"3rd-ID": {"location": "Aix"}}, german={"338-ID": {"location": "Salon", "desperate": True}}
        ),
        dice=[roll],
    )
    m.play("attack 3rd-ID Aix->Salon")
    assert (where(m, "3rd-ID") == "Salon") is advances


@pytest.mark.parametrize(("roll", "advances"), [(4, False), (5, True)])
def test_fortress_and_desperate_are_cumulative(roll: int, advances: bool) -> None:
    # Dragoon: Resolving Unit Attacks — "This fortress -1 DRM is cumulative with a unit's desperate
    # defense -1 DRM, resulting in a -2 DRM."
    m = game(
        position(
            rp=3,
            allied={"II-Corps": {"location": "Hyeres"}},
            german={"242-ID": {"location": "Toulon", "desperate": True}},
        ),
        dice=[roll],
    )
    events = m.play("attack II-Corps Hyeres->Toulon")
    assert "DRM -2" in events_of(events, "attack")[0]["text"]
    assert (where(m, "II-Corps") == "Toulon") is advances


@pytest.mark.parametrize("roll", range(1, 7))
def test_invasion_always_advances_and_a_one_stalls(roll: int) -> None:
    # Dragoon: Resolving Unit Attacks — "Allied attacks on invasion beaches, drop zones ... always
    # result in an advance, but if a '1' is rolled the advancing Allied unit becomes 'stalled.'"
    m = game(position(turn=15, rp=3), dice=[roll])
    drop_zone = route("1st-ABTF")[0]
    m.play(f"invade 1st-ABTF {drop_zone}")
    assert where(m, "1st-ABTF") == drop_zone
    assert unit(m, "1st-ABTF")["stalled"] is (roll == 1)
    assert "invade 1st-ABTF " + drop_zone not in m.legal_actions()


@pytest.mark.parametrize("roll", range(1, 7))
def test_unopposed_attack_always_advances_and_a_one_stalls(roll: int) -> None:
    # Dragoon: Resolving Unit Attacks — unopposed attacks on vacant locations advance; a 1 stalls.
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix"}}), dice=[roll])
    m.play("attack 3rd-ID Aix->Salon")
    assert where(m, "3rd-ID") == "Salon"
    assert unit(m, "3rd-ID")["stalled"] is (roll == 1)
    assert "Salon" in m.view()["state"]["allied_control"]


@pytest.mark.parametrize(
    ("german_unit", "last"),
    [("19-RS", "Crest"), ("244-ID", "Marseilles"), ("338-ID", "Orgon"), ("242-ID", "Toulon")],
)
def test_units_at_the_end_of_their_track_are_eliminated(german_unit: str, last: str) -> None:
    # Dragoon: Resolving Unit Attacks — "German units that have reached the last location on their
    # track (19th Army RS at Crest, 244th ID at Marseilles, 338th ID at Orgon and 242nd ID at
    # Toulon) are eliminated if forced to retreat."
    b = rules().board
    attacker = b.allied[b.route_of[b.german_index[german_unit]]].id
    origin = before(attacker, last)
    m = game(position(rp=3, allied={attacker: {"location": origin}}, german={german_unit: last}), dice=[6])
    vp_before = rules().victory_points(m.state)[0]
    events = m.play(f"attack {attacker} {origin}->{last}")
    assert where(m, german_unit) == "eliminated"
    assert events_of(events, "eliminated")
    assert where(m, attacker) == last
    assert m.view()["state"]["eliminated"] == {german_unit: 20}
    assert rules().victory_points(m.state)[0] == vp_before + 1 + b.vp[b.loc_index[last]]


def test_each_route_units_track_ends_where_it_turns_desperate() -> None:
    # Dragoon: Resolving Unit Attacks — "the last location on their track (19th Army RS at Crest, 244th ID
    # at Marseilles, 338th ID at Orgon and 242nd ID at Toulon)"; the 148th ID goes on to Italy
    b = rules().board
    ends = {g: b.locations[b.german_route[b.german_index[g]][-1]].id for g in ("19-RS", "244-ID", "338-ID", "242-ID")}
    assert ends == {"19-RS": "Crest", "244-ID": "Marseilles", "338-ID": "Orgon", "242-ID": "Toulon"}
    g148 = b.german_index["148-ID"]
    assert b.german_route[g148] == b.routes[b.route_of[g148]]
    assert all(b.german_route[g] == () for g in range(len(b.german)) if b.route_of[g] < 0)  # the escape column


def test_a_route_unit_short_of_its_last_location_retreats_one_stop() -> None:
    # Dragoon: Resolving Unit Attacks — "move their unit marker into the location and retreat the German unit marker."
    origin = route("3rd-ID")[1]
    m = game(position(rp=3, allied={"3rd-ID": {"location": origin}}, german={"338-ID": "Aix"}), dice=[6])
    m.play(f"attack 3rd-ID {origin}->Aix")
    assert (where(m, "3rd-ID"), where(m, "338-ID")) == ("Aix", "Salon")


def test_148th_id_is_never_eliminated_it_retreats_to_italy() -> None:
    # Dragoon: Resolving Unit Attacks —
    # "the 148th ID (that retreats to Italy) and the 11th PzD can never be eliminated."
    last = route("1st-ABTF")[-1]
    origin = before("1st-ABTF", last)
    m = game(position(rp=3, allied={"1st-ABTF": {"location": origin}}, german={"148-ID": last}), dice=[6])
    events = m.play(f"attack 1st-ABTF {origin}->{last}")
    assert where(m, "148-ID") == "beyond"
    assert "Italy" in events_of(events, "retreat")[0]["text"]
    assert m.view()["state"]["eliminated"] == {}
    assert where(m, "1st-ABTF") == last


def test_11th_pzd_is_never_eliminated() -> None:
    # Dragoon: Resolving Unit Attacks; 11th PzD Special Rules —
    # "The 11th PzD neither retreats nor can it be eliminated."
    m = game(
        position(
            rp=3,
            allied={"VI-Corps": {"location": "Crest"}},
            german={"11-PzD": {"location": "Montelimar", "desperate": False}},
            panzer="pinned in Montelimar",
        ),
        dice=[6],
    )
    m.play("attack VI-Corps Crest->Montelimar")
    assert (where(m, "11-PzD"), where(m, "VI-Corps")) == ("Montelimar", "Crest")
    assert m.view()["state"]["eliminated"] == {}


@pytest.mark.parametrize("roll", range(1, 7))
def test_german_attack_on_an_active_unit_stalls_it(roll: int) -> None:
    # Dragoon: Resolving Unit Attacks — "Successful German BOT attacks on 'active' Allied units result
    # in 'stalled' status for the Allied unit or no result."
    pos = position(
        phase="bot_attack_roll",
        allied={"3rd-ID": {"location": "Salon"}},
        german={"338-ID": "Orgon"},
        bot_attack={"attacker": "338-ID", "target": "3rd-ID", "rerolled": False, "roll": None},
    )
    m = game(pos, dice=[roll])
    assert (where(m, "3rd-ID"), where(m, "338-ID")) == ("Salon", "Orgon")
    assert unit(m, "3rd-ID")["stalled"] is (roll >= ADVANCE_ON)


@pytest.mark.parametrize("roll", range(1, 7))
def test_german_attack_on_a_stalled_unit_retreats_it_and_advances(roll: int) -> None:
    # Dragoon: Resolving Unit Attacks — "German BOT attacks on 'stalled' Allied units result in advances
    # for the German attacker or no result. If the German unit advances, the 'stalled' Allied unit is retreated."
    pos = position(
        phase="bot_attack_roll",
        allied={"3rd-ID": {"location": "Salon", "stalled": True}},
        german={"338-ID": "Orgon"},
        allied_control=["Aix", "Salon"],
        bot_attack={"attacker": "338-ID", "target": "3rd-ID", "rerolled": False, "roll": None},
    )
    m = game(pos, dice=[roll])
    if roll >= ADVANCE_ON:
        assert (where(m, "3rd-ID"), where(m, "338-ID")) == ("Aix", "Salon")
        assert m.view()["state"]["allied_control"] == ["Aix"]
    else:
        assert (where(m, "3rd-ID"), where(m, "338-ID")) == ("Salon", "Orgon")
    assert unit(m, "3rd-ID")["stalled"]  # a retreat does not flip the unit back to active


@pytest.mark.parametrize("allied_unit", ["1st-ABTF", "3rd-ID"])
def test_stalled_unit_on_beach_or_drop_zone_may_not_be_attacked(allied_unit: str) -> None:
    # Dragoon: Resolving Unit Attacks — "If a 'stalled' Allied unit is in a landing beach or drop zone,
    # it may not be attacked." An active one may: it is stalled.
    b = rules().board
    foe = next(g.id for g, owner in zip(b.german, b.route_of, strict=True) if owner == b.allied_index[allied_unit])
    landing, front = route(allied_unit)[0], route(allied_unit)[1]
    for stalled in (True, False):
        pos = position(
            phase="bot_roll", allied={allied_unit: {"location": landing, "stalled": stalled}}, german={foe: front}
        )
        m = game(pos, dice=[bot_attack_roll(foe), 6])
        attacks = [e for e in events_of(m.log, "counterattack") if b.german[b.german_index[foe]].name in e["text"]]
        assert bool(attacks) is not stalled
        assert where(m, allied_unit) == landing  # never retreated off its beach
        assert unit(m, allied_unit)["stalled"]


def test_allied_units_are_never_eliminated_a_blocked_retreat_is_no_attack() -> None:
    # Dragoon: Resolving Unit Attacks — "Allied units are never eliminated." A stalled unit whose
    # retreat location holds a German unit has nowhere to go, like one on its beach: it is not attacked.
    pos = position(
        turn=22,
        phase="bot_roll",
        allied={"3rd-ID": {"location": "Bollene", "stalled": True}},
        german={"11-PzD": {"location": "Montelimar", "desperate": True}, ESCAPE_A: "Orange"},
        panzer="pinned in Montelimar",
    )
    m = game(pos, dice=[bot_attack_roll("11-PzD"), 6])
    assert where(m, "3rd-ID") == "Bollene"
    assert where(m, ESCAPE_A) == "Orange"
    assert not events_of(m.log, "allied_retreat")


# -- French landings --------------------------------------------------------------------------
def test_french_landings_are_free_stacked_and_cannot_attack_that_turn() -> None:
    # Dragoon: Resolving Unit Attacks — "The French landings on Alpha Beach on turns 16 and 18 neither
    # require a die roll nor cost any RP. The units are simply placed in the Alpha Beach location and may be stacked."
    b = rules().board
    assert sorted(t for t in b.landing_turn if t is not None) == [16, 18]
    for i, turn in enumerate(b.landing_turn):
        if turn is None:
            continue
        french = b.allied[i].id
        m = game(
            position(turn=turn - 1, phase="bot_roll", allied={"3rd-ID": {"location": "Alpha-Beach"}}),
            dice=[quiet_bot_roll(), 4],
        )
        landing = events_of(m.log, "landing")
        assert len(landing) == 1 and b.allied[i].name in landing[0]["text"]
        assert not events_of(m.log, "die")  # no die roll
        assert m.state.turn == turn
        assert m.state.rp == b.rp_designated.get(turn, b.rp_roll[4])  # no RP spent
        assert where(m, french) == "Alpha-Beach" == where(m, "3rd-ID")  # stacked
        assert unit(m, french)["spent"]
        assert not any(a.startswith((f"attack {french}", f"invade {french}")) for a in m.legal_actions())
        with pytest.raises(IllegalActionError, match="lands on Alpha Beach"):
            m.play(f"invade {french} Alpha-Beach")


def test_french_unit_attacks_the_turn_after_landing() -> None:
    # Dragoon: Using Action Charts — the no-attack restriction lasts only for the landing turn.
    m = game(
        position(turn=16, phase="bot_roll", allied={"II-Corps": {"location": "Alpha-Beach", "spent": True}}),
        dice=[quiet_bot_roll(), 4],
    )
    assert m.state.turn == 17 and not unit(m, "II-Corps")["spent"]
    assert f"attack II-Corps Alpha-Beach->{route('II-Corps')[1]}" in m.legal_actions()


# -- French Forces of the Interior (FFI) ----------------------------------------------------
def test_ffi_limit_one_per_unit_and_only_on_the_map() -> None:
    # Dragoon: French Forces of the Interior (FFI) — "Limit 1 FFI per unit."
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix"}}))
    m.play("ffi 3rd-ID")
    assert unit(m, "3rd-ID")["ffi"]
    assert "ffi 3rd-ID" not in m.legal_actions()
    with pytest.raises(IllegalActionError, match="limit 1 per unit"):
        m.play("ffi 3rd-ID")
    with pytest.raises(IllegalActionError, match="not on the map"):
        m.play("ffi VI-Corps")


@pytest.mark.parametrize(("first", "second", "advances"), [(2, 3, True), (2, 2, False), (1, 6, True)])
def test_ffi_rerolls_a_failed_attack_and_is_removed(first: int, second: int, advances: bool) -> None:
    # Dragoon: French Forces of the Interior (FFI) — "FFI may be used to re-roll a die on an attack
    # (as attacker ...). When used, the FFI marker is removed from play."
    m = game(
        position(rp=3, allied={"3rd-ID": {"location": "Aix", "ffi": True}}, german={"338-ID": "Salon"}),
        dice=[first, second],
    )
    m.play("attack 3rd-ID Aix->Salon")
    assert m.legal_actions() == ["reroll ffi", "accept"]
    events = m.play("reroll ffi")
    assert events_of(events, "ffi_reroll")
    assert not unit(m, "3rd-ID")["ffi"]
    assert (where(m, "3rd-ID") == "Salon") is advances
    assert m.view()["phase"] == "Allied Actions"  # one re-roll only


def test_ffi_is_kept_when_the_roll_is_accepted_or_not_needed() -> None:
    # Dragoon: French Forces of the Interior (FFI) — the marker is removed only "when used".
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix", "ffi": True}}, german={"338-ID": "Salon"}), dice=[2])
    m.play("attack 3rd-ID Aix->Salon")
    m.play("accept")
    assert unit(m, "3rd-ID")["ffi"] and where(m, "3rd-ID") == "Aix"
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix", "ffi": True}}, german={"338-ID": "Salon"}), dice=[5])
    m.play("attack 3rd-ID Aix->Salon")
    assert unit(m, "3rd-ID")["ffi"] and where(m, "3rd-ID") == "Salon"


def test_ffi_may_reroll_the_one_that_would_stall_an_unopposed_advance() -> None:
    # Dragoon: FFI — an unopposed attack is an attack; its stalling 1 may be re-rolled.
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix", "ffi": True}}), dice=[1, 4])
    m.play("attack 3rd-ID Aix->Salon")
    assert m.legal_actions() == ["reroll ffi", "accept"]
    m.play("reroll ffi")
    assert where(m, "3rd-ID") == "Salon" and not unit(m, "3rd-ID")["stalled"]


@pytest.mark.parametrize(("first", "second", "stalled"), [(4, 2, False), (4, 5, True)])
def test_ffi_rerolls_a_german_attack_as_defender(first: int, second: int, stalled: bool) -> None:
    # Dragoon: French Forces of the Interior (FFI) — re-roll "as attacker or defender".
    pos = position(
        phase="bot_attack_roll",
        allied={"3rd-ID": {"location": "Salon", "ffi": True}},
        german={"338-ID": "Orgon"},
        bot_attack={"attacker": "338-ID", "target": "3rd-ID", "rerolled": False, "roll": None},
    )
    m = game(pos, dice=[first, second])
    assert m.view()["phase"] == "German BOT Actions: FFI re-roll?"
    assert m.legal_actions() == ["reroll ffi", "accept"]
    m.play("reroll ffi")
    assert not unit(m, "3rd-ID")["ffi"]
    assert unit(m, "3rd-ID")["stalled"] is stalled


def test_ffi_is_not_offered_when_the_german_attack_fails() -> None:
    # Dragoon: FFI — a re-roll helps the defender only against a German success.
    pos = position(
        phase="bot_attack_roll",
        allied={"3rd-ID": {"location": "Salon", "ffi": True}},
        german={"338-ID": "Orgon"},
        bot_attack={"attacker": "338-ID", "target": "3rd-ID", "rerolled": False, "roll": None},
    )
    m = game(pos, dice=[2, 4])
    assert unit(m, "3rd-ID")["ffi"] and not unit(m, "3rd-ID")["stalled"]


# -- Air Support ------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "advances"), [(1, False), (2, True)])
def test_air_adds_one(roll: int, advances: bool) -> None:
    # Dragoon: Air Support — "provides a +1 DRM for an attack".
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix"}}, german={"338-ID": "Salon"}), dice=[roll])
    m.play("attack 3rd-ID Aix->Salon +air")
    assert (where(m, "3rd-ID") == "Salon") is advances
    assert m.view()["state"]["air"]["used"]


def test_air_supports_one_attack_a_turn() -> None:
    # Dragoon: Air Support — "the Air marker to support 1 attack per turn".
    pos = position(
        rp=3,
        allied={"3rd-ID": {"location": "Aix"}, "II-Corps": {"location": "Hyeres"}},
        german={"338-ID": "Salon", "242-ID": "Toulon"},
    )
    m = game(pos, dice=[1])
    assert "attack II-Corps Hyeres->Toulon +air" in m.legal_actions()
    m.play("attack 3rd-ID Aix->Salon +air")
    assert "attack II-Corps Hyeres->Toulon +air" not in m.legal_actions()
    assert "attack II-Corps Hyeres->Toulon" in m.legal_actions()
    with pytest.raises(IllegalActionError, match="only one attack a turn.*Air Support"):
        m.play("attack II-Corps Hyeres->Toulon +air")


def test_air_is_back_next_turn() -> None:
    # Dragoon: Air Support — one attack per turn: a new turn brings the marker back.
    m = game(
        position(
            rp=2,
            allied={"3rd-ID": {"location": "Aix"}},
            german={"338-ID": "Salon"},
            air={"used": True, "grounded": False, "bad_weather_next": False},
        )
    )
    assert "attack 3rd-ID Aix->Salon +air" not in m.legal_actions()
    no_weather = bot_roll_for(
        lambda line: all(e.kind != "bad_weather" for e in line.effects) and all(e.kind != "stall" for e in line.effects)
    )
    m = game(
        position(
            rp=2,
            phase="bot_roll",
            german={"338-ID": "Salon"},
            air={"used": True, "grounded": False, "bad_weather_next": False},
        ),
        dice=[no_weather, 4],
    )
    assert m.view()["state"]["air"] == {"used": False, "grounded": False, "bad_weather_next": False}


def test_no_air_after_bad_weather() -> None:
    # Dragoon: Air Support — "unless bad weather was the German BOT result on the previous turn".
    bad_weather = bot_roll_for(lambda line: any(e.kind == "bad_weather" for e in line.effects))
    m = game(position(turn=20, phase="bot_roll", german={"338-ID": "Salon"}), dice=[bad_weather, 4])
    assert m.state.turn == 21 and m.view()["state"]["air"]["grounded"]
    pos = m.view()["state"]
    pos["allied"]["3rd-ID"].update(location="Aix")
    m = game(pos, dice=[6])
    assert "attack 3rd-ID Aix->Salon" in m.legal_actions()
    assert "attack 3rd-ID Aix->Salon +air" not in m.legal_actions()
    with pytest.raises(IllegalActionError, match="bad weather.*Air Support"):
        m.play("attack 3rd-ID Aix->Salon +air")


def test_air_not_for_invasions_or_empty_locations() -> None:
    # Dragoon: Air Support — "Air support may not be used for invasions or to support an attack on an empty location."
    m = game(position(turn=15, rp=3, allied={"3rd-ID": {"location": "Aix"}}))
    assert not any(a.endswith("+air") for a in m.legal_actions())
    with pytest.raises(IllegalActionError, match="empty location.*Air Support"):
        m.play("attack 3rd-ID Aix->Salon +air")
    with pytest.raises(IllegalActionError):
        m.play(f"invade 1st-ABTF {route('1st-ABTF')[0]} +air")


def test_air_plus_one_applies_to_the_ffi_reroll() -> None:
    # Dragoon: Air Support — "The +1 DRM may also be applied to an FFI re-roll of an attack."
    m = game(
        position(rp=3, allied={"3rd-ID": {"location": "Aix", "ffi": True}}, german={"338-ID": "Salon"}), dice=[1, 2]
    )
    m.play("attack 3rd-ID Aix->Salon +air")
    m.play("reroll ffi")
    assert where(m, "3rd-ID") == "Salon"  # 2 + 1 = 3


# -- German Desperate Defense -----------------------------------------------------------------
def test_11th_pzd_starts_desperate() -> None:
    # Dragoon: German Desperate Defense — "the 11th PzD at start".
    state = warroom.new_game("dragoon", seed=3).view()["state"]
    assert {gid for gid, info in state["german"].items() if info["desperate"]} == {"11-PzD"}


@pytest.mark.parametrize(
    ("german_unit", "into"),
    [("148-ID", "Cannes"), ("242-ID", "Toulon"), ("244-ID", "Marseilles"), ("338-ID", "Orgon"), ("19-RS", "Crest")],
)
def test_desperate_on_retreating_into_its_location(german_unit: str, into: str) -> None:
    # Dragoon: German Desperate Defense — "the 148th, 242nd, 244th and 338th IDs and 19th Army RS unit
    # upon retreating into Cannes, Toulon, Marseilles, Orgon and Crest".
    b = rules().board
    attacker = b.allied[b.route_of[b.german_index[german_unit]]].id
    held = before(attacker, into)
    origin = before(attacker, held)
    m = game(position(rp=3, allied={attacker: {"location": origin}}, german={german_unit: held}), dice=[6])
    m.play(f"attack {attacker} {origin}->{held}")
    assert unit(m, german_unit) == {"location": into, "desperate": True}


def test_desperate_unit_flips_back_when_defeated_and_stays_when_not() -> None:
    # Dragoon: German Desperate Defense — "If the Allied unit wins the attack and advances, then retreat
    # the German unit back a location and flip the marker to the non-desperate defense side ... If the
    # Allied attack fails, the German unit remains in desperate status."
    past = after("1st-ABTF", "Cannes")
    pos = position(
        rp=3,
        allied={"1st-ABTF": {"location": before("1st-ABTF", "Cannes")}},
        german={"148-ID": {"location": "Cannes", "desperate": True}},
    )
    m = game(pos, dice=[3])  # 3 - 1 = 2: fails
    m.play(f"attack 1st-ABTF {before('1st-ABTF', 'Cannes')}->Cannes")
    assert unit(m, "148-ID") == {"location": "Cannes", "desperate": True}
    m = game(pos, dice=[4])
    m.play(f"attack 1st-ABTF {before('1st-ABTF', 'Cannes')}->Cannes")
    assert unit(m, "148-ID") == {"location": past, "desperate": False}


def test_desperate_defense_has_no_effect_on_german_counterattacks() -> None:
    # Dragoon: German Desperate Defense — "The German desperate defense DRM has no effect on German counterattacks."
    pos = position(
        phase="bot_attack_roll",
        allied={"3rd-ID": {"location": "Salon"}},
        german={"338-ID": {"location": "Orgon", "desperate": True}},
        bot_attack={"attacker": "338-ID", "target": "3rd-ID", "rerolled": False, "roll": None},
    )
    m = game(pos, dice=[ADVANCE_ON])
    assert unit(m, "3rd-ID")["stalled"]
