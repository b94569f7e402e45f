"""Tunisia's legal choices: the action ids of each step that a side decides (the Ruleset's legal list).

One function a step, found by phase (`legal_choices`); the Movement Phase's (`move_choices`: every move of
every piece that may still move, kept to 6.0D's stacking by overstack.py) and the Attack Phase's
(`attack_choices`) are the ones random playouts and search spend their time in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from . import arrivals, breakthrough
from .actions import END, NO_ADVANCE, NO_AIR
from .air import air_in_range, base_options
from .catalog import Catalog
from .combat import targets
from .losses import loss_candidates
from .movement import Moves, enemy_occupied, moves_of
from .overstack import Closure, ReachOf
from .replacements import rebuild_options, replace_options
from .retreat import retreat_options
from .sequence import ACTOR, DICE, NOBODY
from .setup import setup_options
from .stacking import occupants
from .state import RETURN_TO_BASE, Phase, TunisiaState
from .zoc import enemy_zoc

if TYPE_CHECKING:
    from .rules import TunisiaRules


def legal_choices(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    """Every legal action id of the step `s` stands at (none where the dice act or the game is over)."""
    choose = _CHOICES.get(s.phase)
    return choose(rules, s) if choose is not None else ()


# -- 8.0: the Movement Phase ----------------------------------------------------------------------------------
def move_choices(rules: TunisiaRules, s: TunisiaState) -> list[str]:
    """8.0: every piece that may still move, to every hex it can reach and end in; then `end` when the
    phase may end (6.0D: no hex overstacked; overstack.py for the moves into a full hex)."""
    cat = rules.cat
    side = s.player
    units_at, full_for_support, overstacked, pieces = _friendly_stacks(cat, s)
    cache: dict[int, Moves] = s.reach
    if any(q not in cache for q in pieces):  # the enemy stands still: computed once a phase per piece
        ezoc, blocked = enemy_zoc(cat, s, side), enemy_occupied(cat, s, side)
    else:
        ezoc = blocked = set()
    movers = [(q, moves_of(cat, s, q, ezoc, blocked)) for q in pieces]

    def reach_of(r: int) -> Collection[int]:
        return cache[r].reach  # the phase's reach of an unmoved piece, just made

    closure: Closure | None = None
    if overstacked:
        closure = Closure(cat, s, reach_of, units_at, full_for_support)
    if closure is None or not closure.over:
        return _moves_keeping_the_limit(cat, s, movers, units_at, full_for_support, closure, reach_of)
    return _moves_mending(cat, s, movers, units_at, full_for_support, closure)


def _friendly_stacks(cat: Catalog, s: TunisiaState) -> tuple[set[int], set[int], bool, list[int]]:
    """6.0: the phasing side's hexes a moving unit (one there already), or a moving non-air support asset (two
    there, three with an air asset), would overstack; whether a hex is overstacked now (6.0D); and the pieces
    that may still move (8.1A-B: not an air asset, not moved yet)."""
    loc, moved = s.loc, s.moved
    unit_kind, air_kind = cat.is_unit, cat.is_air
    units_at: set[int] = set()
    supports_at: dict[int, int] = {}
    air_at: set[int] = set()
    pieces = []
    doubled = False  # two units in one hex: a Movement Phase's overstack (6.0D)
    for q in cat.by_side[s.player]:
        h = loc[q]
        if h < 0:
            continue
        if unit_kind[q]:
            if h in units_at:
                doubled = True
            units_at.add(h)
        else:
            supports_at[h] = supports_at.get(h, 0) + 1
            if air_kind[q]:
                air_at.add(h)
                continue
        if not moved[q]:
            pieces.append(q)  # 8.1A-B: not an air asset, not moved yet
    full_for_support = {h for h, n in supports_at.items() if n >= (3 if h in air_at else 2)}
    overstacked = doubled or any(n > (3 if h in air_at else 2) for h, n in supports_at.items())
    return units_at, full_for_support, overstacked, pieces


def _moves_keeping_the_limit(
    cat: Catalog,
    s: TunisiaState,
    movers: list[tuple[int, Moves]],
    units_at: set[int],
    full_for_support: set[int],
    closure: Closure | None,
    reach_of: ReachOf,
) -> list[str]:
    """No hex overstacked: every move, those into a full hex only while a chain of the unmoved pieces can mend
    it (6.0D, overstack.py), and `end`."""
    unit_kind = cat.is_unit
    out: list[str] = []
    for q, moves in movers:
        full = (units_at if unit_kind[q] else full_for_support) & moves.hexes
        if full:
            if closure is None:
                closure = Closure(cat, s, reach_of, units_at, full_for_support)
            full = closure.closed_into_full(q, full)  # 6.0D: open while a chain can mend it
        out.extend(moves.ids_avoiding(full) if full else moves.ids)
    out.append(END)
    return out


def _moves_mending(
    cat: Catalog,
    s: TunisiaState,
    movers: list[tuple[int, Moves]],
    units_at: set[int],
    full_for_support: set[int],
    closure: Closure,
) -> list[str]:
    """A hex x overstacked (6.0D): the moves that keep x mendable (overstack.py), and no `end`."""
    unit_kind, loc = cat.is_unit, s.loc
    x = closure.over[0]
    critical = closure.critical_exits()
    out: list[str] = []
    for q, moves in movers:
        by_hex = moves.by_hex
        full = units_at if unit_kind[q] else full_for_support
        if loc[q] == x:
            if closure.resolves(q):  # its leaving mends x: any hex it fits in, the full ones checked
                out.extend([by_hex[d] for d in moves.reach if d not in full or closure.allows(q, d)])
            else:  # a piece of the other kind (a unit, a support asset): x's chains are not its own
                out.extend(moves.ids_avoiding(full & moves.hexes))
            continue
        hexes = moves.hexes
        closed = full & hexes  # a second hex overstacked
        for d in (*(critical or ()), x):
            if d in hexes and d not in closed and not closure.allows(q, d):
                closed.add(d)  # it would fill the one hex with room x's chains come to, or crowd x
        out.extend(moves.ids_avoiding(closed) if closed else moves.ids)
    return out


def _movement(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    return tuple(move_choices(rules, s))


# -- 7.2, 15.0: the Attack Phase and a breakthrough --------------------------------------------------------------
def attack_choices(rules: TunisiaRules, s: TunisiaState, attackers: list[int]) -> list[str]:
    """7.2, 11.1: each unit that may attack, against each adjacent enemy hex, alone or with one air asset
    in range (7.3A-B)."""
    cat, labels = rules.cat, rules.labels
    occ = occupants(s)
    out: list[str] = []
    for u in attackers:
        where = s.loc[u]
        if where < 0 or not cat.is_unit[u]:
            continue
        hexes = targets(cat, s, u, occ)
        if not hexes:
            continue
        planes = air_in_range(cat, s, s.player, where)
        for t in hexes:
            base = f"attack {labels[where]} {labels[t]}"
            out.append(base)
            out.extend(f"{base} +air {cat.ids[a]}" for a in planes)
    return out


def _attack(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    return (*attack_choices(rules, s, [p for p in rules.cat.by_side[s.player] if not s.attacked[p]]), END)


def _breakthrough(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    return (*breakthrough.choices(rules, s), END)


# -- a battle's decisions (7.3-7.5, 13.0-14.0) -------------------------------------------------------------------
def _defensive_air(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    """7.3C-E: one of the defender's air assets in range of the battle hex, or none."""
    cat, b = rules.cat, s.battle
    assert b is not None
    return (
        *(f"air {cat.ids[p]}" for p in air_in_range(cat, s, 1 - s.player, b.target, defending=True)),
        NO_AIR,
    )


