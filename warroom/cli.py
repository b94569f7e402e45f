"""The `warroom` command line: play, replay, verify, odds, simulate, ladder, bench, protocol, serve, games.

Every command turns bad input into a red message and a non-zero exit, never a traceback.
Heavy or optional parts (agents, analysis, the web server, the protocol) are imported only
by the command that needs them, so `warroom --help` stays fast and works without them.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand, TyperOption

from warroom.engine.errors import WarroomError
from warroom.engine.files import write_atomically
from warroom.games import game_ids

if TYPE_CHECKING:
    from warroom.engine.spec import OddsField

app = typer.Typer(
    name="warroom",
    help="WWII board wargames with every rule enforced: play, replay, odds, simulate, benchmark, serve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])

EXAMPLE_GAME = game_ids()[0]
"""The game the help's examples name: the registry's first (this module names no game itself)."""

OPTION_HELP = (
    "A rules option KEY=VALUE, repeatable (true/false, a number or a word); the game refuses an unknown key, "
    "listing its own."
)
SIDE_AGENT_HELP = (
    "SIDE=AGENT: that side's agent, repeatable; SIDE is a side id or the scenario's name for it (see: warroom games)."
)

DEFAULT_BUDGET_MS = 300
"""An MCTS player's thinking time per move in the terminal when neither --budget-ms nor the save says."""


def _print_version(value: bool) -> None:
    if value:
        from warroom import __version__

        typer.echo(f"warroom {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_print_version, help="Print warroom's version and exit."),
    ] = False,
) -> None:
    """WWII board wargames with every rule enforced: play, replay, odds, simulate, benchmark, serve."""


class DiceMode(StrEnum):
    auto = "auto"
    manual = "manual"


class Backend(StrEnum):
    local = "local"
    ray = "ray"


class Opponent(StrEnum):
    ai = "ai"
    human = "human"


class AgentName(StrEnum):
    heuristic = "heuristic"
    mcts = "mcts"
    random = "random"
    search = "search"  # the game's own search, where it has one (warroom.ai.get_agent)


class CommandError(WarroomError):
    """A problem with the command line itself (a missing optional part, options that do not fit)."""

    code = "command"


def console() -> Console:
    return Console(highlight=False)


def error_console() -> Console:
    return Console(stderr=True, highlight=False)


def friendly(command: F) -> F:
    """Report WarroomError and OSError as one red line and exit 1: a user never sees a traceback for bad input."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except WarroomError as exc:
            error_console().print(Text(f"Error: {exc}", style="bold red"))
            raise typer.Exit(1) from None
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            error_console().print(Text(f"Error: {where}{exc.strerror or exc}", style="bold red"))
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            error_console().print(Text("Interrupted.", style="yellow"))
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


@contextlib.contextmanager
def progress_bar(what: str, total: int | None, transient: bool) -> Iterator[tuple[Any, Any]]:
    """A games-played bar on stderr (gone at the end when the report is JSON): (progress, its task) to update."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=error_console(),
        transient=transient,
    ) as progress:
        yield progress, progress.add_task("games", total=total)


def optional_module(name: str, what: str) -> Any:
    """Import a part of warroom that may not be installed or written yet; a CommandError says which."""
    from importlib import import_module

    try:
        return import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (exc.name == name or name.startswith(exc.name + ".")):
            raise CommandError(
                f"{what} is not available in this installation of warroom ({name} is missing)."
            ) from None
        raise CommandError(
            f"{what} needs the package {exc.name!r}: install it (pip install {exc.name}) and try again."
        ) from None


