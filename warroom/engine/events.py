"""Where a game's rules report what happened: an event sink, instead of a `log` flag in every signature.

The rules' helpers take an `Events` and call `emit`; a caller that wants the game log passes a
recording sink (`Events()`), one that does not (search, random playouts, a heuristic's look-ahead)
passes `SILENT`, which keeps nothing. Building an event's text costs time (names looked up, odds), so
a helper whose text is dear asks `events.on` first, as `logging.Logger.isEnabledFor` is asked; the
silent sink is never on. The Ruleset contract is unchanged: `apply(state, action, log=True)` returns
the recorded events.
"""

from __future__ import annotations

from typing import Any

from .ruleset import Event


class Events:
    """A recording sink: each `emit` appends one event `{"type", "text", "rule", ...}` to `items`."""

    __slots__ = ("items",)
    on = True
    """Whether anybody listens: False only for the silent sink, so helpers skip building texts."""

    def __init__(self) -> None:
        self.items: list[Event] = []

    def emit(self, kind: str, text: str, rule: str, **extra: Any) -> None:
        """Record one event: its type, the sentence players read, the rule it applies, and any extra fields."""
        event: Event = {"type": kind, "text": text, "rule": rule}
        if extra:
            event.update(extra)
        self.items.append(event)


class _Silent(Events):
    """The sink nobody listens to: it keeps nothing, so one instance serves every silent call."""

    __slots__ = ()
    on = False

    def emit(self, kind: str, text: str, rule: str, **extra: Any) -> None:
        return None


SILENT: Events = _Silent()
"""The shared silent sink (`apply(..., log=False)`, playouts and search)."""
