"""Saint-Lo's four-player variant (10): two teams of two, the units split between the partners, shared
Supplies, alternating activations, support the partner may refuse, a Battle Report each, cards played for
the partner, a result for every seat."""

from __future__ import annotations

import json

import pytest
from saintlo_positions import bare, give, place, refused, rules4

from warroom.engine.errors import IllegalActionError
from warroom.engine.events import SILENT
from warroom.engine.ruleset import CHANCE
from warroom.games.saintlo import turn
from warroom.games.saintlo.actions import Action
from warroom.games.saintlo.state import OFF, Phase


@pytest.fixture(scope="module")
def rules():
    return rules4()


def test_four_seats_in_two_teams(rules) -> None:
    # Saint-Lo 10: "assemble two teams of 2 players, and have each team control one army"
    info = rules.info
    assert info.sides == ("Allied A", "Allied B", "Axis A", "Axis B")
    assert info.team_of("Allied B") == "Allied" and info.team_of("Axis A") == "Axis"


def test_each_player_deploys_his_own_units(rules) -> None:
    # Saint-Lo 10.1: each player places his own units (A infantry and aircraft, B artillery, tanks; B the Supply units)
    s = rules.initial_state()
    while s.phase == Phase.POSTS:
        rules.apply(s, rules.legal_actions(s)[0], log=False)
    assert rules.to_act(s) == "Allied A"
    kinds = {Action.from_id(a).subject for a in rules.legal_actions(s) if a.startswith("deploy ")}
    types = {rules.t.kinds[rules.t.kind_index[k]].type for k in kinds}
    assert types == {"infantry", "aircraft"}
    while rules.to_act(s) == "Allied A":
        rules.apply(s, rules.legal_actions(s)[0], log=False)
    kinds = {Action.from_id(a).subject for a in rules.legal_actions(s) if a.startswith("deploy ")}
    assert {rules.t.kinds[rules.t.kind_index[k]].type for k in kinds} == {"artillery", "tank", "supply"}
    while s.phase == Phase.DEPLOY:
        rules.apply(s, rules.legal_actions(s)[0], log=False)
    for _ in range(24):  # 10.1: 6 Battle Reports dealt to each player
        rules.apply_chance(s, rules.chance_outcomes(s)[0][0])
    assert [len(h) for h in s.hands] == [6, 6, 6, 6]


def test_a_battle_report_for_each_player(rules) -> None:
    # Saint-Lo 10.2: "Each player will receive a Battle Report (2 per team)"; 10.2: Supplies shared
    s = bare(rules, active=1, supplies=(0, 0))
    place(rules, s, "us_gmc_6x6.1", "1001")
    turn.end_turn(rules, s, SILENT)
    assert s.supplies == [1, 0] and s.draw_queue == (0, 1)
    rules.apply_chance(s, rules.chance_outcomes(s)[0][0])
    rules.apply_chance(s, rules.chance_outcomes(s)[0][0])
    assert [len(h) for h in s.hands] == [1, 1, 0, 0]


def test_partners_alternate_and_use_only_their_own_units(rules) -> None:
    # Saint-Lo 10: a player may not use his partner's units; 10.2: alternate, a player at a time, up to 10
    s = bare(rules, supplies=(20, 0))
    place(rules, s, "us_m5.1", "0303")
    place(rules, s, "us_m5.2", "0503")
    place(rules, s, "us_m4a1_76w.1", "0306")
    assert rules.to_act(s) == "Allied A"
    assert not any("m4a1" in a for a in rules.legal_actions(s))
    refused(rules, s, "move us_m4a1_76w.1 0307", "partner", "10")
    rules.apply(s, "move us_m5.1 0302")
    assert rules.to_act(s) == "Allied B"  # the partner's go
    rules.apply(s, "end")  # B wishes not to move any more
    assert rules.to_act(s) == "Allied A"
    rules.apply(s, "move us_m5.2 0502")
    assert rules.to_act(s) == "Allied A" and s.activations == 2
    rules.apply(s, "end")
    assert s.phase == Phase.REORGANIZE and rules.to_act(s) == "Allied A"
    rules.apply(s, "end")
    assert rules.to_act(s) == "Allied B"  # 10.2: any member of the team, or both
    rules.apply(s, "end")
    assert s.active == 1


