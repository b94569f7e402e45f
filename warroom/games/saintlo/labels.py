"""Words for Saint-Lo's actions: a menu label for each legal id, and the reason an id is refused, naming
the rule that refuses it (the message of the IllegalActionError; the state is never changed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from warroom.engine.errors import IllegalActionError, quoted

from . import placement
from .actions import (
    AGREE,
    ATTACK,
    BUY,
    DEPLOY,
    DISCARD,
    DONE,
    END,
    FIRE,
    MOVE,
    PASS,
    PLAY,
    POST,
    READY,
    REFUSE,
    SECTOR,
    SUPPORT,
    SWAP,
    Action,
)
from .effects import card_targets, forbidden, playable
from .names import attack_target, card_name, dice_words, unit_id_name, unit_name
from .odds import faces
from .seats import army_of, kind_for, may_use
from .state import OFF, PHASE_NAMES, Phase, SaintLoState
from .tables import AIRCRAFT, ARTILLERY, SUPPLY, TANK, UNIQUE, Tables

if TYPE_CHECKING:
    from .rules import SaintLoRules

PHASE_RULE = {
    Phase.POSTS: "Saint-Lo 4",
    Phase.DEPLOY: "Saint-Lo 4",
    Phase.DRAW: "Saint-Lo 5.2",
    Phase.START_ROLL: "Saint-Lo 4",
    Phase.DISCARD: "Saint-Lo 5.2",
    Phase.WINDOW: "Saint-Lo 9",
    Phase.ACTIONS: "Saint-Lo 5.3",
    Phase.SUPPORT: "Saint-Lo 7.3",
    Phase.SUPPORT_REPLY: "Saint-Lo 10.3",
    Phase.ATTACK_ROLL: "Saint-Lo 6.2",
    Phase.DEFENSE_ROLL: "Saint-Lo 6.2",
    Phase.REORGANIZE: "Saint-Lo 5.4",
    Phase.OVER: "Saint-Lo 3",
}
PHASE_KINDS = {
    Phase.POSTS: (POST, READY),
    Phase.DEPLOY: (DEPLOY, READY, SECTOR),
    Phase.DISCARD: (DISCARD,),
    Phase.WINDOW: (PLAY, PASS),
    Phase.ACTIONS: (MOVE, ATTACK, DONE, END, PLAY),
    Phase.SUPPORT: (SUPPORT, FIRE, PLAY),
    Phase.SUPPORT_REPLY: (AGREE, REFUSE),
    Phase.REORGANIZE: (BUY, SWAP, END, PLAY),
}


def describe(rules: SaintLoRules, s: SaintLoState, action: str) -> str:
    """The action in a player's words: counters by name and hex, Battle Reports by their titles (names.py)."""
    t = rules.t
    if action.startswith("roll "):  # a chance outcome typed in at the table (manual dice)
        return _typed_in(rules, s, action)
    act = Action.from_id(action)
    k = act.kind
    if k == POST:
        return f"Place a Command Post of defence {act.where} on {act.subject}"
    if k == DEPLOY:
        return f"Deploy {_kind(t, act.subject)} face down on {act.where}"
    if k in (READY, SECTOR):  # the rest in bulk (placement.py)
        return placement.describe(t, s, act.subject, s.phase == Phase.POSTS)
    if k == MOVE:
        return f"Move {unit_id_name(t, s, act.subject)} to {act.where}"
    if k == ATTACK:
        return f"Attack {attack_target(t, s, act.subject, act.where)} with {unit_id_name(t, s, act.subject)}"
    if k == SUPPORT:
        return f"Call {unit_id_name(t, s, act.subject)} to support the attack (1 Supply)"
    if k in (PLAY, DISCARD):
        name = card_name(t, army_of(s, s.seat), act.subject)
        if k == DISCARD:
            return f'Discard "{name}"'
        return f'Play "{name}"' + (f" on {unit_id_name(t, s, act.where)}" if act.where else "")
    if k == BUY:
        kind = t.kind_index.get(act.subject)
        cost = f" ({t.kinds[kind].cost} Supplies)" if kind is not None else ""
        return f"Buy {_kind(t, act.subject)}{cost}, entering on {act.where}"
    if k == SWAP:
        u = t.unit_index.get(act.subject)
        cost = f" (cost {t.cost[u]})" if u is not None else ""
        return f"Swap {unit_id_name(t, s, act.subject)}{cost} for Supplies"
    return {
        FIRE: "Roll the attack",
        AGREE: "Agree to support the attack",
        REFUSE: "Refuse the support",
        DONE: "Finish with this unit",
        END: "End Movement and Attack" if s.phase == Phase.ACTIONS else "End the turn",
        PASS: "Play no Battle Report now",
    }.get(k, action)


