"""13.0 Losses and Battlegroups: flipping a piece, a reduced unit replaced by a battlegroup, one-step
pieces eliminated, and which pieces may take a loss (the owner's choice, 13.1C; never an air asset, 13.3)."""

from __future__ import annotations

from warroom.engine.events import Events

from .catalog import Catalog
from .state import DEAD, OFF_MAP, TunisiaState

LOSSES, ONE_STEP, BATTLEGROUPS = "13.1A", "13.1B", "13.2"


def eliminate(cat: Catalog, s: TunisiaState, piece: int) -> None:
    """Off the map: to the dead pile, or a battlegroup counter back to the counter mix (NOTES.md)."""
    s.loc[piece] = OFF_MAP if cat.is_battlegroup[piece] else DEAD
    s.reduced[piece] = False
    s.origin[piece] = -1


def free_battlegroup(cat: Catalog, s: TunisiaState, side: int) -> int:
    """A battlegroup counter of `side` not on the map (-1: the counter mix is used up)."""
    for bg in cat.battlegroups[side]:
        if s.loc[bg] < 0:
            return bg
    return -1


def take_loss(cat: Catalog, s: TunisiaState, piece: int, events: Events) -> int:
    """Reduce `piece` once: flip it (13.1A), or replace a reduced unit by a battlegroup (13.1A), or
    eliminate it (13.1B one-step, 13.2 a battlegroup, a reduced support asset). Returns the piece that
    now stands in its place (-1: none)."""
    where = s.loc[piece]
    pid = cat.ids[piece]  # the structured field keeps the id; the text tells the piece by its name
    name = cat.name[piece]
    if cat.steps[piece] == 2 and not s.reduced[piece]:
        s.reduced[piece] = True
        if events.on:
            events.emit("reduced", f"{name} is reduced (flipped).", LOSSES, piece=pid)
        return piece
    if cat.is_unit[piece] and cat.steps[piece] == 2:
        bg = free_battlegroup(cat, s, cat.side[piece])
        eliminate(cat, s, piece)
        if bg < 0:
            if events.on:
                events.emit(
                    "eliminated",
                    f"{name} is eliminated: no battlegroup counter is left (NOTES.md).",
                    BATTLEGROUPS,
                    piece=pid,
                )
            return -1
        s.loc[bg] = where
        s.origin[bg] = piece
        s.moved[bg], s.attacked[bg] = s.moved[piece], s.attacked[piece]  # it has done what its unit did
        if events.on:
            events.emit(
                "battlegroup",
                f"{name}, already reduced, is replaced by {cat.name[bg]}.",
                LOSSES,
                piece=pid,
                battlegroup=cat.ids[bg],
            )
        return bg
    eliminate(cat, s, piece)
    if events.on:
        rule = BATTLEGROUPS if cat.is_battlegroup[piece] else ONE_STEP
        events.emit("eliminated", f"{name} is eliminated.", rule, piece=pid)
    return -1


def loss_candidates(cat: Catalog, s: TunisiaState, hex_: int, unit: int) -> list[int]:
    """The pieces of a hex the owner may choose to take a loss (13.1C): the unit (if given and there) and
    the non-air support assets with it; never an air asset (13.3)."""
    out = [unit] if unit >= 0 and s.loc[unit] == hex_ else []
    side = cat.side[unit] if unit >= 0 else -1
    for p, where in enumerate(s.loc):
        if where == hex_ and not cat.is_unit[p] and not cat.is_air[p] and (side < 0 or cat.side[p] == side):
            out.append(p)
    return out
