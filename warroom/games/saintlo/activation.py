"""Movement and Attack (5.3, 6, 7, 10.2, 10.3): which units may be used and how, the payment, the unit in
use, attacks with their artillery support (and the partner's answer in the team game), the dice and what
they decide, and the end of the phase.

A unit is used by its first move or attack (1 Supply, foot infantry only when it attacks: 7.1); it may do
the other, then it is finished and flipped face down (5.3). At most 10 units a turn. In the team game the
partners alternate, one unit each (10.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import attack as attacks
from . import reorganization, reports, setup
from .actions import AGREE, DONE, END, FIRE, MOVE, REFUSE, Action
from .effects import play_ids
from .listing import unused_units_choices
from .movement import destinations, occupancy
from .names import dice_words, target_name, unit_name
from .odds import ATTACKER, REROLL, compare, faces
from .seats import ARMIES, army_of, owner_seat, partner
from .state import DESTROYED, OFF, TARGET_POST, Phase, SaintLoState

if TYPE_CHECKING:
    from .rules import SaintLoRules


def action_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    t = rules.t
    seat, army = s.seat, army_of(s, s.seat)
    out: list[str] = []
    supplies = s.supplies[army]
    u = s.current
    if u != OFF:
        if not s.attacked and (s.paid or supplies >= 1):
            out.extend(map(t.attack_ids[u].__getitem__, attacks.targets(t, s, u)))
        if not s.moved and (s.paid or t.foot[u] or supplies >= 1):
            out.extend(map(t.move_ids[u].__getitem__, destinations(t, s, u)))
        out.append(DONE)
    elif s.activations < t.rules.activations_per_turn:
        out = unused_units_choices(t, s, seat, army, occupancy(t, s, army))
    out.extend(play_ids(t, s, seat, army))
    if u == OFF:
        out.append(END)
    return out


def pay(rules: SaintLoRules, s: SaintLoState, u: int, events: Events) -> None:
    """5.3: 1 Supply to use a unit (once, for its move and attack); the unit counts toward the 10."""
    if s.current == OFF:
        s.current, s.moved, s.attacked, s.paid = u, False, False, False
        s.activations += 1
    if not s.paid:
        s.supplies[rules.t.unit_army[u]] -= rules.t.rules.activation_cost
        s.paid = True


def do_action(rules: SaintLoRules, s: SaintLoState, act: Action, events: Events) -> None:
    t = rules.t
    kind = act.kind
    if kind == END:
        end_actions(rules, s, events)
        return
    if kind == DONE:
        finish_unit(rules, s, events)
        return
    u = t.unit_index[act.subject]
    h = rules.hex_of(act.where)
    if kind == MOVE:
        if s.current == OFF:
            s.current, s.moved, s.attacked, s.paid = u, False, False, False
            s.activations += 1
        free = t.foot[u] and not s.paid
        if not free:
            pay(rules, s, u, events)
        name = unit_name(t, s, u) if events.on else ""  # named on the hex it leaves
        setup.lift(t, s, u)
        setup.put(t, s, u, h)
        s.moved = True
        if events.on:
            cost = " (free: foot infantry, 7.1)" if free else ""
            events.emit("move", f"{name} moves to {act.where}{cost}.", "Saint-Lo 6.1")
        after_part(rules, s, events)
        return
    # ATTACK
    pay(rules, s, u, events)
    s.attacked = True
    a = attacks.target_in(t, s, u, h)
    s.attack = a
    if events.on:
        events.emit("attack", f"{unit_name(t, s, u)} attacks {target_name(t, s, a)}.", "Saint-Lo 6.2")
    if attacks.supporters(t, s, a) and s.supplies[t.unit_army[u]] >= 1:
        s.phase = Phase.SUPPORT
        return
    fire(rules, s, events)


def after_part(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """A unit moved or attacked: it may do the other if it can, else it is finished and flipped."""
    t = rules.t
    u = s.current
    supplies = s.supplies[t.unit_army[u]]
    more = False
    if (
        not s.attacked
        and (s.paid or supplies >= 1)
        and attacks.targets(t, s, u)
        or not s.moved
        and destinations(t, s, u)
    ):
        more = True
    if not more:
        finish_unit(rules, s, events)


def finish_unit(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """5.3: the used unit is flipped face down; in the team game the partner moves next (10.2)."""
    t = rules.t
    u = s.current
    s.used[u] = True
    s.current, s.moved, s.attacked, s.paid = OFF, False, False, False
    if events.on:
        events.emit(
            "flip",
            f"{unit_name(t, s, u)} is flipped face down "
            f"({s.activations} of {t.rules.activations_per_turn} units used).",
            "Saint-Lo 5.3",
        )
    other = partner(s, s.seat)
    if other != s.seat and not s.ended[other]:
        s.seat = other
    if s.activations >= t.rules.activations_per_turn:
        reorganization.start_reorganization(rules, s, events)


def end_actions(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """5.3: the seat uses no more units; in the team game the partner may go on (10.2)."""
    s.ended[s.seat] = True
    other = partner(s, s.seat)
    if not s.ended[other]:
        s.seat = other
        return
    reorganization.start_reorganization(rules, s, events)


def support_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    t = rules.t
    a = s.attack
    assert a is not None
    out: list[str] = []
    if s.supplies[army_of(s, s.seat)] >= 1:
        out.extend(t.support_ids[x] for x in attacks.supporters(t, s, a))
    out.append(FIRE)
    out.extend(play_ids(t, s, s.seat, army_of(s, s.seat)))
    return out


def do_support(rules: SaintLoRules, s: SaintLoState, act: Action, events: Events) -> None:
    t = rules.t
    a = s.attack
    assert a is not None
    if act.kind == FIRE:
        fire(rules, s, events)
        return
    x = t.unit_index[act.subject]
    owner = owner_seat(t, s, x)
    if owner != s.seat:  # 10.3: the partner's artillery is asked, and may refuse
        s.attack = a._replace(asked=x)
        s.phase, s.seat = Phase.SUPPORT_REPLY, owner
        if events.on:
            events.emit(
                "support_request",
                f"{rules.sides[owner_seat(t, s, a.attacker)]} asks {rules.sides[owner]} "
                f"for support from {unit_name(t, s, x)}.",
                "Saint-Lo 10.3",
            )
        return
    add_support(rules, s, x, events)


def add_support(rules: SaintLoRules, s: SaintLoState, x: int, events: Events) -> None:
    """7.3: a supporting artillery unit costs 1 Supply and is not flipped."""
    t = rules.t
    a = s.attack
    assert a is not None
    s.supplies[t.unit_army[x]] -= t.rules.activation_cost
    s.attack = a._replace(supporters=(*a.supporters, x), asked=OFF)
    if events.on:
        events.emit(
            "support",
            f"{unit_name(t, s, x)} supports the attack (1 Supply, attack "
            f"{attacks.attack_dice(t, s, s.attack)} dice so far).",
            "Saint-Lo 7.3",
        )
    s.phase, s.seat = Phase.SUPPORT, owner_seat(t, s, a.attacker)
    if not attacks.supporters(t, s, s.attack) or s.supplies[t.unit_army[x]] < 1:
        fire(rules, s, events)


def reply_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    return [AGREE, REFUSE]


def do_reply(rules: SaintLoRules, s: SaintLoState, act: Action, events: Events) -> None:
    t = rules.t
    a = s.attack
    assert a is not None
    if act.kind == AGREE:
        add_support(rules, s, a.asked, events)
        return
    if events.on:
        events.emit(
            "support_refused",
            f"{rules.sides[s.seat]} refuses the support of {unit_name(t, s, a.asked)}.",
            "Saint-Lo 10.3",
        )
    s.attack = a._replace(refused=(*a.refused, a.asked), asked=OFF)
    s.phase, s.seat = Phase.SUPPORT, owner_seat(t, s, a.attacker)


def fire(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """The attack is declared: the defender's Battle Report window (9), then the dice (6.2)."""
    t = rules.t
    a = s.attack
    assert a is not None
    attacker_seat = owner_seat(t, s, a.attacker)
    s.seat = attacker_seat
    if reports.open_window(t, s, 1 - t.unit_army[a.attacker], Phase.ATTACK_ROLL, True, attacker_seat):
        return
    s.phase = Phase.ATTACK_ROLL
    enter_roll(rules, s, events)


