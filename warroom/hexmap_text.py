r"""A hex map as text for the terminal: every hex with its label, terrain, place, road and top unit or stack,
rivers and bridges on the hexsides, highlighted hexes (a move's MP cost, an attack's target) and a legend.

A hex game's terminal view builds one `TextHexMap` from the same data it gives the browser's builder
(`warroom.web.hexmap.hex_layout`: a terrain class per hex, hexside numbers per kind, `HexPath` chains, `HexPlace`
names), once, and calls `view` (or `render`) with the position's units and marks after each decision. Nothing
here names a game.

Why this drawing. Flat-topped column maps are drawn the classic ASCII way, hexes four lines tall and ten
characters wide whose edges are shared with their neighbours (two hexes of the test game, 0403 holding a stack
of two, 0503 reachable for 1.5 MP across the bridge):

              ______
             ~ 0503 \
      ______~  1.5   \
     / 0403 =.+      /
    /R R1+1  =______/
    \t*+ Town~
     \______~

The drawn edges make adjacency plain (an offset grid of cells does not), and every hexside is characters of
its own, so a river (`~`), a bridge (`=`) or a border (`:`) lies on the hexside itself, as on the printed map.
A hex's inside holds its label (what the action menu names); the top unit, on the hex's middle line: side
marker, designation, "+N" for N more units beneath; and a line with the terrain letter, the signs of its
place, roads and railways, then the place's name. A mark (a number: MP to move there; X: a target) takes the
unit's line in a hex without units, else the end of the signs' line.
The unit sits on the middle line because that line alone has its neighbours' edges (`______`) on either side:
on the other two a neighbour's label or signs run on from it, and a unit drawn there read as the neighbour's
("/ 0403 \R R1+1/": R1 was in the hex to the right, not in 0403). A designation too long for its line is shortened
to an abbreviation no other unit on the map shares, and the legend lists the abbreviations in view. Columns step 8
characters: an 18 x 25 map (450 hexes) is 146 characters wide and 103 lines tall, so a console of 160 shows it
whole. Where it does not fit, compact hexes (edges of 4, columns 6 apart: 110 characters for 18 columns, 146 for
24) show the whole map if they fit (`size="auto"`, the default); else normal hexes show a window, the most
columns that fit around the hexes in focus (`view` reads the console's width; `render(width=)`). `window` (a
`Window` of printed columns and rows, or `window_around`) crops to a region, `max_rows` or `height` to a
height. Pointy-topped row maps are drawn as a brick wall of cells ten characters apart, alternate rows
shifted by half a cell, whose `|` sides and half-cell `-` runs are the six hexsides.

Colour only adds: with NO_COLOR, piped or monochrome, every distinction (side, feature, mark) is still in the
text, and the legend under the map says what each sign in view means.

Speed: an 18 x 25 map with rivers, a border, roads, 30 places, 40 stacks and 30 marks renders in 6-30 ms and
prints through rich in 50-125 ms (measured on the shared 2-core machine, idle to loaded; tests/test_hexmap_text.py
holds the render under a generous bound): quick enough to redraw after every decision.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Span, Text

from warroom.engine.hexgrid import HexGrid, axial_to_offset
from warroom.web.hexmap import HexPath, HexPlace

__all__ = [
    "Counter",
    "HexMapView",
    "Mark",
    "TextHexMap",
    "Window",
    "abbreviate",
    "move_marks",
    "target_marks",
]


class Counter(NamedTuple):
    """A unit as the text map shows it: `side` its side's marker, printed before it ("R", "A"), `name` a short
    designation ("21Pz", "R1'"); `style` a colour (rich style), an enhancement only: the marker says the side."""

    side: str
    name: str
    style: str = ""


class Mark(NamedTuple):
    """A highlighted hex: `text` printed in it ("2.5": MP to move there; "X": an attack's target) and its `kind`,
    which picks its colour and its line in the legend (MARK_MEANINGS)."""

    text: str
    kind: str = "move"


class Window(NamedTuple):
    """A region of the map by its printed column and row numbers (as in the labels: "8306" is column 83, row 6)."""

    columns: range
    rows: range


DEFAULT_TERRAIN_GLYPHS = {"open": ".", "clear": ".", "countryside": ".", "sea": "~", "water": "~", "lake": "~"}
"""Terrain classes with a conventional sign; any other gets the first free letter of its name."""
DEFAULT_HEXSIDE_GLYPHS = {"river": "~", "stream": "~", "bridge": "=", "border": ":", "escarpment": "^"}
DEFAULT_PATH_GLYPHS = {"road": "+", "railway": "#", "rail": "#", "track": "-"}
DEFAULT_PLACE_GLYPHS = {"town": "*", "city": "O", "village": "o", "port": "@", "airfield": "%", "objective": "!"}
MARK_MEANINGS = {
    "move": "N: the MP to move there",
    "attack": "{text}: an attack's target",
    "from": "{text}: the unit that acts",
}
"""What a mark of each kind means, for the legend ("{text}": the mark's text; another kind is listed by its name)."""

STYLES = {
    "label": "dim",
    "river": "bold blue",
    "stream": "blue",
    "bridge": "bold yellow",
    "border": "dark_orange",
    "mark:move": "bold black on green",
    "mark:attack": "bold white on red",
    "mark:from": "bold black on cyan",
    "place": "bold",
    "forest": "green",
    "woods": "green",
    "bocage": "green",
    "marsh": "cyan",
    "chott": "yellow",
    "sea": "blue",
    "water": "blue",
    "lake": "blue",
}
"""Colours by role (rich styles): a hexside kind, "label", "place", "mark:KIND".
`TextHexMap(styles=...)` adds to them."""


class _Geometry(NamedTuple):
    """Where a hex's parts lie on the character canvas, relative to its origin (x, y)."""

    column_pitch: int
    row_pitch: int
    slots: tuple[tuple[int, int, int], ...]  # (dy, dx, width): the label, the feature line, the unit line
    sides: tuple[tuple[tuple[int, int, str], ...], ...]  # per direction (DIRECTIONS order): (dy, dx, char) cells
    corners: tuple[tuple[int, int, str], ...]  # cells drawn plainly, part of no hexside
    extra_width: int
    extra_height: int
    mark_alone: bool = False  # a mark in a hex without units goes on the unit's line (flat: the middle one)


def _run(dy: int, x0: int, width: int, char: str) -> tuple[tuple[int, int, str], ...]:
    return tuple((dy, x, char) for x in range(x0, x0 + width))


def flat_geometry(edge: int) -> _Geometry:
    """Flat-topped hexes whose top edge is `edge` underscores: four lines tall, `edge + 4` characters wide at the
    middle, columns `edge + 2` apart. Origin (x, y): the hex's leftmost character, its top edge's line. The sides
    in DIRECTIONS order on a flat map: SE, NE, N, NW, SW, S (hexgrid.FLAT_DIRECTION_NAMES)."""
    right = edge + 2  # the column of the upper NE and lower SE characters
    return _Geometry(
        column_pitch=edge + 2,
        row_pitch=4,
        # the unit on the middle line, the only one with the neighbours' edges beside it (the module's docstring)
        slots=((1, 2, edge), (3, 1, edge + 2), (2, 1, edge + 2)),
        sides=(
            ((3, right + 1, "/"), (4, right, "/")),
            ((1, right, "\\"), (2, right + 1, "\\")),
            _run(0, 2, edge, "_"),
            ((1, 1, "/"), (2, 0, "/")),
            ((3, 0, "\\"), (4, 1, "\\")),
            _run(4, 2, edge, "_"),
        ),
        corners=(),
        extra_width=2,
        extra_height=3,
        mark_alone=True,
    )


def pointy_geometry(pitch: int) -> _Geometry:
    """Pointy-topped hexes as bricks `pitch` characters apart (even), alternate rows shifted by half: a cell's "|"
    sides are its east and west hexsides, the half-runs of "-" above and below its other four. Origin (x, y): the
    cell's left "|" column, its top line. The sides in DIRECTIONS order on a pointy map: E, NE, NW, W, SW, SE
    (hexgrid.POINTY_DIRECTION_NAMES)."""
    half = pitch // 2
    return _Geometry(
        column_pitch=pitch,
        row_pitch=4,
        slots=((1, 1, pitch - 1), (2, 1, pitch - 1), (3, 1, pitch - 1)),
        sides=(
            ((1, pitch, "|"), (2, pitch, "|"), (3, pitch, "|")),
            _run(0, half + 1, half - 1, "-"),
            _run(0, 1, half - 1, "-"),
            ((1, 0, "|"), (2, 0, "|"), (3, 0, "|")),
            _run(4, 1, half - 1, "-"),
            _run(4, half + 1, half - 1, "-"),
        ),
        corners=tuple((dy, dx, "+") for dy in (0, 4) for dx in (0, half, pitch)),
        extra_width=half + 1,
        extra_height=1,
    )


GEOMETRIES = {
    ("flat", "normal"): flat_geometry(6),
    ("flat", "compact"): flat_geometry(4),
    ("pointy", "normal"): pointy_geometry(10),
    ("pointy", "compact"): pointy_geometry(8),
}
"""The drawings by orientation and size: "normal" hexes hold a label and 8 characters a line (flat; 9 pointy),
"compact" ones 6 (7), for a map too wide for the console otherwise (24 columns: 146 characters, not 194)."""
SIZES = ("auto", "normal", "compact")


def move_marks(costs: Mapping[int, float]) -> dict[int, Mark]:
    """Marks for the hexes a move can reach, each with its MP cost ("2.5")."""
    return {i: Mark(f"{cost:g}", "move") for i, cost in costs.items()}


def target_marks(hexes: Iterable[int], text: str = "X") -> dict[int, Mark]:
    """Marks for the hexes an attack can strike."""
    return {i: Mark(text, "attack") for i in hexes}


@dataclass(frozen=True, slots=True)
class _Hex:
    """What never changes in one hex's drawing, computed once."""

    index: int
    column: int
    row: int
    label: str
    signs: str  # the terrain letter, then the place's and the paths' signs
    sign_styles: tuple[tuple[int, str], ...]  # (position in signs, colour) of the signs with a colour
    place: str  # the place's name, or ""
    sides: tuple[tuple[str, str] | None, ...]  # per direction: (glyph, kind) of a featured hexside, else None


class TextHexMap:
    """One printed map's text drawing, built once from the map data the browser's builder takes.

    `terrain`: each hex's terrain class (a sequence by hex, or a mapping hex -> class with `default_terrain`);
    `hexsides`: kind -> hexside numbers (`grid.side(i, j)`), later kinds drawn over earlier ones ("bridge" after
    "river"); `paths`: roads and railways (HexPath); `places`: HexPlace. The `*_glyphs` mappings name the sign of
    a terrain class, hexside kind, path kind or place kind where the defaults do not suit; `styles` adds colours
    (STYLES' keys, a terrain class, a path or place kind). A hex or hexside off the grid is a ValueError.
    """

    def __init__(
        self,
        grid: HexGrid,
        *,
        terrain: Sequence[str] | Mapping[int, str] = (),
        default_terrain: str = "open",
        hexsides: Mapping[str, Iterable[int]] | None = None,
        paths: Iterable[HexPath] = (),
        places: Iterable[HexPlace] = (),
        terrain_glyphs: Mapping[str, str] | None = None,
        hexside_glyphs: Mapping[str, str] | None = None,
        path_glyphs: Mapping[str, str] | None = None,
        place_glyphs: Mapping[str, str] | None = None,
        styles: Mapping[str, str] | None = None,
    ) -> None:
        self.grid = grid
        self.flat = grid.offset.endswith("q")
        self.orientation = "flat" if self.flat else "pointy"
        self.styles = {**STYLES, **(styles or {})}
        terrain_of = _terrain_table(grid, terrain, default_terrain)
        self.terrain_glyphs = _assign_glyphs(
            sorted(set(terrain_of)), {**DEFAULT_TERRAIN_GLYPHS, **(terrain_glyphs or {})}
        )
        side_kind = _hexside_kinds(grid, hexsides or {})
        glyphs = {**DEFAULT_HEXSIDE_GLYPHS, **(hexside_glyphs or {})}
        self.hexside_glyphs = {kind: glyphs.get(kind, kind[:1]) for kind in (hexsides or {})}
        self.path_glyphs, path_signs, path_kinds = _path_table(
            grid, paths, {**DEFAULT_PATH_GLYPHS, **(path_glyphs or {})}
        )
        self.place_glyphs, self.places = _place_table(grid, places, {**DEFAULT_PLACE_GLYPHS, **(place_glyphs or {})})
        hexes = [
            self._hex(i, terrain_of[i], path_signs.get(i, []), path_kinds.get(i, []), side_kind)
            for i in range(len(grid.hexes))
        ]
        self.hexes: tuple[_Hex, ...] = tuple(hexes)
        self.terrain_of = tuple(terrain_of)
        self.whole = Window(
            range(min(h.column for h in hexes), max(h.column for h in hexes) + 1),
            range(min(h.row for h in hexes), max(h.row for h in hexes) + 1),
        )

    def _hex(
        self, i: int, terrain: str, path_signs: list[str], path_kinds: list[str], side_kind: dict[int, str]
    ) -> _Hex:
        """Hex i's fixed drawing: its label, its signs (terrain, place, paths) and their colours, its featured
        hexsides (`side_kind`: hexside number -> kind) in DIRECTIONS order."""
        grid = self.grid
        column, row = axial_to_offset(grid.hexes[i], grid.offset)
        here = self.places.get(i)
        signs = self.terrain_glyphs[terrain] + (self.place_glyphs[here.kind] if here else "")
        signs += "".join(path_signs)
        kinds = [terrain, *([here.kind] if here else []), *path_kinds]
        sign_styles = tuple((k, self.styles[kind]) for k, kind in enumerate(kinds) if self.styles.get(kind))
        side_to = dict(grid.adjacent[i])  # neighbour -> the hexside between
        sides: list[tuple[str, str] | None] = []
        for j in grid.neighbour_table[i]:
            featured = side_kind.get(side_to[j]) if j >= 0 else None
            sides.append((self.hexside_glyphs[featured], featured) if featured is not None else None)
        return _Hex(i, column, row, grid.labels[i], signs, sign_styles, here.name if here else "", tuple(sides))

    # -- windows ---------------------------------------------------------------------------------------
    def window_around(self, hexes: Iterable[int], radius: int = 2) -> Window:
        """The smallest window holding every hex within `radius` of the given ones (the whole map if none)."""
        near = {j for i in hexes for j in self.grid.within(i, radius)}
        if not near:
            return self.whole
        columns = [self.hexes[j].column for j in near]
        rows = [self.hexes[j].row for j in near]
        return Window(range(min(columns), max(columns) + 1), range(min(rows), max(rows) + 1))

    def width_of(self, window: Window | None = None, size: str = "normal") -> int:
        """How many characters wide the drawing of `window` (default the whole map) is, its hexes of `size`."""
        geo = self._geometry(size)
        return geo.column_pitch * len((window or self.whole).columns) + geo.extra_width

    def choose_size(self, size: str, window: Window | None = None, width: int | None = None) -> str:
        """The hexes' size for a drawing of `window` at most `width` wide: "auto" is "normal" where that fits,
        else "compact" where that fits the whole window, else "normal" (cropped to a window that fits)."""
        if size not in SIZES:
            raise ValueError(f"hex size {size!r}: one of {', '.join(SIZES)}")
        if size != "auto":
            return size
        if width is None or self.width_of(window, "normal") <= width or self.width_of(window, "compact") > width:
            return "normal"
        return "compact"

    def _geometry(self, size: str) -> _Geometry:
        if size not in SIZES[1:]:
            raise ValueError(f"hex size {size!r}: normal or compact")
        return GEOMETRIES[self.orientation, size]

    def fit(
        self,
        window: Window,
        focus: Iterable[int] = (),
        width: int | None = None,
        rows: int | None = None,
        size: str = "normal",
    ) -> Window:
        """`window` cropped to at most `width` characters (hexes of `size`) and `rows` hex rows, keeping the hexes
        in `focus` (their middle) in view: the columns (and rows) nearest them."""
        focus = list(focus)
        geo = self._geometry(size)
        whole = self.whole
        columns = range(max(window.columns.start, whole.columns.start), min(window.columns.stop, whole.columns.stop))
        hex_rows = range(max(window.rows.start, whole.rows.start), min(window.rows.stop, whole.rows.stop))
        if not columns or not hex_rows:
            raise ValueError(f"window {window}: no hex of the map is in it")
        if width is not None:
            fits = max(1, (width - geo.extra_width) // geo.column_pitch)
            columns = _crop(columns, fits, [self.hexes[i].column for i in focus])
        if rows is not None:
            hex_rows = _crop(hex_rows, max(1, rows), [self.hexes[i].row for i in focus])
        return Window(columns, hex_rows)

    # -- drawing ---------------------------------------------------------------------------------------
    def origin(self, i: int, first_column: int, first_row: int, size: str = "normal") -> tuple[int, int]:
        """Where hex i's drawing starts (x, y: its geometry's origin) in a window whose first printed column and
        row are given: the shifted columns (flat) or rows (pointy) of the grid's offset half a hex further."""
        h, geo = self.hexes[i], self._geometry(size)
        shifted = 0 if self.grid.offset.startswith("even") else 1
        if self.flat:
            half = geo.row_pitch // 2 if h.column % 2 == shifted else 0
            return geo.column_pitch * (h.column - first_column), geo.row_pitch * (h.row - first_row) + half
        half = geo.column_pitch // 2 if h.row % 2 == shifted else 0
        return geo.column_pitch * (h.column - first_column) + half, geo.row_pitch * (h.row - first_row)

    def render(
        self,
        units: Mapping[int, Sequence[Counter]] | None = None,
        marks: Mapping[int, Mark] | None = None,
        *,
        window: Window | None = None,
        focus: Iterable[int] = (),
        width: int | None = None,
        max_rows: int | None = None,
        height: int | None = None,
        size: str = "auto",
        sides: Mapping[str, str] | None = None,
        notes: Sequence[str] = (),
        legend: bool = True,
    ) -> Text:
        """The map (or `window` of it, fitted to `width` characters, and to `max_rows` hex rows or `height` lines
        of drawing, around `focus`) with `units` (hex -> its counters, the top one first) and `marks` (hex -> Mark),
        then the legend: the signs used in view, `sides` (marker -> the side's name), the places in view and any
        `notes` (one line each). `size`: the hexes' ("normal", "compact", or "auto": compact only where that shows
        the whole window and normal hexes would not fit)."""
        units = units or {}
        marks = marks or {}
        size = self.choose_size(size, window, width)
        geo = self._geometry(size)
        if height is not None:
            fits = max(1, (height - geo.extra_height) // geo.row_pitch)
            max_rows = fits if max_rows is None else min(max_rows, fits)
        shown = self.fit(window or self.whole, focus, width, max_rows, size)
        first_column, first_row = shown.columns.start, shown.rows.start
        visible = [h for h in self.hexes if h.column in shown.columns and h.row in shown.rows]
        canvas_width = geo.column_pitch * len(shown.columns) + geo.extra_width
        canvas_height = geo.row_pitch * len(shown.rows) + geo.extra_height
        canvas = [[" "] * canvas_width for _ in range(canvas_height)]
        spans: list[tuple[int, int, int, str]] = []  # (line, start, end, style)
        styles = self.styles
        short = self.abbreviations(units, size)

        for h in visible:
            x, y = self.origin(h.index, first_column, first_row, size)
            _draw_edges(canvas, spans, h, x, y, geo, styles)
            _draw_inside(canvas, spans, h, x, y, geo, styles, marks.get(h.index), units.get(h.index), short)
        drawing = _canvas_text(canvas, spans)
        if not legend:
            return drawing
        drawing.append("\n")
        wrap = width or max(80, canvas_width)
        drawing.append_text(self.legend(visible, units, marks, shown, sides or {}, notes, wrap, short))
        return drawing

    def abbreviations(self, units: Mapping[int, Sequence[Counter]], size: str = "normal") -> dict[str, str]:
        """Each top counter's designation as drawn in hexes of `size`: itself where it fits its line (after the
        side marker and any "+N"), else an abbreviation no other designation on the map has (`abbreviate`), so
        two stacks never read alike. Reckoned over every stack given, not only those in view: a unit reads the
        same in every window."""
        width = self._geometry(size).slots[2][2]
        room: dict[str, int] = {}
        for stack in units.values():
            if stack:
                top = stack[0]
                more = len(f"+{len(stack) - 1}") if len(stack) > 1 else 0
                fits = width - len(top.side) - 1 - more
                room[top.name] = min(fits, room.get(top.name, fits))
        return abbreviate(room)

    def view(
        self,
        units: Mapping[int, Sequence[Counter]] | None = None,
        marks: Mapping[int, Mark] | None = None,
        **options: Any,
    ) -> HexMapView:
        """A renderable that draws `render(units, marks, **options)` fitted to the console's width when printed
        (and to its height, less `leave_lines=N`, where that option is given)."""
        return HexMapView(self, units or {}, marks or {}, options)

    def legend(
        self,
        visible: Sequence[_Hex],
        units: Mapping[int, Sequence[Counter]],
        marks: Mapping[int, Mark],
        shown: Window,
        sides: Mapping[str, str],
        notes: Sequence[str],
        width: int,
        short: Mapping[str, str] | None = None,
    ) -> Text:
        """What each sign in view means, wrapped to `width`; the abbreviations (`short`: designation -> as drawn)
        and the places in view; where the window is."""
        view = _InView(visible, {h.index for h in visible}, units, marks, shown, sides, short or {})
        lines = [line for section in _LEGEND_SECTIONS if (line := section(self, view))]
        return _legend_text(lines, notes, max(40, width))


@dataclass(frozen=True, slots=True)
class HexMapView:
    """`TextHexMap.render` as a rich renderable: fitted to the console's width when printed (a narrow terminal
    gets a window around the focus), so a game's `render_board` can return it as is. The option `leave_lines`
    fits the drawing's height too: the console's height less that many lines (for the legend and the menu)."""

    map: TextHexMap
    units: Mapping[int, Sequence[Counter]]
    marks: Mapping[int, Mark]
    options: Mapping[str, Any]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        chosen = dict(self.options)
        leave = chosen.pop("leave_lines", None)
        chosen["width"] = min(options.max_width, chosen.get("width") or options.max_width)
        if leave is not None:
            room = (options.height or console.height) - leave
            chosen["height"] = room if chosen.get("height") is None else min(room, chosen["height"])
        yield self.map.render(self.units, self.marks, **chosen)


class _InView(NamedTuple):
    """What a legend describes: the hexes drawn (and their numbers), what is on them, the window and the sides."""

    visible: Sequence[_Hex]
    in_view: set[int]
    units: Mapping[int, Sequence[Counter]]
    marks: Mapping[int, Mark]
    shown: Window
    sides: Mapping[str, str]
    short: Mapping[str, str]


def _terrain_line(hex_map: TextHexMap, view: _InView) -> list[str]:
    terrains = {hex_map.terrain_of[i] for i in view.in_view}
    if not terrains:
        return []
    return ["Terrain:", *(f"{hex_map.terrain_glyphs[t]} {t}" for t in sorted(terrains))]


def _hexsides_line(hex_map: TextHexMap, view: _InView) -> list[str]:
    side_kinds = {feature[1] for h in view.visible for feature in h.sides if feature is not None}
    if not side_kinds:
        return []
    kinds = [kind for kind in hex_map.hexside_glyphs if kind in side_kinds]
    return ["Hexsides:", *(f"{hex_map.hexside_glyphs[kind]} {kind}" for kind in kinds)]


def _features_line(hex_map: TextHexMap, view: _InView) -> list[str]:
    signs_used = {sign for h in view.visible for sign in h.signs[1:]}
    features = [f"{g} {kind}" for kind, g in hex_map.place_glyphs.items() if g in signs_used]
    features += [f"{g} {kind}" for kind, g in hex_map.path_glyphs.items() if g in signs_used]
    return ["In a hex:", *features] if features else []


def _units_line(_hex_map: TextHexMap, view: _InView) -> list[str]:
    stacked = any(len(view.units.get(i, ())) > 1 for i in view.in_view)
    if not (view.sides or stacked):
        return []
    line = ["Units:", *(f"{marker} {name}" for marker, name in view.sides.items())]
    if stacked:
        line.append("+N: N more units beneath the top one")
    return line


def _marks_line(_hex_map: TextHexMap, view: _InView) -> list[str]:
    kinds_shown: dict[str, str] = {}
    for i in view.in_view:
        mark = view.marks.get(i)
        if mark is not None:
            kinds_shown.setdefault(mark.kind, mark.text)
    if not kinds_shown:
        return []
    return [
        "Marked:",
        *(MARK_MEANINGS.get(kind, "{text}: " + kind).format(text=text) for kind, text in sorted(kinds_shown.items())),
    ]


def _abbreviations_line(_hex_map: TextHexMap, view: _InView) -> list[str]:
    short = view.short
    shortened = sorted(
        {
            (short[c.name], c.name)
            for i in view.in_view
            for c in view.units.get(i, ())[:1]
            if short.get(c.name, c.name) != c.name
        }
    )
    return ["Abbreviations:", *(f"{abbr} {name}" for abbr, name in shortened)] if shortened else []


def _places_line(_hex_map: TextHexMap, view: _InView) -> list[str]:
    places = sorted((h.label, h.place) for h in view.visible if h.place)
    return ["Places:", *(f"{label} {name}" for label, name in places)] if places else []


def _showing_line(hex_map: TextHexMap, view: _InView) -> list[str]:
    shown, whole = view.shown, hex_map.whole
    if shown == whole:
        return []
    digits_column, digits_row = hex_map.grid.digits
    return [
        "Showing:",
        f"columns {_span(shown.columns, digits_column)}",
        f"rows {_span(shown.rows, digits_row)}",
        f"of the map's {_span(whole.columns, digits_column)} x {_span(whole.rows, digits_row)}",
    ]


_LEGEND_SECTIONS = (
    _terrain_line,
    _hexsides_line,
    _features_line,
    _units_line,
    _marks_line,
    _abbreviations_line,
    _places_line,
    _showing_line,
)
"""The legend's lines in order, each a heading and its items, or empty where nothing in view needs it."""


def _legend_text(lines: Sequence[Sequence[str]], notes: Sequence[str], width: int) -> Text:
    """The legend's lines wrapped to `width`, each heading in bold, then the notes (wrapped, indented after)."""
    out = Text(no_wrap=True, overflow="fold", end="\n")
    for heading, *items in lines:
        for n, part in enumerate(_wrap_items([heading, *items], width)):
            out.append("\n" if out else "")
            if n == 0:
                out.append(heading, style="bold")
                part = part[len(heading) :]
            out.append(part)
    for note in notes:
        for part in textwrap.wrap(note, width, subsequent_indent="  ") or [""]:
            out.append(("\n" if out else "") + part)
    return out


# -- helpers -----------------------------------------------------------------------------------------------
_ORDINAL = re.compile(r"(?<=\d)(?:st|nd|rd|th)(?![a-z])", re.IGNORECASE)


def abbreviate(room: Mapping[str, int]) -> dict[str, str]:
    """Each designation (-> the characters it may have) as drawn: itself where it fits, else an abbreviation
    of at most that many characters that no other designation, whole or shortened, has. The marks that end a
    designation (a reduced unit's "'", a two-star counter's "**") stay whole: they say something of the unit.
    The words are kept in order, ordinals and separators dropped first ("1st-Para" -> "1Para" -> "1Par"), then
    the last letter varied, then a digit; deterministic (names in sorted order)."""
    out = {name: name for name, fits in room.items() if len(name) <= fits}
    taken = set(out)
    for name in sorted(n for n in room if n not in out):
        fits = room[name]
        core = name.rstrip("'*!^\"`+.")
        mark = name[len(core) :]
        budget = fits - len(mark)
        if budget < 1:  # no room for the marks: the core alone
            core, mark, budget = core or name, "", fits
        if budget < 1:
            out[name] = ""
            continue
        choice = next((c + mark for c in _abbreviations(core, budget) if c + mark not in taken), None)
        out[name] = choice if choice is not None else name[:fits]
        taken.add(out[name])
    return out


def _abbreviations(core: str, budget: int) -> Iterator[str]:
    """Candidate shortenings of `core` to at most `budget` characters, the most readable first."""
    plain = _ORDINAL.sub("", core)
    words = re.findall(r"[A-Za-z]+|\d+", plain)
    squeezed = "".join(words) or core
    seen: set[str] = set()
    for full in (plain, squeezed):
        if len(full) <= budget and full not in seen:
            seen.add(full)
            yield full
    yield squeezed[:budget]
    if len(words) > 1:  # each word's start: "Young-Fascists" -> "YoFa", "II-Corps-Arty" -> "IICA"
        share = max(1, budget // len(words))
        initials = "".join(w if w.isdigit() else w[:share] for w in words)[:budget]
        yield initials
    head = squeezed[: budget - 1]
    for ch in squeezed[budget - 1 :]:
        yield head + ch
    for ch in "23456789ABCDEFGHJKLMNPQRSTUVWXYZ":
        yield head + ch
    if budget > 1:
        for a in squeezed[1:]:
            for ch in "23456789":
                yield (squeezed[0] + a + ch)[:budget]


def _put(canvas: list[list[str]], y: int, x: int, text: str) -> None:
    canvas[y][x : x + len(text)] = text


_Spans = list[tuple[int, int, int, str]]
"""The drawing's colours as it is drawn: (line, start, end, style)."""


def _draw_edges(
    canvas: list[list[str]], spans: _Spans, h: _Hex, x: int, y: int, geo: _Geometry, styles: Mapping[str, str]
) -> None:
    """Hex h's corners and six hexsides at (x, y): a featured hexside in its glyph and colour, over whatever a
    neighbour drew there; a plain one only where the cell is still blank (the neighbour may have featured it)."""
    for dy, dx, char in geo.corners:
        canvas[y + dy][x + dx] = char
    for direction, cells in enumerate(geo.sides):
        feature = h.sides[direction]
        if feature is None:
            for dy, dx, char in cells:
                if canvas[y + dy][x + dx] == " ":  # a neighbour may have drawn its feature here already
                    canvas[y + dy][x + dx] = char
            continue
        glyph, kind = feature
        style = styles.get(kind, "")
        for dy, dx, _ in cells:
            canvas[y + dy][x + dx] = glyph
            if style:
                spans.append((y + dy, x + dx, x + dx + 1, style))


def _draw_inside(
    canvas: list[list[str]],
    spans: _Spans,
    h: _Hex,
    x: int,
    y: int,
    geo: _Geometry,
    styles: Mapping[str, str],
    mark: Mark | None,
    stack: Sequence[Counter] | None,
    short: Mapping[str, str],
) -> None:
    """Hex h's inside at (x, y): its label; its signs and place, or a mark's text at the signs' end (on the
    unit's line instead in a hex without units, where the geometry says so); the top unit of its stack."""
    (ly, lx, lw), (fy, fx, fw), (uy, ux, uw) = geo.slots
    _put(canvas, y + ly, x + lx, h.label.center(lw)[:lw])
    spans.append((y + ly, x + lx, x + lx + lw, styles["label"]))
    alone = mark is not None and geo.mark_alone and not stack  # the mark on the middle line, by itself
    if mark is not None:
        mark_style = styles.get(f"mark:{mark.kind}", "reverse")
        for dy, dx, width_ in geo.slots:
            spans.append((y + dy, x + dx, x + dx + width_, mark_style))
        if alone:
            _put(canvas, y + uy, x + ux, mark.text[:uw].center(uw))
    if mark is not None and not alone:
        text = mark.text[:fw]
        signs = h.signs[: max(0, fw - len(text) - 1)]
        _put(canvas, y + fy, x + fx, signs.ljust(fw - len(text)) + text)
    else:
        name = f" {h.place}" if h.place and len(h.signs) < fw - 1 else ""
        _put(canvas, y + fy, x + fx, (h.signs + name)[:fw])
        for k, style in h.sign_styles:
            spans.append((y + fy, x + fx + k, x + fx + k + 1, style))
        if h.place and mark is None:
            spans.append((y + fy, x + fx, x + fx + fw, styles["place"]))
    if stack:
        _draw_stack(canvas, spans, stack, x + ux, y + uy, uw, short)


def _draw_stack(
    canvas: list[list[str]],
    spans: _Spans,
    stack: Sequence[Counter],
    x: int,
    y: int,
    width: int,
    short: Mapping[str, str],
) -> None:
    """A stack's top unit on the `width` characters at (x, y): its side marker, its designation as drawn
    (`short`), "+N" for the N units beneath, in the unit's colour."""
    top = stack[0]
    more = f"+{len(stack) - 1}" if len(stack) > 1 else ""
    head = f"{top.side} {short.get(top.name, top.name)}"[: width - len(more)]
    _put(canvas, y, x, head + more)
    if top.style:
        spans.append((y, x, x + len(head) + len(more), top.style))


def _canvas_text(canvas: list[list[str]], spans: _Spans) -> Text:
    """The canvas as rich text, its blank first and last lines dropped, each span clipped to its line's text."""
    lines = ["".join(row).rstrip() for row in canvas]
    while lines and not lines[0]:
        lines.pop(0)
        spans = [(ly - 1, a, b, s) for ly, a, b, s in spans]
    while lines and not lines[-1]:
        lines.pop()
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    text_spans = []
    for line_no, a, b, style in spans:
        if 0 <= line_no < len(lines):
            end = min(b, len(lines[line_no]))
            if a < end:
                text_spans.append(Span(starts[line_no] + a, starts[line_no] + end, style))
    return Text("\n".join(lines), spans=text_spans, no_wrap=True, overflow="crop", end="\n")


def _crop(numbers: range, fits: int, focus: Sequence[int]) -> range:
    """The `fits` consecutive numbers of `numbers` centred on the focus' middle (the start if no focus)."""
    if len(numbers) <= fits:
        return numbers
    centre = (min(focus) + max(focus)) // 2 if focus else numbers.start + fits // 2
    start = min(max(numbers.start, centre - fits // 2), numbers.stop - fits)
    return range(start, start + fits)


def _span(numbers: range, digits: int) -> str:
    return f"{numbers.start:0{digits}d}-{numbers.stop - 1:0{digits}d}"


def _wrap_items(items: Sequence[str], width: int) -> list[str]:
    """Items joined by two spaces into lines of at most `width`, an item never split (unless longer than a line)."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + 2 + len(item) > width:
            lines.append(line)
            line = "  " + item
        else:
            line = f"{line}  {item}" if line else item
    if line:
        lines.append(line)
    return lines


def _check_hex(grid: HexGrid, i: int, what: str) -> None:
    if not 0 <= i < grid.n:
        raise ValueError(f"{what}: hex {i} is not on the grid (0..{grid.n - 1})")


def _hexside_kinds(grid: HexGrid, hexsides: Mapping[str, Iterable[int]]) -> dict[int, str]:
    """Hexside number -> the kind drawn on it: the last kind (in the mapping's order) that names it."""
    side_kind: dict[int, str] = {}
    for kind, numbers in hexsides.items():
        for k in numbers:
            if not 0 <= k < len(grid.sides):
                raise ValueError(f"{kind} hexside {k}: the grid numbers its hexsides 0..{len(grid.sides) - 1}")
            side_kind[k] = kind
    return side_kind


def _path_table(
    grid: HexGrid, paths: Iterable[HexPath], glyphs: Mapping[str, str]
) -> tuple[dict[str, str], dict[int, list[str]], dict[int, list[str]]]:
    """The sign of each path kind in use, and per hex the distinct path signs through it and their kinds, in the
    order the paths are given."""
    path_glyphs: dict[str, str] = {}
    path_signs: dict[int, list[str]] = {}
    path_kinds: dict[int, list[str]] = {}
    for path in paths:
        sign = glyphs.get(path.kind, path.kind[:1])
        path_glyphs[path.kind] = sign
        for i in path.hexes:
            _check_hex(grid, i, f"{path.kind} {path.name!r}")
            if sign not in path_signs.setdefault(i, []):
                path_signs[i].append(sign)
                path_kinds.setdefault(i, []).append(path.kind)
    return path_glyphs, path_signs, path_kinds


def _place_table(
    grid: HexGrid, places: Iterable[HexPlace], glyphs: Mapping[str, str]
) -> tuple[dict[str, str], dict[int, HexPlace]]:
    """The sign of each place kind in use, and the place in each hex (the last given there)."""
    place_glyphs: dict[str, str] = {}
    place_at: dict[int, HexPlace] = {}
    for place in places:
        _check_hex(grid, place.hex, f"place {place.name!r}")
        place_glyphs[place.kind] = glyphs.get(place.kind, "*")
        place_at[place.hex] = place
    return place_glyphs, place_at


def _terrain_table(grid: HexGrid, terrain: Sequence[str] | Mapping[int, str], default: str) -> list[str]:
    if isinstance(terrain, Mapping):
        for i in terrain:
            _check_hex(grid, i, "terrain")
        return [terrain.get(i, default) for i in range(grid.n)]
    if terrain:
        if len(terrain) != grid.n:
            raise ValueError(f"terrain: {len(terrain)} classes given for {grid.n} hexes")
        return list(terrain)
    return [default] * grid.n


def _assign_glyphs(classes: Sequence[str], given: Mapping[str, str]) -> dict[str, str]:
    """A one-character sign for each terrain class: the given one, else the first letter of its name no other
    class has taken (then any free letter)."""
    out = {c: given[c][:1] for c in classes if c in given}
    taken = set(out.values())
    for c in classes:
        if c in out:
            continue
        choices = [ch.lower() for ch in c if ch.isalpha()] + list("abcdefghijklmnopqrstuvwxyz")
        sign = next(ch for ch in choices if ch not in taken)
        out[c] = sign
        taken.add(sign)
    return out
