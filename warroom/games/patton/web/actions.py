"""Patton's legal actions as descriptors (warroom.engine.spec.ActionDescriptor): the board's clicks read
the places and the force of each action from here, so no JavaScript parses an action id or a force
("2A1I": the game's own parser, actions.parse_mix, reads it).

    move 2A1I Rennes->Laval / retreat 2A1I Laval->Mayenne / land 2A1I Gela-Landing->Gela
                                       -> from, to, armor, infantry
    place 3A2I Lessay / remove 1A1I Laval / defect 1I Palermo -> to, armor, infantry
    battle Laval / reserves Laval      -> to
    casualties Rennes:1I Vitre:1A      -> parts [{from, armor, infantry}]
    end, retreat, stand, roll reserves, wait, place default -> only their kind
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.spec import ActionDescriptor

from ..actions import parse_mix

ROUTED = frozenset({"move", "retreat", "land"})
PLACED = frozenset({"place", "remove", "defect"})


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    return [_describe(ruleset, state, action) for action in legal]


def _force(out: ActionDescriptor, text: str) -> None:
    mix = parse_mix(text)
    if mix is not None:
        out["armor"], out["infantry"] = mix


def _describe(ruleset: Any, state: Any, action: str) -> ActionDescriptor:
    try:
        label = ruleset.describe_action(state, action)
    except (WarroomError, KeyError, ValueError):
        label = action
    words = action.split(" ")
    kind = words[0]
    out: ActionDescriptor = {"id": action, "label": label, "kind": kind}
    if kind in ROUTED and len(words) == 3 and "->" in words[2]:
        _force(out, words[1])
        out["from"], out["to"] = words[2].split("->", 1)
    elif kind in PLACED and len(words) == 3:
        _force(out, words[1])
        out["to"] = words[2]
    elif kind in ("battle", "reserves") and len(words) == 2:
        out["to"] = words[1]
    elif kind == "casualties":
        parts: list[dict[str, Any]] = []
        for word in words[1:]:
            where, _, force = word.partition(":")
            mix = parse_mix(force) or (0, 0)
            parts.append({"from": where, "armor": mix[0], "infantry": mix[1]})
        out["parts"] = parts
    elif kind == "roll" and len(words) == 2 and words[1].isdigit():
        out["face"] = int(words[1])
    # a battle fought, joined, started or refought (a move or landing into an enemy town, a retreat that ends one)
    if kind in ("move", "land", "battle", "stand") or (kind == "retreat" and "to" in out):
        out["odds"] = True
    return out