def _defender_loss(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    """13.1C: the defender's piece that takes the loss (any ground piece of a lone stack, 12.4)."""
    cat, b = rules.cat, s.battle
    assert b is not None
    pieces = (
        loss_candidates(cat, s, b.target, b.defender)
        if b.defender >= 0
        else [p for p, w in enumerate(s.loc) if w == b.target and not cat.is_air[p]]
    )
    return tuple(f"loss {cat.ids[p]}" for p in pieces)


def _attacker_loss(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    cat, b = rules.cat, s.battle
    assert b is not None
    return tuple(f"loss {cat.ids[p]}" for p in loss_candidates(cat, s, b.origin, b.attacker))


def _retreat(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    """14.1-14.2: the next retreating piece's hexes two away."""
    cat, b = rules.cat, s.battle
    assert b is not None
    piece = s.retreating[0]
    frm = rules.labels[b.target]
    return tuple(
        f"retreat {cat.ids[piece]} {frm} {rules.labels[h]}"
        for h in retreat_options(cat, s, piece, b.target, occupants(s))
    )


def _advance(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    b = s.battle
    assert b is not None
    return f"advance {rules.labels[b.origin]} {rules.labels[b.target]}", NO_ADVANCE


# -- 7.6-7.7: return to base, replacements ------------------------------------------------------------------------
def returning(rules: TunisiaRules, s: TunisiaState) -> list[int]:
    """7.6: the air assets in the Return to Base box of the side returning now (the attacker's, then the
    defender's)."""
    side = s.player if s.phase == Phase.RETURN_ATTACKER else 1 - s.player
    return [p for p in rules.cat.by_side[side] if s.loc[p] == RETURN_TO_BASE]


def _return_to_base(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    cat, labels = rules.cat, rules.labels
    occ = occupants(s)  # 7.6A: any returning asset to any free own airfield, in the order the owner wishes
    return tuple(
        f"base {cat.ids[piece]} {labels[h]}" for piece in returning(rules, s) for h in base_options(cat, s, piece, occ)
    )


def _replacement(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    cat, labels = rules.cat, rules.labels
    out = [f"rebuild {cat.ids[p]}" for p in rebuild_options(cat, s)]
    out += [f"replace {cat.ids[p]} {labels[h]}" for p, h in replace_options(cat, s, occupants(s))]
    return (*out, END)


# -- 16.0, 5.0: placing pieces ---------------------------------------------------------------------------------
def _placement(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    cat, piece = rules.cat, s.placing[0]
    return tuple(f"place {cat.ids[piece]} {rules.labels[h]}" for h in arrivals.placement_options(cat, s, piece))


def _setup(rules: TunisiaRules, s: TunisiaState) -> tuple[str, ...]:
    cat, piece = rules.cat, s.placing[0]
    return tuple(f"place {cat.ids[piece]} {rules.labels[h]}" for h in setup_options(cat, s, piece))


_CHOICES: dict[Phase, Callable[[TunisiaRules, TunisiaState], tuple[str, ...]]] = {
    Phase.MOVEMENT: _movement,
    Phase.ATTACK: _attack,
    Phase.BREAKTHROUGH: _breakthrough,
    Phase.DEFENSIVE_AIR: _defensive_air,
    Phase.DEFENDER_LOSS: _defender_loss,
    Phase.ATTACKER_LOSS: _attacker_loss,
    Phase.RETREAT: _retreat,
    Phase.ADVANCE: _advance,
    Phase.RETURN_ATTACKER: _return_to_base,
    Phase.RETURN_DEFENDER: _return_to_base,
    Phase.REPLACEMENT: _replacement,
    Phase.PLACEMENT: _placement,
    Phase.SETUP: _setup,
}
"""The legal choices of each step a side decides (sequence.py's steps less the dice's and the end)."""

if set(_CHOICES) != {p for p, role in ACTOR.items() if role not in (DICE, NOBODY)}:
    raise RuntimeError("every step a side decides needs its legal choices")

__all__ = ["attack_choices", "legal_choices", "move_choices", "returning"]
