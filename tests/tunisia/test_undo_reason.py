"""An undo refused says what locked it (an issue: "`Cannot undo: ... the last look at something hidden` after an
ordinary Tunisia move with nothing shown: say what was revealed, or do not lock"). A move that takes a piece out of a
stack shows the enemy the piece beneath (Tunisia 6.0E): the lock stays, and the refusal names the side that saw, the
pieces and their hex; a move that shows nothing locks nothing; a die roll's lock names the roll."""

from __future__ import annotations

import random

import pytest

import warroom
from warroom.engine.errors import UndoLockedError
from warroom.games.tunisia.catalog import SIDE_NAMES
from warroom.games.tunisia.position import hidden_from
from warroom.games.tunisia.state import Phase


def _reveal_and_plain_moves() -> tuple[warroom.Match, str, str, dict[int, set[int]]]:
    """A Movement Phase position of a random game, a move there that shows a side a hidden piece, a move that
    shows nothing, and what the revealing move showed each side (viewer -> pieces)."""
    for seed in range(4):
        m = warroom.new_game("tunisia", seed=seed)
        rng = random.Random(seed)
        while not m.over:
            if m.state.phase == Phase.MOVEMENT and m.to_act in SIDE_NAMES:
                rules, s = m.ruleset, m.state
                before = {v: set(hidden_from(rules, s, v)) for v in range(len(SIDE_NAMES))}
                reveal = plain = None
                shown: dict[int, set[int]] = {}
                for action in [a for a in m.legal_actions() if a.startswith("move ")][:80]:
                    twin = m.clone()
                    twin.play(action)
                    if twin.to_act != m.to_act:
                        continue
                    now = {v: before[v] - set(hidden_from(rules, twin.state, v)) for v in before}
                    if any(now.values()):
                        reveal, shown = reveal or action, shown or now
                    else:
                        plain = plain or action
                if reveal and plain:
                    return m, reveal, plain, shown
            m.play(rng.choice(m.legal_actions()))
    raise AssertionError("no Movement Phase with both a revealing and a plain move in 4 random games")


def test_a_refused_undo_names_what_the_move_revealed_and_to_whom() -> None:
    # Tunisia 6.0E: a piece leaving a stack shows the enemy what was beneath; that look cannot be taken back,
    # and the refusal says who saw which pieces where (the "say what was revealed")
    m, reveal, plain, shown = _reveal_and_plain_moves()
    rules = m.ruleset
    twin = m.clone()
    twin.play(reveal)
    with pytest.raises(UndoLockedError) as refused:
        twin.undo()
    message = str(refused.value)
    assert f"'{reveal}'" in message
    for viewer, pieces in shown.items():
        if pieces:
            assert f"the {SIDE_NAMES[viewer]} side" in message
            for p in pieces:
                assert rules.cat.name[p] in message and rules.labels[twin.state.loc[p]] in message
    assert "6.0E" in message
    # the same words after the game is saved and loaded (the lock is rebuilt from the record)
    assert warroom.load(twin.record()).undo_locked == twin.undo_locked
    # a move that shows nothing can be taken back ("or do not lock")
    other = m.clone()
    other.play(plain)
    other.undo()
    assert rules.state_to_json(other.state) == rules.state_to_json(m.state) and other.actions == m.actions


def test_a_refused_undo_after_a_die_roll_names_the_roll() -> None:
    # Tunisia 7.7C: the Axis port roll is a die roll, behind which undo never goes; the refusal names the roll
    m = warroom.new_game("tunisia", seed=3)
    rng = random.Random(3)
    while not m.over:
        rolled = len(m.dice_rolled)
        m.play(rng.choice(m.legal_actions()))
        if len(m.dice_rolled) > rolled and not m.can_undo:
            with pytest.raises(UndoLockedError) as refused:
                m.undo()
            assert f"the die roll ({m.dice_rolled[-1]}) in the " in str(refused.value)
            assert warroom.load(m.record()).undo_locked == m.undo_locked
            return
    raise AssertionError("no die roll in a random game")
