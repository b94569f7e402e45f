"""The HTTP + WebSocket server (FastAPI): REST routes over GameService, pushes, the static client.

`warroom serve` calls `serve(host, port, db)`. OpenAPI is at /docs and /openapi.json.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema
from starlette.middleware.gzip import GZipMiddleware

from warroom.engine.record_schema import record_json_schema

from .contract import (
    BUDGET_MS,
    GAME_ID_PATTERN,
    HINT_BUDGET_MS,
    MAX_ACTION,
    MAX_SEED,
    MAX_TOKEN,
    TOKEN_DESCRIPTION,
    check_new_game,
    constrain,
)
from .errors import ApiError, InternalErrors, responses_for
from .errors import install as install_errors
from .headers import SecurityHeaders, mount_docs
from .layouts import board_layout
from .limits import BodyLimit
from .seat_record import is_seat_record
from .service import Created, GameService
from .storage import StorageConfigError, Store
from .thinking import WorkersError, make_thinker, resolve_workers

STATIC = Path(__file__).parent / "static"
GZIP_MINIMUM = 1000
"""Answers smaller than this many bytes go uncompressed (gzip would save next to nothing on them)."""
GZIP_LEVEL = 6
"""zlib's default level: a view of a hex game's Movement Phase shrinks about tenfold, in a few milliseconds."""
log = logging.getLogger("warroom.web")
DEFAULT_DB = "sqlite:///warroom.db"


def _board_folder(game: str) -> Path:
    """The folder a registered game serves its board from; else 404 (unknown game, no board, no such folder)."""
    from starlette.exceptions import HTTPException

    from warroom.engine.errors import UnknownGameError
    from warroom.games import get_spec

    try:
        board = get_spec(game).board
    except UnknownGameError:
        board = None
    folder = board().static if board is not None else None
    if folder is None or not folder.is_dir():
        raise HTTPException(404)
    return folder


Mode = Literal["computer", "hotseat", "online", "table"]
SEAT = (400, 401, 403, 404, 503)
HINT_503 = (
    "Storage failed (`storage`), no computer players are installed (`no_ai`), or the worker process thinking "
    "about the hint died or hung (`thinking_failed`; it was replaced: ask again)"
)
"""The refusals of every route that opens a seat: responses_for(*SEAT, and the route's own)."""

API_DESCRIPTION = (
    "WWII board wargames with every rule enforced. Each seat acts with the secret token from its game link "
    "(`?token=` or the `X-Warroom-Token` header).\n\n"
    'Every refusal answers `{"ok": false, "error": {"code", "message"}}` and changes nothing. '
    "A body or parameter that does not fit this description is refused with **400** `bad_request` (never 422), "
    "naming the field but not echoing the value; a body over 4 MB with **413** `too_large`; a storage failure "
    "with **503** `storage`; a bug with **500** `internal`."
)


class FastJSON(JSONResponse):
    """Our payloads are plain JSON already: skip FastAPI's field-by-field encoder on the hot path."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


GameId = Annotated[str, PathParam(pattern=GAME_ID_PATTERN, description="the game's id, from its link")]
TokenQuery = Annotated[str | None, Query(max_length=MAX_TOKEN, description=TOKEN_DESCRIPTION)]
TokenHeader = Annotated[
    str | None, Header(max_length=MAX_TOKEN, description="the seat's secret token (instead of ?token=)")
]
Name = Annotated[str, Field(max_length=40)]
STRICT = ConfigDict(strict=True)
"""Request bodies take JSON's own types: `false` or `"5"` is no number, `0` no string (as the description says)."""
_INTEGRAL = BeforeValidator(lambda v: int(v) if isinstance(v, float) and v.is_integer() else v)
"""An integer as JSON Schema counts one: 3 or 3.0, never true or "3" (the bounds are checked on the int)."""
Seed = Annotated[int, Field(ge=0, le=MAX_SEED), _INTEGRAL]
Budget = Annotated[int, Field(ge=BUDGET_MS[0], le=BUDGET_MS[1]), _INTEGRAL]
MoveNo = Annotated[int, Field(ge=0), _INTEGRAL]


class NewGame(BaseModel):
    """A new game; the OpenAPI description lists, per game and scenario, exactly what it accepts (contract.py)."""

    model_config = STRICT

    game: Name = Field(description="a registered game id, as GET /api/catalog lists them")
    scenario: Name | None = None
    mode: Mode = Field(
        "computer",
        description=(
            "computer: you against the computer; hotseat: one screen; online: a link per seat; table: manual dice"
        ),
    )
    seed: Seed | None = Field(None, description="the dice seed, to study a game (never for an online game)")
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="rules options as the catalog lists them for the game and scenario "
        "({option key: value}); anything else is refused (400 bad_option)",
    )
    human: list[Name] | None = Field(
        None, max_length=8, description="sides played by people in 'computer' mode (default: the first side)"
    )
    agent: Name | None = Field(None, description="computer player for the other sides")
    budget_ms: Budget = Field(1000, description="the computer's thinking time per decision, in ms")
    side: Name | None = Field(
        None,
        description="online: the side the creator plays (default: the first); the other seats get one-time invites",
    )


