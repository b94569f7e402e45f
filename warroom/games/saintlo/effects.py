"""Battle Report effects in play (9): a unit's stats, attributes and forbidden actions with every card
played this turn applied, and which cards a player may play now and on what.

A played card is kept as (army that played it, card index, unit or OFF) until the end of the turn
(9: "Unique and General events last only until the end of the turn"); nothing is written into the
units, so the turn's end only empties the list. A stat never falls below 0 (NOTES.md). A unique card
selects one unit on the board of its types, the player's own (own army, a partner's included: 10.4)
or the enemy's; a general one acts on every unit of its group, including units that enter later in
the turn; a supplies card is always playable.
"""

from __future__ import annotations

from .state import OFF, SaintLoState
from .tables import GENERAL, SUPPLIES, UNIQUE, Card, Tables


def applies(t: Tables, card: Card, played_by: int, unit_target: int, u: int) -> bool:
    """Whether a card played by army `played_by` (on `unit_target`, if unique) acts on unit u."""
    if card.kind == UNIQUE:
        return unit_target == u
    if card.kind == GENERAL:
        return (t.unit_army[u] == played_by) == card.own and t.unit_type[u] in card.types
    return False


def stat(t: Tables, s: SaintLoState, u: int, which: int) -> int:
    """Unit u's stat (tables.STATS index) with the turn's Battle Reports applied, never below 0."""
    value = t.base[u][which]
    if s.effects:
        for army, c, target in s.effects:
            card = t.cards[army][c]
            if card.mods and applies(t, card, army, target, u):
                for stat_index, by in card.mods:
                    if stat_index == which:
                        value += by
    return value if value > 0 else 0


def forbidden(t: Tables, s: SaintLoState, u: int, action: str) -> bool:
    """Whether a Battle Report forbids unit u to `action` ("move", "attack", "support") this turn."""
    if s.effects:
        for army, c, target in s.effects:
            card = t.cards[army][c]
            if action in card.forbids and applies(t, card, army, target, u):
                return True
    return False


def granted(t: Tables, s: SaintLoState, u: int, attribute: str) -> bool:
    """Whether a Battle Report grants unit u `attribute` (cross_rivers) this turn."""
    if s.effects:
        for army, c, target in s.effects:
            card = t.cards[army][c]
            if attribute in card.grants and applies(t, card, army, target, u):
                return True
    return False


def affected_units(t: Tables, s: SaintLoState) -> frozenset[int]:
    """The units some Battle Report in play changes (a stat, an attribute, a forbidden action): every other
    unit acts as if none were in play. Remembered per set of cards in play (a few a turn)."""
    effects = s.effects
    if not effects:
        return frozenset()
    found = t.affected_cache.get(effects)
    if found is None:
        changed: set[int] = set()
        for army, c, target in effects:
            card = t.cards[army][c]
            if card.mods or card.forbids or card.grants:
                changed.update(u for u in range(t.n_units) if applies(t, card, army, target, u))
        if len(t.affected_cache) >= 10_000:
            t.affected_cache.clear()
        found = t.affected_cache[effects] = frozenset(changed)
    return found


def card_targets(t: Tables, s: SaintLoState, army: int, c: int) -> list[int] | None:
    """The units a card of `army`'s deck may select now (unique), or None for a card with no target.

    An empty list: a unique card with no unit to select, not playable now."""
    if t.cards[army][c].kind != UNIQUE:
        return None
    pos = s.pos
    return [u for u in _candidates(t, army, c)[0] if pos[u] != OFF]


def _candidates(t: Tables, army: int, c: int) -> tuple[tuple[int, ...], dict[int, str]]:
    """The units of the side a card of `army`'s deck acts on whose type it names, on the board or not, and
    the card's play id for each (a unique card selects one): fixed by the tables, so made once a card."""
    found = t.card_candidates.get((army, c))
    if found is None:
        card = t.cards[army][c]
        side = army if card.own else 1 - army
        units = tuple(u for u in t.army_units[side] if t.unit_type[u] in card.types)
        found = t.card_candidates[army, c] = (units, {u: f"play {card.id} {t.unit_ids[u]}" for u in units})
    return found


def playable(t: Tables, s: SaintLoState, army: int, c: int) -> bool:
    """9: a card is played for its event: a unique one needs a unit to select, a general one a unit of its
    group on the board (else it would do nothing), a supplies one is always playable."""
    card = t.cards[army][c]
    if card.kind == SUPPLIES:
        return True
    if card.kind == UNIQUE:
        return bool(card_targets(t, s, army, c))
    pos = s.pos
    return any(pos[u] != OFF for u in _candidates(t, army, c)[0])


def play_ids(t: Tables, s: SaintLoState, seat: int, army: int) -> list[str]:
    """Every `play` id the seat's hand offers now (one per distinct card, and target for a unique one): 9 as
    `card_targets` and `playable` read it, written out here since every list of a turn asks."""
    out: list[str] = []
    seen = -1
    cards, pos = t.cards[army], s.pos
    for c in s.hands[seat]:
        if c == seen:
            continue
        seen = c
        kind = cards[c].kind
        if kind == SUPPLIES:
            out.append(t.play_ids[army][c])
            continue
        units, ids = _candidates(t, army, c)
        if kind == UNIQUE:
            out.extend([ids[u] for u in units if pos[u] != OFF])
        else:
            for u in units:
                if pos[u] != OFF:
                    out.append(t.play_ids[army][c])
                    break
    return out


def has_playable(t: Tables, s: SaintLoState, seat: int, army: int) -> bool:
    """Whether the seat holds a card it may play now (9): known to the seat alone, so never what opens a window
    (`may_hold_playable` does); a seat in a window without one may only pass."""
    seen = -1
    for c in s.hands[seat]:
        if c != seen and playable(t, s, army, c):
            return True
        seen = c
    return False


def may_hold_playable(t: Tables, s: SaintLoState, seat: int, army: int) -> bool:
    """Whether, for all that anyone but the seat knows, it may hold a card it could play now: it holds a card,
    and some card of its army's deck not all of whose copies lie on the (public) discard pile is playable now.

    Reads only what every seat sees (the hand's size, the discard pile, the board), never the hand: a window
    opened on this tells nobody what the hand holds (4.5: hands are taken "without showing them"; NOTES.md).
    A seat asked with nothing it can play has only `pass` (`has_playable` is False)."""
    if not s.hands[seat]:
        return False
    counts, pile = t.deck_counts[army], s.discard[army]
    return any(counts[c] > pile[c] and playable(t, s, army, c) for c in range(len(counts)))


def drop_unit(s: SaintLoState, u: int) -> None:
    """A unit leaves the board: the unique events on it end with it (a counter bought back is a new unit)."""
    if s.effects and any(target == u for _, _, target in s.effects):
        s.effects = tuple(e for e in s.effects if e[2] != u)


__all__ = [
    "OFF",
    "affected_units",
    "applies",
    "card_targets",
    "drop_unit",
    "forbidden",
    "granted",
    "has_playable",
    "may_hold_playable",
    "play_ids",
    "playable",
    "stat",
]
