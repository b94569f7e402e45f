"""The terminal against the computer prints only what the person's side may see (a rules audit as a cheating
opponent found every event printed, the computer's face-down deployment and its cards drawn among them)."""

from __future__ import annotations

import io
import re

from rich.console import Console

import warroom
from warroom.ai import get_agent
from warroom.terminal import TerminalGame


def _play_allied_against_the_computer(answers: int) -> str:
    match = warroom.new_game("saintlo", seed=11)
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False, color_system=None)
    asked = 0

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if asked > answers:
            raise EOFError
        return "1"

    computer = get_agent("heuristic", "saintlo", seed=1)
    TerminalGame(match, console, ask=ask, agent=computer, agent_sides={"Axis"}, flat=True, pace=0).run()
    return out.getvalue()


def test_the_computers_face_down_units_and_cards_stay_unnamed() -> None:
    # Saint-Lo 4.3 (deployed face down), 5.2 and 9 (a hand is its owner's)
    text = _play_allied_against_the_computer(90)
    assert re.search(r"Allied deploys \S+ face down", text)  # one's own deployment is told
    assert not re.search(r"Axis deploys \S+ face down", text)
    assert not re.search(r'Axis draws "', text)