RecordBody = Annotated[dict[str, Any], WithJsonSchema(record_json_schema())]
"""A game record in a request: described as it is (warroom.engine.record_schema, the one model `Record.from_json`
checks it by), read by `Record.from_json`, whose refusal (400 bad_record) names the field; what ties fields together
and whether the decisions replay are said in words and checked there."""


class Upload(BaseModel):
    model_config = STRICT
    record: RecordBody = Field(
        description="a game record as downloaded from /record (an object: format, version, header, actions, dice)"
    )
    mode: Mode = "hotseat"
    human: list[Name] | None = Field(None, max_length=8)
    agent: Name | None = None
    budget_ms: Budget = 1000
    side: Name | None = Field(
        None,
        description="online: the side the uploader plays (default: the first); the other seats get one-time invites",
    )


class Claim(BaseModel):
    model_config = STRICT
    invite: str = Field(
        min_length=1, max_length=200, description="the one-time invite from the seat's link (?invite=...)"
    )


class Act(BaseModel):
    model_config = STRICT
    action: str = Field(max_length=MAX_ACTION, description="an action id from the view's `legal` list")
    move: MoveNo = Field(description="the move number of the view the choice was made on; a mismatch is refused (409)")


class Undo(BaseModel):
    model_config = STRICT
    move: MoveNo = Field(description="the move number of the view; a mismatch is refused (409)")


class SeenDigestBody(BaseModel):
    """A digest of the decisions a seat was shown (`view.moves`), given back to check a record with."""

    model_config = STRICT
    digest: str = Field(
        pattern="^[0-9a-fA-F]{16,64}$", description="the digest: all 64 hex digits, or at least the first 16"
    )
    decisions: int | None = Field(None, ge=0, description="how many decisions were made when it was shown")
    seen_by: str | None = Field(None, max_length=40, description="who was shown it (a side), named in the answer")


class Verify(BaseModel):
    model_config = STRICT
    record: RecordBody = Field(
        description="a finished online game's record as downloaded from /record (its header holds the revealed key)"
    )
    commitment: str | None = Field(
        None,
        pattern="^[0-9a-fA-F]{64}$",
        description="the commitment the game showed from its start (SHA-256 of the key, 64 hex digits), to check too",
    )
    digests: list[SeenDigestBody] = Field(
        [],
        max_length=64,
        description="digests of the decisions a seat was shown during the game (`view.moves`), to check the record's "
        "decisions against: the first decision that does not match is named",
    )


class HintMove(BaseModel):
    """One of the hint's best moves with its numbers (warroom.ai.analysis): documents the answer, validates nothing."""

    action: str = Field(description="an action id from the view's `legal` list")
    label: str = Field(description="the action in words")
    value: float | None = Field(
        description="the estimate for the seat's side, 0..1: its win chance, or (solitaire) its expected result "
        "over the best the game allows (see `measure`); null when the game has no evaluation"
    )
    low: float | None = Field(
        description="the low end of the estimate's 95% interval (equal to `value` where no search ran)"
    )
    high: float | None = Field(
        description="the high end of the estimate's 95% interval (equal to `value` where no search ran)"
    )
    visits: int = Field(description="the search's simulations under this move; 0: no search ran, no confidence")
    chosen: bool = Field(description="whether this is the move the computer would play (`action`)")
    text: str = Field(
        description="the estimate and its interval in the game's words, "
        'e.g. "about 40% to win (95% interval 38% to 42%; 300 simulations)"'
    )