def _kind(t: Tables, kind_id: str) -> str:
    """A kind of counter by its printed name (a deployment or a purchase: no counter is chosen yet)."""
    k = t.kind_index.get(kind_id)
    return t.kinds[k].name if k is not None else repr(kind_id)


def why_illegal(rules: SaintLoRules, s: SaintLoState, action: str) -> str:
    """Why `action` is not legal now, naming the rule."""
    if s.phase == Phase.OVER:
        return f"the game is over (Saint-Lo 3): {quoted(action)} cannot be played"
    try:
        act = Action.from_id(action)
    except IllegalActionError as exc:
        return str(exc)
    phase = s.phase
    kinds = PHASE_KINDS.get(phase, ())
    where = f"{PHASE_NAMES[phase]} ({PHASE_RULE[phase]})"
    if act.kind not in kinds:
        if not kinds:
            return f"{quoted(action)}: a chance event is pending in {where}; no decision is taken now"
        home = [f"{PHASE_NAMES[p]} ({PHASE_RULE[p]})" for p, ks in PHASE_KINDS.items() if act.kind in ks]
        belongs = f"; {act.kind} belongs to {' or '.join(home)}" if home else ""
        return f"{quoted(action)} is not an action of {where}: the actions now are {', '.join(kinds)}{belongs}"
    reason = _reason(rules, s, act)
    return f"{quoted(action)} is not legal in {where}: {reason}"


@dataclass(frozen=True, slots=True)
class _Asked:
    """An action `_reason` explains, with what every rule's question needs: the seat's army, the unit and hex
    it names (`OFF` where none), and the unit's name for the message."""

    rules: SaintLoRules
    t: Tables
    s: SaintLoState
    act: Action
    army: int
    u: int
    h: int
    name: str


def _reason(rules: SaintLoRules, s: SaintLoState, act: Action) -> str:
    """Why an action of the phase's kinds is refused: the names it gives first, then its kind's rule."""
    t = rules.t
    k = act.kind
    u = t.unit_index.get(act.subject, OFF)
    h = t.hex_of.get(act.where, OFF) if k in (MOVE, ATTACK, DEPLOY, BUY) else OFF
    if k in (MOVE, ATTACK, SWAP, SUPPORT) and u == OFF:
        return f"there is no unit {quoted(act.subject)}"
    name = unit_name(t, s, u) if u != OFF else act.subject
    if k in (MOVE, ATTACK, DEPLOY, BUY) and h == OFF:
        return f"there is no hex {quoted(act.where)} on the board"
    if k == POST:
        return "a Command Post goes on a free hex of its army's colour, with a defence value not yet placed (4.2)"
    if s.bulk != OFF:
        return "the dice of the deployment in bulk just chosen are to be rolled first (4.3)"
    why = _REASONS.get(k)
    if why is None:
        return "not now"
    return why(_Asked(rules, t, s, act, army_of(s, s.seat), u, h, name))


def _why_sector(a: _Asked) -> str:
    return placement.refusal(a.t, a.s, a.act.subject)


