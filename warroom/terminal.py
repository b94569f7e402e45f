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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.pretty import Pretty
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

import warroom
from warroom.engine.errors import IllegalActionError, UndoLockedError, WarroomError
from warroom.engine.match import Match
from warroom.engine.observe import concealed_decision, reason_readers, visible_events
from warroom.engine.record import Record, read_record, save_record
from warroom.engine.ruleset import DICE_SIDE, Event
from warroom.engine.spec import HelpSection
from warroom.menus import Entry, Level, build_level, find, pick_by_name, pick_by_word, step_into, wrap_words

Ask = Callable[[str], str]

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

REPLAY_HELP = """\
[bold]Replay[/bold]: Enter or [bold]n[/bold] the next step · [bold]b[/bold] back one · [bold]g N[/bold] go to step N · \
[bold]h[/bold] this help · [bold]q[/bold] quit"""


@dataclass(frozen=True)
class Renderer:
    """How one game draws itself in the terminal: its spec's `TerminalView`, a plain default for each
    part the view leaves out, and the help as rich markup."""

    game: str
    render_board: Callable[[Match], RenderableType]
    help_text: str
    action_label: Callable[[Match, str], str]
    pending_roll: Callable[[Match], RenderableType | None]
    event_style: Callable[[Event], str]
    roll_name: Callable[[Match], str | None] = lambda match: None
    side_name: Callable[[Match, str], str] = lambda match, side: side
    action_path: Callable[[Match, str], tuple[str, ...]] | None = None
    status_line: Callable[[Match], Text] = lambda match: generic_status(match)
    action_order: Callable[[Match, Sequence[str]], list[str]] | None = None


def labelling_rolls(label: Callable[[Match, str], str]) -> Callable[[Match, str], str]:
    """`label`, but for a die typed in at the table (`roll N` while the side `dice` decides): that is the
    kernel's action, not the game's, and a game whose labels read only its own actions would refuse it (one
    did, and its table assistant ended at the first die). Such a roll reads as the game says it where it can
    (a card drawn by name), else as the value typed."""

    def label_of(match: Match, action: str) -> str:
        try:
            return label(match, action)
        except (WarroomError, KeyError, ValueError, IndexError):
            if match.to_act != DICE_SIDE:
                raise
            return action.removeprefix("roll ")

    return label_of


def load_renderer(game: str) -> Renderer:
    """What the game's spec gives the terminal (`terminal`, `help`, `terms`), with the generic
    fallback for every part it does not."""
    from warroom.games import get_spec

    spec = get_spec(game)
    view = spec.terminal() if spec.terminal is not None else None

    def scenario_name(match: Match, side: str) -> str:
        return spec.terms(match.scenario).side_names.get(side, side)

    def plain_label(match: Match, action: str) -> str:
        return match.ruleset.describe_action(match.state, action)

    if view is None:
        return Renderer(
            game=game,
            render_board=generic_board,
            help_text=help_markup(spec.help, "", game),
            action_label=labelling_rolls(plain_label),
            pending_roll=lambda match: None,
            event_style=lambda event: "",
            side_name=scenario_name,
        )
    return Renderer(
        game=game,
        render_board=view.render_board,
        help_text=help_markup(spec.help, view.help_text, game),
        action_label=labelling_rolls(view.action_label or plain_label),
        pending_roll=view.pending_roll or (lambda match: None),
        event_style=view.event_style or (lambda event: ""),
        roll_name=view.roll_name or (lambda match: None),
        side_name=view.side_name or scenario_name,
        action_path=view.action_path,
        status_line=view.status_line or generic_status,
        action_order=view.action_order,
    )


def help_markup(sections: tuple[HelpSection, ...], fallback: str, game: str) -> str:
    """The help as rich markup: each of the spec's sections for the terminal (the browser shows the same
    words) in bold, its rule dim after it; a game without sections, its view's own help or a pointer to
    the rulebook."""
    shown = [section for section in sections if section.only in ("", "terminal")]
    if not shown:
        return fallback or f"[bold]{escape(game)}[/bold]: see the rulebook in shared/rulebooks for the rules."
    parts = []
    for section in shown:
        rule = f" [dim]({escape(section.rule)})[/dim]" if section.rule else ""
        parts.append(f"[bold]{escape(section.title)}[/bold]: {escape(section.text)}{rule}")
    return "\n\n".join(parts)


