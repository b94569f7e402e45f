"""Saint-Lo's Battle Report windows in the terminal (4.5, 9; issue item 10): a person with nothing to play passes
without being asked, and at one screen the device is passed only for a decision a person must make, never for
an automatic pass; what the screen prints is what the side holding the device may see."""

from __future__ import annotations

import io

from rich.console import Console
from saintlo_positions import bare, give, place, rules2

from warroom.engine.match import Match
from warroom.terminal import TerminalGame

PASS_DEVICE = "press Enter when the others cannot see the screen"


def _hot_seat_attack(axis_card: str, agent: object = None, agent_sides: set[str] | None = None) -> dict[str, object]:
    """The Allied attack on the Axis infantry, played at the terminal: Allied declares it, Axis holds `axis_card`
    and (asked) passes; the session ends at Allied's next decision. What was asked, printed and played."""
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ace_of_tanks")
    give(rules, s, 1, axis_card)
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    match = Match(rules, s, seed=3)
    asked: list[tuple[str, str]] = []
    allied = iter(["attack us_m4a1_76w.1 0304"])

    def ask(prompt: str) -> str:
        asked.append((match.to_act or "", prompt))
        if PASS_DEVICE in prompt:
            return ""
        if match.to_act == "Axis":
            return "pass"
        answer = next(allied, None)
        if answer is None:
            raise EOFError
        return answer

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    TerminalGame(match, console, ask=ask, flat=True, agent=agent, agent_sides=agent_sides, pace=0).run()
    return {"asked": asked, "out": out.getvalue(), "match": match}


def _device_passes(asked: list[tuple[str, str]]) -> list[str]:
    return [side for side, prompt in asked if PASS_DEVICE in prompt]


def test_an_automatic_pass_asks_nobody_and_needs_no_device_pass() -> None:
    # Saint-Lo 9: the Axis window opens (4.5: the Allies cannot know Low Clouds is of no use now), and the Axis,
    # with nothing it can play, passes without being asked; the device stays with Allied
    played = _hot_seat_attack("low_clouds")
    match = played["match"]
    assert isinstance(match, Match) and "pass" in match.actions
    asked = played["asked"]
    assert _device_passes(asked) == []
    assert {side for side, _ in asked} == {"Allied"}  # Axis was never asked
    assert "Low Clouds" not in str(played["out"])  # the screen Allied holds names no Axis card


def test_a_chosen_answer_passes_the_device_there_and_back() -> None:
    # Saint-Lo 9: with Dug In playable on its attacked infantry the Axis decides, behind a device pass, and the
    # device comes back to Allied for Allied's next decision: one pass each way
    played = _hot_seat_attack("dug_in")
    assert _device_passes(played["asked"]) == ["Axis", "Allied"]
    assert [side for side, prompt in played["asked"] if PASS_DEVICE not in prompt].count("Axis") == 1
    assert "pass" in played["match"].actions


def test_against_the_computer_the_persons_automatic_pass_is_told_to_him() -> None:
    # Saint-Lo 9: the person (Axis) holds nothing playable in the computer's attack: passed for him, said once
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 1, "low_clouds")
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    rules.apply(s, "attack us_m4a1_76w.1 0304")
    match = Match(rules, s, seed=3)
    assert match.to_act == "Axis" and match.legal_actions() == ["pass"]
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        raise EOFError

    from warroom.ai import get_agent

    out = io.StringIO()
    agent = get_agent("heuristic", "saintlo", None, 1)
    console = Console(file=out, width=120, color_system=None)
    game = TerminalGame(match, console, ask=ask, flat=True, agent=agent, agent_sides={"Allied"}, pace=0)
    game.run()
    assert match.actions[0] == "pass"
    assert "with nothing to choose (Saint-Lo 9)" in out.getvalue()
    assert not any(PASS_DEVICE in prompt for prompt in asked)
