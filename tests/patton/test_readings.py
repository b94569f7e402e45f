"""Patton rule readings settled in issue 12 (items 23-26): occupations held through the enemy turn,
the fighting retreat only for a forced retreat, Sicily's end, and ties neither side can throw in."""

from __future__ import annotations

from patton_positions import play, position, where
from patton_sandbox import sandbox_board, sandbox_state

from warroom.analysis.simulate import study_options
from warroom.games.patton.options import SIMULATION_TURN_LIMIT, option_specs
from warroom.games.patton.rules import PattonRules
from warroom.games.patton.state import CARD, DICE, MOVING, OVER, RETREATING, TIE

RULES = PattonRules()


def roll(s, *dice):
    for value in dice:
        assert s.phase == DICE, s.phase
        RULES.apply_chance(s, value)


# -- item 23: "holding it during the immediately following Axis turn" ---------------------------------
def _messina_emptied_then_reentered():
    """The issue's position: Allied 1A in Messina (held at the end of the Allied turn), 2I in Milazzo;
    the Axis attacks both. 6 against 6 empties Messina; the beaten 2I retreat from Milazzo into it."""
    units = {
        "Messina": ("Allied", 1, 0),
        "Milazzo": ("Allied", 0, 2),
        "Taormina": ("Axis", 1, 0),
        "Patti": ("Axis", 2, 0),
        "Enna": ("Axis", 0, 2),
    }
    s = position("sicily", units, mover="Axis")
    s.allied_end[s.board.town_index["Messina"]] = True
    s.allied_end[s.board.town_index["Milazzo"]] = True
    play(s, "move 1A Taormina->Messina", "move 2A Patti->Milazzo", "end", "battle Messina")
    roll(s, 6, 6)  # one casualty each: both Armored Units are gone, Messina is empty
    assert where(s, "Messina") == (None, 0, 0)
    roll(s, 5, 4, 3)  # Milazzo: 9 against 3, the 2 Infantry retreat along the one clear road, into Messina
    assert where(s, "Messina") == ("Allied", 0, 2) and where(s, "Milazzo") == ("Axis", 2, 0)
    return s


def test_sicily_messina_emptied_during_the_axis_turn_is_not_held():
    # Patton: Sicily — Objective: "occupying Messina and holding it during the immediately following
    # Axis turn". Its occupiers were wiped out during that turn; Units that retreat in later do not
    # make it held: no Allied victory (issue 12, item 23).
    s = _messina_emptied_then_reentered()
    play(s, 1, 2, 3)  # Axis reserve dice: no double
    assert s.phase != OVER and s.winner is None
    assert not s.allied_end[s.board.town_index["Messina"]] or s.mover == 0


def test_sicily_messina_held_through_the_axis_turn_still_wins():
    # Patton: Sicily — Objective: the Axis attack on Messina fails, so it was held throughout.
    units = {"Messina": ("Allied", 2, 0), "Taormina": ("Axis", 1, 0), "Enna": ("Axis", 0, 2)}
    s = position("sicily", units, mover="Axis")
    s.allied_end[s.board.town_index["Messina"]] = True
    play(s, "move 1A Taormina->Messina", "end")
    roll(s, 1, 4, 5)  # 1 against 9: the attacker falls back
    play(s, 1, 2, 3)
    assert s.phase == OVER and RULES.result(s).winner == "Allied"


def test_defection_town_lost_and_retaken_in_the_axis_turn_causes_no_defection():
    # Patton: Sicily — Italian Defection: "the Axis player can try to oust him in the immediately
    # following turn. If not successful ... remove as many Infantry Units as the number". Ousted (the
    # town emptied) counts as successful even if Allied Units retreat back in later that turn.
    units = {
        "Gela": ("Allied", 1, 0),
        "Vittoria": ("Allied", 0, 2),
        "Caltagirone": ("Axis", 1, 0),
        "Messina": ("Axis", 0, 2),
        "Enna": ("Axis", 0, 3),
    }
    s = position("sicily", units, mover="Axis")
    gela = s.board.town_index["Gela"]
    s.allied_end[gela] = True
    neighbours = {s.board.names[to] for _, _, to, _ in s.board.out[gela]}
    assert {"Caltagirone", "Vittoria"} <= neighbours
    play(s, "move 1A Caltagirone->Gela", "end")
    roll(s, 6, 6)  # both Armored Units lost: Gela is empty, the Axis ousted the Allies
    assert where(s, "Gela") == (None, 0, 0)
    s.side[gela], s.inf[gela] = 0, 1  # as if Allied Units had retreated in from another battle
    play(s, 1, 2, 3)
    assert not s.defection_used[gela] and s.eliminated[1] == [1, 0]


# -- item 24: the fighting retreat is for a defender "forced to retreat" --------------------------------
def _surrounded_tie(advanced: bool):
    """B (Axis 2A) attacked from A by 2A; its only other road leads to Allied-held C: a tie."""
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 2, 0), "B": ("Axis", 2, 0), "C": ("Allied", 0, 1)}, mp=5)
    s.advanced = advanced
    RULES.apply(s, "move 2A A->B")
    RULES.apply(s, "end")
    roll(s, 3, 4, 2, 5)  # 7 against 7
    assert s.phase == TIE
    return s


def test_voluntary_tie_retreat_gets_no_fighting_retreat():
    # Patton: Optional Retreating Rule — "A defending player who is forced to retreat may ... retreat
    # along a road towards a town that is occupied by enemy Units." Retreating by choice after a tie is
    # not forced: with no clear road the Units surrender (issue 12, item 24).
    s = _surrounded_tie(advanced=True)
    RULES.apply(s, "stand")
    RULES.apply(s, "retreat")
    assert s.phase != RETREATING and s.battle is None
    assert s.eliminated[1] == [2, 0] and s.board.side_names[s.side[s.board.town_index["B"]]] == "Allied"


