"""A cap on request bodies, checked before anything parses them.

Without it one upload of 120 MB, no token needed, froze every game for seconds and took over a GB
of memory while the JSON parser ran. `BodyLimit` is a pure ASGI middleware: a declared
Content-Length over the cap is refused at once, without reading the body; a chunked body (no
length declared) is counted as it streams in and refused as soon as it passes the cap. Either way
the answer is 413 with the API's error body, and the route never runs.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 4 * 1024 * 1024
"""The largest request body accepted: far above any game record (a long game of the two-player campaigns is
tens of kB)."""


class BodyTooLarge(HTTPException):
    """Raised from `receive` once a streamed body passes the cap.

    An HTTPException, so the framework passes it on as it is (FastAPI turns any other failure of a body
    read into a 400) and the app's handler answers it with the error body; `BodyLimit` answers it if
    nothing else did.
    """

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, _too_large(None, max_bytes))


class StartWatch:
    """A `send` that notes whether the response has started: a middleware that catches a failure may
    answer it only before then (afterwards the client has a status line already, so it re-raises)."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        await self.send(message)


class BodyLimit:
    """Refuse request bodies over `max_bytes` with 413, before the application reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send, declared)
            return
        received = 0
        watch = StartWatch(send)

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        try:
            await self.app(scope, limited, watch)
        except BodyTooLarge:
            if watch.started:
                raise
            await self._refuse(send, None)

    async def _refuse(self, send: Send, declared: int | None) -> None:
        message = _too_large(declared, self.max_bytes)
        body = json.dumps({"ok": False, "error": {"code": "too_large", "message": message}}).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    """The declared body length, if any (the HTTP server refuses a malformed one; the bytes are counted anyway)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


def _too_large(declared: int | None, max_bytes: int) -> str:
    size = f"its body of {declared} bytes" if declared is not None else "its body"
    return f"the request is too large: {size} passes the limit of {max_bytes} bytes ({max_bytes // (1024 * 1024)} MB)"
