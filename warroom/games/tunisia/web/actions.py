"""Tunisia's legal actions as descriptors (warroom.engine.spec.ActionDescriptor): the piece that acts, the hex it
goes `from` and `to`, a move's `cost` in MP (what the board prints in each reachable hex, 8.0), and `odds` on an
attack or a defensive air choice (the exact joint outcome, odds.py), so no JavaScript parses an action id or
repeats the rules.

    move 10th-Pz 8314 8415        -> kind move, unit 10th-Pz, from 8314, to 8415, cost 2.5
    attack 8314 8213 +air WDAF    -> kind attack, from (the attacking unit's hex), to, air, odds
    retreat CCA 8113 8315         -> kind retreat, unit, from, to
    advance 8314 8213             -> kind advance, from, to
    base / replace / place P HEX  -> unit, to;   rebuild P / loss P / air P -> unit
    end, no air, no advance       -> only their kind
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.spec import ActionDescriptor

from ..actions import (
    ADVANCE,
    AIR,
    ATTACK,
    BASE,
    LOSS,
    MOVE,
    NO_ADVANCE,
    NO_AIR,
    PLACE,
    REBUILD,
    REPLACE,
    RETREAT,
    Action,
)
from ..movement import compute_reach, enemy_occupied
from ..state import Phase
from ..zoc import enemy_zoc


def _costs(ruleset: Any, state: Any, piece: int) -> dict[int, float]:
    """The MP the cheapest legal move of `piece` to each hex spends (8.1-8.7): the Movement Phase's cache, or
    for a breakthrough a fresh reach (15.0C: a full MA again)."""
    cached = state.reach.get(piece)
    if cached is not None and state.phase == Phase.MOVEMENT:
        return dict(cached.reach)
    cat, side = ruleset.cat, state.player
    return dict(compute_reach(cat, state, piece, enemy_zoc(cat, state, side), enemy_occupied(cat, state, side)))


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    cat = ruleset.cat
    costs: dict[int, dict[int, float]] = {}
    out: list[Any] = []
    for action in legal:
        act = Action.from_id(action)
        found: dict[str, Any] = {"id": action, "label": ruleset.describe_action(state, action), "kind": act.kind}
        kind = act.kind
        if kind == MOVE:
            piece = cat.index[act.piece]
            if piece not in costs:
                costs[piece] = _costs(ruleset, state, piece)
            found.update(
                {
                    "unit": act.piece,
                    "from": act.origin,
                    "to": act.target,
                    "cost": costs[piece].get(ruleset.hex(act.target), 0.0),
                }
            )
        elif kind == ATTACK:  # the id names the attacker's hex, not the unit: the board finds the unit there
            found.update({"from": act.origin, "to": act.target, "odds": True, "air": bool(act.air)})
        elif kind == RETREAT:
            found.update({"unit": act.piece, "from": act.origin, "to": act.target})
        elif kind == ADVANCE:
            found.update({"from": act.origin, "to": act.target})
        elif kind in (BASE, REPLACE, PLACE):
            found.update({"unit": act.piece, "to": act.target})
        elif kind in (REBUILD, LOSS):
            found["unit"] = act.piece
        elif kind == AIR:
            found.update({"unit": act.piece, "air": True, "odds": True})
        elif kind == NO_AIR:
            found["odds"] = True
        elif kind == NO_ADVANCE:
            pass
        out.append(found)
    return out