class Hint(BaseModel):
    """The answer of GET /hint: the computer's move and reason, and the best moves it weighed with their numbers."""

    ok: bool
    move: int = Field(description="the move number of the position the hint is for")
    action: str = Field(description="the move the computer would play")
    label: str
    why: str = Field(description="the computer's one-line reason")
    agent: str = Field(description="the computer player asked (mcts gives confidence intervals; the others no search)")
    measure: str = Field(description="what the numbers are, in words (a win chance, or an expected result)")
    searched: bool = Field(description="whether a search ran (and the intervals mean something)")
    top: list[HintMove] = Field(
        description="up to three moves by their estimate, highest first; `chosen` marks the computer's own (always "
        "listed; it need not have the highest estimate)"
    )


class ReviewPoint(BaseModel):
    """The position after one decision (step 0: the start) and each side's value there: documents, validates nothing."""

    step: int = Field(description="decisions played (0: the start), as `warroom replay` counts them")
    frame: int = Field(description="the replay's frame (GET /replay) that shows this position")
    side: str | None = Field(description="the side that decided (null at the start)")
    action: str | None
    label: str
    values: dict[str, float] = Field(description="each side's estimate, 0..1 (see `measure`)")


class ReviewComputer(BaseModel):
    action: str = Field(description="what the computer would have played there")
    label: str
    why: str = Field(description="its one-line reason")
    expected: float = Field(description="its move's value for the side, scored as `expected` is")
    agent: str


class ReviewMistake(BaseModel):
    """A decision that cost its side the most, and what the computer would have played."""

    step: int
    frame: int
    side: str
    action: str
    label: str
    before: float = Field(description="the side's value before the decision")
    expected: float = Field(description="the decision's value, its dice averaged over their outcomes")
    best: float = Field(description="the best move's value, scored the same way")
    loss: float = Field(description="best minus expected")
    text: str = Field(description="the numbers in the game's words")
    computer: ReviewComputer


class Review(BaseModel):
    """The answer of GET /review: each side's estimated chances over a finished game and its costliest moves."""

    ok: bool
    game: str
    scenario: str | None
    sides: list[str]
    names: dict[str, str] = Field(description="the scenario's word for each side")
    measure: str = Field(description="what the values are, in words (a win chance, or an expected result)")
    scoring: str = Field(description="how positions were scored: the game's evaluation, or a short search")
    steps: int
    over: bool
    result: dict[str, Any] | None
    points: list[ReviewPoint]
    decisions: list[dict[str, Any]] = Field(
        description="every decision: step, side, action, label, before, expected, best, loss"
    )
    mistakes: list[ReviewMistake] = Field(
        description="the costliest decisions of each side (up to three), in game order"
    )


class Lobby(BaseModel):
    model_config = STRICT
    tokens: list[Annotated[str, Field(max_length=MAX_TOKEN)]] = Field(default_factory=list, max_length=500)


def create_app(db: str = DEFAULT_DB, workers: int | None = None, warm: bool = False) -> FastAPI:
    """The application over one database; the schema is migrated to the newest version first.

    Computer seats and hints think in `workers` worker processes, owned by the app's lifespan and
    stopped with it (default: WARROOM_WORKERS, else the cores less one; 0: threads of the server).
    They start on first use, or at startup with `warm` (`serve` does: the first computer move then
    waits for no imports; tests need not pay for workers they never use).
    """
    workers = resolve_workers(workers)  # a bad count or WARROOM_WORKERS is refused before the database is opened
    store = Store(db)
    service = GameService(store)

    app = _application(service, store, workers, warm)
    _page_routes(app)
    _catalog_routes(app, service)
    _game_routes(app, service, store)
    _play_routes(app, service)
    _advice_routes(app, service)
    _record_routes(app, service)
    _socket_route(app, service)
    return app


