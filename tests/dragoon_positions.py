"""Dragoon test positions, written as the state JSON a player would set up at the table.

Tests build each rule's situation here (units, phase, markers) instead of playing towards it,
so a test depends on the rule it checks, not on the chart values that lead there.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import warroom
from warroom import Match
from warroom.games import get_ruleset
from warroom.games.dragoon.rules import DragoonRules


def rules() -> DragoonRules:
    """The registered Dragoon ruleset (its board carries the data file's chart values)."""
    ruleset = get_ruleset("dragoon")
    assert isinstance(ruleset, DragoonRules)
    return ruleset


@cache
def _start() -> dict[str, Any]:
    return warroom.new_game("dragoon", seed=0).view()["state"]


def start_state() -> dict[str, Any]:
    """The campaign's opening position as JSON (a fresh copy)."""
    return copy.deepcopy(_start())


def position(
    *,
    turn: int = 20,
    phase: str = "actions",
    rp: int = 3,
    allied: dict[str, dict[str, Any]] | None = None,
    german: dict[str, dict[str, Any] | str] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A position: Allied units not named wait in their boxes; German units not named have escaped.

    `german` maps a unit to a location string or to {"location": ..., "desperate": ...};
    any other top-level field of the state JSON may be given as a keyword.
    """
    state = start_state()
    state.update(turn=turn, phase=phase, rp=rp)
    for info in state["allied"].values():
        info.update(location=None, stalled=False, ffi=False, spent=False)
    for uid, info in (allied or {}).items():
        state["allied"][uid].update(info)
    for info in state["german"].values():
        info.update(location="escaped", desperate=False)
    for gid, info in (german or {}).items():
        state["german"][gid].update({"location": info} if isinstance(info, str) else info)
    state.update(fields)
    return state


def game(pos: dict[str, Any], dice: list[int] | None = None, seed: int = 1, keep_log: bool = True) -> Match:
    """A match from a position with scripted dice (then seeded dice if the script runs out)."""
    return warroom.new_game(
        "dragoon", position=pos, dice=dice if dice is not None else "auto", seed=seed, keep_log=keep_log
    )


def where(m: Match, unit: str) -> Any:
    """Where a unit is now (Allied or German), as the state JSON spells it."""
    state = m.view()["state"]
    side = "allied" if unit in state["allied"] else "german"
    return state[side][unit]["location"]


def unit(m: Match, name: str) -> dict[str, Any]:
    state = m.view()["state"]
    return state["allied"][name] if name in state["allied"] else state["german"][name]


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def bot_roll_for(predicate: Any) -> int:
    """The BOT chart roll whose line satisfies `predicate(line)`: tests follow the data, not a number."""
    lines = rules().board.bot_lines
    for roll in sorted(lines):
        if predicate(lines[roll]):
            return roll
    raise LookupError("no BOT chart line fits this test")


def bot_attack_roll(german_unit: str) -> int:
    """A BOT roll whose line makes `german_unit` counterattack (named, or as 'adjacent')."""
    b = rules().board
    eligible = german_unit in {b.german[g].id for g in b.bot_attackers}

    def attacks(line: Any) -> bool:
        return any(
            e.kind == "attack"
            and (e.units == "adjacent" and eligible or isinstance(e.units, list) and german_unit in e.units)
            for e in line.effects
        )

    return bot_roll_for(attacks)


def route(allied_unit: str) -> list[str]:
    """An Allied unit's advancement route from the map data, beach or drop zone first."""
    b = rules().board
    return [b.locations[loc].id for loc in b.routes[b.allied_index[allied_unit]]]


def before(allied_unit: str, location: str) -> str:
    """The location an Allied unit attacks `location` from (the stop before it on its route)."""
    stops = route(allied_unit)
    return stops[stops.index(location) - 1]


def after(allied_unit: str, location: str) -> str:
    """The stop after `location` on an Allied unit's route."""
    stops = route(allied_unit)
    return stops[stops.index(location) + 1]


def quiet_bot_roll() -> int:
    """A BOT roll whose line neither stalls nor attacks: the turn passes without touching Allied units."""
    return bot_roll_for(lambda line: all(e.kind not in ("stall", "attack") for e in line.effects))


def _escape_infantry() -> list[str]:
    # the escape column's infantry other than the 198th (which the Avignon rule names), by arrival
    b = rules().board
    column = [g for g in b.german if g.route_of is None and g.kind != "panzer" and g.id != "198-ID"]
    return [g.id for g in sorted(column, key=lambda g: g.arrival_turn or 0)]


ESCAPE_A, ESCAPE_B, ESCAPE_C = _escape_infantry()
"""Three escape-column infantry units (reconstructed identities): tests name them only through these."""


def name(unit_id: str) -> str:
    """A German unit's full name, as events print it."""
    b = rules().board
    return b.german[b.german_index[unit_id]].name
