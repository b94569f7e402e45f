"""The web API's refusals: an HTTP status, a stable code and a message a person can act on.

Every error the server answers, from a route, from request validation, from the router (an unknown
path or method), from storage or from a bug, has one body: `{"ok": false, "error": {"code",
"message"}}` (`ErrorBody`). A message never echoes large input back: request values are quoted
shortened (`warroom.engine.errors.quoted`) and a message is capped at `MAX_MESSAGE` characters.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from warroom.engine.errors import (
    GameOverError,
    StaleBuildError,
    UndoLockedError,
    WarroomError,
    WrongSideError,
    shorten,
)

from .limits import StartWatch

log = logging.getLogger("warroom.web")

MAX_MESSAGE = 600
"""The longest error message answered: a few sentences, whatever the request held."""

VALIDATION_STATUS = 400
"""A request that does not fit the API's schema (a missing field, a wrong type, a value out of range)
is answered 400 `bad_request`, like every other malformed request, never FastAPI's 422 with the
rejected input echoed back."""


class ApiError(Exception):
    """A refused request; nothing changed. Answered as {"ok": false, "error": {"code", "message"}}."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, shorten(message, MAX_MESSAGE)

    def body(self) -> dict[str, object]:
        return {"ok": False, "error": {"code": self.code, "message": self.message}}


class ErrorDetail(BaseModel):
    code: str = Field(description="a stable code to branch on, e.g. bad_token, stale_move, illegal_action, storage")
    message: str = Field(description="what went wrong and what to do, for a person", max_length=MAX_MESSAGE)


class ErrorBody(BaseModel):
    """The body of every refusal: nothing changed on the server."""

    ok: bool = Field(False, description="always false")
    error: ErrorDetail


# What each refusal means, as the OpenAPI description lists it on every route that can answer it.
_MEANINGS = {
    400: "Bad request: the body or a parameter does not fit the schema (`bad_request`), or the rules refuse it "
    "(e.g. `illegal_action`, `bad_option`, `bad_record`, `unknown_game`)",
    401: "No seat token: send the token from the game link (`?token=` or the `X-Warroom-Token` header)",
    403: "The token opens no seat of this game (`bad_token`), or it is not this seat's decision (`wrong_side`)",
    404: "No such game on this server (`no_game`)",
    409: (
        "The game has moved on (`stale_move`) or its state refuses this now "
        "(e.g. `undo_locked`, `game_over`, `not_over`)"
    ),
    413: "The request body is larger than the server accepts (`too_large`)",
    503: "Storage failed (`storage`): nothing was saved; try again",
}


def responses_for(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route: each refusal it can answer, with the ErrorBody schema.

    400 (a body or parameter that does not fit), 413 (a body too large) and 503 (storage) can be answered by
    every route that takes a body or touches storage; name them with the route's own refusals.
    """
    return {
        status: {"model": ErrorBody, "description": _MEANINGS.get(status, HTTPStatus(status).phrase)}
        for status in statuses
    }


def from_engine(exc: WarroomError) -> ApiError:
    """Map an engine error to its status: a conflict with the game's state, or a bad request."""
    if isinstance(exc, WrongSideError):
        return ApiError(403, exc.code, str(exc))
    if isinstance(exc, (UndoLockedError, GameOverError)):
        return ApiError(409, exc.code, str(exc))
    if isinstance(exc, StaleBuildError):  # the server's installation, not the request, is at fault
        return ApiError(500, exc.code, str(exc))
    return ApiError(400, exc.code, str(exc))


def no_token() -> ApiError:
    return ApiError(401, "no_token", "this request needs the secret seat token from your game link (?token=...)")


def bad_token(game_id: str) -> ApiError:
    return ApiError(
        403,
        "bad_token",
        f"this token does not open a seat in game {shorten(game_id, 40)}; use the link you were given for your seat",
    )


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "no_game", f"there is no game {shorten(game_id, 40)!r} on this server")


def stale(seen: int, now: int) -> ApiError:
    return ApiError(
        409,
        "stale_move",
        f"the game has moved on: you sent move {seen} but it is at move {now}; reload to see the current position",
    )


def _answer(err: ApiError, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(err.body(), status_code=err.status, headers=headers)


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def install(app: FastAPI) -> None:
    """Answer every refusal with the ErrorBody, whichever layer refused (add the InternalErrors middleware too)."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _answer(exc)

    @app.exception_handler(WarroomError)
    async def _engine_error(_request: Request, exc: WarroomError) -> JSONResponse:
        return _answer(from_engine(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _answer(ApiError(VALIDATION_STATUS, "bad_request", validation_message(exc.errors())))

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "bad_request" if exc.status_code < 500 else "internal")
        message = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        return _answer(ApiError(exc.status_code, code, message), headers=getattr(exc, "headers", None))

    @app.exception_handler(SQLAlchemyError)
    async def _storage(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.error(
            "storage failed on %s %s: %s",
            request.method,
            request.url.path,
            shorten(str(exc).splitlines()[0] if str(exc) else repr(exc), 300),
        )
        return _answer(storage_error())


def storage_error() -> ApiError:
    return ApiError(
        503, "storage", "the server could not read or write its database, so nothing was changed; try again later"
    )


def validation_message(errors: Any) -> str:
    """Which fields do not fit and why, naming each field but never quoting the value sent."""
    parts = []
    for error in list(errors)[:4]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body",)) or "body"
        parts.append(f"{shorten(where, 60)}: {shorten(str(error.get('msg', 'invalid')), 120)}")
    more = len(list(errors)) - len(parts)
    return "the request does not fit the API: " + "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


class InternalErrors:
    """Any other exception in a route: logged with its traceback here, answered as JSON 500 `internal`.

    A pure ASGI middleware, so the answer is ours (never a plain-text 500) and the exception stops
    here; once a response has started it can only be re-raised.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        watch = StartWatch(send)
        try:
            await self.app(scope, receive, watch)
        except Exception:
            if watch.started:
                raise
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            err = ApiError(500, "internal", "the server failed on this request: a bug, logged on the server")
            await _answer(err)(scope, receive, send)
