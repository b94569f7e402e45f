"""Exact odds shown before a die decides anything: the seat's own choices and the battles fought against it.

Each game computes its own, through its spec's odds capability (warroom.engine.spec.OddsCapability):
`action_odds(ruleset, state, action)` ({"p", "fraction", "text"} for an action that involves a die) and
`battle_odds(ruleset, state, side)` (the battle being fought and those set up, sent to every seat, the
side that is not acting too). A game without the capability shows no odds; the web layer only asks.
"""

from __future__ import annotations

from typing import Any

from warroom.engine.match import Match
from warroom.engine.spec import OddsCapability


def _odds(match: Match) -> OddsCapability | None:
    from warroom.games import get_spec

    factory = get_spec(match.ruleset.info.id).odds
    return factory() if factory is not None else None


def legal_odds(match: Match, legal: list[str]) -> dict[str, dict[str, Any]]:
    """{action id: {"p", "fraction", "text", ..., "card"}} for each legal action that involves a die; "card" is
    the line its button shows (`card_line`)."""
    odds = _odds(match)
    if odds is None:
        return {}
    out = {}
    for action in legal:
        found = odds.action_odds(match.ruleset, match.state, action)
        if found:
            out[action] = {**found, "card": card_line(found)}
    return out


def card_line(found: dict[str, Any]) -> str:
    """The odds in one short line: where the other side may still choose (the game's "cases", with "low" and
    "high"), the range and the two cases that bound it, each saying what it assumes; else the one number,
    exactly. A number shown before a commitment never hides a choice the other side has left."""
    cases = found.get("cases") or []
    low, high = found.get("low", found["p"]), found.get("high", found["p"])
    if len(cases) > 1 and high - low > 1e-12:
        best = max(cases, key=lambda c: c["p"])
        worst = min(cases, key=lambda c: c["p"])
        return f"{low * 100:.0f}-{high:.0%}: {best['p']:.0%} {best['if']}; {worst['p']:.0%} {worst['if']}"
    return f"{found['p']:.1%} · exactly {found['fraction']}"


def battle_odds(match: Match, side: str | None) -> list[dict[str, Any]]:
    """The odds of the battle being fought and of those set up, from `side`'s view; [] for a game without battles."""
    odds = _odds(match)
    return list(odds.battle_odds(match.ruleset, match.state, side)) if odds is not None else []
