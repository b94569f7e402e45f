"""4.0 Winning the Game, and hex control as the rules use it (4.0A, 7.7C-D, 7.7I, 16.0C, 17.0).

Control (NOTES.md): a hex is controlled by the side whose pieces stand in it; an empty port is the
Axis's (4.0A: a port counts as Allied only while an Allied unit occupies it; the Axis holds them all at
the start); an empty village belongs to the side of its country (Algeria Allied, Tunisia Axis).
"""

from __future__ import annotations

from .catalog import ALLIED, AXIS, Catalog
from .state import TunisiaState

ALLIED_WIN, AXIS_WIN = "4.0A", "4.0B"


def allied_ports(cat: Catalog, s: TunisiaState) -> int:
    """4.0A: ports occupied by an Allied unit (each port once: two units may share one mid-exchange, 6.0D)."""
    ports = cat.board.ports
    loc = s.loc
    return len({loc[p] for p in cat.by_side[ALLIED] if cat.is_unit[p] and loc[p] in ports})


def controller(cat: Catalog, s: TunisiaState, hex_: int, occupants: dict[int, list[int]] | None = None) -> int:
    """The side controlling a hex (NOTES.md reading 15): a port is Allied only while an Allied unit occupies
    it (4.0A), not a lone support asset, so that 7.7C's port roll, 7.7I's placement and 17.0A count the same
    ports; any other hex is the side of the pieces in it, and an empty one the side of its country."""
    here = occupants.get(hex_, ()) if occupants is not None else [p for p, where in enumerate(s.loc) if where == hex_]
    board = cat.board
    if hex_ in board.ports:
        return ALLIED if any(cat.side[p] == ALLIED and cat.is_unit[p] for p in here) else AXIS
    if here:
        return cat.side[here[0]]
    return ALLIED if board.country[hex_] == "algeria" else AXIS


def sudden_death(cat: Catalog, s: TunisiaState) -> tuple[int, str, str] | None:
    """The wins that need no end of turn: an Axis unit in 8821 (4.0B), all five ports Allied (4.0A), or no
    Axis counter left on the map or in the Return to Base box (4.0A)."""
    board = cat.board
    loc, is_unit = s.loc, cat.is_unit
    airbase = board.airbase
    axis_left = False
    for p in cat.by_side[AXIS]:
        where = loc[p]
        if where == airbase and is_unit[p]:
            return AXIS, "An Axis unit occupies the airbase in hex 8821.", AXIS_WIN
        if where >= 0 or where == -3:
            axis_left = True
    if not axis_left:
        return ALLIED, "Every Axis counter is eliminated.", ALLIED_WIN
    ports = {loc[p] for p in cat.by_side[ALLIED] if is_unit[p] and loc[p] in board.ports}
    if len(ports) == len(board.ports):
        return ALLIED, "Allied units occupy all five ports: Bizerte, Tunis, Sousse, Sfax and Gabes.", ALLIED_WIN
    return None


def allied_airfields_occupied(cat: Catalog, s: TunisiaState) -> int:
    """4.0B: Allied airfields (the Allied silhouettes, and the Axis airfield at Souk al Arba) holding an
    Axis unit."""
    fields = {h for h, f in cat.board.airfields.items() if f.side == "allied" or f.counts_as_allied}
    loc = s.loc
    return len({loc[p] for p in cat.by_side[AXIS] if cat.is_unit[p] and loc[p] in fields})


def end_of_turn(cat: Catalog, s: TunisiaState, last_turn: int) -> tuple[int, str, str] | None:
    """4.0B at the end of a turn: three Allied airfields occupied while the Allies control no port; at the
    end of the last turn the Axis wins by having prevented the Allied victory."""
    if allied_airfields_occupied(cat, s) >= 3 and allied_ports(cat, s) == 0:
        return AXIS, "Axis units occupy three Allied airfields and the Allies control no port.", AXIS_WIN
    if s.turn >= last_turn:
        return AXIS, f"Turn {last_turn} ends without an Allied victory.", AXIS_WIN
    return None
