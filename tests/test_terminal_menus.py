"""The terminal's step menus with a long destination list (an issue: "Tunisia's destination lists: one unit gives an
unsorted list of up to 229 `to 8213 (0.5 MP)` entries, and typing `8314` or `Lessouda` is refused although the prompt
says 'type a town's name'. Sort by distance, accept a hex number or a place name, show the unit's CF and MA.")."""

from __future__ import annotations

import io
import re

from rich.console import Console

import warroom
from warroom.menus import build_level
from warroom.terminal import TerminalGame, load_renderer

MOVER = "DAK"  # Kampfgruppe DAK, in 8016 when the Axis first moves (seed 1)


def _axis_movement() -> warroom.Match:
    """The first Axis Movement Phase of a game (Tunisia 8.0), its first decisions taken in the rules' order."""
    m = warroom.new_game("tunisia", seed=1)
    while not any(a.startswith("move ") for a in m.legal_actions()):
        m.play(m.legal_actions()[0])
    return m


def _play(m: warroom.Match, answers: list[str]) -> str:
    """The terminal (step menus) answering `answers` in turn, then closing its input; what it printed."""
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False, color_system=None)
    script = iter(answers)

    def ask(prompt: str) -> str:
        answer = next(script, None)
        if answer is None:
            raise EOFError
        console.print(prompt + answer)
        return answer

    TerminalGame(m, console, ask=ask, pace=0).run()
    return out.getvalue()


def _number_of_mover(m: warroom.Match) -> str:
    """The top menu's number of the mover's group of moves."""
    r = load_renderer("tunisia")
    legal = m.legal_actions()
    paths = {a: r.action_path(m, a) for a in legal}
    assert r.action_order is not None
    level = build_level(r.action_order(m, legal), paths, lambda a: r.action_label(m, a))
    return next(str(n) for n, e in enumerate(level.entries, 1) if f"({MOVER}, in " in e.label)


def test_a_destination_list_is_sorted_by_cost_and_heads_with_the_units_cf_and_ma() -> None:
    # Tunisia 8.1 (the MP of the cheapest way), 2.2 (a counter's CF and MA)
    m = _axis_movement()
    printed = _play(m, [_number_of_mover(m)])
    heading = next(line for line in printed.splitlines() if f"({MOVER}, in 8016" in line and "to decide" in line)
    assert "CF 5, MA 6" in heading
    listed = re.findall(r"^\s*\d+\. to (\d{4})[^(\n]*\((\d+(?:\.\d+)?) MP\)", printed, re.MULTILINE)
    assert len(listed) > 12
    costs = [float(cost) for _, cost in listed]
    assert costs == sorted(costs), "the destinations are not nearest first"
    hexes = [h for h, _ in listed]
    assert len(set(hexes)) == len(hexes)


def test_a_hex_number_typed_in_a_destination_list_moves_there() -> None:
    # Tunisia 8.0: the issue's `8314`, a number past the list's end, is the hex, not a refused choice
    m = _axis_movement()
    printed = _play(m, [_number_of_mover(m), "8314"])
    assert "There is no choice" not in printed
    assert m.actions[-1] == f"move {MOVER} 8016 8314"


def test_a_place_name_typed_in_a_destination_list_moves_there() -> None:
    # Tunisia 3.0 (errata: the town in 8314 is Lessouda); a name's start is enough where one destination has it
    m = _axis_movement()
    _play(m, [_number_of_mover(m), "Lessouda"])
    assert m.actions[-1] == f"move {MOVER} 8016 8314"
    other = _axis_movement()
    _play(other, [_number_of_mover(other), "el guet"])  # El Guettar, 8116
    assert other.actions[-1] == f"move {MOVER} 8016 8116"


def test_a_number_naming_nothing_is_still_refused_plainly() -> None:
    m = _axis_movement()
    before = list(m.actions)
    printed = _play(m, [_number_of_mover(m), "9999"])
    assert "There is no choice 9999 here" in printed and m.actions == before


def test_saintlo_setup_menu_offers_the_setup_in_bulk_first() -> None:
    # Saint-Lo 4.2, 4.3: the one-decision setups head the menu; the rules' legal list keeps them last
    m = warroom.new_game("saintlo", seed=3)
    while not any(a.startswith("deploy ") for a in m.legal_actions()):
        m.play(m.legal_actions()[0])
    legal = m.legal_actions()
    assert "ready" in legal and legal.index("ready") > 0
    printed = _play(m, [])
    menu = [line.strip() for line in printed.splitlines() if re.match(r"^\s*\d+\. ", line)]
    assert menu[0].startswith("1. Deploy the rest for me"), menu[:3]
    assert not any(line.startswith("1. Deploy the rest") for line in menu[1:])
