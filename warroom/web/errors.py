"""The web API's refusals: an HTTP status, a stable code and a message a person can act on."""

from __future__ import annotations

from warroom.engine.errors import GameOverError, UndoLockedError, WarroomError, WrongSideError


class ApiError(Exception):
    """A refused request; nothing changed. Answered as {"ok": false, "error": {"code", "message"}}."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def body(self) -> dict[str, object]:
        return {"ok": False, "error": {"code": self.code, "message": self.message}}


def from_engine(exc: WarroomError) -> ApiError:
    """Map an engine error to its status: a conflict with the game's state, or a bad request."""
    if isinstance(exc, WrongSideError):
        return ApiError(403, exc.code, str(exc))
    if isinstance(exc, (UndoLockedError, GameOverError)):
        return ApiError(409, exc.code, str(exc))
    return ApiError(400, exc.code, str(exc))


def no_token() -> ApiError:
    return ApiError(401, "no_token", "this request needs the secret seat token from your game link (?token=...)")


def bad_token(game_id: str) -> ApiError:
    return ApiError(403, "bad_token", f"this token does not open a seat in game {game_id}; use the link you were given for your seat")


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "no_game", f"there is no game {game_id!r} on this server")


def stale(seen: int, now: int) -> ApiError:
    return ApiError(409, "stale_move", f"the game has moved on: you sent move {seen} but it is at move {now}; reload to see the current position")
