"""How a game draws itself in the terminal: its spec's `TerminalView` with a plain default for each part the view
leaves out (warroom.terminal's docstring lists the parts), the events as lines, and the result panel. Shared by the
play session, its collaborators and the replay."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from warroom.engine.errors import WarroomError
from warroom.engine.match import Match
from warroom.engine.ruleset import DICE_SIDE, Event
from warroom.engine.spec import HelpSection

Ask = Callable[[str], str]


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


def hides_something(match: Match) -> bool:
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
