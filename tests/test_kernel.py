"""The engine kernel: determinism, records, saves, undo, dice sources, positions and action ids.

Driven through Dragoon, the one game every build has; nothing here depends on its rules beyond
"the game runs", so a failure points at the kernel (match.py, record.py, dice.py, position.py).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from dragoon_positions import game, position, quiet_bot_roll, rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_play import random_steps

import warroom
from warroom import IllegalActionError, Match, PositionError, RecordError, UndoLockedError, WarroomError
from warroom.engine.dice import DiceSource
from warroom.engine.errors import GameOverError, WrongSideError
from warroom.engine.match import NO_HOOKS, MatchHooks
from warroom.engine.observe import visible_events
from warroom.engine.ruleset import DICE_SIDE, GameInfo
from warroom.engine.spec import GameSpec
from warroom.games import REGISTRY, get_ruleset, get_spec
from warroom.games.dragoon.state import ACTIONS

D6 = [(face, 1 / 6) for face in range(1, 7)]


def play_random(m: Match, policy_seed: int, steps: int | None = None) -> list[dict[str, Any]]:
    """Play random legal actions; return each step's action, events and full view."""
    return [
        {"action": action, "events": events, "view": m.view()} for action, events in random_steps(m, policy_seed, steps)
    ]


# -- determinism ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_same_seed_and_actions_give_identical_games(seed: int) -> None:
    # Kernel: same seed + same action ids => identical states, events and results.
    first = warroom.new_game("dragoon", seed=seed)
    trace = play_random(first, policy_seed=seed)
    second = warroom.new_game("dragoon", seed=seed)
    for step in trace:
        assert second.play(step["action"]) == step["events"]
        assert second.view() == step["view"]
    assert second.result == first.result and second.log == first.log
    assert first.over and first.result is not None


@pytest.mark.parametrize(("seed", "steps"), [(3, 0), (3, 5), (11, 17), (12, 40), (13, None)])
def test_record_then_load_is_identical(seed: int, steps: int | None, tmp_path: Path) -> None:
    # Kernel: record -> load -> identical views and logs, and the same dice from there on.
    m = warroom.new_game("dragoon", seed=seed)
    play_random(m, policy_seed=seed, steps=steps)
    path = tmp_path / "game.json"
    warroom.save(m, path)
    for loaded in (warroom.load(m.record()), warroom.load(m.record().to_json()), warroom.load(path)):
        assert loaded.view() == m.view()
        assert loaded.log == m.log
        assert loaded.record().to_json() == m.record().to_json()
        twin = m.clone()
        assert play_random(loaded, policy_seed=99) == play_random(twin, policy_seed=99)
        assert loaded.result == twin.result


def test_record_of_a_position_that_starts_at_a_die_roll() -> None:
    # Kernel: a position may start at a chance node; its rolls are logged and replayed like any other.
    pos = position(
        phase="bot_roll", allied={"3rd-ID": {"location": "Salon", "stalled": True}}, german={"338-ID": "Orgon"}
    )
    m = game(pos, seed=5)
    assert m.log and m.log[0]["type"] == "bot"
    loaded = warroom.load(m.record().to_json())
    assert loaded.log == m.log and loaded.view() == m.view()


def test_loaded_game_may_undo_what_the_original_could() -> None:
    # Kernel: undo goes back to the last die roll; a save in between changes nothing.
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix"}}), seed=2)
    m.play("ffi 3rd-ID")
    loaded = warroom.load(m.record())
    assert loaded.can_undo and loaded.view() == m.view()
    loaded.undo()
    m.undo()
    assert loaded.view() == m.view()


