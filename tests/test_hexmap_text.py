"""The terminal's text hex map (warroom/hexmap_text.py): every hex once with its label, units readable without
colour, rivers and bridges on their hexsides, marks with their cost, windows, an 18 x 25 map within the widths
promised (146 characters whole, a window at 80 or 120), the work of a render (counted, not timed), and the
test-only hex game played in the terminal with it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from counted_work import calls_made
from rich.console import Console

import warroom
from warroom.engine.hexgrid import HexGrid
from warroom.games import registered
from warroom.hexmap_text import GEOMETRIES, Counter, Mark, TextHexMap, Window, move_marks, target_marks
from warroom.terminal import TerminalGame
from warroom.web.hexmap import HexPath, HexPlace

GAME = "hexskirmish"


def plain(renderable: Any, width: int = 160) -> str:
    """What a console without colour prints (NO_COLOR, a pipe): text only, no escape codes."""
    out = io.StringIO()
    Console(file=out, width=width, no_color=True, color_system=None, highlight=False).print(renderable)
    return out.getvalue()


def coloured(renderable: Any, width: int = 160) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system="truecolor", force_terminal=True, highlight=False).print(renderable)
    return out.getvalue()


def hex_lines(drawing: str, label: str) -> tuple[str, str, str]:
    """A flat-topped hex's three inside lines found by its label: the label, the signs (with a mark where a unit
    is), the unit or a mark alone (drawn on the middle line, between the label and the signs)."""
    lines = drawing.splitlines()
    for y, line in enumerate(lines):
        x = line.find(f" {label} ")
        if x >= 0 and (line[x - 1 : x] in "/\\~=:" or x == 0):
            x += 1  # the label's first digit; the hex's inside spans x - 2 .. x + 5 below it
            return line[x : x + 4], lines[y + 2][x - 2 : x + 6], lines[y + 1][x - 2 : x + 6]
    raise AssertionError(f"no hex {label} drawn")


def small_map(offset: str = "even-q") -> tuple[HexGrid, TextHexMap]:
    """7 x 6 hexes with a forest, a town on a road, a river between columns 04 and 05 and a bridge on it."""
    grid = HexGrid(range(1, 8), range(1, 7), offset=offset)
    at = grid.at
    river = [grid.side(at(f"04{r:02d}"), j) for r in range(1, 7) for j in grid.neighbours(at(f"04{r:02d}"))]
    river = [k for k in river if {grid.labels[i][:2] for i in grid.side_ends[k]} == {"04", "05"}]
    bridge = grid.side(at("0403"), at("0503"))
    hex_map = TextHexMap(
        grid,
        terrain={at("0304"): "forest", at("0403"): "town"},
        hexsides={"river": river, "bridge": [bridge]},
        paths=[HexPath("road", [at(label) for label in ("0103", "0203", "0303", "0403", "0503", "0603")])],
        places=[HexPlace(at("0403"), "Town")],
    )
    return grid, hex_map


def test_every_hex_appears_once_with_its_label() -> None:
    for offset in ("even-q", "odd-q", "even-r", "odd-r"):
        grid, hex_map = small_map(offset)
        drawing = hex_map.render(legend=False).plain
        for label in grid.labels:
            assert len(re.findall(rf"\b{label}\b", drawing)) == 1, (offset, label)


def test_the_drawing_is_hexes_sharing_their_edges() -> None:
    grid, hex_map = small_map()
    drawing = hex_map.render(legend=False).plain.splitlines()
    # column 01 is not shifted (even-q), so 0101's top edge opens the drawing; column 02 is half a hex lower
    assert drawing[0] == "  ______          ______          ______          ______"
    assert drawing[1].startswith(" / 0101 \\        / 0301 \\")
    assert drawing[3].startswith("\\.       / 0201 \\")  # 0101's signs line (open ground), 0201's label
    label, signs, unit = hex_lines("\n".join(drawing), "0304")
    assert label == "0304" and signs.startswith("f") and unit.strip() == ""


@pytest.mark.parametrize("size", ["normal", "compact"])
@pytest.mark.parametrize("offset", ["even-q", "odd-q", "even-r", "odd-r"])
def test_neighbours_draw_their_shared_hexside_on_the_same_characters(offset: str, size: str) -> None:
    # the tessellation: hex i's side towards j is exactly j's side towards i, and no two hexes' insides overlap
    grid, hex_map = small_map(offset)
    geometry = GEOMETRIES[hex_map.orientation, size]
    first_column, first_row = hex_map.whole.columns.start, hex_map.whole.rows.start
    inside: dict[tuple[int, int], int] = {}
    for i in range(grid.n):
        x, y = hex_map.origin(i, first_column, first_row, size)
        for direction, j in enumerate(grid.neighbour_table[i]):
            if j < 0:
                continue
            xj, yj = hex_map.origin(j, first_column, first_row, size)
            back = grid.neighbour_table[j].index(i)
            mine = {(y + dy, x + dx) for dy, dx, _ in geometry.sides[direction]}
            theirs = {(yj + dy, xj + dx) for dy, dx, _ in geometry.sides[back]}
            assert mine == theirs, (offset, grid.labels[i], grid.labels[j])
        for dy, dx, width in geometry.slots:
            for cell in ((y + dy, x + dx + k) for k in range(width)):
                assert inside.setdefault(cell, i) == i, (offset, grid.labels[i], grid.labels[inside[cell]])


def test_a_units_side_is_in_the_text_without_colour() -> None:
    grid, hex_map = small_map()
    units = {
        grid.at("0102"): [Counter("R", "R1", "bold red")],
        grid.at("0605"): [Counter("B", "B2", "bold blue"), Counter("B", "B3"), Counter("B", "B4")],
    }
    view = hex_map.render(units, sides={"R": "Red", "B": "Blue"})
    text = plain(view)
    assert "\x1b[" not in text  # no colour at all: what NO_COLOR and a pipe show
    assert hex_lines(text, "0102")[2].strip() == "R R1"
    assert hex_lines(text, "0605")[2].strip() == "B B2+2"  # the top unit and two more beneath
    assert "Units:  R Red  B Blue  +N: N more units beneath the top one" in text
    # the game's notes under the legend, wrapped to the width
    noted = plain(hex_map.view(units, notes=["' reduced " * 12]), width=60)
    assert max(map(len, noted.splitlines())) <= 60 and noted.count("reduced") == 12
    # colour only adds: the same characters, with escape codes for the sides' colours
    with_colour = coloured(view)
    assert "\x1b[" in with_colour and re.sub(r"\x1b\[[0-9;]*m", "", with_colour) == text


def test_rivers_and_bridges_are_drawn_on_their_hexsides() -> None:
    grid, hex_map = small_map()
    text = plain(hex_map.render())
    lines = text.splitlines()
    # column 04 is half a hex lower than 05 (even-q): 0401's north-east side faces 0501, its south-east one 0502;
    # each diagonal side is two characters, beside the label's line and the next (NE), the two below them (SE)
    y = next(k for k, line in enumerate(lines) if " 0401 " in line)
    x = lines[y].index(" 0401 ") + 1  # the label's first digit
    assert lines[y][x + 5] == lines[y + 1][x + 6] == "~"  # NE: the river between 0401 and 0501
    assert lines[y + 2][x + 6] == lines[y + 3][x + 5] == "~"  # SE: the river between 0401 and 0502
    assert lines[y][x - 2] == "/" and lines[y + 2][x - 3] == "\\"  # the west sides: plain edges
    y = next(k for k, line in enumerate(lines) if " 0403 " in line)
    x = lines[y].index(" 0403 ") + 1
    assert lines[y][x + 5] == lines[y + 1][x + 6] == "="  # NE: the bridge 0403/0503
    assert lines[y + 2][x + 6] == lines[y + 3][x + 5] == "~"  # SE: river again (0403/0504)
    assert "Hexsides:  ~ river  = bridge" in text
    assert "In a hex:  * town  + road" in text and "Places:  0403 Town" in text
    assert hex_lines(text, "0403")[1].startswith("t*+ Town")  # terrain, the town, the road, its name
    # a pointy-topped map: the river is the "|" between 0401 and 0501 (odd-r: east and west are the same row)
    grid, pointy = small_map("odd-r")
    lines = plain(pointy.render(legend=False)).splitlines()
    y = next(k for k, line in enumerate(lines) if " 0401 " in line)
    x = lines[y].index(" 0401 ")
    assert lines[y][x + 7] == "~" and lines[y][x - 3] == "|"  # its east side drawn as river, its west side plain


def test_a_highlighted_hex_shows_its_cost_and_a_target_its_mark() -> None:
    grid, hex_map = small_map()
    marks = {**move_marks({grid.at("0203"): 1.5, grid.at("0102"): 3}), **target_marks([grid.at("0302")])}
    units = {grid.at("0302"): [Counter("B", "B1")]}
    text = plain(hex_map.render(units, marks))
    assert hex_lines(text, "0203")[1:] == (".+      ", "  1.5   ")  # alone on the middle line, where no unit is
    assert hex_lines(text, "0102")[1:] == (".       ", "   3    ")
    assert hex_lines(text, "0302")[1].endswith("X") and hex_lines(text, "0302")[2].strip() == "B B1"
    assert "Marked:  X: an attack's target  N: the MP to move there" in text
    # a mark beside a unit hides the place's name (the legend still lists it); its own colour only with colour
    text = plain(hex_map.render({grid.at("0403"): [Counter("R", "R2")]}, marks={grid.at("0403"): Mark("2.5")}))
    assert hex_lines(text, "0403")[1:] == ("t*+  2.5", "R R2    ") and "Places:  0403 Town" in text
    assert "\x1b[" in coloured(hex_map.render(marks=marks))


def test_a_window_crops_to_the_region_asked() -> None:
    grid, hex_map = small_map()
    text = plain(hex_map.render(window=Window(range(2, 4), range(2, 4))))
    shown = set(re.findall(r"\b0[1-7]0[1-6]\b", text.split("Terrain:")[0]))
    assert shown == {"0202", "0203", "0302", "0303"}
    assert "Showing:  columns 02-03  rows 02-03  of the map's 01-07 x 01-06" in text
    around = hex_map.window_around([grid.at("0403")], radius=1)
    assert around == Window(range(3, 6), range(2, 5))
    labels = set(re.findall(r"\b0[1-7]0[1-6]\b", plain(hex_map.render(window=around, legend=False))))
    assert {grid.labels[i] for i in grid.within(grid.at("0403"), 1)} <= labels
    assert "0101" not in labels and "0706" not in labels
    # a window beyond the map is cut to the map; one without a hex of it is refused
    assert plain(hex_map.render(window=Window(range(5, 40), range(0, 2)), legend=False)).startswith("  ______")
    with pytest.raises(ValueError, match="no hex of the map"):
        hex_map.render(window=Window(range(20, 30), range(1, 3)))
    # a width: the most columns that fit, around the focus
    drawing = plain(hex_map.render(width=30, focus=[grid.at("0605")], legend=False))
    assert max(map(len, drawing.splitlines())) <= 30 and "0605" in drawing and "0101" not in drawing


def tunisia_sized_map() -> tuple[HexGrid, TextHexMap, dict[int, list[Counter]], dict[int, Mark]]:
    """18 columns x 25 rows (450 hexes, columns 72-89 as the largest hex map has) with rivers, a border, roads,
    places, 40 stacks and 30 marks."""
    grid = HexGrid(range(72, 90), range(1, 26), offset="even-q")
    kinds = ("open", "rough", "mountain", "chott", "sea")
    terrain = [kinds[(i * 7) % 5] for i in range(grid.n)]
    river = [k for k in range(0, len(grid.sides), 29)]
    roads = [HexPath("road", [grid.at(f"{c}{r:02d}") for r in range(1, 26)]) for c in (74, 80, 86)]
    places = [HexPlace(i, f"Place {i}", "village" if i % 2 else "port") for i in range(5, grid.n, 15)]
    hex_map = TextHexMap(
        grid, terrain=terrain, hexsides={"river": river, "border": river[5:15]}, paths=roads, places=places
    )
    units = {i: [Counter("A" if i % 2 else "X", "21Pz", "red")] * (1 + i % 3) for i in range(0, grid.n, 11)}
    marks = move_marks({i: 0.5 * (i % 7) for i in range(3, grid.n, 15)})
    return grid, hex_map, units, marks


def test_a_450_hex_map_fits_the_widths_promised_and_renders_fast() -> None:
    grid, hex_map, units, marks = tunisia_sized_map()
    assert hex_map.width_of() == 146  # the whole map within 160 columns
    whole = plain(hex_map.render(units, marks), width=160)
    assert max(map(len, whole.splitlines())) <= 160
    drawing = whole.split("Terrain:")[0]
    assert all(len(re.findall(rf"\b{label}\b", drawing)) == 1 for label in grid.labels)
    # 120 columns: the whole map in compact hexes (110 characters); 80: normal hexes, the 9 columns around the focus
    assert hex_map.width_of(size="compact") == 110
    for width, whole_map in ((120, True), (80, False)):
        text = plain(hex_map.view(units, marks, focus=[grid.at("8012")], sides={"A": "one side", "X": "other"}), width)
        assert max(map(len, text.splitlines())) <= width
        assert "8012" in text and ("Showing:  columns" not in text) == whole_map
        if whole_map:
            drawing = text.split("Terrain:")[0]
            assert all(len(re.findall(rf"\b{label}\b", drawing)) == 1 for label in grid.labels)
        else:
            assert "Showing:  columns 76-84  rows 01-25" in text
    # a height: the rows that fit, around the focus (the console's height less `leave_lines` for the menu)
    out = io.StringIO()
    console = Console(file=out, width=160, height=50, no_color=True, color_system=None)
    console.print(hex_map.view(units, marks, focus=[grid.at("8012")], leave_lines=10, legend=False))
    drawn = out.getvalue().splitlines()
    assert len(drawn) <= 40 and "8012" in out.getvalue() and "8001" not in out.getvalue()
    assert len(plain(hex_map.render(height=23, legend=False)).splitlines()) <= 23
    # quick: each render's work is linear in the map's hexes, counted in calls rather than timed (no test depends
    # on the machine's speed): measured about 31 calls a hex
    _, calls = calls_made(lambda: hex_map.render(units, marks))
    assert calls < 60 * grid.n, f"{calls} calls a render, {calls / grid.n:.0f} a hex"


def test_bad_map_data_is_refused() -> None:
    grid = HexGrid(range(1, 4), range(1, 4))
    with pytest.raises(ValueError, match="hexside 999"):
        TextHexMap(grid, hexsides={"river": [999]})
    with pytest.raises(ValueError, match="3 classes given for 9 hexes"):
        TextHexMap(grid, terrain=["open"] * 3)
    with pytest.raises(ValueError, match="place 'Nowhere'"):
        TextHexMap(grid, places=[HexPlace(50, "Nowhere")])


# -- the test game in the terminal front end --------------------------------------------------------
@pytest.fixture
def _game() -> Iterator[None]:
    with registered(GAME, "games.hexes.spec:SPEC"):
        yield


def session(lines: list[str], seed: int = 2) -> str:
    """The hex game played in the terminal, fed `lines`, printed without colour."""
    out = io.StringIO()
    console = Console(file=out, width=120, no_color=True, highlight=False, color_system=None)
    feed = iter(lines)

    def ask(prompt: str) -> str:
        out.write(prompt)
        line = next(feed, None)
        if line is None:
            raise EOFError
        out.write(line + "\n")
        return line

    TerminalGame(warroom.new_game(GAME, seed=seed), console, ask=ask, flat=True).run()
    return out.getvalue()


@pytest.mark.usefixtures("_game")
def test_the_hex_game_plays_in_the_terminal_with_its_map() -> None:
    text = session(["move R1 0102->0403", "end", "move B1 0703->0603", "q", "n"])
    boards = text.split("Hex skirmish · turn ")
    assert len(boards) >= 3  # the start, Blue's turn; Red's moves, then Blue's
    start = boards[1]
    assert hex_lines(start, "0102")[2].strip() == "R R1" and hex_lines(start, "0703")[2].strip() == "B B1"
    assert hex_lines(start, "0403")[1:] == ("t*+ Town", "   2    ")  # the cheapest way into the town: R2 by road
    assert "Marked:  N: the MP to move there" in start and "Hexsides:  ~ river  = bridge" in start
    blue = boards[2]
    assert hex_lines(blue, "0403")[2].strip() == "R R1" and hex_lines(blue, "0102")[2].strip() == ""
    assert "1 of 6 · Blue turn" in blue
    assert "Goodbye." in text


@pytest.mark.usefixtures("_game")
def test_the_hex_games_board_marks_attack_targets() -> None:
    from warroom.games import get_spec

    spec = get_spec(GAME)
    assert spec.terminal is not None
    board = spec.terminal().render_board
    m = warroom.new_game(GAME, seed=1)
    for action in ("move R2 0104->0403", "end", "move B1 0703->0503", "end"):
        m.play(action)
    text = plain(board(m), width=120)
    assert hex_lines(text, "0403")[2].strip() == "R R2" and hex_lines(text, "0503")[2].strip() == "B B1"
    assert hex_lines(text, "0503")[1] == ".+     X"  # B1 across the bridge, next to R2: a target for Red
    assert "X: an attack's target" in text


# -- a Tunisia position (an issue: "Tunisia's text map puts each unit's label right after a neighbouring hex's number
# (`/ 8414 \A 15th-P/` reads as 15th Panzer in 8414; it is in 8514); names cut to 6-7 characters make two stacks read
# alike (`L 1st-+1` is both 1st-Para and 1st-ID). A label sits inside its own hex; a legend says what `**`, `*` and
# `+1` mean.") ---------------------------------------------------------------------------------------------------------
def _tunisia_board() -> tuple[str, dict[str, str], Any]:
    """The board the Axis sees at its first move (Tunisia 8.0), with the Allies' 1st-Para and 1st-ID (the issue's
    pair) each heading a stack, a reduced unit and a two-star counter on the map: the text at 160 columns (the whole
    map), each occupied hex's expected unit line, and the match."""
    import warroom.games.tunisia.render as tunisia_render

    m = warroom.new_game("tunisia", seed=1)
    while not any(a.startswith("move ") for a in m.legal_actions()):
        m.play(m.legal_actions()[0])
    rules, s = m.ruleset, m.state
    cat, at = rules.cat, rules.board.grid.by_label
    # the issue's two stacks, far from the Axis so that the Allies' stacks stay closed to it (6.0E): 1st-Para
    # on 78th, 1st-ID on 34th-ID (each on top: the first in the counter sheet's order); a reduced unit (2.2) and
    # a two-star counter (16.0C) on the map too
    for pid, where in (("1st-Para", "7408"), ("78th", "7408"), ("1st-ID", "7410"), ("34th-ID", "7410")):
        s.loc[cat.index[pid]] = at[where]
    s.loc[cat.index["CCA**"]] = at["7212"]
    s.reduced[cat.index["CCA**"]] = True
    s.reduced[cat.index["DAK"]] = True
    text = plain(tunisia_render.render_board(m), width=160)
    view = rules.observation(s, "Axis")
    units = tunisia_render.stacks(m, view)
    hex_map = tunisia_render._text_map()
    short = hex_map.abbreviations(units, "normal")
    expected = {}
    for h, stack in units.items():
        more = f"+{len(stack) - 1}" if len(stack) > 1 else ""
        expected[rules.board.grid.labels[h]] = f"{stack[0].side} {short[stack[0].name]}{more}"
    return text, expected, m


