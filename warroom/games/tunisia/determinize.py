"""Tunisia's determinization for search (6.0E): a state a side cannot tell from the real one, with what lies
beneath the top of each unexamined enemy stack dealt again from what that side can see.

What a side sees (position.observation): its own pieces, every box and the dead pile, and on the map each enemy
stack's top piece, with the number beneath it where no friendly unit is adjacent. So it knows *which* enemy
pieces are hidden (those on the map it is not shown) and how many lie in each hidden stack, but not which lies
where, nor their step (reduced or not) or whether they moved. A determinization deals those pieces again among
the hidden stacks, each where the rules allow it (6.0: one unit, two support assets or three with an air asset;
an air asset only on an airfield; the top stays the top: a unit, else the first support asset in counter
order), and draws each one's step. It reads only what the side sees (the hidden pieces as a set, the stacks'
sizes and tops), so positions the side cannot tell apart give the same deal for the same random numbers.
"""

from __future__ import annotations

from functools import cache
from random import Random

from .catalog import SIDE_NAMES
from .position import hidden_stacks
from .rules import TunisiaRules
from .stacking import fits
from .state import Phase, TunisiaState

REDUCED_CHANCE = 0.25
"""How often a hidden two-step support asset is drawn reduced (a guess: most support assets are at full strength)."""


@cache
def _rules() -> TunisiaRules:
    return TunisiaRules()


def _deal(
    rules: TunisiaRules, slots: list[tuple[int, int, int]], pool: list[int], exchanging: bool = False
) -> dict[int, list[int]] | None:
    """Hex -> pieces: each slot (hex, top, how many) filled from `pool` in its order, backtracking where the
    rules forbid a placement; None if nothing fits (never for a real position, whose own deal fits).
    `exchanging`: the stacks' side is in its Movement Phase, where a second unit may stand beneath a unit
    until one of them leaves (6.0D)."""
    cat, airfields = rules.cat, rules.board.airfields
    is_unit = cat.is_unit
    out: dict[int, list[int]] = {}

    def allowed(piece: int, hex_: int, top: int, chosen: list[int]) -> bool:
        if cat.is_air[piece] and hex_ not in airfields:
            return False
        if not is_unit[top] and piece < top:  # the top of a stack without a unit is its first support asset
            return False
        if is_unit[piece]:  # beneath a unit, mid-exchange only, one at most, mended by its leaving, and
            # after the top in counter order (position.top_of_stack: the first unit of a stack is its top)
            return exchanging and is_unit[top] and piece > top and not any(is_unit[c] for c in chosen)
        return fits(cat, [top, *(c for c in chosen if not is_unit[c]), piece])

    def fill(k: int, left: list[int]) -> bool:
        if k == len(slots):
            return True
        hex_, top, count = slots[k]

        def pick(chosen: list[int], rest: list[int], start: int) -> bool:
            if len(chosen) == count:
                out[hex_] = chosen
                return fill(k + 1, rest)
            for i in range(start, len(rest)):
                piece = rest[i]
                if allowed(piece, hex_, top, chosen) and pick([*chosen, piece], rest[:i] + rest[i + 1 :], i):
                    return True
            return False

        return pick([], left, 0)

    return out if fill(0, pool) else None


def determinize(state: TunisiaState, side: str, rng: Random) -> TunisiaState:
    """A state `side` cannot tell from `state`: the pieces beneath unexamined enemy stacks dealt again (6.0E)."""
    rules = _rules()
    cat = rules.cat
    world = state.clone()
    world.legal, world.reach = None, {}
    stacks = hidden_stacks(rules, state, SIDE_NAMES.index(side))
    if not stacks:
        return world
    slots = [(where, top, len(under)) for where, (top, under) in sorted(stacks.items())]
    pool = sorted(p for _, under in stacks.values() for p in under)
    for p in pool:  # what the side cannot see of them: drawn afresh
        world.reduced[p] = cat.steps[p] == 2 and rng.random() < REDUCED_CHANCE
        world.moved[p], world.attacked[p], world.mp_spent[p], world.moved_from[p] = False, False, 0.0, -1
    order = pool[:]
    rng.shuffle(order)
    exchanging = state.phase == Phase.MOVEMENT and state.player != SIDE_NAMES.index(side)
    deal = _deal(rules, slots, order, exchanging)
    if deal is None:  # cannot happen for a legal position; keep the state's own places
        return world
    for where, pieces in deal.items():
        for p in pieces:
            world.loc[p] = where
    return world


__all__ = ["determinize"]