def _application(service: GameService, store: Store, workers: int, warm: bool) -> FastAPI:
    """The app with no routes yet: its lifespan (the thinker's workers, listening to other processes, the computer
    seats resumed), its error answers, its OpenAPI description and its middleware."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        thinker = service.thinker = make_thinker(workers)  # owned by this lifespan: its workers stop at its end
        warming = asyncio.create_task(thinker.warm()) if warm else None
        service.listen()  # PostgreSQL: moves made through other server processes reach this one's sockets
        resumed = service.resume_computers()  # games whose computer seat was to move when the server stopped
        if resumed:
            log.info("resumed the computer seats of %d games", resumed)
        try:
            yield
        finally:
            service.stop_listening()
            if warming is not None:
                warming.cancel()
            thinker.close()

    app = FastAPI(
        lifespan=lifespan,
        default_response_class=FastJSON,
        title="warroom",
        description=API_DESCRIPTION,
        version=_version(),
        docs_url=None,  # served by mount_docs from the installed Swagger UI files, never a CDN
        redoc_url=None,
        responses=responses_for(500),  # a bug, on any route: JSON 500 internal
    )
    app.state.service = service
    app.state.store = store

    install_errors(app)  # every refusal answers the ErrorBody

    def openapi() -> dict[str, Any]:
        """The generated description, with what the registry of games allows (contract.py)."""
        if app.openapi_schema is None:
            app.openapi_schema = constrain(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    # the last added runs first: gzip for a client that takes it, security headers on every answer, a JSON 500 for a
    # bug, the body cap nearest the routes
    app.add_middleware(BodyLimit)
    app.add_middleware(InternalErrors)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    mount_docs(app)

    return app


def _page_routes(app: FastAPI) -> None:
    """The browser's pages and static files: the client, and each game's own board folder."""

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.api_route("/play/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def play_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    board_files: dict[str, StaticFiles] = {}

    @app.api_route("/games/{game}/static/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
    async def game_static(game: str, path: str, request: Request) -> Response:
        """A file of a game's own board folder (its spec's `board.static`): the board module and its styles,
        served as /static is (StaticFiles: the same headers, ETag and Last-Modified). An unknown game, a game
        without a board, a missing file or a path out of the folder: 404."""
        files = board_files.get(game)
        if files is None:
            files = board_files[game] = StaticFiles(directory=_board_folder(game))
        return await files.get_response(path, request.scope)


def _catalog_routes(app: FastAPI, service: GameService) -> None:
    """The server's health and what it plays: the catalog of games and their boards."""

    @app.get("/api/health", tags=["server"], summary="The server is up")
    async def health() -> Response:
        return FastJSON({"ok": True, "games_cached": len(service.live), "thinking": service.thinker.stats()})

    @app.get(
        "/api/catalog",
        tags=["games"],
        summary="Every game this server plays: scenarios, sides, computer players, rules options",
    )
    async def catalog() -> Response:
        return FastJSON({"ok": True, "games": service.catalog()})

    @app.get(
        "/api/boards/{game}",
        tags=["games"],
        summary="A game's board layout (locations, routes, tracks) for drawing",
        responses=responses_for(400),
    )
    async def board(game: Annotated[str, PathParam(max_length=40)]) -> Response:
        return FastJSON({"ok": True, **board_layout(game)})


