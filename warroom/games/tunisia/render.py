"""Tunisia on the terminal: the printed map as text (warroom.hexmap_text, from the same map data as the browser's
board), each stack's top counter with what lies beneath it as the viewer may see it (6.0E), where the side to act
can move (MP) and attack (X), the boxes, the battle in progress with its exact odds; drawn with rich.

Everything shown comes from the observation of the side to act (between two sides' decisions, the phasing
side's), never from the whole state, so hot-seat play shows no more than the rules allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from warroom.engine.spec import TerminalView

from .catalog import SIDE_NAMES
from .odds import TunisiaOdds, outcome_text
from .state import Phase

if TYPE_CHECKING:
    from warroom.engine.match import Match
    from warroom.hexmap_text import TextHexMap

    from .rules import TunisiaRules

MARKERS = {"Axis": "A", "Allied": "L"}
"""A side's marker before its counters (L for the Allies: A is the Axis's)."""
STYLES = {"Axis": "bold red", "Allied": "bold blue"}
BOXES = ("Return to Base box", "dead pile")


@cache
def _text_map() -> TextHexMap:
    from warroom.hexmap_text import TextHexMap

    from .board import load_board
    from .web.layout import map_features

    features = map_features(load_board())
    grid = features.pop("grid")
    return TextHexMap(grid, **features, styles={"mountain": "bold", "rough": "yellow"})


def viewer(match: Match) -> str:
    """Whose eyes the board is drawn with: the side to act, else the phasing side."""
    who = match.to_act
    if who in SIDE_NAMES:
        return str(who)
    return SIDE_NAMES[match.state.player]


def _short(pid: str, entry: dict[str, Any]) -> str:
    return pid + ("'" if entry.get("reduced") else "")


def stacks(match: Match, view: dict[str, Any]) -> dict[int, list[Any]]:
    """Hex -> its counters for the text map, the top one first; a hidden piece is '?' (6.0E)."""
    from warroom.hexmap_text import Counter

    rules: TunisiaRules = match.ruleset  # type: ignore[assignment]
    cat = rules.cat
    grid = rules.board.grid
    here: dict[int, list[str]] = {}
    for pid, entry in view["pieces"].items():
        if entry["at"] in grid.by_label:
            here.setdefault(grid.by_label[entry["at"]], []).append(pid)
    out: dict[int, list[Any]] = {}
    for h, ids in here.items():
        ids.sort(key=lambda p: (not cat.is_unit[cat.index[p]], cat.index[p]))
        side = SIDE_NAMES[cat.side[cat.index[ids[0]]]]
        counters = [Counter(MARKERS[side], _short(p, view["pieces"][p]), STYLES[side]) for p in ids]
        counters += [Counter(MARKERS[side], "?", STYLES[side])] * view["hidden"].get(grid.labels[h], 0)
        out[h] = counters
    return out


def render_board(match: Match) -> RenderableType:
    from warroom.hexmap_text import move_marks, target_marks

    from .web.actions import describe_actions

    rules: TunisiaRules = match.ruleset  # type: ignore[assignment]
    s = match.state
    grid = rules.board.grid
    side = viewer(match)
    view = rules.observation(s, side)
    units = stacks(match, view)
    costs: dict[int, float] = {}
    targets: set[int] = set()
    if match.to_act == side:
        for d in describe_actions(rules, s, match.legal_actions()):
            if d["kind"] == "move":
                to = grid.by_label[d["to"]]
                costs[to] = min(d["cost"], costs.get(to, d["cost"]))
            elif d["kind"] == "attack":
                targets.add(grid.by_label[d["to"]])
    marks = {**move_marks(costs), **target_marks(targets)}
    b = s.battle
    focus = (
        [b.origin, b.target]
        if b is not None
        else list(targets) or [h for h, c in units.items() if c[0].side == MARKERS[side]]
    )
    turn, phase = rules.turn_and_phase(s)
    held = sum(
        1
        for pid, e in view["pieces"].items()
        if e["at"] in {grid.labels[p] for p in rules.board.ports}
        and rules.cat.side[rules.cat.index[pid]] == 1
        and rules.cat.is_unit[rules.cat.index[pid]]
    )
    head = Text(
        f"Tunisia · turn {turn} of {rules.last_turn} · {phase} · Allied ports {held}/5 · seen by the {side}",
        style="bold",
    )
    notes = [
        "A Axis, L Allied; ' reduced (2.2); ** a two-star counter, II Corps under Patton (16.0C); ? a piece "
        "beneath an enemy stack you have not examined (6.0E).",
        "Airfields: Allied 7209 7607 7712 8821 (the airbase); Axis 8008 8305 8407 8411 8514 8615 8418 (4.0B, 7.6).",
    ]
    parts: list[RenderableType] = [
        head,
        _text_map().view(units, marks, focus=focus, sides={"A": "Axis", "L": "Allied"}, notes=notes),
    ]
    parts.append(Text(boxes_line(view)))
    if s.phase in (
        Phase.DEFENSIVE_AIR,
        Phase.AIR_ROLL_ATTACKER,
        Phase.AIR_ROLL_DEFENDER,
        Phase.ATTACK_ROLL,
        Phase.DEFENSE_ROLL,
    ):
        for entry in TunisiaOdds().battle_odds(rules, s, side):
            parts.append(Text(battle_line(entry), style="bold"))
    return Group(*parts)


def boxes_line(view: dict[str, Any]) -> str:
    """The Return to Base box and the dead pile (open to both sides)."""
    out = []
    for box in BOXES:
        ids = sorted(pid for pid, e in view["pieces"].items() if e["at"] == box)
        out.append(f"{box}: {', '.join(ids) if ids else 'empty'}")
    return " · ".join(out)


def battle_line(entry: dict[str, Any]) -> str:
    air = f" with {entry['attacker_air']}" if entry.get("attacker_air") else ""
    dair = f", {entry['defender_air']} in defence" if entry.get("defender_air") else ""
    return (
        f"Battle: {entry['attacker_unit']} ({entry['from']}, CF {entry['attacker_cf']}, "
        f"{entry['attacker_modifier']:+d}){air} against {entry['defender_unit'] or 'support assets'} in "
        f"{entry['to']}{dair}: {outcome_text(entry)} (11.5, 12.2)"
    )


ROLLS = {
    Phase.AIR_ROLL_ATTACKER: "The attacker's air combat d12 (10.2): the lower modified roll wins; a tie reduces both.",
    Phase.AIR_ROLL_DEFENDER: "The defender's air combat d12 (10.2): the lower modified roll wins; a tie reduces both.",
    Phase.ATTACK_ROLL: "The attack's d12 (11.5): it succeeds at or under the CF after modifiers; a 1 always, "
    "a 12 never.",
    Phase.DEFENSE_ROLL: "The defence's d12 (12.2): it succeeds at or under the CF after its supports; a 1 always, "
    "a 12 never.",
    Phase.REPLACEMENT_ROLL: "The Axis port roll, a d6 (7.7C): under the number of ports the Axis controls gains "
    "a replacement.",
    Phase.PATTON_ROLL: "The Allies' d12 for Patton's arrival (16.0A).",
    Phase.ROMMEL_ROLL: "The Axis d12 for Rommel's recall (17.0A).",
}
"""What each die decides, for the terminal's roll prompt (the browser's board says the same)."""


def pending_roll(match: Match) -> RenderableType | None:
    """What the die about to be rolled decides, with the battle's exact outcome where there is one."""
    s = match.state
    words = ROLLS.get(s.phase)
    if words is None:
        return None
    out = Text(words, style="bold")
    for entry in TunisiaOdds().battle_odds(match.ruleset, s, None):
        out.append("\n" + battle_line(entry), style="")
    return out


