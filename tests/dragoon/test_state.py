"""Dragoon's state, actions, phases and event sink: the pieces the rules are built from.

A clone must copy every field (a field added to DragoonState and left out of `clone` fails here); the
action ids round-trip through `Action`; the Sequence of Play declares every phase once, in the order of
the saved positions' phase keys; a silent sink changes nothing but the events returned.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from types import MappingProxyType

import pytest
from dragoon_positions import position, rules
from random_play import random_steps

import warroom
from warroom.engine.errors import IllegalActionError
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE
from warroom.games.dragoon.actions import Action
from warroom.games.dragoon.advance import NEVER_ENTERED, NOT_BEFORE_198, advance_restriction, may_advance_into
from warroom.games.dragoon.options import parse_options
from warroom.games.dragoon.rules import SEQUENCE_OF_PLAY
from warroom.games.dragoon.state import (
    ELIMINATED,
    PANZER_HELD,
    PHASE_KEYS,
    PHASE_NAMES,
    AlliedAttack,
    BotAttack,
    DragoonState,
    Phase,
)

IMMUTABLE = (bool, int, str, tuple, type(None), MappingProxyType)
"""Values a clone may share with its original: nothing can change them in place."""


def busy_state() -> DragoonState:
    """A position with every field holding something: units on the map, records pending, boxes filled."""
    ruleset = rules()
    m = warroom.new_game("dragoon", seed=3, keep_log=False)
    for _ in random_steps(m, 3, limit=25):
        pass
    s = ruleset.clone(m.state)
    s.attack = AlliedAttack(0, 1, 2, 3, -1, True, False, 4)
    s.bot_attack = BotAttack(1, 0, True, 5)
    s.bot_queue = [2, 3]
    s.captured = {**s.captured, 0: 16}
    gone = next(g for g, loc in enumerate(s.german_loc) if loc != ELIMINATED and not ruleset.board.never_eliminated[g])
    s.german_loc[gone] = ELIMINATED
    s.eliminated = {**s.eliminated, gone: 17}
    s.air_used = s.air_grounded = s.bad_weather_next = s.vi_corps_in_crest = s.entered_198 = True
    s.panzer_mode, s.bot_roll, s.rp = PANZER_HELD, 3, 2
    s.options = parse_options({"panzer_counterattack": "stall_only"})
    s.legal = ("end",)
    return s


def _mutate(value: object) -> object:
    """Change a mutable value in place (returns it); an immutable one is returned as it is."""
    if isinstance(value, list):
        value.append(value[0] if value else 0)
        if len(value) > 1:
            value[0] = not value[0] if isinstance(value[0], bool) else -99
    elif isinstance(value, dict):
        value[-99] = -99
    else:
        assert isinstance(value, IMMUTABLE), f"{type(value).__name__}: neither copied nor immutable (see clone)"
    return value


def test_clone_copies_every_field() -> None:
    # Kernel (STYLE.md: cheap clones): every slot is a declared field, set by clone to an equal value, and
    # changing the clone's value in place leaves the original as it was
    fields = [f.name for f in dataclasses.fields(DragoonState)]
    slots = getattr(DragoonState, "__slots__", None)  # a class compiled by mypyc (compile.toml) keeps none
    assert slots is None or set(fields) == set(slots)
    original = busy_state()
    for name in fields:
        before = repr(getattr(original, name))
        twin = original.clone()
        assert repr(getattr(twin, name)) == before, f"clone does not copy {name}"
        _mutate(getattr(twin, name))
        assert repr(getattr(original, name)) == before, f"changing the clone's {name} changed the original"
    assert repr(copy.deepcopy(original)) == repr(original)


NOT_SAVED = {"legal"}
"""Fields a saved position leaves out: the legal-action cache, rebuilt on demand."""


def test_a_saved_position_keeps_every_field() -> None:
    # Kernel (like a chess FEN): every field but the cache survives state -> JSON -> state, so a field
    # added to DragoonState and left out of position.py fails here
    ruleset = rules()
    original = busy_state()
    back = ruleset.state_from_json(json.loads(json.dumps(ruleset.state_to_json(original))))
    names = {f.name for f in dataclasses.fields(DragoonState)} - NOT_SAVED
    blank = DragoonState()
    for name in sorted(names):
        assert getattr(original, name) != getattr(blank, name), f"busy_state leaves {name} as a blank state has it"
        assert getattr(back, name) == getattr(original, name), f"a saved position loses {name}"
    assert back.legal is None


def test_a_clone_plays_on_without_touching_its_original() -> None:
    ruleset = rules()
    m = warroom.new_game("dragoon", seed=9, keep_log=False)
    rng = random.Random(9)
    for _ in random_steps(m, 9, limit=30):
        s = m.state
        before = json.dumps(ruleset.state_to_json(s))
        twin = ruleset.clone(s)
        for _ in range(40):
            side = ruleset.to_act(twin)
            if side is None:
                break
            if side == CHANCE:
                ruleset.apply_chance(twin, rng.randint(1, 6), False)
            else:
                ruleset.apply(twin, rng.choice(ruleset.legal_actions(twin)), False)
        assert json.dumps(ruleset.state_to_json(s)) == before


def test_the_records_and_options_cannot_be_changed_in_place() -> None:
    s = busy_state()
    assert s.attack is not None and s.bot_attack is not None
    with pytest.raises(TypeError):
        s.options["panzer_counterattack"] = "stall_only"  # type: ignore[index]
    with pytest.raises(AttributeError):
        s.attack.roll = 6  # type: ignore[misc]
    assert s.attack._replace(roll=6).roll == 6 and s.attack.roll == 4
    assert (s.bot_attack.attacker, s.bot_attack.target, s.bot_attack.rerolled, s.bot_attack.roll) == (1, 0, True, 5)


def test_every_action_id_reads_back_as_the_same_action() -> None:
    # Kernel (STYLE.md: python-chess's Move.from_uci(m.uci()) == m): ids round-trip through Action
    ruleset = rules()
    for text, action in ruleset.actions.items():
        assert Action.from_id(text) == action and action.id == text
    assert Action.from_id("attack 3rd-ID Aix->Salon +air") == Action("attack", "3rd-ID", "Aix", "Salon", air=True)
    assert Action.from_id("reroll ffi").kind == "reroll" and Action.from_id("end").unit == ""
    for bad in (
        "",
        "march on Paris",
        "attack 3rd-ID Aix",
        "attack 3rd-ID Aix->Salon air",
        "end now",
        "reroll",
        "ffi",
        "invade 3rd-ID",
        "attack 3rd-ID ->Salon",
    ):
        with pytest.raises(IllegalActionError, match="not a Dragoon action"):
            Action.from_id(bad)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Action.from_id("end").kind = "accept"  # type: ignore[misc]


def test_the_sequence_of_play_declares_every_phase_in_order() -> None:
    # Dragoon: Sequence of Play Each Turn — one entry per phase; dice phases roll, decision phases decide
    assert [step.phase for step in SEQUENCE_OF_PLAY] == list(Phase)
    keys = ("rp_roll", "actions", "attack_roll", "attack_reroll", "bot_roll", "bot_attack_roll", "bot_reroll", "over")
    assert keys == PHASE_KEYS  # the saved positions' phase names
    assert PHASE_NAMES[Phase.ACTIONS] == "Allied Actions" and PHASE_NAMES[Phase.BOT_ROLL] == "German BOT Actions"
    for step in SEQUENCE_OF_PLAY:
        if step.actor == CHANCE:
            assert step.roll is not None and step.decide is None
        elif step.actor is None:
            assert step.phase == Phase.OVER and step.roll is None and step.decide is None
        else:
            assert step.decide is not None and step.roll is None
    ruleset = rules()
    m = warroom.new_game("dragoon", seed=4, keep_log=False)
    for _ in random_steps(m, 4):
        assert ruleset.to_act(m.state) == SEQUENCE_OF_PLAY[m.state.phase].actor
        assert isinstance(m.state.phase, Phase)


def test_a_silent_sink_changes_only_the_events_returned() -> None:
    # the event sink replaces the log flag: log=False plays exactly as log=True, and keeps nothing
    ruleset = rules()
    loud, quiet = ruleset.initial_state(), ruleset.initial_state()
    rng = random.Random(12)
    told = 0
    while (side := ruleset.to_act(loud)) is not None:
        if side == CHANCE:
            roll = rng.randint(1, 6)
            events, silent = ruleset.apply_chance(loud, roll), ruleset.apply_chance(quiet, roll, False)
        else:
            action = rng.choice(ruleset.legal_actions(loud))
            events, silent = ruleset.apply(loud, action), ruleset.apply(quiet, action, False)
        assert silent == [] and all({"type", "text", "rule"} <= set(e) for e in events)
        told += len(events)
        assert ruleset.state_to_json(loud) == ruleset.state_to_json(quiet)
    assert told > 50 and SILENT.items == [] and not SILENT.on
    sink = Events()
    sink.emit("die", "Roll 3.", "Dragoon: Resolving Unit Attacks", roll=3)
    assert sink.items == [{"type": "die", "text": "Roll 3.", "rule": "Dragoon: Resolving Unit Attacks", "roll": 3}]


def test_may_advance_into_is_the_one_rule_the_legal_attacks_follow() -> None:
    # Dragoon: Allied Advance/German Retreat Restrictions — Montelimar never; Avignon not before the 198th ID
    ruleset = rules()
    b = ruleset.board
    m = warroom.new_game("dragoon", seed=21, keep_log=False)
    checked = 0
    for _ in random_steps(m, 21):
        s = m.state
        if s.phase != Phase.ACTIONS or s.rp <= 0:
            continue
        legal = set(ruleset.legal_actions(s))
        for i, p in enumerate(s.allied_pos):
            target = ruleset.target_of(s, i)
            if p < 0 or s.stalled[i] or s.spent[i] or target < 0 or target in s.german_loc:
                continue
            assert (ruleset.attack_id[i][p][0] in legal) == may_advance_into(ruleset, s, i, target)
            checked += 1
    assert checked > 10
    s = rules().state_from_json(position(allied={"3rd-ID": {"location": "Orgon"}}, german={}))
    us3 = b.allied_index["3rd-ID"]
    assert advance_restriction(ruleset, s, us3, b.avignon) == NOT_BEFORE_198
    s.entered_198 = True
    assert advance_restriction(ruleset, s, us3, b.avignon) is None
    vi = b.vi_corps
    assert advance_restriction(ruleset, s, vi, b.attack_only[vi]) == NEVER_ENTERED