# -- saves ------------------------------------------------------------------------------------
def test_save_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Kernel: a failing write leaves the old save intact and no temporary file behind.
    path = tmp_path / "game.json"
    m = warroom.new_game("dragoon", seed=4)
    warroom.save(m, path)
    before = path.read_bytes()
    play_random(m, policy_seed=4, steps=6)

    def broken_dump(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(json, "dump", broken_dump)
    with pytest.raises(OSError, match="disk full"):
        warroom.save(m, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    monkeypatch.undo()
    warroom.save(m, path)
    assert warroom.load(path).view() == m.view()


def record_json(**changes: Any) -> dict[str, Any]:
    m = warroom.new_game("dragoon", seed=8)
    play_random(m, policy_seed=8, steps=6)
    data = m.record().to_json()
    data.update(changes)
    return data


def test_damaged_file_names_where(tmp_path: Path) -> None:
    # Kernel: a damaged save gives a RecordError naming the file and where it breaks.
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(record_json(), indent=1)[:200], encoding="utf-8")
    with pytest.raises(RecordError, match=r"damaged\.json is damaged: invalid JSON at line \d+ column \d+"):
        warroom.load(path)
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(RecordError, match="not a text file"):
        warroom.load(path)
    with pytest.raises(RecordError, match="cannot read"):
        warroom.load(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"hello": "world"}, "not a warroom record"),
        ([1, 2, 3], "must be a JSON object"),
        ({**record_json(), "version": 99}, "record format version 99 is not supported"),
        ({**record_json(), "actions": "end"}, "'actions' must be a list"),
        ({**record_json(), "dice": [1, "2"]}, "'dice' must be a list of integers"),
    ],
)
def test_foreign_or_unknown_record_names_the_field(data: Any, message: str, tmp_path: Path) -> None:
    # Kernel: foreign JSON or an unknown format version is a RecordError saying what is wrong.
    path = tmp_path / "foreign.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match=message):
        warroom.load(path)
    if isinstance(data, dict):
        with pytest.raises(RecordError, match=message):
            warroom.load(data)


def test_record_for_an_unknown_game_or_dice_mode() -> None:
    # Kernel: the header must name a known game, scenario and dice source.
    data = record_json()
    with pytest.raises(RecordError, match="unknown game"):
        warroom.load({**data, "header": {**data["header"], "game": "chess"}})
    with pytest.raises(RecordError, match="cannot start a game"):
        warroom.load({**data, "header": {**data["header"], "scenario": "bulge"}})
    with pytest.raises(RecordError, match="'dice'"):
        warroom.load({**data, "header": {**data["header"], "dice": "loaded"}})


def test_illegal_action_in_record_names_it() -> None:
    # Kernel: an action the rules refuse on replay names its number, its id and the rule.
    data = record_json()
    data["actions"][2] = "attack VI-Corps Crest->Montelimar"
    with pytest.raises(RecordError, match=r"action 3 of the record \('attack VI-Corps Crest->Montelimar'\) is illegal"):
        warroom.load(data)


def test_bad_or_unused_dice_in_record_are_refused() -> None:
    # Kernel: a die the roll cannot show, or dice the game never rolled, mean a damaged record.
    data = record_json()
    bad = {**data, "dice": [9, *data["dice"][1:]]}
    with pytest.raises(RecordError, match="die 1 of the record is 9"):
        warroom.load(bad)
    extra = {**data, "dice": [*data["dice"], 3, 3]}
    with pytest.raises(RecordError, match="2 die roll"):
        warroom.load(extra)
    script = [6, 6, 6]
    m = warroom.new_game("dragoon", dice=script, seed=8)
    play_random(m, policy_seed=8, steps=6)
    scripted = m.record().to_json()
    assert scripted["header"]["dice"] == script
    scripted["dice"][1] = 2
    with pytest.raises(RecordError, match="die 2 of the record is 2, but the record's scripted dice say 6"):
        warroom.load(scripted)


def test_record_with_actions_after_the_end_is_refused() -> None:
    # Kernel: actions the game never asked for are not silently dropped.
    m = warroom.new_game("dragoon", seed=21)
    play_random(m, policy_seed=21)
    data = m.record().to_json()
    data["actions"].append("end")
    with pytest.raises(RecordError, match="after the game ended"):
        warroom.load(data)


# -- undo -------------------------------------------------------------------------------------
def test_undo_restores_exactly_and_never_crosses_a_roll() -> None:
    # Kernel: undo takes back decisions back to the last chance outcome, never past one.
    m = game(
        position(rp=3, allied={"3rd-ID": {"location": "Aix", "stalled": True}}, german={"338-ID": "Salon"}), dice=[5]
    )
    start = m.view()
    assert not m.can_undo
    with pytest.raises(UndoLockedError):
        m.undo()
    m.play("ffi 3rd-ID")
    after_ffi, log_after_ffi = m.view(), list(m.log)
    m.play("activate 3rd-ID")
    assert m.can_undo
    m.undo()
    assert m.view() == after_ffi and m.log == log_after_ffi
    m.undo()
    assert m.view() == start and m.log == []
    m.play("activate 3rd-ID")
    m.play("attack 3rd-ID Aix->Salon")  # rolls the die
    assert not m.can_undo
    with pytest.raises(UndoLockedError, match="never goes back past a roll"):
        m.undo()


