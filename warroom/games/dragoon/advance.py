"""Where an Allied unit may advance: Dragoon's Allied Advance/German Retreat Restrictions, in one place.

The legal actions (may a unit attack an empty location?), a won attack (does the attacker move in?),
the odds and menus (does a win take the place?), the refusals and the heuristic all ask here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import DragoonRules
    from .state import DragoonState

NEVER_ENTERED = "never entered"
"""The unit's attack-only stop (Montelimar): "Allied units can never advance into Montelimar"."""
NOT_BEFORE_198 = "not before the 198th ID"
"""Avignon: "the US 3rd ID cannot advance into Avignon until the German 198th ID has entered it"."""


def advance_restriction(rules: DragoonRules, s: DragoonState, i: int, loc: int) -> str | None:
    """The restriction that bars Allied unit i from ever entering `loc` now (NEVER_ENTERED,
    NOT_BEFORE_198), or None: whoever holds the place, the restrictions allow it."""
    b = rules.board
    if loc == b.attack_only[i]:
        return NEVER_ENTERED
    if loc == b.avignon and not s.entered_198:
        return NOT_BEFORE_198
    return None


def may_advance_into(rules: DragoonRules, s: DragoonState, i: int, loc: int) -> bool:
    """Whether Allied unit i may advance into `loc` now: no restriction bars it, no German unit holds
    it and no Allied unit stands there (Allied Advance/German Retreat Restrictions; Resolving Unit Attacks)."""
    return advance_restriction(rules, s, i, loc) is None and loc not in s.german_loc and not rules.allied_at(s, loc)
