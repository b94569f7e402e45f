"""Dragoon's observation as numbers, for the research environments (warroom.envs).

Read from the observation JSON (warroom.games.dragoon.position.state_to_json): the turn and phase,
the Allied RPs, every Allied unit (where on the map, stalled, FFI, spent), every German unit (where,
or which box it is in; desperate), Allied control of each location, air, the 11th PzD's mode, and
the attack or BOT counterattack being resolved. Counts are scaled to about [0, 1].
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from warroom.engine.vector import Vector

from .position import GERMAN_PLACES
from .state import ATTACK_MODES, PANZER_MODES, PHASE_KEYS

MAX_ACTIONS = 64
"""More than any Dragoon position offers (five units' attacks and moves, the air, the re-rolls, end);
the conformance suite checks the bound in random games."""


@cache
def _vocabulary() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(location names, German places on and off the map, Allied unit ids, German unit ids)."""
    from .board import load_board

    board = load_board()
    names = tuple(loc.id for loc in board.locations)
    return (
        names,
        names + tuple(GERMAN_PLACES.values()),
        tuple(u.id for u in board.allied),
        tuple(u.id for u in board.german),
    )


class DragoonEncoding:
    """The ObservationEncoding of warroom.engine.spec for Dragoon (one scenario)."""

    max_actions = MAX_ACTIONS
    max_chance_outcomes = 7  # a d6's faces are 1..6

    def size(self, scenario: str | None) -> int:
        return len(self.encode(_empty_view(), None, scenario))

    def encode(self, observation: Mapping[str, Any], side: str | None, scenario: str | None) -> list[float]:
        names, german_places, allied_ids, german_ids = _vocabulary()
        v = (
            Vector()
            .number(observation.get("turn"), 30)
            .one_hot(observation.get("phase"), PHASE_KEYS)
            .number(observation.get("rp"), 10)
        )
        allied = observation.get("allied") or {}
        for unit in allied_ids:
            entry = allied.get(unit) or {}
            v.flag(entry.get("location") is None).one_hot(entry.get("location"), names)
            v.flag(entry.get("stalled")).flag(entry.get("ffi")).flag(entry.get("spent"))
        german = observation.get("german") or {}
        for unit in german_ids:
            entry = german.get(unit) or {}
            v.one_hot(entry.get("location"), german_places).flag(entry.get("desperate"))
        v.multi_hot(observation.get("allied_control") or (), names)
        air = observation.get("air") or {}
        v.flag(air.get("used")).flag(air.get("grounded")).flag(air.get("bad_weather_next"))
        v.flag(observation.get("vi_corps_entered_crest")).flag(observation.get("198_entered_avignon"))
        v.one_hot(observation.get("panzer"), PANZER_MODES).number(observation.get("bot_roll"), 6)
        attack = observation.get("attack") or {}
        v.flag(attack).one_hot(attack.get("unit"), allied_ids).one_hot(attack.get("target"), names)
        v.one_hot(attack.get("mode"), ATTACK_MODES).number(attack.get("drm"), 3).flag(attack.get("rerolled"))
        bot_attack = observation.get("bot_attack") or {}
        v.flag(bot_attack).one_hot(bot_attack.get("attacker"), german_ids).one_hot(bot_attack.get("target"), allied_ids)
        v.multi_hot(observation.get("bot_queue") or (), german_ids)
        v.multi_hot(observation.get("captured") or {}, names).multi_hot(observation.get("eliminated") or {}, german_ids)
        return v.values


def _empty_view() -> dict[str, Any]:
    return {}
