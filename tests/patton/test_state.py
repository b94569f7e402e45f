"""Patton's state, actions, phases and event sink: the pieces the rules are built from.

A clone must copy every field (a field added to PattonState and left out of `clone` fails here); the
action ids round-trip through `Action`; the Sequence of Play declares every phase once, in the order of
the saved positions' phase keys; a silent sink changes nothing but the events returned; one reader of
a force ("2A3I") serves the ids and the command line; `legal_moves` is the one test of a move.
"""

from __future__ import annotations

import copy
import itertools
import random
from enum import IntEnum

import pytest
from random_play import random_steps

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE
from warroom.games.patton.actions import FIXED, Action, Casualty, Kind
from warroom.games.patton.board import SCENARIOS, mix_text, parse_mix
from warroom.games.patton.odds import PattonOdds
from warroom.games.patton.position import state_from_json, state_to_json
from warroom.games.patton.rules import DO, SEQUENCE_OF_PLAY, PattonRules
from warroom.games.patton.state import (
    CHANCE_PHASES,
    PHASE_KEYS,
    PHASES,
    RETREAT_BATTLE,
    Battle,
    Fight,
    PattonState,
    Phase,
    Retreat,
    Stack,
)

RULES = PattonRules()
IMMUTABLE = (bool, int, str, tuple, type(None))
"""Values a clone may share with its original: nothing can change them in place (Stack and Fight are tuples)."""


def busy_state() -> PattonState:
    """A Sicily position with every field holding something: a battle, a retreat, stacks, queues, lists."""
    m = warroom.new_game("patton", "sicily", seed=4, keep_log=False)
    for _ in random_steps(m, 4, limit=60):
        pass
    s = m.state.clone()
    b = s.board
    s.stacks = [Stack(0, 1, 2, 1, 0), Stack(2, b.n, 1, 0, 0)]
    s.battle = Battle(0, 0, RETREAT_BATTLE, bonus=2, from_town=1)
    s.battle.att_dice, s.battle.def_dice = [3, 4], [6]
    s.retreat = Retreat(1, 1, 3, forced=False)
    s.retreat.fight = Fight(2, 1, 1)
    s.reserve_dice, s.reserve_pending, s.stacking_queue = [2, 5], [1, 1], [3, 4]
    s.defection_used[0] = s.allied_end[1] = True
    s.relieved = s.held = s.advanced = True
    s.winner, s.reason, s.result_rule, s.legal = 1, "why", "rule", ("end",)
    return s


def _mutate(value: object) -> None:
    """Change a mutable value in place: lists (nested ones too), and the battle and retreat records."""
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            value[0].append(7)
        value.append(value[0] if value else 0)
    elif isinstance(value, Battle | Retreat):
        for slot in type(value).FIELDS:
            inner = getattr(value, slot)
            if isinstance(inner, list):
                inner.append(1)
            else:
                setattr(value, slot, _replaced(inner))
    else:
        raise AssertionError(f"no way to mutate {type(value).__name__}")


