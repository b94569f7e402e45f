"""Tunisia's state and action ids: a clone copies every slot, ids round-trip, positions round-trip through
JSON, and the rulebook's sequence of play is declared in order (7.0)."""

from __future__ import annotations

import copy
import random
import re

import pytest

from warroom.engine.chance import sample
from warroom.engine.errors import IllegalActionError, PositionError
from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia.actions import Action
from warroom.games.tunisia.rules import TunisiaRules
from warroom.games.tunisia.sequence import ACTOR, SEQUENCE_OF_PLAY
from warroom.games.tunisia.state import Battle, Phase, TunisiaState

R = TunisiaRules()


def _played(seed: int, steps: int) -> TunisiaState:
    """A position some random steps into a game (battles, losses and boxes in it)."""
    rng = random.Random(seed)
    s = R.initial_state()
    for _ in range(steps):
        who = R.to_act(s)
        if who is None:
            break
        if who == CHANCE:
            R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
        else:
            R.apply(s, rng.choice(R.legal_actions(s)), False)
    return s


def _value(s: TunisiaState, slot: str) -> object:
    return copy.copy(getattr(s, slot))


@pytest.mark.parametrize("slot", TunisiaState.__slots__)
def test_clone_copies_every_slot(slot: str) -> None:
    s = _played(7, 400)
    s.battle = Battle(1, 2, 3)
    R.legal_actions(s)  # fill the cache
    twin = s.clone()
    assert getattr(twin, slot) == getattr(s, slot)
    before = _value(s, slot)
    value = getattr(twin, slot)
    if isinstance(value, list):  # a clone's lists are its own
        assert value is not getattr(s, slot)
        value.append(value[0])
        assert getattr(s, slot) == before


def test_clone_covers_all_slots_and_shares_only_the_caches() -> None:
    s = _played(3, 300)
    twin = s.clone()
    for slot in TunisiaState.__slots__:
        assert getattr(twin, slot) == getattr(s, slot), slot
    assert twin.reach is s.reach  # the Movement Phase's cache: the same enemies, valid for both
    assert copy.deepcopy(s).loc == s.loc


def test_action_ids_round_trip() -> None:
    # every id the rules offer reads back to an Action that writes it again
    seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = R.initial_state()
        for _ in range(600):
            who = R.to_act(s)
            if who is None:
                break
            if who == CHANCE:
                R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
                continue
            legal = R.legal_actions(s)
            for text in legal[:50]:
                assert Action.from_id(text).id == text
                seen += 1
            R.apply(s, rng.choice(legal), False)
    assert seen > 1000
    for bad in ("", "move", "move A B", "attack 8022", "attack 8022 8122 +air", "loss", "warp 8022"):
        with pytest.raises(IllegalActionError):
            Action.from_id(bad)


def test_positions_round_trip_through_json() -> None:
    for seed, steps in ((1, 50), (2, 250), (5, 700)):
        s = _played(seed, steps)
        data = R.state_to_json(s)
        back = R.state_from_json(data)
        assert R.state_to_json(back) == data
        assert R.legal_actions(back) == R.legal_actions(s)
    with pytest.raises(PositionError):
        R.state_from_json({"turn": 1})
    data = R.state_to_json(R.initial_state())
    data["pieces"]["10th-Pz"]["at"] = data["pieces"]["CCA"]["at"]  # both sides in one hex (8.7A)
    with pytest.raises(PositionError, match="8.7A"):
        R.state_from_json(data)


def test_the_sequence_of_play_is_declared_in_the_rulebooks_order() -> None:
    # Tunisia 7.0-7.8: eight phases; every step has an actor
    assert [p.number for p in SEQUENCE_OF_PLAY] == list(range(1, 9))
    assert [p.rule for p in SEQUENCE_OF_PLAY] == [f"7.{k}" for k in range(1, 9)]
    assert set(ACTOR) == set(Phase)


def test_dice_are_exact_chance_nodes() -> None:
    # 11.2: a d12, each face 1/12; a decision is not a chance node
    s = R.initial_state()
    with pytest.raises(IllegalActionError):
        R.chance_outcomes(s)
    with pytest.raises(IllegalActionError):
        R.apply_chance(s, 3)


def test_illegal_actions_are_refused_naming_a_rule_and_change_nothing() -> None:
    # every refusal names the rule (a section number in brackets) and leaves the position as it was
    rng = random.Random(5)
    s = R.initial_state()
    seen: list[str] = []
    refusals = 0
    while (who := R.to_act(s)) is not None and refusals < 300:
        if who == CHANCE:
            R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
            continue
        legal = R.legal_actions(s)
        strangers = [a for a in rng.sample(seen, min(len(seen), 5)) if a not in legal] if seen else []
        for action in strangers + ["move Nobody 8022 8122", "attack 9999 8122"]:
            before = R.state_to_json(s)
            with pytest.raises(IllegalActionError) as info:
                R.apply(s, action)
            assert re.search(r"\(\d+\.\d", str(info.value)), str(info.value)
            assert R.state_to_json(s) == before
            refusals += 1
        seen.extend(rng.sample(legal, min(len(legal), 3)))
        R.apply(s, rng.choice(legal), False)
    assert refusals >= 300


def test_every_legal_action_has_a_plain_label() -> None:
    s = _played(9, 350)
    for action in R.legal_actions(R.initial_state()) + R.legal_actions(s):
        label = R.describe_action(s, action)
        assert label and label[0].isupper() and "  " not in label


def test_observations_are_json_and_never_show_a_hidden_piece() -> None:
    # 6.0E over positions of a random game: what one side sees is plain JSON, and a stack it may not
    # examine shows its top piece only
    import json

    hidden_stacks = 0
    for seed, steps in ((2, 100), (4, 500), (6, 900)):
        s = _played(seed, steps)
        for side in ("Axis", "Allied", None):
            view = R.observation(s, side)
            json.dumps(view)
            if side is None:
                continue
            hidden_stacks += len(view["hidden"])
            me = 0 if side == "Axis" else 1
            shown = {pid for pid, entry in view["pieces"].items() if entry["at"] in view["hidden"]}
            for label, count in view["hidden"].items():
                here = [p for p, where in enumerate(s.loc) if where == R.board.at(label)]
                assert all(R.cat.side[p] != me for p in here) and len(here) == count + 1
                assert len([p for p in here if R.cat.ids[p] in shown]) == 1
    assert hidden_stacks > 0
