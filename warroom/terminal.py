"""The interactive terminal front end for every game: play (board, numbered actions, dice, commands) and replay.

A game plugs in through `warroom.games.<game>.render`, which must define
`render_board(match) -> rich renderable` and may define `HELP` (rich markup), `action_label(match, id)`,
`pending_roll(match)` (what a die about to be rolled decides, with its odds), `event_style(event)` and
`roll_name(match)` (what the pending chance is when it is not a die, e.g. "movement card").
Games without a render module get a plain generic board, so every registered game is playable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

import warroom
from warroom.engine.errors import IllegalActionError, UndoLockedError, WarroomError
from warroom.engine.match import Match
from warroom.engine.record import Record
from warroom.engine.ruleset import DICE_SIDE, Event

Ask = Callable[[str], str]

COMMANDS_HELP = """\
[bold]At the prompt[/bold]: a number plays that action (or type its id) · [bold]u[/bold] undo (never past a die roll) · \
[bold]s[/bold] \\[file] save · [bold]l[/bold] file load · [bold]b[/bold] or Enter redraw the board · [bold]h[/bold] this help · \
[bold]q[/bold] quit (offers to save)"""


@dataclass(frozen=True)
class Renderer:
    """How one game draws itself in the terminal (see the module docstring for the hooks)."""

    game: str
    render_board: Callable[[Match], RenderableType]
    help_text: str
    action_label: Callable[[Match, str], str]
    pending_roll: Callable[[Match], RenderableType | None]
    event_style: Callable[[Event], str]
    roll_name: Callable[[Match], str | None] = lambda match: None


def load_renderer(game: str) -> Renderer:
    """The game's `render` module, or the generic fallback when the game has none yet."""
    name = f"warroom.games.{game}.render"
    try:
        module: Any = import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        module = None
    return Renderer(
        game=game,
        render_board=getattr(module, "render_board", generic_board),
        help_text=getattr(module, "HELP", f"[bold]{game}[/bold]: see the rulebook in shared/rulebooks for the rules."),
        action_label=getattr(module, "action_label", lambda match, action: match.ruleset.describe_action(match.state, action)),
        pending_roll=getattr(module, "pending_roll", lambda match: None),
        event_style=getattr(module, "event_style", lambda event: ""),
        roll_name=getattr(module, "roll_name", lambda match: None),
    )


def plain_prompt(console: Console) -> Ask:
    """Read a line after a prompt shown as is (a prompt like "[y/N]" is not rich markup)."""
    return lambda prompt: console.input(Text(prompt, style="bold"))


def generic_board(match: Match) -> RenderableType:
    """A plain board for games without a renderer: where the game stands and what the side to act may see."""
    turn, phase = match.ruleset.turn_and_phase(match.state)
    viewer = match.to_act if match.to_act in match.ruleset.info.sides else None
    head = Text(f"{match.ruleset.info.title} · turn {turn} · {phase} · to act: {match.to_act or 'nobody (game over)'}", style="bold")
    return Panel(Group(head, Pretty(match.ruleset.observation(match.state, viewer), max_length=12, max_depth=3)))


def print_events(console: Console, renderer: Renderer, events: list[Event]) -> None:
    """Each event's text, with the rule it applies in dim after it."""
    for event in events:
        line = Text("  ")
        line.append(str(event.get("text", event.get("type", ""))), style=renderer.event_style(event))
        if event.get("rule"):
            line.append(f"  ({event['rule']})", style="dim")
        console.print(line)


def result_panel(match: Match) -> RenderableType:
    """The end of the game: who won, why (and by which rule), and the score with its breakdown."""
    result = match.result
    if result is None:
        return Text("The game is not over.")
    title = "Draw" if result.winner is None else f"{result.winner} victory"
    parts: list[RenderableType] = [Text(title, style="bold"), Text(result.reason)]
    if result.rule:
        parts.append(Text(f"({result.rule})", style="dim"))
    breakdown = result.score.get("breakdown")
    if isinstance(breakdown, dict):
        table = Table(box=None, show_header=False, padding=(0, 2))
        table.add_column()
        table.add_column(justify="right")
        for name, points in breakdown.items():
            table.add_row(str(name), str(points))
        for key, value in result.score.items():
            if key != "breakdown":
                table.add_row(Text(f"Total {key}", style="bold"), Text(str(value), style="bold"))
        parts.append(table)
    else:
        for key, value in result.score.items():
            parts.append(Text(f"{key}: {value}"))
    style = "green" if result.winner and result.winner in match.ruleset.info.sides[:1] else "yellow"
    return Panel(Group(*parts), title="Game over", border_style=style, expand=False)