def enter_roll(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    """An attacker a card has since forbidden to attack throws no dice: the attack is called off."""
    a = s.attack
    assert a is not None
    if attacks.attack_dice(rules.t, s, a) <= 0:
        if events.on:
            events.emit(
                "attack_off",
                f"{unit_name(rules.t, s, a.attacker)} may not attack now: the attack is called off.",
                "Saint-Lo 9",
            )
        end_attack(rules, s, events)


def roll_attack(rules: SaintLoRules, s: SaintLoState, outcome: int, events: Events) -> None:
    t = rules.t
    a = s.attack
    assert a is not None
    s.attack = a._replace(attack_roll=outcome)
    if attacks.defense_dice(t, s, a) == 0:
        if events.on:  # 6.2: no dice against the attacker's, which prevails
            events.emit(
                "dice",
                f"The attacker throws {dice_words(faces(outcome))}; the defender has no dice.",
                "Saint-Lo 6.2",
                attacker_dice=list(faces(outcome)),  # the faces, for a front end to draw them as dice
                defender_dice=[],
            )
        resolve(rules, s, ATTACKER, events)
        return
    s.phase = Phase.DEFENSE_ROLL


def roll_defense(rules: SaintLoRules, s: SaintLoState, outcome: int, events: Events) -> None:
    a = s.attack
    assert a is not None
    verdict = compare(faces(a.attack_roll), faces(outcome))
    if events.on:
        events.emit(
            "dice",
            f"The attacker throws {dice_words(faces(a.attack_roll))} against the defender's "
            f"{dice_words(faces(outcome))}"
            f"{': a full tie, all dice are rolled again' if verdict == REROLL else ''}.",
            "Saint-Lo 6.2",
            attacker_dice=list(faces(a.attack_roll)),
            defender_dice=list(faces(outcome)),
        )
    if verdict == REROLL:
        s.attack = a._replace(attack_roll=0)
        s.phase = Phase.ATTACK_ROLL
        return
    resolve(rules, s, verdict, events)


def resolve(rules: SaintLoRules, s: SaintLoState, verdict: int, events: Events) -> None:
    t = rules.t
    a = s.attack
    assert a is not None
    if verdict == ATTACKER:
        if a.kind == TARGET_POST:
            army = a.target // 8
            h = s.post_hex[a.target]
            s.post_at[h] = OFF
            s.post_hex[a.target] = DESTROYED
            s.lost_posts[army] += 1
            if events.on:
                events.emit(
                    "post_destroyed",
                    f"The {ARMIES[army]} Command Post on {t.labels[h]} is destroyed ({s.lost_posts[army]} lost).",
                    "Saint-Lo 2.4",
                )
            if s.lost_posts[army] >= s.objective:
                s.winner = 1 - army
                s.phase = Phase.OVER
                s.attack = None
                if events.on:
                    events.emit(
                        "game_over",
                        f"{ARMIES[1 - army]} has destroyed {s.lost_posts[army]} Command Posts and wins.",
                        "Saint-Lo 3",
                    )
                return
        else:
            name = unit_name(t, s, a.target) if events.on else ""  # named on its hex, before it leaves the board
            setup.remove_unit(rules.t, s, a.target)
            if events.on:
                events.emit("destroyed", f"{name} is destroyed and withdrawn.", "Saint-Lo 6.2")
    elif events.on:
        events.emit("survives", "The defender survives.", "Saint-Lo 6.2")
    end_attack(rules, s, events)


def end_attack(rules: SaintLoRules, s: SaintLoState, events: Events) -> None:
    a = s.attack
    assert a is not None
    s.attack = None
    s.phase = Phase.ACTIONS
    s.seat = owner_seat(rules.t, s, a.attacker)
    after_part(rules, s, events)