def _game_routes(app: FastAPI, service: GameService, store: Store) -> None:
    """Starting games (new or uploaded), claiming an online seat, and the lobby of a browser's games."""

    @app.post(
        "/api/games",
        tags=["games"],
        status_code=201,
        summary="Start a game; answers each human seat's secret token",
        responses=responses_for(400, 413, 503),
    )
    async def new_game(body: NewGame) -> Response:
        check_new_game(body.game, body.human, body.side, body.agent)
        created = service.create(
            body.game,
            body.scenario,
            body.mode,
            body.seed,
            body.options,
            body.human,
            body.agent,
            body.budget_ms,
            body.side,
        )
        return FastJSON(_created(service, created), status_code=201)

    @app.post(
        "/api/games/upload",
        tags=["games"],
        status_code=201,
        summary="Continue a downloaded record as a new game",
        responses=responses_for(400, 413, 503),
    )
    async def upload(body: Upload) -> Response:
        header = body.record.get("header")
        check_new_game(str(header.get("game")) if isinstance(header, dict) else "", body.human, body.side, body.agent)
        # replaying a long record takes a while: off the event loop, so every other game goes on meanwhile
        prepared = await asyncio.to_thread(service.prepare_upload, body.record, body.mode)
        created = service.store_upload(prepared, body.human, body.agent, body.budget_ms, body.side)
        return FastJSON(_created(service, created), status_code=201)

    @app.post(
        "/api/games/{game_id}/claim",
        tags=["games"],
        summary="Take an online seat with its one-time invite; answers the seat's secret token (once)",
        responses=responses_for(400, 403, 404, 410, 413, 503),
    )
    async def claim(game_id: GameId, body: Claim) -> Response:
        live, side, token = service.claim(game_id, body.invite)
        return FastJSON(
            {
                "ok": True,
                "id": live.id,
                "side": side,
                "token": token,
                "url": f"/play/{live.id}",
                "origin": live.stored.origin or {"kind": "new"},
            }
        )

    @app.post(
        "/api/lobby",
        tags=["games"],
        summary="The games these seat tokens open (the browser keeps its tokens)",
        responses=responses_for(400, 413, 503),
    )
    async def lobby(body: Lobby) -> Response:
        rows = store.summaries(body.tokens)
        titles = {g["id"]: g["title"] for g in service.catalog()}
        for row in rows:
            row["title"] = titles.get(row["game"], row["game"])
        return FastJSON({"ok": True, "games": rows})


def _play_routes(app: FastAPI, service: GameService) -> None:
    """What a seat does in a game: its view, its actions and undo, its log, odds and hints."""

    @app.get(
        "/api/games/{game_id}", tags=["play"], summary="The seat's view of the game", responses=responses_for(*SEAT)
    )
    async def get_game(game_id: GameId, token: TokenQuery = None, x_warroom_token: TokenHeader = None) -> Response:
        live, side = service.seat(game_id, token or x_warroom_token, fresh=True)
        return FastJSON(service.payload(live, side))

    @app.post(
        "/api/games/{game_id}/actions",
        tags=["play"],
        summary="Play one legal action (committed before the answer)",
        responses=responses_for(*SEAT, 409, 413),
    )
    async def act(
        game_id: GameId, body: Act, token: TokenQuery = None, x_warroom_token: TokenHeader = None
    ) -> Response:
        started = time.perf_counter()
        live, side = service.seat(game_id, token or x_warroom_token)
        if await service.hold_answer(live):  # a concealed decision's answer is shown no sooner than an automatic one
            live, side = service.seat(game_id, token or x_warroom_token)
        answer = service.play(live, side, body.action, body.move)
        took = (time.perf_counter() - started) * 1000
        return FastJSON(answer, headers={"Server-Timing": f"play;dur={took:.2f}"})

    @app.post(
        "/api/games/{game_id}/undo",
        tags=["play"],
        summary="Take back your last decision, never past a die roll",
        responses=responses_for(*SEAT, 409, 413),
    )
    async def undo(
        game_id: GameId, body: Undo, token: TokenQuery = None, x_warroom_token: TokenHeader = None
    ) -> Response:
        live, side = service.seat(game_id, token or x_warroom_token)
        return FastJSON(service.undo(live, side, body.move))

    @app.get(
        "/api/games/{game_id}/log",
        tags=["play"],
        summary="The game log this seat may see, in plain language with rules",
        responses=responses_for(*SEAT),
    )
    async def game_log(game_id: GameId, token: TokenQuery = None, x_warroom_token: TokenHeader = None) -> Response:
        live, side = service.seat(game_id, token or x_warroom_token)
        return FastJSON({"ok": True, "move": live.version, "events": service.log(live, side)})