def test_forced_retreat_still_gets_the_fighting_retreat():
    # Patton: Optional Retreating Rule — the beaten defender, surrounded, may fight towards C.
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 2, 0), "B": ("Axis", 2, 0), "C": ("Allied", 0, 1)}, mp=5)
    s.advanced = True
    RULES.apply(s, "move 2A A->B")
    RULES.apply(s, "end")
    roll(s, 5, 4, 2, 1)  # 9 against 3: forced
    assert s.battle is not None and s.battle.target == s.board.town_index["C"] and s.battle.bonus == 2


# -- item 26: a tie neither side can throw in ----------------------------------------------------------
def _lone_infantry_tie():
    board = sandbox_board(["A", "B", "C"], [("A", "B", "solid"), ("B", "C", "solid")])
    s = sandbox_state(board, {"A": ("Allied", 0, 2), "B": ("Axis", 0, 1)}, mp=5)
    RULES.apply(s, "move 1I A->B")
    RULES.apply(s, "end")
    return s


def test_tie_without_dice_asks_the_attacker_first():
    # Patton: Retreating — "In case of a tie, either player may choose to retreat voluntarily": a lone
    # Infantry Unit against a lone Infantry Unit is a 0-0 tie, and the attacker is asked first.
    s = _lone_infantry_tie()
    assert s.phase == TIE and RULES.to_act(s) == "Allied" and RULES.legal_actions(s) == ["retreat", "stand"]
    RULES.apply(s, "retreat")
    assert s.phase == MOVING or s.phase == CARD or s.battle is None
    assert where_sandbox(s, "A") == ("Allied", 0, 2) and where_sandbox(s, "B") == ("Axis", 0, 1)


def test_tie_without_dice_the_defender_may_retreat():
    # Patton: Retreating — "either player may choose to retreat voluntarily": the attacker stands, the
    # defender chooses to retreat; the attacker enters.
    s = _lone_infantry_tie()
    RULES.apply(s, "stand")
    assert s.phase == TIE and RULES.to_act(s) == "Axis" and RULES.legal_actions(s) == ["retreat", "stand"]
    RULES.apply(s, "retreat")
    assert where_sandbox(s, "B") == ("Allied", 0, 1) and where_sandbox(s, "C") == ("Axis", 0, 1)


def test_tie_without_dice_both_stand_the_attacker_falls_back():
    # Patton: Retreating — "if neither player will retreat the battle is refought": with no dice on
    # either side a refight is the same tie for ever, so when both stand the attacker, who has not won
    # the town, falls back (NOTES.md).
    s = _lone_infantry_tie()
    RULES.apply(s, "stand")
    RULES.apply(s, "stand")
    assert s.battle is None
    assert where_sandbox(s, "A") == ("Allied", 0, 2) and where_sandbox(s, "B") == ("Axis", 0, 1)


def where_sandbox(s, town):
    t = s.board.town_index[town]
    return (s.board.side_names[s.side[t]] if s.side[t] >= 0 else None, s.armor[t], s.inf[t])


# -- item 25: Sicily plays until an objective is decided -------------------------------------------------
def test_sicily_has_no_turn_limit_by_default():
    # Patton: Sicily — Duration of Game: "The 'Game Ends' card is not used ... The game continues until
    # one player has achieved his objective." The option turn_limit exists for studies, off by default.
    s = RULES.initial_state("sicily", {})
    assert s.turn_limit == 0 and RULES.state_to_json(s)["options"]["turn_limit"] is None
    spec = next(spec for spec in option_specs() if spec["key"] == "turn_limit")
    assert spec["default"] is None and spec["simulate"] == SIMULATION_TURN_LIMIT
    assert RULES.initial_state("sicily", {"turn_limit": 20}).turn_limit == 20
    assert RULES.initial_state("sicily", {"turn_limit": 0}).turn_limit == 0
    # a study must end: simulate plays Sicily with the studies' limit unless told otherwise
    assert study_options("patton", "sicily", {}) == {"turn_limit": SIMULATION_TURN_LIMIT}
    assert study_options("patton", "sicily", {"turn_limit": 0}) == {"turn_limit": 0}
    assert study_options("patton", "normandy", {}) == {}


def test_sicily_axis_wins_when_the_allies_can_throw_no_die_and_the_axis_holds_messina():
    # Patton: Sicily — Objective: "The Axis player wins by reducing the Allied forces to such an extent
    # that it becomes impossible to take Messina". One Allied Infantry Unit in all throws no die
    # (Battles): it can never beat the Axis total nor inflict a casualty, so Messina is out of reach.
    s = position("sicily", {"Gela": ("Allied", 0, 1), "Messina": ("Axis", 0, 1)}, mover="Allied")
    play(s, "end")
    result = RULES.result(s)
    assert s.phase == OVER and result.winner == "Axis" and "single Infantry Unit" in result.reason
    assert result.rule == "Patton: Sicily — Objective"


def test_sicily_goes_on_while_messina_can_still_be_taken():
    # Patton: Sicily — Objective, read conservatively: a die to throw, or Messina not held by the Axis,
    # and the game goes on (an Armored Unit; two Infantry Units; one Infantry Unit and an empty Messina).
    for units in (
        {"Gela": ("Allied", 1, 0), "Messina": ("Axis", 5, 5)},
        {"Gela": ("Allied", 0, 2), "Messina": ("Axis", 5, 5)},
        {"Gela": ("Allied", 0, 1), "Enna": ("Axis", 3, 3)},
    ):
        s = position("sicily", units, mover="Allied", turn=40)
        play(s, "end")
        assert s.phase != OVER, units
