"""What a seat sees: its view of the match (never the omniscient one), the payload pushed to it, its log."""

from __future__ import annotations

from typing import Any

from warroom.engine.dice import HMAC_SHA256, MT19937
from warroom.engine.fairness import commitment
from warroom.engine.observe import visible_events
from warroom.engine.ruleset import DICE_SIDE

from .layouts import describe_actions
from .live import SECRET_SEED_MODES, LiveGame
from .odds import battle_odds
from .options import describe_options
from .packed import pack_actions
from .reasons import with_reasons


def may_roll(live: LiveGame, side: str) -> bool:
    """With manual dice (table assistant) any human seat at the table types in the die; never online.

    Players on different browsers cannot watch each other's dice: an online game's dice come from
    the server only, whatever its record says (`prepare_upload` never lets one in with manual dice).
    """
    seat = live.seat(side)
    return live.mode != "online" and live.match.dice.manual and seat is not None and seat.kind == "human"


def seat_view(live: LiveGame, side: str) -> dict[str, Any]:
    """The seat's observation: `match.view(side)`, never the omniscient view."""
    m = live.match
    view = m.view(side)
    if live.mode not in SECRET_SEED_MODES:
        # the players chose or may know the key here: with it a digest of the decisions would tell a hidden
        # one (each legal action tried until one gives it); only a key no seat holds makes it safe to show
        view.pop("moves", None)
    if m.to_act == DICE_SIDE and may_roll(live, side):
        view["legal"] = m.legal_actions()  # the die faces: nothing hidden
    if m.to_act in (side, DICE_SIDE):
        count = undo_count(live, side)
        view["can_undo"] = count is not None and count <= m.undoable  # the computer's reveals included
    else:
        view["can_undo"] = False
    return view


def payload(live: LiveGame, side: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    view = seat_view(live, side)
    m = live.match
    actions = describe_actions(m, view["legal"])
    header = live.stored.header
    return {
        "ok": True,
        "id": live.id,
        "game": live.stored.game,
        "title": m.ruleset.info.title,
        "scenario": header.get("scenario"),
        "options": describe_options(live.stored.game, header.get("options")),  # the rules options switched on, in words
        "mode": live.mode,
        "dice": "manual" if m.dice.manual else "auto",
        "side": side,
        "sides": list(m.ruleset.info.sides),
        "seats": [
            {"side": s.side, "kind": s.kind, "claimed": s.claimed, **({"agent": s.agent} if s.agent else {})}
            for s in live.stored.seats
        ],
        "origin": live.stored.origin or {"kind": "new"},  # what this game continues: every seat is told
        "move": live.version,
        "view": view,
        # each legal action's label and parts (unit, from, to, ...), so the board never parses an id: once, in
        # the order of view["legal"] (the ids), packed (packed.py; the page unpacks it in static/js/packed.js)
        "actions": pack_actions(actions),
        "events": visible_events(m.ruleset, events or [], side),
        "thinking": live.computer_task is not None and not live.computer_task.done(),
        "battle_odds": battle_odds(m, side),  # to both seats: the side a battle is fought against sees its odds too
        "fairness": fairness(live),
    }


def fairness(live: LiveGame) -> dict[str, Any]:
    """Where the dice come from, the same for every seat: `{scheme, commitment, seed}` (docs/fairness.md).

    An online game: "hmac-sha256", the SHA-256 of its secret key from the first view on (so the
    server cannot swap the key unseen), and `seed`, the key itself, once the game is over (null
    until then: it would tell every die to come), to re-derive every die with (`warroom verify`,
    POST /api/verify). Elsewhere the players chose the seed or may know it, so nothing is
    committed: the generator ("mt19937", or "manual" for dice typed in) and nulls.
    """
    header = live.stored.header
    seed = header.get("seed")
    scheme = "manual" if live.match.dice.manual else str(header.get("rng") or MT19937)
    if live.mode not in SECRET_SEED_MODES or scheme != HMAC_SHA256 or not isinstance(seed, str):
        return {"scheme": scheme, "commitment": None, "seed": None}
    return {"scheme": scheme, "commitment": commitment(seed), "seed": seed if live.match.over else None}


def seat_log(live: LiveGame, side: str) -> list[dict[str, Any]]:
    return visible_events(live.match.ruleset, with_reasons(live.match.log, live.reasons), side)


def undo_count(live: LiveGame, side: str) -> int | None:
    """How many steps an undo by `side` takes back: the computer's replies, then the seat's own decision."""
    count = 0
    for step in reversed(live.steps):
        seat = live.seat(step.side or "")
        if step.kind != "decision" or step.dice:
            return None  # undo never crosses a die roll
        count += 1
        if seat is not None and seat.kind == "computer":
            continue
        if step.side == side or live.mode in ("hotseat", "table") or len(live.match.ruleset.info.sides) == 1:
            return count
        return None
    return None
