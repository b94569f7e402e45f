"""Saint-Lo's observation as numbers, for the research environments (warroom.envs).

Read from a seat's observation (warroom.games.saintlo.position.observation), never the state, so what the
rules hide stays hidden (4.3, 9, 10.1): the turn, the phase, the army whose turn it is, the seat to act and
the viewer; the options (objective, turn limit); Supplies and Command Posts lost per army; every hex of the
map in the board's order, with the land unit there (army, type, attack, defence and mobility with the
Battle Reports in play, flipped) and the aircraft there (army, air and land attack, defence, flipped), or
only a counter's back during setup (the enemy's face-down units: which army, whether an aircraft); the
Command Posts (where each stands, destroyed or not, and the value on each post hex); each seat's hand
(the viewer's own as counts per Battle Report, the others as their sizes), each deck's size (its contents
only for the omniscient observer), the discard piles (public), the Battle Reports in play per army; the
unit in use, the attack being resolved (attacker, target, the supports, the attacker's throw), the Battle
Report window, the draws still due, the swaps and the setup's counts. Counts are scaled to about [0, 1].

Seats are slots by army and role (10: Player A, Player B), so both ids share one layout and one length:
the two-player game's "Allied" and "Axis" are the slots of Players A, the B slots stay empty. The action
bound and the chance bound are worked out from the data in the docstrings of `MAX_ACTIONS` and
`MOST_DICE`; tests/saintlo/test_encoding.py recomputes both from the tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from math import comb
from typing import Any, NamedTuple

from warroom.engine.vector import Vector

from .board import load_board, load_components, load_units
from .cards import load_cards
from .effects import applies
from .position import ARMY_KEYS
from .state import OFF, PHASE_KEYS
from .tables import (
    AIRCRAFT,
    ARTILLERY,
    ATTACK_STAT,
    DEFENSE_STAT,
    LAND_ATTACK_STAT,
    MOBILITY_STAT,
    SUPPLY,
    TANK,
    Tables,
)
from .tables import INFANTRY as INFANTRY_TYPE

MAX_ACTIONS = 6_400
"""No position offers more legal actions. The largest lists, from the data (units.toml, cards.toml,
board.toml), each an upper bound:
- Movement and Attack (5.3), no unit in use: every unit of the army may move to any hex within its
  mobility (at most the largest hex region of that radius on this board, its own hex excluded), raised
  by the army's own cards (Armoured Thrust +1 on every tank; Forced March +2 on the one unit it helps
  most), and attack any of its 6 neighbours (an aircraft also its own hex); plus a play of each of the 7
  cards of a full hand on each unit it may select, and `end`: 5,397 + 401 + 295 + 1 = 6,094 for the Axis
  (6,004 for the Allies, whose three Jumbos move 3).
- Deployment (4.3): every kind still to deploy on every free hex of the sector its type may take, and the 3
  decisions in bulk (placement.py): at most the Axis's first placement, 2,635 (4 aircraft kinds x 192 sector
  hexes, 10 land kinds x 176 land hexes, 2 Supply kinds x 52 road hexes; `ready`, `sector west`, `sector east`).
