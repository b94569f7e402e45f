"""The tests' one random-game loop: a match played by seeded uniform choices among the legal actions.

    for action, events in random_steps(match, seed=4, limit=150): ...   # look at each step
    play_randomly(match, seed=4)                                           # just play it out

Every test that wants "some random game" plays it here, so the way such a game is played (which
generator, how an action is drawn, when it stops) is the same everywhere and golden files made
from it stay reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from warroom import Match


def random_steps(match: Match, seed: int | random.Random, limit: int | None = None) -> Iterator[tuple[str, list[dict]]]:
    """Play `match` on with `random.Random(seed).choice(match.legal_actions())` (or that generator, given
    one), yielding each decision's action and events after it is played, until the game ends or
    `limit` decisions are made. The caller sees each position after its step (and may stop early)."""
    chooser = seed if isinstance(seed, random.Random) else random.Random(seed)
    made = 0
    while not match.over and (limit is None or made < limit):
        action = chooser.choice(match.legal_actions())
        events = match.play(action)
        made += 1
        yield action, events


def play_randomly(match: Match, seed: int | random.Random, limit: int | None = None) -> Match:
    """Play `match` randomly to its end (or `limit` decisions) as `random_steps` does; the match, for chaining."""
    for _ in random_steps(match, seed, limit):
        pass
    return match
