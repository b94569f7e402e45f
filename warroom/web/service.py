"""The authoritative game service: seats and tokens, checked moves, storage, views per seat, pushes.

It holds live matches in memory (rebuilt from the stored record with `warroom.load`), checks every
action with the engine on behalf of the seat's own side, commits each accepted step before it is
acknowledged, and only ever hands a seat `match.view(side)` and the events that side may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

import warroom
from warroom.ai import agent_seed
from warroom.engine.dice import HMAC_SHA256, MT19937
from warroom.engine.errors import UndoLockedError, WarroomError
from warroom.engine.fairness import commitment, new_secret
from warroom.engine.match import Match
from warroom.engine.observe import concealed_decision, reason_readers, visible_events
from warroom.engine.record import CHAINED_VERSION, Record
from warroom.engine.ruleset import DICE_SIDE

from . import agents
from .errors import ApiError, bad_token, from_engine, no_token, not_found, stale
from .layouts import describe_actions
from .odds import battle_odds
from .options import check_options, describe_options, game_options
from .packed import pack_actions
from .seat_record import seat_record
from .storage import ChangeListener, InviteUsedError, Seat, StaleError, Step, Store, StoredGame, token_hash
from .thinking import Thinker, ThinkError, ThreadThinker
from .uploads import PreparedUpload, prepare_upload

log = logging.getLogger("warroom.web")

MODES = ("computer", "hotseat", "online", "table")
SECRET_SEED_MODES = ("online",)
"""Players on different browsers: the server draws the seed in secret and no seat sees it before the
game is over, since the seed and the moves so far tell every card and die to come. The dice come from
the keyed generator (a 256-bit key, HMAC-SHA256: docs/fairness.md); every seat is shown the key's
commitment from the start and the key at the end, to check every die with. Against the computer,
hot-seat and at the table the players may choose one (to study a game), and know it makes the draws
predictable."""
MAX_CACHED = 2000
QUEUE_LIMIT = 64
MAX_REVIEWS = 200
"""Post-game analyses kept in memory (the oldest asked is dropped first)."""
HINT_TOP = 3
CONCEALED_REVEAL_S = 0.8
"""How soon after a concealed decision comes up (the spec's `concealed_decision`: one the rules put to a seat
whatever it holds) its answer is shown, at the earliest, where another player could read its timing (online, and
the computer's answers against a person): the automatic answer of a person with nothing to choose is given then,
and a quicker answer, a person's or the computer's, is held until then, so that when the answer came tells no
seat whether there was a choice. Short, so that a person waits no more than a moment."""
"""A hint lists this many moves with their estimated value and its confidence (warroom.ai.analysis)."""


@dataclass(eq=False)
class Subscriber:
    """One open WebSocket: its game, the seat's side, and the queue its writer task drains in order.

    Subscribers belong to the service, keyed by game id, not to the LiveGame in memory: a game
    dropped from memory (after a failed save, or changed by another server process) and read back
    keeps pushing to the same sockets.
    """

    game_id: str
    side: str
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))


@dataclass
class Created:
    """A new game, the tokens of the seats its creator holds, and the one-time invites to the others."""

    live: LiveGame
    tokens: dict[str, str]
    invites: dict[str, str] = field(default_factory=dict)


@dataclass(eq=False)
class LiveGame:
    """A game held in memory: the stored header and seats, the steps so far, and the Match."""

    stored: StoredGame
    match: Match
    version: int
    steps: list[Step]
    computer_task: asyncio.Task[None] | None = None
    automatic_task: asyncio.Task[None] | None = None
    """A person's automatic answer to a concealed decision, waiting for its moment (never shown as thinking)."""
    decided_at: float = field(default_factory=time.monotonic)
    """When the decision now pending came up (the last step, undo or read back), for CONCEALED_REVEAL_S."""
    computer_failed: bool = False  # the computer's last try ended in an error event (see GameService.get)
    reasons: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """The computer's reasons (log events) by the length of the match's log when each was given: the log
    shows them after the move they explain. Kept beside the match's log, which holds the rules' events only
    (another process rebuilds that log from the stored steps, and counts on its length)."""

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def mode(self) -> str:
        return self.stored.mode

    def seat(self, side: str) -> Seat | None:
        return next((s for s in self.stored.seats if s.side == side), None)

    def record_json(self) -> dict[str, Any]:
        """The record as it stands now: the stored header and initial dice, the steps so far, and the chain."""
        stored = self.stored
        record = StoredGame(
            stored.id,
            stored.game,
            stored.mode,
            stored.header,
            stored.initial_dice,
            self.version,
            False,
            None,
            stored.created,
            stored.updated,
            steps=self.steps,
        ).record_json()
        moves = self.match.moves_chain()  # a keyed game's decision chain: the digests its seats were shown
        if moves is not None:
            record["version"], record["moves"] = CHAINED_VERSION, moves
        return record


class GameService:
    """Everything the HTTP and WebSocket routes do, without HTTP: easy to test and to reuse."""

    def __init__(self, store: Store, thinker: Thinker | None = None) -> None:
        self.store = store
        self.thinker: Thinker = thinker if thinker is not None else ThreadThinker()
        """Where computer seats and hints think: worker processes from `create_app` (see warroom.web.thinking);
        threads of this process by default, which owns no processes to stop."""
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.subscribers: dict[
            str, set[Subscriber]
        ] = {}  # game id -> open sockets, whether or not the game is in memory
        self.listener: ChangeListener | None = None
        self.reviews: OrderedDict[str, asyncio.Task[dict[str, Any]]] = OrderedDict()
        self.reveal_s = CONCEALED_REVEAL_S
        """CONCEALED_REVEAL_S for this service (a test may shorten it)."""
        """Finished games' post-game analyses, by game id (a finished game never changes): the task, so two
        seats asking at once share one computation."""

    # -- catalog --------------------------------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        from warroom.games import game_ids, get_ruleset

        from .layouts import board_layout

        out = []
        for game in game_ids():
            info = get_ruleset(game).info
            out.append(
                {
                    "id": info.id,
                    "title": info.title,
                    "scenarios": list(info.scenarios),
                    "sides": list(info.sides),
                    "board": board_layout(info.id)["kind"],
                    "agents": agents.agent_names(info.id),
                    "options": game_options(info.id),
                }
            )
        return out

    # -- creating games -------------------------------------------------------------------------
    def create(
        self,
        game: str,
        scenario: str | None = None,
        mode: str = "computer",
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        human: list[str] | None = None,
        agent: str | None = None,
        budget_ms: int = 1000,
        side: str | None = None,
    ) -> Created:
        """Start a game; returns it with the secret token of each seat its creator holds (shown once, stored hashed).

        An online game refuses a chosen `seed` (400 seed_not_allowed): its seed is drawn here in secret.
        Its creator holds one seat (`side`, by default the first) and gets a one-time invite for each
        other seat, to send to the opponents (`claim`). `options` are those the catalog offers for the
        game and scenario (else 400 bad_option, naming it).
        """
        _check_mode(mode)
        if seed is not None and mode in SECRET_SEED_MODES:
            raise ApiError(
                400,
                "seed_not_allowed",
                "an online game's dice seed is drawn by the server in secret: with a known seed "
                "every movement card and die to come can be worked out in advance. Leave the seed "
                "out (a chosen seed is only for games against the computer, hot-seat or at the table).",
            )
        drawn: int | str | None = secret_seed() if mode in SECRET_SEED_MODES else seed
        try:
            from warroom.games import get_ruleset

            info = get_ruleset(game).info
            where = (info.scenarios[0] if info.scenarios else None) if scenario is None else scenario
            options = check_options(info.id, info.title, where if where in info.scenarios else None, options)
            match = warroom.new_game(
                game,
                scenario,
                seed=drawn,
                dice="manual" if mode == "table" else "auto",
                options=options,
                rng=HMAC_SHA256 if mode in SECRET_SEED_MODES else None,
            )
        except WarroomError as exc:
            raise from_engine(exc) from None
        record = match.record()
        return self._store_new(
            match, record, [], list(match.dice_rolled), mode, human, agent, budget_ms, side, {"kind": "new"}
        )

    def prepare_upload(self, record_json: Any, mode: str = "hotseat") -> PreparedUpload:
        """Check and replay an uploaded record (no server state touched: the route runs this off the event loop).

        Everything recorded stays as it was played, and the record gets the checks a new game gets
        (see `warroom.web.uploads`). An unfinished record continued as an online game is re-seeded, as
        a fair referee would shuffle again before play goes on: whoever uploads it knows its seed (and
        any scripted dice not yet used), which would tell every card and die still to come, so the
        server keeps the dice already rolled, drops the rest and draws a new seed in secret that no
        seat ever sees; dice typed in at a table are kept as rolled, and the server rolls from then on.
        """
        _check_mode(mode)
        return prepare_upload(record_json, mode, _seed_drawer(record_json), reseed=_reseed_online)

    def upload(
        self,
        record_json: Any,
        mode: str = "hotseat",
        human: list[str] | None = None,
        agent: str | None = None,
        budget_ms: int = 1000,
        side: str | None = None,
    ) -> Created:
        """Continue a downloaded record as a new game here (new seats, new tokens): `prepare_upload`, then
        `store_upload`."""
        return self.store_upload(self.prepare_upload(record_json, mode), human, agent, budget_ms, side)

    def store_upload(
        self,
        prepared: PreparedUpload,
        human: list[str] | None = None,
        agent: str | None = None,
        budget_ms: int = 1000,
        side: str | None = None,
    ) -> Created:
        # the original header (its dice mode and seed; re-seeded for an online game): the stored game goes on from it
        return self._store_new(
            prepared.match,
            prepared.record,
            prepared.steps,
            prepared.initial_dice,
            prepared.mode,
            human,
            agent,
            budget_ms,
            side,
            prepared.origin,
        )

    def _store_new(
        self,
        match: Match,
        record: Record,
        steps: list[Step],
        initial_dice: list[int],
        mode: str,
        human: list[str] | None,
        agent: str | None,
        budget_ms: int,
        side: str | None = None,
        origin: dict[str, Any] | None = None,
    ) -> Created:
        sides = list(match.ruleset.info.sides)
        if mode == "computer":
            human = list(human) if human else sides[:1]
            unknown = [s for s in human if s not in sides]
            if unknown:
                raise ApiError(
                    400, "bad_side", f"{match.ruleset.info.title} has no side {unknown[0]!r}; sides: {', '.join(sides)}"
                )
        else:
            human = sides
        computer_sides = [s for s in sides if s not in human]
        budget_ms = max(50, min(int(budget_ms), 20000))
        agent_spec = None
        if computer_sides:
            name = _default_agent(match.ruleset.info.id) if agent is None else agent
            agents.make_agent(name, match.ruleset.info.id, budget_ms, 0)  # refuse now, not mid-game, if it cannot play
            agent_spec = {"name": name, "budget_ms": budget_ms}
        held = _held_seats(mode, sides, human, side, match.ruleset.info.title)
        tokens = {s: secrets.token_urlsafe(18) for s in held}
        invites = {s: secrets.token_urlsafe(18) for s in human if s not in held}
        seats = [
            Seat(s, "human", token_hash(tokens[s]))
            if s in held
            else Seat(s, "human", None, None, token_hash(invites[s]))
            for s in human
        ]
        seats += [Seat(s, "computer", None, agent_spec) for s in computer_sides]
        header = record.to_json()["header"]
        now = time.time()
        stored = StoredGame(
            id=secrets.token_urlsafe(8),
            game=match.ruleset.info.id,
            mode=mode,
            header=header,
            initial_dice=initial_dice,
            version=len(steps),
            over=match.over,
            result=match.result.to_json() if match.result else None,
            created=now,
            updated=now,
            turn=str(match.ruleset.turn_and_phase(match.state)[0]),
            seats=seats,
            steps=steps,
            origin=origin,
        )
        self.store.create(stored)
        live = self._cache(stored)
        return Created(live, tokens, invites)

    def claim(self, game_id: str, invite: str) -> tuple[LiveGame, str, str]:
        """Turn a one-time invite into its seat's token: (game, side, token). 403 bad_invite, 410 invite_used.

        The invite is spent by the claim (stored only hashed, matched once, in one UPDATE): whoever
        created the game and sent it on cannot use it again after the opponent has.
        """
        live = self.get(game_id)
        token = secrets.token_urlsafe(18)
        try:
            side = self.store.claim_seat(game_id, invite, token)
        except KeyError:
            raise ApiError(
                403, "bad_invite", f"this invite opens no seat in game {game_id}; ask for the link again"
            ) from None
        except InviteUsedError as exc:
            raise ApiError(
                410,
                "invite_used",
                f"the invite to the {exc.args[0]} seat of game {game_id} was used already: an invite "
                "opens its seat once. Whoever claimed it holds the seat.",
            ) from None
        seat = live.seat(side)
        if seat is not None:
            seat.token_hash = token_hash(token)
        self.push(live, [{"type": "seat", "text": f"The {side} seat is taken.", "rule": ""}])
        return live, side, token

    # -- finding games and seats ----------------------------------------------------------------
    def get(self, game_id: str, fresh: bool = False, resume: bool = True) -> LiveGame:
        """The live game, loaded from storage when not cached (or when `fresh` and another process wrote).

        `resume=False`: read back without starting the computer's turn (a notice that another server
        process changed the game: that process plays the computer).
        """
        live = self.live.get(game_id)
        replaced = None
        if live is not None:
            if fresh and self.store.version(game_id) != live.version:
                replaced = live
                self._evict(game_id, force=True)
            else:
                self.live.move_to_end(game_id)
                if fresh and resume and live.computer_failed:
                    self._schedule_computer(
                        live
                    )  # the page reloaded after the computer's thinking failed: it tries again
                return live
        stored = self.store.load(game_id)
        if stored is None:
            raise not_found(game_id)
        live = self._cache(stored)
        if replaced is not None and game_id in self.subscribers:
            # another process changed the game and its notice has not come yet (it will find the game
            # at that version already and do nothing): the sockets held here hear of it now
            self.push(live, _events_since(replaced, live))
        if resume:
            self._schedule_computer(
                live
            )  # a game read back (after a restart, or from another process) goes on if the computer is to move
            self._schedule_automatic(live)
        return live

    def seat(self, game_id: str, token: str | None, fresh: bool = False) -> tuple[LiveGame, str]:
        """(game, side) for a seat token; 401 without a token, 403 with one that opens no seat of this game."""
        if not token:
            raise no_token()
        live = self.get(game_id, fresh=fresh)
        wanted = token_hash(token)
        for seat in live.stored.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return live, seat.side
        if self.store.shared and self._refresh_seats(live):  # a seat claimed through another server process since
            return self.seat(game_id, token)
        raise bad_token(game_id)

    def _cache(self, stored: StoredGame) -> LiveGame:
        try:
            match, reasons = _rebuild(stored)
        except WarroomError as exc:
            raise ApiError(500, "bad_record", f"game {stored.id} cannot be rebuilt from its record: {exc}") from None
        live = LiveGame(stored=stored, match=match, version=stored.version, steps=list(stored.steps), reasons=reasons)
        self.live[stored.id] = live
        self.live.move_to_end(stored.id)
        while len(self.live) > MAX_CACHED:
            victim = next((gid for gid in self.live if gid not in self.subscribers and gid != stored.id), None)
            if victim is None:
                break
            self._evict(victim, force=True)
        return live

    def _evict(self, game_id: str, force: bool = False) -> None:
        live = self.live.get(game_id)
        if live is not None and (force or game_id not in self.subscribers):
            del self.live[game_id]

    def resume_computers(self) -> int:
        """At startup: every unfinished game against the computer whose computer seat is to move goes on.

        A server stopped while the computer was thinking would otherwise leave the game waiting for
        ever ("The computer is thinking…"). Needs the running event loop; answers how many resumed.
        """
        resumed = 0
        for game_id in self.store.unfinished_computer_games():
            try:
                live = self.get(game_id)
            except ApiError as exc:
                log.error("game %s cannot be resumed: %s", game_id, exc.message)
                continue
            if live.computer_task is not None and not live.computer_task.done():
                resumed += 1
        return resumed

    # -- what a seat sees -----------------------------------------------------------------------
    def may_roll(self, live: LiveGame, side: str) -> bool:
        """With manual dice (table assistant) any human seat at the table types in the die; never online.

        Players on different browsers cannot watch each other's dice: an online game's dice come from
        the server only, whatever its record says (`prepare_upload` never lets one in with manual dice).
        """
        seat = live.seat(side)
        return live.mode != "online" and live.match.dice.manual and seat is not None and seat.kind == "human"

    def view(self, live: LiveGame, side: str) -> dict[str, Any]:
        """The seat's observation: `match.view(side)`, never the omniscient view."""
        m = live.match
        view = m.view(side)
        if live.mode not in SECRET_SEED_MODES:
            # the players chose or may know the key here: with it a digest of the decisions would tell a hidden
            # one (each legal action tried until one gives it); only a key no seat holds makes it safe to show
            view.pop("moves", None)
        if m.to_act == DICE_SIDE and self.may_roll(live, side):
            view["legal"] = m.legal_actions()  # the die faces: nothing hidden
        if m.to_act in (side, DICE_SIDE):
            count = self._undo_count(live, side)
            view["can_undo"] = count is not None and count <= m.undoable  # the computer's reveals included
        else:
            view["can_undo"] = False
        return view

    def payload(self, live: LiveGame, side: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        view = self.view(live, side)
        m = live.match
        actions = describe_actions(m, view["legal"])
        header = live.stored.header
        return {
            "ok": True,
            "id": live.id,
            "game": live.stored.game,
            "title": m.ruleset.info.title,
            "scenario": header.get("scenario"),
            "options": describe_options(
                live.stored.game, header.get("options")
            ),  # the rules options switched on, in words
            "mode": live.mode,
            "dice": "manual" if m.dice.manual else "auto",
            "side": side,
            "sides": list(m.ruleset.info.sides),
            "seats": [
                {"side": s.side, "kind": s.kind, "claimed": s.claimed, **({"agent": s.agent} if s.agent else {})}
                for s in live.stored.seats
            ],
            "origin": live.stored.origin or {"kind": "new"},  # what this game continues: every seat is told
            "move": live.version,
            "view": view,
            # each legal action's label and parts (unit, from, to, ...), so the board never parses an id: once, in
            # the order of view["legal"] (the ids), packed (packed.py; the page unpacks it in static/js/packed.js)
            "actions": pack_actions(actions),
            "events": visible_events(m.ruleset, events or [], side),
            "thinking": live.computer_task is not None and not live.computer_task.done(),
            "battle_odds": battle_odds(m, side),  # to both seats: the side a battle is fought against sees its odds too
            "fairness": self.fairness(live),
        }

    def fairness(self, live: LiveGame) -> dict[str, Any]:
        """Where the dice come from, the same for every seat: `{scheme, commitment, seed}` (docs/fairness.md).

        An online game: "hmac-sha256", the SHA-256 of its secret key from the first view on (so the
        server cannot swap the key unseen), and `seed`, the key itself, once the game is over (null
        until then: it would tell every die to come), to re-derive every die with (`warroom verify`,
        POST /api/verify). Elsewhere the players chose the seed or may know it, so nothing is
        committed: the generator ("mt19937", or "manual" for dice typed in) and nulls.
        """
        header = live.stored.header
        seed = header.get("seed")
        scheme = "manual" if live.match.dice.manual else str(header.get("rng") or MT19937)
        if live.mode not in SECRET_SEED_MODES or scheme != HMAC_SHA256 or not isinstance(seed, str):
            return {"scheme": scheme, "commitment": None, "seed": None}
        return {"scheme": scheme, "commitment": commitment(seed), "seed": seed if live.match.over else None}

    def log(self, live: LiveGame, side: str) -> list[dict[str, Any]]:
        return visible_events(live.match.ruleset, _with_reasons(live.match.log, live.reasons), side)

    # -- changing the game ----------------------------------------------------------------------
    def play(self, live: LiveGame, side: str, action: str, move: int) -> dict[str, Any]:
        """Check and apply one action for the seat's side, commit it, then push it to the other seats."""
        if move != live.version:
            raise stale(move, live.version)
        m = live.match
        to_act = m.to_act
        if to_act is None:
            raise ApiError(409, "game_over", "the game is over; no more actions")
        if to_act == DICE_SIDE:
            if not self.may_roll(live, side):
                raise ApiError(403, "wrong_side", "a die roll is pending and this seat may not enter it")
            actor = DICE_SIDE
        elif to_act != side:
            seat = live.seat(to_act)
            who = f"{to_act} (the computer)" if seat is not None and seat.kind == "computer" else to_act
            raise ApiError(403, "wrong_side", f"it is {who}'s decision, not {side}'s")
        else:
            actor = side
        events = self._commit(live, actor, action, side)
        answer = self.payload(live, side, events)
        self._after_change(live, events, {side: answer})
        return answer

    def _commit(
        self, live: LiveGame, actor: str, action: str, side: str, reason: str | None = None
    ) -> list[dict[str, Any]]:
        """Play and store one step (with a computer seat's `reason`, stored beside it); its events."""
        m = live.match
        before = len(m.dice_rolled)
        try:
            events = m.play(action, side=actor)
        except WarroomError as exc:
            raise from_engine(exc) from None  # the engine left the state unchanged
        step = Step("roll" if actor == DICE_SIDE else "decision", action, m.dice_rolled[before:], side, reason)
        turn, _phase = m.ruleset.turn_and_phase(m.state)
        result = m.result
        try:
            self.store.append_step(
                live.id, live.version, len(live.steps), step, m.over, result.to_json() if result else None, str(turn)
            )
        except StaleError:
            self._evict(live.id, force=True)
            raise ApiError(
                409, "stale_move", "another server process changed this game first; reload to see the current position"
            ) from None
        except Exception:
            self._evict(live.id, force=True)  # memory ran ahead of storage: reload the stored game next time
            log.exception("storing a step of game %s failed", live.id)
            raise ApiError(503, "storage", "the move could not be saved, so it was not made; try again") from None
        live.steps.append(step)
        live.version += 1
        live.decided_at = time.monotonic()
        return events

    def _undo_count(self, live: LiveGame, side: str) -> int | None:
        """How many steps an undo by `side` takes back: the computer's replies, then the seat's own decision."""
        count = 0
        for step in reversed(live.steps):
            seat = live.seat(step.side or "")
            if step.kind != "decision" or step.dice:
                return None  # undo never crosses a die roll
            count += 1
            if seat is not None and seat.kind == "computer":
                continue
            if step.side == side or live.mode in ("hotseat", "table") or len(live.match.ruleset.info.sides) == 1:
                return count
            return None
        return None

    def undo(self, live: LiveGame, side: str, move: int) -> dict[str, Any]:
        if move != live.version:
            raise stale(move, live.version)
        count = self._undo_count(live, side)
        m = live.match
        waiting = m.to_act
        waiting_seat = live.seat(waiting or "")
        if (
            count is not None
            and live.mode not in ("hotseat", "table")
            and waiting not in (None, side)
            and waiting_seat is not None
            and waiting_seat.kind == "human"
        ):
            # another player is deciding: what he was shown (an attack declared, a window opened) is his now
            raise ApiError(409, "undo_locked", f"{waiting} is deciding now; a move he has seen cannot be taken back")
        if count is None or count > m.undoable:
            last = live.steps[-1] if live.steps else None
            if (
                last is not None
                and last.kind == "decision"
                and not last.dice
                and last.side not in (side, None)
                and m.can_undo
            ):
                raise ApiError(
                    409, "undo_locked", f"the last move was {last.side}'s; you can only take back your own move"
                )
            raise from_engine(UndoLockedError(m.undo_locked))
        twin = m.clone()
        try:
            for _ in range(count):
                twin.undo()
        except WarroomError as exc:
            raise from_engine(exc) from None
        turn, _phase = twin.ruleset.turn_and_phase(twin.state)
        try:
            self.store.remove_last_steps(live.id, live.version, len(live.steps) - count, str(turn))
        except StaleError:
            self._evict(live.id, force=True)
            raise ApiError(409, "stale_move", "another server process changed this game first; reload") from None
        live.match = twin
        live.reasons = {at: said for at, said in live.reasons.items() if at <= len(twin.log)}
        del live.steps[len(live.steps) - count :]
        live.version += 1
        live.decided_at = time.monotonic()
        events = [
            {"type": "undo", "text": f"{side} takes back {'a move' if count == 1 else f'{count} moves'}.", "rule": ""}
        ]
        answer = self.payload(live, side, events)
        self._after_change(live, events, {side: answer})
        return answer

    # -- records and replays --------------------------------------------------------------------
    def record(self, live: LiveGame, side: str) -> dict[str, Any]:
        """What this seat may keep of the game: the whole record once the game is over, or before then where
        nothing is hidden from the seat (without the seed); otherwise the seat's own record (seat_record.py)."""
        record = live.record_json()
        if live.match.over:
            return record
        if not self.sees_everything(live, side):
            return seat_record(
                game_id=live.id,
                title=live.match.ruleset.info.title,
                header=live.stored.header,
                mode=live.mode,
                side=side,
                steps=live.steps,
                view=live.match.view(side),
                log=self.log(live, side),
            )
        header = record["header"]
        header["seed"] = None  # the seed would tell the dice still to come
        if isinstance(header.get("dice"), list):
            header["dice"] = list(record["dice"])  # and so would scripted dice not yet rolled
        return record

    def sees_everything(self, live: LiveGame, side: str) -> bool:
        """Whether the whole record so far tells `side` nothing hidden from it: where one person holds every side
        (a solitaire, hot-seat, the table, or a game against the computer with no computer seat), or where the game
        hides nothing (no hidden field in its spec) and `side` has been shown every event whole."""
        from warroom.games import get_spec

        m = live.match
        if len(m.ruleset.info.sides) == 1:
            return True
        if live.mode != "online" and all(seat.kind == "human" for seat in live.stored.seats):
            return True
        if get_spec(m.ruleset.info.id).hidden:
            return False
        return visible_events(m.ruleset, m.log, side) == m.log

    def replay(self, live: LiveGame, side: str) -> list[dict[str, Any]]:
        """Frames of a finished game as this seat saw it, one per step, for step back / forward."""
        if not live.match.over:
            raise ApiError(409, "not_over", "a replay is available once the game is over")
        header = live.stored.header
        manual = header.get("dice") == "manual"
        record = live.record_json()
        m = warroom.new_game(
            live.stored.game,
            header.get("scenario"),
            seed=header.get("seed"),
            dice="manual" if manual else record["dice"],
            options=header.get("options") or {},
            position=header.get("position"),
            rng=header.get("rng"),
        )
        rs = m.ruleset
        frames = [self._frame(m, side, visible_events(rs, m.log, side), None)]
        for step in live.steps:
            label = None
            if step.side == side and step.kind == "decision":
                label = rs.describe_action(m.state, step.action)
            events = m.play(step.action, side=DICE_SIDE if step.kind == "roll" else None)
            frames.append(self._frame(m, side, visible_events(rs, events, side), label))
        return frames

    @staticmethod
    def _frame(m: Match, side: str, events: list[dict[str, Any]], label: str | None) -> dict[str, Any]:
        view = m.view(side)
        view["legal"] = []
        return {"view": view, "events": events, "label": label}

    # -- odds and hints -------------------------------------------------------------------------
    def odds(self, live: LiveGame, side: str) -> dict[str, Any]:
        from .odds import legal_odds

        legal = self.view(live, side)["legal"]
        return {
            "ok": True,
            "move": live.version,
            "odds": legal_odds(live.match, legal),
            "battles": battle_odds(live.match, side),
        }

    async def hint(self, live: LiveGame, side: str, agent: str | None, budget_ms: int) -> dict[str, Any]:
        m = live.match
        if m.to_act != side:
            raise ApiError(409, "not_your_turn", "a hint is for a decision of yours; it is not your turn")
        name = (
            _default_agent(live.stored.game) if agent is None else agent
        )  # "" names no player: refused, not defaulted
        budget_ms = max(50, min(int(budget_ms), 10000))
        agents.make_agent(
            name, live.stored.game, budget_ms, 0
        )  # an unknown agent is refused now, not after a wait for a worker
        version = live.version
        # the adviser may look ahead, but never at the game's own dice: the thinker gives its copy dice of its own
        thought = await self.thinker.think(
            m, name, budget_ms, secrets.randbelow(2**31), secrets.randbelow(2**31), top=HINT_TOP
        )
        action, why = thought.action, thought.why
        if live.version != version:
            raise stale(version, live.version)
        analysis = thought.analysis or {"measure": "", "searched": False, "top": []}
        top = [{**alt, "label": m.ruleset.describe_action(m.state, alt["action"])} for alt in analysis["top"]]
        return {
            "ok": True,
            "move": version,
            "action": action,
            "label": m.ruleset.describe_action(m.state, action),
            "why": why,
            "agent": name,
            "measure": analysis["measure"],
            "searched": analysis["searched"],
            "top": top,
        }

    async def review(self, live: LiveGame, side: str) -> dict[str, Any]:
        """The post-game analysis (warroom.ai.review) of a finished game, computed once off the event loop and
        kept. Refused (409 not_over) before the end: it reads every side's moves and every die, what a seat
        may see only once the game is over (when the whole record is every seat's to download). Each point and
        marked move also names its `frame`: the replay's frame (GET /replay) that shows the position after it."""
        if not live.match.over:
            raise ApiError(
                409, "not_over", "the review is available once the game is over (it reads every side's moves and dice)"
            )
        task = self.reviews.get(live.id)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self.reviews[live.id] = asyncio.ensure_future(
                asyncio.to_thread(_review, live.record_json(), live.steps)
            )
            while len(self.reviews) > MAX_REVIEWS:
                self.reviews.popitem(last=False)
        self.reviews.move_to_end(live.id)
        report = await asyncio.shield(task)  # a client that leaves does not cancel the computation others share
        return {"ok": True, **report}

    # -- pushes and the computer's turns --------------------------------------------------------
    def _after_change(
        self, live: LiveGame, events: list[dict[str, Any]], known: dict[str, dict[str, Any]] | None = None
    ) -> None:
        self.push(live, events, known)
        self._schedule_computer(live)
        self._schedule_automatic(live)

    def push(
        self, live: LiveGame, events: list[dict[str, Any]], known: dict[str, dict[str, Any]] | None = None
    ) -> None:
        """Queue the new view for every open socket of the game, each with only its own side's view."""
        by_side: dict[str, dict[str, Any]] = {}
        for sub in list(self.subscribers.get(live.id, ())):
            payload = by_side.get(sub.side)
            if payload is None:
                base = (known or {}).get(sub.side) or self.payload(live, sub.side, events)
                payload = by_side[sub.side] = {"type": "update", **base}
            try:
                sub.queue.put_nowait(payload)
            except asyncio.QueueFull:
                self.unsubscribe(sub)  # a reader that fell this far behind reloads when it reconnects
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.get_nowait()
                    sub.queue.put_nowait(None)

    def subscribe(self, live: LiveGame, side: str) -> Subscriber:
        sub = Subscriber(live.id, side)
        self.subscribers.setdefault(live.id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.subscribers.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.game_id]

    # -- other server processes on the same database --------------------------------------------
    def listen(self) -> None:
        """Hear the changes every server process commits (PostgreSQL), so this one's sockets get them too.

        Call on the running event loop (the app's startup); a no-op on SQLite, which one process owns.
        The listener's thread hands each notice to `changed_elsewhere` on this loop.
        """
        loop = asyncio.get_running_loop()

        def heard(game_id: str | None, version: int | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
                loop.call_soon_threadsafe(self.changed_elsewhere, game_id, version)

        self.listener = self.store.listen(heard)

    def stop_listening(self) -> None:
        if self.listener is not None:
            self.listener.stop()
            self.listener = None

    def changed_elsewhere(self, game_id: str | None, version: int | None) -> None:
        """A game reached `version` (committed by this or another process); push it to the sockets held here.

        A notice of this process's own change finds the game at that version already and does
        nothing. A game nobody here watches is only dropped from memory, so the next request reads
        it afresh instead of answering 409 stale_move. A watched game held here catches up by
        playing just the new steps (`_catch_up`); otherwise (an undo, or not in memory) it is read
        back whole. `(None, None)`: notices were lost, check every watched game.
        """
        if game_id is None:
            for watched in list(self.subscribers):
                self.changed_elsewhere(watched, None)
            return
        live = self.live.get(game_id)
        if live is not None and version is not None and live.version >= version:
            return
        if game_id not in self.subscribers:
            if live is not None:
                self._evict(game_id, force=True)
            return
        if live is not None:
            claimed = self._refresh_seats(live) if version is None else []
            if claimed:
                self.push(
                    live, [{"type": "seat", "text": f"The {side} seat is taken.", "rule": ""} for side in claimed]
                )
            events = self._catch_up(live)
            if events is not None:
                if events:
                    self.push(live, events)
                return
            live = self.live.get(game_id)  # None when catching up failed half-way and dropped the copy
        try:
            fresh = self.get(
                game_id, fresh=True, resume=False
            )  # replacing a copy held here, it tells the sockets itself
        except ApiError as exc:
            log.error("game %s changed in another server process but cannot be read back: %s", game_id, exc.message)
            return
        if live is None:
            self.push(fresh, [])

    def _refresh_seats(self, live: LiveGame) -> list[str]:
        """Read the game's seats again; the sides claimed since this process read them (by invite, through another
        process)."""
        before = {s.side: s.token_hash for s in live.stored.seats}
        live.stored.seats = self.store.seats(live.id)
        return [s.side for s in live.stored.seats if s.token_hash is not None and before.get(s.side) != s.token_hash]

    def _catch_up(self, live: LiveGame) -> list[dict[str, Any]] | None:
        """Play on the game in memory the steps another process appended; their events, or None to read it back whole.

        Replaying a long game costs tens of milliseconds on the event loop, playing one step a fraction
        of one. Only appends qualify (the version grew by exactly the number of new steps), and every
        step must roll the dice it rolled there; anything else drops the copy, to be read back.
        """
        news = self.store.steps_after(live.id, len(live.steps))
        if news is None:
            return None
        version, steps = news
        if version == live.version:
            return []
        if version - live.version != len(steps):
            return None
        m = live.match
        events: list[dict[str, Any]] = []
        try:
            for step in steps:
                rolled = len(m.dice_rolled)
                position = _before(m) if step.reason else None
                events += m.play(step.action, side=DICE_SIDE if step.kind == "roll" else None)
                if m.dice_rolled[rolled:] != step.dice:
                    raise ValueError(
                        f"step {step.action!r} rolled {m.dice_rolled[rolled:]} here, {step.dice} where it was played"
                    )
                if step.reason and step.side:  # the other process's computer said why: so do the sockets here
                    readers = reason_readers(m.ruleset, position, m.state, step.action, step.side, step.reason)
                    events += _keep_reason(live.reasons, len(m.log), m, step.side, step.reason, readers)
        except (WarroomError, ValueError) as exc:
            log.warning("game %s: catching up with another process failed (%s); reading it back whole", live.id, exc)
            self._evict(live.id, force=True)
            return None
        live.steps.extend(steps)
        live.version = version
        live.decided_at = time.monotonic()
        return events

    # -- concealed decisions: every answer shown alike ------------------------------------------
    def reveal_wait(self, live: LiveGame) -> float:
        """Seconds before an answer to the decision pending now may be shown (CONCEALED_REVEAL_S): 0 unless the
        decision is concealed and another player could read the answer's timing (not at one screen)."""
        m = live.match
        if live.mode in ("hotseat", "table") or m.over or concealed_decision(m.ruleset, m.state) is None:
            return 0.0
        return max(0.0, live.decided_at + self.reveal_s - time.monotonic())

    async def hold_answer(self, live: LiveGame) -> bool:
        """Wait, where the pending decision is concealed, until its answer may be shown (a person's quick answer is
        held as long as an automatic one); True when it waited (the caller reads the game again)."""
        wait = self.reveal_wait(live)
        if wait <= 0:
            return False
        await asyncio.sleep(wait)
        return True

    def _schedule_automatic(self, live: LiveGame) -> None:
        """A person's seat faces a concealed decision with one answer (the spec's `concealed_decision`): it is given
        for the person, at the moment any answer to it would be shown."""
        m = live.match
        seat = live.seat(m.to_act or "")
        if m.over or seat is None or seat.kind != "human":
            return
        concealed = concealed_decision(m.ruleset, m.state)
        if concealed is None or concealed.automatic is None:
            return
        if live.automatic_task is not None and not live.automatic_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.automatic_task = loop.create_task(self._answer_automatically(live, live.version, concealed.automatic))

    async def _answer_automatically(self, live: LiveGame, version: int, action: str) -> None:
        await self.hold_answer(live)
        side = live.match.to_act
        if self.live.get(live.id) is not live or live.version != version or side is None:
            return  # the position changed meanwhile (an undo, another process): whatever is pending now decides
        try:
            events = self._commit(live, side, action, side)
        except ApiError as exc:
            if exc.code != "stale_move":
                log.error("the automatic answer for %s in game %s failed: %s", side, live.id, exc)
            return
        self._after_change(live, events)

    def _schedule_computer(self, live: LiveGame) -> None:
        m = live.match
        if m.over or live.mode != "computer":
            return
        seat = live.seat(m.to_act or "")
        if seat is None or seat.kind != "computer":
            return
        if live.computer_task is not None and not live.computer_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.computer_task = loop.create_task(self._computer_turns(live))

    async def _computer_turns(self, live: LiveGame) -> None:
        """Play the computer seats' decisions until a human must decide (or the game ends)."""
        while True:
            m = live.match
            side = m.to_act
            seat = live.seat(side or "")
            if m.over or seat is None or seat.kind != "computer" or self.live.get(live.id) is not live:
                return
            spec = seat.agent or {}
            version = live.version
            live.computer_failed = False
            try:
                game_seed = live.stored.header.get("seed") or 0
                # in a worker process (warroom.web.thinking), on a copy whose dice are its own, never the game's
                thought = await self.thinker.think(
                    m,
                    spec.get("name") or _default_agent(live.stored.game),
                    int(spec.get("budget_ms", 1000)),
                    agent_seed(game_seed, f"{side} {version}"),
                    agent_seed(game_seed, f"{side} {version} dice"),
                )
                action = thought.action
                await self.hold_answer(live)  # a concealed decision: answered after the same moment as any other
                if live.version != version or live.match is not m:
                    continue  # an undo changed the position while the computer thought: think again
                assert side is not None
                before = _before(m) if thought.why else None
                events = self._commit(live, side, action, side, thought.why or None)
                if thought.why:  # the computer's one-line reason, in the log beside what its move did
                    readers = reason_readers(m.ruleset, before, m.state, action, side, thought.why)
                    events = [*events, *_keep_reason(live.reasons, len(m.log), m, side, thought.why, readers)]
            except ApiError as exc:
                if (
                    exc.code == "stale_move"
                ):  # another server process played this turn first (its notice brings the move)
                    return
                log.error("computer player for %s in game %s failed: %s", side, live.id, exc)
                live.computer_failed = True  # a fresh read of the game (a reload) lets it try again
                again = " Reload the page to let it try again." if isinstance(exc, ThinkError) else ""
                self.push(
                    live,
                    [{"type": "error", "text": f"The computer player for {side} failed: {exc}{again}", "rule": ""}],
                )
                return
            except WarroomError as exc:
                log.error("computer player for %s in game %s failed: %s", side, live.id, exc)
                live.computer_failed = True
                self.push(
                    live, [{"type": "error", "text": f"The computer player for {side} failed: {exc}", "rule": ""}]
                )
                return
            self.push(live, events)
            self._schedule_automatic(live)  # the computer's move may put a person to a concealed decision


def _reason_events(m: Match, side: str, why: str, readers: list[str]) -> list[dict[str, Any]]:
    """The computer's reason for its move, as log events. `readers`: the other sides that may read it at once
    (`reason_readers`: all of them in a game that hides nothing). In a game that hides something a reason may
    tell what the computer's side holds ("the Jack loses every showdown"): the other seats are told only that
    it is kept secret."""
    text = f"Why ({side}, computer): {why}"
    others = [s for s in m.ruleset.info.sides if s != side]
    kept = [s for s in others if s not in readers]
    if not kept:
        return [{"type": "reason", "side": side, "text": text, "rule": ""}]
    return [
        {"type": "reason", "side": side, "text": text, "rule": "", "visible_to": [side, *readers]},
        {
            "type": "reason",
            "side": side,
            "text": f"Why ({side}, computer): kept secret, it may tell what {side} holds",
            "rule": "",
            "visible_to": kept,
        },
    ]


def _keep_reason(
    reasons: dict[int, list[dict[str, Any]]], at: int, m: Match, side: str, why: str, readers: list[str]
) -> list[dict[str, Any]]:
    """The reason's log events (`_reason_events`), kept in `reasons` (LiveGame.reasons) at log length `at`, after
    the move they explain, so a page reloaded shows them too."""
    said = _reason_events(m, side, why, readers)
    reasons.setdefault(at, []).extend(said)
    return said


def _before(m: Match) -> Any:
    """A copy of the position before a move, where the game's reasons need it (`reason_readers`), else None."""
    from warroom.games import get_spec

    spec = get_spec(m.ruleset.info.id)
    return m.ruleset.clone(m.state) if spec.hidden and spec.public_reason is not None else None


def _review(record_json: dict[str, Any], steps: list[Step]) -> dict[str, Any]:
    """The review of a stored game, each point and mistake with its replay frame (frame n: after the n-th stored
    step; decision k's frame is its own step's, a manual roll being a step of its own)."""
    from warroom.ai.review import review

    report = review(record_json)
    frames = [0] + [n for n, step in enumerate(steps, 1) if step.kind == "decision"]
    for item in [*report["points"], *report["mistakes"]]:
        item["frame"] = frames[item["step"]] if item["step"] < len(frames) else len(steps)
    return report


def _with_reasons(log: list[dict[str, Any]], reasons: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The match's log with the computer's reasons each after the move it explains."""
    if not reasons:
        return log
    out: list[dict[str, Any]] = []
    start = 0
    for at in sorted(at for at in reasons if at <= len(log)):
        out += log[start:at]
        out += reasons[at]
        start = at
    return out + log[start:]


def _events_since(old: LiveGame | None, new: LiveGame) -> list[dict[str, Any]]:
    """The events of the steps another process added (from the rebuilt log); an undo there is said as one."""
    if old is None:
        return []
    if len(new.steps) >= len(old.steps) and new.steps[: len(old.steps)] == old.steps:
        seen = len(old.match.log)
        # the new log with the reasons given after what the old one held (each lands after `seen` when merged)
        return _with_reasons(new.match.log, {at: said for at, said in new.reasons.items() if at > seen})[seen:]
    return [{"type": "undo", "text": "A move was taken back.", "rule": ""}]


def _rebuild(stored: StoredGame) -> tuple[Match, dict[int, list[dict[str, Any]]]]:
    """The Match of a stored game, with undo open exactly as far as it was before the server stopped, and the
    computer's stored reasons placed in its log as `LiveGame.reasons` places them.

    `warroom.load` locks undo at the end of what it replays, so the record is loaded up to its last
    die, and the decisions after it (which rolled nothing) are played again on top. A reason follows
    everything its decision caused, its dice included: it is placed where the next decision begins.
    """
    last_roll = max((n for n, step in enumerate(stored.steps) if step.dice or step.kind == "roll"), default=-1)
    head = StoredGame(
        stored.id,
        stored.game,
        stored.mode,
        stored.header,
        stored.initial_dice,
        0,
        False,
        None,
        stored.created,
        stored.updated,
        steps=stored.steps[: last_roll + 1],
    )
    starts: list[int] = []
    match = warroom.load(head.record_json(), starts=starts)
    ends = [*starts[1:], len(match.log)][: len(starts)]  # per decision of the head: where what it caused ends
    reasons: dict[int, list[dict[str, Any]]] = {}
    readers = _head_readers(head)
    decisions = [(n, step) for n, step in enumerate(head.steps) if step.kind == "decision"]
    for (n, step), end in zip(decisions, ends, strict=True):
        if step.reason and step.side:
            _keep_reason(reasons, end, match, step.side, step.reason, readers.get(n, []))
    for step in stored.steps[last_roll + 1 :]:
        before = _before(match) if step.reason else None
        match.play(step.action)
        if step.reason and step.side:
            said = reason_readers(match.ruleset, before, match.state, step.action, step.side, step.reason)
            _keep_reason(reasons, len(match.log), match, step.side, step.reason, said)
    return match, reasons


def _head_readers(head: StoredGame) -> dict[int, list[str]]:
    """Who may read each reason of the steps `warroom.load` replays whole (`reason_readers`, by step index): in a
    game whose reasons depend on the position, the steps are played again one by one on a copy to get the
    positions. Should that copy not follow the record (it always should), the reasons are kept secret."""
    from warroom.games import get_ruleset, get_spec

    spec = get_spec(head.game)
    if not spec.hidden or spec.public_reason is None:  # the readers do not depend on the position
        rules = get_ruleset(head.game)
        return {
            n: reason_readers(rules, None, None, step.action, step.side, step.reason)
            for n, step in enumerate(head.steps)
            if step.reason and step.side
        }
    if not any(step.reason for step in head.steps):
        return {}
    start = warroom.load(replace(head, steps=[]).record_json())
    out: dict[int, list[str]] = {}
    try:
        for n, step in enumerate(head.steps):
            before = _before(start) if step.reason else None
            rolled = len(start.dice_rolled)
            start.play(step.action, side=DICE_SIDE if step.kind == "roll" else None)
            if start.dice_rolled[rolled:] != step.dice:
                return {}
            if step.reason and step.side:
                out[n] = reason_readers(start.ruleset, before, start.state, step.action, step.side, step.reason)
    except WarroomError:
        return {}
    return out


def secret_seed() -> str:
    """The secret key of an online game (256 bits, 64 hex digits), drawn here and sent to no seat before
    the game is over; every seat sees its commitment. A test may fix the draw by replacing this."""
    return new_secret()


def _reseed_online(record: Record) -> None:
    """An uploaded record going on online: a new secret key (whoever uploads it knows the old seed), and
    the dice rolled so far kept as the header's given dice, so the key's stream starts after them and
    `verify` can tell the dice the key vouches for from those played before the game came here."""
    record.seed, record.rng = secret_seed(), HMAC_SHA256
    if record.dice_mode != "manual":
        record.dice_mode = list(record.dice)


def _seed_drawer(record_json: Any) -> Any:
    """Draws a seed for an uploaded record that has none, of the kind its header's generator takes."""
    header = record_json.get("header") if isinstance(record_json, dict) else None
    if isinstance(header, dict) and header.get("rng") == HMAC_SHA256:
        return new_secret
    return lambda: secrets.randbelow(2**31)


def _held_seats(mode: str, sides: list[str], human: list[str], side: str | None, title: str) -> list[str]:
    """The human seats whose tokens go to the creator: all of them on one screen, only the chosen one online."""
    if mode != "online" or len(human) < 2:
        return list(human)
    chosen = side or human[0]
    if chosen not in human:
        raise ApiError(400, "bad_side", f"{title} has no side {chosen!r}; sides: {', '.join(sides)}")
    return [chosen]


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ApiError(400, "bad_mode", f"mode must be one of {', '.join(MODES)}, not {mode!r}")


def _default_agent(game: str) -> str:
    names = agents.agent_names(game)
    for preferred in ("heuristic", "mcts"):
        if preferred in names:
            return preferred
    return names[0] if names else "heuristic"
