"""Exact odds shown before a die decides anything: the seat's own choices and the battles fought against it.

Each game computes its own: a ruleset offers `action_odds(state, action) -> dict | None`
({"p", "fraction", "text"} for an action that involves a die), and the web layer only asks.
The battles of the position (the one being fought, those set up) go to every seat, the side that
is not acting too: a ruleset offers `battle_odds(state, side) -> list`.
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


def battle_odds(match: Match, side: str | None) -> list[dict[str, Any]]:
    """The odds of the battle being fought and of those set up, from `side`'s view; [] for a game without battles."""
    hook = getattr(match.ruleset, "battle_odds", None)
    return list(hook(match.state, side)) if callable(hook) else []
