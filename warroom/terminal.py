"""The interactive terminal front end for every game: play (board, numbered actions, dice, commands) and replay.

A game plugs in through its spec (warroom.engine.spec): `terminal` gives a `TerminalView` with
`render_board(match) -> rich renderable` and, optionally, `action_label(match, id)`,
`pending_roll(match)` (what a die about to be rolled decides, with its odds), `event_style(event)`,
`roll_name(match)` (what the pending chance is when it is not a die, e.g. "movement card"),
`side_name(match, side)`, `action_path(match, id)` (the steps of a step menu, warroom/menus.py: a
long list is then chosen in steps, a town, then a destination, then the force) and
`status_line(match)` (the one line shown instead of the whole board between two decisions of the
same phase). The help is the spec's `help` (the browser shows the same sections), the sides' names
the scenario's `terms` (a scenario's own name for a side rather than its id). A game without a
terminal view gets a plain generic board, so every registered game is playable.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

import warroom
from warroom.engine.errors import IllegalActionError, WarroomError
from warroom.engine.match import Match
from warroom.engine.observe import visible_events
from warroom.engine.record import Record
from warroom.engine.ruleset import DICE_SIDE, Event
from warroom.terminal_commands import COMMANDS_HELP, HINT_SIMULATIONS_RANGE, SessionCommands
from warroom.terminal_computer import ComputerTurns
from warroom.terminal_dice import TypedDice
from warroom.terminal_menu import ActionMenu
from warroom.terminal_render import (
    Ask,
    Renderer,
    generic_board,
    generic_status,
    help_markup,
    hides_something,
    labelling_rolls,
    load_renderer,
    plain_prompt,
    print_events,
    result_panel,
)
from warroom.terminal_seats import SharedScreen, computer_players, players_of, who_plays

# what the play session's modules give, importable from here as before the session was split
__all__ = [
    "COMMANDS_HELP",
    "HINT_SIMULATIONS_RANGE",
    "Ask",
    "Renderer",
    "Replay",
    "TerminalGame",
    "TerminalReplay",
    "computer_players",
    "generic_board",
    "generic_status",
    "help_markup",
    "labelling_rolls",
    "load_renderer",
    "players_of",
    "plain_prompt",
    "print_events",
    "print_review",
    "replay_viewer",
    "result_panel",
    "sparkline",
    "who_plays",
]

REPLAY_HELP = """\
[bold]Replay[/bold]: Enter or [bold]n[/bold] the next step · [bold]b[/bold] back one · [bold]g N[/bold] go to step N · \
[bold]h[/bold] this help · [bold]q[/bold] quit"""


class TerminalGame:
    """One interactive game in a terminal: a human decides (or watches an agent), the dice roll or are typed in.

    The session keeps the loop, the board and the playing of a move; its collaborators do the rest: the menu of
    actions (warroom.terminal_menu), the commands (warroom.terminal_commands), the people sharing the screen
    (warroom.terminal_seats), the dice typed in (warroom.terminal_dice) and the computer's moves
    (warroom.terminal_computer)."""

    def __init__(
        self,
        match: Match,
        console: Console,
        *,
        ask: Ask | None = None,
        save_default: str | None = None,
        agent: Any = None,
        agent_sides: set[str] | None = None,
        flat: bool = False,
        pace: float | None = None,
        seal_seed: bool = False,
    ) -> None:
        self.match = match
        self.console = console
        self.ask: Ask = ask or plain_prompt(console)
        self.renderer = load_renderer(match.ruleset.info.id)
        self.save_default = save_default or f"{match.ruleset.info.id}-save.json"
        self.agent = agent
        # None: the agent plays every side (you watch); else it plays only these sides (you play the rest)
        self.agent_sides = agent_sides
        self.paused = False  # watching an agent: True after Ctrl-C, then each of its moves waits for Enter
        # seconds between the computer's moves: a watched game plays on at a readable pace (on a terminal;
        # piped output is not read as it comes), an opponent's turn at once
        self.pace = pace if pace is not None else (1.0 if agent_sides is None and console.is_terminal else 0.0)
        # a mid-game save leaves out a seed the players were not told: it would tell every card and die to come
        self.seal_seed = seal_seed
        self.final_save: str | None = None  # where the finished game was saved, if it was
        self.dirty = True  # the board (or the die's stakes) is to be shown before the next prompt
        self._drawn_turn: Any = None
        # a game that hides something from a side (its spec's `hidden`): the computer's reasons may tell what its
        # side holds, so against a person they are kept until the game is over, then told with their moves
        self.secret_reasons = hides_something(match)
        self.board_key: Any = None  # (match, turn and phase, side to act) of the last whole board drawn
        self.menu = ActionMenu(self, flat=flat)
        self.commands = SessionCommands(self)
        self.screen = SharedScreen(self)
        self.dice = TypedDice(self)
        self.computer = ComputerTurns(self)

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        while True:
            try:
                if self._step():
                    return
            except EOFError:
                self.console.print("\n[yellow]Input closed: leaving the game without saving.[/yellow]")
                return
            except KeyboardInterrupt:
                if self.watching() and not self.paused:  # Ctrl-C while watching pauses the game, it does not end it
                    self.paused = True
                    self.console.print(
                        "\n[yellow]Paused: each move of the computer now waits for you (c plays on).[/yellow]"
                    )
                    continue
                # Ctrl-C ends the game as q does, offering to save it first; a second Ctrl-C leaves at once
                self.console.print("\n[yellow]Interrupted.[/yellow]")
                try:
                    self.commands.quit()
                except (KeyboardInterrupt, EOFError):
                    self.console.print("\n[yellow]Leaving the game without saving.[/yellow]")
                return

    def watching(self) -> bool:
        """The computer plays every side: the person watches."""
        return self.agent is not None and self.agent_sides is None

    def _step(self) -> bool:
        """One prompt (or one agent move); True when the session is over."""
        if self.match.over:
            self._game_over()
            return True
        if self.match.to_act == DICE_SIDE:
            return self.dice.prompt()
        if self._agent_to_move():
            if self.watching():
                self.draw()
            return self.computer.move()
        if self.screen.automatic():
            return False
        if self.screen.must_pass():
            return self.screen.pass_device()
        self.screen.holder = self.match.to_act
        self.computer.done()
        self.draw()
        return self._decision_prompt()

    def _game_over(self) -> None:
        """The last board, the result, the reasons kept back, and the offer to save the game for its replay."""
        self.computer.done()
        self.draw()
        self.console.print(result_panel(self.match))
        self.computer.tell_held_reasons()
        if self.commands.yes("Save this game to replay it later? [y/N] "):
            self.commands.save_interactively()

    def _agent_to_move(self) -> bool:
        if self.agent is None:
            return False
        return self.agent_sides is None or self.match.to_act in self.agent_sides

    def draw(self) -> None:
        """The board when something changed: the whole board when the phase or the side to act changes (or on
        b / Enter); between two of the same player's decisions in one phase, one status line: the board is just
        above. Then the menu, when a person decides."""
        if not self.dirty:
            return
        self.dirty = False
        turn, _ = self.match.ruleset.turn_and_phase(self.match.state)
        if self.watching() and not self.paused and turn == self._drawn_turn and not self.match.over:
            return  # watching at full speed: one board a turn is enough
        self._drawn_turn = turn
        key = (id(self.match), self.match.ruleset.turn_and_phase(self.match.state), self.match.to_act)
        if key == self.board_key and not self.match.over:
            status = Text("· ", style="grey37")
            status.append_text(self.renderer.status_line(self.match))
            status.append("  (Enter: the whole board)", style="dim")
            self.console.print(status)
        else:
            self.board_key = key
            self.console.print(Rule(style="grey37"))
            self.console.print(self.renderer.render_board(self.match))
        if not self._agent_to_move() and not self.match.over and self.match.to_act != DICE_SIDE:
            self.menu.show()

    # -- a human decision -----------------------------------------------------------------------
    def _decision_prompt(self) -> bool:
        line = self.ask(self.menu.prompt()).strip()
        handled = self.commands.run(line)
        if handled is not None:
            return handled
        self.menu.answer(line)
        return False

    def play(self, action: str, who: str = "", why: str = "", brief: bool = False) -> None:
        """Play `action` and print it with its events and the computer's one-line reason (`why`); `brief`
        (the computer's turn, summed up): the events, which say what the action did (the action itself only
        when it caused none), then its reason, so a turn reads as a list of what it did and why."""
        label = self.renderer.action_label(self.match, action)
        try:
            events = self.match.play(action)
        except IllegalActionError as exc:
            self.error(str(exc))
            return
        events = self.screen.seen(events)
        heading = Text(f"▶ {who}", style="bold")
        heading.append(label, style="bold")
        if not (brief and events):
            self.console.print(heading)
        if why and not brief:
            self.console.print(Text(f"  why: {why}", style="dim"))
        print_events(self.console, self.renderer, events)
        if why and brief:
            self.console.print(Text(f"    why: {why}", style="dim"))
        self.dirty = True

    def error(self, message: str, style: str = "red") -> None:
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
        self.viewer = replay_viewer(record, self.final)

    def decider(self, k: int) -> str | None:
        """The side that made step k's decision (None for the start)."""
        return self.at(k - 1).to_act if k > 0 else None

    def hidden(self, k: int) -> bool:
        """Whether step k's decision is the computer's and the replay's viewer may not read it as made."""
        return self.viewer is not None and self.decider(k) != self.viewer

    def _count_dice(self) -> list[int]:
        """How many of the record's dice had been rolled after each decision (a scripted-dice match tells)."""
        r = self.record
        stepper = warroom.new_game(
            r.game, r.scenario, seed=r.seed, dice=list(r.dice), options=r.options, position=r.position, keep_log=False
        )
        counts = [len(stepper.dice_rolled)]
        for action in r.actions:
            stepper.play(action)
            counts.append(len(stepper.dice_rolled))
        return [min(n, len(r.dice)) for n in counts]

    def at(self, k: int) -> Match:
        if k not in self._cache:
            cut = (
                self.record
                if k == self.steps
                else dataclasses.replace(
                    self.record, actions=self.record.actions[:k], dice=self.record.dice[: self._dice_after[k]]
                )
            )
            self._cache[k] = warroom.load(cut)
        return self._cache[k]

    def events(self, k: int) -> list[Event]:
        """What step k's decision and the dice after it caused (as the viewer saw it, where there is one)."""
        before = len(self.at(k - 1).log) if k > 0 else 0
        events = self.at(k).log[before:]
        return events if self.viewer is None else visible_events(self.at(k).ruleset, events, self.viewer)

    def label(self, k: int) -> str:
        """Step k's decision in plain words, as it was offered in its position."""
        if k == 0:
            return "Start of the game"
        if self.hidden(k):  # its events say what could be seen of it
            return f"the computer's decision for {self.decider(k)}"
        action = self.record.actions[k - 1]
        before = self.at(k - 1)
        try:
            return load_renderer(self.record.game).action_label(before, action)
        except WarroomError:
            return action


