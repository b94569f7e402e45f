"""Dice rolled at the table and typed in (`--dice manual`): the prompt for the die or card the game waits on,
with what it decides, and one or several values typed on a line, each checked before any is entered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.ruleset import DICE_SIDE

if TYPE_CHECKING:
    from warroom.terminal import TerminalGame


class TypedDice:
    """The session's prompt for a die (or card) rolled at the table."""

    def __init__(self, game: TerminalGame) -> None:
        self.game = game

    def prompt(self) -> bool:
        """Ask for the roll the game waits on and enter it; True when the session ends (a command)."""
        game = self.game
        if game.dirty:
            pending = game.renderer.pending_roll(game.match)
            if pending is not None:
                game.console.print(pending)
            game.dirty = False
        outcomes = [int(a.split()[1]) for a in game.match.legal_actions()]
        noun = game.renderer.roll_name(game.match)
        prompt, not_a_number, out_of_range = self._wording(outcomes, noun)
        line = game.ask(prompt).strip()
        handled = game.commands.run(line)
        if handled is not None:
            return handled
        words = line.replace(",", " ").split()
        if len(words) > 1:
            self._several_rolls(words, noun)
            return False
        try:
            value = int(line)
        except ValueError:
            game.error(f"{line!r} {not_a_number}")
            return False
        if value not in outcomes:
            game.error(f"{value} {out_of_range}")
            return False
        game.play(f"roll {value}", who="Card: " if noun is not None else "Die: ")
        return False

    def _wording(self, outcomes: list[int], noun: str | None) -> tuple[str, str, str]:
        """The prompt and its two refusals (not a number; a value that cannot come up), for a die or a card."""
        low, high = min(outcomes), max(outcomes)
        if noun is not None:  # a card or the like: its possible values, which need not be a run
            values = ", ".join(map(str, outcomes))
            return (
                f"Turn up the {noun} and enter its value ({values})> ",
                f"is not a {noun} value: enter one of {values}.",
                f"is not the value of any {noun} that can come up now: enter one of {values}.",
            )
        sides = self.game.match.ruleset.die_sides(self.game.match.state)
        return (
            f"Roll a d{sides} and enter the result ({low}-{high})> ",
            f"is not a die result: enter a whole number from {low} to {high}.",
            f"is out of range: a d{sides} shows {low} to {high}. Roll again and enter what it shows.",
        )

    def _several_rolls(self, words: list[str], noun: str | None) -> None:
        """Several dice typed on one line (a table player reads `5 5 2` off three dice): each is
        checked, on a copy of the game, against what that roll can show; one that does not fit
        refuses them all, so nothing is entered by half."""
        game = self.game
        trial = game.match.clone()
        what = noun or "die"
        for k, word in enumerate(words, 1):
            if trial.to_act != DICE_SIDE:
                game.error(
                    f"You typed {len(words)} values but only {k - 1} {'is' if k == 2 else 'are'} asked for now: "
                    f"nothing was entered. Type the first {k - 1}."
                )
                return
            outcomes = [int(a.split()[1]) for a in trial.legal_actions()]
            number = f"{what} {k} of the {len(words)} you typed"
            if not (word.lstrip("-").isdigit() and int(word) in outcomes):
                shown = ", ".join(map(str, outcomes)) if noun is not None else f"{min(outcomes)} to {max(outcomes)}"
                game.error(
                    f"{number} ({word!r}) cannot come up: it must be {shown}. Nothing was entered; type them again."
                )
                return
            trial.play(f"roll {int(word)}")
        for word in words:
            game.play(f"roll {int(word)}", who="Card: " if game.renderer.roll_name(game.match) is not None else "Die: ")
