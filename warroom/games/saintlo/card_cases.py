"""The Battle Reports the defending army may still play against a declared attack (9), read only from what the
attacker may know: the defending army's deck (the same 24 for everyone, 2), its discard pile (public: a card
played is read out loud, 9) and how many cards its seats hold (seen). Its hands are never looked at.

A card the defender may hold is any of its deck's not yet on the discard pile. Of those, the plays that change
this battle's dice (a stat of the attacker, of the unit attacked or of a supporting artillery unit; an attack
or a support forbidden) are found by applying each, alone, to a copy of the cards in play (effects.stat and
attack.attack_dice, the same lookups the dice use); every combination of them that the hand size and the
copies left allow is then weighed exactly (odds 6.2, full ties re-rolled). The attacker's own replies (a
round of its own that the defender's card opens, reports.py) are its own choice and not counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from . import attack as attacks
from .effects import card_targets, playable
from .seats import ARMIES, seats_of
from .state import OFF, Attack, SaintLoState
from .tables import SUPPLIES, Tables


@dataclass(frozen=True, slots=True)
class Play:
    """One Battle Report of the defending army played on `unit` (OFF: a general card), and how often at most."""

    card: int
    unit: int
    copies: int


@dataclass(frozen=True, slots=True)
class Case:
    """The attack's chance if the defender plays `plays` ((card, unit) each once; () for none)."""

    plays: tuple[tuple[int, int], ...]
    attack_dice: int
    defense_dice: int
    destroyed: Fraction


def unseen_copies(t: Tables, s: SaintLoState, army: int) -> list[int]:
    """Per distinct card of `army`'s deck: the copies not on its discard pile (public), in a hand or the deck."""
    return [n - d for n, d in zip(t.deck_counts[army], s.discard[army], strict=True)]


def hand_size(s: SaintLoState, army: int) -> int:
    """The cards `army`'s seats hold together (the backs everyone sees)."""
    return sum(len(s.hands[seat]) for seat in seats_of(s, army))


def _dice(t: Tables, s: SaintLoState, a: Attack, effects: tuple[tuple[int, int, int], ...]) -> tuple[int, int]:
    """Both sides' dice with `effects` as the cards in play (the state is restored)."""
    kept = s.effects
    s.effects = effects
    try:
        return attacks.attack_dice(t, s, a), attacks.defense_dice(t, s, a)
    finally:
        s.effects = kept


def relevant_plays(t: Tables, s: SaintLoState, a: Attack) -> list[Play]:
    """The plays of the defending army that change this battle's dice on their own, with the copies of each
    card it may still hold (at most the cards in its hands)."""
    army = 1 - t.unit_army[a.attacker]
    held = hand_size(s, army)
    if held == 0:
        return []
    left = unseen_copies(t, s, army)
    base = _dice(t, s, a, s.effects)
    involved = {a.attacker, *a.supporters} | ({a.target} if not a.kind else set())
    out = []
    for c, card in enumerate(t.cards[army]):
        if left[c] <= 0 or card.kind == SUPPLIES or not playable(t, s, army, c):
            continue
        chosen = card_targets(t, s, army, c)
        units = [OFF] if chosen is None else [u for u in chosen if u in involved]
        for u in units:
            if _dice(t, s, a, (*s.effects, (army, c, u))) != base:
                out.append(Play(c, u, min(left[c], held)))
    return out


def _combinations(plays: list[Play], left: dict[int, int], room: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every multiset of `plays` within `room` cards in all and the copies `left` of each card."""
    if not plays:
        yield ()
        return
    first, rest = plays[0], plays[1:]
    for k in range(min(first.copies, left[first.card], room) + 1):
        after = {**left, first.card: left[first.card] - k}
        for tail in _combinations(rest, after, room - k):
            yield ((first.card, first.unit),) * k + tail


def cases(t: Tables, s: SaintLoState, a: Attack) -> list[Case]:
    """The attack's exact chance for each combination of Battle Reports the defender may still play, the case
    with none first, then by the cards played; combinations that leave the dice as a shorter one does are
    kept once (the shorter)."""
    from .calculator import win_fraction

    army = 1 - t.unit_army[a.attacker]
    plays = relevant_plays(t, s, a)
    left = {p.card: p.copies for p in plays}
    seen: set[tuple[int, int]] = set()
    out = []
    for combo in sorted(_combinations(plays, left, hand_size(s, army)), key=lambda c: (len(c), c)):
        dice = _dice(t, s, a, (*s.effects, *((army, c, u) for c, u in combo)))
        if dice in seen:
            continue
        seen.add(dice)
        out.append(Case(combo, dice[0], dice[1], win_fraction(*dice) if dice[0] > 0 else Fraction(0)))
    return out


def play_words(t: Tables, army: int, plays: tuple[tuple[int, int], ...], unit_words: Callable[[int], str]) -> str:
    """ "Hedgerow Position on Panther Ausf. A at 1408 and Jammed Radios", or "no Battle Report": the cards by their
    printed titles, the units as `unit_words` names them."""
    if not plays:
        return "no Battle Report"
    words = [t.cards[army][c].name + (f" on {unit_words(u)}" if u != OFF else "") for c, u in sorted(set(plays))]
    counts = [plays.count(p) for p in sorted(set(plays))]
    named = [w if n == 1 else f"{w} (x{n})" for w, n in zip(words, counts, strict=True)]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def defender_name(t: Tables, a: Attack) -> str:
    """The army the attack is made against, as a sentence names it ("Axis army")."""
    return f"{ARMIES[1 - t.unit_army[a.attacker]]} army"


__all__ = ["Case", "Play", "cases", "defender_name", "hand_size", "play_words", "relevant_plays", "unseen_copies"]