# -- play and replay --------------------------------------------------------------------------------
@app.command()
@friendly
def play(
    game: Annotated[
        str | None,
        typer.Argument(
            help=f"The game to play, e.g. {EXAMPLE_GAME} (see: warroom games); "
            "not needed with --load, the save knows its game."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Dice seed: the same seed and the same decisions give the same game.")
    ] = None,
    dice: Annotated[
        DiceMode, typer.Option(help="auto: the computer rolls; manual: roll real dice and type them in.")
    ] = DiceMode.auto,
    load: Annotated[
        Path | None,
        typer.Option(
            "--load", help="Continue a saved game, with the players it was saved with (--vs or --auto seat them anew)."
        ),
    ] = None,
    scenario: Annotated[str | None, typer.Option(help="Scenario (default: the game's first).")] = None,
    auto: Annotated[AgentName | None, typer.Option("--auto", help="Let the computer play while you watch.")] = None,
    budget_ms: Annotated[
        int | None,
        typer.Option(
            "--budget-ms",
            min=1,
            help="Thinking time per move of an MCTS player (--auto mcts or "
            f"--agent mcts), in ms (default {DEFAULT_BUDGET_MS}, or the save's).",
        ),
    ] = None,
    vs: Annotated[
        Opponent | None, typer.Option("--vs", help="Two-player games: against the computer (ai) or hot-seat (human).")
    ] = None,
    side: Annotated[
        str | None, typer.Option("--side", help="With --vs ai: the side you play (default: the first side).")
    ] = None,
    agent_name: Annotated[
        AgentName, typer.Option("--agent", help="With --vs ai: the computer player.")
    ] = AgentName.heuristic,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    flat: Annotated[
        bool,
        typer.Option("--flat", help="Every legal action in one numbered list, never chosen in steps (for scripts)."),
    ] = False,
    pace: Annotated[
        float | None,
        typer.Option(
            "--pace",
            min=0,
            help="Seconds between the computer's moves (default: 1 when "
            "watching with --auto, 0 against it; 0: no pause).",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            min=1,
            help="How many play, for a game with a variant for more players (warroom games shows the counts).",
        ),
    ] = None,
    save_seed: Annotated[
        bool,
        typer.Option(
            "--save-seed",
            help="Keep a secret seed in mid-game saves (it tells the cards "
            "and dice to come to whoever reads the file).",
        ),
    ] = False,
) -> None:
    """Play a game in the terminal: the board, numbered actions with exact odds, undo, save and load."""
    match, saved_players = _open_game(game, load, seed, dice, scenario, option, players)
    agent, agent_sides = _seat_players(match, saved_players, vs, auto, side, agent_name, budget_ms)
    out = console()
    secret = _announce(out, match, load, seed, dice, who_sits=(agent, agent_sides), save_seed=save_seed)
    _play_session(out, match, load, (agent, agent_sides), flat=flat, pace=pace, seal_seed=secret and not save_seed)


def _open_game(
    game: str | None,
    load: Path | None,
    seed: int | None,
    dice: DiceMode,
    scenario: str | None,
    option: list[str] | None,
    players: int | None,
) -> tuple[Any, dict[str, dict[str, Any]] | None]:
    """`warroom play`'s match: the save --load names, or a new game of `game` (its variant for `players`), with the
    players the save was made with (None for a new game or a save that does not say)."""
    import warroom

    if load is not None:
        return _load_save(load, game, option, players)
    if game is None:
        raise CommandError(
            f"name the game to play (e.g. warroom play {EXAMPLE_GAME}; warroom games lists them), "
            "or continue one with --load FILE"
        )
    if players is not None:
        from warroom.games import seat_variant

        game = seat_variant(game, players)
    match = warroom.new_game(game, scenario, seed=seed, dice=dice.value, options=parse_options(option or []))
    return match, None


def _load_save(
    load: Path, game: str | None, option: list[str] | None, players: int | None
) -> tuple[Any, dict[str, dict[str, Any]] | None]:
    """The saved game `load` and its players; a CommandError when the options set up a new game (a save keeps its
    own) or the save is of another game than the one named."""
    import warroom
    from warroom.engine.record import read_record

    if option or players is not None:
        raise CommandError(
            "--option and --players set up a new game; a loaded game keeps the options it was saved with"
        )
    record = read_record(load)
    match = warroom.load(record)
    if game is not None and match.ruleset.info.id != game:
        raise CommandError(
            f"{load} is a saved {match.ruleset.info.id} game, not {game}: run warroom play --load {load}"
        )
    return match, record.players


def _seat_players(
    match: Any,
    saved_players: dict[str, dict[str, Any]] | None,
    vs: Opponent | None,
    auto: AgentName | None,
    side: str | None,
    agent_name: AgentName,
    budget_ms: int | None,
) -> tuple[Any, set[str] | None]:
    """The computer player and the sides it plays (None: every side, you watch): --vs ai seats it against your
    --side, --auto on every side; with neither (nor --side), a loaded game keeps the players it was saved with."""
    from warroom.terminal import computer_players

    agent: Any = None
    agent_sides: set[str] | None = None
    if vs is None and auto is None and side is None and saved_players:  # the players it was saved with
        agent, agent_sides = computer_players(saved_players, match, budget_ms)
    sides = list(match.ruleset.info.sides)
    if vs is Opponent.ai:
        if auto is not None:
            raise CommandError(
                "--auto (the computer plays every side) and --vs ai (it plays the other side) do not go together"
            )
        if len(sides) < 2:
            raise CommandError(
                f"{match.ruleset.info.title} is solitaire: "
                f"you play {sides[0]} against the rules-driven opponent already"
            )
        mine = _side_named(side, match) if side else sides[0]
        agent_sides = {s for s in sides if s != mine}
        auto = agent_name
    elif side is not None:
        raise CommandError("--side needs --vs ai")
    if auto is not None:
        from warroom.ai import agent_seed, get_agent

        agent = get_agent(auto.value, match.ruleset.info.id, budget_ms or DEFAULT_BUDGET_MS, agent_seed(match.seed))
    return agent, agent_sides


def _announce(
    out: Console,
    match: Any,
    load: Path | None,
    seed: int | None,
    dice: DiceMode,
    *,
    who_sits: tuple[Any, set[str] | None],
    save_seed: bool,
) -> bool:
    """The line that opens the session (what was loaded and who plays, or the game, its seed and its dice), and the
    warning --save-seed earns; True when the game's seed was drawn here and is kept secret until the end."""
    from warroom.terminal import who_plays

    if load is not None:
        out.print(Text(f"Loaded {load}: {match.ruleset.info.title}; {who_plays(match, *who_sits)}.", style="bold"))
    if load is None:
        how = "you roll the dice and type them in" if dice is DiceMode.manual else "the computer rolls the dice"
        # A seed drawn here stays secret until the end: with it and the moves so far anyone could
        # tell the cards and dice still to come (a seed the player chose is his own to know).
        told = (
            f"seed {match.seed}"
            if seed is not None or dice is DiceMode.manual
            else "a secret seed (shown when the game ends)"
        )
        out.print(Text(f"{match.ruleset.info.title}: {told}, {how}. Type h for help.", style="bold"))
    secret = load is None and seed is None and dice is DiceMode.auto
    if secret and save_seed:
        out.print(
            Text(
                "--save-seed: a save made before the end holds the seed; "
                "whoever reads it can tell the cards and dice to come.",
                style="yellow",
            )
        )
    return secret


def _play_session(
    out: Console,
    match: Any,
    load: Path | None,
    who_sits: tuple[Any, set[str] | None],
    *,
    flat: bool,
    pace: float | None,
    seal_seed: bool,
) -> None:
    """Run the terminal session with the computer player and its sides (`who_sits`), then tell a finished game's
    seed and how to replay it."""
    from warroom.terminal import TerminalGame

    agent, agent_sides = who_sits
    session = TerminalGame(
        match,
        out,
        save_default=str(load) if load is not None else None,
        agent=agent,
        agent_sides=agent_sides,
        flat=flat,
        pace=pace,
        seal_seed=seal_seed,
    )
    session.run()
    if session.match.over and session.match.seed is not None:
        again = f": warroom replay {session.final_save} steps through it again" if session.final_save else ""
        out.print(Text(f"The game's seed was {session.match.seed}{again}.", style="dim"))


def _side_named(name: str, match: Any, option: str = "--side") -> str:
    """The side `name` means, in any case: a side id or the scenario's name for it (the spec's `terms`)."""
    return side_called(name, match.ruleset.info.id, match.scenario, option)


def side_called(name: str, game: str, scenario: str | None, option: str) -> str:
    """The side of `game` that `name` means in `scenario`, in any case: its id or the scenario's name
    for it (the spec's `terms`); a CommandError lists both spellings."""
    from warroom.games import get_ruleset, get_spec

    sides = list(get_ruleset(game).info.sides)
    local = get_spec(game).terms(scenario).side_names
    for side in sides:
        if name.lower() in {side.lower(), local.get(side, side).lower()}:
            return side
    names = sides + [n for n in (local.get(side, side) for side in sides) if n not in sides]
    raise CommandError(f"{option} must be one of {', '.join(names)}, not {name!r}")


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """--option KEY=VALUE pairs as a rules-options dict; yes/no, on/off and true/false in any case
    are booleans, a value that is JSON is read as JSON (12), the rest is text (manual). The game
    itself checks the keys and values."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"--option must look like KEY=VALUE (e.g. {_option_example()}), not {pair!r}")
        word = text.strip().lower()
        if word in ("true", "yes", "on", "false", "no", "off"):
            value: Any = word in ("true", "yes", "on")
        else:
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                value = text
        options[key.strip()] = value
    return options


def _option_example() -> str:
    """A rules option of some registered game as KEY=VALUE, for messages (the registry's, never a name here)."""
    from warroom.games import get_spec

    for game in game_ids():
        for spec in get_spec(game).option_specs():
            return f"{spec['key']}={json.dumps(spec.get('default'))}"
    return "KEY=VALUE"


@app.command()
@friendly
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game (from s at the play prompt).")],
    to_end: Annotated[bool, typer.Option("--to-end", help="Go straight to the final position.")] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="With --to-end: print the final view as JSON (for scripts).")
    ] = False,
) -> None:
    """Step through a saved game: Enter/n next, b back, g N go to step N, q quit."""
    import warroom
    from warroom.engine.record import read_record
    from warroom.terminal import Replay, TerminalReplay, load_renderer, replay_viewer, result_panel

    record = read_record(file)
    if json_out and not to_end:
        raise CommandError("--json prints the final position only: add --to-end")
    if to_end:
        match = warroom.load(record)
        if json_out:  # an unfinished game against the computer: its person's view, not the computer's secrets
            viewer = replay_viewer(record, match)
            typer.echo(json.dumps(match.view() if viewer is None else match.view(viewer)))
            return
        out = console()
        out.print(load_renderer(record.game).render_board(match))
        out.print(
            result_panel(match) if match.over else Text(f"After {len(record.actions)} decisions; the game goes on.")
        )
        return
    TerminalReplay(Replay(record), console()).run()


