"""Operation Dragoon 1944 as the registry sees it: its ruleset and what it offers each front end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.spec import (
    GameSpec,
    lazy,
    web_board,
)

from .help import HELP
from .rules import DragoonRules

if TYPE_CHECKING:
    from .state import DragoonState


SPEC: GameSpec[DragoonState] = GameSpec(
    id="dragoon",
    keywords=("Montelimar", "Montélimar"),  # a place only its map has: no code outside warroom/games/ may name it
    ruleset=DragoonRules,  # mypy holds it to the kernel's contract with the game's own state (Ruleset[DragoonState])
    odds=lazy(".odds:DragoonOdds", __package__),
    terminal=lazy(".render:terminal_view", __package__),
    board=web_board(__package__),
    help=HELP,
    agents=lazy(".ai:agent_hooks", __package__),
    option_specs=lazy(".options:option_specs", __package__),
    bench_targets={"random_steps": 50_000, "mcts_sims": 3_000},
    invariants=lazy(".invariants:problems", __package__),
    hidden=(),  # solitaire against a BOT that shows everything; the dice are outside the state (NOTES.md)
    encoding=lazy(".encoding:DragoonEncoding", __package__),
)
