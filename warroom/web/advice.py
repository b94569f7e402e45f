"""What a seat may ask about its own decision: the exact odds of its actions, and the computer's hint."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from . import agents
from .computer import default_agent
from .errors import ApiError, stale
from .live import LiveGame
from .odds import battle_odds

if TYPE_CHECKING:
    from .service import GameService

HINT_TOP = 3
"""A hint lists this many moves with their estimated value and its confidence (warroom.ai.analysis)."""


class Advice:
    """Odds and hints for the seats of one GameService (hints think in its Thinker)."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def odds(self, live: LiveGame, side: str) -> dict[str, Any]:
        from .odds import legal_odds

        legal = self.service.view(live, side)["legal"]
        return {
            "ok": True,
            "move": live.version,
            "odds": legal_odds(live.match, legal),
            "battles": battle_odds(live.match, side),
        }

    async def hint(self, live: LiveGame, side: str, agent: str | None, budget_ms: int) -> dict[str, Any]:
        m = live.match
        if m.to_act != side:
            raise ApiError(409, "not_your_turn", "a hint is for a decision of yours; it is not your turn")
        name = default_agent(live.stored.game) if agent is None else agent  # "" names no player: refused, not defaulted
        budget_ms = max(50, min(int(budget_ms), 10000))
        agents.make_agent(
            name, live.stored.game, budget_ms, 0
        )  # an unknown agent is refused now, not after a wait for a worker
        version = live.version
        # the adviser may look ahead, but never at the game's own dice: the thinker gives its copy dice of its own
        thought = await self.service.thinker.think(
            m, name, budget_ms, secrets.randbelow(2**31), secrets.randbelow(2**31), top=HINT_TOP
        )
        action, why = thought.action, thought.why
        if live.version != version:
            raise stale(version, live.version)
        analysis = thought.analysis or {"measure": "", "searched": False, "top": []}
        top = [{**alt, "label": m.ruleset.describe_action(m.state, alt["action"])} for alt in analysis["top"]]
        return {
            "ok": True,
            "move": version,
            "action": action,
            "label": m.ruleset.describe_action(m.state, action),
            "why": why,
            "agent": name,
            "measure": analysis["measure"],
            "searched": analysis["searched"],
            "top": top,
        }
