"""The table assistant in a real terminal: players roll real dice and type them in (`--dice manual`).

Tunisia's ended at the first valid die (`'roll 3' is not a Tunisia action`, issue 38): the terminal asked
the game to label the kernel's `roll N`, which only the side `dice` plays. Every game and scenario is
played here through a pseudo-terminal for 200 inputs, menus and dice alike, the dice typed as a player
reads them off the table, so a die prompt that stops the game is found wherever it hides.
"""

from __future__ import annotations

import pytest
from front_ends import terminal_process

from warroom.games import game_ids, get_ruleset

INPUTS = 200
DICE = 10
"""At least INPUTS inputs, and on until DICE dice or cards were typed in (Saint-Lo's setup alone takes 146 inputs),
within MOST inputs."""
MOST = 2000
DIE = r"Roll a d(\d+) and enter the result \((\d+)-(\d+)\)> "
CARD = r"Turn up the [^\n]* and enter its value \(([\d, ]+)\)> "
MENU = r"Choose 1-(\d+)[^>\n]*> "
QUESTION = r"\[y/N\] "
PASS = r"press Enter when the others cannot see the screen[^>\n]*> "
"""Hot-seat in a game that hides something: the device passes between the people at the table."""
CASES = [(game, scenario) for game in game_ids() for scenario in get_ruleset(game).info.scenarios]


@pytest.mark.parametrize(("game", "scenario"), CASES)
def test_a_game_with_typed_dice_goes_on_for_200_inputs(game: str, scenario: str) -> None:
    pexpect = pytest.importorskip("pexpect")
    seats = [] if len(get_ruleset(game).info.sides) == 1 else ["--vs", "human"]  # hot-seat at the table
    child = terminal_process(["play", game, "--scenario", scenario, "--dice", "manual", "--seed", "5", *seats])
    inputs = dice = 0
    try:
        while (inputs < INPUTS or dice < DICE) and inputs < MOST:
            found = child.expect([DIE, CARD, MENU, QUESTION, PASS, pexpect.EOF])
            if found == 5:
                break
            inputs += 1
            if found == 0:  # a real die: any face it can show, as a player would read it
                low, high = int(child.match.group(2)), int(child.match.group(3))
                child.sendline(str(low + inputs % (high - low + 1)))
                dice += 1
            elif found == 1:  # a card turned up (Patton's movement cards): one of the values it may show
                values = child.match.group(1).split(", ")
                child.sendline(values[inputs % len(values)])
                dice += 1
            elif found == 2:  # a menu: its choices in turn (the first is not always a way on)
                child.sendline(str(1 + inputs % int(child.match.group(1))))
            elif found == 3:
                child.sendline("n")
            else:  # the next person holds the device now
                child.sendline("")
        over = not child.isalive() or found == 5
        assert "Error:" not in child.before, child.before[-2000:]
    finally:
        child.close(force=True)
    assert inputs >= INPUTS or over, f"{game} {scenario}: ended after {inputs} inputs"
    assert dice >= DICE or over, f"{game} {scenario}: {dice} dice asked for in {inputs} inputs"