def _cells(text: str) -> dict[str, tuple[int, int]]:
    """Each hex label drawn in a flat-topped map -> (line, column of its first digit), parsed from the text."""
    out: dict[str, tuple[int, int]] = {}
    for y, line in enumerate(text.splitlines()):
        for found in re.finditer(r"(?<=[/\\~=: ] )(\d{4})(?= [/\\~=:])", line):
            out[found.group(1)] = (y, found.start())
    return out


def test_a_tunisia_units_label_is_drawn_inside_its_own_hex() -> None:
    # Tunisia 6.0E (the stacks as the Axis sees them); the issue's `/ 8414 \A 15th-P/`
    text, expected, _ = _tunisia_board()
    lines = text.splitlines()
    cells = _cells(text)
    assert len(expected) > 30 and set(expected) <= set(cells)
    for label, unit in expected.items():
        y, x = cells[label]
        inside = lines[y + 1][x - 2 : x + 6]  # the hex's middle line, under its label, between its own sides
        assert inside.rstrip() == unit, (label, inside, unit)
        assert lines[y + 1][x - 3] in "/~=:" and lines[y + 1][x + 6] in "\\~=:", label
        # on that line the neighbours show only their edges: no other hex's label or signs run on to the unit
        beside = lines[y + 1][max(0, x - 9) : x - 3] + lines[y + 1][x + 7 : x + 13]
        assert not re.search(r"[0-9A-Za-z]", beside), (label, lines[y + 1][max(0, x - 9) : x + 13])
        # and no hex label is on the unit's line at all
        assert not re.search(r"\b\d{4}\b", lines[y + 1][max(0, x - 12) : x + 16]), label


