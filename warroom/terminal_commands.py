"""The commands typed at any prompt of a play session: b redraw, h help, u undo, s save, l load, q quit and
hint, each with what it tells the player."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.panel import Panel
from rich.text import Text

import warroom
from warroom.engine.errors import UndoLockedError, WarroomError
from warroom.engine.record import read_record, save_record
from warroom.engine.ruleset import DICE_SIDE
from warroom.terminal_render import hides_something, load_renderer
from warroom.terminal_seats import computer_players, players_of, who_plays

if TYPE_CHECKING:
    from warroom.terminal import TerminalGame

COMMANDS_HELP = """\
[bold]At the prompt[/bold]: a number plays that action (or type its id) · \
[bold]u[/bold] undo (never past a die roll) · \
[bold]s[/bold] \\[file] save · [bold]l[/bold] file load · [bold]b[/bold] or Enter redraw the board · \
[bold]h[/bold] this help · \
[bold]hint[/bold] \\[N] the computer's three best moves by their estimated chances, each with its 95% interval \
and simulations (MCTS, N simulations a move, 64 unless told) · \
[bold]q[/bold] quit (offers to save)"""

HINT_SIMULATIONS_RANGE = (8, 2000)
"""The simulations a move the terminal's `hint N` may ask for (`hint` alone: analysis.HINT_SIMULATIONS)."""


class SessionCommands:
    """The commands of one play session, run against its game as it stands (a load replaces the game)."""

    def __init__(self, game: TerminalGame) -> None:
        self.game = game

    def run(self, line: str) -> bool | None:
        """Handle a command; None if `line` is not one, else True when the session ends."""
        word, _, arg = line.partition(" ")
        word, arg = word.lower(), arg.strip()
        if word in ("", "b", "board"):
            self._redraw()
        elif word in ("h", "help", "?"):
            self._help()
        elif word in ("u", "undo"):
            self._undo()
        elif word in ("s", "save"):
            self.save(arg or self.game.save_default)
        elif word in ("l", "load"):
            if not arg:
                self.game.error(f"Type l FILE to load a saved game, e.g. l {self.game.save_default}")
            else:
                self._load(arg)
        elif word in ("q", "quit", "exit"):
            return self.quit()
        elif word == "hint":
            self._hint(arg)
        else:
            return None
        return False

    def _redraw(self) -> None:
        game = self.game
        game.dirty = True
        game.board_key = None
        game.draw()
        game.dirty = game.match.to_act == DICE_SIDE  # at a die prompt: say again what the die decides

    def _help(self) -> None:
        self.game.console.print(
            Panel(
                Group(Text.from_markup(self.game.renderer.help_text), Text(""), Text.from_markup(COMMANDS_HELP)),
                title="Help",
                border_style="cyan",
            )
        )

    def _undo(self) -> None:
        try:
            self.game.match.undo()
        except UndoLockedError as exc:
            self.game.error(f"Cannot undo: {exc}.", style="yellow")
            return
        self.game.console.print("[green]Took back the last decision.[/green]")
        self.game.dirty = True
        self.game.board_key = None

    def _hint(self, arg: str) -> None:
        """The computer's three best moves here by their estimate, each with its 95% interval and the simulations
        behind it (warroom.ai.analysis.hint): a budget of simulations, so the same game gives the same hint."""
        from warroom.ai import agent_seed
        from warroom.ai.analysis import HINT_SIMULATIONS, hint, hint_moves

        game, console = self.game, self.game.console
        least, most = HINT_SIMULATIONS_RANGE
        if arg and not (arg.isdigit() and least <= int(arg) <= most):
            game.error(
                f"hint takes the simulations a move, {least} to {most} (e.g. hint 200; {HINT_SIMULATIONS} unless "
                f"told), not {arg!r}."
            )
            return
        sims = int(arg) if arg else HINT_SIMULATIONS
        try:
            moves = len(hint_moves(game.match.ruleset, game.match.state))
            console.print(Text(f"Thinking: {moves} moves, {sims} simulations each...", style="dim"))
            found = hint(
                game.match, simulations=sims, seed=agent_seed(game.match.seed, f"hint {len(game.match.actions)}")
            )
        except WarroomError as exc:
            game.error(f"No hint: {exc}.")
            return
        console.print(Text(f"Hint (MCTS, {sims} simulations a move), by {found.measure}, highest first:", style="bold"))
        for n, alt in enumerate(found.top, 1):
            line = Text(f"{n:>3}. ", style="bold cyan")
            line.append(game.renderer.action_label(game.match, alt.action))
            if alt.chosen:
                line.append("  <- the computer's choice", style="bold")
            console.print(line)
            console.print(Text(f"     {alt.text}", style="dim"))
        if found.why:
            console.print(Text(f"  why: {found.why}", style="dim"))

    def save(self, path: str) -> bool:
        game = self.game
        folder = Path(path).expanduser().parent
        if not folder.is_dir():  # the engine would create it: a mistyped folder should be refused, not made
            game.error(
                f"Cannot save to {path}: there is no folder {folder}. Create it first or choose another file name."
            )
            return False
        record = dataclasses.replace(game.match.record(), players=players_of(game.match, game.agent, game.agent_sides))
        sealed = game.seal_seed and not game.match.over and record.seed is not None
        if sealed:
            record = dataclasses.replace(record, seed=None)
        try:
            save_record(record, path)
        except OSError as exc:
            game.error(f"Cannot save to {path}: {exc.strerror or exc}")
            return False
        if game.match.over:
            game.final_save = path
        if sealed:
            game.console.print(
                Text(
                    "The save leaves out the dice seed, which would tell every card and die to come: loaded, the game "
                    "goes on with fresh dice (play with --save-seed to keep it).",
                    style="dim",
                )
            )
        game.save_default = path
        game.console.print(
            f"[green]Saved to {path}[/green] (load it with [bold]l {path}[/bold] or warroom play --load {path}).",
            highlight=False,
        )
        return True

    def _load(self, path: str) -> None:
        game = self.game
        try:
            record = read_record(path)
            match = warroom.load(record)
            # the save says who played which side; an older save without it keeps this session's players
            if record.players is not None:
                game.agent, game.agent_sides = computer_players(record.players, match)
        except WarroomError as exc:
            game.error(f"Cannot load {path}: {exc}")
            return
        game.match = match
        game.renderer = load_renderer(match.ruleset.info.id)
        game.secret_reasons = hides_something(match)
        game.save_default = path
        turn, phase = match.ruleset.turn_and_phase(match.state)
        game.console.print(
            f"[green]Loaded {path}[/green]: {match.ruleset.info.title}, turn {turn}, {phase}; "
            f"{who_plays(match, game.agent, game.agent_sides)}.",
            highlight=False,
        )
        game.dirty = True

    def quit(self) -> bool:
        if self.yes("Save before quitting? [y/N] "):
            self.save_interactively()
        self.game.console.print("Goodbye.")
        return True

    def save_interactively(self) -> None:
        while True:
            path = (
                self.game.ask(f"Save as [{self.game.save_default}] (Enter for that name)> ").strip()
                or self.game.save_default
            )
            if self.save(path):
                return
            if not self.yes("Try another file name? [y/N] "):
                return

    def yes(self, prompt: str) -> bool:
        try:
            return self.game.ask(prompt).strip().lower() in ("y", "yes")
        except EOFError:
            return False