@app.command()
@friendly
def review(
    file: Annotated[Path, typer.Argument(help="A saved game (finished or not).")],
    agent: Annotated[
        AgentName | None,
        typer.Option(
            "--agent",
            help="Who says what it would have played at the worst moves (default: the game's heuristic, else mcts).",
        ),
    ] = None,
    simulations: Annotated[
        int, typer.Option("--simulations", min=1, max=100_000, help="MCTS simulations a marked move (--agent mcts).")
    ] = 200,
    worst: Annotated[int, typer.Option("--worst", min=0, max=50, help="Moves marked per side.")] = 3,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the whole analysis as JSON (every step's values).")
    ] = False,
) -> None:
    """Post-game analysis: each side's estimated chances after every decision, the moves that lost the most, and
    what the computer would have played there (warroom.ai.review)."""
    from warroom.ai.review import review as analyse_record
    from warroom.terminal import print_review

    report = analyse_record(file, worst=worst, agent=agent.value if agent else None, simulations=simulations)
    if json_out:
        typer.echo(json.dumps(report))
        return
    print_review(console(), report)


@app.command()
@friendly
def verify(
    file: Annotated[Path, typer.Argument(help="A finished online game's record (downloaded from the game page).")],
    commitment: Annotated[
        str | None, typer.Option("--commitment", help="The commitment the game showed at its start (64 hex digits).")
    ] = None,
    digest: Annotated[
        list[str] | None,
        typer.Option(
            "--digest",
            help="A digest of the decisions the game showed you: HEX (all 64 digits, or the first 16) or N:HEX, N the "
            "decisions made when it was shown. Repeat it for several; the first decision that does not match is named.",
        ),
    ] = None,
    seen_by: Annotated[
        str | None, typer.Option("--seen-by", help="Who was shown the digests (a side), for the report.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check an online game's dice and decisions: every die from the revealed seed, the seed from the commitment,
    and the decisions from their chain and the digests a seat was shown.

    Exits 0 when all match, 1 naming the first decision, die (or the commitment) that does not, or when
    the record has no revealed key to check (docs/fairness.md).
    """
    from warroom.engine.fairness import SeenDigest, verify_record

    seen = [SeenDigest.of(text) for text in digest or []]
    if seen_by:
        seen = [SeenDigest(s.digest, s.decisions, seen_by[:40]) for s in seen]
    report = verify_record(file, commitment, seen)
    if json_out:
        typer.echo(json.dumps(report.to_json()))
    elif report.verified:
        console().print(Text(report.message, style="bold green"))
    else:
        error_console().print(Text(f"Not verified: {report.message}", style="bold red"))
    if not report.verified:
        raise typer.Exit(1)


# -- odds -------------------------------------------------------------------------------------------
ODDS_FIELDS_KEY = "warroom.odds_fields"
"""Where OddsCommand leaves the values of the games' odds options (ctx.meta), by field name."""


@functools.cache
def _odds_options(games: tuple[str, ...]) -> tuple[TyperOption, ...]:
    """One option for each field the games' odds calculators declare (engine.spec.OddsField): a flag for
    a boolean, an integer option for an integer, text (the game's parse_cli reads it) for the rest.
    A field two games share is one option whose help names both."""
    from warroom.games import get_spec

    by_name: dict[str, list[tuple[str, OddsField]]] = {}
    for game in games:
        factory = get_spec(game).odds
        for f in factory().fields if factory is not None else ():
            by_name.setdefault(f.name, []).append((game, f))
    options = []
    for name, declared in by_name.items():
        kinds = {f.kind for _, f in declared}
        described = "; ".join(f"{game}: {f.cli or f.doc}{' (required)' if f.required else ''}" for game, f in declared)
        flag = f"--{name.replace('_', '-')}"
        if kinds == {"boolean"}:
            options.append(TyperOption(param_decls=[name, flag], is_flag=True, default=False, help=described))
        else:
            kind = int if kinds == {"integer"} else str
            options.append(TyperOption(param_decls=[name, flag], type=kind, help=described))
    return tuple(options)


class OddsCommand(TyperCommand):
    """`warroom odds GAME`: its options are the fields of the registered games' odds calculators, made
    when the command is parsed or its help shown (never at startup: it imports each game's odds)."""

    def _fields(self, ctx: Any) -> list[TyperOption]:
        from warroom.games import game_ids

        taken = {p.name for p in super().get_params(ctx)}
        return [o for o in _odds_options(tuple(game_ids())) if o.name not in taken]

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        at = len(params) - 1 if params and params[-1].name == "help" else len(params)  # --help stays last
        return [*params[:at], *self._fields(ctx), *params[at:]]

    def invoke(self, ctx: Any) -> Any:
        names = {o.name for o in self._fields(ctx)}
        ctx.meta[ODDS_FIELDS_KEY] = {name: ctx.params.pop(name) for name in list(ctx.params) if name in names}
        return super().invoke(ctx)


@app.command(cls=OddsCommand)
@friendly
def odds(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=f"The game (see: warroom games), e.g. {EXAMPLE_GAME}.")],
    pairs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[FIELD=VALUE]...",
            show_default=False,
            help="The game's fields written FIELD=VALUE, as the options below.",
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Exact odds of a battle you describe: the game's own fields (the options below, or FIELD=VALUE), the
    same ones as the engine protocol's {"cmd":"odds","game":GAME,...}."""
    from warroom.games import game_ids, get_spec

    spec = get_spec(game)  # an unknown game is reported as such
    if spec.odds is None:
        having = [g for g in game_ids() if get_spec(g).odds is not None]
        raise CommandError(f"{game} has no odds calculator; games with one: {', '.join(having)}")
    calculator = spec.odds()
    given: dict[str, str] = {}
    for name, value in ctx.meta.get(ODDS_FIELDS_KEY, {}).items():
        if value is not None and value is not False:
            given[name] = "true" if value is True else str(value)
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{pair!r}: a field is written FIELD=VALUE (or --field VALUE)")
        given[key.strip().replace("-", "_")] = text
    names = [f.name for f in calculator.fields]
    unknown = sorted(set(given) - set(names))
    if unknown:
        takes = ", ".join(f"--{n.replace('_', '-')}" for n in names)
        wrong = ", ".join(f"--{u.replace('_', '-')}" for u in unknown)
        raise CommandError(f"warroom odds {game} takes {takes}, not {wrong}")
    try:
        request = calculator.parse_cli(given)
        if isinstance(request, list):  # a survey (a field left out on purpose): every answer, in a table
            answer: dict[str, Any] = {"survey": [{**r, **calculator.calculate(r)} for r in request]}
        else:
            answer = {**request, **calculator.calculate(request)}
    except WarroomError as error:
        if given:
            raise
        # no fields at all: the battle is not described yet, so say how to describe it (the usage), not which
        # field the empty description lacks first
        typer.echo(ctx.get_help())
        raise CommandError(f"warroom odds {game} needs the battle's fields ({error})") from None
    if json_out:
        typer.echo(json.dumps({"game": game, **answer}))
        return
    out = console()
    for k, line in enumerate(calculator.describe(answer)):
        out.print(Text(line, style="bold" if k == 0 else ""))


# -- analysis ----------------------------------------------------------------------------------------
@app.command()
@friendly
def simulate(
    game: Annotated[str, typer.Argument(help=f"The game to study, e.g. {EXAMPLE_GAME}.")],
    games: Annotated[int, typer.Option("--games", min=1, help="How many games to play.")],
    agent: Annotated[
        AgentName, typer.Option("--agent", help="The agent of every side --side-agent leaves.")
    ] = AgentName.heuristic,
    side_agent: Annotated[list[str] | None, typer.Option("--side-agent", help=SIDE_AGENT_HELP)] = None,
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="The scenario, where the game has several.")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Processes to play in parallel.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Game k uses seed S+k: a study is reproducible.")] = 0,
    budget_ms: Annotated[
        int | None, typer.Option("--budget-ms", min=1, help="MCTS thinking time per decision, in ms.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="A rules option KEY=VALUE for every game, repeatable "
            "(the game refuses an unknown key, listing its own).",
        ),
    ] = None,
    backend: Annotated[
        Backend,
        typer.Option(
            "--backend",
            help="local: --jobs processes here; ray: Ray tasks, on a local Ray "
            "or the cluster at --address (pip install 'warroom[cluster]').",
        ),
    ] = Backend.local,
    address: Annotated[
        str | None, typer.Option("--address", help="A Ray cluster's address (host:port, or auto), with --backend ray.")
    ] = None,
    report_file: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Also write a self-contained HTML balance report with plots here (pip install 'warroom[report]').",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write one row per game here: games.csv, or games.parquet (needs pyarrow)."),
    ] = None,
    compare_option: Annotated[
        list[str] | None,
        typer.Option(
            "--compare-option",
            help="KEY=VALUE, given twice: play the same seeds under each setting and report both and their difference.",
        ),
    ] = None,
) -> None:
    """Play many games with an agent and report win rates, VP and when each objective fell."""
    module = optional_module("warroom.analysis.simulate", "warroom simulate")
    side_agents = parse_side_agents(side_agent or [], game, scenario)
    settings = _compared_settings(compare_option)
    report_module = _report_writer(report_file, out)
    study = dict(
        jobs=jobs,
        seed=seed,
        budget_ms=budget_ms,
        scenario=scenario,
        side_agents=side_agents or None,
        backend=backend.value,
        address=address,
    )
    with progress_bar("simulating", games * max(1, len(settings)), json_out) as (progress, task):
        tick = lambda done: progress.update(task, completed=done)  # noqa: E731
        if settings:
            report = optional_module("warroom.analysis.compare", "warroom simulate --compare-option").compare_options(
                game, games, settings, options=parse_options(option or []), progress=tick, agent=agent.value, **study
            )
        else:  # `agent`: the agent of every side not in side_agents
            report = module.simulate(
                game, games, agent=agent.value, progress=tick, options=parse_options(option or []), **study
            )
    _tell_study(report, json_out, report_module, report_file, out)


