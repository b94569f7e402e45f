"""The game contract: one `GameSpec` per game, registered by id (warroom.games), like OpenSpiel's
`GameType` + `register_game`.

Generic code (the protocol, the terminal, the web server and client, studies, the bench, the
conformance suite) asks a game's spec what it can do and never names a game. Every capability is
a typed Protocol here, checked by mypy; a game that lacks one says so with `None`, and the front
ends offer what is there. No capability is found by `getattr` or by guessing module names.

Capabilities that pull in heavy or optional libraries (rich for the terminal, the game's search
hooks) are factories, called on first use, so `import warroom` and the registry stay fast.

The engine imports no front end: a capability speaks in plain values (dicts, strings, lists), and
each front end renders them its own way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from random import Random
from typing import Any, Generic, NamedTuple, Protocol, TypedDict

from .ruleset import Event, Ruleset, S


class OddsField(NamedTuple):
    """One field of a game's odds request (the calculator): its name, JSON type, meaning, and
    whether it is required. The protocol's help, the CLI's options and the web form read these."""

    name: str
    kind: str
    doc: str
    required: bool = False
    cli: str = ""
    """How the command line writes it, where that differs from the JSON (a force written "2A3I")."""


class OddsCapability(Protocol):
    """Exact odds before a die decides anything: one request model for CLI, protocol and web."""

    fields: tuple[OddsField, ...]
    """The calculator's request fields (`{"cmd":"odds","game":G, ...}`, `warroom odds G --field V`)."""
    answer: str
    """The calculator's answer in the protocol's help: its keys, e.g. '{"ok":true,"advance","fraction"}'."""
    position_answer: str
    """`position`'s answer in the protocol's help, e.g. '{"ok":true,"attacks":[{"action",...}]}'."""

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The calculator: odds of a battle given by its numbers (no game needed). Bad input raises a
        WarroomError whose message names the field; the answer is JSON-ready."""
        ...

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any] | list[dict[str, Any]]:
        """The request from the command line's text values (by field name), e.g. "2A3I" for a force; or
        a list of requests, a survey, where the command line may leave a required field out (a
        modifier left out: every modifier). Bad text raises a WarroomError that says how to write it."""
        ...

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        """The calculator's answer in a few plain lines, for the terminal (the first one a heading).
        The command line passes the answer with its request's fields beside it, or for a survey
        {"survey": [each such answer]}."""
        ...

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        """The odds of the current position (every attack legal now, the battle being fought), JSON-ready:
        the protocol's `{"cmd":"odds"}` without a game."""
        ...

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        """{"p", "fraction", "text"} for a legal action that involves a die; None for the others. Where the
        other side may still choose after this commitment (a defence it may add, a card it may hold), also
        "cases" ([{"if": what is assumed, "p", "fraction"}], one per choice open to it as far as the acting
        side can know, never from what is hidden from it), "low" and "high" (their range) and "assumes" (in
        words); "text" then says the range and each case. "p" stays the game's headline number."""
        ...

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        """The battles of the position (the one being fought, those set up) from `side`'s view; [] if none."""
        ...


