"""Saint-Lo's dice (6.2): one side's throw as a chance outcome, the comparison of two throws, and exact odds.

A throw of n dice is one chance node whose outcome is the multiset of faces, written as the faces sorted
from the highest down and read as a number (6, 5, 5, 1 -> 6551): a person at the table types in what the
dice show, and the odds are exact (multinomial). 6.2 compares the attacker's highest die with the
defender's highest, a tie passes to the next pair, after every compared pair ties the side with more dice
prevails, and a full tie re-rolls all: `compare` says which. `win_probability` is the attacker's chance
over the re-rolls (ties excluded by conditioning), the figure NOTES.md quotes for the Command Posts.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

FACES = 6
ATTACKER, DEFENDER, REROLL = 1, 0, -1


def faces(code: int) -> tuple[int, ...]:
    """The faces a throw's outcome names, highest first (6551 -> (6, 5, 5, 1)); 0 is no dice."""
    return tuple(int(c) for c in str(code)) if code else ()


def encode(dice: tuple[int, ...] | list[int]) -> int:
    """The outcome of a throw showing `dice` (any order): the faces sorted down, as a number."""
    return int("".join(str(d) for d in sorted(dice, reverse=True))) if dice else 0


@cache
def throw_outcomes(n: int) -> tuple[tuple[int, float], ...]:
    """Every multiset of n d6 with its exact probability, in increasing outcome order (one shared tuple)."""
    if n < 1:
        raise ValueError(f"a throw needs at least one die, not {n}")
    total = FACES**n
    out = []
    for combo in combinations_with_replacement(range(1, FACES + 1), n):
        ways = factorial(n)
        for face in set(combo):
            ways //= factorial(combo.count(face))
        out.append((encode(combo), ways / total))
    out.sort()
    return tuple(out)


@cache
def throw_fractions(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """`throw_outcomes` with exact fractions and the faces spelt out (for the exact odds)."""
    total = FACES**n
    out = []
    for combo in combinations_with_replacement(range(1, FACES + 1), n):
        ways = factorial(n)
        for face in set(combo):
            ways //= factorial(combo.count(face))
        out.append((tuple(sorted(combo, reverse=True)), Fraction(ways, total)))
    return tuple(out)


def compare(attack: tuple[int, ...], defense: tuple[int, ...]) -> int:
    """6.2: ATTACKER if the attacker's throw destroys the unit, DEFENDER if it survives, REROLL on a full tie.

    Both throws highest first. Pair by pair the higher die decides; when every pair ties, the side with
    more dice prevails; equal numbers tied throughout are re-rolled."""
    for a, d in zip(attack, defense, strict=False):
        if a != d:
            return ATTACKER if a > d else DEFENDER
    if len(attack) != len(defense):
        return ATTACKER if len(attack) > len(defense) else DEFENDER
    return REROLL


@cache
def win_fraction(attack_dice: int, defense_dice: int) -> Fraction:
    """The exact chance that `attack_dice` dice destroy a unit defending with `defense_dice` (6.2), the
    full ties re-rolled until one side prevails (so the ties' weight is shared out in proportion)."""
    if attack_dice < 1:
        return Fraction(0)
    if defense_dice < 1:
        return Fraction(1)  # 6.2: "the player with most dices rolled will prevail"
    win = lose = Fraction(0)
    for att, pa in throw_fractions(attack_dice):
        for dfn, pd in throw_fractions(defense_dice):
            verdict = compare(att, dfn)
            if verdict == ATTACKER:
                win += pa * pd
            elif verdict == DEFENDER:
                lose += pa * pd
    return win / (win + lose)


def win_probability(attack_dice: int, defense_dice: int) -> float:
    return float(win_fraction(attack_dice, defense_dice))