def replay_viewer(record: Record, final: Match) -> str | None:
    """From whose side a saved game replays: an unfinished game against the computer replays as its one person
    saw it (the computer's hidden pieces, cards and reasons stay hidden until the game ends, as they did at the
    table); a finished game, or one people played on every side, replays whole (None)."""
    computer = set(record.players or {})
    people = [side for side in final.ruleset.info.sides if side not in computer]
    if final.over or not computer or len(people) != 1:
        return None
    return people[0]


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
        if self.replay.viewer is not None and k == 0:
            self.console.print(
                Text(
                    f"The game is not over: it replays as {self.replay.viewer} saw it, the computer's secrets kept.",
                    style="dim",
                )
            )
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
                line = self.ask("Enter/n next · b back · g N go to step N · h help · q quit> ").strip().lower()
                word, _, arg = line.partition(" ")
                if word in ("h", "help", "?"):  # the board's footer says "h: help": replay takes it too
                    self.console.print(
                        Panel(
                            Group(Text.from_markup(self.renderer.help_text), Text(""), Text.from_markup(REPLAY_HELP)),
                            title="Help",
                            border_style="cyan",
                        )
                    )
                    continue
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
                    self.console.print(
                        Text(
                            f"{line!r}: use Enter or n (next), b (back), g N (go to step N), h (help), q (quit).",
                            style="red",
                        )
                    )
                    continue
                self.show(k)
        except (EOFError, KeyboardInterrupt):
            self.console.print()