@dataclass(frozen=True, slots=True)
class AgentHooks(Generic[S]):
    """What a game gives the computer players (warroom.ai); each part may be None, and search then
    falls back to uniform priors and random rollouts. Every function takes (ruleset, state, ...).

    - `heuristic_policy(rs, s) -> (action, why)`: the game's rule-of-thumb move for the side to act.
    - `evaluate(rs, s) -> float | {side: float}`: a leaf value for search, in [0, 1] (a float: the
      solitaire player's; a dict: each side's).
    - `value_text(rs, value) -> str`: a value in the game's words ("about 7.2 VP expected").
    - `summarize(rs, s) -> dict`: a finished game's facts for the simulation report.
    - `candidate_actions(rs, s) -> list[str]`: the actions search expands (all legal ones if None).
    - `leaf_playout(rs, s, rng) -> None`: plays the state on in place before it is evaluated.
    - `search_confidence`: how far search trusts `evaluate` against a playout's end (0..1).
    - `search(rs, budget_ms=, simulations=, seed=) -> agent`: the game's own search, the "search"
      agent (warroom.ai.get_agent), for a game where a search built on its rules plays better than
      MCTS over the generic contract (its NOTES.md says why and by how much); None: no such agent.
    - `unpredictable(rs, s, rng) -> (action, why) | None`: a choice drawn with the agent's own random numbers
      where a fixed one would tell the opponent something hidden (below).
    - `withheld`: the agents the game does not offer, each with why (below)."""

    heuristic_policy: Callable[[Any, S], tuple[str, str]] | None = None
    evaluate: Callable[[Any, S], Any] | None = None
    value_text: Callable[[Any, float], str] | None = None
    summarize: Callable[[Any, S], dict[str, Any]] | None = None
    candidate_actions: Callable[[Any, S], list[str]] | None = None
    leaf_playout: Callable[[Any, S, Random], None] | None = None
    search_confidence: float | None = None
    search: Callable[..., Any] | None = None
    unpredictable: Callable[[Any, S, Random], tuple[str, str] | None] | None = None
    """`unpredictable(rs, s, rng) -> (action, why) | None`: the computer's choice, drawn with its own random
    numbers, where the opponent watches the choice but must not be able to work out what it hides (which
    counter goes face down where: a fixed order would name each back); None where the game's heuristic
    decides. The heuristic and search agents ask it first."""
    withheld: Mapping[str, str] = field(default_factory=dict)
    """Agent name -> why the game does not offer it: a search that plays below the game's own heuristic on the
    same seeds (its NOTES.md gives the measure) is no opponent to offer. `warroom.ai.get_agent` refuses it with
    that reason (WithheldAgentError), so no front end, study or ladder fields it."""


@dataclass(frozen=True, slots=True)
class TerminalView:
    """How the terminal shows a game (rich renderables; warroom.terminal draws them). Every part but
    `render_board` has a plain default in the terminal. The help is the spec's `help` (one text for
    the terminal and the browser); `help_text` (rich markup) is only for a game that has none.

    - `render_board(match) -> renderable`; `status_line(match) -> Text` (one line between decisions);
    - `action_label(match, action) -> str`; `action_path(match, action) -> tuple[str, ...]` (the
      steps of a stepped menu: town, destination, force); `action_order(match, actions) -> list` (the
      order a stepped menu lists them in: a unit's nearest destinations first; default the legal order);
    - `pending_roll(match) -> renderable | None` (what the die about to be rolled decides);
    - `roll_name(match) -> str | None`; `side_name(match, side) -> str` (default: the scenario's
      `terms`); `event_style(event) -> str`."""

    render_board: Callable[[Any], Any]
    help_text: str = ""
    action_label: Callable[[Any, str], str] | None = None
    action_path: Callable[[Any, str], tuple[str, ...]] | None = None
    action_order: Callable[[Any, Sequence[str]], list[str]] | None = None
    pending_roll: Callable[[Any], Any] | None = None
    event_style: Callable[[Any], str] | None = None
    roll_name: Callable[[Any], str | None] | None = None
    side_name: Callable[[Any, str], str] | None = None
    status_line: Callable[[Any], Any] | None = None


class ObservationEncoding(Protocol):
    """A side's observation as a fixed-length vector of numbers, and the bound on its legal actions:
    what reinforcement-learning libraries need (warroom.envs: PettingZoo, Gymnasium, OpenSpiel).

    `encode` reads only `observation(state, side)` (never the state), so what the rules hide stays
    hidden. Actions are numbered by their place in `legal_actions` (always the same order for the
    same position), so an action is an index below `max_actions` and a mask says which are legal."""

    max_actions: int
    """No position of any scenario has more legal actions than this (the conformance suite checks it)."""

    max_chance_outcomes: int
    """No chance node has more outcomes than this (OpenSpiel numbers a node's outcomes 0, 1, ... in the order
    of `chance_outcomes`, whatever they are: a die face, a card, a whole throw)."""

    def size(self, scenario: str | None) -> int:
        """The vector's length in `scenario` (fixed for the whole game)."""
        ...

    def encode(self, observation: Mapping[str, Any], side: str | None, scenario: str | None) -> list[float]:
        """The observation as `size(scenario)` numbers, each in [-1, 1] or a small count."""
        ...