def _why_deploy(a: _Asked) -> str:
    kind = a.t.kind_index.get(a.act.subject)
    if kind is None or not kind_for(a.t, a.s, a.s.seat, kind):
        return "a player deploys only his own units (4.1, 10.1)"
    return (
        "one unit a hex in the own sector, land units not on rivers or Command Posts, Supply units on roads, "
        "and room kept for the Supply units still to deploy (4.3, 7.5)"
    )


def _why_not_usable(a: _Asked) -> str | None:
    """5.3, 10: why the unit may not be used now at all (a move and an attack alike), or None if it may."""
    t, s, u, name = a.t, a.s, a.u, a.name
    if t.unit_army[u] != a.army:
        return f"{name} is the enemy's unit (5.3: the player uses his own units)"
    if not may_use(t, s, s.seat, u):
        return f"{name} is the partner's unit (10: a player may not use his partner's units)"
    if s.pos[u] == OFF:
        return f"{name} is not on the board"
    if s.current != OFF and s.current != u:
        return f"{unit_name(t, s, s.current)} is in use: finish it first ('done', 5.3)"
    if s.used[u]:
        return f"{name} is face down: used this turn (5.3)"
    if s.current == OFF and s.activations >= t.rules.activations_per_turn:
        return "10 units have been used this turn (5.3)"
    return None


def _why_move(a: _Asked) -> str:
    t, s, u, name = a.t, a.s, a.u, a.name
    unusable = _why_not_usable(a)
    if unusable is not None:
        return unusable
    if s.current == u and s.moved:
        return f"{name} has moved this turn (6.1: once per turn)"
    if not (s.paid and s.current == u) and not t.foot[u] and s.supplies[a.army] < 1:
        return "no Supply left to use the unit (5.3)"
    if forbidden(t, s, u, "move"):
        return f"a Battle Report forbids {name} to move this turn (9)"
    kind_type = t.unit_type[u]
    if kind_type == AIRCRAFT:
        return "aircraft fly up to their mobility and never end on another aircraft (7.4)"
    if kind_type == SUPPLY:
        return "Supply units move only along roads and bridges, up to their mobility (7.5, 6.1)"
    return (
        "a land unit moves up to its mobility, never into a land unit or a Command Post, never through enemy "
        "units, and crosses rivers only at bridges (6.1)"
    )


def _why_attack(a: _Asked) -> str:
    t, s, u, name = a.t, a.s, a.u, a.name
    unusable = _why_not_usable(a)
    if unusable is not None:
        return unusable
    if s.current == u and s.attacked:
        return f"{name} has attacked this turn (5.3)"
    if not (s.paid and s.current == u) and s.supplies[a.army] < 1:
        return "no Supply left to attack (5.3, 7.1: foot infantry pays to attack)"
    kind_type = t.unit_type[u]
    if kind_type == ARTILLERY:
        return "artillery cannot attack by itself; it supports an attack (7.3)"
    if kind_type == SUPPLY:
        return "Supply units have no attack capacity (7.5)"
    if forbidden(t, s, u, "attack"):
        return f"a Battle Report forbids {name} to attack this turn (9)"
    if kind_type == AIRCRAFT:
        return _why_air_attack(a)
    h = a.h
    if s.air_at[h] != OFF and t.unit_army[s.air_at[h]] != a.army and s.land_at[h] == OFF:
        return f"{'tank' if kind_type == TANK else 'infantry'} units cannot attack aircraft (7.1, 7.2)"
    return "an attack is made on an enemy unit or Command Post in an adjacent hex (6.2)"


def _why_air_attack(a: _Asked) -> str:
    s, h = a.s, a.h
    if s.post_at[h] != OFF and h == s.pos[a.u] and s.land_at[h] == OFF:
        return "aircraft cannot destroy Command Posts (7.4)"
    return "an aircraft attacks an enemy aircraft in an adjacent hex, or an enemy land unit in its own hex (7.4)"


