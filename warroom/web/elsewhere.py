"""Other server processes on the same database: their committed changes reach this process's sockets."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from warroom.engine.errors import WarroomError
from warroom.engine.observe import reason_readers
from warroom.engine.ruleset import DICE_SIDE

from .errors import ApiError
from .live import LiveGame
from .reasons import before_move, keep_reason
from .storage import ChangeListener

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger("warroom.web")


class OtherProcesses:
    """Listens to the changes every server process commits (PostgreSQL) and brings the games held here up to date."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.listener: ChangeListener | None = None

    def listen(self) -> None:
        """Hear the changes every server process commits (PostgreSQL), so this one's sockets get them too.

        Call on the running event loop (the app's startup); a no-op on SQLite, which one process owns.
        The listener's thread hands each notice to `changed_elsewhere` on this loop.
        """
        loop = asyncio.get_running_loop()

        def heard(game_id: str | None, version: int | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
                loop.call_soon_threadsafe(self.changed_elsewhere, game_id, version)

        self.listener = self.service.store.listen(heard)

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
            for watched in list(self.service.subscribers):
                self.changed_elsewhere(watched, None)
            return
        live = self.service.live.get(game_id)
        if live is not None and version is not None and live.version >= version:
            return
        if game_id not in self.service.subscribers:
            if live is not None:
                self.service._evict(game_id, force=True)
            return
        if live is not None:
            claimed = self.refresh_seats(live) if version is None else []
            if claimed:
                self.service.push(
                    live, [{"type": "seat", "text": f"The {side} seat is taken.", "rule": ""} for side in claimed]
                )
            events = self._catch_up(live)
            if events is not None:
                if events:
                    self.service.push(live, events)
                return
            live = self.service.live.get(game_id)  # None when catching up failed half-way and dropped the copy
        try:
            fresh = self.service.get(
                game_id, fresh=True, resume=False
            )  # replacing a copy held here, it tells the sockets itself
        except ApiError as exc:
            log.error("game %s changed in another server process but cannot be read back: %s", game_id, exc.message)
            return
        if live is None:
            self.service.push(fresh, [])

    def refresh_seats(self, live: LiveGame) -> list[str]:
        """Read the game's seats again; the sides claimed since this process read them (by invite, through another
        process)."""
        before = {s.side: s.token_hash for s in live.stored.seats}
        live.stored.seats = self.service.store.seats(live.id)
        return [s.side for s in live.stored.seats if s.token_hash is not None and before.get(s.side) != s.token_hash]

    def _catch_up(self, live: LiveGame) -> list[dict[str, Any]] | None:
        """Play on the game in memory the steps another process appended; their events, or None to read it back whole.

        Replaying a long game costs tens of milliseconds on the event loop, playing one step a fraction
        of one. Only appends qualify (the version grew by exactly the number of new steps), and every
        step must roll the dice it rolled there; anything else drops the copy, to be read back.
        """
        news = self.service.store.steps_after(live.id, len(live.steps))
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
                position = before_move(m) if step.reason else None
                events += m.play(step.action, side=DICE_SIDE if step.kind == "roll" else None)
                if m.dice_rolled[rolled:] != step.dice:
                    raise ValueError(
                        f"step {step.action!r} rolled {m.dice_rolled[rolled:]} here, {step.dice} where it was played"
                    )
                if step.reason and step.side:  # the other process's computer said why: so do the sockets here
                    readers = reason_readers(m.ruleset, position, m.state, step.action, step.side, step.reason)
                    events += keep_reason(live.reasons, len(m.log), m, step.side, step.reason, readers)
        except (WarroomError, ValueError) as exc:
            log.warning("game %s: catching up with another process failed (%s); reading it back whole", live.id, exc)
            self.service._evict(live.id, force=True)
            return None
        live.steps.extend(steps)
        live.version = version
        live.decided_at = time.monotonic()
        return events
