"""Retreating defenders: up to 5 Units along roads clear of enemy Units, split as the defender
wishes; the rest surrender. With the Optional Retreating Rule a road towards an enemy town is
also open: the retreating Units fight for that town.

Rule citations: "Patton: Retreating", "Patton: Optional Retreating Rule for Advanced Players".
"""

from __future__ import annotations

from warroom.engine.events import Events

from .actions import RETREAT, ActionTable
from .battle import RETREAT_RULE, end_battle, enter, side_name, start_retreat_battle
from .board import mix_text
from .movement import trapped_town
from .state import EMPTY, RETREAT_BATTLE, Fight, PattonState


def retreat_roads(s: PattonState) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(clear roads, roads towards an enemy town) open to the retreating Units, as (directed road, town)."""
    r = s.retreat
    assert r is not None
    b = s.board
    t, side = r.town, r.side
    enemy = 1 - side
    battle = s.battle
    # Optional Retreating Rule: "A defending player who is forced to retreat may ... retreat along a
    # road towards a town that is occupied by enemy Units" — not one who chose to retreat from a tie
    fighting_allowed = s.advanced and r.forced and battle is not None and battle.kind != RETREAT_BATTLE
    besieged = trapped_town(s)
    clear, fight = [], []
    for d, _road, to, _cost in b.out[t]:
        if any(st.owner == enemy and {st.target, st.source} == {t, to} for st in s.stacks):
            continue  # "may not try to fight past enemy Units on a road"
        if s.side[to] == enemy:
            if fighting_allowed and to != besieged:
                fight.append((d, to))
        else:
            clear.append((d, to))
    return clear, fight


def legal_retreats(s: PattonState, tab: ActionTable) -> list[str]:
    r = s.retreat
    assert r is not None
    t = r.town
    ra, ri = (s.armor[t], s.inf[t]) if s.side[t] == r.side else (0, 0)
    q = min(r.quota, ra + ri)
    if q <= 0:
        return []
    clear, fight = retreat_roads(s)
    out: list[str] = []
    if len(clear) == 1 and not fight:
        # one road: the only choice is which Units make up the 5 (if there are more than 5)
        out.extend(tab.mixes(RETREAT, clear[0][0], min(ra, q), min(ri, q), q, q))
        return out
    for d, _ in clear:
        out.extend(tab.mixes(RETREAT, d, min(ra, q), min(ri, q), 1, q))
    for d, _ in fight:  # a fighting retreat takes every Unit still to retreat (and ends the retreat)
        out.extend(tab.mixes(RETREAT, d, min(ra, q), min(ri, q), q, q))
    return out


def begin(s: PattonState, events: Events) -> None:
    """Announce the retreat (the rules then ask the defender, or resolve it when there is no choice)."""
    r = s.retreat
    assert r is not None
    if events.on:
        b = s.board
        t = r.town
        units = s.armor[t] + s.inf[t] if s.side[t] == r.side else 0
        if units:
            clear, fight = retreat_roads(s)
            roads = ", ".join(b.towns[to].name for _, to in clear) or "none"
            extra = f"; towards enemy towns: {', '.join(b.towns[to].name for _, to in fight)}" if fight else ""
            events.emit(
                "retreat_begins",
                f"{side_name(s, r.side)} {mix_text(s.armor[t], s.inf[t])} in {b.towns[t].name} retreat, at most "
                f"{r.quota} Unit{'s' if r.quota != 1 else ''}; roads clear of enemy Units to: {roads}{extra}.",
                RETREAT_RULE,
            )


def apply_retreat(s: PattonState, d: int, a: int, i: int, events: Events) -> None:
    r = s.retreat
    assert r is not None
    b = s.board
    t = r.town
    road = d >> 1
    to = b.road_ends[road][0] if d & 1 else b.road_ends[road][1]
    s.armor[t] -= a
    s.inf[t] -= i
    if s.side[to] == 1 - r.side:
        r.fight = Fight(to, a, i)
        r.quota = 0
    else:
        s.side[to] = r.side
        s.armor[to] += a
        s.inf[to] += i
        if any(st.target == to and st.owner != r.side for st in s.stacks):
            # "the Units join those already in the town, but are not considered in determining how
            # many dice the defender throws. They also cannot be used for covering Casualties."
            s.joined_a[to] += a
            s.joined_i[to] += i
            joined = f" ({b.towns[to].name} is still under attack: they will not fight there)"
        else:
            joined = ""
        r.quota -= a + i
        if events.on:
            events.emit(
                "retreat",
                f"{side_name(s, r.side)} {mix_text(a, i)} retreat {b.towns[t].name} -> {b.towns[to].name}{joined}.",
                RETREAT_RULE,
            )
    if r.quota <= 0 or s.armor[t] + s.inf[t] == 0:
        finish(s, events)


def finish(s: PattonState, events: Events) -> None:
    """The Units that could not retreat surrender; the winner enters; a fighting retreat follows."""
    r = s.retreat
    assert r is not None
    b = s.board
    t = r.town
    if s.side[t] == r.side and s.armor[t] + s.inf[t]:
        lost = s.eliminated[r.side]
        lost[0] += s.armor[t]
        lost[1] += s.inf[t]
        if events.on:
            events.emit(
                "surrender",
                f"{side_name(s, r.side)} {mix_text(s.armor[t], s.inf[t])} in {b.towns[t].name} cannot retreat and "
                "surrender.",
                RETREAT_RULE,
            )
        s.armor[t] = s.inf[t] = 0
    if s.armor[t] + s.inf[t] == 0 and s.side[t] == r.side:
        s.side[t] = EMPTY
    fight = r.fight
    s.retreat = None
    enter(s, events)
    end_battle(s, events)
    if fight is not None:
        to, a, i = fight
        start_retreat_battle(s, to, t, a, i, r.side, events)