def test_two_tunisia_stacks_with_different_units_never_read_alike() -> None:
    # the issue's `L 1st-+1`, both 1st-Para and 1st-ID: every top unit is drawn with a designation of its own
    text, expected, m = _tunisia_board()
    lines = text.splitlines()
    cells = _cells(text)
    drawn: dict[str, str] = {}
    for label in expected:
        y, x = cells[label]
        drawn[label] = lines[y + 1][x - 2 : x + 6].rstrip()
    tops = {label: unit.split("+")[0] for label, unit in drawn.items()}
    assert len(set(tops.values())) == len(tops), sorted(tops.items(), key=lambda kv: kv[1])
    assert drawn["7408"].startswith("L ") and drawn["7410"].startswith("L ")
    assert drawn["7408"] != drawn["7410"]
    # each shortened designation is in the legend's key with the unit's full designation
    key = " ".join(text.split("Abbreviations:", 1)[1].split("Places:", 1)[0].split())
    for unit in ("1st-Para", "1st-ID"):
        assert re.search(rf"\S+ {re.escape(unit)}\b", key), unit


def test_the_tunisia_legend_says_what_every_sign_on_a_unit_means() -> None:
    # the issue: "a legend says what `**`, `*` and `+1` mean"; 2.2 (reduced), 16.0C (two stars), 6.0E (?)
    text, expected, _ = _tunisia_board()
    legend = " ".join(text.split("Terrain:", 1)[1].split())
    assert "+N: N more units beneath the top one" in legend
    assert "A Axis" in legend and "L Allied" in legend
    assert "' reduced (2.2)" in legend and "** a two-star counter" in legend
    assert "? a piece beneath an enemy stack" in legend
    signs = {ch for unit in expected.values() for ch in unit[2:] if not ch.isalnum() and ch not in "-"}
    assert {"+", "'", "*"} <= signs  # the position shows them all
    explained = {"+": "+N:", "'": "' reduced", "*": "** a two-star", "?": "? a piece"}
    for ch in signs:
        assert explained[ch] in legend, ch
    # the two-star counter keeps its stars whole, the reduced one its mark (never cut to a lone `*`)
    assert expected["7212"].endswith("**'") and "'" in expected[next(h for h, u in expected.items() if "DAK" in u)]