class TerminalGame:
    """One interactive game in a terminal: a human decides (or watches an agent), the dice roll or are typed in."""

    def __init__(self, match: Match, console: Console, *, ask: Ask | None = None, save_default: str | None = None,
                 agent: Any = None, agent_sides: set[str] | None = None) -> None:
        self.match = match
        self.console = console
        self.ask: Ask = ask or plain_prompt(console)
        self.renderer = load_renderer(match.ruleset.info.id)
        self.save_default = save_default or f"{match.ruleset.info.id}-save.json"
        self.agent = agent
        # None: the agent plays every side (you watch); else it plays only these sides (you play the rest)
        self.agent_sides = agent_sides
        self.paused = agent_sides is None  # watching an agent: wait for Enter before each of its moves
        self._dirty = True
        self._drawn_turn: Any = None

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            while not self._step():
                pass
        except EOFError:
            self.console.print("\n[yellow]Input closed: leaving the game without saving.[/yellow]")
        except KeyboardInterrupt:
            self.console.print("\n[yellow]Interrupted: leaving the game without saving.[/yellow]")

    def _step(self) -> bool:
        """One prompt (or one agent move); True when the session is over."""
        if self.match.over:
            self._draw()
            self.console.print(result_panel(self.match))
            if self._yes("Save this game to replay it later? [y/N] "):
                self._save_interactively()
            return True
        if self.match.to_act == DICE_SIDE:
            return self._dice_prompt()
        self._draw()
        if self._agent_to_move():
            return self._agent_move()
        return self._decision_prompt()

    def _agent_to_move(self) -> bool:
        if self.agent is None:
            return False
        return self.agent_sides is None or self.match.to_act in self.agent_sides

    def _draw(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        turn, _ = self.match.ruleset.turn_and_phase(self.match.state)
        if self.agent_sides is None and self.agent is not None and not self.paused and turn == self._drawn_turn and not self.match.over:
            return  # watching at full speed: one board a turn is enough
        self._drawn_turn = turn
        self.console.print(Rule(style="grey37"))
        self.console.print(self.renderer.render_board(self.match))
        if not self._agent_to_move() and not self.match.over and self.match.to_act != DICE_SIDE:
            self._menu()

    def _menu(self) -> None:
        legal = self.match.legal_actions()
        side = self.match.to_act
        self.console.print(Text(f"{side} to decide:", style="bold"))
        for n, action in enumerate(legal, 1):
            line = Text()
            line.append(f"{n:>3}. ", style="bold cyan")
            line.append(self.renderer.action_label(self.match, action))
            self.console.print(line)

    # -- a human decision -----------------------------------------------------------------------
    def _decision_prompt(self) -> bool:
        legal = self.match.legal_actions()
        line = self.ask(f"Choose 1-{len(legal)} (h help, u undo, s save, q quit)> ").strip()
        handled = self._command(line)
        if handled is not None:
            return handled
        if line.isdigit():
            n = int(line)
            if not 1 <= n <= len(legal):
                self._error(f"There is no action {n}: choose a number from 1 to {len(legal)}.")
                return False
            self._play(legal[n - 1])
        elif line in legal:
            self._play(line)
        else:
            self._error(f"{line!r} is not a number or a command: type a number from 1 to {len(legal)}, or h for help.")
        return False

    def _play(self, action: str, who: str = "", why: str = "") -> None:
        label = self.renderer.action_label(self.match, action)
        try:
            events = self.match.play(action)
        except IllegalActionError as exc:
            self._error(str(exc))
            return
        heading = Text(f"▶ {who}", style="bold")
        heading.append(label, style="bold")
        self.console.print(heading)
        if why:
            self.console.print(Text(f"  why: {why}", style="dim"))
        print_events(self.console, self.renderer, events)
        self._dirty = True

    # -- manual dice ----------------------------------------------------------------------------
    def _dice_prompt(self) -> bool:
        if self._dirty:
            pending = self.renderer.pending_roll(self.match)
            if pending is not None:
                self.console.print(pending)
            self._dirty = False
        outcomes = [int(a.split()[1]) for a in self.match.legal_actions()]
        low, high = min(outcomes), max(outcomes)
        noun = self.renderer.roll_name(self.match)
        if noun is not None:  # a card or the like: its possible values, which need not be a run
            values = ", ".join(map(str, outcomes))
            prompt = f"Turn up the {noun} and enter its value ({values})> "
            not_a_number = f"is not a {noun} value: enter one of {values}."
            out_of_range = f"is not the value of any {noun} that can come up now: enter one of {values}."
        else:
            sides = self.match.ruleset.die_sides(self.match.state)
            prompt = f"Roll a d{sides} and enter the result ({low}-{high})> "
            not_a_number = f"is not a die result: enter a whole number from {low} to {high}."
            out_of_range = f"is out of range: a d{sides} shows {low} to {high}. Roll again and enter what it shows."
        line = self.ask(prompt).strip()
        handled = self._command(line)
        if handled is not None:
            return handled
        try:
            value = int(line)
        except ValueError:
            self._error(f"{line!r} {not_a_number}")
            return False
        if value not in outcomes:
            self._error(f"{value} {out_of_range}")
            return False
        self._play(f"roll {value}", who="Card: " if noun is not None else "Die: ")
        return False

    # -- watching an agent ----------------------------------------------------------------------
    def _agent_move(self) -> bool:
        action, why = self.agent.choose(self.match)
        was_paused = self.paused
        if self.paused:
            line = Text(f"The computer ({self.agent.name}) will play: ", style="bold")
            line.append(self.renderer.action_label(self.match, action))
            self.console.print(line)
            self.console.print(Text(f"  why: {why}", style="dim"))
            answer = self.ask("Enter: play it · c: play on to the end · s save · h help · q quit> ").strip()
            word = answer.partition(" ")[0].lower()
            if word == "c":
                self.paused = False
            elif word in ("q", "quit", "exit"):
                return self._quit()
            elif word in ("h", "help", "?", "s", "save"):
                self._command(answer)
                return False
            elif answer:
                self._error(f"{answer!r}: press Enter to let the computer play, c to play on to the end, q to quit.")
                return False
        self._play(action, who=f"Computer ({self.agent.name}): ", why="" if was_paused else why)
        return False

    # -- commands -------------------------------------------------------------------------------
    def _command(self, line: str) -> bool | None:
        """Handle a command; None if `line` is not one, else True when the session ends."""
        word, _, arg = line.partition(" ")
        word, arg = word.lower(), arg.strip()
        if word in ("", "b", "board"):
            self._dirty = True
            self._draw()
            self._dirty = self.match.to_act == DICE_SIDE  # at a die prompt: say again what the die decides
            return False
        if word in ("h", "help", "?"):
            self.console.print(Panel(Group(Text.from_markup(self.renderer.help_text), Text(""), Text.from_markup(COMMANDS_HELP)),
                                     title="Help", border_style="cyan"))
            return False
        if word in ("u", "undo"):
            try:
                self.match.undo()
            except UndoLockedError as exc:
                self._error(f"Cannot undo: {exc}.", style="yellow")
                return False
            self.console.print("[green]Took back the last decision.[/green]")
            self._dirty = True
            return False
        if word in ("s", "save"):
            self._save(arg or self.save_default)
            return False
        if word in ("l", "load"):
            if not arg:
                self._error("Type l FILE to load a saved game, e.g. l dragoon-save.json")
                return False
            self._load(arg)
            return False
        if word in ("q", "quit", "exit"):
            return self._quit()
        return None

    def _save(self, path: str) -> bool:
        try:
            warroom.save(self.match, path)
        except OSError as exc:
            self._error(f"Cannot save to {path}: {exc.strerror or exc}")
            return False
        self.save_default = path
        self.console.print(f"[green]Saved to {path}[/green] (load it with [bold]l {path}[/bold] or warroom play --load {path}).",
                           highlight=False)
        return True

    def _load(self, path: str) -> None:
        try:
            match = warroom.load(path)
        except WarroomError as exc:
            self._error(f"Cannot load {path}: {exc}")
            return
        self.match = match
        self.renderer = load_renderer(match.ruleset.info.id)
        self.save_default = path
        turn, phase = match.ruleset.turn_and_phase(match.state)
        self.console.print(f"[green]Loaded {path}[/green]: {match.ruleset.info.title}, turn {turn}, {phase}.", highlight=False)
        self._dirty = True

    def _quit(self) -> bool:
        if self._yes("Save before quitting? [y/N] "):
            self._save_interactively()
        self.console.print("Goodbye.")
        return True

    def _save_interactively(self) -> None:
        while True:
            path = self.ask(f"Save as [{self.save_default}] (Enter for that name)> ").strip() or self.save_default
            if self._save(path):
                return
            if not self._yes("Try another file name? [y/N] "):
                return

    def _yes(self, prompt: str) -> bool:
        try:
            return self.ask(prompt).strip().lower() in ("y", "yes")
        except EOFError:
            return False

    def _error(self, message: str, style: str = "red") -> None:
        self.console.print(Text(message, style=style))


# -- replay ------------------------------------------------------------------------------------
class Replay:
    """The positions of a recorded game, step by step: step k is the position after its k-th decision.

    Each position is rebuilt by loading the record cut after its k-th decision and the dice that
    decision caused, which the engine guarantees reproduces the game exactly.
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        self.steps = len(record.actions)
        self._cache: dict[int, Match] = {}
        self.final = self.at(self.steps)  # fails early, with a RecordError, if the record does not replay
        self._dice_after = self._count_dice()

    def _count_dice(self) -> list[int]:
        """How many of the record's dice had been rolled after each decision (a scripted-dice match tells)."""
        r = self.record
        stepper = warroom.new_game(r.game, r.scenario, seed=r.seed, dice=list(r.dice), options=r.options, position=r.position,
                                   keep_log=False)
        counts = [len(stepper.dice_rolled)]
        for action in r.actions:
            stepper.play(action)
            counts.append(len(stepper.dice_rolled))
        return [min(n, len(r.dice)) for n in counts]

    def at(self, k: int) -> Match:
        if k not in self._cache:
            cut = self.record if k == self.steps else dataclasses.replace(
                self.record, actions=self.record.actions[:k], dice=self.record.dice[:self._dice_after[k]])
            self._cache[k] = warroom.load(cut)
        return self._cache[k]

    def events(self, k: int) -> list[Event]:
        """What step k's decision and the dice after it caused."""
        before = len(self.at(k - 1).log) if k > 0 else 0
        return self.at(k).log[before:]

    def label(self, k: int) -> str:
        """Step k's decision in plain words, as it was offered in its position."""
        if k == 0:
            return "Start of the game"
        action = self.record.actions[k - 1]
        before = self.at(k - 1)
        try:
            return load_renderer(self.record.game).action_label(before, action)
        except WarroomError:
            return action


class TerminalReplay:
    """Step through a saved game: Enter/n next, b back, g N go to step N, q quit."""

    def __init__(self, replay: Replay, console: Console, *, ask: Ask | None = None) -> None:
        self.replay = replay
        self.console = console
        self.ask: Ask = ask or plain_prompt(console)
        self.renderer = load_renderer(replay.record.game)

    def show(self, k: int) -> None:
        match = self.replay.at(k)
        self.console.print(Rule(style="grey37"))
        self.console.print(self.renderer.render_board(match))
        head = Text(f"Step {k} of {self.replay.steps}: ", style="bold cyan")
        head.append(self.replay.label(k), style="bold")
        self.console.print(head)
        print_events(self.console, self.renderer, self.replay.events(k))
        if match.over:
            self.console.print(result_panel(match))

    def run(self) -> None:
        k = 0
        self.show(k)
        try:
            while True:
                line = self.ask("Enter/n next · b back · g N go to step N · q quit> ").strip().lower()
                word, _, arg = line.partition(" ")
                if word in ("", "n", "next"):
                    if k >= self.replay.steps:
                        self.console.print("[yellow]That was the last step: b goes back, q quits.[/yellow]")
                        continue
                    k += 1
                elif word in ("b", "back"):
                    if k == 0:
                        self.console.print("[yellow]This is the start: Enter goes forward.[/yellow]")
                        continue
                    k -= 1
                elif word in ("g", "go"):
                    if not arg.isdigit() or int(arg) > self.replay.steps:
                        self.console.print(f"[red]g needs a step number from 0 to {self.replay.steps}, e.g. g 12[/red]")
                        continue
                    k = int(arg)
                elif word in ("q", "quit", "exit"):
                    return
                else:
                    self.console.print(Text(f"{line!r}: use Enter or n (next), b (back), g N (go to step N), q (quit).", style="red"))
                    continue
                self.show(k)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
