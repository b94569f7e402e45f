"""What is kept of a game: a seat's download, the replay of a finished game, and its post-game analysis."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import warroom
from warroom.engine.match import Match
from warroom.engine.observe import visible_events
from warroom.engine.ruleset import DICE_SIDE

from .errors import ApiError
from .live import LiveGame
from .seat_record import seat_record
from .storage import Step
from .views import seat_view

if TYPE_CHECKING:
    from .service import GameService

MAX_REVIEWS = 200
"""Post-game analyses kept in memory (the oldest asked is dropped first)."""


class Records:
    """Records, replays and reviews for one GameService; keeps the finished games' analyses."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.reviews: OrderedDict[str, asyncio.Task[dict[str, Any]]] = OrderedDict()
        """Finished games' post-game analyses, by game id (a finished game never changes): the task, so two
        seats asking at once share one computation."""

    def record(self, live: LiveGame, side: str) -> dict[str, Any]:
        """What this seat may keep of the game: the whole record once the game is over, or before then where
        nothing is hidden from the seat (without the seed); otherwise the seat's own record (seat_record.py)."""
        record = live.record_json()
        if live.match.over:
            return record
        if not self.sees_everything(live, side):
            return seat_record(
                game_id=live.id,
                title=live.match.ruleset.info.title,
                header=live.stored.header,
                mode=live.mode,
                side=side,
                steps=live.steps,
                view=seat_view(live, side),  # what the seat was shown: no digest where the key may be known
                log=self.service.log(live, side),
            )
        header = record["header"]
        header["seed"] = None  # the seed would tell the dice still to come
        if isinstance(header.get("dice"), list):
            header["dice"] = list(record["dice"])  # and so would scripted dice not yet rolled
        return record

    def sees_everything(self, live: LiveGame, side: str) -> bool:
        """Whether the whole record so far tells `side` nothing hidden from it: where one person holds every side
        (a solitaire, hot-seat, the table, or a game against the computer with no computer seat), or where the game
        hides nothing (no hidden field in its spec) and `side` has been shown every event whole."""
        from warroom.games import get_spec

        m = live.match
        if len(m.ruleset.info.sides) == 1:
            return True
        if live.mode != "online" and all(seat.kind == "human" for seat in live.stored.seats):
            return True
        if get_spec(m.ruleset.info.id).hidden:
            return False
        return visible_events(m.ruleset, m.log, side) == m.log

    def replay(self, live: LiveGame, side: str) -> list[dict[str, Any]]:
        """Frames of a finished game as this seat saw it, one per step, for step back / forward."""
        if not live.match.over:
            raise ApiError(409, "not_over", "a replay is available once the game is over")
        header = live.stored.header
        manual = header.get("dice") == "manual"
        record = live.record_json()
        m = warroom.new_game(
            live.stored.game,
            header.get("scenario"),
            seed=header.get("seed"),
            dice="manual" if manual else record["dice"],
            options=header.get("options") or {},
            position=header.get("position"),
            rng=header.get("rng"),
        )
        rs = m.ruleset
        frames = [self._frame(m, side, visible_events(rs, m.log, side), None)]
        for step in live.steps:
            label = None
            if step.side == side and step.kind == "decision":
                label = rs.describe_action(m.state, step.action)
            events = m.play(step.action, side=DICE_SIDE if step.kind == "roll" else None)
            frames.append(self._frame(m, side, visible_events(rs, events, side), label))
        return frames

    @staticmethod
    def _frame(m: Match, side: str, events: list[dict[str, Any]], label: str | None) -> dict[str, Any]:
        view = m.view(side)
        view["legal"] = []
        return {"view": view, "events": events, "label": label}

    async def review(self, live: LiveGame, side: str) -> dict[str, Any]:
        """The post-game analysis (warroom.ai.review) of a finished game, computed once off the event loop and
        kept. Refused (409 not_over) before the end: it reads every side's moves and every die, what a seat
        may see only once the game is over (when the whole record is every seat's to download). Each point and
        marked move also names its `frame`: the replay's frame (GET /replay) that shows the position after it."""
        if not live.match.over:
            raise ApiError(
                409, "not_over", "the review is available once the game is over (it reads every side's moves and dice)"
            )
        task = self.reviews.get(live.id)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self.reviews[live.id] = asyncio.ensure_future(
                asyncio.to_thread(_review, live.record_json(), live.steps)
            )
            while len(self.reviews) > MAX_REVIEWS:
                self.reviews.popitem(last=False)
        self.reviews.move_to_end(live.id)
        report = await asyncio.shield(task)  # a client that leaves does not cancel the computation others share
        return {"ok": True, **report}


def _review(record_json: dict[str, Any], steps: list[Step]) -> dict[str, Any]:
    """The review of a stored game, each point and mistake with its replay frame (frame n: after the n-th stored
    step; decision k's frame is its own step's, a manual roll being a step of its own)."""
    from warroom.ai.review import review

    report = review(record_json)
    frames = [0] + [n for n, step in enumerate(steps, 1) if step.kind == "decision"]
    for item in [*report["points"], *report["mistakes"]]:
        item["frame"] = frames[item["step"]] if item["step"] < len(frames) else len(steps)
    return report
