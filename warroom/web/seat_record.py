"""A seat's record of an unfinished game: what one side may keep while the others' secrets are still secrets.

The whole record (header, every decision, every die) replays the game exactly, so before the end it tells a
side everything the rules hide from it: the other side's hidden choices, its cards, the dice that dealt them.
A seat that may not see everything downloads this instead: its own decisions, the events it was shown and the
position as it sees it now, marked with whose view it is, that it cannot be replayed or continued as the whole
game, and where the whole record comes from (the same download, once the game is over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .storage import Step

SEAT_RECORD_FORMAT = "warroom-seat-record"
SEAT_RECORD_VERSION = 1
HEADER_FIELDS = ("game", "scenario", "options", "version")
"""What a seat record keeps of the game's header: never the seed (it tells the dice to come) nor the dice."""


def seat_record(
    *,
    game_id: str,
    title: str,
    header: dict[str, Any],
    mode: str,
    side: str,
    steps: Sequence[Step],
    view: dict[str, Any],
    log: list[dict[str, Any]],
) -> dict[str, Any]:
    """`side`'s record of the game so far: `view` and `log` must be what that side may see (its observation and
    its filtered log); `steps` give its own decisions, by the number of the step that made each (1 = the first)."""
    decisions = [
        {"step": n, "action": step.action}
        for n, step in enumerate(steps, start=1)
        if step.kind == "decision" and step.side == side
    ]
    return {
        "format": SEAT_RECORD_FORMAT,
        "version": SEAT_RECORD_VERSION,
        "view_of": side,
        "replayable": False,
        "note": note(side, title),
        "whole_record": f"/api/games/{game_id}/record, once the game is over",
        "game_id": game_id,
        "title": title,
        "mode": mode,
        "header": {key: header.get(key) for key in HEADER_FIELDS},
        "steps": len(steps),
        "decisions": decisions,
        "log": log,
        "view": {**view, "legal": []},
    }


def note(side: str, title: str) -> str:
    """What the file is, in words, for whoever opens it (and for the page that saves it)."""
    return (
        f"{side}'s record of an unfinished game of {title}: {side}'s own decisions, the events {side} was shown "
        f"and the position as {side} sees it. What the rules hide from {side} is left out, so it cannot be replayed "
        "or continued as the whole game. Download the record again from the game's page once the game is over "
        "for the whole record."
    )


def is_seat_record(data: Any) -> bool:
    """Whether an uploaded JSON object is a seat record (to say why it cannot go on as a game)."""
    return isinstance(data, dict) and data.get("format") == SEAT_RECORD_FORMAT