def _compared_settings(compare_option: list[str] | None) -> list[dict[str, Any]]:
    """--compare-option's two settings (none without it); a CommandError unless it is given exactly twice."""
    settings = [parse_options([pair]) for pair in compare_option or []]
    if compare_option and len(settings) != 2:
        raise CommandError(
            f"--compare-option compares two settings: give it twice (KEY=A, then KEY=B), not {len(settings)} time(s)"
        )
    return settings


def _report_writer(report_file: Path | None, out: Path | None) -> Any:
    """warroom.analysis.report when --report or --out asks for it (None otherwise), checked before any game is
    played: --report needs matplotlib, --out a table path it can write."""
    if report_file is None and out is None:
        return None
    report_module = optional_module("warroom.analysis.report", "warroom simulate --report")
    if report_file is not None and not report_module.matplotlib_available():
        raise CommandError(
            "--report draws its plots with matplotlib: pip install 'warroom[report]' (or pip install matplotlib)"
        )
    if out is not None:
        report_module.check_table_path(out)  # before any game is played
    return report_module


def _tell_study(report: Any, json_out: bool, report_module: Any, report_file: Path | None, out: Path | None) -> None:
    """The study's report, as JSON or a table, then the HTML report (--report) and the games' rows (--out)."""
    if json_out:
        typer.echo(json.dumps(report.to_json()))
    else:
        report.render(console())
    if report_file is not None:
        report_module.write_report(report_file, report)
        error_console().print(f"wrote the balance report to {report_file}")
    if out is not None:
        rows = report_module.write_games(out, report)
        error_console().print(f"wrote {rows:,} games to {out}")