# -- post-game analysis ------------------------------------------------------------------------
SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float], width: int) -> str:
    """`values` (0..1) as one line of block characters at most `width` wide (each the mean of its share of the
    values)."""
    if not values:
        return ""
    width = max(1, min(width, len(values)))
    out = []
    for k in range(width):
        chunk = values[k * len(values) // width : max(k * len(values) // width + 1, (k + 1) * len(values) // width)]
        mean = sum(chunk) / len(chunk)
        out.append(SPARKS[min(len(SPARKS) - 1, max(0, int(mean * len(SPARKS))))])
    return "".join(out)


def print_review(console: Console, report: dict[str, Any]) -> None:
    """`warroom review`: each side's line over the game (a sparkline, start and end), then each marked move
    with what it cost and what the computer would have played, and why (warroom.ai.review)."""
    from warroom.games import get_spec

    names = get_spec(report["game"]).terms(report.get("scenario")).side_names
    points = report["points"]
    console.print(
        Text(
            f"Review: {report['game']}{' · ' + report['scenario'] if report.get('scenario') else ''} · "
            f"{report['steps']} decisions · {report['measure']}",
            style="bold",
        )
    )
    console.print(Text(f"Scored by {report['scoring']}.", style="dim"))
    width = max(20, console.width - 30)
    for side in report["sides"]:
        values = [float(p["values"][side]) for p in points]
        line = Text(f"{names.get(side, side):>12} ", style="bold")
        line.append(sparkline(values, width), style="cyan")
        line.append(f" {values[0]:.0%} → {values[-1]:.0%}")
        console.print(line, no_wrap=True, overflow="crop")
    if not report["mistakes"]:
        console.print(Text("No decision cost its side more than a point.", style="green"))
        return
    console.print(Text("The moves that cost the most:", style="bold"))
    for mistake in report["mistakes"]:
        head = Text(f"  step {mistake['step']:>4} ", style="bold cyan")
        head.append(f"{names.get(mistake['side'], mistake['side'])}: ", style="bold")
        head.append(str(mistake["label"]))
        console.print(head)
        console.print(Text(f"             {mistake['text']}", style="yellow"))
        computer = mistake["computer"]
        if computer["action"] != mistake["action"]:
            console.print(Text(f"             the computer would have played: {computer['label']}"))
        if computer["why"]:
            console.print(Text(f"             why: {computer['why']}", style="dim"))
    console.print(Text("Step through it with warroom replay FILE (g N goes to step N).", style="dim"))
