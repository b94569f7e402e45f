"""The JSON-lines engine protocol (`warroom protocol`): any GUI, script, AI or test drives every game.

One request object per line on stdin, one answer object per line on stdout, flushed, like UCI or GTP:

    {"cmd":"new","game":GAME,"seed":7}        ->  {"ok":true,"view":VIEW}
    {"cmd":"play","action":"end"}             ->  {"ok":true,"events":[...],"view":VIEW}
    {"cmd":"quit"}                            ->  {"ok":true}   (and the session ends)

Every command, its fields and its answer are in COMMAND_TABLE below: the dispatcher checks requests
against it and `{"cmd":"help"}` answers it, so the two cannot drift apart; docs/protocol.md is the
reference for people (tests/test_protocol.py checks it names every command and error code). VIEW
is `Match.view(side)`. Choices made here, and why:

- Every non-blank line gets exactly one answer line, so a client can always wait for one.
  Blank lines are skipped unanswered (a stray Enter in a terminal is not an error).
- A failed request answers `{"ok":false,"error":{"code","message"}}` and leaves the session and
  the game exactly as they were: a command that changes the game works on a copy of the match
  and swaps it in only once its answer is built and serialised. An unexpected exception answers
  code `internal` (its traceback goes to the log on stderr, never to stdout) and the session
  carries on with the game as it was before that request.
- Hidden information: `view` with a "side" answers only what that side may see. `play`, `undo`
  and `load` answer with the view of the "side" named in the request (for `play`, the side that
  played); without one they answer the omniscient view, for a trusted caller (a referee, a test,
  a solitaire game). The events of a `play` with a side are filtered for that side by the same
  rule as the web server's (`warroom.engine.observe.visible_events`).
  A front end that relays answers to players who must not see everything must always send "side".
- An optional request "id" (a string or an integer) is echoed in the answer, for clients that
  pipeline requests.
- Unknown fields are rejected (`bad_request`): a mistyped "seeds" must not silently start an
  unseeded game. `odds` is the exception: its fields belong to each game's odds calculator.
- Odds are answered by the game's odds capability (its spec's `odds`: warroom.engine.spec), the
  same calculator the command line and the browser use, so a game adds its own without touching
  the commands here and names its own fields.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from warroom.engine.errors import BadRequestError, GameOverError, PositionError, WarroomError, WrongSideError
from warroom.engine.fields import bool_field, int_field, object_field, read_field, str_field
from warroom.engine.fields import json_type as _json_type
from warroom.engine.match import Match
from warroom.engine.observe import visible_events
from warroom.engine.ruleset import DICE_SIDE
from warroom.engine.spec import OddsCapability, OddsField

log = logging.getLogger("warroom.protocol")

__all__ = [
    "COMMANDS",
    "COMMAND_TABLE",
    "ERROR_CODES",
    "BadRequestError",
    "ProtocolSession",
    "bool_field",
    "int_field",
    "main",
    "object_field",
    "odds_game_fields",
    "read_field",
    "run",
    "str_field",
]


# -- protocol-level errors (the engine's own errors carry their codes already) -------------------
class BadJsonError(WarroomError):
    code = "bad_json"


class UnknownCommandError(WarroomError):
    code = "unknown_command"


class NoGameError(WarroomError):
    """A command that needs a game, sent before `new` or `load`."""

    code = "no_game"


class NoOddsError(WarroomError):
    """A registered game whose spec offers no odds."""

    code = "no_odds"


def _error(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def _reject_constant(name: str) -> Any:
    # Python's json accepts NaN and Infinity; JSON does not, and they could never be written back out.
    raise ValueError(f"{name} is not a JSON value")


def _code(exc: WarroomError) -> str:
    # The base class's code "error" means a request the engine cannot use, with the reason in the message.
    return "bad_request" if exc.code == WarroomError.code else exc.code


# -- odds: each game's capability ---------------------------------------------------------------
# The request fields' readers (read_field, str_field, int_field, bool_field, object_field) live in
# warroom.engine.fields, shared with the games' calculators; they are imported above and keep their
# names here.
def _odds_of(game: str) -> OddsCapability:
    """The game's odds capability (its spec's `odds`); NoOddsError for a game that has none."""
    from warroom.games import game_ids, get_spec

    factory = get_spec(game).odds
    if factory is None:
        having = [g for g in game_ids() if get_spec(g).odds is not None]
        raise NoOddsError(f"the protocol has no odds calculator for {game}; games with odds: {', '.join(having)}")
    return factory()


def _placeholder(field: OddsField) -> str:
    """A field's value in an example request: an integer by its initial (D for "drm"), false, {...}, "..."."""
    return {"integer": field.name[:1].upper(), "boolean": "false", "object": "{...}"}.get(field.kind, '"..."')