def _advice_routes(app: FastAPI, service: GameService) -> None:
    """What a seat may ask about its decision: the odds of its actions, and the computer's hint."""

    @app.get(
        "/api/games/{game_id}/odds",
        tags=["play"],
        summary="Exact odds of the seat's legal actions that roll a die",
        responses=responses_for(*SEAT),
    )
    async def odds(game_id: GameId, token: TokenQuery = None, x_warroom_token: TokenHeader = None) -> Response:
        live, side = service.seat(game_id, token or x_warroom_token)
        return FastJSON(service.odds(live, side))

    @app.get(
        "/api/games/{game_id}/hint",
        tags=["play"],
        summary="The computer's suggestion for the seat's decision",
        responses={
            200: {
                "model": Hint,
                "description": "The computer's move, its reason, and its best three moves "
                "with their estimated value and 95% interval",
            },
            **responses_for(*SEAT, 409),
            503: {**responses_for(503)[503], "description": HINT_503},
        },
    )
    async def hint(
        game_id: GameId,
        token: TokenQuery = None,
        agent: Annotated[str | None, Query(max_length=40)] = None,
        budget_ms: Annotated[int, Query(ge=HINT_BUDGET_MS[0], le=HINT_BUDGET_MS[1])] = 500,
        x_warroom_token: TokenHeader = None,
    ) -> Response:
        live, side = service.seat(game_id, token or x_warroom_token)
        return FastJSON(await service.hint(live, side, agent, budget_ms))


def _record_routes(app: FastAPI, service: GameService) -> None:
    """What is kept of a game: its record, replay and review, and the check of an online game's dice."""

    @app.get(
        "/api/games/{game_id}/record",
        tags=["records"],
        summary="Download what this seat may keep of the game (JSON)",
        responses=responses_for(*SEAT),
    )
    async def record(game_id: GameId, token: TokenQuery = None, x_warroom_token: TokenHeader = None) -> Response:
        """The whole record (format `warroom-record`) once the game is over, or before then where nothing is hidden
        from the seat (without the seed); otherwise the seat's own record (format `warroom-seat-record`): its
        decisions, the events it was shown and its view, which cannot be replayed as the whole game."""
        live, side = service.seat(game_id, token or x_warroom_token)
        record = service.record(live, side)
        name = f"warroom-{live.stored.game}-{game_id}"
        if is_seat_record(record):  # the seat's own view of an unfinished game: say so in the file's name too
            name += "-" + re.sub(r"[^A-Za-z0-9]+", "-", side).strip("-") + "-view"
        return Response(
            json.dumps(record, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
        )

    @app.get(
        "/api/games/{game_id}/replay",
        tags=["records"],
        summary="A finished game, step by step, as this seat saw it",
        responses=responses_for(*SEAT, 409),
    )
    async def replay(game_id: GameId, token: TokenQuery = None, x_warroom_token: TokenHeader = None) -> Response:
        live, side = service.seat(game_id, token or x_warroom_token)
        return FastJSON({"ok": True, "frames": service.replay(live, side)})

    @app.get(
        "/api/games/{game_id}/review",
        tags=["records"],
        summary="A finished game's analysis: each side's estimated chances after every decision, the costliest moves",
        responses={
            200: {
                "model": Review,
                "description": "Each side's values over the game, and each side's costliest moves with "
                "what the computer would have played (warroom.ai.review)",
            },
            **responses_for(*SEAT, 409),
        },
    )
    async def review(game_id: GameId, token: TokenQuery = None, x_warroom_token: TokenHeader = None) -> Response:
        """409 `not_over` before the game ends: the analysis reads every side's moves and dice. Computed once per game,
        off the event loop, and kept."""
        live, side = service.seat(game_id, token or x_warroom_token)
        return FastJSON(await service.review(live, side))

    @app.post(
        "/api/verify",
        tags=["records"],
        summary="Check an online game's dice and decisions against its revealed key, commitment and digests",
        responses=responses_for(400, 413),
    )
    async def verify(body: Verify) -> Response:
        """Every die of the record re-derived from its revealed key (docs/fairness.md): `verified`, the first die that
        does not match (`mismatch`), the commitment check, and the decisions checked against their chain and the
        digests a seat saw (`moves`, naming the first decision that does not match). 400 `not_verifiable` for a record
        with no revealed key."""
        from warroom.engine.fairness import verify_record

        seen = [d.model_dump() for d in body.digests]
        report = await asyncio.to_thread(
            verify_record, body.record, body.commitment, seen
        )  # a long record replays off the event loop
        return FastJSON({"ok": True, **report.to_json()})


def _socket_route(app: FastAPI, service: GameService) -> None:
    """The WebSocket that pushes a seat's view after every change."""

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str, token: str | None = Query(None)) -> None:
        """Pushes this seat's view after every change to the game (the first message is the current view)."""
        await websocket.accept()
        try:
            live, side = service.seat(game_id, token, fresh=True)
        except ApiError as exc:
            await websocket.send_json({"type": "error", **exc.body()})
            await websocket.close(code=4000 + exc.status)
            return
        sub = service.subscribe(live, side)
        writer = asyncio.create_task(_drain(websocket, sub.queue))
        try:
            await websocket.send_json({"type": "update", **service.payload(live, side)})
            while True:
                message = await websocket.receive_text()
                if message == "ping":
                    await websocket.send_json({"type": "pong"})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            service.unsubscribe(sub)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


