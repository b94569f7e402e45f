"""Panzer Saint-Lo 1944: rule statements the other modules of tests/saintlo/ do not cite (a rules review found
them): running out of Supplies (5.3), buying from the own army (5.4), artillery support on a Command Post
and from several units (6.2, 7.3), what artillery and Supply units cannot attack (7.3, 7.5), when swaps are
made (8), how long a general event lasts (9), and the team game's shares (10, 10.2, 10.3)."""

from __future__ import annotations

import pytest
from saintlo_positions import bare, give, neighbours, place, refused, rules2, rules4

from warroom.engine.ruleset import CHANCE
from warroom.games.saintlo.actions import Action
from warroom.games.saintlo.effects import stat
from warroom.games.saintlo.movement import destinations
from warroom.games.saintlo.state import DESTROYED, OFF, Phase
from warroom.games.saintlo.tables import ATTACK_STAT


def dice(rules, s) -> int:
    """How many dice the pending throw has (an outcome is its faces written as one number)."""
    return len(str(rules.chance_outcomes(s)[0][0]))


def kind_types(rules, legal: list[str], kind: str) -> set[str]:
    """The unit types of the counters named by the `kind` actions (buy, swap) of a legal list."""
    t = rules.t
    out = set()
    for a in legal:
        act = Action.from_id(a)
        if act.kind == kind:
            name = act.subject if kind == "buy" else act.subject.rsplit(".", 1)[0]
            out.add(t.kinds[t.kind_index[name]].type)
    return out


def hex_at(rules, s, centre: str, distance: int) -> str:
    """The first free land hex (no unit, no Command Post) at exactly `distance` from `centre`."""
    t = rules.t
    c = t.hex_of[centre]
    return next(
        t.labels[h]
        for h in range(t.n_hexes)
        if t.distance[c][h] == distance and t.land_ok[h] and s.land_at[h] == OFF and s.post_at[h] == OFF
    )


# -- 5.3 out of Supplies -----------------------------------------------------------------------------------
def test_out_of_supplies_leaves_only_free_foot_moves_and_the_end_of_the_phase() -> None:
    # Saint-Lo 5.3: "If the player ... is out of supplies ... phase 4 starts"; 7.1 (NOTES.md): foot infantry
    # "does not pay Supplies to move", so it may still move; nothing that costs a Supply is offered
    rules = rules2()
    s = bare(rules, supplies=(1, 0))
    foot = place(rules, s, "us_infantry.1", "0303")
    half_track = place(rules, s, "us_m5.1", "0203")
    place(rules, s, "us_m4a1_76w.1", "0403")
    place(rules, s, "us_m2a1.1", "0505")
    place(rules, s, "us_gmc_6x6.1", "1001")
    place(rules, s, "de_infantry.1", "0304")  # beside the infantry, the half-track and the tank
    assert "attack us_infantry.1 0304" in rules.legal_actions(s)
    rules.apply(s, "move us_m5.1 0202")  # the last Supply
    assert s.supplies[0] == 0 and s.used[half_track] and s.current == OFF
    foot_moves = {f"move us_infantry.1 {rules.t.labels[h]}" for h in destinations(rules.t, s, foot)}
    legal = rules.legal_actions(s)
    assert foot_moves and set(legal) == foot_moves | {"end"} and legal[-1] == "end"
    refused(rules, s, "attack us_infantry.1 0304", "Supply", "5.3")
    refused(rules, s, "attack us_m4a1_76w.1 0304", "Supply", "5.3")
    refused(rules, s, "move us_gmc_6x6.1 1002", "Supply", "5.3")
    rules.apply(s, "move us_infantry.1 0302")
    assert s.supplies[0] == 0 and s.used[foot] and s.current == OFF  # nothing to pay its attack: finished
    assert rules.legal_actions(s) == ["end"]
    rules.apply(s, "end")
    assert s.phase == Phase.REORGANIZE and s.activations == 2 and not any(s.used)  # flipped back up


