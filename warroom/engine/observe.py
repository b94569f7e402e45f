"""What one side may see of the events a match produced: the one filter every front end uses.

The protocol, the web server and its replays all pass events through `visible_events`, so a
secret an event carries is hidden the same way everywhere (boardgame.io's `playerView` lesson:
secrets leak through logs when each front end filters on its own).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .ruleset import Event


def visible_events(ruleset: Any, events: Iterable[Event], side: str) -> list[Event]:
    """The events `side` may see: the ruleset's own `observe_events` if it has one, else each event's `visible_to`.

    `visible_to` is absent (everyone sees it), one side, or a list or tuple of sides.
    """
    hook = getattr(ruleset, "observe_events", None)
    if callable(hook):
        return list(hook(events, side))
    out = []
    for event in events:
        to = event.get("visible_to")
        if to is None or side == to or (isinstance(to, list | tuple) and side in to):
            out.append(event)
    return out