async def _drain(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
    """Send queued payloads in order; a None means the reader fell behind: close so it reconnects."""
    while True:
        payload = await queue.get()
        if payload is None:
            await websocket.close(code=4008)
            return
        await websocket.send_json(payload)


def _created(service: GameService, created: Created) -> dict[str, Any]:
    """The answer to a new game: the creator's seats (token and link), and a one-time invite link for each other
    seat."""
    live, tokens = created.live, created.tokens
    seats: list[dict[str, Any]] = [
        {"side": side, "token": token, "url": f"/play/{live.id}?token={token}"} for side, token in tokens.items()
    ]
    seats += [
        {"side": side, "invite": invite, "url": f"/play/{live.id}?invite={invite}"}
        for side, invite in created.invites.items()
    ]
    first = next(iter(tokens), None)
    out: dict[str, Any] = {"ok": True, "id": live.id, "seats": seats}
    if first is not None:
        out["game"] = service.payload(live, first)
    service._schedule_computer(live)
    return out


def _version() -> str:
    from warroom import __version__

    return __version__


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = DEFAULT_DB, workers: int | None = None) -> None:
    """Serve until interrupted; prints the address (with the real port when `port` is 0).

    StorageConfigError (one line) when the database cannot be used, before anything is served;
    WorkersError for a bad `workers` (the computer's worker processes, see `create_app`).
    """
    import uvicorn

    app = create_app(db, workers, warm=True)
    sock = _bind(host, port)
    real_port = sock.getsockname()[1]
    from sqlalchemy.engine import make_url

    where = make_url(app.state.store.url).render_as_string(
        hide_password=True
    )  # a PostgreSQL password stays out of logs
    print(f"warroom is serving on {address(host, real_port)}  (games kept in {where}; Ctrl+C stops)", flush=True)
    # pushes are views of up to ~120 KB of JSON that deflate to a sixth: per-message deflate where the browser offers it
    config = uvicorn.Config(
        app, log_level="warning", ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=True
    )
    uvicorn.Server(config).run(sockets=[sock])


STARTUP_CEILING_S = 120
"""How long a server may take to start before it counts as hung: it is polled, so a fast start returns at once and
a slow, loaded machine (CI beside other jobs) is not taken for a broken one."""


class BackgroundServer:
    """The server on a free loopback port in a thread of this process (tests and benchmarks)."""

    def __init__(self, db: str, host: str = "127.0.0.1", workers: int | None = None) -> None:
        import uvicorn

        self.app = create_app(db, workers)
        self.sock = _bind(host, 0)
        self.port = self.sock.getsockname()[1]
        self.url = address(host, self.port).rstrip("/")
        # lifespan on: the app's startup resumes computer seats and (PostgreSQL) listens to other processes' changes
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, log_level="warning", lifespan="on", ws_per_message_deflate=True)
        )
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + STARTUP_CEILING_S
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the warroom test server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.app.state.store.close()


@contextlib.contextmanager
def running(db: str) -> Iterator[BackgroundServer]:
    with BackgroundServer(db) as server:
        yield server


def main(argv: list[str] | None = None) -> None:
    """`python -m warroom.web [--host H] [--port P] [--db URL] [--workers N]` (the same as `warroom serve`)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m warroom.web", description="Serve warroom's browser front end.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes the computer players think in (default: WARROOM_WORKERS, else the cores less one; 0: threads)",
    )
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    try:
        serve(args.host, args.port, args.db, args.workers)
    except (StorageConfigError, WorkersError) as exc:  # a database that cannot be used: one line, no traceback
        parser.exit(1, f"{parser.prog}: error: {exc}\n")
