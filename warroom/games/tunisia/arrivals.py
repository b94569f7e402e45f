"""16.0 Patton in Command and 17.0 Rommel Recalled: the end-of-turn rolls, Patton's arrival with the swap
of every II Corps piece for its two-star version, and Rommel's permanent recall."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import Events

from .catalog import ALLIED, Catalog
from .losses import eliminate
from .stacking import may_join, occupants
from .state import DEAD, REMOVED, Phase, TunisiaState
from .victory import allied_ports, controller
from .zoc import enemy_zoc

if TYPE_CHECKING:
    from .rules import TunisiaRules

PATTON_ROLL, FORCED, SWAP, RECALL, MARETH = "16.0A", "16.0B", "16.0C", "17.0A", "17.0B"


def ii_corps_in_tunisia(cat: Catalog, s: TunisiaState) -> int:
    """16.0A: US II Corps units (not support assets) on the map east of the orange border."""
    country = cat.board.country
    return sum(
        1
        for p in cat.by_side[ALLIED]
        if cat.ii_corps[p] and cat.is_unit[p] and s.loc[p] >= 0 and country[s.loc[p]] == "tunisia"
    )


def patton_hexes(cat: Catalog, s: TunisiaState) -> list[int]:
    """16.0A: a hex holding a US II Corps unit that can take him (6.0B); failing any, a II Corps crest hex
    free of the enemy (16.0B's 'any US II Corps hex', NOTES.md)."""
    occ = occupants(s)
    patton = (cat.patton,)
    with_unit = sorted({s.loc[p] for p in cat.by_side[ALLIED] if cat.ii_corps[p] and cat.is_unit[p] and s.loc[p] >= 0})
    out = [h for h in with_unit if may_join(cat, occ.get(h), patton)]
    if out:
        return out
    return [
        h
        for h in sorted(cat.board.ii_corps)
        if not (occ.get(h) and cat.side[occ[h][0]] != ALLIED) and may_join(cat, occ.get(h), patton)
    ]


def village_hexes(cat: Catalog, s: TunisiaState, piece: int) -> list[int]:
    """16.0C: an Allied-controlled village not in an EZOC, where the stack can take the piece."""
    occ = occupants(s)
    ezoc = enemy_zoc(cat, s, ALLIED)
    return [
        h
        for h in sorted(cat.board.villages)
        if h not in ezoc and controller(cat, s, h, occ) == ALLIED and may_join(cat, occ.get(h), (piece,))
    ]


def placement_options(cat: Catalog, s: TunisiaState, piece: int) -> list[int]:
    return patton_hexes(cat, s) if piece == cat.patton else village_hexes(cat, s, piece)


def roll_patton(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    """16.0A: at or under the number of II Corps units in Tunisia, Patton arrives."""
    count = ii_corps_in_tunisia(rules.cat, s)
    if events.on:
        events.emit(
            "patton_roll",
            f"Patton's arrival roll: {roll} against {count} II Corps units in Tunisia.",
            PATTON_ROLL,
            roll=roll,
        )
    if roll <= count and arrive(rules, s, events):
        return
    rules.after_patton(s, events)


def arrive(rules: TunisiaRules, s: TunisiaState, events: Events) -> bool:
    """Patton arrives: every II Corps piece is swapped (16.0C), then he and the swapped pieces that were
    eliminated are placed. False (nothing happens) when no hex can take him (NOTES.md)."""
    cat = rules.cat
    swapped = rules.clone(s)
    _swap(cat, swapped)
    if not patton_hexes(cat, swapped):  # where he is placed, after the swap (a battlegroup's hex counts then)
        if events.on:
            events.emit("patton", "Patton cannot arrive: no II Corps hex can take him this turn.", PATTON_ROLL)
        return False
    s.patton_arrived = True
    placing = [cat.patton, *_swap(cat, s)]
    if events.on:
        events.emit(
            "patton", "Patton takes command: the II Corps pieces are swapped for their two-star versions.", SWAP
        )
    s.placing = tuple(placing)
    rules.next_placement(s, events)
    return True


def _swap(cat: Catalog, s: TunisiaState) -> list[int]:
    """16.0C: every II Corps piece for its two-star version in the same hex (reduced where the original was
    reduced or stands as a battlegroup); returns the swapped pieces whose originals were eliminated, which
    the Allies place."""
    placing: list[int] = []
    for old, new in cat.swap.items():
        where = s.loc[old]
        if where >= 0:
            s.loc[new], s.reduced[new] = where, s.reduced[old]
        else:
            bg = next((g for g in cat.battlegroups[ALLIED] if s.loc[g] >= 0 and s.origin[g] == old), -1)
            if bg >= 0:  # reduced to a battlegroup: a reduced two-star unit takes its place
                s.loc[new], s.reduced[new] = s.loc[bg], True
                eliminate(cat, s, bg)
            elif where == DEAD:
                s.reduced[new] = True
                placing.append(new)
        s.loc[old], s.reduced[old] = REMOVED, False
    return placing


def place(rules: TunisiaRules, s: TunisiaState, piece: int, hex_: int, events: Events) -> None:
    s.loc[piece] = hex_
    s.placing = s.placing[1:]
    if events.on:
        events.emit(
            "placed",
            f"{rules.cat.name[piece]} enters at {rules.board.label(hex_)}.",
            PATTON_ROLL if piece == rules.cat.patton else SWAP,
        )


def roll_rommel(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    """17.0A: at or under the ports the Allies own, Rommel leaves the game for good; 17.0B: -1 while the
    Allies hold Mareth and no Axis unit has ever been in an 8th Army hex or 8821."""
    cat = rules.cat
    drm = -1 if controller(cat, s, cat.board.mareth) == ALLIED and not s.axis_entered_eighth_army else 0
    ports = allied_ports(cat, s)
    recalled = roll + drm <= ports
    if events.on:
        events.emit(
            "rommel_roll",
            f"Rommel's recall roll: {roll}{drm:+d} against {ports} Allied ports: "
            + ("Rommel is recalled." if recalled else "he stays."),
            RECALL if not drm else MARETH,
            roll=roll,
        )
    if recalled:
        s.loc[cat.rommel], s.reduced[cat.rommel] = REMOVED, False
    rules.after_rommel(s, events)


__all__ = ["FORCED", "Phase", "arrive", "place", "placement_options", "roll_patton", "roll_rommel"]
