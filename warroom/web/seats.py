"""The seats of a new game: who plays each side, and the secret tokens and one-time invites that open them."""

from __future__ import annotations

import secrets

from warroom.engine.match import Match

from . import agents
from .computer import default_agent
from .errors import ApiError
from .storage import Seat, token_hash


def make_seats(
    match: Match, mode: str, human: list[str] | None, agent: str | None, budget_ms: int, side: str | None
) -> tuple[list[Seat], dict[str, str], dict[str, str]]:
    """(seats, the tokens of the seats the creator holds, one-time invites to the others); tokens are stored hashed.

    Against the computer `human` names the people's sides (default: the first) and the computer
    player (`agent`, checked now rather than mid-game) takes the rest; in every other mode people
    hold every side.
    """
    sides = list(match.ruleset.info.sides)
    if mode == "computer":
        human = list(human) if human else sides[:1]
        unknown = [s for s in human if s not in sides]
        if unknown:
            raise ApiError(
                400, "bad_side", f"{match.ruleset.info.title} has no side {unknown[0]!r}; sides: {', '.join(sides)}"
            )
    else:
        human = sides
    computer_sides = [s for s in sides if s not in human]
    budget_ms = max(50, min(int(budget_ms), 20000))
    agent_spec = None
    if computer_sides:
        name = default_agent(match.ruleset.info.id) if agent is None else agent
        agents.make_agent(name, match.ruleset.info.id, budget_ms, 0)  # refuse now, not mid-game, if it cannot play
        agent_spec = {"name": name, "budget_ms": budget_ms}
    held = _held_seats(mode, sides, human, side, match.ruleset.info.title)
    tokens = {s: secrets.token_urlsafe(18) for s in held}
    invites = {s: secrets.token_urlsafe(18) for s in human if s not in held}
    seats = [
        Seat(s, "human", token_hash(tokens[s])) if s in held else Seat(s, "human", None, None, token_hash(invites[s]))
        for s in human
    ]
    seats += [Seat(s, "computer", None, agent_spec) for s in computer_sides]
    return seats, tokens, invites


def _held_seats(mode: str, sides: list[str], human: list[str], side: str | None, title: str) -> list[str]:
    """The human seats whose tokens go to the creator: all of them on one screen, only the chosen one online."""
    if mode != "online" or len(human) < 2:
        return list(human)
    chosen = side or human[0]
    if chosen not in human:
        raise ApiError(400, "bad_side", f"{title} has no side {chosen!r}; sides: {', '.join(sides)}")
    return [chosen]
