"""Battle arithmetic shared by the rules and the odds: dice thrown, casualties, units lost.

Rule citations name the rulebook's sections (it has no numbers): "Patton: Battles", "Patton: Casualties".
"""

from __future__ import annotations

MAX_DICE = 5  # "The maximum number of dice that a player can throw is 5"


def dice_for(armor: int, infantry: int, bonus: int = 0) -> int:
    """Dice a force throws (Patton: Battles).

    1 die per Armored Unit, 1 per 2 Infantry Units (a single Infantry Unit adds nothing, so a
    lone defending Infantry Unit throws none), at most 5. `bonus` is the Optional Retreating
    Rule's +2 dice for the side whose town a retreating defender attacks; the cap still holds
    (each player has only 5 dice).
    """
    return min(MAX_DICE, armor + infantry // 2 + bonus)


def casualties_from(dice: list[int] | tuple[int, ...]) -> int:
    """Casualties a throw inflicts (Patton: Casualties).

    One die: a 6 is one casualty. Two or more dice: each double is one, three of a number two,
    four three, five four: k of a number give k-1, so the throw inflicts
    (dice thrown) - (different numbers showing).
    """
    n = len(dice)
    if n == 0:
        return 0
    if n == 1:
        return 1 if dice[0] == 6 else 0
    return n - len(set(dice))


def losses(casualties: int, armor: int, infantry: int) -> tuple[int, int]:
    """(armor, infantry) removed for `casualties` (Patton: Casualties).

    An Infantry Unit for each casualty while there are any; then an Armored Unit for each 2
    casualties left, and a single casualty left over still costs a whole Armored Unit ("does not
    receive change"). Never more than the units there are.
    """
    lost_infantry = min(casualties, infantry)
    left = casualties - lost_infantry
    lost_armor = min(armor, (left + 1) // 2)
    return lost_armor, lost_infantry


def doubles_face(dice: list[int] | tuple[int, ...]) -> int:
    """The number showing at least twice among three reserve dice, or 0 (Reserves: "a double")."""
    a, b, c = dice
    if a in (b, c):
        return a
    if b == c:
        return b
    return 0
