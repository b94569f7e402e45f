"""Hex skirmish's legal actions as descriptors: the unit that acts, the hex it goes `from` and `to`, and for a
move its `cost` in MP (what the board prints in each reachable hex), so no JavaScript parses an action id
or repeats the movement rules.

    move R1 0102->0203    -> unit R1, from 0102, to 0203, cost 1
    attack R1 0203->0304  -> unit R1, from 0203, to 0304 (a die: odds)
    end                   -> only its kind
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.spec import ActionDescriptor


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    reach: dict[str, dict[str, float]] = {}
    out: list[Any] = []
    for action in legal:
        label = ruleset.describe_action(state, action)
        if action == "end":
            out.append({"id": action, "label": label, "kind": "end"})
            continue
        kind, unit, where = action.split(" ")
        origin, _, to = where.partition("->")
        found: dict[str, Any] = {"id": action, "label": label, "kind": kind, "unit": unit, "from": origin, "to": to}
        if kind == "move":
            if unit not in reach:
                reach[unit] = ruleset.reach(state, unit)
            found["cost"] = reach[unit][to]
        else:
            found["odds"] = True
        out.append(found)
    return out
