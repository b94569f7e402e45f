"""Setting up: each scenario's default setup, or a placement phase where a side places its own
Units within the scenario's Starting Forces rules (the American first, then the German).

Rule citations: "Patton: <scenario> — Starting Forces", "Patton: Positioning of Units".
"""

from __future__ import annotations

from warroom.engine.events import Events

from .actions import PLACE, ActionTable
from .board import SCENARIO_RULE, mix_text
from .state import STACK_LIMIT, PattonState


def starting_rule(s: PattonState) -> str:
    return f"{SCENARIO_RULE.get(s.board.id, 'Patton')} — Starting Forces"


def put(s: PattonState, side: int, town: int, armor: int, infantry: int) -> None:
    s.side[town] = side
    s.armor[town] += armor
    s.inf[town] += infantry


def place_default(s: PattonState, side: int) -> None:
    """The scenario's default setup for `side` (fixed Units included)."""
    for town, (armor, infantry) in s.board.default_setup[side].items():
        put(s, side, town, armor, infantry)
    s.placing[side] = [0, 0]


def begin_manual(s: PattonState, side: int) -> None:
    """The rulebook's fixed Units go down at once; the rest wait in `placing`."""
    b = s.board
    armor, infantry = b.force[side]
    for town, (fa, fi) in b.fixed_setup[side].items():
        put(s, side, town, fa, fi)
        armor -= fa
        infantry -= fi
    s.placing[side] = [armor, infantry]


def allowed_towns(s: PattonState, side: int) -> list[int]:
    b = s.board
    spec = b.sides[side].placement
    if spec.zone == "offboard":
        return []
    if spec.zone == "front":
        towns = [t for t in range(b.n) if b.front[t]]
    elif spec.zone == "star":
        towns = list(b.star_towns)
    else:
        towns = list(range(b.n))
    if "front" in spec.exclude:
        towns = [t for t in towns if not b.front[t]]
    if "star" in spec.exclude:
        towns = [t for t in towns if not b.star[t]]
    if "enemy" in spec.exclude:
        towns = [t for t in towns if s.side[t] != 1 - side]
    return [t for t in towns if s.side[t] != 1 - side]


def required_towns(s: PattonState, side: int) -> list[int]:
    """Bulge: towns adjacent to Bastogne that still need their one German Unit."""
    b = s.board
    near = b.sides[side].placement.at_least_one_near
    if near is None:
        return []
    return [t for t in b.neighbours[b.town_index[near]] if s.side[t] != side]


def default_allowed(s: PattonState, side: int) -> bool:
    """`place default` is offered before the side has placed anything of its own."""
    b = s.board
    armor, infantry = b.force[side]
    fixed_a = sum(u[0] for u in b.fixed_setup[side].values())
    fixed_i = sum(u[1] for u in b.fixed_setup[side].values())
    if s.placing[side] != [armor - fixed_a, infantry - fixed_i]:
        return False
    return all(s.side[t] != 1 - side for t in b.default_setup[side])


def legal_placements(s: PattonState, tab: ActionTable) -> list[str]:
    side = s.actor
    ra, ri = s.placing[side]
    if ra + ri == 0:
        return []
    out: list[str] = []
    if default_allowed(s, side):
        out.append("place default")
    required = set(required_towns(s, side))
    for t in allowed_towns(s, side):
        room = STACK_LIMIT - (s.armor[t] + s.inf[t])
        spare = ra + ri - len(required) + (1 if t in required else 0)  # keep one Unit for each town still owed one
        k = min(room, spare)
        if k >= 1:
            out.extend(tab.mixes(PLACE, t, min(ra, k), min(ri, k), 1, k))
    return out


def apply_place(s: PattonState, town: int, armor: int, infantry: int, events: Events) -> None:
    side = s.actor
    put(s, side, town, armor, infantry)
    s.placing[side][0] -= armor
    s.placing[side][1] -= infantry
    if events.on:
        events.emit(
            "place",
            f"{s.board.side_names[side]} place {mix_text(armor, infantry)} in {s.board.towns[town].name}.",
            starting_rule(s),
        )


def apply_place_default(s: PattonState, events: Events) -> None:
    side = s.actor
    b = s.board
    for town, (fa, fi) in b.fixed_setup[side].items():  # already down: take them out, the default includes them
        s.armor[town] -= fa
        s.inf[town] -= fi
    place_default(s, side)
    if events.on:
        events.emit("place", f"{b.side_names[side]} use the default setup.", starting_rule(s))