def parse_side_agents(pairs: list[str], game: str, scenario: str | None) -> dict[str, str]:
    """--side-agent SIDE=AGENT pairs as {side id: agent}: a side by its id or the scenario's name for it
    (the spec's `terms`), an agent by its name; a CommandError names what is wrong."""
    names = [a.value for a in AgentName]
    chosen: dict[str, str] = {}
    for pair in pairs:
        name, sep, agent = pair.partition("=")
        if not sep or not name.strip():
            raise CommandError(
                f"--side-agent must look like SIDE=AGENT (a side of warroom games, and {names[0]}), not {pair!r}"
            )
        if agent.strip() not in names:
            raise CommandError(f"--side-agent {pair!r}: the agent must be one of {', '.join(names)}")
        side = side_called(name.strip(), game, scenario, "--side-agent's SIDE")
        if side in chosen:
            raise CommandError(f"--side-agent names {side} twice")
        chosen[side] = agent.strip()
    return chosen


@app.command()
@friendly
def ladder(
    game: Annotated[str | None, typer.Argument(help=f"The game, e.g. {EXAMPLE_GAME} (or --all).")] = None,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            help="Comma-separated agents: random, heuristic, mcts, "
            "mcts@N (N simulations a decision), mcts@Nms (N ms a decision).",
        ),
    ] = "random,heuristic,mcts@100",
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="The scenario, where the game has several.")
    ] = None,
    games_per_pair: Annotated[
        int, typer.Option("--games-per-pair", min=1, help="Seeds each pair plays, each agent on each side.")
    ] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Seeds S, S+1, ...: a ladder is reproducible.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Processes to play in parallel.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
    all_games: Annotated[
        bool, typer.Option("--all", help="Every game and scenario with small, fast settings.")
    ] = False,
    write: Annotated[
        Path | None,
        typer.Option(
            "--write",
            help="Put the standings on this Markdown page (docs/ladder.md): with --all every game's; with a game, each"
            " of its scenarios (or --scenario's), the page's other games kept as they are.",
        ),
    ] = None,
) -> None:
    """Rate agents by a round robin with sides swapped: Elo with 95% intervals (solitaire games: mean result)."""
    module = optional_module("warroom.analysis.ladder", "warroom ladder")
    if all_games:
        if game is not None:
            raise typer.BadParameter("--all plays every game: name no game with it")
        reports = module.ladder_all(
            jobs=jobs, seed=seed, progress=lambda name: error_console().print(f"laddering {name}")
        )
        if write is not None:
            command = module.ALL_COMMAND.replace("docs/ladder.md", str(write))
            text = module.markdown(reports, command=command)
            write_atomically(write, lambda handle: handle.write(text))
        if json_out:
            typer.echo(json.dumps([report.to_json() for report in reports]))
        elif write is None:
            for report in reports:
                report.render(console())
        return
    if game is None:
        raise typer.BadParameter("name a game (or say --all)")
    if write is not None:
        _ladder_page(module, game, write, agents, scenario, games_per_pair, seed, jobs)
        return
    with progress_bar("laddering", None, json_out) as (progress, task):
        report = module.ladder(
            game,
            agents,
            scenario=scenario,
            games_per_pair=games_per_pair,
            seed=seed,
            jobs=jobs,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    if json_out:
        typer.echo(json.dumps(report.to_json()))
    else:
        report.render(console())


def _ladder_page(
    module: Any, game: str, page: Path, agents: str, scenario: str | None, games_per_pair: int, seed: int, jobs: int
) -> None:
    """`warroom ladder GAME --write PAGE`: ladder each scenario of the game (or the one named) and put its standings on
    the page, each section saying the command that made it; the page's other games stay as they are."""
    from warroom.games import get_ruleset

    scenarios = [scenario] if scenario is not None else list(get_ruleset(game).info.scenarios or (None,))
    reports = []
    for name in scenarios:
        error_console().print(f"laddering {game} {name or ''}".strip())
        reports.append(module.ladder(game, agents, scenario=name, games_per_pair=games_per_pair, seed=seed, jobs=jobs))
    command = " ".join(
        [f"warroom ladder {game}", *([f"--scenario {scenario}"] if scenario else [])]
        + [f"--agents {agents}", f"--games-per-pair {games_per_pair}", f"--seed {seed}", f"--write {page}"]
    )
    before = page.read_text(encoding="utf-8") if page.exists() else ""
    text = module.update_page(before, reports, command)
    write_atomically(page, lambda handle: handle.write(text))
    console().print(f"{page}: {len(reports)} section(s) of {game} written, the other games kept")


@app.command()
@friendly
def bench(
    game: Annotated[
        str | None,
        typer.Argument(help=f"The game to measure (see: warroom games; default: the first, {EXAMPLE_GAME})."),
    ] = None,
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="The scenario, where the game has several (default: its first).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    seconds: Annotated[float, typer.Option("--seconds", min=0.01, help="Time spent on each measurement.")] = 2.0,
    all_games: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Every game and scenario: random-playout steps/s and MCTS "
            "simulations/s, one row each, against each game's own targets.",
        ),
    ] = False,
    web: Annotated[bool, typer.Option("--web", help="Also measure the web server.")] = False,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="With --web: also measure several server processes on this (scratch) "
            "PostgreSQL database, postgresql://USER@HOST/DATABASE.",
        ),
    ] = None,
    processes: Annotated[
        int, typer.Option("--processes", min=1, max=16, help="With --db: how many server processes.")
    ] = 2,
    computer_turns: Annotated[
        int,
        typer.Option(
            "--computer-turns",
            min=0,
            max=1000,
            help="Also time this many of the computer's decisions at its stated 300 ms each (wall time: the median, "
            "the 95th percentile and how many overran).",
        ),
    ] = 0,
    computer_seats: Annotated[
        int,
        typer.Option(
            "--computer-seats",
            min=0,
            max=1000,
            help="With --web: also play this many games "
            "against a searching computer (MCTS) and measure people's moves meanwhile.",
        ),
    ] = 0,
) -> None:
    """Measure engine speed: random and heuristic playouts, MCTS simulations (and the web server with --web)."""
    if all_games:
        if game is not None or scenario is not None or web:
            raise CommandError("--all measures every game and scenario: name no game, --scenario or --web with it")
        _bench_all(optional_module("warroom.analysis.bench", "warroom bench").bench_all(seconds), json_out)
        return
    _check_server_options(web, db, computer_seats)
    module = optional_module("warroom.analysis.bench", "warroom bench")
    with error_console().status("measuring..."):
        result = module.run_bench(game=game, seconds=seconds, web=web, scenario=scenario, computer_turns=computer_turns)
        if db is not None:
            from warroom.web.bench import run_processes

            # one process on SQLite is in "web" above; this is the same load on several processes sharing PostgreSQL
            result["web_processes"] = run_processes(db, processes)
        if computer_seats:
            from warroom.web.bench import run_computer_seats

            # people's move latency while the computer seats search (in the server's worker processes)
            result["web_computer_seats"] = run_computer_seats(computer_seats)
    if json_out:
        typer.echo(json.dumps(result))
        return
    _bench_table(result)