def _why_support(a: _Asked) -> str:
    t, s, u = a.t, a.s, a.u
    attack = s.attack
    if t.unit_type[u] != ARTILLERY or t.unit_army[u] != a.army:
        return "only the army's own artillery supports an attack (7.3)"
    if attack is not None and t.unit_type[attack.attacker] == AIRCRAFT:
        return "aircraft cannot use artillery support (7.4)"
    if s.supplies[a.army] < 1:
        return "each supporting artillery unit costs 1 Supply (7.3)"
    if attack is not None and u in attack.refused:
        return "the partner refused that support (10.3)"
    if s.used[u]:
        return "artillery that has moved is face down for the turn (7.3)"
    return "the target must be within the artillery's range, and a unit supports once an attack (7.3)"


def _why_play(a: _Asked) -> str:
    t, s, act, army = a.t, a.s, a.act, a.army
    c = t.card_index[army].get(act.subject)
    if c is None or c not in s.hands[s.seat]:
        what = quoted(act.subject) if c is None else f'"{t.cards[army][c].name}"'
        return f"{what} is not in {a.rules.sides[s.seat]}'s hand (9)"
    if t.cards[army][c].kind == UNIQUE:
        targets = card_targets(t, s, army, c) or []
        if act.where not in (t.unit_ids[x] for x in targets):
            return "a unique Battle Report selects one unit of the kind it names, own or enemy as it says (9)"
    elif act.where:
        return "only a unique Battle Report selects a unit (9)"
    if not playable(t, s, army, c):
        return "the event has no unit to act on (9)"
    return "the Battle Report cannot be played now (9)"


def _why_discard(a: _Asked) -> str:
    return "discard a Battle Report from the own hand (5.2)"


def _why_buy(a: _Asked) -> str:
    t, s = a.t, a.s
    kind = t.kind_index.get(a.act.subject)
    if kind is None or not kind_for(t, s, s.seat, kind):
        return "a player buys only units of his own army (5.4, 10)"
    if all(s.pos[x] != OFF for x in t.kind_units[kind]):
        return "every counter of that kind is in play (5.4)"
    if t.kinds[kind].cost > s.supplies[a.army]:
        return f"it costs {t.kinds[kind].cost} Supplies and the army has {s.supplies[a.army]} (5.4)"
    return (
        "a bought unit enters on a free hex adjacent to an own Command Post (5.4; land units not on rivers, "
        "Supply units on roads: 4.3, 7.5)"
    )


def _why_swap(a: _Asked) -> str:
    t, u = a.t, a.u
    if t.unit_army[u] != a.army or a.s.pos[u] == OFF:
        return "only the player's own units on the board are swapped (8)"
    if t.unit_type[u] == SUPPLY:
        return "Supply units cannot be deactivated for Supplies (8)"
    return "a player swaps only his own units (10)"


def _why_done(a: _Asked) -> str:
    return "no unit is in use (5.3)"


def _why_end(a: _Asked) -> str:
    return "a unit in use is finished with 'done' before the phase ends (5.3)"


_REASONS: dict[str, Callable[[_Asked], str]] = {
    SECTOR: _why_sector,
    DEPLOY: _why_deploy,
    MOVE: _why_move,
    ATTACK: _why_attack,
    SUPPORT: _why_support,
    PLAY: _why_play,
    DISCARD: _why_discard,
    BUY: _why_buy,
    SWAP: _why_swap,
    DONE: _why_done,
    END: _why_end,
}
"""Each kind's rule question (`_reason`): a kind not listed is refused as "not now"."""


def _typed_in(rules: SaintLoRules, s: SaintLoState, action: str) -> str:
    """A die, a throw or a card turned up at the table, in words (4.4, 6.2, 9)."""
    word = action[len("roll ") :]
    if not word.isdigit():
        return action
    value = int(word)
    if s.phase == Phase.DRAW and s.draw_queue:
        cards = rules.t.cards[army_of(s, s.draw_queue[0])]
        return f"Draw {cards[value].name}" if value < len(cards) else action
    if s.phase in (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL):
        return f"Throw {dice_words(faces(value))}" if value else "No dice"
    return f"Roll {value}"
