"""Tunisia test positions (for the modules of tests/tunisia/): the rules, a map emptied but for a keeper and the
pieces a test places (`blank`, `battle`, `end_of_allied_turn`, `put`), and `refused`: an action is refused naming
its rule and the state is unchanged.
"""

from __future__ import annotations

import pytest

from warroom.engine.errors import IllegalActionError
from warroom.engine.events import SILENT as R_SILENT
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.rules import TunisiaRules
from warroom.games.tunisia.setup import default_setup
from warroom.games.tunisia.state import OFF_MAP, Phase, TunisiaState

R = TunisiaRules()
CAT, BOARD = R.cat, R.board
KEEPER = "Superga"  # an Axis piece left far away, so 4.0A's "every Axis counter eliminated" never ends a test


def at(label: str) -> int:
    return BOARD.at(label)


def blank(player: int = AXIS, phase: Phase = Phase.MOVEMENT, **pieces: str) -> TunisiaState:
    """Only the keeper (8409) and the given pieces (id with '_' for '-' and '' for '**', -> hex label)."""
    s = default_setup(CAT)
    s.loc = [OFF_MAP] * CAT.n
    s.loc[CAT.index[KEEPER]] = at("8409")
    s.player = player
    R.start_player_turn(s, R_SILENT)
    s.phase = phase
    for name, label in pieces.items():
        put(s, name, label)
    s.legal = None
    return s


def put(s: TunisiaState, piece: str, label: str) -> None:
    s.loc[CAT.index[piece.replace("_", "-")]] = at(label)
    s.legal = None
    s.reach = {}


def loc(s: TunisiaState, piece: str) -> int:
    return s.loc[CAT.index[piece]]


def snapshot(s: TunisiaState) -> dict[str, object]:
    return R.state_to_json(s)


def refused(s: TunisiaState, action: str, rule: str) -> None:
    """The action is refused naming `rule`, and the state is unchanged."""
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as info:
        R.apply(s, action)
    assert rule in str(info.value), str(info.value)
    assert snapshot(s) == before


def battle(player: int = AXIS, **pieces: str) -> TunisiaState:
    s = blank(player, Phase.ATTACK, **pieces)
    return s


def end_of_allied_turn(turn: int, **pieces: str) -> TunisiaState:
    s = blank(ALLIED, Phase.REPLACEMENT, **pieces)
    s.turn = turn
    return s