ActionDescriptor = TypedDict(
    "ActionDescriptor",
    {
        "id": str,
        "label": str,
        "kind": str,
        "unit": str,
        "from": str,
        "to": str,
        "armor": int,
        "infantry": int,
        "parts": list[dict[str, Any]],
        "air": bool,
        "face": int,
        "odds": bool,
        "cost": float,
    },
    total=False,
)
"""One legal action as its parts, so no front end parses an action id: `id` (what is played), `label` (in
words), `kind` (the verb: "attack", "move", "end"), and where it applies: the `unit` that acts, the place it
goes `from` and `to`; a force (`armor`, `infantry`) and, for a choice over several places, `parts` (each
{"from", "armor", "infantry"}); `face` for a die typed in; `odds`: True where the action involves a die, so
its exact odds are worth asking (`OddsCapability.action_odds`); `cost`: a move's movement points, as the
rules count them (a board prints it in the hex the move reaches). Only `id`, `label` and `kind` are always
there."""


@dataclass(frozen=True, slots=True)
class WebBoard:
    """The browser's board for a game: its layout data, its board module and styles, served from the game's own
    folder (`static`) at /games/{id}/static/..., and its legal actions described as the board clicks them.

    `module` is the ES module (a path inside `static`) that implements the board interface of
    docs/architecture.md ("The browser's board interface": `createBoard(container, layout, page,
    payload)` and the board's `present`, `render`, `promptFor`, ...); `styles` the style sheets (paths
    inside `static`) the page loads before it. `layout(scenario)` is the drawing data the module gets
    (the page asks with None: every scenario's board).

    `describe_actions(ruleset, state, legal) -> descriptors`: each legal action as an ActionDescriptor, in the
    order of `legal` (the web sends them with every view; the board draws its clicks from them, so no page parses
    an action id). None: each action is only its id, its label and the kind "action"."""

    layout: Callable[[str | None], dict[str, Any]]
    static: Path
    module: str = "board.js"
    styles: tuple[str, ...] = ()
    describe_actions: Callable[[Any, Any, Sequence[str]], list[ActionDescriptor]] | None = None


@dataclass(frozen=True, slots=True)
class HelpSection:
    """One section of a game's help: the same words in the terminal and the browser, with its rule.
    `text` is plain (no markup); `only` names the one front end a section is about ("terminal",
    "web"), empty for both."""

    title: str
    text: str
    rule: str = ""
    only: str = ""


@dataclass(frozen=True, slots=True)
class ScenarioTerms:
    """A scenario's words for its sides (a side id -> the scenario's name for it) and whether it may end drawn."""

    side_names: Mapping[str, str] = field(default_factory=dict)
    draws: bool = True


@dataclass(frozen=True, slots=True)
class ConcealedDecision:
    """A decision the rules put to a seat whatever it holds, so that the others cannot tell from it what the seat
    holds (a window to play a hidden card, opened for every seat that may hold one): the front ends keep the
    others from telling an answer the seat had no choice about from a chosen one."""

    rule: str
    """The rule that keeps what the seat holds hidden, as the game cites it."""
    automatic: str | None = None
    """The seat's only answer when it holds nothing to choose (a pass): a front end gives it for a person without
    asking. None: the seat has a choice and decides."""


