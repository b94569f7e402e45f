"""What one side may see of the events a match produced: the one filter every front end uses.

The protocol, the web server and its replays all pass events through `visible_events`, so a
secret an event carries is hidden the same way everywhere (boardgame.io's `playerView` lesson:
secrets leak through logs when each front end filters on its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .ruleset import Event, Ruleset
from .spec import ConcealedDecision


def visible_events(ruleset: Ruleset[Any], events: Iterable[Event], side: str) -> list[Event]:
    """The events `side` may see: by the game's spec's `observe_events` where it declares one (a game
    whose events need more than a per-event rule), else by each event's `visible_to` (`events_visible_to`)."""
    from warroom.games import get_spec  # the registry imports the engine, not the reverse

    hook = get_spec(ruleset.info.id).observe_events
    if hook is not None:
        listed: Sequence[Event] = events if isinstance(events, list | tuple) else list(events)
        return list(hook(ruleset, listed, side))
    return events_visible_to(events, side)


def reason_readers(ruleset: Ruleset[Any], before: object, after: object, action: str, side: str, why: str) -> list[str]:
    """The sides other than `side` that may read at once the computer's reason `why` for `action` (played by
    `side` in `before`, giving `after`): every other side in a game that hides nothing; in one that hides
    something, those its spec's `public_reason` clears (none without one, or without the position before the
    move). The front ends keep the rest until the game is over."""
    from warroom.games import get_spec

    spec = get_spec(ruleset.info.id)
    others = [s for s in ruleset.info.sides if s != side]
    if not spec.hidden:
        return others
    if spec.public_reason is None or before is None:
        return []
    return [viewer for viewer in others if spec.public_reason(ruleset, before, after, action, why, viewer)]


def concealed_decision(ruleset: Ruleset[Any], state: object) -> ConcealedDecision | None:
    """The decision pending in `state`, if its game's spec says the rules put it to its seat whatever the seat
    holds (`concealed_decision`, warroom.engine.spec), else None; None for a ruleset no spec registers. A front
    end gives its `automatic` answer for a person without asking, and shows the others every answer to it alike."""
    from warroom.games import get_spec

    from .errors import UnknownGameError

    try:
        hook = get_spec(ruleset.info.id).concealed_decision
    except UnknownGameError:
        return None
    return hook(ruleset, state) if hook is not None else None


def events_visible_to(events: Iterable[Event], side: str) -> list[Event]:
    """The events whose `visible_to` lets `side` see them: absent (everyone), that side, or a list or tuple
    holding it."""
    out = []
    for event in events:
        to = event.get("visible_to")
        if to is None or side == to or (isinstance(to, list | tuple) and side in to):
            out.append(event)
    return out
