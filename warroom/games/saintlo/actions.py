"""Saint-Lo's actions as values with a stable text id (`Action.from_id(a.id) == a`).

    post 1411 5                 place a Command Post of defence 5 on hex 1411 (4.2)
    deploy us_m5 0304           deploy the next undeployed counter of a kind (4.3)
    ready                       the rest of the army's Command Posts, or of the seat's counters, placed the
                                computer's way (4.2, 4.3; placement.py)
    sector west                 the seat's remaining counters all deployed in one part of its sector (4.3)
    move us_m5.3 0506           move a unit (6.1, 7.4, 7.5)
    attack us_m5.3 0607         attack the enemy unit or Command Post there (6.2, 7.4)
    support us_m2a1.1 / fire    call an artillery unit to the declared attack, then roll (7.3)
    agree / refuse              the partner's answer to a support request (10.3)
    done                        the unit in use is finished and flipped (5.3)
    end                         end Movement and Attack, or end Reorganization and the turn (5.3, 5.4)
    play ace_of_tanks de_tiger_i.1 / play fuel_depot    play a Battle Report (9)
    pass                        close one's Battle Report window (9)
    discard dug_in              discard down to 7 Battle Reports (5.2)
    buy us_m5 0305 / swap us_m5.3                       Reorganization (5.4, 8)

Units are named by kind and number (`us_m5.3`: the third M5); hexes by their printed label. Reading
checks the form only; whether it names real things and is legal now is the ruleset's to say.
"""

from __future__ import annotations

from dataclasses import dataclass

from warroom.engine.errors import IllegalActionError, quoted

POST, DEPLOY, MOVE, ATTACK, SUPPORT, FIRE, AGREE, REFUSE = (
    "post",
    "deploy",
    "move",
    "attack",
    "support",
    "fire",
    "agree",
    "refuse",
)
DONE, END, PLAY, PASS, DISCARD, BUY, SWAP = "done", "end", "play", "pass", "discard", "buy", "swap"
READY, SECTOR = "ready", "sector"
BARE = (FIRE, AGREE, REFUSE, DONE, END, PASS, READY)
ONE = (SUPPORT, DISCARD, SWAP, SECTOR)
TWO = (POST, DEPLOY, MOVE, ATTACK, BUY)
ONE_WORD = frozenset((*ONE, PLAY))
"""The kinds followed by one word (a card is played alone or on a unit: PLAY is in both)."""
TWO_WORDS = frozenset((*TWO, PLAY))
FORMS = (
    "post HEX DEFENCE",
    "deploy KIND HEX",
    "ready",
    "sector AREA",
    "move UNIT HEX",
    "attack UNIT HEX",
    "support ARTILLERY",
    "fire",
    "agree",
    "refuse",
    "done",
    "end",
    "play CARD [UNIT]",
    "pass",
    "discard CARD",
    "buy KIND HEX",
    "swap UNIT",
)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: its kind, and the words it names (a unit, a kind, a card; a hex; a defence value)."""

    kind: str
    subject: str = ""
    """The unit (move, attack, support, swap, play's target), the kind (deploy, buy), the card (play,
    discard), the hex (post) or the part of the sector (sector)."""
    where: str = ""
    """The hex (deploy, move, attack, buy), the defence (post) or the card's target unit (play)."""

    @property
    def id(self) -> str:
        if self.kind in BARE:
            return self.kind
        if self.where:
            return f"{self.kind} {self.subject} {self.where}"
        return f"{self.kind} {self.subject}"

    @classmethod
    def from_id(cls, text: str) -> Action:
        """The action an id names; a text of no action's form is an IllegalActionError. Remembered: a game
        offers a few thousand ids, and every decision reads one."""
        found = _PARSED.get(text)
        if found is None:
            found = cls._parse(text)
            if len(_PARSED) >= _PARSED_LIMIT:
                _PARSED.clear()
            _PARSED[text] = found
        return found

    @classmethod
    def _parse(cls, text: str) -> Action:
        words = text.split(" ")
        kind, n = words[0], len(words)
        if n == 1 and kind in BARE:
            return cls(kind)
        if all(words):
            if n == 2 and kind in ONE_WORD:
                return cls(kind, words[1])
            if n == 3 and kind in TWO_WORDS:
                return cls(kind, words[1], words[2])
        raise IllegalActionError(f"{quoted(text)} is not a Saint-Lo action: the forms are {', '.join(FORMS)}")


_PARSED: dict[str, Action] = {}
"""`Action.from_id`'s answers by id (an Action is frozen, so one may be shared)."""
_PARSED_LIMIT = 100_000