def test_undo_with_manual_dice_stops_at_an_entered_roll() -> None:
    # Kernel: with manual dice, once the die is typed in it has been seen: undo stops there.
    m = warroom.new_game(
        "dragoon",
        position=position(rp=3, allied={"3rd-ID": {"location": "Aix"}}, german={"338-ID": "Salon"}),
        dice="manual",
        seed=1,
    )
    m.play("attack 3rd-ID Aix->Salon")
    assert m.to_act == DICE_SIDE
    m.play("roll 2")
    assert not m.can_undo


# -- dice sources -----------------------------------------------------------------------------
def test_manual_dice_are_decisions_of_the_dice_side() -> None:
    # Kernel: manual dice turn chance nodes into decisions of the side "dice" (the table assistant).
    m = warroom.new_game(
        "dragoon",
        position=position(rp=3, allied={"3rd-ID": {"location": "Aix"}}, german={"338-ID": "Salon"}),
        dice="manual",
        seed=1,
    )
    m.play("attack 3rd-ID Aix->Salon")
    assert m.to_act == DICE_SIDE
    assert m.legal_actions() == [f"roll {n}" for n in range(1, 7)]
    assert m.view()["phase"] == "Allied Actions: attack roll"
    before = m.view()
    for bad in ("roll 0", "roll 7", "roll -1", "roll x", "roll", "end", "roll 3 4"):
        with pytest.raises(IllegalActionError):
            m.play(bad)
        assert m.view() == before
    with pytest.raises(WrongSideError):
        m.play("roll 3", side="Allied")
    m.play("roll 3", side=DICE_SIDE)
    assert m.view()["state"]["allied"]["3rd-ID"]["location"] == "Salon"
    assert warroom.load(m.record().to_json()).view() == m.view()


def test_scripted_dice_then_the_seed_continues() -> None:
    # Kernel: scripted dice take the next value each roll; when they run out the seeded RNG continues.
    script = [6, 6, 1, 2]
    m = warroom.new_game("dragoon", dice=script, seed=33)
    play_random(m, policy_seed=33, steps=30)
    rolled = m.dice_rolled
    assert rolled[: len(script)] == script
    seeded = DiceSource(33)
    assert rolled[len(script) :] == [seeded.roll(D6) for _ in rolled[len(script) :]]


def test_a_seed_gives_the_same_dice_whether_the_faces_come_as_a_list_or_a_shared_tuple() -> None:
    # Kernel: an equally likely die is one uniform draw (what `skip` replays on load); other odds are weighted
    reference = random.Random(7)
    expected = [int(reference.random() * 6) + 1 for _ in range(200)]
    shared, weighted = tuple(D6), ((1, 0.5), (2, 0.25), (3, 0.25))
    dice = DiceSource(7)
    assert [dice.roll(shared) for _ in range(100)] + [dice.roll(list(D6)) for _ in range(100)] == expected
    reference, dice = random.Random(8), DiceSource(8)
    assert [dice.roll(weighted) for _ in range(50)] == [
        reference.choices([1, 2, 3], weights=[0.5, 0.25, 0.25])[0] for _ in range(50)
    ]


def test_a_list_of_outcomes_changed_in_place_is_weighed_again() -> None:
    # Kernel: only immutable tuples have their "all equally likely" check remembered
    faces = [(1, 0.5), (2, 0.5)]
    dice = DiceSource(1)
    dice.roll(faces)
    faces[:] = [(1, 0.0), (2, 1.0)]
    assert {dice.roll(faces) for _ in range(50)} == {2}