def _check_server_options(web: bool, db: str | None, computer_seats: int) -> None:
    """--db and --computer-seats measure the web server: each needs --web, and --db a PostgreSQL database (the
    processes share their games through it); a CommandError says which is missing."""
    if db is not None:
        from warroom.web.storage import normalize_url

        if not web:
            raise CommandError("--db measures server processes on PostgreSQL: give it with --web")
        if not normalize_url(db).startswith("postgresql"):
            raise CommandError(
                "several server processes share games through PostgreSQL: give --db postgresql://USER@HOST/DATABASE"
            )
    if computer_seats and not web:
        raise CommandError("--computer-seats measures the web server: give it with --web")


def _bench_table(result: dict[str, Any]) -> None:
    """`warroom bench`'s measures as a table, with OpenSpiel's yardstick where it is installed."""
    # OpenSpiel (DeepMind's C++ game library, driven from Python the same way) is only a yardstick
    # for the speeds above; warroom does not use it. Absent, it gets a line that says so, not table rows.
    spiel = result.get("openspiel") or {}
    shown = {key: value for key, value in result.items() if key != "openspiel" or spiel.get("installed")}
    table = Table(title=f"warroom bench ({result['game']}, {result['scenario']})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in _flatten(shown):
        table.add_row(key, f"{value:,.2f}" if isinstance(value, float) else str(value))
    console().print(table)
    if spiel and not spiel.get("installed"):
        console().print(
            "For scale, bench also times OpenSpiel's C++ backgammon when it is installed (pip install open_spiel); "
            "warroom does not need it.",
            style="dim",
        )


def _bench_all(result: dict[str, Any], json_out: bool) -> None:
    """`warroom bench --all`: one row per game and scenario; a target a game does not set is blank, not failed."""
    if json_out:
        typer.echo(json.dumps(result))
        return
    spiel = result.get("openspiel") or {}
    title = f"{result['seconds_per_part']:g} s a part, Python {result['python']}, {result['build']}"
    table = Table(title=f"warroom bench --all ({title})")
    for column in ("game", "scenario", "steps/s", "target", "met", "MCTS sims/s", "target", "met"):
        table.add_column(column, justify="left" if column in ("game", "scenario") else "right")
    if spiel.get("installed"):
        table.add_column("steps vs OpenSpiel", justify="right")

    def met(value: bool | None) -> str:
        return "" if value is None else ("yes" if value else "NO")

    for row in result["games"]:
        goal_steps, goal_sims = row.get("target_steps_per_s"), row.get("target_sims_per_s")
        cells = [
            row["game"],
            row["scenario"] or "",
            f"{row['steps_per_s']:,}",
            "" if goal_steps is None else f"{goal_steps:,.0f}",
            met(row.get("steps_meet_target")),
            f"{row['sims_per_s']:,}",
            "" if goal_sims is None else f"{goal_sims:,.0f}",
            met(row.get("sims_meet_target")),
        ]
        if spiel.get("installed"):
            cells.append(f"{row.get('steps_vs_openspiel', 0):.2f}x")
        table.add_row(*cells)
    console().print(table)
    if spiel.get("installed"):
        console().print(
            f"OpenSpiel's C++ backgammon, driven from Python the same way: {spiel['steps_per_s']:,} steps/s.",
            style="dim",
        )
    else:
        console().print(
            "For scale, bench also times OpenSpiel's C++ backgammon when it is installed (pip install open_spiel); "
            "warroom does not need it.",
            style="dim",
        )


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict):
        rows: list[tuple[str, Any]] = []
        for key, value in data.items():
            rows.extend(_flatten(value, f"{prefix}{key}" if not prefix else f"{prefix} · {key}"))
        return rows
    return [(prefix, data)]