# -- 5.4 buying --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("army", "own", "enemy"), [(0, "us_", "de_"), (1, "de_", "us_")])
def test_only_units_of_the_own_army_are_bought(army: int, own: str, enemy: str) -> None:
    # Saint-Lo 5.4: "The player may only purchase units from his own army"
    rules = rules2()
    supplies = (30, 0) if army == 0 else (0, 30)
    s = bare(rules, active=army, supplies=supplies)
    s.phase = Phase.REORGANIZE
    buys = [Action.from_id(a) for a in rules.legal_actions(s) if a.startswith("buy ")]
    assert buys and all(b.subject.startswith(own) for b in buys)
    assert not any(b.subject.startswith(enemy) for b in buys)
    entry = next(b.where for b in buys if b.subject == f"{own}infantry")
    refused(rules, s, f"buy {enemy}infantry {entry}", "own army", "5.4")
    assert s.supplies == list(supplies) and all(p == OFF for p in s.pos)


# -- 6.2 and 7.3 artillery support -------------------------------------------------------------------------
def test_artillery_supports_an_attack_on_a_command_post() -> None:
    # Saint-Lo 6.2 with 7.3: "When a land unit initiates an attack, it may call for 'artillery support'",
    # the target "in the Artillery unit's Range": a Command Post is attacked with support like a unit
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    post = rules.t.labels[s.post_hex[8]]
    value = rules.t.post_values[1][0]
    place(rules, s, "us_m4a1_76w.1", neighbours(rules, post)[0])  # attack 4
    art = place(rules, s, "us_m2a1.1", hex_at(rules, s, post, 3))  # range 3, counted to the post
    place(rules, s, "us_m2a1.2", hex_at(rules, s, post, 4))  # out of range
    rules.apply(s, f"attack us_m4a1_76w.1 {post}")
    assert s.phase == Phase.SUPPORT and s.supplies[0] == 4
    assert rules.legal_actions(s)[:2] == ["support us_m2a1.1", "fire"]
    refused(rules, s, "support us_m2a1.2", "range", "7.3")
    rules.apply(s, "support us_m2a1.1")
    assert s.supplies[0] == 3 and rules.to_act(s) == CHANCE and dice(rules, s) == 4 + 1
    rules.apply_chance(s, 66666)
    assert dice(rules, s) == value  # the post defends with its value
    rules.apply_chance(s, int("1" * value))
    assert s.post_hex[8] == DESTROYED and s.lost_posts[1] == 1
    assert post not in {rules.t.labels[h] for h in range(rules.t.n_hexes) if s.post_at[h] != OFF}
    assert not s.used[art]  # 7.3: not flipped after supporting