def _only_the_sides_own(ruleset: Any, evs: Sequence[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == side]


HIDES = GameSpec(id="hides", ruleset=rules, observe_events=_only_the_sides_own)
"""A game whose spec declares its own event filter (Dragoon's rules under another id)."""


def test_visible_events_follow_the_specs_filter_or_each_events_visible_to(monkeypatch: pytest.MonkeyPatch) -> None:
    # Kernel: one observation rule for the protocol and the web server (hidden information)
    events = [
        {"type": "a"},
        {"type": "b", "visible_to": "X"},
        {"type": "c", "visible_to": ["X", "Y"]},
        {"type": "d", "visible_to": ("Y",)},
    ]
    dragoon = rules()  # declares no filter of its own: each event's visible_to decides
    assert [e["type"] for e in visible_events(dragoon, events, "X")] == ["a", "b", "c"]
    assert [e["type"] for e in visible_events(dragoon, events, "Y")] == ["a", "c", "d"]
    assert [e["type"] for e in visible_events(dragoon, events, "Z")] == ["a"]

    class Hiding:
        info = GameInfo("hides", "Hides", ("s",), ("X",))

    monkeypatch.setitem(REGISTRY, "hides", f"{__name__}:HIDES")
    get_spec.cache_clear()
    try:
        assert visible_events(Hiding(), events, "b") == [events[1]]  # type: ignore[arg-type]
    finally:
        get_spec.cache_clear()


@pytest.mark.parametrize("stop", [1, 3, 12])
def test_scripted_dice_survive_save_and_load(stop: int) -> None:
    # Kernel: a saved game with scripted dice goes on with the rest of the script, then the seed.
    script = [6, 6, 6, 2, 5, 1, 4]
    m = warroom.new_game("dragoon", dice=script, seed=34)
    play_random(m, policy_seed=34, steps=stop)
    loaded = warroom.load(m.record().to_json())
    assert loaded.view() == m.view()
    assert play_random(loaded, policy_seed=7) == play_random(m, policy_seed=7)


def test_bad_scripted_die_changes_nothing() -> None:
    # Kernel: a scripted value the die cannot show is refused and the decision is not applied.
    m = game(position(rp=3, allied={"3rd-ID": {"location": "Aix"}}, german={"338-ID": "Salon"}), dice=[9])
    before = m.view()
    with pytest.raises(WarroomError, match="scripted die 1 is 9"):
        m.play("attack 3rd-ID Aix->Salon")
    assert m.view() == before and m.actions == [] and m.dice_rolled == []


def test_clone_is_independent_and_rolls_the_same_dice() -> None:
    # Kernel: Match.clone is a separate game with the same dice to come (for search).
    m = warroom.new_game("dragoon", seed=40)
    play_random(m, policy_seed=40, steps=8)
    twin = m.clone()
    view = m.view()
    trace = play_random(twin, policy_seed=5, steps=10)
    assert m.view() == view
    assert play_random(m, policy_seed=5, steps=10) == trace


def test_who_acts_is_read_again_after_every_change_of_the_state() -> None:
    # Kernel: the match remembers who acts between changes (a playout asks several times a decision); a
    # refused play, an undo, a clone and a state put in from outside are each read afresh
    m = warroom.new_game("dragoon", seed=41)
    play_random(m, policy_seed=41, steps=6)
    rs = m.ruleset
    assert m.to_act == rs.to_act(m.state) and not m.over
    with pytest.raises(IllegalActionError):
        m.play("no such action")
    assert m.to_act == rs.to_act(m.state)
    before = rs.clone(m.state)
    m.play(m.legal_actions()[0])
    assert m.to_act == rs.to_act(m.state)
    if m.can_undo:
        m.undo()
        assert m.to_act == rs.to_act(m.state)
    twin = m.clone()
    assert twin.to_act == m.to_act and twin.legal_actions() == m.legal_actions()
    m.state = before  # a state from elsewhere: not the one remembered
    assert m.to_act == rs.to_act(before) and m.legal_actions() == rs.legal_actions(before)
    ended = warroom.new_game("dragoon", seed=42, keep_log=False)
    play_random(ended, policy_seed=42, steps=10_000)
    assert ended.over and ended.to_act is None and ended.legal_actions() == []


# -- actions ----------------------------------------------------------------------------------
def random_states(games: int, seed: int) -> list[Any]:
    """Every state met in `games` random games (omniscient states, for the ruleset directly)."""
    ruleset = rules()
    states = []
    for k in range(games):
        m = warroom.new_game("dragoon", seed=seed + k, keep_log=False)
        states.append(ruleset.clone(m.state))
        states.extend(ruleset.clone(m.state) for _ in random_steps(m, seed + k))
    return states


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), manual=st.booleans())
def test_position_json_round_trips(seed: int, manual: bool) -> None:
    # Kernel: state -> JSON -> state -> JSON is identical, and the rebuilt state plays the same.
    ruleset = rules()
    m = warroom.new_game("dragoon", seed=seed, dice="manual" if manual else "auto", keep_log=False)
    for _ in itertools.chain([None], random_steps(m, seed)):  # the start, then after each decision
        data = ruleset.state_to_json(m.state)
        rebuilt = ruleset.state_from_json(json.loads(json.dumps(data)))
        assert ruleset.state_to_json(rebuilt) == data
        assert ruleset.legal_actions(rebuilt) == ruleset.legal_actions(m.state)
        assert ruleset.to_act(rebuilt) == ruleset.to_act(m.state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turn": 30}, "turn must be an integer from 15 to 29"),
        ({"phase": "lunch"}, "phase 'lunch' is not one of"),
        ({"phase": "attack_roll"}, "needs a pending 'attack'"),
        ({"allied": {"Patton": {"location": "Aix"}}}, "unknown Allied unit 'Patton'"),
        ({"allied": {"3rd-ID": {"location": "Toulon"}}}, "3rd-ID cannot be at 'Toulon'"),
        (
            {"allied": {"3rd-ID": {"location": "Salon"}}, "german": {"338-ID": {"location": "Salon"}}},
            "3rd-ID shares Salon with a German unit",
        ),
        (
            {"german": {"338-ID": {"location": "Avignon"}, "198-ID": {"location": "Avignon"}}},
            "may not stack with infantry",
        ),
        (
            {"german": {"148-ID": {"location": "eliminated"}}, "eliminated": {"148-ID": 20}},
            "148-ID can never be eliminated",
        ),
        ({"german": {"242-ID": {"location": "eliminated"}}}, "'eliminated' must list exactly"),
    ],
)
def test_bad_positions_name_the_problem(change: dict[str, Any], message: str) -> None:
    # Kernel: a position that is not a legal Dragoon state is a PositionError naming what is wrong.
    data = position()
    for key, value in change.items():
        if isinstance(value, dict) and key in ("allied", "german"):
            for uid, info in value.items():
                data[key].setdefault(uid, {}).update(info)
        else:
            data[key] = value
    with pytest.raises(PositionError, match=message):
        warroom.new_game("dragoon", position=data)


