"""The authoritative game service: seats and tokens, checked moves, storage, views per seat, pushes.

It holds live matches in memory (rebuilt from the stored record with `warroom.load`), checks every
action with the engine on behalf of the seat's own side, commits each accepted step before it is
acknowledged, and only ever hands a seat `match.view(side)` and the events that side may see.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from typing import Any

import warroom
from warroom.engine.dice import HMAC_SHA256
from warroom.engine.errors import WarroomError
from warroom.engine.fairness import new_secret
from warroom.engine.match import Match
from warroom.engine.record import Record

from . import agents
from .advice import HINT_TOP, Advice
from .computer import ComputerTurns
from .elsewhere import OtherProcesses
from .errors import ApiError, bad_token, from_engine, no_token, not_found
from .live import MODES, QUEUE_LIMIT, SECRET_SEED_MODES, Created, LiveGame, Subscriber
from .moves import Moves
from .options import check_options, game_options
from .pushes import Pushes
from .reasons import events_since, rebuild
from .records import MAX_REVIEWS, Records
from .seats import make_seats
from .storage import InviteUsedError, Step, Store, StoredGame, token_hash
from .thinking import Thinker, ThreadThinker
from .uploads import PreparedUpload, prepare_upload
from .views import fairness, may_roll, payload, seat_log, seat_view

__all__ = [
    "HINT_TOP",
    "MAX_REVIEWS",
    "MODES",
    "QUEUE_LIMIT",
    "SECRET_SEED_MODES",
    "Created",
    "GameService",
    "LiveGame",
    "Subscriber",
    "secret_seed",
]

log = logging.getLogger("warroom.web")

MAX_CACHED = 2000
CONCEALED_REVEAL_S = 0.8
"""How soon after a concealed decision comes up (the spec's `concealed_decision`: one the rules put to a seat
whatever it holds) its answer is shown, at the earliest, where another player could read its timing (online, and
the computer's answers against a person): the automatic answer of a person with nothing to choose is given then,
and a quicker answer, a person's or the computer's, is held until then, so that when the answer came tells no
seat whether there was a choice. Short, so that a person waits no more than a moment."""


class GameService:
    """Everything the HTTP and WebSocket routes do, without HTTP: easy to test and to reuse.

    A façade: it holds the games in memory (loaded, cached and evicted here) and hands each job to a
    collaborator: `moves` (play, undo, storage of steps), `pushes` (open sockets), `computer` (the
    computer's turns and concealed decisions), `elsewhere` (other server processes), `records`
    (downloads, replays, reviews) and `advice` (odds, hints); what a seat sees is `warroom.web.views`.
    """

    def __init__(self, store: Store, thinker: Thinker | None = None) -> None:
        self.store = store
        self.thinker: Thinker = thinker if thinker is not None else ThreadThinker()
        """Where computer seats and hints think: worker processes from `create_app` (see warroom.web.thinking);
        threads of this process by default, which owns no processes to stop."""
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.reveal_s = CONCEALED_REVEAL_S
        """CONCEALED_REVEAL_S for this service (a test may shorten it)."""
        self.moves = Moves(self)
        self.pushes = Pushes(self)
        self.subscribers = self.pushes.subscribers  # game id -> open sockets, whether or not the game is in memory
        self.computer = ComputerTurns(self)
        self.elsewhere = OtherProcesses(self)
        self.records = Records(self)
        self.reviews = self.records.reviews
        self.advice = Advice(self)

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
        seats, tokens, invites = make_seats(match, mode, human, agent, budget_ms, side)
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
            self.push(live, events_since(replaced, live))
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
            match, reasons = rebuild(stored)
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

    # -- what a seat sees (warroom.web.views) ----------------------------------------------------
    def may_roll(self, live: LiveGame, side: str) -> bool:
        return may_roll(live, side)

    def view(self, live: LiveGame, side: str) -> dict[str, Any]:
        return seat_view(live, side)

    def payload(self, live: LiveGame, side: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return payload(live, side, events)

    def fairness(self, live: LiveGame) -> dict[str, Any]:
        return fairness(live)

    def log(self, live: LiveGame, side: str) -> list[dict[str, Any]]:
        return seat_log(live, side)

    # -- changing the game (Moves) ----------------------------------------------------------------
    def play(self, live: LiveGame, side: str, action: str, move: int) -> dict[str, Any]:
        return self.moves.play(live, side, action, move)

    def undo(self, live: LiveGame, side: str, move: int) -> dict[str, Any]:
        return self.moves.undo(live, side, move)

    # -- records, replays, odds and hints (Records, Advice) ---------------------------------------
    def record(self, live: LiveGame, side: str) -> dict[str, Any]:
        return self.records.record(live, side)

    def sees_everything(self, live: LiveGame, side: str) -> bool:
        return self.records.sees_everything(live, side)

    def replay(self, live: LiveGame, side: str) -> list[dict[str, Any]]:
        return self.records.replay(live, side)

    async def review(self, live: LiveGame, side: str) -> dict[str, Any]:
        return await self.records.review(live, side)

    def odds(self, live: LiveGame, side: str) -> dict[str, Any]:
        return self.advice.odds(live, side)

    async def hint(self, live: LiveGame, side: str, agent: str | None, budget_ms: int) -> dict[str, Any]:
        return await self.advice.hint(live, side, agent, budget_ms)

    # -- pushes (Pushes) and other server processes (OtherProcesses) ------------------------------
    def _after_change(
        self, live: LiveGame, events: list[dict[str, Any]], known: dict[str, dict[str, Any]] | None = None
    ) -> None:
        self.push(live, events, known)
        self._schedule_computer(live)
        self._schedule_automatic(live)

    def push(
        self, live: LiveGame, events: list[dict[str, Any]], known: dict[str, dict[str, Any]] | None = None
    ) -> None:
        self.pushes.push(live, events, known)

    def subscribe(self, live: LiveGame, side: str) -> Subscriber:
        return self.pushes.subscribe(live, side)

    def unsubscribe(self, sub: Subscriber) -> None:
        self.pushes.unsubscribe(sub)

    def listen(self) -> None:
        self.elsewhere.listen()

    def stop_listening(self) -> None:
        self.elsewhere.stop_listening()

    def changed_elsewhere(self, game_id: str | None, version: int | None) -> None:
        self.elsewhere.changed_elsewhere(game_id, version)

    def _refresh_seats(self, live: LiveGame) -> list[str]:
        return self.elsewhere.refresh_seats(live)

    # -- the computer's turns and concealed decisions (ComputerTurns) ---------------------------
    def reveal_wait(self, live: LiveGame) -> float:
        return self.computer.reveal_wait(live)

    async def hold_answer(self, live: LiveGame) -> bool:
        return await self.computer.hold_answer(live)

    def _schedule_automatic(self, live: LiveGame) -> None:
        self.computer.schedule_automatic(live)

    def _schedule_computer(self, live: LiveGame) -> None:
        self.computer.schedule_computer(live)


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


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise ApiError(400, "bad_mode", f"mode must be one of {', '.join(MODES)}, not {mode!r}")