def _replaced(value: object) -> object:
    """Another value of the same type (a state compiled by mypyc refuses a field of another type)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, IntEnum):
        return next(member for member in type(value) if member != value)
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "!"
    if isinstance(value, tuple):
        return (*value, value[0]) if value else ()
    return value  # None: the only value its type surely allows here


def _snapshot(s: PattonState) -> dict[str, object]:
    return {slot: copy.deepcopy(getattr(s, slot)) for slot in PattonState.FIELDS if slot != "board"}


@pytest.mark.parametrize("slot", PattonState.FIELDS)
def test_clone_copies_every_field(slot: str) -> None:
    # every slot: equal in the clone; changing the clone's (in place, or by replacing it) leaves the original alone
    s = busy_state()
    before = _snapshot(s)
    twin = s.clone()
    value = getattr(twin, slot)  # an AttributeError here: a field clone() forgot
    assert value == getattr(s, slot) or slot in ("battle", "retreat")
    if slot == "board":
        assert value is s.board  # static data, shared by every state of the scenario
        return
    if isinstance(value, IMMUTABLE):
        setattr(twin, slot, _replaced(value))
    else:
        _mutate(value)
    assert _snapshot(s) == before, f"changing the clone's {slot} changed the original"


def test_battle_and_retreat_clones_copy_every_field() -> None:
    s = busy_state()
    for record in (s.battle, s.retreat):
        assert record is not None
        twin = record.clone()
        for slot in type(record).FIELDS:
            assert getattr(twin, slot) == getattr(record, slot)
        before = {slot: copy.deepcopy(getattr(record, slot)) for slot in type(record).FIELDS}
        _mutate(twin)
        assert {slot: getattr(record, slot) for slot in type(record).FIELDS} == before


def test_a_clone_plays_on_without_touching_the_original() -> None:
    m = warroom.new_game("patton", "normandy", seed=9, keep_log=False)
    for _ in random_steps(m, 9, limit=40):
        pass
    s = m.state
    before = state_to_json(s)
    twin = s.clone()
    rng = random.Random(1)
    for _ in range(200):
        if RULES.to_act(twin) is None:
            break
        if RULES.to_act(twin) == CHANCE:
            RULES.apply_chance(twin, rng.choice(RULES.chance_outcomes(twin))[0], False)
        else:
            RULES.apply(twin, rng.choice(RULES.legal_actions(twin)), False)
    assert state_to_json(s) == before


def test_the_legal_actions_cache_cannot_be_changed_through_what_legal_actions_returns() -> None:
    s = warroom.new_game("patton", "normandy", seed=1, keep_log=False).state
    legal = RULES.legal_actions(s)
    assert legal
    legal.clear()
    assert RULES.legal_actions(s) and s.clone().legal


# -- actions -----------------------------------------------------------------------------------------------
def test_every_action_id_round_trips() -> None:
    # like python-chess's Move.from_uci(m.uci()) == m: every id the table builds or a game offers
    seen = 0
    for scenario in SCENARIOS:
        m = warroom.new_game("patton", scenario, seed=2, keep_log=False)
        tab = RULES.table(m.state.board)
        for _ in random_steps(m, 2, limit=400):
            if m.over or RULES.to_act(m.state) == CHANCE:
                continue
            for text in m.legal_actions():
                act = tab.parse(text)
                assert act is not None and act.id == text and Action.from_id(text) == act
                assert Action.from_id(act.id) == act
                if act.kind not in (Kind.CASUALTIES, *FIXED.values()):
                    assert act.where >= 0
                seen += 1
    assert seen > 1000


@pytest.mark.parametrize(
    "text",
    [
        "move 2A1I Rennes->Laval",
        "land 1I Gela-Landing->Gela",
        "end",
        "battle Laval",
        "casualties Rennes:1I Vitre:1A",
        "retreat",
        "stand",
        "retreat 3A Laval->Mayenne",
        "roll reserves",
        "wait",
        "reserves Laval",
        "defect 1I Palermo",
        "defect 1A Palermo",
        "remove 1A1I Laval",
        "place 3A2I Lessay",
        "place default",
    ],
)
def test_each_form_reads_and_writes_back(text: str) -> None:
    act = Action.from_id(text)
    assert act.id == text and act.where == -1


def test_the_fields_name_what_the_rulebook_names() -> None:
    assert Action.from_id("move 2A1I Rennes->Laval") == Action(Kind.MOVE, 2, 1, "Rennes", "Laval")
    assert Action.from_id("casualties Rennes:1I Vitre:1A").casualties == (
        Casualty("Rennes", 0, 1),
        Casualty("Vitre", 1, 0),
    )
    assert Action.from_id("retreat").kind == Kind.TIE_RETREAT and Action.from_id("retreat 1I A->B").kind == Kind.RETREAT


@pytest.mark.parametrize(
    "text",
    [
        "",
        "march on Paris",
        "move 2X Rennes->Laval",
        "move 2A Rennes",
        "move 2A ->Laval",
        "defect 2I Palermo",
        "battle",
        "place 0A Lessay",
        "casualties Rennes:",
        7,
    ],
)
def test_malformed_ids_are_refused(text: str) -> None:
    with pytest.raises(IllegalActionError, match="not a Patton action"):
        Action.from_id(text)  # type: ignore[arg-type]
    s = RULES.initial_state("normandy")
    assert RULES.table(s.board).parse(text) is None  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        RULES.apply(s, text)  # type: ignore[arg-type]


def test_an_id_naming_a_town_off_the_board_parses_to_nothing() -> None:
    s = RULES.initial_state("normandy")
    assert RULES.table(s.board).parse("battle Messina") is None
    assert RULES.table(s.board).parse("move 1A Rennes->Messina") is None
    assert Action.from_id("battle Messina").place == "Messina"  # the form alone is fine


def test_every_kind_has_its_handler() -> None:
    assert set(DO) == set(Kind)


# -- one reader of a force -------------------------------------------------------------------------------
def test_one_force_reader_for_ids_and_the_command_line() -> None:
    for armor, infantry in itertools.product(range(6), range(6)):
        if armor + infantry:
            assert parse_mix(mix_text(armor, infantry)) == (armor, infantry)
    assert (
        parse_mix("0A") is None and parse_mix("2a1i") is None and parse_mix("2A 1I") is None and parse_mix("") is None
    )
    assert parse_mix(" 2a 3i ", typed=True) == (2, 3) and parse_mix("0A", typed=True) == (0, 0)
    assert parse_mix("I2", typed=True) is None and parse_mix(" ", typed=True) is None
    assert PattonOdds().parse_cli({"attacker": "2a 3I", "defender": "1A"})["attacker"] == {"armor": 2, "infantry": 3}


# -- the sequence of play -----------------------------------------------------------------------------------
def test_the_sequence_of_play_declares_every_phase_in_order() -> None:
    assert [rule.phase for rule in SEQUENCE_OF_PLAY] == list(Phase)
    assert [info.phase for info in PHASES] == list(Phase)[: len(PHASE_KEYS)]
    assert {rule.phase for rule in SEQUENCE_OF_PLAY if rule.roll is not None} == CHANCE_PHASES
    recorded = {info.phase for info in PHASES}
    for rule in SEQUENCE_OF_PLAY:
        if rule.phase not in recorded:  # a step the rules take on their own: never waits, never asks
            assert rule.step is not None and rule.roll is None


def test_phases_round_trip_through_saved_positions() -> None:
    m = warroom.new_game("patton", "bulge", seed=5, keep_log=False)
    for _ in random_steps(m, 5, limit=200):
        data = state_to_json(m.state)
        back = state_from_json(data, RULES.board)
        assert back.phase is m.state.phase and isinstance(back.phase, Phase)
        assert state_to_json(back) == data


# -- the event sink -----------------------------------------------------------------------------------------
def test_a_silent_game_is_the_same_game_without_its_events() -> None:
    loud = RULES.initial_state("sicily")
    quiet = loud.clone()
    rng = random.Random(3)
    told = 0
    while RULES.to_act(loud) is not None:
        if RULES.to_act(loud) == CHANCE:
            outcome = rng.choice(RULES.chance_outcomes(loud))[0]
            events, silent = RULES.apply_chance(loud, outcome), RULES.apply_chance(quiet, outcome, log=False)
        else:
            action = rng.choice(RULES.legal_actions(loud))
            events, silent = RULES.apply(loud, action), RULES.apply(quiet, action, log=False)
        assert silent == [] and state_to_json(loud) == state_to_json(quiet)
        told += len(events)
    assert told > 50 and SILENT.items == []


def test_a_recording_sink_keeps_each_event_with_its_rule() -> None:
    events = Events()
    events.emit("card", "Turn 1: card 5.", "Patton: The Movement Deck", card=5)
    SILENT.emit("card", "nobody hears this", "rule")
    assert events.items == [{"type": "card", "text": "Turn 1: card 5.", "rule": "Patton: The Movement Deck", "card": 5}]
    assert events.on and not SILENT.on and SILENT.items == []


# -- one test of a move ------------------------------------------------------------------------------------
def test_a_move_is_legal_exactly_when_legal_moves_offers_it() -> None:
    # every move id of the board with up to 5 Units: apply accepts it exactly when legal_actions lists it
    m = warroom.new_game("patton", "normandy", seed=6, keep_log=False)
    checked = 0
    for _ in random_steps(m, 6, limit=120):
        s = m.state
        if s.phase != Phase.MOVING:
            continue
        tab = RULES.table(s.board)
        legal = set(RULES.legal_actions(s))
        for d in range(0, len(tab.arrow), 7):
            for armor, infantry in ((1, 0), (0, 1), (2, 1), (5, 0)):
                text = Action(Kind.MOVE, armor, infantry, *tab.arrow[d].split("->")).id
                twin = s.clone()
                try:
                    RULES.apply(twin, text, log=False)
                    accepted = True
                except IllegalActionError as exc:
                    accepted = False
                    assert "Patton:" in str(exc)
                assert accepted == (text in legal), text
                checked += 1
    assert checked > 200
