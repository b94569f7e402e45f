"""Which of the computer's reasons the other side may read at once (the spec's `public_reason`; 6.0E).

A reason speaks of the pieces its move handles, the hexes it names and the odds of an attack. What 6.0E hides
is the pieces beneath the top of a stack that no enemy unit stands beside: a reason is shown to the other side
only when it can tell nothing of those. So it is kept secret (and told when the game is over) when:

- it, or the action, names a piece hidden from the viewer before or after the move, by id or by name (a
  piece leaving a stack, or slipping beneath one);
- a hex the action or the reason names holds such a piece before or after the move: the odds of an attack from a stack
  nobody watches, a move out of one, are reckoned with the pieces beneath;
- it ends a phase, or says its move was the only legal one: either tells what else the side could have done,
  and the moves and attacks it had count the pieces beneath its stacks (a redrawn world with no unit beneath
  a stack has no attack to weigh: `tests/test_public_reasons.py`);
- it states the computer's estimate of the game (`ai.value_text`: "about 40% to win"), which is reckoned
  from everything its side holds, the pieces beneath its own stacks among them.

The rest — a move of a piece the viewer sees, an attack by a watched stack, a loss, a retreat — speaks only of
what the viewer sees already. With nothing hidden from the viewer, every reason is shown.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .catalog import SIDE_NAMES
from .position import _names_pattern, hidden_from

if TYPE_CHECKING:
    from .rules import TunisiaRules
    from .state import TunisiaState

HEX = re.compile(r"\b\d{4}\b")
ESTIMATE = re.compile(r"\d+% to win\b")
"""The computer's estimate of the game, as `ai.value_text` words it."""
ONLY_CHOICE = "the only legal choice"
"""How `ai.heuristic_policy` words a move that had no alternative."""


def public_reason(
    rules: TunisiaRules, before: TunisiaState, after: TunisiaState, action: str, why: str, viewer: str
) -> bool:
    """Whether `why`, the computer's reason for `action`, tells `viewer` nothing 6.0E hides from it."""
    if viewer not in SIDE_NAMES:
        return False
    me = SIDE_NAMES.index(viewer)
    hidden = set(hidden_from(rules, before, me)) | set(hidden_from(rules, after, me))
    if not hidden:
        return True
    if ESTIMATE.search(why) or action == "end" or ONLY_CHOICE in why:
        return False
    cat = rules.cat
    text = f"{action} {why}"
    # by id (the action) or by name (the reason), each read apart: a general's name inside a two-star piece's
    # ("... (Patton)") counts, to err on the side of secrecy
    named = set(_names_pattern(tuple(cat.ids)).findall(text)) | set(_names_pattern(cat.name).findall(text))
    if any(cat.ids[p] in named or cat.name[p] in named for p in hidden):
        return False
    hexes = set(HEX.findall(text))  # the hexes the action and the reason name ("move X 8212 8611")
    labels = rules.board.grid.labels
    return not any(state.loc[p] >= 0 and labels[state.loc[p]] in hexes for state in (before, after) for p in hidden)