@dataclass(frozen=True, slots=True)
class GameSpec(Generic[S]):
    """Everything generic code may ask of one game. `ruleset` is the only required capability.

    Generic in the game's state type `S`: a game declares `SPEC: GameSpec[ItsState]`, so the hooks it writes
    in its spec are checked against its own state; the registry and the front ends hold a `GameSpec[Any]`.
    Every hook takes the ruleset first, typed `Any` there: a game's hook takes its own rules class, which a
    `Callable` over `Ruleset[S]` would refuse (a parameter may only widen)."""

    id: str
    ruleset: Callable[[], Ruleset[S]]
    odds: Callable[[], OddsCapability] | None = None
    agents: Callable[[], AgentHooks[S]] | None = None
    terminal: Callable[[], TerminalView] | None = None
    board: Callable[[], WebBoard] | None = None
    help: tuple[HelpSection, ...] = ()
    option_specs: Callable[[], Sequence[Mapping[str, Any]]] = tuple
    """The rules options (key, kind, default, choices, scenarios, and "simulate": the value studies use)."""
    terms: Callable[[str | None], ScenarioTerms] = lambda scenario: ScenarioTerms()
    bench_targets: Mapping[str, float] = field(default_factory=dict)
    """What `warroom bench` holds the game to: {"random_steps": steps/s, "mcts_sims": simulations/s}."""
    invariants: Callable[[Any, S, S | None], list[str]] | None = None
    """`invariants(ruleset, state, previous) -> problems`: the conformance suite's checks on any reachable
    state (an empty list when sound). `previous` is the state one step before (None at the start), for
    what may only go one way (an eliminated unit stays eliminated)."""
    observe_events: Callable[[Any, Sequence[Event], str], Iterable[Event]] | None = None
    """`observe_events(ruleset, events, side)`: the events `side` may see, for a game whose events need
    more than each event's `visible_to` (warroom.engine.observe.visible_events); None: `visible_to` alone."""
    seen_hidden: Callable[[Any, S, str], frozenset[Any]] | None = None
    """`seen_hidden(ruleset, state, side)`: what `side` sees now of what the rules may hide from it (the enemy
    pieces it can see beneath stacks, say). A decision after which any side sees something it did not see
    before locks undo (warroom.engine.match), so a player cannot look and take the look back, nor take back
    with his own move the computer's reply that showed him something; None: nothing hidden is ever revealed
    by a decision."""
    name_seen: Callable[[Any, S, str, frozenset[Any]], str] | None = None
    """`name_seen(ruleset, state, side, items) -> words`: the `items` of `seen_hidden` that `side` has just come
    to see, named as the players know them ("the enemy's 3rd division in 0403"), for the refusal of an undo that
    a reveal locks (warroom.engine.match: the player who saw nothing learns who saw what). None: words are given
    as they are, other items counted."""
    final_decision: Callable[[Any, S, str], str | None] | None = None
    """`final_decision(ruleset, state, action) -> rule | None`: the rule that makes `action`, about to be made in
    `state`, final (a counter once placed stays where it is), or None. Undo never takes such a decision back
    (warroom.engine.match), in any front end; None: every decision may be taken back until a roll or a reveal."""
    entry_outcomes: Callable[[Any, S], Sequence[int] | None] | None = None
    """`entry_outcomes(ruleset, state) -> outcomes | None`: what a chance node typed in by hand (table mode)
    offers, where listing only the outcomes that can come up would show the players what the rules hide (the
    card kinds left in a face-down deck tell what the drawer's hands hold): every outcome the node could ever
    have. An entry that cannot come up now is refused without naming those that can (warroom.engine.match).
    None, or a None answer: the outcomes that can come up (a die's faces)."""
    public_reason: Callable[[Any, S, S, str, str, str], bool] | None = None
    """`public_reason(ruleset, before, after, action, why, viewer) -> bool`: whether the computer's reason `why`
    for `action` (played in `before`, giving `after`) tells `viewer`, another side, nothing the rules hide from
    it, so the front ends may show it at once. None in a game with `hidden`: every reason is kept from the other
    sides until the game is over (a reason may tell what the computer's side holds)."""
    keywords: tuple[str, ...] = ()
    """Words besides its id that name this game (a scenario, a place only its map has, its title's place however
    spelled): no code, page or style outside warroom/games/ may use them, nor its id (tests/test_one_folder.py)."""
    hidden: tuple[str, ...] = ()
    """Dotted paths of the save format (`state_to_json`) that no side's observation carries: what the
    rules keep from the players (a face-down deck's order). The omniscient observer (side None) may
    see them; tests/test_observations.py checks that no side's observation does, for every game."""
    determinize: Callable[[S, str, Random], S] | None = None
    """`determinize(state, side, rng) -> state`: a new state that `side` cannot tell from `state`, with
    what it cannot see sampled again (the undrawn deck shuffled anew), reading only what `side` sees,
    so two states with the same `observation(., side)` give the same result for the same rng. Search
    (warroom.ai.mcts) starts each simulation from one, so a computer player never plays on what it
    cannot know. Required where `hidden` is not empty; None where the game hides nothing."""
    encoding: Callable[[], ObservationEncoding] | None = None
    """A fixed-shape numeric observation and an action bound for warroom.envs; None: no environment."""
    seat_variants: Mapping[int, str] = field(default_factory=dict)
    """Player count -> game id, for a game whose variants for more players are ids of their own (their sides
    differ, and a ruleset has one tuple of sides): the same mapping in each variant's spec, so that
    `warroom play GAME --players N` finds the variant from any of them. Empty: the game seats its sides only."""
    concealed_decision: Callable[[Any, S], ConcealedDecision | None] | None = None
    """`concealed_decision(ruleset, state)`: the decision pending in `state`, if the rules put it to its seat
    whatever the seat holds (ConcealedDecision), else None. A front end gives its `automatic` answer for a person
    without asking (in hot-seat, without passing the device), and the others cannot tell it from a chosen one:
    the same events, and in the browser every answer to such a decision is shown after the same moment
    (warroom.web.service). None: no decision is concealed."""


