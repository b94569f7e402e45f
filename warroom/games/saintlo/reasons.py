"""Which of the computer's reasons the other seats may read at once (the spec's `public_reason`; 4.3, 9).

What the rules hide here is the cards in each hand and deck (9) and, until both armies have deployed, the kind of
each counter set down face down (4.3). The heuristic's reasons name neither: each is a fixed sentence for its kind
of move ("a counter face down where its kind serves", "no Battle Report worth playing now"), or one with the
numbers of what every seat sees (an attack's odds from the units and the Battle Reports in play, the hexes a move
gains). So a reason is shown at once unless

- it states the computer's estimate of the game (`ai.value_text`: "about 40% to win the Command Posts race"),
  reckoned from everything its seat holds, its hand among it; or
- it names a Battle Report or a kind of unit (a search's alternatives can: "play Ace of Tanks").
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import SaintLoRules
    from .state import SaintLoState

ESTIMATE = re.compile(r"\d+% to win\b")
"""The computer's estimate of the game, as `ai.value_text` words it."""


def public_reason(
    rules: SaintLoRules, before: SaintLoState, after: SaintLoState, action: str, why: str, viewer: str
) -> bool:
    """Whether `why`, the computer's reason for `action`, tells `viewer` nothing 4.3 and 9 hide from it."""
    if ESTIMATE.search(why):
        return False
    return _secret_words(rules).search(why) is None


@cache
def _secret_words(rules: SaintLoRules) -> re.Pattern[str]:
    """Every Battle Report's and every unit kind's id and name, as whole words (case as printed)."""
    t = rules.t
    words = {card.id for cards in t.cards for card in cards} | {card.name for cards in t.cards for card in cards}
    words |= {kind.id for kind in t.kinds} | {kind.name for kind in t.kinds}
    longest_first = sorted(words, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, longest_first)) + r")(?![\w-])")