- Reorganization (5.4, 8): 16 kinds x 48 hexes next to 8 Command Posts, 55 swaps, 295 plays, `end`: 1,119.
- The others are far smaller (a window: a hand's plays and `pass`; support: 7 artillery, `fire`, plays).
Measured: 60 seeded uniform random games of each id with a turn limit of 2 reached 3,004 (Movement and
Attack, two players; 2,344 for four seats) and 2,632 (the Axis deployment; 2,635 since the decisions in bulk),
so the bound is about twice what random play shows and cannot be exceeded while the data stand."""

MOST_DICE = 23
"""The most dice one throw can have (6.2, 7.3; rule 7 puts no cap on them: NOTES.md): a Tiger I (attack 5)
with both Ace of Tanks (+2 each) throws 9, and all 7 of the army's artillery support it (attack 1 each,
+1 each with Preparatory Barrage), 14 more: 23. Every other attacker throws fewer (a Sherman 8 + 14, an
assault infantry with Hedgerow Assault 3 + 14, an aircraft at most 5 with no support), and the most a
defender throws is 10 (a Jumbo's 6 with both Hedgerow Positions). A card is played once a turn at most
(draws come only at a turn's start, 5.2), so no card counts twice."""

MAX_CHANCE_OUTCOMES = comb(MOST_DICE + 5, 5)
"""98,280: a throw of n dice is one chance node whose outcomes are the multisets of n faces, C(n + 5, 5)
of them (odds.py); a Battle Report draw has at most 19 (the distinct cards of a deck), the starting
player's die 6."""

SHOWN_STATS = (ATTACK_STAT, LAND_ATTACK_STAT, DEFENSE_STAT, MOBILITY_STAT)
"""The stats a hex shows, in tables.STATS order (0..3), so a unit's values list is indexed by the stat."""
SEAT_SLOTS = {"Allied": 0, "Allied A": 0, "Allied B": 1, "Axis": 2, "Axis A": 2, "Axis B": 3}
"""A seat's slot: its army's Player A or B (10); a two-player seat is its army's Player A."""
SLOTS = (0, 1, 2, 3)
LAND_TYPES = (INFANTRY_TYPE, TANK, ARTILLERY, SUPPLY)
OBJECTIVES = (4, 6, 8)
FACES = (1, 2, 3, 4, 5, 6)
TURN_SCALE = 24
"""Player turns as the studies count them (12 a side): turn 24 is 1.0; counts are capped so that a game
with no turn limit stays inside the environments' observation box."""
MOST_TURNS = 40 * TURN_SCALE
MOST_SUPPLIES = 1_000


class Unit(NamedTuple):
    """What the counter shows face up: its army, type and printed values."""

    army: int
    type: int
    attack: int
    land_attack: int
    defense: int
    mobility: int


class Vocabulary(NamedTuple):
    """The fixed orders the vector follows, from the data."""

    tables: Tables
    labels: tuple[str, ...]
    hex_index: dict[str, int]
    units: dict[str, Unit]
    unit_ids: tuple[str, ...]
    artillery: tuple[str, ...]
    post_hexes: tuple[tuple[str, ...], tuple[str, ...]]
    all_post_hexes: tuple[str, ...]
    cards: tuple[str, ...]


@cache
def _vocabulary() -> Vocabulary:
    t = Tables(load_board(), load_units(), load_components(), load_cards())
    labels = tuple(t.labels)
    units = {
        uid: Unit(t.unit_army[u], t.unit_type[u], *(t.base[u][s] for s in SHOWN_STATS))
        for u, uid in enumerate(t.unit_ids)
    }
    posts = (tuple(labels[h] for h in t.post_hexes[0]), tuple(labels[h] for h in t.post_hexes[1]))
    cards = tuple(dict.fromkeys(c.id for deck in t.cards for c in deck))
    return Vocabulary(
        t,
        labels,
        {label: k for k, label in enumerate(labels)},
        units,
        tuple(t.unit_ids),
        tuple(uid for uid in t.unit_ids if units[uid].type == ARTILLERY),
        posts,
        posts[0] + posts[1],
        cards,
    )


def _slot(side: object) -> int | None:
    return SEAT_SLOTS.get(side) if isinstance(side, str) else None


def _counts(cards: Iterable[str] | Mapping[str, int], vocabulary: tuple[str, ...], scale: float) -> list[float]:
    """Counts per card of the vocabulary (a list of ids or an {id: count} mapping), scaled."""
    held = dict(cards) if isinstance(cards, Mapping) else {}
    if not isinstance(cards, Mapping):
        for card in cards:
            held[card] = held.get(card, 0) + 1
    return [held.get(card, 0) / scale for card in vocabulary]


def _effective(voc: Vocabulary, units: Mapping[str, Any], effects: Iterable[Mapping[str, Any]]) -> dict[str, list[int]]:
    """The visible units' attack, land attack, defence and mobility with the Battle Reports in play (9),
    as effects.stat counts them (the same `applies`; a stat never below 0); from the observation's effects
    alone."""
    t = voc.tables
    values = {uid: list(u[2:]) for uid in units if (u := voc.units.get(uid)) is not None}
    for effect in effects:
        army = ARMY_KEYS.index(effect["army"]) if effect.get("army") in ARMY_KEYS else -1
        c = t.card_index[army].get(effect.get("card", "")) if army >= 0 else None
        if c is None:
            continue
        card = t.cards[army][c]
        if not card.mods:
            continue
        target = t.unit_index.get(effect.get("unit") or "", OFF)
        for uid, stats in values.items():
            if applies(t, card, army, target, t.unit_index[uid]):
                for stat, by in card.mods:
                    if stat in SHOWN_STATS:
                        stats[stat] += by
    return {uid: [max(0, x) for x in stats] for uid, stats in values.items()}


class SaintLoEncoding:
    """The ObservationEncoding of warroom.engine.spec for both Saint-Lo ids (one layout, one length)."""

    max_actions = MAX_ACTIONS
    max_chance_outcomes = MAX_CHANCE_OUTCOMES

    def size(self, scenario: str | None) -> int:
        return len(self.encode({}, None, scenario))

    def encode(self, observation: Mapping[str, Any], side: str | None, scenario: str | None) -> list[float]:
        voc = _vocabulary()
        options = observation.get("options") or {}
        turn, limit = int(observation.get("turn") or 0), int(options.get("turn_limit") or 0)
        v = Vector().number(min(turn, MOST_TURNS), TURN_SCALE).number(min(limit, MOST_TURNS), TURN_SCALE / 2)
        v.flag(limit).number(max(0, min(2 * limit - turn, MOST_TURNS)) if limit else 0, TURN_SCALE)
        v.one_hot(options.get("objective"), OBJECTIVES).one_hot(observation.get("phase"), PHASE_KEYS)
        v.one_hot(observation.get("active"), ARMY_KEYS).one_hot(_slot(observation.get("seat")), SLOTS)
        v.one_hot(_slot(side), SLOTS).one_hot(observation.get("winner"), ARMY_KEYS)
        supplies, lost = observation.get("supplies") or {}, observation.get("lost_posts") or {}
        swapped = list(observation.get("swapped") or (0, 0))
        face_down = observation.get("face_down") or {}
        for a, army in enumerate(ARMY_KEYS):
            v.number(min(int(supplies.get(army) or 0), MOST_SUPPLIES), 20).number(lost.get(army), 8)
            # 8: the swaps' total cost this Reorganization; the next swap's Supplies depend on its parity
            total = int(swapped[a]) if a < len(swapped) else 0
            v.number(min(total, 100), 100).flag(total % 2).number(face_down.get(army), 65)
        self._hexes(v, voc, observation)
        self._posts(v, voc, observation.get("posts") or ())
        self._cards(v, voc, observation)
        self._turn_state(v, voc, observation)
        return v.values

    @staticmethod
    def _hexes(v: Vector, voc: Vocabulary, observation: Mapping[str, Any]) -> None:
        """Per hex, in the board's order: the land unit (11 numbers) and the aircraft (7) there."""
        units = observation.get("units") or {}
        stats = _effective(voc, units, observation.get("effects") or ())
        land: list[tuple[Unit, list[int], bool] | None] = [None] * len(voc.labels)
        air: list[tuple[Unit, list[int], bool] | None] = [None] * len(voc.labels)
        for uid, where in units.items():
            unit, h = voc.units.get(uid), voc.hex_index.get(where.get("hex"))
            if unit is not None and h is not None:
                (air if unit.type == AIRCRAFT else land)[h] = (unit, stats[uid], bool(where.get("used")))
        land_backs: list[int | None] = [None] * len(voc.labels)
        air_backs: list[int | None] = [None] * len(voc.labels)
        for army, backs in (observation.get("backs") or {}).items():
            for back in backs:
                h = voc.hex_index.get(back.get("hex"))
                if h is not None:
                    (air_backs if back.get("air") else land_backs)[h] = ARMY_KEYS.index(army)
        for h in range(len(voc.labels)):
            seen, back = land[h], land_backs[h]
            if seen is not None:
                unit, (attack, _, defense, mobility), used = seen
                v.one_hot(unit.army, (0, 1)).flag(False).one_hot(unit.type, LAND_TYPES)
                v.number(attack, 5).number(defense, 6).number(mobility, 9).flag(used)
            else:
                v.one_hot(back, (0, 1)).flag(back is not None).values.extend([0.0] * 8)
            seen, back = air[h], air_backs[h]
            if seen is not None:
                unit, (attack, land_attack, defense, _), used = seen
                v.one_hot(unit.army, (0, 1)).flag(False).number(attack, 5).number(land_attack, 5)
                v.number(defense, 3).flag(used)
            else:
                v.one_hot(back, (0, 1)).flag(back is not None).values.extend([0.0] * 4)

    @staticmethod
    def _posts(v: Vector, voc: Vocabulary, posts: Iterable[Mapping[str, Any]]) -> None:
        """Each of the 16 Command Posts (2.4, 4.2): placed, destroyed, on which of its army's 8 hexes; then
        the defence value on each post hex (0: none there, or destroyed)."""
        listed = list(posts)
        value_at = dict.fromkeys(voc.all_post_hexes, 0)
        for p in range(16):
            post = listed[p] if p < len(listed) else {}
            where = post.get("hex")
            v.flag(where is not None).flag(where == "destroyed").one_hot(where, voc.post_hexes[p // 8])
            if where in value_at:
                value_at[where] = int(post.get("defense") or 0)
        v.values.extend(value_at[h] / 5 for h in voc.all_post_hexes)

    @staticmethod
    def _cards(v: Vector, voc: Vocabulary, observation: Mapping[str, Any]) -> None:
        """Hands per slot (size, and the cards where the viewer may see them), decks (size, and contents for
        the omniscient observer), discard piles (public, 9) and the Battle Reports in play per army."""
        hands: list[Any] = [None] * len(SLOTS)
        for seat, hand in (observation.get("hands") or {}).items():
            slot = _slot(seat)
            if slot is not None:
                hands[slot] = hand
        for hand in hands:
            cards = hand if isinstance(hand, list) else ()
            v.number(len(hand) if isinstance(hand, list) else hand, 7)
            v.values.extend(_counts(cards, voc.cards, 2))
        deck, discard = observation.get("deck") or {}, observation.get("discard") or {}
        played: dict[str, list[str]] = {army: [] for army in ARMY_KEYS}
        for effect in observation.get("effects") or ():
            played.setdefault(effect.get("army"), []).append(effect.get("card"))
        for army in ARMY_KEYS:
            left = deck.get(army)
            contents = left if isinstance(left, Mapping) else {}
            v.number(sum(contents.values()) if isinstance(left, Mapping) else left, 24)
            v.values.extend(_counts(contents, voc.cards, 3))
            pile = discard.get(army) or {}
            v.number(sum(pile.values()), 24).values.extend(_counts(pile, voc.cards, 3))
            v.values.extend(_counts(played[army], voc.cards, 2))

    @staticmethod
    def _turn_state(v: Vector, voc: Vocabulary, observation: Mapping[str, Any]) -> None:
        """The unit in use (5.3), the attack (6.2, 7.3, 10.3), the window (9), the draws, the ended seats and
        the starting player's dice (4)."""
        v.number(observation.get("activations"), 10).one_hot(observation.get("current"), voc.unit_ids)
        v.flag(observation.get("moved")).flag(observation.get("attacked")).flag(observation.get("paid"))
        attack = observation.get("attack") or {}
        post = bool(attack.get("post"))
        v.flag(attack).one_hot(attack.get("attacker"), voc.unit_ids).flag(post).flag(attack.get("air"))
        v.one_hot(None if post else attack.get("target"), voc.unit_ids)
        v.one_hot(attack.get("target") if post else None, range(16))
        v.multi_hot(attack.get("supporters") or (), voc.artillery).multi_hot(attack.get("refused") or (), voc.artillery)
        v.one_hot(attack.get("asked"), voc.artillery)
        roll = str(attack.get("attack_roll") or "")
        v.number(len(roll), MOST_DICE).values.extend(roll.count(str(face)) / 10 for face in FACES)
        window = observation.get("window") or {}
        v.flag(window).multi_hot((_slot(q) for q in window.get("queue") or ()), SLOTS)
        v.one_hot(window.get("then"), PHASE_KEYS).flag(window.get("reply")).flag(window.get("played"))
        v.one_hot(window.get("army"), ARMY_KEYS).one_hot(_slot(window.get("resume")), SLOTS)
        queue = [_slot(q) for q in observation.get("draw_queue") or ()]
        v.number(len(queue), 4).values.extend(queue.count(slot) / 6 for slot in SLOTS)
        ended = list(observation.get("ended") or ())
        seats = SLOTS if len(ended) == len(SLOTS) else SLOTS[::2]  # per seat in the sides' order (2 or 4)
        v.multi_hot((slot for slot, done in zip(seats, ended, strict=False) if done), SLOTS)
        rolls = list(observation.get("start_rolls") or ())
        v.number(rolls[0] if rolls else 0, 6).number(rolls[1] if len(rolls) > 1 else 0, 6)
