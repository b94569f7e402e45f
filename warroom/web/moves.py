"""Changing a game: a seat's checked action or undo, each committed to storage before it is acknowledged."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from warroom.engine.errors import UndoLockedError, WarroomError
from warroom.engine.ruleset import DICE_SIDE

from .errors import ApiError, from_engine, stale
from .live import LiveGame
from .storage import StaleError, Step
from .views import may_roll, undo_count

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger("warroom.web")


class Moves:
    """Plays, undoes and stores the steps of the games of one GameService."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def play(self, live: LiveGame, side: str, action: str, move: int) -> dict[str, Any]:
        """Check and apply one action for the seat's side, commit it, then push it to the other seats."""
        if move != live.version:
            raise stale(move, live.version)
        m = live.match
        to_act = m.to_act
        if to_act is None:
            raise ApiError(409, "game_over", "the game is over; no more actions")
        if to_act == DICE_SIDE:
            if not may_roll(live, side):
                raise ApiError(403, "wrong_side", "a die roll is pending and this seat may not enter it")
            actor = DICE_SIDE
        elif to_act != side:
            seat = live.seat(to_act)
            who = f"{to_act} (the computer)" if seat is not None and seat.kind == "computer" else to_act
            raise ApiError(403, "wrong_side", f"it is {who}'s decision, not {side}'s")
        else:
            actor = side
        events = self.commit(live, actor, action, side)
        answer = self.service.payload(live, side, events)
        self.service._after_change(live, events, {side: answer})
        return answer

    def commit(
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
            self.service.store.append_step(
                live.id, live.version, len(live.steps), step, m.over, result.to_json() if result else None, str(turn)
            )
        except StaleError:
            self.service._evict(live.id, force=True)
            raise ApiError(
                409, "stale_move", "another server process changed this game first; reload to see the current position"
            ) from None
        except Exception:
            self.service._evict(live.id, force=True)  # memory ran ahead of storage: reload the stored game next time
            log.exception("storing a step of game %s failed", live.id)
            raise ApiError(503, "storage", "the move could not be saved, so it was not made; try again") from None
        live.steps.append(step)
        live.version += 1
        live.decided_at = time.monotonic()
        return events

    def undo(self, live: LiveGame, side: str, move: int) -> dict[str, Any]:
        if move != live.version:
            raise stale(move, live.version)
        count = undo_count(live, side)
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
            self.service.store.remove_last_steps(live.id, live.version, len(live.steps) - count, str(turn))
        except StaleError:
            self.service._evict(live.id, force=True)
            raise ApiError(409, "stale_move", "another server process changed this game first; reload") from None
        live.match = twin
        live.reasons = {at: said for at, said in live.reasons.items() if at <= len(twin.log)}
        del live.steps[len(live.steps) - count :]
        live.version += 1
        live.decided_at = time.monotonic()
        events = [
            {"type": "undo", "text": f"{side} takes back {'a move' if count == 1 else f'{count} moves'}.", "rule": ""}
        ]
        answer = self.service.payload(live, side, events)
        self.service._after_change(live, events, {side: answer})
        return answer