def test_a_position_must_be_a_whole_state_object() -> None:
    # Kernel: positions are the JSON of `view()["state"]`; anything else is a PositionError.
    data = position()
    with pytest.raises(PositionError, match="a position must be a JSON object"):
        warroom.new_game("dragoon", position=[data])  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="not a Dragoon position: KeyError: 'german'"):
        warroom.new_game("dragoon", position={k: v for k, v in data.items() if k != "german"})


def test_every_action_id_round_trips_through_the_tables() -> None:
    # Kernel: every action id parses, and its parse names exactly that id again (like UCI's Move.from_uci).
    from warroom.games.dragoon.actions import Action

    ruleset = rules()
    b = ruleset.board
    seen: set[tuple[str, int, int, int]] = set()
    for action, act in ruleset.actions.items():
        assert Action.from_id(action) == act and act.id == action and Action.from_id(act.id) == act
        kind, air = act.kind, int(act.air)
        if kind in ("end", "reroll", "accept"):
            assert action == {"end": "end", "reroll": "reroll ffi", "accept": "accept"}[kind]
            continue
        i = ruleset.unit_of(act)
        if kind == "attack":
            slots = [p for p, pair in enumerate(ruleset.attack_id[i]) if action in pair]
            assert len(slots) == 1
            assert ruleset.attack_id[i][slots[0]][air] == action
            key = (kind, i, air, slots[0])
        else:
            assert {"invade": ruleset.invade_id, "activate": ruleset.activate_id, "ffi": ruleset.ffi_id}[kind][
                i
            ] == action
            key = (kind, i, air, -1)
        assert key not in seen
        seen.add(key)
        assert b.allied[i].id in action.split()
        assert action == " ".join(action.split())
    for state in random_states(30, seed=500):
        for action in ruleset.legal_actions(state):
            assert action in ruleset.actions
            assert ruleset.describe_action(state, action)


def test_illegal_actions_raise_naming_the_rule_and_change_nothing() -> None:
    # Kernel: an illegal or unknown id raises IllegalActionError naming the rule; the state is unchanged.
    ruleset = rules()
    every = [*ruleset.actions, "march on Paris", "", "roll 3"]
    for state in random_states(12, seed=900)[::3]:
        if ruleset.to_act(state) != "Allied":
            continue
        before = json.dumps(ruleset.state_to_json(state))
        legal = set(ruleset.legal_actions(state))
        for action in every:
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as caught:
                ruleset.apply(state, action)
            message = str(caught.value)
            if action in ruleset.actions:
                assert "Dragoon:" in message, message
                assert repr(action) in message
            if state.phase == ACTIONS and action not in ruleset.actions:
                assert "not a Dragoon action" in message
            assert json.dumps(ruleset.state_to_json(state)) == before