def test_support_requests_the_partner_may_refuse(rules) -> None:
    # Saint-Lo 10.3: Player A calls for his partner's artillery; Player B may refuse
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_infantry.1", "0303")
    target = place(rules, s, "de_infantry.1", "0304")
    art = place(rules, s, "us_m2a1.1", "0603")
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.phase == Phase.SUPPORT and rules.to_act(s) == "Allied A"
    rules.apply(s, "support us_m2a1.1")
    assert rules.to_act(s) == "Allied B" and rules.legal_actions(s) == ["agree", "refuse"]
    rules.apply(s, "refuse")
    assert rules.to_act(s) == "Allied A" and "support us_m2a1.1" not in rules.legal_actions(s)
    assert s.supplies[0] == 4
    rules.apply(s, "fire")
    assert len(str(rules.chance_outcomes(s)[0][0])) == 1
    rules.apply_chance(s, 6)
    rules.apply_chance(s, 1)
    assert s.pos[target] == OFF
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    place(rules, s, "us_m2a1.1", "0603")
    rules.apply(s, "attack us_infantry.1 0304")
    rules.apply(s, "support us_m2a1.1")
    rules.apply(s, "agree")
    assert rules.to_act(s) == CHANCE and s.supplies[0] == 3
    assert len(str(rules.chance_outcomes(s)[0][0])) == 2
    assert not s.used[art]


def test_a_card_played_for_the_partner(rules) -> None:
    # Saint-Lo 10.4: "A player may use an event to benefit his partner directly"
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ace_of_tanks")
    place(rules, s, "us_m4a1_76w.1", "0303")
    assert "play ace_of_tanks us_m4a1_76w.1" in rules.legal_actions(s)  # Player A on Player B's tank
    rules.apply(s, "play ace_of_tanks us_m4a1_76w.1")
    assert s.effects == ((0, rules.t.card_index[0]["ace_of_tanks"], rules.t.unit_index["us_m4a1_76w.1"]),)


def test_a_hand_is_seen_by_its_seat_only(rules) -> None:
    # Saint-Lo 10.1 with 4.5: each player's Battle Reports are his own, his partner's included
    s = bare(rules)
    give(rules, s, 0, "ace_of_tanks")
    give(rules, s, 1, "dug_in")
    view = rules.observation(s, "Allied B")
    assert view["hands"] == {"Allied A": 1, "Allied B": ["dug_in"], "Axis A": 0, "Axis B": 0}


def test_a_team_result_for_each_seat(rules) -> None:
    # Saint-Lo 3 with 10: the team that destroys four Command Posts wins, both its players
    s = bare(rules, supplies=(5, 0))
    post = rules.t.labels[s.post_hex[8]]
    from saintlo_positions import neighbours

    place(rules, s, "us_infantry.1", neighbours(rules, post)[0])
    s.lost_posts[1] = 3
    for p in (9, 10, 11):
        s.post_at[s.post_hex[p]] = OFF
        s.post_hex[p] = -2
    rules.apply(s, f"attack us_infantry.1 {post}")
    rules.apply_chance(s, 6)
    rules.apply_chance(s, int("1" * rules.t.post_values[1][0]))
    result = rules.result(s)
    assert result is not None and result.winner == "Allied"
    assert result.returns == {"Allied A": 1.0, "Allied B": 1.0, "Axis A": -1.0, "Axis B": -1.0}


def test_team_positions_round_trip(rules) -> None:
    # saved positions of the four-seat game keep the seats' hands and the team's turn
    import random

    from warroom import Match

    match = Match(rules, rules.initial_state(None, {"turn_limit": 3}), seed=7, keep_log=False)
    chooser = random.Random(7)
    seen = 0
    while not match.over:
        s = match.state
        if s.turn >= 2 and seen < 25:
            data = rules.state_to_json(s)
            back = rules.state_from_json(json.loads(json.dumps(data)))
            assert rules.state_to_json(back) == data and rules.legal_actions(back) == rules.legal_actions(s)
            seen += 1
        match.play(chooser.choice(match.legal_actions()))
    assert seen == 25
    with pytest.raises(IllegalActionError) as info:
        rules.apply(match.state, "end")
    assert "Saint-Lo 3" in str(info.value)
