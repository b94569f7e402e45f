"""Panzer Saint-Lo 1944: the Ruleset (two players, and the four-player team variant of 10).

This module holds the contract and the Sequence of Play (`SEQUENCE_OF_PLAY`, at the end: each phase with
who acts and its handlers). The pieces live beside it: setup.py (4), movement.py (6.1, 7.4, 7.5),
attack.py (6.2, 7.1-7.4), effects.py and reports.py (the Battle Reports, 9), odds.py (the dice),
position.py (JSON and observations). Rule citations name the rulebook's sections: "Saint-Lo 5.3".
Dice, card draws and the starting player's dice are chance nodes; the ruleset never draws a number.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from warroom.engine.errors import IllegalActionError, UnknownScenarioError, WarroomError, quoted
from warroom.engine.events import SILENT, Events
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

from . import attack as attacks
from . import reports, setup
from .actions import AGREE, BUY, DONE, END, FIRE, MOVE, PASS, PLAY, REFUSE, Action
from .board import load_board, load_components, load_units
from .cards import load_cards
from .effects import drop_unit, play_ids
from .movement import destinations, occupancy
from .odds import ATTACKER, REROLL, compare, faces, throw_outcomes, win_probability
from .seats import army_of, kind_for, may_use, owner_seat, partner, seats_of
from .state import OFF, PHASE_NAMES, TARGET_POST, Phase, SaintLoState
from .tables import AIRCRAFT, SUPPLY, Tables

ARMIES = ("Allied", "Axis")
TEAM_SIDES = ("Allied A", "Allied B", "Axis A", "Axis B")
D6 = tuple((face, 1 / 6) for face in range(1, 7))
OBJECTIVES = (4, 6, 8)


class SaintLoRules:
    """The Ruleset for Panzer Saint-Lo 1944, two players (Allied, Axis)."""

    info = GameInfo(id="saintlo", title="Panzer Saint-Lo 1944", scenarios=("standard",), sides=ARMIES)
    seats = 2

    def __init__(self) -> None:
        self.t = Tables(load_board(), load_units(), load_components(), load_cards())
        self.sides = self.info.sides
        self.seat_index = {side: k for k, side in enumerate(self.sides)}

    # -- the contract ---------------------------------------------------------------------------------
    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> SaintLoState:
        if scenario not in (None, "standard"):
            raise UnknownScenarioError(f"Panzer Saint-Lo has one scenario, 'standard', not {scenario!r}")
        objective, turn_limit = parse_options(options)
        t = self.t
        s = SaintLoState()
        s.seats, s.objective, s.turn_limit = self.seats, objective, turn_limit
        s.pos, s.used = [OFF] * t.n_units, [False] * t.n_units
        s.land_at, s.air_at, s.post_at = [OFF] * t.n_hexes, [OFF] * t.n_hexes, [OFF] * t.n_hexes
        s.post_hex, s.lost_posts, s.supplies = [OFF] * 16, [0, 0], [0, 0]
        s.hands = [[] for _ in range(self.seats)]
        s.deck = [list(t.deck_counts[0]), list(t.deck_counts[1])]
        s.discard = [[0] * len(t.deck_counts[0]), [0] * len(t.deck_counts[1])]
        s.swapped, s.ended = [0, 0], [False] * self.seats
        s.phase, s.active, s.seat = Phase.POSTS, 0, seats_of(s, 0)[0]
        return s

    def to_act(self, s: SaintLoState) -> str | None:
        actor = _ACTORS[s.phase]
        return self.sides[s.seat] if actor is _SEAT else actor

    def legal_actions(self, s: SaintLoState) -> list[str]:
        legal = s.legal
        if legal is None:
            legal = s.legal = tuple(SEQUENCE_OF_PLAY[s.phase].choices(self, s))
        return list(legal)

    def chance_outcomes(self, s: SaintLoState) -> tuple[tuple[int, float], ...]:
        phase = s.phase
        if phase == Phase.START_ROLL:
            return D6
        if phase == Phase.DRAW:
            army = army_of(s, s.draw_queue[0])
            deck = s.deck[army]
            total = sum(deck)
            return tuple((c, n / total) for c, n in enumerate(deck) if n)
        if phase in (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL):
            a = s.attack
            assert a is not None
            dice = attacks.attack_dice(self.t, s, a) if phase == Phase.ATTACK_ROLL else attacks.defense_dice(self.t, s, a)
            return throw_outcomes(dice)
        raise IllegalActionError("no chance event is pending")

    def die_sides(self, s: SaintLoState) -> int:
        return 6

    def apply(self, s: SaintLoState, action: str, log: bool = True) -> list[Event]:
        legal = s.legal
        if legal is None:
            legal = s.legal = tuple(SEQUENCE_OF_PLAY[s.phase].choices(self, s))
        if action not in legal:
            raise IllegalActionError(self.why_illegal(s, action))
        s.legal = None
        events = Events() if log else SILENT
        act = Action.from_id(action)
        if act.kind == PLAY:
            self.play_card(s, act, events)
        else:
            decide = SEQUENCE_OF_PLAY[s.phase].decide
            assert decide is not None
            decide(self, s, act, events)
        return events.items if log else []

    def apply_chance(self, s: SaintLoState, outcome: int, log: bool = True) -> list[Event]:
        roll = SEQUENCE_OF_PLAY[s.phase].roll
        if roll is None:
            raise IllegalActionError("no chance event is pending")
        if outcome not in (o for o, _ in self.chance_outcomes(s)):
            raise IllegalActionError(f"{quoted(outcome)} is not an outcome of this chance event")
        s.legal = None
        events = Events() if log else SILENT
        roll(self, s, outcome, events)
        return events.items if log else []

    def result(self, s: SaintLoState) -> Result | None:
        if s.phase != Phase.OVER:
            return None
        score = {ARMIES[a]: s.lost_posts[1 - a] for a in (0, 1)}
        if s.winner == OFF:
            return Result(None, {"Command Posts destroyed": score},
                          f"The turn limit ({s.turn_limit} turns each) is reached: a draw.", "Saint-Lo 3",
                          win_returns(self.info, None))
        winner = ARMIES[s.winner]
        return Result(winner, {"Command Posts destroyed": score},
                      f"The {winner} army destroyed {s.lost_posts[1 - s.winner]} enemy Command Posts "
                      f"(the objective is {s.objective}).", "Saint-Lo 3", win_returns(self.info, winner))

    def observation(self, s: SaintLoState, side: str | None = None) -> dict[str, Any]:
        from .position import observation

        return observation(self, s, side)

    def clone(self, s: SaintLoState) -> SaintLoState:
        return s.clone()

    def state_to_json(self, s: SaintLoState) -> dict[str, Any]:
        from .position import state_to_json

        return state_to_json(self, s)

    def state_from_json(self, data: dict[str, Any]) -> SaintLoState:
        from .position import state_from_json

        return state_from_json(self, data)

    def turn_and_phase(self, s: SaintLoState) -> tuple[int, str]:
        return s.turn, PHASE_NAMES[s.phase]

    def describe_action(self, s: SaintLoState, action: str) -> str:
        from .labels import describe

        return describe(self, s, action)

    def why_illegal(self, s: SaintLoState, action: str) -> str:
        from .labels import why_illegal

        return why_illegal(self, s, action)

    def attack_odds(self, s: SaintLoState, action: str) -> float | None:
        """The exact chance that a legal `attack` (or, during support, `fire`) destroys its target with the
        dice it would throw now (6.2, re-rolls included); None for any other action."""
        t = self.t
        if action == FIRE and s.attack is not None:
            a = s.attack
        else:
            act = Action.from_id(action)
            if act.kind != "attack" or action not in self.legal_actions(s):
                return None
            a = attacks.target_in(t, s, t.unit_index[act.subject], t.hex_of[act.where])
        return win_probability(attacks.attack_dice(t, s, a), attacks.defense_dice(t, s, a))

    # -- names ----------------------------------------------------------------------------------------
    def unit_of(self, name: str) -> int:
        """The index of the unit an id names (`us_m5.3`), for callers outside the legal list."""
        u = self.t.unit_index.get(name)
        if u is None:
            raise IllegalActionError(f"no unit {quoted(name)}")
        return u

    def hex_of(self, label: str) -> int:
        h = self.t.hex_of.get(label)
        if h is None:
            raise IllegalActionError(f"no hex {quoted(label)} on the Saint-Lo board")
        return h

    # -- setup (4) ---------------------------------------------------------------------------------------
    def post_choices(self, s: SaintLoState) -> list[str]:
        return setup.post_choices(self.t, s)

    def do_post(self, s: SaintLoState, act: Action, events: Events) -> None:
        """4.2: one Command Post placed; when the army has placed all 8, the next army, then deployment."""
        h = self.hex_of(act.subject)
        setup.place_post(self.t, s, h, int(act.where))
        if events.on:
            events.emit("post", f"{ARMIES[s.active]} places a Command Post of defence {act.where} on {act.subject}.",
                        "Saint-Lo 4")
        if setup.posts_left(s, s.active):
            return
        if s.active == 0:
            s.active, s.seat = 1, seats_of(s, 1)[0]
            return
        order = setup.deploy_order(s)
        s.phase, s.seat, s.active = Phase.DEPLOY, order[0], army_of(s, order[0])

    def deploy_choices(self, s: SaintLoState) -> list[str]:
        return setup.deploy_choices(self.t, s)

    def do_deploy(self, s: SaintLoState, act: Action, events: Events) -> None:
        """4.3: one unit deployed face down; the next seat when this one is done; all revealed at the end."""
        t = self.t
        u = setup.deploy(t, s, t.kind_index[act.subject], self.hex_of(act.where))
        if events.on:
            team = [self.sides[k] for k in seats_of(s, s.active)]
            events.emit("deploy", f"{self.sides[s.seat]} deploys {t.unit_ids[u]} face down on {act.where}.",
                        "Saint-Lo 4", visible_to=team)
        if not setup.seat_done_deploying(t, s):
            return
        order = setup.deploy_order(s)
        k = order.index(s.seat)
        if k + 1 < len(order):
            s.seat = order[k + 1]
            s.active = army_of(s, s.seat)
            return
        if events.on:
            events.emit("reveal", "Both armies are deployed: every unit is flipped face up.", "Saint-Lo 4")
        s.draw_queue = tuple(seat for seat in range(s.seats) for _ in range(self.t.rules.starting_hand))
        self.next_draw(s, events)

    def start_roll(self, s: SaintLoState, roll: int, events: Events) -> None:
        """4: "Roll dices to determine starting player": one die each, the higher starts, a tie rolls again."""
        s.start_rolls = (*s.start_rolls, roll)
        if len(s.start_rolls) < 2:
            return
        a, b = s.start_rolls
        if events.on:
            events.emit("start_roll", f"Starting player: Allied {a}, Axis {b}"
                        f"{': a tie, roll again' if a == b else ''}.", "Saint-Lo 4")
        s.start_rolls = ()
        if a == b:
            return
        s.active = 0 if a > b else 1
        self.start_turn(s, events)

    # -- Battle Reports drawn (4.5, 5.2) ----------------------------------------------------------------
    def next_draw(self, s: SaintLoState, events: Events) -> None:
        """The next pending draw, reshuffling an exhausted deck (9); when none is left, the game goes on."""
        while s.draw_queue:
            army = army_of(s, s.draw_queue[0])
            deck = s.deck[army]
            if not any(deck):
                pile = s.discard[army]
                if any(pile):
                    s.deck[army], s.discard[army] = pile, [0] * len(pile)
                    if events.on:
                        events.emit("reshuffle", f"The {ARMIES[army]} Battle Report deck is exhausted: the discard "
                                    "pile is reshuffled into a new deck.", "Saint-Lo 9")
                else:
                    s.draw_queue = s.draw_queue[1:]  # every card is in a hand: nothing to draw
                    continue
            s.phase = Phase.DRAW
            return
        if s.turn == 0:
            s.phase = Phase.START_ROLL
            return
        self.after_draws(s, events)

    def draw(self, s: SaintLoState, c: int, events: Events) -> None:
        seat = s.draw_queue[0]
        army = army_of(s, seat)
        s.deck[army][c] -= 1
        bisect.insort(s.hands[seat], c)
        s.draw_queue = s.draw_queue[1:]
        if events.on:
            rule = "Saint-Lo 4" if s.turn == 0 else "Saint-Lo 5.2"
            events.emit("draw", f"{self.sides[seat]} draws \"{self.t.cards[army][c].name}\".", rule,
                        visible_to=[self.sides[seat]])
            events.emit("draw_public", f"{self.sides[seat]} draws a Battle Report.", rule,
                        visible_to=[side for k, side in enumerate(self.sides) if k != seat])
        self.next_draw(s, events)

    def after_draws(self, s: SaintLoState, events: Events) -> None:
        """5.2: a seat holding 8 discards one; then the Movement and Attack phase opens (with the other
        army's window, 9)."""
        limit = self.t.rules.hand_limit
        for seat in seats_of(s, s.active):
            if len(s.hands[seat]) > limit:
                s.phase, s.seat = Phase.DISCARD, seat
                return
        first = seats_of(s, s.active)[0]
        s.phase, s.seat = Phase.ACTIONS, first
        reports.open_window(self.t, s, 1 - s.active, Phase.ACTIONS, False, first)

    def discard_choices(self, s: SaintLoState) -> list[str]:
        cards = self.t.cards[army_of(s, s.seat)]
        return [f"discard {cards[c].id}" for c in sorted(set(s.hands[s.seat]))]

    def do_discard(self, s: SaintLoState, act: Action, events: Events) -> None:
        army = army_of(s, s.seat)
        c = self.t.card_index[army][act.subject]
        hand = s.hands[s.seat]
        hand.pop(bisect.bisect_left(hand, c))
        s.discard[army][c] += 1
        if events.on:
            events.emit("discard", f"{self.sides[s.seat]} holds 8 Battle Reports and discards \"{self.t.cards[army][c].name}\".",
                        "Saint-Lo 5.2")
        self.after_draws(s, events)

    # -- the turn (5) --------------------------------------------------------------------------------------
    def start_turn(self, s: SaintLoState, events: Events) -> None:
        """5.1 Re-supplying (1 Supply a Supply unit on the board), then 5.2 a Battle Report for each seat."""
        t = self.t
        s.turn += 1
        if s.turn_limit and s.turn > 2 * s.turn_limit:
            s.phase = Phase.OVER
            if events.on:
                events.emit("game_over", f"The turn limit ({s.turn_limit} turns each) is reached: a draw.", "Saint-Lo 3")
            return
        army = s.active
        s.used = [False] * t.n_units
        s.effects, s.activations, s.current = (), 0, OFF
        s.moved = s.attacked = s.paid = False
        s.swapped, s.ended = [0, 0], [False] * s.seats
        income = t.rules.supplies_per_supply_unit * sum(
            1 for u in t.army_units[army] if t.unit_type[u] == SUPPLY and s.pos[u] != OFF)
        s.supplies[army] += income
        if events.on:
            events.emit("turn", f"Turn {s.turn}: the {ARMIES[army]} turn.", "Saint-Lo 5")
            events.emit("resupply", f"{ARMIES[army]} receives {income} Supplies from its Supply units "
                        f"({s.supplies[army]} in all).", "Saint-Lo 5.1")
        s.draw_queue = seats_of(s, army)
        self.next_draw(s, events)

    def play_card(self, s: SaintLoState, act: Action, events: Events) -> None:
        """9: a Battle Report played by the seat deciding (in its decisions or a window)."""
        army = army_of(s, s.seat)
        c = self.t.card_index[army][act.subject]
        unit = self.t.unit_index[act.where] if act.where else OFF
        reports.play(self.t, s, s.seat, c, unit, events, self.sides[s.seat])
        if s.phase == Phase.WINDOW:
            reports.after_play(self.t, s)
            if s.phase == Phase.ATTACK_ROLL:
                self.enter_roll(s, events)

    def window_choices(self, s: SaintLoState) -> list[str]:
        return [*play_ids(self.t, s, s.seat, army_of(s, s.seat)), PASS]

    def do_pass(self, s: SaintLoState, act: Action, events: Events) -> None:
        w = s.window
        assert w is not None
        reports.advance(self.t, s, w)
        if s.phase == Phase.ATTACK_ROLL:
            self.enter_roll(s, events)

    # -- 5.3 Movement and Attack ---------------------------------------------------------------------------
    def action_choices(self, s: SaintLoState) -> list[str]:
        t = self.t
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
            pos, used, foot = s.pos, s.used, t.foot
            occupied = occupancy(t, s, army)
            move_ids, attack_ids = t.move_ids, t.attack_ids
            for v in t.army_units[army]:
                if pos[v] == OFF or used[v] or not may_use(t, s, seat, v):
                    continue
                if supplies >= 1 or foot[v]:
                    out.extend(map(move_ids[v].__getitem__, destinations(t, s, v, occupied)))
                if supplies >= 1:
                    out.extend(map(attack_ids[v].__getitem__, attacks.targets(t, s, v)))
        out.extend(play_ids(t, s, seat, army))
        if u == OFF:
            out.append(END)
        return out

    def pay(self, s: SaintLoState, u: int, events: Events) -> None:
        """5.3: 1 Supply to use a unit (once, for its move and attack); the unit counts toward the 10."""
        if s.current == OFF:
            s.current, s.moved, s.attacked, s.paid = u, False, False, False
            s.activations += 1
        if not s.paid:
            s.supplies[self.t.unit_army[u]] -= self.t.rules.activation_cost
            s.paid = True

    def do_action(self, s: SaintLoState, act: Action, events: Events) -> None:
        t = self.t
        kind = act.kind
        if kind == END:
            self.end_actions(s, events)
            return
        if kind == DONE:
            self.finish_unit(s, events)
            return
        u = t.unit_index[act.subject]
        h = self.hex_of(act.where)
        if kind == MOVE:
            if s.current == OFF:
                s.current, s.moved, s.attacked, s.paid = u, False, False, False
                s.activations += 1
            free = t.foot[u] and not s.paid
            if not free:
                self.pay(s, u, events)
            start = s.pos[u]
            setup.lift(t, s, u)
            setup.put(t, s, u, h)
            s.moved = True
            if events.on:
                cost = " (free: foot infantry, 7.1)" if free else ""
                events.emit("move", f"{t.unit_ids[u]} moves {t.labels[start]} -> {act.where}{cost}.", "Saint-Lo 6.1")
            self.after_part(s, events)
            return
        # ATTACK
        self.pay(s, u, events)
        s.attacked = True
        a = attacks.target_in(t, s, u, h)
        s.attack = a
        if events.on:
            what = (f"the Command Post of defence {attacks.defense_dice(t, s, a)}" if a.kind == TARGET_POST
                    else t.unit_ids[a.target])
            events.emit("attack", f"{t.unit_ids[u]} attacks {what} in {act.where}.", "Saint-Lo 6.2")
        if attacks.supporters(t, s, a) and s.supplies[t.unit_army[u]] >= 1:
            s.phase = Phase.SUPPORT
            return
        self.fire(s, events)

    def after_part(self, s: SaintLoState, events: Events) -> None:
        """A unit moved or attacked: it may do the other if it can, else it is finished and flipped."""
        t = self.t
        u = s.current
        supplies = s.supplies[t.unit_army[u]]
        more = False
        if not s.attacked and (s.paid or supplies >= 1) and attacks.targets(t, s, u) or not s.moved and destinations(t, s, u):
            more = True
        if not more:
            self.finish_unit(s, events)

    def finish_unit(self, s: SaintLoState, events: Events) -> None:
        """5.3: the used unit is flipped face down; in the team game the partner moves next (10.2)."""
        t = self.t
        u = s.current
        s.used[u] = True
        s.current, s.moved, s.attacked, s.paid = OFF, False, False, False
        if events.on:
            events.emit("flip", f"{t.unit_ids[u]} is flipped face down ({s.activations} of "
                        f"{t.rules.activations_per_turn} units used).", "Saint-Lo 5.3")
        other = partner(s, s.seat)
        if other != s.seat and not s.ended[other]:
            s.seat = other
        if s.activations >= t.rules.activations_per_turn:
            self.start_reorganization(s, events)

    def end_actions(self, s: SaintLoState, events: Events) -> None:
        """5.3: the seat uses no more units; in the team game the partner may go on (10.2)."""
        s.ended[s.seat] = True
        other = partner(s, s.seat)
        if not s.ended[other]:
            s.seat = other
            return
        self.start_reorganization(s, events)

    def start_reorganization(self, s: SaintLoState, events: Events) -> None:
        """5.3: every face-down unit is flipped back up; 5.4 begins."""
        s.used = [False] * self.t.n_units
        s.ended = [False] * s.seats
        s.phase = Phase.REORGANIZE
        s.seat = seats_of(s, s.active)[0]
        if events.on:
            events.emit("reorganization", f"{ARMIES[s.active]} flips its units face up: Reorganization.", "Saint-Lo 5.4")

    # -- attacks (6.2, 7.3, 10.3) --------------------------------------------------------------------------
    def support_choices(self, s: SaintLoState) -> list[str]:
        t = self.t
        a = s.attack
        assert a is not None
        out: list[str] = []
        if s.supplies[army_of(s, s.seat)] >= 1:
            out.extend(t.support_ids[x] for x in attacks.supporters(t, s, a))
        out.append(FIRE)
        out.extend(play_ids(t, s, s.seat, army_of(s, s.seat)))
        return out

    def do_support(self, s: SaintLoState, act: Action, events: Events) -> None:
        t = self.t
        a = s.attack
        assert a is not None
        if act.kind == FIRE:
            self.fire(s, events)
            return
        x = t.unit_index[act.subject]
        owner = owner_seat(t, s, x)
        if owner != s.seat:  # 10.3: the partner's artillery is asked, and may refuse
            s.attack = a._replace(asked=x)
            s.phase, s.seat = Phase.SUPPORT_REPLY, owner
            if events.on:
                events.emit("support_request", f"{self.sides[owner_seat(t, s, a.attacker)]} asks {self.sides[owner]} "
                            f"for support from {t.unit_ids[x]}.", "Saint-Lo 10.3")
            return
        self.add_support(s, x, events)

    def add_support(self, s: SaintLoState, x: int, events: Events) -> None:
        """7.3: a supporting artillery unit costs 1 Supply and is not flipped."""
        t = self.t
        a = s.attack
        assert a is not None
        s.supplies[t.unit_army[x]] -= t.rules.activation_cost
        s.attack = a._replace(supporters=(*a.supporters, x), asked=OFF)
        if events.on:
            events.emit("support", f"{t.unit_ids[x]} supports the attack (1 Supply, attack "
                        f"{attacks.attack_dice(t, s, s.attack)} dice so far).", "Saint-Lo 7.3")
        s.phase, s.seat = Phase.SUPPORT, owner_seat(t, s, a.attacker)
        if not attacks.supporters(t, s, s.attack) or s.supplies[t.unit_army[x]] < 1:
            self.fire(s, events)

    def reply_choices(self, s: SaintLoState) -> list[str]:
        return [AGREE, REFUSE]

    def do_reply(self, s: SaintLoState, act: Action, events: Events) -> None:
        t = self.t
        a = s.attack
        assert a is not None
        if act.kind == AGREE:
            self.add_support(s, a.asked, events)
            return
        if events.on:
            events.emit("support_refused", f"{self.sides[s.seat]} refuses the support of {t.unit_ids[a.asked]}.",
                        "Saint-Lo 10.3")
        s.attack = a._replace(refused=(*a.refused, a.asked), asked=OFF)
        s.phase, s.seat = Phase.SUPPORT, owner_seat(t, s, a.attacker)

    def fire(self, s: SaintLoState, events: Events) -> None:
        """The attack is declared: the defender's Battle Report window (9), then the dice (6.2)."""
        t = self.t
        a = s.attack
        assert a is not None
        attacker_seat = owner_seat(t, s, a.attacker)
        s.seat = attacker_seat
        if reports.open_window(t, s, 1 - t.unit_army[a.attacker], Phase.ATTACK_ROLL, True, attacker_seat):
            return
        s.phase = Phase.ATTACK_ROLL
        self.enter_roll(s, events)

    def enter_roll(self, s: SaintLoState, events: Events) -> None:
        """An attacker a card has since forbidden to attack throws no dice: the attack is called off."""
        a = s.attack
        assert a is not None
        if attacks.attack_dice(self.t, s, a) <= 0:
            if events.on:
                events.emit("attack_off", f"{self.t.unit_ids[a.attacker]} may not attack now: the attack is called off.",
                            "Saint-Lo 9")
            self.end_attack(s, events)

    def roll_attack(self, s: SaintLoState, outcome: int, events: Events) -> None:
        t = self.t
        a = s.attack
        assert a is not None
        s.attack = a._replace(attack_roll=outcome)
        if attacks.defense_dice(t, s, a) == 0:
            self.resolve(s, ATTACKER, events)
            return
        s.phase = Phase.DEFENSE_ROLL

    def roll_defense(self, s: SaintLoState, outcome: int, events: Events) -> None:
        a = s.attack
        assert a is not None
        verdict = compare(faces(a.attack_roll), faces(outcome))
        if events.on:
            events.emit("dice", f"Attack {'-'.join(str(f) for f in faces(a.attack_roll))} against defence "
                        f"{'-'.join(str(f) for f in faces(outcome))}"
                        f"{': a full tie, all dice are rolled again' if verdict == REROLL else ''}.", "Saint-Lo 6.2")
        if verdict == REROLL:
            s.attack = a._replace(attack_roll=0)
            s.phase = Phase.ATTACK_ROLL
            return
        self.resolve(s, verdict, events)

    def resolve(self, s: SaintLoState, verdict: int, events: Events) -> None:
        t = self.t
        a = s.attack
        assert a is not None
        if verdict == ATTACKER:
            if a.kind == TARGET_POST:
                army = a.target // 8
                h = s.post_hex[a.target]
                s.post_at[h] = OFF
                s.post_hex[a.target] = -2
                s.lost_posts[army] += 1
                if events.on:
                    events.emit("post_destroyed", f"The {ARMIES[army]} Command Post on {t.labels[h]} is destroyed "
                                f"({s.lost_posts[army]} lost).", "Saint-Lo 2.4")
                if s.lost_posts[army] >= s.objective:
                    s.winner = 1 - army
                    s.phase = Phase.OVER
                    s.attack = None
                    if events.on:
                        events.emit("game_over", f"{ARMIES[1 - army]} has destroyed {s.lost_posts[army]} Command Posts "
                                    "and wins.", "Saint-Lo 3")
                    return
            else:
                self.remove(s, a.target)
                if events.on:
                    events.emit("destroyed", f"{t.unit_ids[a.target]} is destroyed and withdrawn.", "Saint-Lo 6.2")
        elif events.on:
            events.emit("survives", "The defender survives.", "Saint-Lo 6.2")
        self.end_attack(s, events)

    def end_attack(self, s: SaintLoState, events: Events) -> None:
        a = s.attack
        assert a is not None
        s.attack = None
        s.phase = Phase.ACTIONS
        s.seat = owner_seat(self.t, s, a.attacker)
        self.after_part(s, events)

    def remove(self, s: SaintLoState, u: int) -> None:
        setup.lift(self.t, s, u)
        s.used[u] = False
        drop_unit(s, u)

    # -- 5.4 Reorganization and 8 swaps ----------------------------------------------------------------
    def entry_hexes(self, s: SaintLoState, army: int) -> set[int]:
        """5.4: the hexes adjacent to the army's live Command Posts."""
        out: set[int] = set()
        for k in range(8):
            h = s.post_hex[army * 8 + k]
            if h >= 0:
                out.update(self.t.air_steps[h])
        return out

    def reorganize_choices(self, s: SaintLoState) -> list[str]:
        t = self.t
        seat, army = s.seat, army_of(s, s.seat)
        supplies = s.supplies[army]
        out: list[str] = []
        entry: dict[int, list[int]] = {}
        pos = s.pos
        for k in t.army_kinds[army]:
            if t.kinds[k].cost > supplies or pos[t.kind_units[k][-1]] != OFF and all(pos[u] != OFF for u in t.kind_units[k]):
                continue
            if not kind_for(t, s, seat, k):
                continue
            kind_type = t.kind_type[k]
            hexes = entry.get(kind_type)
            if hexes is None:
                hexes = entry[kind_type] = [h for h in sorted(self.entry_hexes(s, army)) if self.may_enter(s, kind_type, h)]
            out.extend(map(t.buy_ids[k].__getitem__, hexes))
        unit_type, unit_kind, swap_ids = t.unit_type, t.unit_kind, t.swap_ids
        for u in t.army_units[army]:
            if pos[u] != OFF and unit_type[u] != SUPPLY and (s.seats == 2 or kind_for(t, s, seat, unit_kind[u])):
                out.append(swap_ids[u])
        out.extend(play_ids(t, s, seat, army))
        out.append(END)
        return out

    def may_enter(self, s: SaintLoState, kind_type: int, h: int) -> bool:
        """5.4 with 4.3 and 7.5 (NOTES.md): an aircraft on a hex with no aircraft; a land unit on a land hex
        with no land unit and no Command Post; a Supply unit on a road."""
        t = self.t
        if kind_type == AIRCRAFT:
            return s.air_at[h] == OFF
        if not t.land_ok[h] or s.land_at[h] != OFF or s.post_at[h] != OFF:
            return False
        return kind_type != SUPPLY or t.on_road[h]

    def do_reorganize(self, s: SaintLoState, act: Action, events: Events) -> None:
        t = self.t
        army = army_of(s, s.seat)
        if act.kind == END:
            s.ended[s.seat] = True
            other = partner(s, s.seat)
            if not s.ended[other]:
                s.seat = other
                return
            self.end_turn(s, events)
            return
        if act.kind == BUY:
            k = t.kind_index[act.subject]
            u = next(u for u in t.kind_units[k] if s.pos[u] == OFF)
            s.supplies[army] -= t.kinds[k].cost
            setup.put(t, s, u, self.hex_of(act.where))
            if events.on:
                events.emit("buy", f"{self.sides[s.seat]} buys {t.unit_ids[u]} for {t.kinds[k].cost} Supplies; it enters "
                            f"on {act.where}.", "Saint-Lo 5.4")
            return
        # SWAP (8): half the total cost swapped this phase, rounded down
        u = t.unit_index[act.subject]
        before = s.swapped[army] // t.rules.swap_divisor
        s.swapped[army] += t.cost[u]
        gain = s.swapped[army] // t.rules.swap_divisor - before
        s.supplies[army] += gain
        self.remove(s, u)
        if events.on:
            events.emit("swap", f"{self.sides[s.seat]} swaps {t.unit_ids[u]} (cost {t.cost[u]}) for {gain} Supplies.",
                        "Saint-Lo 8")

    def end_turn(self, s: SaintLoState, events: Events) -> None:
        """The turn ends: the Battle Reports' events end (9); the other army's turn."""
        s.effects = ()
        s.active = 1 - s.active
        self.start_turn(s, events)


class SaintLoTeamRules(SaintLoRules):
    """The four-player variant (10): two teams of two, Player A infantry and aircraft, Player B artillery
    and tanks, Supply units and Supplies shared."""

    info = GameInfo(id="saintlo-teams", title="Panzer Saint-Lo 1944 (4 players)", scenarios=("standard",),
                    sides=TEAM_SIDES, teams=(("Allied", TEAM_SIDES[:2]), ("Axis", TEAM_SIDES[2:])))
    seats = 4


def parse_options(options: dict[str, Any] | None) -> tuple[int, int]:
    """3: the objective (4, or 6 or 8 for a longer game); `turn_limit`: turns each army plays before a draw
    (0, the rulebook's: none; for simulations)."""
    options = dict(options or {})
    objective = options.pop("objective", 4)
    turn_limit = options.pop("turn_limit", 0)
    if options:
        raise WarroomError(f"unknown Panzer Saint-Lo option {sorted(options)[0]!r}; options: objective, turn_limit")
    if objective not in OBJECTIVES:
        raise WarroomError(f"objective must be 4, 6 or 8 Command Posts (Saint-Lo 3), not {objective!r}")
    if not isinstance(turn_limit, int) or isinstance(turn_limit, bool) or turn_limit < 0:
        raise WarroomError(f"turn_limit must be a whole number of turns, 0 for none, not {turn_limit!r}")
    return objective, turn_limit


def _no_choices(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    return []


_SEAT = "seat"


@dataclass(frozen=True, slots=True)
class Step:
    """One phase: who acts (CHANCE, a seat, or None once over) and its handlers."""

    phase: Phase
    actor: str | None
    roll: Callable[[SaintLoRules, SaintLoState, int, Events], None] | None = None
    decide: Callable[[SaintLoRules, SaintLoState, Action, Events], None] | None = None
    choices: Callable[[SaintLoRules, SaintLoState], list[str]] = _no_choices


SEQUENCE_OF_PLAY: tuple[Step, ...] = (
    Step(Phase.POSTS, _SEAT, decide=SaintLoRules.do_post, choices=SaintLoRules.post_choices),  # 4.2
    Step(Phase.DEPLOY, _SEAT, decide=SaintLoRules.do_deploy, choices=SaintLoRules.deploy_choices),  # 4.3
    Step(Phase.DRAW, CHANCE, roll=SaintLoRules.draw),  # 4.5, 5.2
    Step(Phase.START_ROLL, CHANCE, roll=SaintLoRules.start_roll),  # 4
    Step(Phase.DISCARD, _SEAT, decide=SaintLoRules.do_discard, choices=SaintLoRules.discard_choices),  # 5.2
    Step(Phase.WINDOW, _SEAT, decide=SaintLoRules.do_pass, choices=SaintLoRules.window_choices),  # 9
    Step(Phase.ACTIONS, _SEAT, decide=SaintLoRules.do_action, choices=SaintLoRules.action_choices),  # 5.3, 6
    Step(Phase.SUPPORT, _SEAT, decide=SaintLoRules.do_support, choices=SaintLoRules.support_choices),  # 7.3
    Step(Phase.SUPPORT_REPLY, _SEAT, decide=SaintLoRules.do_reply, choices=SaintLoRules.reply_choices),  # 10.3
    Step(Phase.ATTACK_ROLL, CHANCE, roll=SaintLoRules.roll_attack),  # 6.2
    Step(Phase.DEFENSE_ROLL, CHANCE, roll=SaintLoRules.roll_defense),  # 6.2
    Step(Phase.REORGANIZE, _SEAT, decide=SaintLoRules.do_reorganize, choices=SaintLoRules.reorganize_choices),  # 5.4, 8
    Step(Phase.OVER, None),
)
"""The setup and the turn as the rulebook orders them (4, 5.1-5.4), one entry per `Phase`. Re-supplying
(5.1) needs no decision: it is carried out as the turn starts (`start_turn`)."""
if [step.phase for step in SEQUENCE_OF_PLAY] != list(Phase):
    raise RuntimeError("SEQUENCE_OF_PLAY must list every Phase in order")
_ACTORS = tuple(step.actor for step in SEQUENCE_OF_PLAY)