def test_illegal_play_leaves_the_match_unchanged() -> None:
    # Kernel: Match.play of an illegal action changes neither the state, the record nor the log.
    m = warroom.new_game("dragoon", seed=9)
    play_random(m, policy_seed=9, steps=4)
    view, record, log = m.view(), m.record().to_json(), list(m.log)
    with pytest.raises(IllegalActionError):
        m.play("attack VI-Corps Crest->Montelimar")
    with pytest.raises(WrongSideError):
        m.play(m.legal_actions()[0], side="German")
    assert (m.view(), m.record().to_json(), m.log) == (view, record, log)


def test_mutating_the_legal_list_does_not_change_the_rules() -> None:
    # Kernel: legal_actions hands out a copy: a caller's edits cannot make an action legal.
    m = warroom.new_game("dragoon", seed=10)
    legal = m.legal_actions()
    legal.append("attack VI-Corps Crest->Montelimar")
    legal.clear()
    assert m.legal_actions() and "attack VI-Corps Crest->Montelimar" not in m.legal_actions()
    rules_legal = rules().legal_actions(m.state)
    rules_legal.append("ffi VI-Corps")
    with pytest.raises(IllegalActionError):
        m.play("ffi VI-Corps")


def test_game_over_refuses_every_action() -> None:
    # Kernel: the end of a game is a value; nothing is played after it.
    m = game(position(turn=29, phase="bot_roll", allied_control=["Toulon"]), dice=[quiet_bot_roll()])
    assert m.over and m.result is not None
    with pytest.raises(GameOverError):
        m.play("end")
    assert m.view()["legal"] == [] and m.view()["result"] == m.result.to_json()


def test_the_chance_sampler_picks_what_the_seeded_dice_pick_with_one_draw_each() -> None:
    # Kernel: one sampler for every chance node (warroom.engine.chance); one uniform draw per roll, equally
    # likely faces by index (as DiceSource.roll and `skip`), other odds as random.choices with weights
    from warroom.engine.chance import Sampler, sample

    d6 = tuple((face, 1 / 6) for face in range(1, 7))
    weighted = ((1, 0.5), (2, 0.25), (3, 0.25))
    for outcomes in (d6, list(d6), weighted, [(7, 0.1), (8, 0.6), (9, 0.3)]):
        dice, mine = DiceSource(11), random.Random(11)
        cached = Sampler()
        for _ in range(300):
            u = mine.getstate()
            picked = sample(outcomes, mine.random())
            mine.setstate(u)
            assert cached(outcomes, mine.random()) == picked == dice.roll(outcomes)
    assert [sample(d6, u) for u in (0.0, 0.1667, 0.5, 0.999999)] == [1, 2, 4, 6]
    assert [sample(weighted, u) for u in (0.0, 0.49, 0.5, 0.75, 0.9999999)] == [1, 1, 2, 3, 3]
    shifted = Sampler()
    assert shifted(d6, 0.5) == 4 and shifted(weighted, 0.5) == 2  # a new list is a new table


def test_mcts_rolls_its_dice_through_the_engine_sampler() -> None:
    # Kernel: MCTS's chance nodes take one draw of its own dice each, through warroom.engine.chance
    from warroom.ai.mcts import MCTS
    from warroom.engine.chance import sample

    search = MCTS(rules(), seed=5)
    twin = random.Random()
    twin.setstate(search._dice.getstate())
    weighted = ((1, 0.5), (2, 0.25), (3, 0.25))
    for outcomes in [weighted] * 50 + [tuple((f, 1 / 6) for f in range(1, 7))] * 50:
        assert search._sample(outcomes) == sample(outcomes, twin.random())


def test_a_match_is_handed_its_games_hooks_and_looks_nothing_up() -> None:
    # a match keeps undo to the rules it is given (MatchHooks), never reaching back into the registry
    started = warroom.new_game("saintlo", seed=2)
    assert started.hooks == MatchHooks.of(get_spec("saintlo"))
    assert warroom.load(started.record()).hooks == started.hooks  # a loaded game keeps them
    strict = MatchHooks(final_decision=lambda ruleset, state, action: "every decision is final here")
    ruleset = get_ruleset("saintlo")
    free = Match(ruleset, ruleset.initial_state(None, {}), seed=1)  # no hooks: nothing is final
    quiet = next(a for a in free.legal_actions() if (twin := free.clone()).play(a) is not None and twin.undoable)
    free.play(quiet)  # a decision no die follows: undo may take it back
    assert free.hooks == NO_HOOKS and free.undoable == 1
    m = Match(ruleset, ruleset.initial_state(None, {}), seed=1, hooks=strict)
    m.play(quiet)
    assert not m.can_undo and "final under the rules" in m.undo_locked