def lazy(target: str, package: str | None = None) -> Callable[..., Any]:
    """`"module:attr"` as a callable that imports `module` only when it is first called, then calls `attr` with
    the arguments it was given: a zero-argument factory (`lazy(".rules:Rules", __package__)` builds the ruleset
    when the registry first asks for it) or a capability function (`lazy(".position:seen_hidden", __package__)`).
    Why: a spec is read when `import warroom` lists the games, and the modules behind a capability (the rules,
    the search hooks, rich for the terminal) load only where it is used. A leading dot names a module of
    `package`, as `import_module` does: a game's spec passes its own `__package__`, so its folder names itself
    nowhere. The spelling is checked at once; the module's existence only at the first call."""
    module, colon, attr = target.partition(":")
    if not colon or not module or not attr.isidentifier() or (module.startswith(".") and not package):
        raise ValueError(f"lazy({target!r}): write 'package.module:attr', or '.module:attr' with the package")
    found: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(import_module(module, package), attr))
        return found[0](*args, **kwargs)

    call.__qualname__ = call.__name__ = attr
    call.__doc__ = f"{target} (of {package}), imported at the first call" if package else f"{target}, imported lazily"
    return call


def web_board(
    package: str | None,
    module: str = "board.js",
    styles: tuple[str, ...] = ("board.css",),
    actions: str | None = ".web.actions:describe_actions",
) -> Callable[[], WebBoard]:
    """The board of a game laid out the usual way, as a factory: `web/layout.py`'s `layout` (of `package`, the
    game's spec's `__package__`) draws the data, `web/static/` in the game's own folder serves `module` and
    `styles`, and `actions` ("module:function" of the package, None for none) describes the legal actions. The
    modules are imported when the board is first asked for, and the board is built once."""
    if not package:
        raise ValueError("web_board needs the game's package (its spec's __package__)")
    built: list[WebBoard] = []

    def board() -> WebBoard:
        if built:
            return built[0]
        home = import_module(package).__file__
        if home is None:
            raise ValueError(f"{package} is not a package of files: its board has no folder to serve")
        layout = import_module(".web.layout", package).layout
        describe = lazy(actions, package) if actions else None
        static = Path(home).parent / "web" / "static"
        built.append(WebBoard(layout, static, module=module, styles=styles, describe_actions=describe))
        return built[0]

    return board


__all__ = [
    "ActionDescriptor",
    "AgentHooks",
    "ConcealedDecision",
    "GameSpec",
    "HelpSection",
    "ObservationEncoding",
    "OddsCapability",
    "OddsField",
    "ScenarioTerms",
    "TerminalView",
    "WebBoard",
    "lazy",
    "web_board",
]
