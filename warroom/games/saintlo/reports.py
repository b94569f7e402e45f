"""Battle Reports in play (9, 10.4): playing a card, and the windows in which a side that is not deciding
may play one.

9: "Battle Reports can be played at any moment during the game." The engine reads "any moment" as
(NOTES.md): the side whose turn it is may play at every one of its decisions (Movement and Attack,
artillery support, Reorganization); the other side is offered a window at the start of the opponent's
Movement and Attack phase and when an attack has been declared, before the dice (the defender first;
a round in which a card was played opens a round for the other army, until a round passes with no
card). Whether a window opens, and for which seats, reads only what every seat knows (4.5: the hands are
hidden): it opens for each seat holding a card while some card of its army's deck that is not all on the
discard pile could be played now (`may_hold_playable`), whatever that seat's own hand holds; a seat with
nothing it can play is asked all the same and may only pass (front ends pass for a person at once, the
spec's `concealed_decision`). A played card goes to its army's discard pile; its event lasts to the end of
the turn (effects.py).
"""

from __future__ import annotations

import bisect

from warroom.engine.events import Events

from .effects import may_hold_playable
from .names import unit_name
from .seats import army_of, seats_of
from .state import OFF, Phase, SaintLoState, Window
from .tables import SUPPLIES, Tables

CARDS_RULE = "Saint-Lo 9"


def play(t: Tables, s: SaintLoState, seat: int, c: int, unit: int, events: Events, side_name: str) -> None:
    """The seat plays card c (of its army's deck) from its hand, on `unit` if the card selects one."""
    army = army_of(s, seat)
    hand = s.hands[seat]
    hand.pop(bisect.bisect_left(hand, c))
    s.discard[army][c] += 1
    card = t.cards[army][c]
    if card.kind == SUPPLIES:
        s.supplies[army] += card.supplies
    else:
        s.effects = (*s.effects, (army, c, unit))
    if events.on:
        on = f" on {unit_name(t, s, unit)}" if unit != OFF else ""
        events.emit(
            "battle_report",
            f'{side_name} plays the Battle Report "{card.name}"{on}: {card.text}',
            CARDS_RULE,
            card=card.id,
        )


def open_window(t: Tables, s: SaintLoState, army: int, then: Phase, reply: bool, resume: int) -> bool:
    """Offer `army`'s seats a window (those that, for all the others know, may hold a card playable now);
    False when none may (nothing to ask)."""
    queue = tuple(seat for seat in seats_of(s, army) if may_hold_playable(t, s, seat, army))
    if not queue:
        return False
    s.window = Window(queue, then, reply, False, army, resume)
    s.phase = Phase.WINDOW
    s.seat = queue[0]
    return True


def after_play(t: Tables, s: SaintLoState) -> None:
    """In a window, a seat that played stays to play again, unless the others can tell it has nothing left to
    play (no card left, or none of its deck's unseen cards playable): never on what its hand holds."""
    w = s.window
    assert w is not None
    w = w._replace(played=True)
    s.window = w
    if not may_hold_playable(t, s, w.queue[0], w.army):
        advance(t, s, w)


def advance(t: Tables, s: SaintLoState, w: Window) -> None:
    """The window's head seat is done: the next seat, the other army's round, or the window closes."""
    queue = w.queue[1:]
    if queue:
        s.window = w._replace(queue=queue)
        s.seat = queue[0]
        return
    if w.reply and w.played and open_window(t, s, 1 - w.army, w.then, True, w.resume):
        return
    s.window = None
    s.phase = w.then
    s.seat = w.resume
