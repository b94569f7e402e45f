"""What the Dragoon rulebook guarantees of every position: the conformance suite checks these after
every step of thousands of random games (the spec's `invariants`; tests/test_conformance.py).

Each check names the rule it follows; `problems` lists what is wrong (empty when the position is sound).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import ELIMINATED, IN_BOX, PHASE_KEYS

if TYPE_CHECKING:
    from .board import Board
    from .rules import DragoonRules
    from .state import DragoonState


def problems(ruleset: DragoonRules, state: DragoonState, previous: DragoonState | None = None) -> list[str]:
    """Every broken guarantee of `state` (`previous`: the state one step before, None at the start)."""
    b = ruleset.board
    found: list[str] = []
    _check_markers(b, state, found)
    _check_allied(b, state, found)
    gone = _check_german(b, state, found)
    if previous is not None:
        _check_since(previous, state, gone, found)
    _check_victory(ruleset, state, found)
    return found


def _check_markers(b: Board, state: DragoonState, found: list[str]) -> None:
    """The turn, phase and RP markers within their tracks."""
    if not b.first_turn <= state.turn <= b.last_turn:
        found.append(f"turn {state.turn} is outside {b.first_turn}..{b.last_turn}")
    if not 0 <= state.phase < len(PHASE_KEYS):
        found.append(f"phase {state.phase} is not a phase of the turn")
    if not 0 <= state.rp <= 4:
        found.append(f"{state.rp} RP: Using Action Charts gives 2-4 actions per turn")


def _check_allied(b: Board, state: DragoonState, found: list[str]) -> None:
    """Resolving Unit Attacks: "Allied units are never eliminated": always in the box or on their route,
    holding what they stand on, never with a German unit."""
    if len(state.allied_pos) != len(b.allied):
        found.append(f"{len(state.allied_pos)} Allied units where the scenario has {len(b.allied)}")
    allied_at = set()
    for i, p in enumerate(state.allied_pos):
        if not IN_BOX <= p < len(b.routes[i]):
            found.append(f"Allied unit {i} is at step {p}, off its route")
            continue
        if p != IN_BOX:
            allied_at.add(b.routes[i][p])
            if not state.control[b.routes[i][p]]:
                found.append(f"location {b.routes[i][p]} holds an Allied unit but is not Allied-controlled")
    shared = allied_at & set(state.german_loc)
    if shared:
        found.append(f"Allied and German units share locations {sorted(shared)}")


def _check_german(b: Board, state: DragoonState, found: list[str]) -> set[int]:
    """German Movement's stacking, and the German units conserved; the eliminated ones (returned) are
    exactly those recorded, and never the units that never are."""
    # German Movement: infantry may not stack with infantry (the 11th PzD may stack with one)
    infantry = [loc for g, loc in enumerate(state.german_loc) if loc >= 0 and not b.is_panzer[g]]
    if len(infantry) != len(set(infantry)):
        found.append("two German infantry units share a location")
    # German units are conserved: each is somewhere; the eliminated ones are exactly those recorded
    if len(state.german_loc) != len(b.german):
        found.append(f"{len(state.german_loc)} German units where the scenario has {len(b.german)}")
    gone = {g for g, loc in enumerate(state.german_loc) if loc == ELIMINATED}
    if gone != set(state.eliminated):
        found.append(f"eliminated units {sorted(gone)} are not those recorded {sorted(state.eliminated)}")
    if any(b.never_eliminated[g] for g in gone):
        found.append("the 148th ID or the 11th PzD was eliminated: they never are")
    return gone


def _check_since(previous: DragoonState, state: DragoonState, gone: set[int], found: list[str]) -> None:
    """Nobody comes back, and time runs forward, from the step before."""
    back = set(previous.eliminated) - gone
    if back:
        found.append(f"eliminated German units {sorted(back)} came back")
    if state.turn < previous.turn:
        found.append(f"the turn went back from {previous.turn} to {state.turn}")


def _check_victory(ruleset: DragoonRules, state: DragoonState, found: list[str]) -> None:
    """How to Win: VP within the table's bounds."""
    b = ruleset.board
    vp, _ = ruleset.victory_points(state)
    most = sum(b.vp) + sum(1 for g in range(len(b.german)) if not b.never_eliminated[g])
    if not 0 <= vp <= most:
        found.append(f"{vp} VP is outside 0..{most}")
