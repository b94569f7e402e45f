"""Pushes: every open WebSocket of a game gets its own side's view after each change, in order."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from .live import LiveGame, Subscriber

if TYPE_CHECKING:
    from .service import GameService


class Pushes:
    """The open sockets by game id (whether or not the game is in memory) and the queueing of their views."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.subscribers: dict[str, set[Subscriber]] = {}  # game id -> open sockets

    def push(
        self, live: LiveGame, events: list[dict[str, Any]], known: dict[str, dict[str, Any]] | None = None
    ) -> None:
        """Queue the new view for every open socket of the game, each with only its own side's view."""
        by_side: dict[str, dict[str, Any]] = {}
        for sub in list(self.subscribers.get(live.id, ())):
            payload = by_side.get(sub.side)
            if payload is None:
                base = (known or {}).get(sub.side) or self.service.payload(live, sub.side, events)
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
