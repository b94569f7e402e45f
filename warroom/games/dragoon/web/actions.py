"""Dragoon's legal actions as descriptors (warroom.engine.spec.ActionDescriptor): the board's clicks read
the unit and the place each action names from here, so no JavaScript parses an action id.

    invade 3rd-ID Alpha-Beach          -> unit 3rd-ID, to Alpha-Beach (a die: odds)
    attack 3rd-ID Alpha-Beach->Brignoles [+air] -> unit, from, to, air (a die: odds)
    activate VI-Corps / ffi VI-Corps   -> unit
    reroll ffi (a die: odds), accept, end, and a typed die (roll N) -> only their kind
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.spec import ActionDescriptor

DICE = frozenset({"invade", "attack", "reroll"})
"""The kinds of action a die decides: their odds are worth asking for."""


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    return [_describe(ruleset, state, action) for action in legal]


def _describe(ruleset: Any, state: Any, action: str) -> ActionDescriptor:
    try:
        label = ruleset.describe_action(state, action)
    except (WarroomError, KeyError, ValueError):
        label = action
    words = action.split(" ")
    kind = words[0]
    out: ActionDescriptor = {"id": action, "label": label, "kind": kind}
    if kind == "invade" and len(words) == 3:
        out["unit"], out["to"] = words[1], words[2]
    elif kind == "attack" and len(words) >= 3 and "->" in words[2]:
        out["unit"] = words[1]
        out["from"], out["to"] = words[2].split("->", 1)
        out["air"] = "+air" in words[3:]
    elif kind in ("activate", "ffi") and len(words) == 2:
        out["unit"] = words[1]
    elif kind == "roll" and len(words) == 2 and words[1].isdigit():
        out["face"] = int(words[1])
    if kind in DICE:
        out["odds"] = True
    return out
