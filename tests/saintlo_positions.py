"""Saint-Lo test positions (for the modules of tests/saintlo/): a bare board in Movement and Attack with units
placed by hand, and `refused`: an action is refused with a message holding given words, the position unchanged.

rules = rules2(); s = bare(rules); place(rules, s, "us_m5.1", "0303")
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from warroom.engine.errors import IllegalActionError
from warroom.games.saintlo import setup
from warroom.games.saintlo.rules import SaintLoRules, SaintLoTeamRules
from warroom.games.saintlo.seats import seats_of
from warroom.games.saintlo.state import Phase, SaintLoState


@cache
def rules2() -> SaintLoRules:
    return SaintLoRules()


@cache
def rules4() -> SaintLoTeamRules:
    return SaintLoTeamRules()


def bare(rules: SaintLoRules, active: int = 0, supplies: tuple[int, int] = (10, 10), **options: int) -> SaintLoState:
    """Turn 1 of `active`, Movement and Attack, Command Posts placed by the first legal choices, no unit on
    the board, empty hands, full decks."""
    s = rules.initial_state(None, dict(options))
    while s.phase == Phase.POSTS:
        rules.apply(s, rules.legal_actions(s)[0], log=False)
    s.phase, s.turn, s.active = Phase.ACTIONS, 1, active
    s.seat = seats_of(s, active)[0]
    s.supplies = list(supplies)
    s.legal = None
    return s


def place(rules: SaintLoRules, s: SaintLoState, unit: str, label: str) -> int:
    """Put a unit on a hex (no rule checked: a test position); its index."""
    u = rules.t.unit_index[unit]
    setup.put(rules.t, s, u, rules.t.hex_of[label])
    s.legal = None
    return u


def give(rules: SaintLoRules, s: SaintLoState, seat: int, card: str) -> None:
    """Move one copy of a card from the seat's army deck into its hand."""
    army = seat if s.seats == 2 else seat // 2
    c = rules.t.card_index[army][card]
    s.deck[army][c] -= 1
    s.hands[seat] = sorted([*s.hands[seat], c])
    s.legal = None


def neighbours(rules: SaintLoRules, label: str) -> list[str]:
    g = rules.t.board.grid
    return [g.labels[j] for j in g.neighbours(g.at(label))]


def refused(rules, s, action: str, *words: str) -> str:
    """The action is refused with a message holding `words`, and the position is unchanged."""
    before = json.dumps(rules.state_to_json(s), sort_keys=True)
    with pytest.raises(IllegalActionError) as info:
        rules.apply(s, action)
    assert json.dumps(rules.state_to_json(s), sort_keys=True) == before
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    return str(info.value)
