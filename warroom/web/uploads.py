"""Checking an uploaded record before it goes on as a game here: the same checks a new game gets.

An uploaded record is whatever its uploader made of it: options out of range, dice that its seed
never rolled, a start position of its own, scripted dice still to come. `prepare_upload` replays it
with the engine (every action and die must fit), checks its options as the catalog offers them,
checks its past dice against its seed where it has one, drops any scripted die not rolled yet (the
web never takes dice chosen in advance) and, for an online game, takes away anything that would let
a seat choose or know the dice to come. What it found is summed up as the game's `origin`, which
every seat is shown, so an opponent knows what an online game continues.

It touches no server state, so the route runs it off the event loop (a big record takes a while).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import warroom
from warroom.engine.errors import WarroomError
from warroom.engine.match import Match
from warroom.engine.record import Record
from warroom.engine.ruleset import DICE_SIDE

from .errors import ApiError, from_engine
from .options import check_options
from .seat_record import is_seat_record
from .storage import Step


@dataclass
class PreparedUpload:
    """A checked record, replayed: the Match to go on from and what to store."""

    match: Match
    record: Record
    steps: list[Step]
    initial_dice: list[int]
    mode: str
    origin: dict[str, Any]


def prepare_upload(
    record_json: Any, mode: str, secret_seed: Callable[[], Any], reseed: Callable[[Record], None] | None = None
) -> PreparedUpload:
    """Check and replay an uploaded record for a game in `mode`; ApiError (nothing stored) when it cannot go on.

    `secret_seed` draws a new seed; `reseed(record)` (when given) puts a secret seed in the record
    for an online game that is not over: whoever uploads it knows its seed, which would tell every
    card and die still to come.
    """
    if is_seat_record(record_json):
        raise ApiError(
            400,
            "bad_record",
            "this file is one seat's record of an unfinished game (what that seat saw), not the whole record: it "
            "cannot go on as a game. Download the record again once the game is over for the whole one.",
        )
    try:
        record = Record.from_json(record_json)
        from warroom.games import get_ruleset

        info = get_ruleset(record.game).info
    except WarroomError as exc:
        raise from_engine(exc) from None
    scenario = record.scenario if record.scenario in info.scenarios else None
    record.options = check_options(
        info.id, info.title, scenario, record.options
    )  # as the catalog offers them, like a new game
    try:
        finished = warroom.load(record, keep_log=False)  # validates every action and die before anything else
    except WarroomError as exc:
        raise from_engine(exc) from None
    dice_source = _dice_source(record)
    checked = _check_past_dice(record) if dice_source == "seed" else None
    if checked is not None and mode == "online":
        raise ApiError(400, "forged_dice", f"this record cannot go on online: {checked}")
    online = mode == "online"
    over = finished.over
    if isinstance(record.dice_mode, list):
        record.dice_mode = list(
            record.dice
        )  # the rolls made replay as they were; a scripted die not rolled yet is dropped
    if online and not over:
        if record.dice_mode == "manual":
            record.dice_mode = list(
                record.dice
            )  # typed in at a table: kept as they were, and the server rolls from here on
        if reseed is not None:
            reseed(record)
        else:
            record.seed = secret_seed()
    if record.seed is None:
        record.seed = secret_seed()
    manual = record.dice_mode == "manual"
    try:
        replay = warroom.new_game(
            record.game,
            record.scenario,
            seed=record.seed,
            dice="manual" if manual else list(record.dice),
            options=record.options,
            position=record.position,
            keep_log=False,
        )
        steps, initial = _replay_steps(replay, record, manual)
    except WarroomError as exc:
        raise from_engine(exc) from None
    if mode == "table" and not manual:
        mode = "hotseat"
    origin = _origin(record, dice_source, checked, online and not over)
    return PreparedUpload(replay, record, steps, initial, mode, origin)


def _replay_steps(replay: Match, record: Record, manual: bool) -> tuple[list[Step], list[int]]:
    """Play the record again as the server stores it: one step a decision, a step a typed-in die."""
    initial = list(replay.dice_rolled)
    steps: list[Step] = []
    dice_left = list(record.dice)[len(initial) :]

    def enter_pending_rolls() -> None:  # manual dice: the recorded dice typed in as the table did
        while manual and replay.to_act == DICE_SIDE and dice_left:
            value = dice_left.pop(0)
            replay.play(f"roll {value}", side=DICE_SIDE)
            steps.append(Step("roll", f"roll {value}", [value], DICE_SIDE))

    for action in record.actions:
        enter_pending_rolls()
        before = len(replay.dice_rolled)
        side = replay.to_act
        replay.play(action)
        steps.append(Step("decision", action, replay.dice_rolled[before:], side))
    enter_pending_rolls()
    return steps, initial


def _dice_source(record: Record) -> str:
    """Where the record's dice so far came from: its seed, hands at a table, a script, or nobody knows."""
    if not record.dice:
        return "none"
    if record.dice_mode == "manual":
        return "manual"
    if isinstance(record.dice_mode, list):
        return "scripted"
    return "seed" if record.seed is not None else "unknown"


def _check_past_dice(record: Record) -> str | None:
    """Roll the record's seed again through its decisions: None when every die matches, else the first that does not."""
    header = record.to_json()["header"]
    try:
        match = warroom.new_game(
            record.game,
            record.scenario,
            seed=record.seed,
            options=record.options,
            position=record.position,
            keep_log=False,
            **_rng_kwargs(header),
        )
        rolled = match.dice_rolled
        for action in [None, *record.actions]:
            if action is not None:
                match.play(action)
            rolled = match.dice_rolled
            for n, (mine, theirs) in enumerate(zip(rolled, record.dice, strict=False)):
                if mine != theirs:
                    return f"die {n + 1} of the record is {theirs}, but the record's own seed rolls {mine} there"
            if len(rolled) > len(record.dice):
                break
    except WarroomError as exc:
        return f"its seed does not replay its decisions ({exc})"
    return None


def _rng_kwargs(header: dict[str, Any]) -> dict[str, Any]:
    """The generator the header names, for engines that know more than one (absent: the default)."""
    rng = header.get("rng")
    return {"rng": rng} if rng else {}


def _origin(record: Record, source: str, mismatch: str | None, reseeded: bool) -> dict[str, Any]:
    """What every seat is told about the record this game continues."""
    moves, dice = len(record.actions), len(record.dice)
    parts = [
        f"This game continues an uploaded record: {moves} decision{'s' if moves != 1 else ''} and {dice} "
        f"{'dice' if dice != 1 else 'die'} so far."
    ]
    dice_note = {
        "none": None,
        "seed": "Its dice were checked against its seed."
        if mismatch is None
        else f"Its dice do NOT match its seed: {mismatch}.",
        "manual": "Its dice were typed in by hand at a table: nobody can check them.",
        "scripted": "Its dice were chosen in advance (a script): nobody can check them.",
        "unknown": "Its dice came with no seed: nobody can check them.",
    }[source]
    if dice_note:
        parts.append(dice_note)
    if record.position is not None:
        parts.append("It starts from a position set up by whoever made the record, not from the scenario's setup.")
    if record.options:
        parts.append("Rules options: " + ", ".join(f"{k}={v}" for k, v in sorted(record.options.items())) + ".")
    if reseeded:
        parts.append("The dice from here on come from a new secret seed drawn by the server.")
    return {
        "kind": "record",
        "moves": moves,
        "dice": dice,
        "dice_source": source,
        "dice_checked": source == "seed" and mismatch is None,
        "position": record.position is not None,
        "reseeded": reseeded,
        "text": " ".join(parts),
    }