def test_two_artillery_units_support_one_attack_a_supply_each() -> None:
    # Saint-Lo 7.3: "it can call for support from one or more Artillery units"; "For each unit the player uses
    # in the attack (the attacking land unit plus any supporting Artillery units), the attacker must spend 1
    # Supply"; the dice are "the total attack stat of the attacking unit and the supporting Artillery unit/s"
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_infantry.1", "0303")
    target = place(rules, s, "de_infantry.1", "0304")
    first = place(rules, s, "us_m2a1.1", "0603")  # 3 from the target
    second = place(rules, s, "us_m2a1.2", "0505")  # 2 from the target
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.supplies[0] == 4 and s.phase == Phase.SUPPORT
    rules.apply(s, "support us_m2a1.1")
    assert s.supplies[0] == 3 and s.phase == Phase.SUPPORT
    assert rules.legal_actions(s)[:2] == ["support us_m2a1.2", "fire"]  # called once each
    rules.apply(s, "support us_m2a1.2")
    assert s.supplies[0] == 2 and rules.to_act(s) == CHANCE
    assert dice(rules, s) == 1 + 1 + 1
    rules.apply_chance(s, 111)
    rules.apply_chance(s, 6)  # the defender survives; the Supplies stay spent
    assert s.pos[target] != OFF and s.supplies[0] == 2
    assert not s.used[first] and not s.used[second]
    # with 2 Supplies only the attacker and one supporter are paid for
    s = bare(rules, supplies=(2, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    place(rules, s, "us_m2a1.1", "0603")
    place(rules, s, "us_m2a1.2", "0505")
    rules.apply(s, "attack us_infantry.1 0304")
    rules.apply(s, "support us_m2a1.1")
    assert s.supplies[0] == 0 and rules.to_act(s) == CHANCE and dice(rules, s) == 2


def test_artillery_cannot_attack_aircraft() -> None:
    # Saint-Lo 7.3: "Artillery units cannot attack aircraft": neither by itself nor as support of an air attack
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_m2a1.1", "0303")
    place(rules, s, "de_bf109_f2.1", "0304")  # an enemy aircraft beside the artillery
    place(rules, s, "us_p51d.1", "0305")  # air attack 2
    legal = rules.legal_actions(s)
    assert not any(a.startswith("attack us_m2a1.1") for a in legal)
    assert "attack us_p51d.1 0304" in legal
    refused(rules, s, "attack us_m2a1.1 0304", "artillery", "7.3")
    rules.apply(s, "attack us_p51d.1 0304")
    assert s.phase != Phase.SUPPORT and rules.to_act(s) == CHANCE  # the artillery in range is not called
    assert dice(rules, s) == 2 and s.supplies[0] == 4


# -- 7.5 Supply units ------------------------------------------------------------------------------------------
def test_supply_units_have_no_attack() -> None:
    # Saint-Lo 7.5: "These vehicles have no attack capacity": never offered an attack, before or after a move
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    truck = place(rules, s, "us_gmc_6x6.1", "1001")
    place(rules, s, "de_infantry.1", "0902")  # beside 1001
    place(rules, s, "de_infantry.2", "1103")  # beside 1002
    legal = rules.legal_actions(s)
    assert "move us_gmc_6x6.1 1002" in legal
    assert not any(a.startswith("attack ") for a in legal)
    refused(rules, s, "attack us_gmc_6x6.1 0902", "no attack capacity", "7.5")
    rules.apply(s, "move us_gmc_6x6.1 1002")
    assert s.supplies[0] == 4 and s.used[truck] and s.current == OFF  # beside an enemy, nothing more to do
    assert not any(a.startswith("attack ") for a in rules.legal_actions(s))


# -- 8 swaps ---------------------------------------------------------------------------------------------------
def test_swaps_only_in_the_own_reorganization() -> None:
    # Saint-Lo 8: "Players may perform this exchange of units for Supplies only in the reorganization phase of
    # their turn"
    rules = rules2()
    where = "swap belongs to Reorganization (Saint-Lo 5.4)"
    s = bare(rules, supplies=(3, 0))
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    place(rules, s, "us_m2a1.1", "0603")
    assert not any(a.startswith("swap ") for a in rules.legal_actions(s))
    refused(rules, s, "swap us_infantry.1", "Movement and Attack", where)  # phase 3
    rules.apply(s, "attack us_infantry.1 0304")
    assert s.phase == Phase.SUPPORT
    refused(rules, s, "swap us_m2a1.1", where)  # during an attack
    rules.apply(s, "fire")
    rules.apply_chance(s, 1)
    refused(rules, s, "swap us_m2a1.1", "chance event")  # the dice
    rules.apply_chance(s, 6)
    rules.apply(s, "done")
    for card in (
        "ace_of_tanks",
        "ace_of_tanks",
        "dug_in",
        "dug_in",
        "forced_march",
        "ambush",
        "out_of_fuel",
        "fuel_depot",
    ):
        give(rules, s, 0, card)
    s.phase = Phase.DISCARD  # 5.2: holding 8
    refused(rules, s, "swap us_m2a1.1", "Saint-Lo 5.2", where)  # phase 2
    rules.apply(s, "discard ambush")
    rules.apply(s, "end")
    assert s.phase == Phase.REORGANIZE and s.supplies[0] == 2
    refused(rules, s, "swap de_infantry.1", "own units", "8")  # not the enemy's, in the Allied turn
    rules.apply(s, "swap us_m2a1.1")  # phase 4: cost 6, 3 Supplies
    assert s.supplies[0] == 5 and s.pos[rules.t.unit_index["us_m2a1.1"]] == OFF


# -- 9 Battle Reports --------------------------------------------------------------------------------------
def test_a_general_event_lasts_until_the_end_of_the_turn() -> None:
    # Saint-Lo 9: General events "grant or remove attributes to a group or all units of an army, until the end
    # of the turn"; "Unique and General events last only until the end of the turn"
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "hedgerow_assault")  # own infantry attack +1
    infantry = place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    late = rules.t.unit_index["us_infantry.2"]
    rules.apply(s, "play hedgerow_assault")
    assert stat(rules.t, s, infantry, ATTACK_STAT) == 2
    rules.apply(s, "attack us_infantry.1 0304")
    assert dice(rules, s) == 2
    rules.apply_chance(s, 11)
    rules.apply_chance(s, 6)
    rules.apply(s, "done")
    rules.apply(s, "end")
    assert s.phase == Phase.REORGANIZE and stat(rules.t, s, infantry, ATTACK_STAT) == 2  # still this turn
    entry = next(a for a in rules.legal_actions(s) if a.startswith("buy us_infantry "))
    rules.apply(s, entry)
    assert s.pos[late] != OFF and stat(rules.t, s, late, ATTACK_STAT) == 2  # the whole group, late comers too
    rules.apply(s, "end")
    assert s.active == 1 and s.turn == 2 and s.effects == ()
    assert stat(rules.t, s, infantry, ATTACK_STAT) == 1 and stat(rules.t, s, late, ATTACK_STAT) == 1


# -- 10 the team game --------------------------------------------------------------------------------------
def test_team_supply_units_are_moved_by_either_partner_other_units_by_their_owner() -> None:
    # Saint-Lo 10: "A player may not use his partner's units. Only Supply units are shared by both of them"
    # (NOTES.md: either partner moves Supply units; A commands infantry and aircraft, B artillery and tanks)
    rules = rules4()
    s = bare(rules, supplies=(10, 0))
    gmc = place(rules, s, "us_gmc_6x6.1", "1001")
    mack = place(rules, s, "us_mack_no.1", "1306")
    place(rules, s, "us_infantry.1", "0303")
    place(rules, s, "us_p51d.1", "0505")
    place(rules, s, "us_m4a1_76w.1", "0603")
    place(rules, s, "us_m2a1.1", "0206")
    movers = {Action.from_id(a).subject for a in rules.legal_actions(s) if a.startswith("move ")}
    assert rules.to_act(s) == "Allied A"
    assert movers == {"us_infantry.1", "us_p51d.1", "us_gmc_6x6.1", "us_mack_no.1"}
    refused(rules, s, "move us_m4a1_76w.1 0604", "partner", "10")
    refused(rules, s, "move us_m2a1.1 0207", "partner", "10")
    rules.apply(s, "move us_gmc_6x6.1 1002")  # Player A moves a Supply unit, paying from the team's Supplies
    assert s.used[gmc] and s.supplies[0] == 9 and rules.to_act(s) == "Allied B"
    movers = {Action.from_id(a).subject for a in rules.legal_actions(s) if a.startswith("move ")}
    assert movers == {"us_m4a1_76w.1", "us_m2a1.1", "us_mack_no.1"}
    refused(rules, s, "move us_infantry.1 0302", "partner", "10")
    refused(rules, s, "move us_p51d.1 0506", "partner", "10")
    refused(rules, s, "move us_gmc_6x6.1 1001", "face down", "5.3")  # used by the partner this turn
    mack_move = next(a for a in rules.legal_actions(s) if a.startswith("move us_mack_no.1 "))
    rules.apply(s, mack_move)  # Player B moves the other one
    assert s.used[mack] and s.supplies[0] == 8 and rules.to_act(s) == "Allied A"


def test_team_ten_units_a_turn_between_both_partners() -> None:
    # Saint-Lo 10.2 Phase 3: "Team members will alternate their moves, a player at a time, until the maximum of
    # 10 units is reached. If one of the team members cannot or wishes not to move any more, the other player may
    # perform more of his own moves"
    rules = rules4()
    s = bare(rules, supplies=(20, 0))
    spots = ["0202", "0402", "0602", "0802", "0204", "0404", "0604", "0804", "0206", "0406", "0606"]
    for n, label in enumerate(spots):
        place(rules, s, f"us_m5.{n + 1}" if n < 8 else f"us_m4a1_76w.{n - 7}", label)
    start = list(s.pos)
    seats = []
    for _ in range(7):
        seats.append(rules.to_act(s))
        rules.apply(s, next(a for a in rules.legal_actions(s) if a.startswith("move ")))
    assert seats == ["Allied A", "Allied B"] * 3 + ["Allied A"]
    assert s.activations == 7 and rules.to_act(s) == "Allied B"
    assert rules.legal_actions(s) == ["end"]  # B's three tanks are face down
    rules.apply(s, "end")
    for n in range(3):
        assert rules.to_act(s) == "Allied A" and s.phase == Phase.ACTIONS and s.activations == 7 + n
        rules.apply(s, next(a for a in rules.legal_actions(s) if a.startswith("move ")))
    assert s.phase == Phase.REORGANIZE and s.activations == 10 and s.supplies[0] == 10
    moved = [rules.t.unit_ids[u] for u in range(rules.t.n_units) if s.pos[u] != start[u]]
    assert len(moved) == 10 and sum(m.startswith("us_m5.") for m in moved) == 7  # A's eighth half-track waits


def test_team_each_player_holding_eight_discards_one() -> None:
    # Saint-Lo 10.2 Phase 2: "Each player will receive a Battle Report"; 5.2: "If at any moment you hold 8
    # Battle Reports, discard one before continuing": each partner discards from his own hand
    rules = rules4()
    s = bare(rules)
    for card in ("ace_of_tanks", "ace_of_tanks", "dug_in", "dug_in", "forced_march", "ambush", "out_of_fuel"):
        give(rules, s, 0, card)
    for card in ("fuel_depot", "fuel_depot", "fuel_depot", "supply_convoy", "supply_convoy", "low_clouds", "air_cover"):
        give(rules, s, 1, card)
    index = rules.t.card_index[0]
    s.phase, s.draw_queue = Phase.DRAW, (0, 1)
    rules.apply_chance(s, index["reserve_stocks"])  # Player A's draw
    assert s.phase == Phase.DRAW  # Player B draws too before anyone discards
    rules.apply_chance(s, index["hedgerow_assault"])  # Player B's draw
    assert [len(h) for h in s.hands] == [8, 8, 0, 0]
    assert s.phase == Phase.DISCARD and rules.to_act(s) == "Allied A"
    assert {Action.from_id(a).subject for a in rules.legal_actions(s)} == {
        "ace_of_tanks",
        "dug_in",
        "forced_march",
        "ambush",
        "out_of_fuel",
        "reserve_stocks",
    }
    refused(rules, s, "discard fuel_depot", "5.2")  # the partner's card
    rules.apply(s, "discard ambush")
    assert s.phase == Phase.DISCARD and rules.to_act(s) == "Allied B"
    assert "discard fuel_depot" in rules.legal_actions(s) and "discard ace_of_tanks" not in rules.legal_actions(s)
    rules.apply(s, "discard low_clouds")
    assert [len(h) for h in s.hands] == [7, 7, 0, 0]
    assert s.discard[0][index["ambush"]] == 1 and s.discard[0][index["low_clouds"]] == 1
    assert s.phase == Phase.ACTIONS and rules.to_act(s) == "Allied A"


def test_team_only_the_player_at_eight_discards() -> None:
    # Saint-Lo 10.2 Phase 2 with 5.2: the discard is for the player who holds 8, not his partner
    rules = rules4()
    s = bare(rules)
    for card in ("ace_of_tanks", "ace_of_tanks", "dug_in"):
        give(rules, s, 0, card)
    for card in ("fuel_depot", "fuel_depot", "fuel_depot", "supply_convoy", "supply_convoy", "low_clouds", "air_cover"):
        give(rules, s, 1, card)
    index = rules.t.card_index[0]
    s.phase, s.draw_queue = Phase.DRAW, (0, 1)
    rules.apply_chance(s, index["reserve_stocks"])
    rules.apply_chance(s, index["hedgerow_assault"])
    assert [len(h) for h in s.hands] == [4, 8, 0, 0]
    assert s.phase == Phase.DISCARD and rules.to_act(s) == "Allied B"
    rules.apply(s, "discard hedgerow_assault")
    assert [len(h) for h in s.hands] == [4, 7, 0, 0]
    assert s.phase == Phase.ACTIONS and rules.to_act(s) == "Allied A"


def test_team_reorganization_each_buys_and_swaps_his_own_with_shared_supplies() -> None:
    # Saint-Lo 10.2 Phase 4: "Any member of the team, or both, may take this action"; Phase 1: "Supplies gathered
    # can be used by both team members"; 10: a player may not use his partner's units (NOTES.md: A reorganizes,
    # then B; A buys and swaps infantry and aircraft, B artillery and tanks, and B buys the shared Supply units)
    rules = rules4()
    s = bare(rules, supplies=(14, 0))
    s.phase = Phase.REORGANIZE
    place(rules, s, "us_m5.1", "0303")  # A's, cost 4
    place(rules, s, "us_p51d.1", "0505")  # A's
    tank = place(rules, s, "us_m4a1_76w.1", "0603")  # B's, cost 15
    place(rules, s, "us_gmc_6x6.1", "1001")
    assert rules.to_act(s) == "Allied A"
    legal = rules.legal_actions(s)
    assert kind_types(rules, legal, "buy") == {"infantry", "aircraft"}
    assert {a for a in legal if a.startswith("swap ")} == {"swap us_m5.1", "swap us_p51d.1"}
    entry = next(Action.from_id(a).where for a in legal if a.startswith("buy us_infantry "))
    refused(rules, s, f"buy us_m2a1 {entry}", "10")
    refused(rules, s, "swap us_m4a1_76w.1", "own units", "10")
    rules.apply(s, "swap us_m5.1")
    assert s.supplies[0] == 16
    rules.apply(s, "end")
    assert s.phase == Phase.REORGANIZE and rules.to_act(s) == "Allied B"
    legal = rules.legal_actions(s)
    assert kind_types(rules, legal, "buy") == {"artillery", "tank", "supply"}
    assert {a for a in legal if a.startswith("swap ")} == {"swap us_m4a1_76w.1"}  # 8: never a Supply unit
    refused(rules, s, f"buy us_infantry {entry}", "10")
    refused(rules, s, "swap us_p51d.1", "own units", "10")
    assert rules.t.kinds[rules.t.kind_index["us_m4a3_76w"]].cost == 16  # affordable with A's swap only
    buy = next(a for a in legal if a.startswith("buy us_m4a3_76w "))
    rules.apply(s, buy)
    assert (
        s.supplies[0] == 0 and s.pos[rules.t.unit_index["us_m4a3_76w.1"]] == rules.t.hex_of[Action.from_id(buy).where]
    )
    rules.apply(s, "swap us_m4a1_76w.1")
    assert s.supplies[0] == 7 and s.pos[tank] == OFF  # half of 15 rounded down (with A's 4: half of 19 less 2)
    rules.apply(s, "end")
    assert s.active == 1 and s.phase == Phase.DRAW and s.supplies == [7, 0]


def test_team_player_b_calls_his_own_artillery_without_asking() -> None:
    # Saint-Lo 10.3: "The player not controlling Artillery (Player A) may call for artillery support from his
    # partner (Player B)": Player B's own attacks call his artillery directly (7.3), with no request to refuse
    rules = rules4()
    s = bare(rules, supplies=(5, 0))
    place(rules, s, "us_m4a1_76w.1", "0303")  # attack 4
    target = place(rules, s, "de_infantry.1", "0304")
    first = place(rules, s, "us_m2a1.1", "0603")
    second = place(rules, s, "us_m2a1.2", "0505")
    assert rules.to_act(s) == "Allied A" and rules.legal_actions(s) == ["end"]  # A has nothing to use
    rules.apply(s, "end")
    assert rules.to_act(s) == "Allied B"
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    assert s.phase == Phase.SUPPORT and rules.to_act(s) == "Allied B" and s.supplies[0] == 4
    rules.apply(s, "support us_m2a1.1")
    assert s.phase == Phase.SUPPORT and rules.to_act(s) == "Allied B"  # no SUPPORT_REPLY: nobody to ask
    assert s.supplies[0] == 3 and s.attack is not None and s.attack.supporters == (first,)
    legal = rules.legal_actions(s)
    assert "agree" not in legal and "refuse" not in legal
    assert legal[:2] == ["support us_m2a1.2", "fire"]
    rules.apply(s, "fire")
    assert rules.to_act(s) == CHANCE and dice(rules, s) == 4 + 1
    rules.apply_chance(s, 66666)
    rules.apply_chance(s, 1)
    assert s.pos[target] == OFF and s.supplies[0] == 3
    assert not s.used[first] and not s.used[second]