# -- servers ---------------------------------------------------------------------------------------
@app.command()
@friendly
def protocol() -> None:
    """Speak the JSON-lines engine protocol on stdin/stdout (one JSON object a line)."""
    module = optional_module("warroom.protocol", "warroom protocol")
    main_fn = module.main
    takes_argv = any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in inspect.signature(main_fn).parameters.values()
    )
    if takes_argv:
        main_fn([])
    else:
        main_fn()


@app.command()
@friendly
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free port).")] = 8000,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: a SQLite file).")] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=0,
            help="Processes the computer players think in "
            "(default: WARROOM_WORKERS, else the cores less one; 0: threads of the server).",
        ),
    ] = None,
) -> None:
    """Serve the browser front end (games kept in SQLite, or PostgreSQL with --db)."""
    server = optional_module("warroom.web.server", "warroom serve (the web server)")
    extra = {} if workers is None else {"workers": workers}
    try:
        if db is None:
            server.serve(host=host, port=port, **extra)
        else:
            server.serve(host=host, port=port, db=db, **extra)
    except (
        server.StorageConfigError,
        server.WorkersError,
    ) as exc:  # one plain line whatever the terminal's width (a bad --db, an unwritable file)
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None


@app.command("games")
@friendly
def list_games(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the games, their scenarios and sides."""
    # not warroom.games(): once the subpackage warroom.games is imported, that name is the module
    from warroom.games import game_ids, get_ruleset, get_spec, refused_games

    for game, why in refused_games().items():  # the others still list and play
        error_console().print(f"{game} cannot be loaded: {why}", style="yellow", markup=False)
    found: list[dict[str, Any]] = []
    for game in game_ids():
        info = get_ruleset(game).info
        # how many play it: its sides, and the counts of its variants for more players (`play --players N`)
        players = sorted({len(info.sides), *get_spec(game).seat_variants})
        found.append(
            {
                "id": info.id,
                "title": info.title,
                "scenarios": list(info.scenarios),
                "sides": list(info.sides),
                "players": players,
            }
        )
    if json_out:
        typer.echo(json.dumps(found))
        return
    table = Table(title="warroom games")
    for name in ("id", "title", "scenarios", "sides", "players"):
        table.add_column(name)
    for g in found:
        counts = " or ".join(map(str, g["players"]))
        table.add_row(g["id"], g["title"], ", ".join(g["scenarios"]), ", ".join(g["sides"]), counts)
    console().print(table)
    console().print(f"Play one: warroom play ID  (e.g. warroom play {EXAMPLE_GAME})", style="dim")


def main() -> None:
    """The console script `warroom`."""
    app()


if __name__ == "__main__":
    main()
