"""The terminal against the computer prints only what the person's side may see (a rules audit as a cheating
opponent found every event printed, the computer's face-down deployment and its cards drawn among them)."""

from __future__ import annotations

import re

from front_ends import terminal_against_the_computer


def _play_allied_against_the_computer(answers: int) -> str:
    return terminal_against_the_computer("saintlo", seed=11, computer="Axis", answers=answers)


def test_the_computers_face_down_units_and_cards_stay_unnamed() -> None:
    # Saint-Lo 4.3 (deployed face down), 5.2 and 9 (a hand is its owner's)
    text = _play_allied_against_the_computer(90)
    assert re.search(r"Allied deploys \S+ face down", text)  # one's own deployment is told
    assert not re.search(r"Axis deploys \S+ face down", text)
    assert not re.search(r'Axis draws "', text)
