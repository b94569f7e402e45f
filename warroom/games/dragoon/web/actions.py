"""Dragoon's legal actions as descriptors (warroom.engine.spec.ActionDescriptor): the board's clicks read
the unit and the place each action names from here, so no JavaScript parses an action id. The id is
read once, by the game's own reader (`Action.from_id`).

    invade 3rd-ID Alpha-Beach          -> unit 3rd-ID, to Alpha-Beach (a die: odds)
    attack 3rd-ID Alpha-Beach->Brignoles [+air] -> unit, from, to, air (a die: odds)
    activate VI-Corps / ffi VI-Corps   -> unit
    reroll ffi (a die: odds), accept, end -> only their kind
    roll N (a typed die, the table assistant's) -> its face
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.spec import ActionDescriptor

from ..actions import ACTIVATE, ATTACK, FFI, INVADE, REROLL, Action

DICE = frozenset({INVADE, ATTACK, REROLL})
"""The kinds of action a die decides: their odds are worth asking for."""


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    return [_describe(ruleset, state, action) for action in legal]


def _describe(ruleset: Any, state: Any, text: str) -> ActionDescriptor:
    try:
        label = ruleset.describe_action(state, text)
    except (WarroomError, KeyError, ValueError):
        label = text
    words = text.split(" ")
    if len(words) == 2 and words[0] == "roll" and words[1].isdigit():
        return {"id": text, "label": label, "kind": "roll", "face": int(words[1])}
    try:
        action = Action.from_id(text)
    except WarroomError:
        return {"id": text, "label": label, "kind": words[0]}
    out: ActionDescriptor = {"id": text, "label": label, "kind": action.kind}
    if action.kind in (ACTIVATE, FFI, INVADE, ATTACK):
        out["unit"] = action.unit
    if action.kind in (INVADE, ATTACK):
        out["to"] = action.target
    if action.kind == ATTACK:
        out["from"] = action.origin
        out["air"] = action.air
    if action.kind in DICE:
        out["odds"] = True
    return out
