"""Saint-Lo's legal actions as descriptors (engine.spec.ActionDescriptor), so no JavaScript parses an id:

move us_m5.3 0506        -> unit us_m5.3, at (its hex: not in the id, so not `from`), to 0506,
                            cost: the Supply it costs now (0 or 1)
attack us_m5.3 0607      -> unit, at, to; odds (a die decides)
deploy us_m5 0304        -> kind "deploy", unit_kind us_m5, to 0304
buy us_m5 0305           -> kind "buy", unit_kind us_m5, to 0305, cost its Supplies
post 1411 5              -> kind "post", to 1411, defense 5
support us_m2a1.1        -> unit (the artillery called), at
swap us_m5.3             -> unit, at
play ace_of_tanks us_m4a1.1 -> card, unit (the target, if any)
discard dug_in           -> card
fire / done / end / pass / agree / refuse -> only their kind (fire: odds)
ready / sector west      -> only their kind: setup in bulk (placement.py; board.js shows them first)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.engine.spec import ActionDescriptor

from ..actions import ATTACK, BUY, DEPLOY, DISCARD, FIRE, MOVE, PLAY, POST, SUPPORT, SWAP, Action
from ..state import OFF


def describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    """Each legal action's descriptor, in the order of `legal`."""
    t = ruleset.t
    out: list[Any] = []
    for action in legal:
        act = Action.from_id(action)
        d: dict[str, Any] = {"id": action, "label": ruleset.describe_action(state, action), "kind": act.kind}
        if act.kind in (MOVE, ATTACK):
            u = t.unit_index[act.subject]
            d.update({"unit": act.subject, "at": t.labels[state.pos[u]], "to": act.where})
            if act.kind == MOVE:
                free = t.foot[u] or (state.current == u and state.paid)
                d["cost"] = 0 if free else 1
            else:
                d["odds"] = True
        elif act.kind in (DEPLOY, BUY):
            d.update({"unit_kind": act.subject, "to": act.where})
            if act.kind == BUY:
                d["cost"] = t.kinds[t.kind_index[act.subject]].cost
        elif act.kind == POST:
            d.update({"to": act.subject, "defense": int(act.where)})
        elif act.kind in (SUPPORT, SWAP):
            u = t.unit_index[act.subject]
            d.update({"unit": act.subject, "at": t.labels[state.pos[u]] if state.pos[u] != OFF else ""})
        elif act.kind in (PLAY, DISCARD):
            d["card"] = act.subject
            if act.where:
                d["target"] = act.where
        elif act.kind == FIRE:
            d["odds"] = True
        out.append(d)
    return out
