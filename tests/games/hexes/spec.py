"""Hex skirmish's game contract: the ruleset, its browser board (drawn with the shared hex map kit), action
descriptors, odds, agents, a terminal view (its map drawn with the shared text hex map, warroom.hexmap_text) and
invariants.

Registered only by the tests: `registered("hexskirmish", "games.hexes.spec:SPEC")`, or for a subprocess
WARROOM_GAMES="hexskirmish=games.hexes.spec:SPEC" with tests/ on PYTHONPATH. Its id is not its folder's name:
the shared hex map kit says "hexes" all through, and the checks that generic code names no game search it
for every registered game's id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.spec import (
    ActionDescriptor,
    AgentHooks,
    GameSpec,
    HelpSection,
    OddsCapability,
    OddsField,
    TerminalView,
    WebBoard,
)

from . import rules

HELP = (
    "Two sides, two units each, six turns. Click one of your glowing units: the hexes it can reach light up "
    "with their cost in MP; click one to move there, or click an adjacent enemy to attack (a die decides). "
    "Forest costs 2 MP, the river +2 except at the bridge, the road 1/2. Hold the town at the end to win."
)


class HexesOdds:
    """The chance that an attack hits: a die of 6 - attack or more (+1 for forest, town or the river)."""

    fields: tuple[OddsField, ...] = (
        OddsField("attack", "integer", "the attacker's attack value (1-3)", required=True),
        OddsField("cover", "integer", "+1 for each of: defender in forest or town, across the unbridged river"),
    )
    answer = '{"ok":true,"need","p","text"}'
    position_answer = '{"ok":true,"battles":[{"action","p"}]}'

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        try:
            attack, cover = int(request.get("attack", "")), int(request.get("cover") or 0)
        except (TypeError, ValueError):
            raise WarroomError('fields "attack" and "cover" are whole numbers') from None
        need = max(2, 6 - attack + cover)
        p = (7 - need) / 6
        return {"need": need, "p": p, "text": f"a {need} or more hits: {p:.0%}"}

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any]:
        return {"attack": values.get("attack"), "cover": values.get("cover") or 0}

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        return [str(answer["text"])]

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        legal = ruleset.legal_actions(state)
        return {
            "battles": [
                {"action": a, **(self.action_odds(ruleset, state, a) or {})} for a in legal if a.startswith("attack")
            ]
        }

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        if not action.startswith("attack ") or action not in ruleset.legal_actions(state):
            return None
        unit, to = action.split(" ")[1], action.split("->")[1]
        defender = ruleset.occupant(state)[to]
        need = rules.needed(state, unit, defender)
        return {"p": (7 - need) / 6, "fraction": f"{7 - need}/6", "text": f"{7 - need}/6 to hit ({need}+)"}

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        return []


def _odds() -> OddsCapability:
    return HexesOdds()


def _agents() -> AgentHooks[rules.HexesState]:
    return AgentHooks(heuristic_policy=rules.heuristic_policy)


def _terminal() -> TerminalView:
    from rich.console import Group
    from rich.text import Text

    from warroom.hexmap_text import Counter, TextHexMap, move_marks, target_marks
    from warroom.web.hexmap import HexPath, HexPlace

    grid = rules.GRID
    # the same map data the browser's layout (web/layout.py) gives the shared hex map builder
    hex_map = TextHexMap(
        grid,
        terrain=rules.TERRAIN,
        hexsides={"river": rules.RIVER_SIDES, "bridge": [rules.BRIDGE_SIDE]},
        paths=[HexPath("road", [grid.at(label) for label in rules.ROAD], "the road")],
        places=[HexPlace(grid.at(rules.TOWN), "Town")],
    )
    colour = {rules.RED: "bold red", rules.BLUE: "bold blue"}

    def render_board(match: Any) -> Group:
        """The map with every unit, and for the side to act: where its units can move (the fewest MP any of them
        needs) and which enemy units they can attack."""
        state, ruleset = match.state, match.ruleset
        units: dict[int, list[Counter]] = {}
        for uid, unit in state.units.items():
            if unit.hex is not None:
                side = rules.side_of(uid)
                name = uid + ("'" if unit.steps == 1 else "")
                units[grid.at(unit.hex)] = [Counter(side[0], name, colour[side])]
        costs: dict[int, float] = {}
        targets: set[int] = set()
        for action in _describe_actions(ruleset, state, match.legal_actions()):
            if action["kind"] == "move":
                to = grid.at(action["to"])
                costs[to] = min(action["cost"], costs.get(to, action["cost"]))
            elif action["kind"] == "attack":
                targets.add(grid.at(action["to"]))
        marks = {**move_marks(costs), **target_marks(targets)}
        focus = [grid.at(u.hex) for u in state.units.values() if u.hex is not None]
        turn, phase = ruleset.turn_and_phase(state)
        head = Text(f"Hex skirmish · turn {turn} of {rules.TURNS} · {phase}", style="bold")
        notes = ["R1 B1 infantry (3 MP, attack 2), R2 B2 armour (4 MP, attack 3); ' reduced: one step left (Hexes 2)"]
        if marks:
            notes.append("A number is the fewest MP any unit still to act needs; the menu lists each unit's moves.")
        sides = {side[0]: side for side in rules.SIDES}
        return Group(head, hex_map.view(units, marks, focus=focus, sides=sides, notes=notes))

    return TerminalView(render_board=render_board, help_text=HELP)


def _board() -> WebBoard:
    from .web.layout import layout

    static = Path(__file__).parent / "web" / "static"
    return WebBoard(layout, static, module="board.js", styles=("board.css",), describe_actions=_describe_actions)


def _describe_actions(ruleset: Any, state: Any, legal: Sequence[str]) -> list[ActionDescriptor]:
    from .web.actions import describe_actions

    return describe_actions(ruleset, state, legal)


def _invariants(ruleset: Any, state: rules.HexesState, previous: rules.HexesState | None) -> list[str]:
    problems = []
    hexes = [u.hex for u in state.units.values() if u.hex is not None]
    if len(hexes) != len(set(hexes)):
        problems.append(f"two units share a hex: {hexes} (Hexes 2)")
    for uid, u in state.units.items():
        if not 0 <= u.steps <= 2 or (u.hex is None) != (u.steps == 0):
            problems.append(f"{uid}: {u.steps} steps in {u.hex}")
        if previous is not None and u.steps > previous.units[uid].steps:
            problems.append(f"{uid} regained a step")
    if state.turn > rules.TURNS + 1:
        problems.append(f"turn {state.turn} after the last")
    return problems


SPEC: GameSpec[rules.HexesState] = GameSpec(
    id="hexskirmish",
    ruleset=rules.Hexes,
    odds=_odds,
    agents=_agents,
    terminal=_terminal,
    board=_board,
    help=(HelpSection("How to play", HELP, "Hexes 3"),),
    bench_targets={"random_steps": 500.0, "mcts_sims": 50.0},
    invariants=_invariants,
)
