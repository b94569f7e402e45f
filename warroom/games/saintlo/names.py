"""Saint-Lo in the words players read: counters by their printed name and hex, Battle Reports by their printed
title, a throw by its faces. Every text a player is shown (menus, buttons, the log, the odds, the board's
panel) names things through here; ids (`us_m5.3`, `dug_in`) stay what actions, records and scripts speak.

A counter is its kind's printed name (the Annex's, units.toml) and the hex it stands on: "Tiger I at 1408".
On the board that names one counter: a hex holds one land unit and one aircraft (4.3, 6.1, 7.4), and no kind
is both, so two counters of one kind never share a hex. Both armies print "Infantry" and "Assault infantry";
those names take their army ("Axis Infantry at 1409"), so an attack of one on the other reads plainly. A counter
off the board (bought, swapped, destroyed) is its kind's name alone: the player tells it by nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .attack import target_in
from .state import OFF, TARGET_POST, Attack, SaintLoState
from .tables import Tables

ARMY_WORDS = ("Allied", "Axis")


@cache
def _shared_names(t: Tables) -> frozenset[str]:
    """The kind names printed in both armies (Infantry, Assault infantry)."""
    by_army = [{kind.name for kind in t.kinds if kind.side == side} for side in ("allied", "axis")]
    return frozenset(by_army[0] & by_army[1])


def kind_name(t: Tables, k: int) -> str:
    """Kind k's printed name, with its army where both armies print that name ("Axis Infantry")."""
    kind = t.kinds[k]
    if kind.name in _shared_names(t):
        return f"{ARMY_WORDS[0 if kind.side == 'allied' else 1]} {kind.name}"
    return kind.name


def unit_name(t: Tables, s: SaintLoState, u: int) -> str:
    """Counter u as a player names it: "Tiger I at 1408" on the board, "Tiger I" off it."""
    name = kind_name(t, t.unit_kind[u])
    here = s.pos[u]
    return f"{name} at {t.labels[here]}" if here >= 0 else name


def unit_id_name(t: Tables, s: SaintLoState, uid: str) -> str:
    """The counter an id names, in words; an id naming no counter is quoted back as it came."""
    u = t.unit_index.get(uid)
    return unit_name(t, s, u) if u is not None else repr(uid)


def post_name(t: Tables, s: SaintLoState, post: int) -> str:
    """Command Post `post` (0..15): "the Axis Command Post of defence 5 at 1409" (2.4)."""
    army, k = divmod(post, 8)
    here = s.post_hex[post]
    at = f" at {t.labels[here]}" if here >= 0 else ""
    return f"the {ARMY_WORDS[army]} Command Post of defence {t.post_values[army][k]}{at}"


def target_name(t: Tables, s: SaintLoState, attack: Attack) -> str:
    """What an attack is made on: a counter or a Command Post (6.2)."""
    if attack.kind == TARGET_POST:
        return post_name(t, s, attack.target)
    return unit_name(t, s, attack.target) if attack.target != OFF else "nothing"


def attack_target(t: Tables, s: SaintLoState, uid: str, where: str) -> str:
    """What an attack id's hex holds for its unit (6.2, 7.4): "M5 at 1409", "the Axis Command Post of defence
    5 at 1409"; the hex alone where it holds nothing the unit may attack (an id not legal now)."""
    u, h = t.unit_index.get(uid), t.hex_of.get(where)
    if u is None or h is None or s.pos[u] == OFF:
        return where
    a = target_in(t, s, u, h)
    return where if a.target == OFF else target_name(t, s, a)


def card_name(t: Tables, army: int, card_id: str) -> str:
    """A Battle Report's printed title in `army`'s deck (the decks title some cards differently: `dug_in` is
    the Allies' "Hedgerow Position", the Axis's "Dug In"); an id of no card is quoted back."""
    c = t.card_index[army].get(card_id)
    return t.cards[army][c].name if c is not None else repr(card_id)


def dice_words(faces: Sequence[int]) -> str:
    """A throw as the dice lie, highest first: "6", "6 and 2", "6, 3 and 1"; "no dice" for none."""
    words = [str(face) for face in faces]
    if not words:
        return "no dice"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"
