"""Patton's observation as numbers, for the research environments (warroom.envs).

Read from a side's observation (warroom.games.patton.position): the turn, the mover, the actor and
the phase; the movement cards each side has drawn and the ones not yet seen (counts by value, never
the deck's order); the movement points; every town of the scenario (who holds it, its armor and
infantry); the stacks on the roads; the forces offshore and being placed; the reserves; the battle
and retreat being resolved; the losses and the objective's flags. Counts are scaled to about [0, 1];
the towns are the scenario's, so the length depends on the scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from warroom.engine.vector import Vector

from .board import SCENARIOS, SIDES, load_board
from .state import PHASE_KEYS

MAX_ACTIONS = 2048
"""More than any Patton position offers (every stack size on every road); random games reach about
300, and the conformance suite checks the bound."""

CARD_VALUES = tuple(range(2, 13))
MAX_STACKS = 16
"""Road stacks encoded, in the observation's order (more are folded into the totals per town)."""


@cache
def _towns(scenario: str) -> tuple[str, ...]:
    return tuple(load_board(scenario).names)


def _force(v: Vector, force: Any) -> None:
    """Armor and infantry of a [A, I] pair or an {"armor", "infantry"} object."""
    if isinstance(force, Mapping):
        v.number(force.get("armor"), 10).number(force.get("infantry"), 10)
    else:
        pair = list(force or (0, 0))
        v.number(pair[0] if pair else 0, 10).number(pair[1] if len(pair) > 1 else 0, 10)


class PattonEncoding:
    """The ObservationEncoding of warroom.engine.spec for Patton (each scenario its own length)."""

    max_actions = MAX_ACTIONS
    max_chance_outcomes = 13  # dice and cards are 1..12

    def size(self, scenario: str | None) -> int:
        return len(self.encode({}, None, scenario))

    def encode(self, observation: Mapping[str, Any], side: str | None, scenario: str | None) -> list[float]:
        """The parts in a fixed order, each a helper below (their lengths depend only on the scenario)."""
        towns = _towns(scenario or observation.get("scenario") or SCENARIOS[0])
        v = Vector().number(observation.get("turn"), 20).one_hot(side, SIDES)
        v.one_hot(observation.get("mover"), SIDES).one_hot(observation.get("actor"), SIDES).one_hot(
            observation.get("phase"), PHASE_KEYS
        )
        _cards(v, observation)
        v.number(observation.get("mp"), 12).number(observation.get("mp_total"), 12)
        _held(v, observation, towns)
        _stacks(v, observation, towns)
        _offboard(v, observation)
        _battle(v, observation, towns)
        _retreat(v, observation, towns)
        _tallies(v, observation, towns)
        return v.values


def _cards(v: Vector, observation: Mapping[str, Any]) -> None:
    """The movement cards each side has drawn and those not yet seen, counted by value."""
    cards = observation.get("cards") or {}
    for seat in SIDES:
        drawn = list(cards.get(seat) or ())
        v.values.extend(drawn.count(value) / 3 for value in CARD_VALUES)
    unseen = observation.get("cards_unseen") or {}
    v.values.extend(float(unseen.get(str(value), 0)) / 3 for value in CARD_VALUES)


def _held(v: Vector, observation: Mapping[str, Any], towns: tuple[str, ...]) -> None:
    """Every town of the scenario: who holds it, its armor and infantry."""
    held = observation.get("towns") or {}
    for town in towns:
        entry = held.get(town) or {}
        v.one_hot(entry.get("side"), SIDES).number(entry.get("armor"), 10).number(entry.get("infantry"), 10)


def _stacks(v: Vector, observation: Mapping[str, Any], towns: tuple[str, ...]) -> None:
    """The first MAX_STACKS road stacks (blank slots after the last): from, to, side and Units."""
    stacks = list(observation.get("stacks") or ())
    for k in range(MAX_STACKS):
        stack = stacks[k] if k < len(stacks) else {}
        v.flag(stack).one_hot(stack.get("from"), towns).one_hot(stack.get("to"), towns).one_hot(
            stack.get("side"), SIDES
        )
        _force(v, stack)


def _offboard(v: Vector, observation: Mapping[str, Any]) -> None:
    """The Units offshore and being placed, and the reserves: entries, dice thrown, Units pending."""
    _force(v, observation.get("offshore"))
    placing = observation.get("placing") or {}
    reserves = observation.get("reserves") or {}
    entries = reserves.get("entries") or {}
    for seat in SIDES:
        _force(v, placing.get(seat))
        v.number(entries.get(seat), 5)
    dice = list(reserves.get("dice") or ())
    v.number(len(dice), 6).number(sum(dice), 36)
    _force(v, reserves.get("pending"))


def _battle(v: Vector, observation: Mapping[str, Any], towns: tuple[str, ...]) -> None:
    """The battle being resolved (all blank when none): where, who, its dice and round."""
    battle = observation.get("battle") or {}
    v.flag(battle).one_hot(battle.get("target"), towns).one_hot(battle.get("attacker"), SIDES).one_hot(
        battle.get("from"), towns
    )
    v.number(battle.get("bonus"), 2).number(battle.get("attacker_dice"), 10).number(battle.get("defender_dice"), 10)
    v.number(battle.get("round"), 5)
    v.number(sum(battle.get("attacker_roll") or ()), 60).number(sum(battle.get("defender_roll") or ()), 60)


def _retreat(v: Vector, observation: Mapping[str, Any], towns: tuple[str, ...]) -> None:
    """The retreat being resolved (all blank when none), and the tie question's count."""
    retreat = observation.get("retreat") or {}
    v.flag(retreat).one_hot(retreat.get("town"), towns).one_hot(retreat.get("side"), SIDES)
    v.number(retreat.get("quota"), 10).flag(retreat.get("forced"))
    v.number(observation.get("tie_asked"), 3)


def _tallies(v: Vector, observation: Mapping[str, Any], towns: tuple[str, ...]) -> None:
    """The losses and reserves entered, the objective's flags and towns, the stacking queue and the roads used."""
    eliminated = observation.get("eliminated") or {}
    entered = observation.get("reserves_entered") or {}
    for seat in SIDES:
        _force(v, eliminated.get(seat))
        _force(v, entered.get(seat))
    v.flag(observation.get("relieved")).flag(observation.get("held"))
    v.multi_hot(observation.get("allied_end") or (), towns).multi_hot(observation.get("defection_used") or (), towns)
    v.number(observation.get("defection_owed"), 5).multi_hot(observation.get("stacking_queue") or (), towns)
    v.multi_hot((town for town, _b, _u in observation.get("road_use") or ()), towns)
