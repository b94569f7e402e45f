"""A game held in memory by the service, the sockets that watch it, and a new game's tokens and invites."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from warroom.engine.match import Match
from warroom.engine.record import CHAINED_VERSION

from .storage import Seat, Step, StoredGame

MODES = ("computer", "hotseat", "online", "table")
SECRET_SEED_MODES = ("online",)
"""Players on different browsers: the server draws the seed in secret and no seat sees it before the
game is over, since the seed and the moves so far tell every card and die to come. The dice come from
the keyed generator (a 256-bit key, HMAC-SHA256: docs/fairness.md); every seat is shown the key's
commitment from the start and the key at the end, to check every die with. Against the computer,
hot-seat and at the table the players may choose one (to study a game), and know it makes the draws
predictable."""
QUEUE_LIMIT = 64


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
