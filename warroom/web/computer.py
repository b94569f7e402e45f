"""The computer's turns, and the moment any answer to a concealed decision may be shown.

A computer seat thinks (in the service's `Thinker`) and plays until a person must decide; a person
with nothing to choose in a concealed decision (the spec's `concealed_decision`) is answered for,
and every answer to a concealed decision, a person's or the computer's, is shown no sooner than
CONCEALED_REVEAL_S after it came up where another player could read its timing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from warroom.ai import agent_seed
from warroom.engine.errors import WarroomError
from warroom.engine.observe import concealed_decision, reason_readers

from . import agents
from .errors import ApiError
from .live import LiveGame
from .reasons import before_move, keep_reason
from .thinking import ThinkError

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger("warroom.web")


class ComputerTurns:
    """Schedules the computer seats' turns and a person's automatic answers for one GameService."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def reveal_wait(self, live: LiveGame) -> float:
        """Seconds before an answer to the decision pending now may be shown (CONCEALED_REVEAL_S): 0 unless the
        decision is concealed and another player could read the answer's timing (not at one screen)."""
        m = live.match
        if live.mode in ("hotseat", "table") or m.over or concealed_decision(m.ruleset, m.state) is None:
            return 0.0
        return max(0.0, live.decided_at + self.service.reveal_s - time.monotonic())

    async def hold_answer(self, live: LiveGame) -> bool:
        """Wait, where the pending decision is concealed, until its answer may be shown (a person's quick answer is
        held as long as an automatic one); True when it waited (the caller reads the game again)."""
        wait = self.reveal_wait(live)
        if wait <= 0:
            return False
        await asyncio.sleep(wait)
        return True

    def schedule_automatic(self, live: LiveGame) -> None:
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
        if self.service.live.get(live.id) is not live or live.version != version or side is None:
            return  # the position changed meanwhile (an undo, another process): whatever is pending now decides
        try:
            events = self.service.moves.commit(live, side, action, side)
        except ApiError as exc:
            if exc.code != "stale_move":
                log.error("the automatic answer for %s in game %s failed: %s", side, live.id, exc)
            return
        self.service._after_change(live, events)

    def schedule_computer(self, live: LiveGame) -> None:
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
            if m.over or seat is None or seat.kind != "computer" or self.service.live.get(live.id) is not live:
                return
            spec = seat.agent or {}
            version = live.version
            live.computer_failed = False
            try:
                game_seed = live.stored.header.get("seed") or 0
                # in a worker process (warroom.web.thinking), on a copy whose dice are its own, never the game's
                thought = await self.service.thinker.think(
                    m,
                    spec.get("name") or default_agent(live.stored.game),
                    int(spec.get("budget_ms", 1000)),
                    agent_seed(game_seed, f"{side} {version}"),
                    agent_seed(game_seed, f"{side} {version} dice"),
                )
                action = thought.action
                await self.hold_answer(live)  # a concealed decision: answered after the same moment as any other
                if live.version != version or live.match is not m:
                    continue  # an undo changed the position while the computer thought: think again
                assert side is not None
                before = before_move(m) if thought.why else None
                events = self.service.moves.commit(live, side, action, side, thought.why or None)
                if thought.why:  # the computer's one-line reason, in the log beside what its move did
                    readers = reason_readers(m.ruleset, before, m.state, action, side, thought.why)
                    events = [*events, *keep_reason(live.reasons, len(m.log), m, side, thought.why, readers)]
            except ApiError as exc:
                if (
                    exc.code == "stale_move"
                ):  # another server process played this turn first (its notice brings the move)
                    return
                log.error("computer player for %s in game %s failed: %s", side, live.id, exc)
                live.computer_failed = True  # a fresh read of the game (a reload) lets it try again
                again = " Reload the page to let it try again." if isinstance(exc, ThinkError) else ""
                self.service.push(
                    live,
                    [{"type": "error", "text": f"The computer player for {side} failed: {exc}{again}", "rule": ""}],
                )
                return
            except WarroomError as exc:
                log.error("computer player for %s in game %s failed: %s", side, live.id, exc)
                live.computer_failed = True
                self.service.push(
                    live, [{"type": "error", "text": f"The computer player for {side} failed: {exc}", "rule": ""}]
                )
                return
            self.service.push(live, events)
            self.schedule_automatic(live)  # the computer's move may put a person to a concealed decision


def default_agent(game: str) -> str:
    """The computer player a game gets when none is named: the heuristic, else the search, else the first."""
    names = agents.agent_names(game)
    for preferred in ("heuristic", "mcts"):
        if preferred in names:
            return preferred
    return names[0] if names else "heuristic"
