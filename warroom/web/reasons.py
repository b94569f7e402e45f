"""The computer's reasons in a game's log, and a stored game rebuilt with them.

The match's log holds the rules' events only (another server process rebuilds it from the stored
steps and counts on its length); the computer's one-line reasons are kept beside it
(`LiveGame.reasons`, by the log's length when each was given) and merged in where they are shown.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import warroom
from warroom.engine.errors import WarroomError
from warroom.engine.match import Match
from warroom.engine.observe import reason_readers
from warroom.engine.ruleset import DICE_SIDE

from .live import LiveGame
from .storage import StoredGame


def _reason_events(m: Match, side: str, why: str, readers: list[str]) -> list[dict[str, Any]]:
    """The computer's reason for its move, as log events. `readers`: the other sides that may read it at once
    (`reason_readers`: all of them in a game that hides nothing). In a game that hides something a reason may
    tell what the computer's side holds ("the Jack loses every showdown"): the other seats are told only that
    it is kept secret."""
    text = f"Why ({side}, computer): {why}"
    others = [s for s in m.ruleset.info.sides if s != side]
    kept = [s for s in others if s not in readers]
    if not kept:
        return [{"type": "reason", "side": side, "text": text, "rule": ""}]
    return [
        {"type": "reason", "side": side, "text": text, "rule": "", "visible_to": [side, *readers]},
        {
            "type": "reason",
            "side": side,
            "text": f"Why ({side}, computer): kept secret, it may tell what {side} holds",
            "rule": "",
            "visible_to": kept,
        },
    ]


def keep_reason(
    reasons: dict[int, list[dict[str, Any]]], at: int, m: Match, side: str, why: str, readers: list[str]
) -> list[dict[str, Any]]:
    """The reason's log events (`_reason_events`), kept in `reasons` (LiveGame.reasons) at log length `at`, after
    the move they explain, so a page reloaded shows them too."""
    said = _reason_events(m, side, why, readers)
    reasons.setdefault(at, []).extend(said)
    return said


def before_move(m: Match) -> Any:
    """A copy of the position before a move, where the game's reasons need it (`reason_readers`), else None."""
    from warroom.games import get_spec

    spec = get_spec(m.ruleset.info.id)
    return m.ruleset.clone(m.state) if spec.hidden and spec.public_reason is not None else None


def with_reasons(log: list[dict[str, Any]], reasons: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The match's log with the computer's reasons each after the move it explains."""
    if not reasons:
        return log
    out: list[dict[str, Any]] = []
    start = 0
    for at in sorted(at for at in reasons if at <= len(log)):
        out += log[start:at]
        out += reasons[at]
        start = at
    return out + log[start:]


def events_since(old: LiveGame | None, new: LiveGame) -> list[dict[str, Any]]:
    """The events of the steps another process added (from the rebuilt log); an undo there is said as one."""
    if old is None:
        return []
    if len(new.steps) >= len(old.steps) and new.steps[: len(old.steps)] == old.steps:
        seen = len(old.match.log)
        # the new log with the reasons given after what the old one held (each lands after `seen` when merged)
        return with_reasons(new.match.log, {at: said for at, said in new.reasons.items() if at > seen})[seen:]
    return [{"type": "undo", "text": "A move was taken back.", "rule": ""}]


def rebuild(stored: StoredGame) -> tuple[Match, dict[int, list[dict[str, Any]]]]:
    """The Match of a stored game, with undo open exactly as far as it was before the server stopped, and the
    computer's stored reasons placed in its log as `LiveGame.reasons` places them.

    `warroom.load` locks undo at the end of what it replays, so the record is loaded up to its last
    die, and the decisions after it (which rolled nothing) are played again on top. A reason follows
    everything its decision caused, its dice included: it is placed where the next decision begins.
    """
    last_roll = max((n for n, step in enumerate(stored.steps) if step.dice or step.kind == "roll"), default=-1)
    head = StoredGame(
        stored.id,
        stored.game,
        stored.mode,
        stored.header,
        stored.initial_dice,
        0,
        False,
        None,
        stored.created,
        stored.updated,
        steps=stored.steps[: last_roll + 1],
    )
    starts: list[int] = []
    match = warroom.load(head.record_json(), starts=starts)
    ends = [*starts[1:], len(match.log)][: len(starts)]  # per decision of the head: where what it caused ends
    reasons: dict[int, list[dict[str, Any]]] = {}
    readers = _head_readers(head)
    decisions = [(n, step) for n, step in enumerate(head.steps) if step.kind == "decision"]
    for (n, step), end in zip(decisions, ends, strict=True):
        if step.reason and step.side:
            keep_reason(reasons, end, match, step.side, step.reason, readers.get(n, []))
    for step in stored.steps[last_roll + 1 :]:
        before = before_move(match) if step.reason else None
        match.play(step.action)
        if step.reason and step.side:
            said = reason_readers(match.ruleset, before, match.state, step.action, step.side, step.reason)
            keep_reason(reasons, len(match.log), match, step.side, step.reason, said)
    return match, reasons


def _head_readers(head: StoredGame) -> dict[int, list[str]]:
    """Who may read each reason of the steps `warroom.load` replays whole (`reason_readers`, by step index): in a
    game whose reasons depend on the position, the steps are played again one by one on a copy to get the
    positions. Should that copy not follow the record (it always should), the reasons are kept secret."""
    from warroom.games import get_ruleset, get_spec

    spec = get_spec(head.game)
    if not spec.hidden or spec.public_reason is None:  # the readers do not depend on the position
        rules = get_ruleset(head.game)
        return {
            n: reason_readers(rules, None, None, step.action, step.side, step.reason)
            for n, step in enumerate(head.steps)
            if step.reason and step.side
        }
    if not any(step.reason for step in head.steps):
        return {}
    start = warroom.load(replace(head, steps=[]).record_json())
    out: dict[int, list[str]] = {}
    try:
        for n, step in enumerate(head.steps):
            before = before_move(start) if step.reason else None
            rolled = len(start.dice_rolled)
            start.play(step.action, side=DICE_SIDE if step.kind == "roll" else None)
            if start.dice_rolled[rolled:] != step.dice:
                return {}
            if step.reason and step.side:
                out[n] = reason_readers(start.ruleset, before, start.state, step.action, step.side, step.reason)
    except WarroomError:
        return {}
    return out