def generic_status(match: Match) -> Text:
    """One line: the game, its turn and phase (shown between two decisions of one phase instead of the board)."""
    turn, phase = match.ruleset.turn_and_phase(match.state)
    return Text(f"{match.ruleset.info.title} · turn {turn} · {phase}", style="bold")


def _hides_something(match: Match) -> bool:
    """Whether the game keeps something from a side (its spec's `hidden`): then what one side's computer thinks
    may tell it."""
    from warroom.games import get_spec

    return bool(get_spec(match.ruleset.info.id).hidden)


def plain_prompt(console: Console) -> Ask:
    """Read a line after a prompt shown as is (a prompt like "[y/N]" is not rich markup)."""
    return lambda prompt: console.input(Text(prompt, style="bold"))


def generic_board(match: Match) -> RenderableType:
    """A plain board for games without a renderer: where the game stands and what the side to act may see."""
    turn, phase = match.ruleset.turn_and_phase(match.state)
    viewer = match.to_act if match.to_act in match.ruleset.info.sides else None
    head = Text(
        f"{match.ruleset.info.title} · turn {turn} · {phase} · to act: {match.to_act or 'nobody (game over)'}",
        style="bold",
    )
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
    """The end of the game: who won (in the scenario's words), why (and by which rule), and the score with its
    breakdown."""
    result = match.result
    if result is None:
        return Text("The game is not over.")
    title = (
        "Draw"
        if result.winner is None
        else f"{load_renderer(match.ruleset.info.id).side_name(match, result.winner)} victory"
    )
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


# -- who plays which side, kept in a save (the record header's `players`) --------------------------
def players_of(match: Match, agent: Any, agent_sides: set[str] | None) -> dict[str, dict[str, Any]]:
    """The record header's `players` for a session: each side the computer plays, with its agent (and
    an MCTS agent's thinking time); {} when people play every side. Saved, so that a game against
    the computer comes back against the computer, not as hot-seat."""
    if agent is None:
        return {}
    player: dict[str, Any] = {"agent": agent.name}
    budget = getattr(agent, "budget_ms", None)
    if budget is not None:
        player["budget_ms"] = budget
    return {side: dict(player) for side in match.ruleset.info.sides if agent_sides is None or side in agent_sides}


def computer_players(
    players: dict[str, dict[str, Any]], match: Match, budget_ms: int | None = None
) -> tuple[Any, set[str] | None]:
    """The agent and the sides it plays (None: every side, you watch) for a record's `players`;
    `budget_ms` overrides the saved thinking time. RecordError when a side is not the game's or the
    sides want different agents (the terminal seats one computer player)."""
    from warroom.ai import agent_seed, get_agent
    from warroom.engine.errors import RecordError

    if not players:
        return None, None
    sides = list(match.ruleset.info.sides)
    for side in players:
        if side not in sides:
            raise RecordError(
                f"record header 'players' names {side[:40]!r}, "
                f"not a side of {match.ruleset.info.title} ({', '.join(sides)})"
            )
    kinds = {(player["agent"], player.get("budget_ms")) for player in players.values()}
    if len(kinds) > 1:
        raise RecordError(
            "record header 'players' gives the sides different computer players; the terminal seats one: "
            "load it with warroom play --load FILE --vs ai --agent NAME"
        )
    name, saved_budget = kinds.pop()
    agent = get_agent(
        name, match.ruleset.info.id, budget_ms if budget_ms is not None else saved_budget, agent_seed(match.seed)
    )
    return agent, None if set(players) == set(sides) else set(players)


def who_plays(match: Match, agent: Any, agent_sides: set[str] | None) -> str:
    """One line on the seats: "the computer (heuristic) plays SIDE" (the scenario's name), "people play every side"."""
    if agent is None:
        return "people play every side" if len(match.ruleset.info.sides) > 1 else "you play"
    if agent_sides is None:
        return f"the computer ({agent.name}) plays every side: you watch"
    renderer = load_renderer(match.ruleset.info.id)
    named = [renderer.side_name(match, side) for side in match.ruleset.info.sides if side in agent_sides]
    return f"the computer ({agent.name}) plays {' and '.join(named)}"