def _odds_games() -> dict[str, OddsCapability]:
    """Every registered game with odds, and its capability, in the registry's order."""
    from warroom.games import game_ids, get_spec

    return {game: _odds_of(game) for game in game_ids() if get_spec(game).odds is not None}


# -- the session --------------------------------------------------------------------------------
_UNCHANGED = object()


@dataclass(frozen=True)
class Field:
    """One request field: its JSON type, whether it must be there, and what it means."""

    name: str
    type: str
    doc: str
    required: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "required": self.required, "doc": self.doc}


@dataclass(frozen=True)
class Command:
    """One command: what it does, its fields (None: the game's odds calculator reads its own), its answer
    (None: each game's odds capability says its own)."""

    doc: str
    fields: tuple[Field, ...] | None
    answer: str | None

    def to_json(self, name: str) -> dict[str, Any]:
        fields = [f.to_json() for f in self.fields] if self.fields is not None else [f.to_json() for f in ODDS_FIELDS]
        answer = self.answer if self.answer is not None else odds_answers()
        entry: dict[str, Any] = {"cmd": name, "doc": self.doc, "fields": fields, "answer": answer}
        if self.fields is None:
            entry["game_fields"] = {game: [f.to_json() for f in fs] for game, fs in odds_game_fields().items()}
        return entry


_SIDE = Field("side", "string", 'answer only what this side may see (a side id, or "dice"); left out: everything')
COMMAND_TABLE: dict[str, Command] = {
    "help": Command(
        "the commands, their fields and answers, and the error codes (this table)",
        (Field("command", "string", "one command only"),),
        (
            '{"ok":true,"commands":[{"cmd","doc","fields":[{"name","type","required","doc"}],"answer"}],'
            '"errors":{code: meaning}}'
        ),
    ),
    "games": Command(
        "the games, their scenarios and sides", (), '{"ok":true,"games":[{"id","title","scenarios","sides"}]}'
    ),
    "new": Command(
        "start a game (replacing any current one)",
        (
            Field("game", "string", "a game id from games", required=True),
            Field("scenario", "string", "default: the game's first"),
            Field(
                "seed", "integer", "dice seed: the same seed and actions give the same game; default: drawn at random"
            ),
            Field(
                "dice",
                "string|list",
                '"auto" (seeded, the default), "manual" (each roll is a decision of the side "dice": '
                '"roll N") or a list of integer die values to use in order',
            ),
            Field(
                "options",
                "object",
                'rules options by key, as the game\'s option specs name them (e.g. {"advanced_retreat": true})',
            ),
            Field("position", "object", 'start from a position: a view\'s "state" (like a chess FEN)'),
        ),
        '{"ok":true,"view":VIEW}',
    ),
    "play": Command(
        'make a decision (a die roll too, with manual dice: "roll N")',
        (
            Field("action", "string", "an action id from the view's legal list", required=True),
            Field(
                "side",
                "string",
                "the side making it: refused (wrong_side) when it is not that side's decision; "
                "the events and view answered are that side's",
            ),
        ),
        '{"ok":true,"events":[{"type","text","rule",...}],"view":VIEW}',
    ),
    "view": Command("the current position", (_SIDE,), '{"ok":true,"view":VIEW}'),
    "undo": Command(
        "take back the last decision (never past a die roll or a hidden reveal: undo_locked); with `side`, only "
        "that side's own (wrong_side)",
        (_SIDE,),
        '{"ok":true,"view":VIEW}',
    ),
    "save": Command("the game's record, to keep or to load later", (), '{"ok":true,"record":RECORD}'),
    "load": Command(
        "replace the game by one rebuilt from a record",
        (
            Field("record", "object", "a record, as save answers it or a save file holds it", required=True),
            _SIDE,
        ),
        '{"ok":true,"view":VIEW}',
    ),
    "odds": Command(
        "exact odds: of a battle you describe (name the game), or of every attack legal now (no game)", None, None
    ),
    "ai": Command(
        "what a computer player would do now (the game is not changed: send play to do it)",
        (
            Field("agent", "string", '"heuristic", "mcts" or "random"', required=True),
            Field("budget_ms", "integer", "mcts: thinking time in ms"),
            Field("seed", "integer", "mcts and random: their own random numbers, for a repeatable choice"),
            Field("simulations", "integer", "mcts: a fixed number of simulations instead of a time"),
        ),
        '{"ok":true,"action":ACTION,"why":TEXT}',
    ),
    "quit": Command("end the session", (), '{"ok":true}'),
}
"""Every command the dispatcher knows: `help` answers it and the dispatcher checks fields against it,
so the two cannot disagree (docs/protocol.md is checked against it by tests/test_protocol.py)."""

