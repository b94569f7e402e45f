"""Exact odds of the seat's legal actions, shown before a player commits to an attack.

Each game computes its own: a ruleset offers `action_odds(state, action) -> dict | None`
({"p", "fraction", "text"} for an action that involves a die), and the web layer only asks.
"""

from __future__ import annotations

from typing import Any

from warroom.engine.match import Match


def legal_odds(match: Match, legal: list[str]) -> dict[str, dict[str, Any]]:
    """{action id: {"p", "fraction", "text"}} for each legal action that involves a die."""
    hook = getattr(match.ruleset, "action_odds", None)
    if not callable(hook):
        return {}
    out = {}
    for action in legal:
        odds = hook(match.state, action)
        if odds:
            out[action] = odds
    return out