class TerminalGame:
    """One interactive game in a terminal: a human decides (or watches an agent), the dice roll or are typed in."""

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
        self.flat = flat  # every legal action in one numbered list, never in steps (scripts, --flat)
        # a mid-game save leaves out a seed the players were not told: it would tell every card and die to come
        self.seal_seed = seal_seed
        self.final_save: str | None = None  # where the finished game was saved, if it was
        self._dirty = True
        self._drawn_turn: Any = None
        self._menu_key: Any = None
        self._labels: dict[str, str] = {}
        self._paths: dict[str, tuple[str, ...]] = {}
        self._level: Level | None = None
        self._back: list[Level] = []
        self._show_all = False
        self._computer_moves = 0  # decisions the computer has made since the human last decided
        # a game that hides something from a side (its spec's `hidden`): the computer's reasons may tell what its
        # side holds, so against a person they are kept until the game is over, then told with their moves
        self._secret_reasons = _hides_something(match)
        self._held_reasons: list[tuple[str, str, str]] = []
        self._board_key: Any = None  # (match, turn and phase, side to act) of the last whole board drawn
        # people sharing this screen in a game that hides something: the side the screen now shows, which the
        # device is passed from before another person decides (None: nobody has decided yet)
        self._holder: str | None = None

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
                if self._watching() and not self.paused:  # Ctrl-C while watching pauses the game, it does not end it
                    self.paused = True
                    self.console.print(
                        "\n[yellow]Paused: each move of the computer now waits for you (c plays on).[/yellow]"
                    )
                    continue
                # Ctrl-C ends the game as q does, offering to save it first; a second Ctrl-C leaves at once
                self.console.print("\n[yellow]Interrupted.[/yellow]")
                try:
                    self._quit()
                except (KeyboardInterrupt, EOFError):
                    self.console.print("\n[yellow]Leaving the game without saving.[/yellow]")
                return

    def _watching(self) -> bool:
        return self.agent is not None and self.agent_sides is None

    def _step(self) -> bool:
        """One prompt (or one agent move); True when the session is over."""
        if self.match.over:
            self._computer_done()
            self._draw()
            self.console.print(result_panel(self.match))
            self._tell_held_reasons()
            if self._yes("Save this game to replay it later? [y/N] "):
                self._save_interactively()
            return True
        if self.match.to_act == DICE_SIDE:
            return self._dice_prompt()
        if self._agent_to_move():
            if self._watching():
                self._draw()
            return self._agent_move()
        if self._automatic():
            return False
        if self._shared_screen() and self._holder not in (None, self.match.to_act):
            return self._pass_device()
        self._holder = self.match.to_act
        self._computer_done()
        self._draw()
        return self._decision_prompt()

    # -- people at one screen, and answers given without asking -----------------------------------
    def _people(self) -> list[str]:
        """The sides people play at this screen."""
        sides = list(self.match.ruleset.info.sides)
        if self.agent is None:
            return sides
        return [] if self.agent_sides is None else [side for side in sides if side not in self.agent_sides]

    def _shared_screen(self) -> bool:
        """Two or more people at one screen in a game that hides something from a side: the device is passed
        before another person decides, and each sees only what his side may."""
        return self._secret_reasons and len(self._people()) > 1

    def _automatic(self) -> bool:
        """A decision the rules put to a person's seat whatever it holds, with one answer (the spec's
        `concealed_decision`): given without asking and without passing the device, and shown as its events
        alone (a chosen one is made behind a device pass), so whoever holds the screen cannot tell it from a
        chosen answer by what is printed. True when one was given."""
        concealed = concealed_decision(self.match.ruleset, self.match.state)
        if concealed is None or concealed.automatic is None:
            return False
        side = self.match.to_act or ""
        if self._shared_screen() and side != self._holder:
            print_events(self.console, self.renderer, self._seen(self.match.play(concealed.automatic)))
            self._dirty = True
            return True
        name = self.renderer.side_name(self.match, side)
        self._play(concealed.automatic, who=f"{name}, with nothing to choose ({concealed.rule}): ")
        return True

    def _pass_device(self) -> bool:
        """Another person decides next: the screen is cleared and waits until that person holds the device."""
        side = self.match.to_act or ""
        name = self.renderer.side_name(self.match, side)
        self.console.clear()
        self.console.print(Rule(Text(f"Pass the device to {name}", style="bold"), style="grey37"))
        line = self.ask(f"{name}: press Enter when the others cannot see the screen (s save, q quit)> ").strip()
        if line:
            handled = self._command(line)
            if handled is None:
                self._error(f"{line!r}: press Enter once you hold the device, {name}.")
            return bool(handled)
        self._holder = side
        self._dirty = True
        self._board_key = None
        return False

    def _agent_to_move(self) -> bool:
        if self.agent is None:
            return False
        return self.agent_sides is None or self.match.to_act in self.agent_sides

    def _draw(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        turn, _ = self.match.ruleset.turn_and_phase(self.match.state)
        if (
            self.agent_sides is None
            and self.agent is not None
            and not self.paused
            and turn == self._drawn_turn
            and not self.match.over
        ):
            return  # watching at full speed: one board a turn is enough
        self._drawn_turn = turn
        # The whole board when the phase or the side to act changes (or on b / Enter); between two of
        # the same player's decisions in one phase, one status line: the board is just above.
        key = (id(self.match), self.match.ruleset.turn_and_phase(self.match.state), self.match.to_act)
        if key == self._board_key and not self.match.over:
            status = Text("· ", style="grey37")
            status.append_text(self.renderer.status_line(self.match))
            status.append("  (Enter: the whole board)", style="dim")
            self.console.print(status)
        else:
            self._board_key = key
            self.console.print(Rule(style="grey37"))
            self.console.print(self.renderer.render_board(self.match))
        if not self._agent_to_move() and not self.match.over and self.match.to_act != DICE_SIDE:
            self._menu()

    # -- the menu: one numbered list, or steps (menus.py) when the game gives paths ------------
    def _label(self, action: str) -> str:
        if action not in self._labels:
            self._labels[action] = self.renderer.action_label(self.match, action)
        return self._labels[action]

    def _current_level(self) -> Level | None:
        """The step menu's level now shown; None for the full numbered list (--flat, `all`, or a game without paths)."""
        legal = self.match.legal_actions()
        key = (id(self.match), len(self.match.actions), len(self.match.dice_rolled), tuple(legal))
        if key != self._menu_key:  # a new position: labels, paths and the menu start afresh
            self._menu_key = key
            self._labels = {}
            self._show_all = False
            self._back = []
            path = self.renderer.action_path
            self._paths = {a: path(self.match, a) for a in legal} if path is not None and not self.flat else {}
            order = self.renderer.action_order
            listed = order(self.match, legal) if order is not None and self._paths else legal
            self._level = build_level(listed, self._paths, self._label) if self._paths else None
        return None if self._show_all else self._level

    def _menu(self) -> None:
        side = self.renderer.side_name(self.match, self.match.to_act or "")
        level = self._current_level()
        if level is None:
            self.console.print(Text(f"{side} to decide:", style="bold"))
            for n, action in enumerate(self.match.legal_actions(), 1):
                self._menu_line(str(n), self._label(action))
            return
        head = Text(f"{side} to decide", style="bold")
        if level.trail:
            head.append(": " + " › ".join(level.trail), style="bold")
        self.console.print(head)
        for n, entry in enumerate(level.entries, 1):
            self._menu_line(str(n), entry.label, 0 if entry.leaf else len(entry.actions))
        if self._back:
            self._menu_line("0", "back", style="dim")

    def _menu_line(self, number: str, label: str, choices: int = 0, style: str = "") -> None:
        """One numbered line, wrapped under its text and never inside a bracketed note like [exactly 2/3]."""
        indent = 5
        width = max(40, self.console.width - 1)
        more = f"  ▸ {choices} choices" if choices else ""
        lines = wrap_words(label + more, width, indent)
        for k, part in enumerate(lines):
            line = Text(f"{number:>3}. " if k == 0 else " " * indent, style="bold cyan")
            line.append(part, style=style or ("cyan" if choices else ""))
            self.console.print(line, no_wrap=True, overflow="ignore", crop=False)

    # -- a human decision -----------------------------------------------------------------------
    def _decision_prompt(self) -> bool:
        legal = self.match.legal_actions()
        level = self._current_level()
        if level is None:
            back = ", 0 steps" if self._show_all else ""
            line = self.ask(f"Choose 1-{len(legal)}{back} (h help, u undo, s save, q quit)> ").strip()
        else:
            back = ", 0 back" if self._back else ""
            line = self.ask(
                f"Choose 1-{len(level.entries)}{back}, or type a name or all (h help, u undo, s save, q quit)> "
            ).strip()
        handled = self._command(line)
        if handled is not None:
            return handled
        if line in legal:
            self._play(line)
        elif level is None:
            self._flat_choice(line, legal)
        else:
            self._step_choice(line, level, legal)
        return False

    def _flat_choice(self, line: str, legal: list[str]) -> None:
        if line == "0" and self._show_all:
            self._show_all = False
            self._menu()
        elif line.isdigit():
            n = int(line)
            if not 1 <= n <= len(legal):
                self._error(f"There is no action {n}: choose a number from 1 to {len(legal)}.")
                return
            self._play(legal[n - 1])
        else:
            self._error(f"{line!r} is not a number or a command: type a number from 1 to {len(legal)}, or h for help.")

    def _step_choice(self, line: str, level: Level, legal: list[str]) -> None:
        """A number steps into its group or plays its action; 0 goes back; `all` lists everything;
        a word picks the entry it starts (a force like 2A1I), or inside a group the one entry naming it (a
        hex's number or a place's name in a destination list), else finds the actions naming it (a number
        beyond the list's too: a hex)."""
        n = len(level.entries)
        k = int(line) if line.isdigit() else None
        if k == 0 and self._back:
            self._level = self._back.pop()
            self._menu()
            return
        if k is not None and 1 <= k <= n:
            self._choose(level, level.entries[k - 1])
            return
        if line.lower() in ("all", "list"):
            self._show_all = True
            self._menu()
            return
        entry = pick_by_word(level, line, self._paths) if k is None else None
        if entry is None and level.trail:
            entry = pick_by_name(level, line, self._paths)
        if entry is not None:
            self._choose(level, entry)
            return
        found = find(legal, self._paths, self._label, line) if k != 0 else []
        if not found:
            if k is not None:
                where = "from 1" if not self._back else "from 0 (back)"
                self._error(
                    f"There is no choice {k} here, nor an action naming {line}: type a number {where} to {n}, "
                    "a hex's number or a town's name, or all for the full list."
                )
                return
            self._error(
                f"{line!r} is not a number, a command or a name in any action here: type a number from 1 to {n}, "
                "a hex's number or a town's name, all for the full list, or h for help."
            )
            return
        self._back.append(level)
        self._level = build_level(found, self._paths, self._label, trail=(f"actions naming {line!r}",))
        self._menu()

    def _choose(self, level: Level, entry: Entry) -> None:
        if entry.leaf:
            self._play(entry.actions[0])
            return
        self._back.append(level)
        self._level = step_into(level, entry, self._paths, self._label)
        self._menu()

    def _play(self, action: str, who: str = "", why: str = "", brief: bool = False) -> None:
        """Play `action` and print it with its events and the computer's one-line reason (`why`); `brief`
        (the computer's turn, summed up): the events, which say what the action did (the action itself only
        when it caused none), then its reason, so a turn reads as a list of what it did and why."""
        label = self.renderer.action_label(self.match, action)
        try:
            events = self.match.play(action)
        except IllegalActionError as exc:
            self._error(str(exc))
            return
        events = self._seen(events)
        heading = Text(f"▶ {who}", style="bold")
        heading.append(label, style="bold")
        if not (brief and events):
            self.console.print(heading)
        if why and not brief:
            self.console.print(Text(f"  why: {why}", style="dim"))
        print_events(self.console, self.renderer, events)
        if why and brief:
            self.console.print(Text(f"    why: {why}", style="dim"))
        self._dirty = True

    def _seen(self, events: list[Event]) -> list[Event]:
        """The events the person at the keyboard may read: against the computer, those the person's side may
        see (a face-down deployment, a card drawn, a piece beneath a stack are the computer's); people passing
        the device in a game that hides something, those of the side holding it; watching the computer play
        itself, or people sharing the screen of a game that hides nothing, every event."""
        if self._shared_screen():
            return visible_events(self.match.ruleset, events, self._holder or "")
        if self.agent_sides is None:
            return events
        people = [side for side in self.match.ruleset.info.sides if side not in self.agent_sides]
        if len(people) != 1:
            return events
        return visible_events(self.match.ruleset, events, people[0])

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
        words = line.replace(",", " ").split()
        if len(words) > 1:
            self._several_rolls(words, noun)
            return False
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

    def _several_rolls(self, words: list[str], noun: str | None) -> None:
        """Several dice typed on one line (a table player reads `5 5 2` off three dice): each is
        checked, on a copy of the game, against what that roll can show; one that does not fit
        refuses them all, so nothing is entered by half."""
        trial = self.match.clone()
        what = noun or "die"
        for k, word in enumerate(words, 1):
            if trial.to_act != DICE_SIDE:
                self._error(
                    f"You typed {len(words)} values but only {k - 1} {'is' if k == 2 else 'are'} asked for now: "
                    f"nothing was entered. Type the first {k - 1}."
                )
                return
            outcomes = [int(a.split()[1]) for a in trial.legal_actions()]
            number = f"{what} {k} of the {len(words)} you typed"
            if not (word.lstrip("-").isdigit() and int(word) in outcomes):
                shown = ", ".join(map(str, outcomes)) if noun is not None else f"{min(outcomes)} to {max(outcomes)}"
                self._error(
                    f"{number} ({word!r}) cannot come up: it must be {shown}. Nothing was entered; type them again."
                )
                return
            trial.play(f"roll {int(word)}")
        for word in words:
            self._play(
                f"roll {int(word)}", who="Card: " if self.renderer.roll_name(self.match) is not None else "Die: "
            )

    # -- watching an agent ----------------------------------------------------------------------
    def _computer_done(self) -> None:
        """The computer's turn is over: say so once; the board is then drawn once (not after each of its moves)."""
        if self._computer_moves:
            self.console.print(
                Text(
                    f"The computer made {self._computer_moves} decision{'s' if self._computer_moves != 1 else ''}; "
                    "the board now:",
                    style="bold",
                )
            )
            self._computer_moves = 0
            self._dirty = True
            self._board_key = None

    def _agent_move(self) -> bool:
        if not self._watching():
            return self._opponent_move()
        if not self.paused and self.pace > 0:
            time.sleep(self.pace)
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

    def _opponent_move(self) -> bool:
        """The computer's move for the other side: its events and its reason, no board (drawn once when it is done),
        so a computer turn is one summary screen in every game."""
        if not self._computer_moves:
            side = self.renderer.side_name(self.match, self.match.to_act or "")
            self.console.print(
                Rule(Text(f"{side}: the computer ({self.agent.name}) plays", style="bold"), style="grey37")
            )
        if self.pace > 0:
            time.sleep(self.pace)
        action, why = self.agent.choose(self.match)
        self._computer_moves += 1
        if why and self._secret_reasons and not self._reason_is_public(action, why):
            # it reasons from what its side holds: told when the game is over
            side = self.renderer.side_name(self.match, self.match.to_act or "")
            self._held_reasons.append((side, self.renderer.action_label(self.match, action), why))
            why = f"told when the game is over (it may tell what {side} holds)"
        self._play(action, who=f"Computer ({self.agent.name}): ", why=why, brief=True)
        return False

    def _reason_is_public(self, action: str, why: str) -> bool:
        """Whether every side the people at this screen play may read the computer's reason at once (the game's
        `public_reason`, warroom.engine.observe.reason_readers), reckoned on a copy of the move."""
        m = self.match
        side = m.to_act or ""
        computer = self.agent_sides or set()
        people = [s for s in m.ruleset.info.sides if s != side and s not in computer]
        after = m.ruleset.clone(m.state)
        m.ruleset.apply(after, action, False)
        readers = reason_readers(m.ruleset, m.state, after, action, side, why)
        return all(person in readers for person in people)

    def _tell_held_reasons(self) -> None:
        """The game is over: the reasons kept back during it (a game that hides something), each with its move."""
        if not self._held_reasons:
            return
        self.console.print(Text("The computer's reasons, now that the game is over:", style="bold"))
        for side, label, why in self._held_reasons:
            self.console.print(Text(f"  {side}: {label}", style="bold"))
            self.console.print(Text(f"    why: {why}", style="dim"))
        self._held_reasons = []

    # -- commands -------------------------------------------------------------------------------
    def _command(self, line: str) -> bool | None:
        """Handle a command; None if `line` is not one, else True when the session ends."""
        word, _, arg = line.partition(" ")
        word, arg = word.lower(), arg.strip()
        if word in ("", "b", "board"):
            self._dirty = True
            self._board_key = None
            self._draw()
            self._dirty = self.match.to_act == DICE_SIDE  # at a die prompt: say again what the die decides
            return False
        if word in ("h", "help", "?"):
            self.console.print(
                Panel(
                    Group(Text.from_markup(self.renderer.help_text), Text(""), Text.from_markup(COMMANDS_HELP)),
                    title="Help",
                    border_style="cyan",
                )
            )
            return False
        if word in ("u", "undo"):
            try:
                self.match.undo()
            except UndoLockedError as exc:
                self._error(f"Cannot undo: {exc}.", style="yellow")
                return False
            self.console.print("[green]Took back the last decision.[/green]")
            self._dirty = True
            self._board_key = None
            return False
        if word in ("s", "save"):
            self._save(arg or self.save_default)
            return False
        if word in ("l", "load"):
            if not arg:
                self._error(f"Type l FILE to load a saved game, e.g. l {self.save_default}")
                return False
            self._load(arg)
            return False
        if word in ("q", "quit", "exit"):
            return self._quit()
        if word == "hint":
            self._hint(arg)
            return False
        return None

    def _hint(self, arg: str) -> None:
        """The computer's three best moves here by their estimate, each with its 95% interval and the simulations
        behind it (warroom.ai.analysis.hint): a budget of simulations, so the same game gives the same hint."""
        from warroom.ai import agent_seed
        from warroom.ai.analysis import HINT_SIMULATIONS, hint, hint_moves

        least, most = HINT_SIMULATIONS_RANGE
        if arg and not (arg.isdigit() and least <= int(arg) <= most):
            self._error(
                f"hint takes the simulations a move, {least} to {most} (e.g. hint 200; {HINT_SIMULATIONS} unless "
                f"told), not {arg!r}."
            )
            return
        sims = int(arg) if arg else HINT_SIMULATIONS
        try:
            moves = len(hint_moves(self.match.ruleset, self.match.state))
            self.console.print(Text(f"Thinking: {moves} moves, {sims} simulations each...", style="dim"))
            found = hint(
                self.match, simulations=sims, seed=agent_seed(self.match.seed, f"hint {len(self.match.actions)}")
            )
        except WarroomError as exc:
            self._error(f"No hint: {exc}.")
            return
        self.console.print(
            Text(f"Hint (MCTS, {sims} simulations a move), by {found.measure}, highest first:", style="bold")
        )
        for n, alt in enumerate(found.top, 1):
            line = Text(f"{n:>3}. ", style="bold cyan")
            line.append(self.renderer.action_label(self.match, alt.action))
            if alt.chosen:
                line.append("  <- the computer's choice", style="bold")
            self.console.print(line)
            self.console.print(Text(f"     {alt.text}", style="dim"))
        if found.why:
            self.console.print(Text(f"  why: {found.why}", style="dim"))

    def _save(self, path: str) -> bool:
        folder = Path(path).expanduser().parent
        if not folder.is_dir():  # the engine would create it: a mistyped folder should be refused, not made
            self._error(
                f"Cannot save to {path}: there is no folder {folder}. Create it first or choose another file name."
            )
            return False
        record = dataclasses.replace(self.match.record(), players=players_of(self.match, self.agent, self.agent_sides))
        sealed = self.seal_seed and not self.match.over and record.seed is not None
        if sealed:
            record = dataclasses.replace(record, seed=None)
        try:
            save_record(record, path)
        except OSError as exc:
            self._error(f"Cannot save to {path}: {exc.strerror or exc}")
            return False
        if self.match.over:
            self.final_save = path
        if sealed:
            self.console.print(
                Text(
                    "The save leaves out the dice seed, which would tell every card and die to come: loaded, the game "
                    "goes on with fresh dice (play with --save-seed to keep it).",
                    style="dim",
                )
            )
        self.save_default = path
        self.console.print(
            f"[green]Saved to {path}[/green] (load it with [bold]l {path}[/bold] or warroom play --load {path}).",
            highlight=False,
        )
        return True

    def _load(self, path: str) -> None:
        try:
            record = read_record(path)
            match = warroom.load(record)
            # the save says who played which side; an older save without it keeps this session's players
            if record.players is not None:
                self.agent, self.agent_sides = computer_players(record.players, match)
        except WarroomError as exc:
            self._error(f"Cannot load {path}: {exc}")
            return
        self.match = match
        self.renderer = load_renderer(match.ruleset.info.id)
        self._secret_reasons = _hides_something(match)
        self.save_default = path
        turn, phase = match.ruleset.turn_and_phase(match.state)
        self.console.print(
            f"[green]Loaded {path}[/green]: {match.ruleset.info.title}, turn {turn}, {phase}; "
            f"{who_plays(match, self.agent, self.agent_sides)}.",
            highlight=False,
        )
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