ODDS_FIELDS = (
    Field(
        "game",
        "string",
        "a game id: odds of the battle the other fields describe; left out: the odds of "
        "the current game's position (its attacks or battles)",
    ),
)


def odds_game_fields() -> dict[str, tuple[Field, ...]]:
    """The calculator fields of `{"cmd":"odds","game":G,...}` per game with odds, as its spec's odds
    capability declares them (`fields`, which its calculator reads and the command line offers), so the
    protocol names no game's fields itself and a game's help cannot drift from what it reads."""
    return {
        game: tuple(Field(f.name, f.kind, f.doc, f.required) for f in odds.fields)
        for game, odds in _odds_games().items()
    }


def odds_answers() -> str:
    """The odds command's answers in help: each game's calculator answer and its current game's."""
    return "; ".join(
        f"{game}: {odds.answer}, the current game: {odds.position_answer}" for game, odds in _odds_games().items()
    )


ERROR_CODES: dict[str, str] = {
    "bad_json": "the line is not JSON",
    "bad_request": "not an object; a field missing, unknown or of the wrong type; a value the game refuses (an option)",
    "unknown_command": "no such cmd",
    "no_game": "the command needs a game: send new or load first",
    "unknown_game": "no such game",
    "unknown_scenario": "the game has no such scenario",
    "illegal_action": "not a legal action now (the message lists what is)",
    "wrong_side": "play with a side that is not the one to decide",
    "game_over": "the game is over: nothing to play, nothing for ai to choose",
    "undo_locked": "nothing to undo since the last die roll, hidden reveal or decision the rules make final",
    "bad_record": "a record that cannot be read or replayed (the message names the field)",
    "bad_position": "a position that is not a legal state of the game",
    "no_odds": "the protocol has no odds calculator for the game",
    "unknown_agent": "no such computer player",
    "no_decision": "ai asked where the dice, not a player, decide",
    "no_heuristic": "the game has no heuristic player",
    "no_search": 'the game has no search player of its own ("mcts" is every game\'s search)',
    "withheld_agent": "the game does not offer that computer player (it plays below the game's own heuristic)",
    "data_file": "a game data file is missing or damaged (an installation problem)",
    "stale_build": "a compiled module was edited after it was compiled: reinstall (an installation problem)",
    "internal": "a bug: the game is as it was before the request; the traceback is on stderr",
}
"""Every `error.code` an answer can carry, with what it means (help answers them)."""

_FIELDS: dict[str, frozenset[str] | None] = {
    name: None if command.fields is None else frozenset(f.name for f in command.fields)
    for name, command in COMMAND_TABLE.items()
}
COMMANDS = tuple(COMMAND_TABLE)


