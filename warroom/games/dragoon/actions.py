"""Dragoon's actions as values with a stable text id, like python-chess's `Move` and its UCI text.

    end                                  End the Allied actions (Using Action Charts)
    activate VI-Corps                    flip a stalled unit to active (1 RP)
    ffi VI-Corps                         add an FFI marker (1 RP)
    invade 3rd-ID Alpha-Beach            invade (or drop on) the first location of its route (1 RP)
    attack 3rd-ID Alpha-Beach->Brignoles attack the next location of its route (1 RP) ...
    attack 3rd-ID Aix->Salon +air        ... with the turn's Air support
    reroll ffi / accept                  use the FFI marker to re-roll a die, or keep the roll

`Action.from_id(text)` reads an id and `action.id` writes it: `Action.from_id(a.id) == a`. Reading
checks the form only; whether the units and places exist, and whether the action is legal now, is
the ruleset's to say (`DragoonRules.action_of`, `legal_actions`).
"""

from __future__ import annotations

from dataclasses import dataclass

from warroom.engine.errors import IllegalActionError, quoted

END, ACTIVATE, FFI, INVADE, ATTACK, REROLL, ACCEPT = "end", "activate", "ffi", "invade", "attack", "reroll", "accept"
KINDS = (END, ACTIVATE, FFI, INVADE, ATTACK, REROLL, ACCEPT)
AIR_SUFFIX = " +air"
REROLL_ID = "reroll ffi"


@dataclass(frozen=True, slots=True)
class Action:
    """One Allied decision: its kind, the Allied unit (id) and, for invasions and attacks, the places."""

    kind: str
    unit: str = ""
    """The Allied unit's id (activate, ffi, invade, attack)."""
    origin: str = ""
    """The location attacked from (attack)."""
    target: str = ""
    """The location invaded or attacked (invade, attack)."""
    air: bool = False
    """With the Air marker (attack)."""

    @property
    def id(self) -> str:
        """The text form players, records and the protocol use."""
        kind = self.kind
        if kind == ATTACK:
            return f"attack {self.unit} {self.origin}->{self.target}{AIR_SUFFIX if self.air else ''}"
        if kind == INVADE:
            return f"invade {self.unit} {self.target}"
        if kind in (ACTIVATE, FFI):
            return f"{kind} {self.unit}"
        return REROLL_ID if kind == REROLL else kind

    @classmethod
    def from_id(cls, text: str) -> Action:
        """The action an id names; a text not of any action's form is an IllegalActionError."""
        words = text.split(" ")
        kind, n = words[0], len(words)
        if n == 1 and kind in (END, ACCEPT):
            return cls(kind)
        if text == REROLL_ID:
            return cls(REROLL)
        if n == 2 and kind in (ACTIVATE, FFI) and words[1]:
            return cls(kind, words[1])
        if n == 3 and kind == INVADE and words[1] and words[2]:
            return cls(kind, words[1], target=words[2])
        if kind == ATTACK and n in (3, 4) and words[1] and (n == 3 or words[3] == AIR_SUFFIX.strip()):
            origin, arrow, target = words[2].partition("->")
            if arrow and origin and target:
                return cls(kind, words[1], origin, target, n == 4)
        raise IllegalActionError(f"{quoted(text)} is not a Dragoon action: the forms are {', '.join(map(repr, FORMS))}")


FORMS = ("end", "activate UNIT", "ffi UNIT", "invade UNIT PLACE", "attack UNIT FROM->TO [+air]", "reroll ffi", "accept")
"""The shapes of the ids, for messages."""
