"""Tunisia's actions as values with a stable text id (python-chess's `Move` and its UCI text).

    end                              end the current phase or step (movement, attacks, a breakthrough,
                                     replacements)
    move 10th-Pz 8314 8415           move one piece from its hex to a hex it can reach (8.0)
    attack 8314 8213                 attack from a hex to an adjacent enemy hex (11.0) ...
    attack 8314 8213 +air Fliegerkorps   ... with an air support asset (7.3A)
    air WDAF / no air                the defender's air support (7.3C-E)
    loss 601st-TD                    which piece takes a loss (13.1C)
    retreat CCA 8113 8315            retreat a piece two hexes (14.1)
    advance 8314 8213 / no advance   advance after combat (7.5, 14.3)
    base XII-ASC 7712                return an air asset to an airfield (7.6)
    rebuild 10th-Pz                  flip a reduced piece to its front (7.7F-G)
    replace Axis-Arty 8407           reclaim an eliminated support asset into a hex (7.7G-I)
    place Patton 8113                where an arriving piece enters (16.0A, 16.0C)

`Action.from_id(text)` reads an id and `action.id` writes it: `Action.from_id(a.id) == a`. Reading checks
the form only; whether the pieces and hexes exist and the action is legal now is the ruleset's to say.
"""

from __future__ import annotations

from dataclasses import dataclass

from warroom.engine.errors import IllegalActionError, quoted

END, MOVE, ATTACK, AIR, NO_AIR, LOSS, RETREAT = "end", "move", "attack", "air", "no air", "loss", "retreat"
ADVANCE, NO_ADVANCE, BASE, REBUILD, REPLACE, PLACE = "advance", "no advance", "base", "rebuild", "replace", "place"
KINDS = (END, MOVE, ATTACK, AIR, NO_AIR, LOSS, RETREAT, ADVANCE, NO_ADVANCE, BASE, REBUILD, REPLACE, PLACE)
FORMS = (
    "end",
    "move PIECE FROM TO",
    "attack FROM TO [+air PIECE]",
    "air PIECE",
    "no air",
    "loss PIECE",
    "retreat PIECE FROM TO",
    "advance FROM TO",
    "no advance",
    "base PIECE HEX",
    "rebuild PIECE",
    "replace PIECE HEX",
    "place PIECE HEX",
)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: its kind, the piece it concerns, the hexes (labels), and an attack's air asset."""

    kind: str
    piece: str = ""
    origin: str = ""
    target: str = ""
    air: str = ""

    @property
    def id(self) -> str:
        """The text form players, records and the protocol use."""
        kind = self.kind
        if kind in (MOVE, RETREAT):
            return f"{kind} {self.piece} {self.origin} {self.target}"
        if kind == ATTACK:
            return f"attack {self.origin} {self.target}" + (f" +air {self.air}" if self.air else "")
        if kind == ADVANCE:
            return f"advance {self.origin} {self.target}"
        if kind in (BASE, REPLACE, PLACE):
            return f"{kind} {self.piece} {self.target}"
        if kind in (AIR, LOSS, REBUILD):
            return f"{kind} {self.piece}"
        return kind

    @classmethod
    def from_id(cls, text: str) -> Action:
        """The action an id names; a text of no action's form is an IllegalActionError."""
        if text in (END, NO_AIR, NO_ADVANCE):
            return cls(text)
        words = text.split(" ")
        kind, n = words[0], len(words)
        if all(words):
            if n == 4 and kind in (MOVE, RETREAT):
                return cls(kind, words[1], words[2], words[3])
            if kind == ATTACK and (n == 3 or (n == 5 and words[3] == "+air")):
                return cls(kind, origin=words[1], target=words[2], air=words[4] if n == 5 else "")
            if n == 3 and kind == ADVANCE:
                return cls(kind, origin=words[1], target=words[2])
            if n == 3 and kind in (BASE, REPLACE, PLACE):
                return cls(kind, words[1], target=words[2])
            if n == 2 and kind in (AIR, LOSS, REBUILD):
                return cls(kind, words[1])
        raise IllegalActionError(f"{quoted(text)} is not a Tunisia action: the forms are {', '.join(map(repr, FORMS))}")