class ProtocolSession:
    """One protocol session: at most one match, driven one request at a time.

    `handle` takes a request (a dict, or one line of JSON text) and returns its answer; it never
    raises. `closed` turns true after `quit`.
    """

    def __init__(self) -> None:
        self.match: Match | None = None
        self.closed = False
        self._staged: Any = _UNCHANGED  # the match a command built, swapped in once its answer is written
        self._quit_requested = False

    def handle(self, request: dict[str, Any] | str) -> dict[str, Any]:
        return self._respond(request)[0]

    def handle_line(self, line: str) -> str | None:
        """The answer to one input line as JSON text (no newline); None for a blank line."""
        if not line.strip():
            return None
        return self._respond(line)[1]

    # -- answering, with the all-or-nothing commit --------------------------------------------
    def _respond(self, request: dict[str, Any] | str) -> tuple[dict[str, Any], str]:
        self._staged = _UNCHANGED
        self._quit_requested = False
        answer = self._answer(request)
        try:
            text = json.dumps(answer, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
        except (TypeError, ValueError, RecursionError) as exc:  # a ruleset handed back something that is not JSON
            log.exception("answer is not JSON")
            failed = _error(
                "internal", f"internal error: the answer could not be written as JSON ({exc}); the game is as it was"
            )
            if "id" in answer:
                failed["id"] = answer["id"]
            return failed, json.dumps(failed, ensure_ascii=True)
        if self._staged is not _UNCHANGED:
            self.match = self._staged
        if self._quit_requested:
            self.closed = True
        return answer, text

    def _answer(self, request: dict[str, Any] | str) -> dict[str, Any]:
        if isinstance(request, str):
            try:
                request = json.loads(request, parse_constant=_reject_constant)
            except (ValueError, RecursionError) as exc:  # JSONDecodeError, over-long integers, absurd nesting
                return _error(BadJsonError.code, f"not valid JSON: {exc}"[:500])
        if not isinstance(request, dict):
            return _error(BadRequestError.code, f"a request must be a JSON object, not {_json_type(request)}")
        request_id = request.get("id")
        if request_id is not None and (not isinstance(request_id, str | int) or isinstance(request_id, bool)):
            return _error(BadRequestError.code, 'field "id" must be a string or an integer')
        try:
            answer = self._dispatch(request)
        except WarroomError as exc:
            self._staged, self._quit_requested = _UNCHANGED, False
            answer = _error(_code(exc), str(exc))
        except Exception as exc:
            self._staged, self._quit_requested = _UNCHANGED, False
            log.exception("internal error answering %r", request.get("cmd"))
            answer = _error(
                "internal", f"internal error ({type(exc).__name__}: {exc}); the game is as it was before this request"
            )
        if "id" in request:
            answer["id"] = request_id
        return answer

    def _dispatch(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd is None:
            raise BadRequestError('a request needs the field "cmd"')
        if not isinstance(cmd, str):
            raise BadRequestError(f'field "cmd" must be a string, not {_json_type(cmd)}')
        if cmd not in _FIELDS:
            raise UnknownCommandError(f"unknown command {cmd[:80]!r}; commands: {', '.join(COMMANDS)}")
        allowed = _FIELDS[cmd]
        if allowed is not None:
            unknown = set(req) - allowed - {"cmd", "id"}
            if unknown:
                raise BadRequestError(f'"{cmd}" has no field {", ".join(sorted(repr(str(k)[:40]) for k in unknown))}')
        handler: Callable[[dict[str, Any]], dict[str, Any]] = getattr(self, f"_cmd_{cmd}")
        return handler(req)

    def _need_match(self) -> Match:
        if self.match is None:
            raise NoGameError('no game: start one with {"cmd":"new","game":...} or {"cmd":"load","record":...}')
        return self.match

    def _side(self, req: dict[str, Any], match: Match) -> str | None:
        side = str_field(req, "side")
        sides = (*match.ruleset.info.sides, DICE_SIDE)
        if side is not None and side not in sides:
            raise BadRequestError(
                f'field "side": {match.ruleset.info.id} has no side {side[:80]!r}; sides: {", ".join(sides)}'
            )
        return side

    # -- the commands ---------------------------------------------------------------------------
    def _cmd_help(self, req: dict[str, Any]) -> dict[str, Any]:
        only = str_field(req, "command")
        if only is not None and only not in COMMAND_TABLE:
            raise UnknownCommandError(f"unknown command {only[:80]!r}; commands: {', '.join(COMMANDS)}")
        names = [only] if only is not None else list(COMMAND_TABLE)
        return {
            "ok": True,
            "commands": [COMMAND_TABLE[name].to_json(name) for name in names],
            "errors": dict(ERROR_CODES),
        }

    def _cmd_games(self, req: dict[str, Any]) -> dict[str, Any]:
        # Not `warroom.games()`: once the subpackage warroom.games is imported, that name is the module.
        from warroom.games import game_ids, get_ruleset

        infos = [get_ruleset(game).info for game in game_ids()]
        games = [{"id": i.id, "title": i.title, "scenarios": list(i.scenarios), "sides": list(i.sides)} for i in infos]
        return {"ok": True, "games": games}

    def _cmd_new(self, req: dict[str, Any]) -> dict[str, Any]:
        import warroom

        game = str_field(req, "game", required=True)
        assert game is not None
        scenario = str_field(req, "scenario")
        seed = int_field(req, "seed")
        dice = read_field(req, "dice", False)
        if (
            dice is not None
            and dice not in ("auto", "manual")
            and not (isinstance(dice, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in dice))
        ):
            raise BadRequestError('field "dice" must be "auto", "manual" or a list of integer die values')
        options = object_field(req, "options")
        position = object_field(req, "position")
        try:
            match = warroom.new_game(game, scenario, seed=seed, dice=dice, options=options, position=position)
        except WarroomError:
            raise
        except Exception as exc:
            if position is None:
                raise
            # A ruleset should say PositionError itself; whatever it raised, the position is what was wrong.
            raise PositionError(f"not a valid {game} position: {type(exc).__name__}: {exc}") from None
        self._staged = match
        return {"ok": True, "view": match.view()}

    def _cmd_play(self, req: dict[str, Any]) -> dict[str, Any]:
        current = self._need_match()
        action = str_field(req, "action", required=True)
        assert action is not None
        side = self._side(req, current)
        match = current.clone()
        events = match.play(action, side)
        if side is not None:
            events = visible_events(match.ruleset, events, side)
        self._staged = match
        return {"ok": True, "events": events, "view": match.view(side)}

    def _cmd_view(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._need_match()
        return {"ok": True, "view": match.view(self._side(req, match))}

    def _cmd_undo(self, req: dict[str, Any]) -> dict[str, Any]:
        current = self._need_match()
        side = self._side(req, current)
        match = current.clone()
        match.undo()
        if side not in (None, DICE_SIDE) and match.to_act != side:  # who made the decision is the one to act again
            raise WrongSideError(f"the last decision was {match.to_act}'s; {side} may take back only its own")
        self._staged = match
        return {"ok": True, "view": match.view(side)}

    def _cmd_save(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "record": self._need_match().record().to_json()}

    def _cmd_load(self, req: dict[str, Any]) -> dict[str, Any]:
        import warroom
        from warroom.engine.errors import RecordError

        record = object_field(req, "record", required=True)
        try:
            match = warroom.load(record)  # type: ignore[arg-type]
        except RecordError:
            raise
        except Exception as exc:  # a ruleset tripping over a malformed record: the record is what was wrong
            raise RecordError(f"the record cannot be replayed: {type(exc).__name__}: {exc}") from None
        side = self._side(req, match)
        self._staged = match
        return {"ok": True, "view": match.view(side)}

    def _cmd_odds(self, req: dict[str, Any]) -> dict[str, Any]:
        game = str_field(req, "game")
        if game is not None:  # the calculator: the game's own fields (it rejects any other)
            return {"ok": True, **_odds_of(game).calculate(req)}  # unknown_game, then no_odds
        match = self._need_match()
        odds = _odds_of(match.ruleset.info.id)
        unknown = set(req) - {"cmd", "id"}
        if unknown:
            example = ",".join(f'"{f.name}":{_placeholder(f)}' for f in odds.fields)
            raise BadRequestError(
                f"odds of the current game take no fields (got {', '.join(sorted(map(repr, unknown)))}); "
                f'for the calculator, name the game: {{"cmd":"odds","game":"{match.ruleset.info.id}",{example}}}'
            )
        return {"ok": True, **odds.position(match.ruleset, match.state)}

    def _cmd_ai(self, req: dict[str, Any]) -> dict[str, Any]:
        match = self._need_match()
        name = str_field(req, "agent", required=True)
        assert name is not None
        budget_ms = int_field(req, "budget_ms", minimum=1)
        seed = int_field(req, "seed")
        simulations = int_field(req, "simulations", minimum=1)
        if match.over:
            raise GameOverError("the game is over: there is no decision for an agent to make")
        from warroom.ai import get_agent

        try:
            agent = get_agent(name, match.ruleset.info.id, budget_ms=budget_ms, seed=seed, simulations=simulations)
        except WarroomError:
            raise
        except ValueError as exc:
            raise _UnknownAgent(str(exc)) from None
        action, why = agent.choose(match.clone())  # a copy: an agent can never disturb the game
        return {"ok": True, "action": action, "why": why}

    def _cmd_quit(self, req: dict[str, Any]) -> dict[str, Any]:
        self._quit_requested = True
        return {"ok": True}


class _UnknownAgent(WarroomError):
    code = "unknown_agent"


# -- driving a session from lines -----------------------------------------------------------------
def run(lines: Iterable[str], write: Callable[[str], None]) -> None:
    """Answer each line of `lines` until they end or a `quit`; `write` gets each answer line, newline included."""
    session = ProtocolSession()
    for line in lines:
        text = session.handle_line(line)
        if text is None:
            continue
        write(text + "\n")
        if session.closed:
            return


def _stdin_lines() -> Iterator[str]:
    # Read bytes and decode leniently: a line that is not UTF-8 is answered bad_json, not a crash.
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        yield from sys.stdin
        return
    for raw in iter(buffer.readline, b""):
        yield raw.decode("utf-8", errors="replace")


def main() -> None:
    """Run the protocol on stdin/stdout. Anything else that prints is sent to stderr, keeping stdout pure."""
    out = sys.stdout

    def write(text: str) -> None:
        out.write(text)
        out.flush()

    try:
        with contextlib.redirect_stdout(sys.stderr):
            run(_stdin_lines(), write)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        # The reader went away; point stdout at devnull so the interpreter's final flush is quiet.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


if __name__ == "__main__":
    main()
