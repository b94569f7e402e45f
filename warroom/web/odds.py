"""Exact odds of the seat's legal actions, shown before a player commits to an attack.

A ruleset may offer `action_odds(state, action) -> dict | None` itself; Dragoon's single-die
attacks are computed here from its own odds module (rulebook: Resolving Unit Attacks, FFI).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warroom.engine.match import Match


def legal_odds(match: Match, legal: list[str]) -> dict[str, dict[str, Any]]:
    """{action id: {"p", "fraction", "text"}} for each legal action that involves a die."""
    hook = getattr(match.ruleset, "action_odds", None)
    if callable(hook):
        out = {}
        for action in legal:
            odds = hook(match.state, action)
            if odds:
                out[action] = odds
        return out
    if match.ruleset.info.id == "dragoon":
        return _dragoon(match, legal)
    return {}


def _entry(p: Fraction, text: str) -> dict[str, Any]:
    return {"p": float(p), "fraction": f"{p.numerator}/{p.denominator}", "text": text}


def _dragoon(match: Match, legal: list[str]) -> dict[str, dict[str, Any]]:
    from warroom.games.dragoon.odds import advance_fraction
    from warroom.games.dragoon.state import ATTACK_REROLL, BOT_REROLL, OPPOSED

    rules: Any = match.ruleset
    s: Any = match.state
    b = rules.board
    out: dict[str, dict[str, Any]] = {}
    no_stall_on = b.stall_on + 1
    for action in legal:
        if action == "reroll ffi":
            if s.phase == ATTACK_REROLL and s.attack is not None:
                mode, drm = s.attack[2], s.attack[4]
                if mode == OPPOSED:
                    p = advance_fraction(drm, False, b.advance_on)
                    out[action] = _entry(p, f"{p.numerator}/{p.denominator} that the re-roll advances (needs {b.advance_on - drm}+)")
                else:
                    p = advance_fraction(0, False, no_stall_on)
                    out[action] = _entry(p, f"{p.numerator}/{p.denominator} that the re-roll is not a {b.stall_on} (no stall)")
            elif s.phase == BOT_REROLL:
                p = 1 - advance_fraction(0, False, b.advance_on)
                out[action] = _entry(p, f"{p.numerator}/{p.denominator} that the German re-roll fails (it needs {b.advance_on}+)")
            continue
        parsed = rules.parse.get(action)
        if parsed is None:
            continue
        kind, i, air = parsed
        if kind == "invade":
            p = advance_fraction(0, False, no_stall_on)
            out[action] = _entry(p, f"{p.numerator}/{p.denominator} to land without stalling (a {b.stall_on} stalls)")
        elif kind == "attack":
            target = rules.target_of(s, i)
            defenders = rules.germans_at(s, target)
            ffi = bool(s.ffi[i])
            if not defenders:
                p = advance_fraction(0, ffi, no_stall_on)
                out[action] = _entry(p, f"{p.numerator}/{p.denominator} to advance without stalling{' (FFI re-roll)' if ffi else ''}")
                continue
            defender = rules.top_unit(s, target)  # only the top unit of a stack is attacked (11th PzD Special Rules)
            drm = rules.attack_drm(s, target, defender, bool(air))
            p = advance_fraction(drm, ffi, b.advance_on)
            need = b.advance_on - drm
            out[action] = _entry(p, f"{p.numerator}/{p.denominator} to advance: DRM {drm:+d}, needs {need}+ on the die{' (with the FFI re-roll)' if ffi else ''}")
    return out