def action_label(match: Match, action: str) -> str:
    """The rules' label; an attack or a defensive air choice adds its exact outcome."""
    label = match.ruleset.describe_action(match.state, action)
    if action.startswith(("attack ", "air ")) or action == "no air":
        odds = TunisiaOdds().action_odds(match.ruleset, match.state, action)
        if odds:
            return f"{label} [{odds['text']}]"
    return label


def action_path(match: Match, action: str) -> tuple[str, ...]:
    """A Movement Phase offers some 2,000 moves: chosen by piece (its CF and MA in the heading), then destination
    (its hex, its place's name, the MP of the cheapest way), so a hex's number or a town's name picks it."""
    words = action.split(" ")
    rules: TunisiaRules = match.ruleset  # type: ignore[assignment]
    if words[0] == "move":
        piece = rules.cat.index[words[1]]
        name = rules.cat.name[piece]
        reach = match.state.reach.get(piece)  # the Movement Phase's cache: the MP of the cheapest way (8.1)
        to = rules.hex(words[3])
        cost = reach.reach.get(to) if reach is not None else None
        place = rules.board.place_at.get(to)
        where = f"to {words[3]}" + (f" {place.name}" if place is not None else "")
        return (
            f"Move {name} ({words[1]}, in {words[2]}{_factors(rules, match.state, piece)})",
            where + (f" ({cost:g} MP)" if cost else ""),
        )
    if words[0] == "attack":
        return (f"Attack from {words[1]} into {words[2]}", action_label(match, action))
    return (action_label(match, action),)


def _factors(rules: TunisiaRules, s: Any, piece: int) -> str:
    """A piece's printed values on its current side, for the menu heading: a unit's CF and MA (2.2, 13.1A), an
    air asset's range (10.1)."""
    from .movement import movement_allowance

    cat = rules.cat
    if cat.is_unit[piece]:
        cf = cat.reduced_cf[piece] if s.reduced[piece] else cat.cf[piece]
        return f"; CF {cf}, MA {movement_allowance(cat, s, piece)}"
    if cat.is_air[piece] and cat.range[piece]:
        return f"; range {cat.range[piece]}"
    return ""


def action_order(match: Match, actions: Sequence[str]) -> list[str]:
    """The menu's order: each piece's moves together (in the rules' order of pieces), nearest first, by the MP of
    the cheapest way, then by distance in hexes, then by hex number; every other action where the rules list it."""
    rules: TunisiaRules = match.ruleset  # type: ignore[assignment]
    s = match.state
    grid = rules.board.grid
    first: dict[str, int] = {}
    keyed: list[tuple[int, float, int, str, int, str]] = []
    for n, action in enumerate(actions):
        words = action.split(" ")
        if words[0] != "move" or len(words) != 4:
            keyed.append((n, 0.0, 0, "", n, action))
            continue
        group = first.setdefault(words[1], n)
        piece = rules.cat.index[words[1]]
        reach = s.reach.get(piece)
        to = rules.hex(words[3])
        cost = reach.reach.get(to, 0.0) if reach is not None else 0.0
        keyed.append((group, cost, grid.distance(rules.hex(words[2]), to), words[3], n, action))
    return [entry[-1] for entry in sorted(keyed)]


def status_line(match: Match) -> Text:
    turn, phase = match.ruleset.turn_and_phase(match.state)
    return Text(f"Tunisia · turn {turn} · {phase}", style="dim")


def terminal_view() -> TerminalView:
    return TerminalView(
        render_board=render_board,
        action_label=action_label,
        action_path=action_path,
        action_order=action_order,
        status_line=status_line,
        pending_roll=pending_roll,
    )
