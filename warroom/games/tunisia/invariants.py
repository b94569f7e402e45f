"""What the Tunisia rulebook guarantees of every position; the random-game tests check these after every
step. Each check names the rule it follows; `problems` lists what is wrong (empty when sound)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from .catalog import SIDE_NAMES
from .movement import Moves, compute_reach, enemy_occupied, movement_allowance
from .overstack import Closure, leavers
from .stacking import fits, occupants
from .state import OFF_MAP, REMOVED, RETURN_TO_BASE, Phase
from .supply import supplied_hexes
from .zoc import enemy_zoc

if TYPE_CHECKING:
    from .rules import TunisiaRules
    from .state import TunisiaState


def problems(rules: TunisiaRules, s: TunisiaState, previous: TunisiaState | None = None) -> list[str]:
    """Every broken guarantee of `s` (`previous`: the position one step before, None at the start)."""
    found: list[str] = []
    if not 1 <= s.turn <= rules.last_turn:
        found.append(f"turn {s.turn} is outside 1..{rules.last_turn}")
    if (s.phase == Phase.OVER) != (s.outcome is not None):
        found.append("the game is over exactly when it has a result (4.0)")
    found += _hex_problems(rules, s)
    found += _piece_problems(rules, s)
    if s.phase == Phase.MOVEMENT:
        found += _movement_problems(rules, s)
    if previous is not None:
        found += _step_problems(rules, s, previous)
    return found


def _hex_problems(rules: TunisiaRules, s: TunisiaState) -> list[str]:
    """8.7A, 6.0, 7.6B: each occupied hex on land, of one side, not overstacked, with at most one air asset and
    that one on an airfield."""
    cat, board = rules.cat, rules.board
    found: list[str] = []
    occ = occupants(s)
    land, airfields, side_of, is_air = board.land, board.airfields, cat.side, cat.is_air
    for h, here in occ.items():
        if len(here) == 1 and not is_air[here[0]]:
            if h not in land:
                found.append(f"a piece at sea in {board.label(h)} (8.7A)")
            continue
        label = board.label(h)
        if h not in land:
            found.append(f"pieces at sea in {label} (8.7A)")
        if len({side_of[p] for p in here}) > 1:
            found.append(f"both sides in hex {label} (8.7A)")
        if not fits(cat, here) and not _moving_through(rules, s, h, here, occ):
            found.append(f"hex {label} is overstacked: {[cat.ids[p] for p in here]} (6.0)")
        air = [p for p in here if is_air[p]]
        if air and (len(air) > 1 or h not in airfields):
            found.append(f"air assets {[cat.ids[p] for p in air]} in {label}: one a hex, on an airfield (7.6B)")
    return found


def _piece_problems(rules: TunisiaRules, s: TunisiaState) -> list[str]:
    """16.0C, 17.0, 5.1A, 13.1: each piece removed only if it may be, in play only when it may be, reduced only
    where it has a reduced side to show."""
    cat = rules.cat
    found: list[str] = []
    loc, reduced = s.loc, s.reduced
    for p in range(cat.n):
        where = loc[p]
        if where == REMOVED and p != cat.rommel and p not in cat.swap:
            found.append(
                f"{cat.ids[p]} removed from the game: only swapped II Corps pieces and Rommel are (16.0C, 17.0)"
            )
        elif where >= 0:
            if cat.two_star[p] and not s.patton_arrived:
                found.append(f"{cat.ids[p]} is in play before Patton (5.1A)")
            if cat.is_battlegroup[p] and s.origin[p] < 0:
                found.append(f"{cat.ids[p]} stands for no unit (13.1A)")
        if reduced[p] and ((where < 0 and where != RETURN_TO_BASE and p not in s.placing) or cat.steps[p] == 1):
            found.append(f"{cat.ids[p]} is reduced off the map or has no reduced side (13.1)")
    return found


def _step_problems(rules: TunisiaRules, s: TunisiaState, previous: TunisiaState) -> list[str]:
    """What one step may not undo: the turn never goes back, no eliminated unit comes back (7.7E), and a Supply
    Phase just played applied (7.8C)."""
    cat = rules.cat
    found: list[str] = []
    if s.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {s.turn}")
    before, loc = previous.loc, s.loc
    for p in rules.ordinary_units:  # 7.7E: no eliminated unit ever comes back
        if before[p] < OFF_MAP and loc[p] >= OFF_MAP:
            found.append(f"eliminated unit {cat.ids[p]} came back (7.7E)")
    if s.supply_checks != previous.supply_checks:
        found += supply_problems(rules, s, previous)
    return found


def _moving_through(rules: TunisiaRules, s: TunisiaState, h: int, here: list[int], occ: dict[int, list[int]]) -> bool:
    """6.0D (overstack.py): in its Movement Phase the phasing side may have one hex overstacked, which the pieces
    that have yet to move can still mend, by one move or a chain of them (and keeps a piece that has yet to move
    if a move ends the game)."""
    cat = rules.cat
    if s.phase not in (Phase.MOVEMENT, Phase.OVER) or any(cat.side[p] != s.player for p in here):
        return False
    if sum(1 for g, there in occ.items() if not fits(cat, there)) != 1:
        return False
    mending = leavers(cat, s, here)
    if s.phase == Phase.OVER or not mending:
        return bool(mending)
    side = s.player
    zones: tuple[set[int], set[int]] | None = None

    def reach_of(r: int) -> Collection[int]:
        nonlocal zones
        known: Moves | None = s.reach.get(
            r
        )  # the phase's own reach of it, where the legal list was made; else searched
        if known is not None:
            return known.reach
        if zones is None:
            zones = (enemy_zoc(cat, s, side), enemy_occupied(cat, s, side))
        return compute_reach(cat, s, r, zones[0], zones[1])

    return Closure(cat, s, reach_of).closable()


def _movement_problems(rules: TunisiaRules, s: TunisiaState) -> list[str]:
    """8.5-8.7: no move spent more than its MA (doubled for a strategic move, 8.6) but a one-hex move."""
    cat, grid = rules.cat, rules.board.grid
    found = []
    ezoc = enemy_zoc(cat, s, s.player)
    for p in cat.by_side[s.player]:
        if not s.moved[p] or s.loc[p] < 0:
            continue
        ma = movement_allowance(cat, s, p)
        ends_in_ezoc = s.loc[p] in ezoc
        allowance = 2 * ma if cat.is_unit[p] and not ends_in_ezoc and s.moved_from[p] not in ezoc else ma
        one_hex = s.moved_from[p] >= 0 and grid.distance(s.moved_from[p], s.loc[p]) == 1
        if s.mp_spent[p] > allowance and not one_hex:
            found.append(f"{cat.ids[p]} spent {s.mp_spent[p]} MP of {allowance} (8.5-8.7)")
    return found


def supply_problems(rules: TunisiaRules, s: TunisiaState, previous: TunisiaState) -> list[str]:
    """7.8C, just after a Supply Phase (`previous`: the step before it): every piece of the side checked
    that is out of supply has been reduced by it, or eliminated if it was reduced already."""
    cat = rules.cat
    side = previous.player
    supplied = supplied_hexes(cat, s, side)
    found = []
    for p in cat.by_side[side]:
        where = s.loc[p]
        if where < 0 or where in supplied:
            continue
        rebuilt_then_cut = previous.phase == Phase.REPLACEMENT  # a rebuild in the same step flips it back first
        if not s.reduced[p] or (previous.reduced[p] and previous.loc[p] == where and not rebuilt_then_cut):
            found.append(
                f"{SIDE_NAMES[side]} {cat.ids[p]} in {rules.board.label(where)} is out of supply and was not "
                "reduced or eliminated in its Supply Phase (7.8C)"
            )
    return found
