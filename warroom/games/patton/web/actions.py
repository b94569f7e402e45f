"""Patton's legal actions as descriptors (warroom.engine.spec.ActionDescriptor): the board's clicks read
the places and the force of each action from here, so no JavaScript parses an action id or a force
("2A1I"). The id is read once, by the game's own reader (`Action.from_id`).

    move 2A1I Rennes->Laval / retreat 2A1I Laval->Mayenne / land 2A1I Gela-Landing->Gela
                                       -> from, to, armor, infantry
    place 3A2I Lessay / remove 1A1I Laval / defect 1I Palermo -> to, armor, infantry
    battle Laval / reserves Laval      -> to
    casualties Rennes:1I Vitre:1A      -> parts [{from, armor, infantry}]
    end, retreat, stand, roll reserves, wait, place default -> only their kind
    roll N (a typed die, the table assistant's) -> its face
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.spec import ActionDescriptor

from ..actions import AT_TOWN_KINDS, BATTLE, CASUALTIES, LAND, MOVE, PLACED, RETREAT, ROUTED_KINDS, STAND, Action

PLACED_KINDS = frozenset(PLACED.values())
ODDS_KINDS = frozenset({MOVE, LAND, BATTLE, STAND, RETREAT})
"""Kinds whose action a die decides: a battle fought, joined, started or refought (a move or landing into
an enemy town, a retreat along a road that ends one)."""


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    return [_describe(ruleset, state, action) for action in legal]


def _describe(ruleset: Any, state: Any, text: str) -> ActionDescriptor:
    try:
        label = ruleset.describe_action(state, text)
    except (WarroomError, KeyError, ValueError):
        label = text
    words = text.split(" ")
    kind = words[0]
    if len(words) == 2 and kind == "roll" and words[1].isdigit():
        return {"id": text, "label": label, "kind": kind, "face": int(words[1])}
    out: ActionDescriptor = {"id": text, "label": label, "kind": kind}
    try:
        action = Action.from_id(text)
    except WarroomError:
        return out
    if action.kind in ROUTED_KINDS:
        out["armor"], out["infantry"] = action.armor, action.infantry
        out["from"], out["to"] = action.origin, action.place
    elif action.kind in PLACED_KINDS:
        out["armor"], out["infantry"] = action.armor, action.infantry
        out["to"] = action.place
    elif action.kind in AT_TOWN_KINDS:
        out["to"] = action.place
    elif action.kind == CASUALTIES:
        out["parts"] = [{"from": c.source, "armor": c.armor, "infantry": c.infantry} for c in action.casualties]
    if action.kind in ODDS_KINDS:
        out["odds"] = True
    return out
