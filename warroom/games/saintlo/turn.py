"""The turn's frame (4, 5, 5.1, 5.2, 9): the starting player's dice, a turn's start with its re-supplying
(5.1) and Battle Report draws (5.2, reshuffling an exhausted deck: 9), the discard at 8, the opening of
Movement and Attack with the other army's window (9), and the turn's end. Draws are chance nodes over what
is left of the deck (a multiset: nobody knows its order).
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import reports
from .actions import Action
from .seats import ARMIES, army_of, seats_of
from .state import OFF, Phase, SaintLoState
from .tables import SUPPLY

if TYPE_CHECKING:
    from .rules import SaintLoRules


def start_roll(rules: SaintLoRules, s: SaintLoState, roll: int, events: Events) -> None:
    """4: "Roll dices to determine starting player": one die each, the higher starts, a tie rolls again."""
    s.start_rolls = (*s.start_rolls, roll)
    if len(s.start_rolls) < 2:
        return
    a, b = s.start_rolls
    if events.on:
        events.emit(
            "start_roll",
            f"Starting player: Allied {a}, Axis {b}{': a tie, roll again' if a == b else ''}.",
            "Saint-Lo 4",
        )
    s.start_rolls = ()
    if a == b:
        return
    s.active = 0 if a > b else 1
    start_turn(rules, s, events)


def next_draw(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """The next pending draw, reshuffling an exhausted deck (9); when none is left, the game goes on."""
    while s.draw_queue:
        army = army_of(s, s.draw_queue[0])
        deck = s.deck[army]
        if not any(deck):
            pile = s.discard[army]
            if any(pile):
                s.deck[army], s.discard[army] = pile, [0] * len(pile)
                if events.on:
                    events.emit(
                        "reshuffle",
                        f"The {ARMIES[army]} Battle Report deck is exhausted: the discard "
                        "pile is reshuffled into a new deck.",
                        "Saint-Lo 9",
                    )
            else:
                s.draw_queue = s.draw_queue[1:]  # every card is in a hand: nothing to draw
                continue
        s.phase = Phase.DRAW
        return
    if s.turn == 0:
        s.phase = Phase.START_ROLL
        return
    after_draws(rules, s, events)


def draw(rules: SaintLoRules, s: SaintLoState, c: int, events: Events) -> None:
    seat = s.draw_queue[0]
    army = army_of(s, seat)
    s.deck[army][c] -= 1
    bisect.insort(s.hands[seat], c)
    s.draw_queue = s.draw_queue[1:]
    if events.on:
        rule = "Saint-Lo 4" if s.turn == 0 else "Saint-Lo 5.2"
        events.emit(
            "draw", f'{rules.sides[seat]} draws "{rules.t.cards[army][c].name}".', rule, visible_to=[rules.sides[seat]]
        )
        events.emit(
            "draw_public",
            f"{rules.sides[seat]} draws a Battle Report.",
            rule,
            visible_to=[side for k, side in enumerate(rules.sides) if k != seat],
        )
    next_draw(rules, s, events)


def after_draws(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """5.2: a seat holding 8 discards one; then the Movement and Attack phase opens (with the other
    army's window, 9)."""
    limit = rules.t.rules.hand_limit
    for seat in seats_of(s, s.active):
        if len(s.hands[seat]) > limit:
            s.phase, s.seat = Phase.DISCARD, seat
            return
    first = seats_of(s, s.active)[0]
    s.phase, s.seat = Phase.ACTIONS, first
    reports.open_window(rules.t, s, 1 - s.active, Phase.ACTIONS, False, first)


def discard_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    cards = rules.t.cards[army_of(s, s.seat)]
    return [f"discard {cards[c].id}" for c in sorted(set(s.hands[s.seat]))]


def do_discard(rules: SaintLoRules, s: SaintLoState, act: Action, events: Events) -> None:
    army = army_of(s, s.seat)
    c = rules.t.card_index[army][act.subject]
    hand = s.hands[s.seat]
    hand.pop(bisect.bisect_left(hand, c))
    s.discard[army][c] += 1
    if events.on:
        events.emit(
            "discard",
            f'{rules.sides[s.seat]} holds 8 Battle Reports and discards "{rules.t.cards[army][c].name}".',
            "Saint-Lo 5.2",
        )
    after_draws(rules, s, events)


def start_turn(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """5.1 Re-supplying (1 Supply a Supply unit on the board), then 5.2 a Battle Report for each seat."""
    t = rules.t
    s.turn += 1
    if s.turn_limit and s.turn > 2 * s.turn_limit:
        s.phase = Phase.OVER
        if events.on:
            events.emit(
                "game_over",
                limit_reached(s.turn_limit),
                "Saint-Lo 3",
            )
        return
    army = s.active
    s.used = [False] * t.n_units
    s.effects, s.activations, s.current = (), 0, OFF
    s.moved = s.attacked = s.paid = False
    s.swapped, s.ended = [0, 0], [False] * s.seats
    income = t.rules.supplies_per_supply_unit * sum(
        1 for u in t.army_units[army] if t.unit_type[u] == SUPPLY and s.pos[u] != OFF
    )
    s.supplies[army] += income
    if events.on:
        events.emit("turn", f"Turn {s.turn}: the {ARMIES[army]} turn.", "Saint-Lo 5")
        events.emit(
            "resupply",
            f"{ARMIES[army]} receives {income} Supplies from its Supply units ({s.supplies[army]} in all).",
            "Saint-Lo 5.1",
        )
    s.draw_queue = seats_of(s, army)
    next_draw(rules, s, events)


def end_turn(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """The turn ends: the Battle Reports' events end (9); the other army's turn."""
    s.effects = ()
    s.active = 1 - s.active
    start_turn(rules, s, events)


def limit_reached(turn_limit: int) -> str:
    """The words of a game ended by the `turn_limit` option (3 sets none): the event's and the result's."""
    return f"The turn limit ({turn_limit} turn{'' if turn_limit == 1 else 's'} each) is reached: a draw."
