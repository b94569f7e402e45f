"""A position as JSON (`state_to_json` / `state_from_json`) and what one side may see of it
(`observation`: 6.0E hides all but the top of an enemy stack that no friendly unit is adjacent to)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from warroom.engine.errors import PositionError
from warroom.engine.ruleset import Event

from .catalog import SIDE_NAMES
from .sequence import PHASE_NAMES
from .state import BOX_NAMES, Battle, Phase, TunisiaState

if TYPE_CHECKING:
    from .rules import TunisiaRules

BOX_OF_NAME = {name: box for box, name in BOX_NAMES.items()}
HIDDEN_STACKS = "6.0E"


def _where(rules: TunisiaRules, loc: int) -> str:
    return rules.labels[loc] if loc >= 0 else BOX_NAMES[loc]


def _loc_of(rules: TunisiaRules, text: str) -> int:
    if text in BOX_OF_NAME:
        return BOX_OF_NAME[text]
    loc = rules.board.grid.by_label.get(text)
    if loc is None:
        raise PositionError(f"{text!r} is neither a hex of the map nor a box ({', '.join(BOX_OF_NAME)})")
    return loc


def state_to_json(rules: TunisiaRules, s: TunisiaState) -> dict[str, Any]:
    """Every slot but the caches, pieces by id, hexes by label."""
    cat = rules.cat
    pieces = {}
    for p in range(cat.n):
        entry: dict[str, Any] = {"at": _where(rules, s.loc[p]), "reduced": s.reduced[p]}
        if s.moved[p]:
            entry["moved"] = True
            entry["mp_spent"] = s.mp_spent[p]
            entry["moved_from"] = _where(rules, s.moved_from[p])
        if s.attacked[p]:
            entry["attacked"] = True
        if s.origin[p] >= 0:
            entry["origin"] = cat.ids[s.origin[p]]
        pieces[cat.ids[p]] = entry
    return {
        "turn": s.turn,
        "player": SIDE_NAMES[s.player],
        "phase": s.phase.name.lower(),
        "phase_name": PHASE_NAMES[s.phase],
        "pieces": pieces,
        "battle": None if s.battle is None else list(s.battle),
        "retreating": [cat.ids[p] for p in s.retreating],
        "breakthrough": cat.ids[s.breakthrough] if s.breakthrough >= 0 else None,
        "bt_moved": s.bt_moved,
        "bt_attacked": s.bt_attacked,
        "replacements_left": s.replacements_left,
        "placing": [cat.ids[p] for p in s.placing],
        "free_setup": list(s.free_setup),
        "patton_arrived": s.patton_arrived,
        "axis_entered_eighth_army": s.axis_entered_eighth_army,
        "outcome": None if s.outcome is None else list(s.outcome),
        "supply_checks": s.supply_checks,
        "beneath": beneath(rules, s),
    }


def beneath(rules: TunisiaRules, s: TunisiaState) -> dict[str, list[str]]:
    """What lies under the top piece of every stack of two or more (6.0E), by hex: a record of the save only,
    derived from the pieces' places (state_from_json ignores it), which no side's observation carries, so the
    spec can declare it hidden (the opponent may not look under an unexamined stack)."""
    cat = rules.cat
    stacks: dict[int, list[int]] = {}
    for p, where in enumerate(s.loc):
        if where >= 0:
            stacks.setdefault(where, []).append(p)
    out = {}
    for where, here in sorted(stacks.items()):
        if len(here) > 1:
            top = top_of_stack(rules, here)
            out[rules.labels[where]] = [cat.ids[p] for p in here if p != top]
    return out


def state_from_json(rules: TunisiaRules, data: dict[str, Any]) -> TunisiaState:
    """The state `state_to_json` wrote; PositionError names what does not fit."""
    cat = rules.cat
    try:
        s = TunisiaState(cat.n)
        s.turn = int(data["turn"])
        s.player = SIDE_NAMES.index(data["player"])
        s.phase = Phase[str(data["phase"]).upper()]
        pieces = data["pieces"]
        if set(pieces) != set(cat.ids):
            raise PositionError("the pieces must be exactly the game's counters")
        for p, pid in enumerate(cat.ids):
            entry = pieces[pid]
            s.loc[p] = _loc_of(rules, entry["at"])
            s.reduced[p] = bool(entry["reduced"])
            s.moved[p] = bool(entry.get("moved", False))
            s.mp_spent[p] = float(entry.get("mp_spent", 0.0))
            s.moved_from[p] = _loc_of(rules, entry["moved_from"]) if "moved_from" in entry else -1
            s.attacked[p] = bool(entry.get("attacked", False))
            s.origin[p] = cat.index[entry["origin"]] if "origin" in entry else -1
        s.battle = None if data["battle"] is None else Battle(*data["battle"])
        s.retreating = tuple(cat.index[p] for p in data["retreating"])
        s.breakthrough = cat.index[data["breakthrough"]] if data["breakthrough"] else -1
        s.bt_moved, s.bt_attacked = bool(data["bt_moved"]), bool(data["bt_attacked"])
        s.replacements_left = int(data["replacements_left"])
        s.placing = tuple(cat.index[p] for p in data["placing"])
        s.patton_arrived = bool(data["patton_arrived"])
        axis_free, allied_free = data.get("free_setup", (False, False))
        s.free_setup = (bool(axis_free), bool(allied_free))
        s.axis_entered_eighth_army = bool(data["axis_entered_eighth_army"])
        s.outcome = (
            None
            if data["outcome"] is None
            else (int(data["outcome"][0]), str(data["outcome"][1]), str(data["outcome"][2]))
        )
        s.supply_checks = int(data["supply_checks"])
    except PositionError:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as e:
        raise PositionError(f"not a Tunisia position: {e!r}") from e
    from .invariants import problems  # what the rules never allow (overstacking, both sides in a hex, ...)

    found = problems(rules, s)
    if found:
        raise PositionError(f"not a legal Tunisia position: {'; '.join(found[:3])}")
    return s


def top_of_stack(rules: TunisiaRules, here: list[int]) -> int:
    """The piece on top of a stack: its unit, else its first support asset (catalog order)."""
    cat = rules.cat
    for p in here:
        if cat.is_unit[p]:
            return p
    return here[0]


def observation(rules: TunisiaRules, s: TunisiaState, side: str | None) -> dict[str, Any]:
    """What `side` may see (None: everything). 6.0E: beneath the top of an enemy stack only where a
    friendly unit (not just support assets) is adjacent; the hidden pieces are left out, their number
    shown. Pieces off the map (boxes, dead pile) are public."""
    view = state_to_json(rules, s)
    view["to_act"] = rules.to_act(s)  # the legal actions are the match's view's `legal`, not repeated here
    if side is None:
        view["hidden"] = {}
        return view
    del view["beneath"]  # every side's own stacks are open through "pieces"; the enemy's only where examined
    cat = rules.cat
    pieces = view["pieces"]
    hidden: dict[str, int] = {}
    for p in hidden_from(rules, s, SIDE_NAMES.index(side)):
        del pieces[cat.ids[p]]
        label = rules.labels[s.loc[p]]
        hidden[label] = hidden.get(label, 0) + 1
    view["hidden"] = hidden
    view["hidden_rule"] = HIDDEN_STACKS
    return view


def hidden_stacks(rules: TunisiaRules, s: TunisiaState, viewer: int) -> dict[int, tuple[int, list[int]]]:
    """6.0E, the one reading of it (the view, the log, undo and the search's determinization all ask here):
    each enemy stack `viewer` may not look beneath, hex -> (its top, the pieces beneath). Those are the enemy
    stacks of two or more that no unit of `viewer` (not a support asset alone) is adjacent to, less the two
    hexes of the battle being fought: its pieces are declared and fight in the open (7.3E, 11.4, 12.1B), and
    the state's battle names them (NOTES.md, "One reading of 6.0E")."""
    cat = rules.cat
    stacks: dict[int, list[int]] = {}
    watched: set[int] = set()
    neighbours = rules.board.grid.neighbour_table
    for p, where in enumerate(s.loc):
        if where < 0:
            continue
        if cat.side[p] != viewer:
            stacks.setdefault(where, []).append(p)
        elif cat.is_unit[p]:
            watched.update(neighbours[where])
    if s.battle is not None:
        watched.update((s.battle.origin, s.battle.target))
    out: dict[int, tuple[int, list[int]]] = {}
    for where, here in stacks.items():
        if len(here) > 1 and where not in watched:
            top = top_of_stack(rules, here)
            out[where] = (top, [p for p in here if p != top])
    return out


def hidden_from(rules: TunisiaRules, s: TunisiaState, viewer: int) -> list[int]:
    """6.0E: the enemy pieces `viewer` may not see now, those beneath the tops of `hidden_stacks`."""
    return [p for _, under in hidden_stacks(rules, s, viewer).values() for p in under]


def seen_hidden(rules: TunisiaRules, s: TunisiaState, side: str) -> frozenset[int]:
    """The enemy pieces `side` sees now (6.0E: all but those beneath unexamined stacks; pieces off the map are
    public): a move that shows it more, a unit stepping beside a stack or a piece leaving one, cannot be
    taken back (the spec's `seen_hidden`). A piece coming onto the map from a box was seen there already."""
    if side not in SIDE_NAMES:
        return frozenset()
    me = SIDE_NAMES.index(side)
    unseen = set(hidden_from(rules, s, me))
    side_of = rules.cat.side
    return frozenset(p for p in range(len(s.loc)) if side_of[p] != me and p not in unseen)


def name_seen(rules: TunisiaRules, s: TunisiaState, side: str, pieces: frozenset[int]) -> str:
    """The enemy pieces `side` has just come to see (`seen_hidden`), by name and hex, for the refusal of an undo
    that their reveal locks: "the Axis Messe and Marines (San Marco) (Marines) in 8519 (6.0E)"."""
    cat = rules.cat
    by_hex: dict[str, list[str]] = {}
    owners: set[str] = set()
    for p in sorted(pieces):
        where = rules.labels[s.loc[p]] if s.loc[p] >= 0 else "a box"
        name = cat.name[p] if cat.name[p] == cat.ids[p] else f"{cat.name[p]} ({cat.ids[p]})"
        by_hex.setdefault(where, []).append(name)
        owners.add(SIDE_NAMES[cat.side[p]])
    groups = [f"{' and '.join(names)} in {where}" for where, names in sorted(by_hex.items())]
    whose = " and ".join(sorted(owners))
    return f"the {whose} {'; '.join(groups)} (6.0E)"


def screen_events(rules: TunisiaRules, s: TunisiaState, events: list[Event]) -> list[Event]:
    """6.0E in the log: an event that names a piece one side may not see now (beneath the top of a stack it
    has not examined, `hidden_from`), by its name or its id, reaches that side with the name replaced, and the
    full event only the others. The hexes stay: the stack's size is in every observation anyway. Events that
    name nothing hidden pass as they are."""
    if not events:
        return events
    concealed = [set(hidden_from(rules, s, viewer)) for viewer in range(len(SIDE_NAMES))]
    if not any(concealed):
        return events
    words, piece_of = _piece_words(rules)
    out: list[Event] = []
    for event in events:
        text = str(event.get("text", ""))
        mentioned = {piece_of[word] for word in words.findall(text)}
        if not any(mentioned & hidden for hidden in concealed):
            out.append(event)
            continue
        seen_by = [SIDE_NAMES[v] for v, hidden in enumerate(concealed) if not mentioned & hidden]
        if seen_by:
            out.append({**event, "visible_to": seen_by})
        for v, hidden in enumerate(concealed):
            if mentioned & hidden:
                masked = words.sub(_masker(hidden, piece_of), text)
                out.append(
                    {"type": event.get("type", ""), "text": masked, "rule": HIDDEN_STACKS, "visible_to": SIDE_NAMES[v]}
                )
    return out


def _masker(hidden: set[int], piece_of: dict[str, int]) -> Callable[[re.Match[str]], str]:
    def mask(found: re.Match[str]) -> str:
        return "a piece beneath the stack" if piece_of[found.group(0)] in hidden else found.group(0)

    return mask


def _piece_names(rules: TunisiaRules) -> re.Pattern[str]:
    """Every piece by its name or its id, as a whole word ("21st Panzer Division", "21st-Pz"): what the log,
    the labels and the computer's reasons may tell a piece by."""
    return _piece_words(rules)[0]


def _piece_words(rules: TunisiaRules) -> tuple[re.Pattern[str], dict[str, int]]:
    """`_piece_names`'s pattern and the piece each of its words tells."""
    cat = rules.cat
    return _words(tuple(cat.ids), cat.name)


@cache
def _words(ids: tuple[str, ...], names: tuple[str, ...]) -> tuple[re.Pattern[str], dict[str, int]]:
    piece_of = {name: p for p, name in enumerate(names)}
    piece_of.update((pid, p) for p, pid in enumerate(ids))
    return _names_pattern(tuple(piece_of)), piece_of


@cache
def _names_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    """The words as whole words, longest first: "CCA**" is not read as "CCA", nor "Combat Command A, 1st Armored
    Division (Patton)" as "Patton"."""
    longest_first = sorted(ids, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9*-])(?:" + "|".join(map(re.escape, longest_first)) + r")(?![A-Za-z0-9*-])")
