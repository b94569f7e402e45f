"""Operation Dragoon on the terminal: the board, menu labels and pending rolls, drawn with rich;
`terminal_view` hands them to the terminal through the spec (the help is help.py's, shared with the browser).

The board reads like the printed one: the five Allied advancement routes as rows of location
boxes joined by arrows, the German withdrawal route, the turn track and the holding boxes.
It is drawn from the state alone, so the same function serves play, replay and tests.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warroom.engine.spec import TerminalView

from .odds import advance_fraction, attack_odds
from .state import (
    ARRIVAL_BOX,
    ATTACK_REROLL,
    ATTACK_ROLL,
    BEYOND,
    BOT_ATTACK_ROLL,
    BOT_REROLL,
    BOT_ROLL,
    ESCAPED,
    IN_BOX,
    OPPOSED,
    PANZER_HELD,
    PANZER_PINNED,
    PHASE_NAMES,
    RP_ROLL,
    DragoonState,
)

if TYPE_CHECKING:
    from warroom.engine.match import Match

    from .rules import DragoonRules

INSIDE = 10  # characters inside a location box
BOX_WIDTH = INSIDE + 2  # with its borders
FULL_WIDTH = 9 * BOX_WIDTH + 8  # the longest route (US 3rd ID, 9 boxes and 8 arrows)
SHORT_NAMES = {
    "Alpha-Beach": "Alpha Bch",
    "Delta-Beach": "Delta Bch",
    "Le-Muy-DZ": "Le Muy DZ",
    "Le-Lavandou": "Lavandou",
}
NATION_CHIP = {"US": "bold black on green3", "French": "bold white on blue3"}
GERMAN_CHIP = "bold white on grey35"
ROUTE_COLOR = {"green": "green3", "blue": "dodger_blue2", "red": "red3"}


def short_name(location_id: str) -> str:
    return SHORT_NAMES.get(location_id, location_id.replace("-", " "))[:INSIDE]


def rules_of(match: Match) -> DragoonRules:
    return match.ruleset  # type: ignore[return-value]


# -- the board ------------------------------------------------------------------------------
def render_board(match: Match) -> RenderableType:
    """The whole board; it picks a boxed layout when the console is wide enough, a compact one if not."""
    return DragoonBoard(rules_of(match), match.state)


class DragoonBoard:
    """A rich renderable of one Dragoon position."""

    def __init__(self, rules: DragoonRules, state: DragoonState) -> None:
        self.rules, self.board, self.s = rules, rules.board, state

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = options.max_width >= FULL_WIDTH
        yield self._header()
        yield self._turn_track()
        for i in range(len(self.board.allied)):
            yield self._route_title(i)
            yield self._route_row(i) if wide else self._route_line(i)
        yield self._escape_title()
        yield self._escape_row() if wide else self._escape_line()
        yield self._holding_boxes(wide, min(options.max_width, FULL_WIDTH))
        # the line of a held box says it too (double), not its colour alone: NO_COLOR and monochrome terminals read it
        held = "green double box: Allied-held" if wide else "[*Name]: Allied-held"
        yield Text(
            f"{held} · bold arrow: next attack · ⇢: attack, never enter · -1/-2: desperate · ^: top of stack · h: help",
            style="dim",
        )

    # -- header and turn track ---------------------------------------------------------------
    def _header(self) -> Text:
        s = self.s
        text = Text()
        text.append("OPERATION DRAGOON 1944", style="bold")
        text.append(f" · {s.turn} Aug · ")
        text.append(PHASE_NAMES[s.phase], style="bold cyan")
        text.append(" · RP left ")
        text.append(str(s.rp), style="bold")
        text.append(" · Air ")
        text.append(*air_status(s))
        return text

    def _turn_track(self) -> Text:
        """The turn track, then the VP the Allies would score if the game ended now."""
        s, b = self.s, self.board
        text = Text("Turn ", style="dim")
        for turn in range(b.first_turn, b.last_turn + 1):
            if turn == s.turn:
                text.append(f"[{turn}]", style="bold reverse")
                text.append(" ")
            else:
                text.append(f"{turn} ", style="dim" if turn < s.turn else "")
        text.append("Aug · VP so far ")
        vp, parts = self.rules.victory_points(s)
        text.append(str(vp), style="bold")
        if parts:
            text.append(" (" + ", ".join(f"{name.split()[-1]} {n}" for name, n in parts.items()) + ")", style="dim")
        ports = [loc for loc in (b.marseilles, b.toulon) if loc >= 0]
        if not any(s.control[loc] for loc in ports):
            text.append(" · no port held yet", style="yellow")
        return text

    # -- the five Allied routes ---------------------------------------------------------------
    def _route_stops(self, i: int) -> list[int]:
        return list(self.rules.route_stops[i])

    def _route_title(self, i: int) -> Text:
        b, s = self.board, self.s
        unit = b.allied[i]
        text = Text()
        text.append(f"{unit.name} ", style=f"bold {ROUTE_COLOR.get(unit.color, unit.color)}")
        text.append(f"({unit.id})", style="dim")
        if s.allied_pos[i] == IN_BOX:
            landing = b.landing_turn[i]
            waiting = f"lands free on {landing} Aug" if landing is not None else "ready to invade (1 RP)"
            text.append(f"  in its invasion box: {waiting}", style="yellow")
        return text

    def _route_row(self, i: int) -> Table:
        stops = self._route_stops(i)
        contents = [self._box_lines(loc, route_unit=i) for loc in stops]
        height = 1 + max(1, *(len(lines) for lines in contents))
        here = self.rules.allied_location(self.s, i)
        color = ROUTE_COLOR.get(self.board.allied[i].color, "white")
        cells: list[RenderableType] = []
        for k, loc in enumerate(stops):
            if k:
                attack_only = k == len(stops) - 1 and loc == self.board.attack_only[i]
                arrow = "⇢" if attack_only else "→"
                active = stops[k - 1] == here and not self.s.stalled[i]
                cells.append(Text("\n" + arrow, style=f"bold {color}" if active else f"dim {color}"))
            cells.append(self._box(loc, contents[k], height))
        return _grid(cells)

    def _route_line(self, i: int) -> Text:
        text = Text()
        stops = self._route_stops(i)
        for k, loc in enumerate(stops):
            if k:
                text.append(" → " if not (k == len(stops) - 1 and loc == self.board.attack_only[i]) else " ⇢ ")
            text.append_text(self._compact_box(loc, route_unit=i))
        return text

    # -- the German withdrawal route ------------------------------------------------------------
    def _escape_title(self) -> Text:
        b, s = self.board, self.s
        text = Text("German withdrawal route", style="bold")
        text.append(" (the escape column moves north each turn)", style="dim")
        if b.panzer >= 0:
            if s.panzer_mode == PANZER_HELD:
                text.append(f"  {b.german[b.panzer].id} holds Avignon until VI-Corps enters Crest", style="yellow")
            elif s.panzer_mode == PANZER_PINNED:
                text.append(f"  {b.german[b.panzer].id} stays in Montelimar to the end", style="yellow")
        return text

    def _escape_row(self) -> Table:
        track = list(self.board.escape_track)
        contents = [self._box_lines(loc, route_unit=None) for loc in track]
        escaped = self._units_with(ESCAPED)
        contents.append(
            [Text(f"{len(escaped)} unit{'s' if len(escaped) != 1 else ''}", style="bold" if escaped else "dim")]
        )
        height = 1 + max(1, *(len(lines) for lines in contents))
        cells: list[RenderableType] = []
        for k, loc in enumerate(track):
            if k:
                cells.append(Text("\n→", style="dim"))
            cells.append(self._box(loc, contents[k], height))
        cells.append(Text("\n→", style="dim"))
        cells.append(
            Panel(
                Group(Text("Escaped", style="bold"), *contents[-1]),
                box=box.SQUARE,
                width=BOX_WIDTH,
                height=height + 2,
                padding=0,
                border_style="grey50",
            )
        )
        return _grid(cells)

    def _escape_line(self) -> Text:
        text = Text()
        for k, loc in enumerate(self.board.escape_track):
            if k:
                text.append(" → ")
            text.append_text(self._compact_box(loc, route_unit=None))
        text.append(f" → [Escaped: {len(self._units_with(ESCAPED))}]")
        return text

    # -- one location --------------------------------------------------------------------------
    def _box_lines(self, loc: int, route_unit: int | None) -> list[Text]:
        """What stands in a location: the route's own Allied unit (on a route row) or any Allied unit
        (on the withdrawal route), then the German units, top of the stack first."""
        b, s = self.board, self.s
        lines: list[Text] = []
        for i in range(len(b.allied)):
            if (route_unit is None or i == route_unit) and self.rules.allied_location(s, i) == loc:
                lines.append(_chip(b.allied[i].id, NATION_CHIP.get(b.allied[i].nation, "bold reverse")))
                status = allied_status(s, i)
                if status:
                    lines.append(Text(status, style="bold yellow" if s.stalled[i] else "magenta"))
        germans = self.rules.germans_at(s, loc)
        top = self.rules.top_unit(s, loc)
        for g in sorted(germans, key=lambda g: g != top):
            mark = "^" if len(germans) > 1 and g == top else ""
            label = f"{mark}{b.german[g].id}"
            line = _chip(label, GERMAN_CHIP, INSIDE - 3 if s.desperate[g] else INSIDE)
            if s.desperate[g]:
                line.append(f"{b.desperate_drm[g]:+d}".rjust(3), style="bold red")
            lines.append(line)
        return lines

    def _box(self, loc: int, lines: list[Text], height: int) -> Panel:
        b, s = self.board, self.s
        spec = b.locations[loc]
        held = s.control[loc]
        name = Text(short_name(spec.id), style="bold green" if held else "bold")
        return Panel(
            Group(name, *lines),
            box=box.DOUBLE if held else box.SQUARE,
            width=BOX_WIDTH,
            height=height + 2,
            padding=0,
            border_style="green" if held else "grey50",
            title=Text(f"{spec.vp}VP", style="yellow") if spec.vp else None,
            title_align="right",
            subtitle=Text(f"fort{b.fortress_drm:+d}", style="yellow") if spec.fortress else None,
            subtitle_align="right",
        )

    def _compact_box(self, loc: int, route_unit: int | None) -> Text:
        spec = self.board.locations[loc]
        held = self.s.control[loc]
        text = Text("[*" if held else "[")  # in text too: the compact board draws no box to colour
        text.append(short_name(spec.id).strip(), style="bold green" if held else "bold")
        for line in self._box_lines(loc, route_unit):
            text.append(" ")
            text.append(line.plain.strip(), style=line.style or (line.spans[0].style if line.spans else ""))
        text.append("]")
        return text

    # -- boxes beside the map ------------------------------------------------------------------
    def _units_with(self, where: int) -> list[int]:
        return [g for g, loc in enumerate(self.s.german_loc) if loc == where]

    def _holding_boxes(self, wide: bool, width: int) -> RenderableType:
        b, s = self.board, self.s
        waiting = [i for i, _ in enumerate(b.allied) if s.allied_pos[i] == IN_BOX]
        to_invade = [b.allied[i].id for i in waiting if b.landing_turn[i] is None]
        waiting_allied = [", ".join(to_invade) + " to invade"] if to_invade else []
        waiting_allied += [
            f"{b.allied[i].id} lands {b.landing_turn[i]}" for i in waiting if b.landing_turn[i] is not None
        ]
        arriving = [f"{b.german[g].id} {b.german[g].arrival_turn}" for g in self._units_with(ARRIVAL_BOX)]
        if arriving:
            arriving[-1] += " Aug"
        escaped = [b.german[g].id for g in self._units_with(ESCAPED)]
        escaped += [f"{b.german[g].id} (to {b.retreat_beyond[g] or 'safety'})" for g in self._units_with(BEYOND)]
        eliminated = [f"{b.german[g].id} ({turn})" for g, turn in sorted(s.eliminated.items(), key=lambda kv: kv[1])]
        boxes = [
            ("Invasion boxes", waiting_allied, "all ashore"),
            ("Arriving at Arles", arriving, "none left"),
            ("Escaped", escaped, "none"),
            (f"Eliminated {len(eliminated)} (+1 VP each)", eliminated, "none"),
        ]
        if not wide:
            return Group(*(Text(f"{title}: " + (", ".join(items) or empty)) for title, items, empty in boxes))
        texts = [", ".join(items) or empty for _, items, empty in boxes]
        widths = _share(
            width - len(boxes) + 1, [len(title) + 6 for title, _, _ in boxes], [len(text) + 4 for text in texts]
        )
        grid = Table.grid(padding=(0, 1))
        for w in widths:
            grid.add_column(width=w)
        grid.add_row(
            *(
                Panel(
                    Text(text, style="" if items else "dim"),
                    title=title,
                    title_align="left",
                    box=box.ROUNDED,
                    border_style="grey50",
                    padding=(0, 1),
                    width=w,
                )
                for (title, items, _), text, w in zip(boxes, texts, widths, strict=True)
            )
        )
        return grid


def _share(total: int, least: list[int], wanted: list[int]) -> list[int]:
    """Split `total` columns among boxes: at least `least` each, otherwise in proportion to their text."""
    if sum(wanted) <= total:
        widths = [max(lo, w) for lo, w in zip(least, wanted, strict=True)]
    else:
        widths = [max(lo, total * w // sum(wanted)) for lo, w in zip(least, wanted, strict=True)]
    k = 0
    while sum(widths) < total:  # hand out what rounding left over
        widths[k % len(widths)] += 1
        k += 1
    while sum(widths) > total:  # take back from the widest
        widths[widths.index(max(widths))] -= 1
    return widths


def _grid(cells: list[RenderableType]) -> Table:
    grid = Table.grid(padding=0)
    for _ in cells:
        grid.add_column(no_wrap=True)
    grid.add_row(*cells)
    return grid


def _chip(label: str, style: str, width: int = INSIDE) -> Text:
    """A unit counter: its id on the side's colour, padded to a fixed width."""
    return Text(label[:width].ljust(width), style=style)


def air_status(s: DragoonState) -> tuple[str, str]:
    if s.air_grounded:
        return "grounded (bad weather)", "bold red"
    if s.air_used:
        return "used this turn", "dim"
    note = " (bad weather next turn)" if s.bad_weather_next else ""
    return "available" + note, "bold green"


def allied_status(s: DragoonState, i: int) -> str:
    """The markers under an Allied unit: stalled (or done for the turn) and FFI."""
    parts = []
    if s.stalled[i]:
        parts.append("STALLED" if not s.ffi[i] else "STALL")
    elif s.spent[i]:
        parts.append("done")
    if s.ffi[i]:
        parts.append("FFI")
    return " ".join(parts)


# -- menu labels, pending rolls, events -----------------------------------------------------------
def action_label(match: Match, action: str) -> str:
    """The rules' plain-language label, with the exact chance of an attack as a fraction; on a German
    counterattack that succeeded against a unit with FFI, what re-rolling and keeping the roll do."""
    rules, s = rules_of(match), match.state
    label = rules.describe_action(s, action)
    if s.phase == BOT_REROLL and s.bot_attack is not None and action in ("reroll ffi", "accept"):
        return f"{label} [{_counterattack_note(rules, s, action)}]"
    chance = exact_advance(rules, s, action)
    return f"{label} [exactly {chance}]" if chance is not None else label


def _counterattack_note(rules: DragoonRules, s: DragoonState, action: str) -> str:
    """Dragoon: Resolving Unit Attacks, FFI: the German re-roll succeeds on 3+ again (no DRM: desperate
    defense does not count in German counterattacks); a success stalls an active unit and pushes a
    stalled one back."""
    b = rules.board
    assert s.bot_attack is not None
    unit = b.allied[s.bot_attack.target].id
    effect = f"pushes {unit} back" if s.stalled[s.bot_attack.target] else f"stalls {unit}"
    if action == "accept":
        return f"the counterattack stands: it {effect}"
    chance = advance_fraction(0, False, b.advance_on)
    return f"exactly {chance} the re-roll succeeds again and {effect}; {1 - chance} it fails"


def exact_advance(rules: DragoonRules, s: DragoonState, action: str) -> Fraction | None:
    """The exact chance that an opposed attack (or its FFI re-roll) advances; None for other actions."""
    b = rules.board
    if action == "reroll ffi" and s.phase == ATTACK_REROLL and s.attack is not None and s.attack.mode == OPPOSED:
        return advance_fraction(s.attack.drm, False, b.advance_on)
    odds = attack_odds(rules, s, action)
    return odds["advance"] if odds is not None and odds["opposed"] else None


def pending_roll(match: Match) -> RenderableType | None:
    """What the die about to be rolled decides, with the exact odds (shown before a manual roll)."""
    rules, s = rules_of(match), match.state
    b = rules.board
    if s.phase == RP_ROLL:
        faces = ", ".join(f"{face}: {rp} RP" for face, rp in sorted(b.rp_roll.items()))
        return Text(f"Allied RPs for {s.turn} Aug: roll on the RP chart ({faces}).")
    if s.phase == ATTACK_ROLL and s.attack is not None:
        i, target, mode, defender, drm = s.attack.unit, s.attack.target, s.attack.mode, s.attack.defender, s.attack.drm
        unit, where = b.allied[i].id, b.locations[target].name
        again = " (FFI re-roll)" if s.attack.rerolled else ""
        if mode == OPPOSED:
            need = b.advance_on - drm
            chance = advance_fraction(drm, False, b.advance_on)
            return Text(
                f"{unit} attacks {b.german[defender].id} in {where}{again}: DRM {drm:+d}, needs {need}+ on the die "
                f"to advance (chance {chance} = {float(chance):.1%})."
            )
        return Text(
            f"{unit} advances into {where}{again}: any roll advances, but a {b.stall_on} stalls it "
            "(5/6 to advance without a stall)."
        )
    if s.phase == BOT_ROLL:
        table = Table(
            title="German BOT chart: roll one die",
            box=None,
            show_header=False,
            title_justify="left",
            title_style="bold",
        )
        table.add_column(justify="right")
        table.add_column()
        for roll in range(1, 7):
            line = b.bot_lines[roll]
            table.add_row(str(roll), Text(f"{line.title}: {line.text}"))
        return table
    if s.phase == BOT_ATTACK_ROLL and s.bot_attack is not None:
        g, target = s.bot_attack.attacker, s.bot_attack.target
        outcome = "push it back" if s.stalled[target] else "stall it"
        chance = advance_fraction(0, False, b.advance_on)
        again = " (FFI re-roll)" if s.bot_attack.rerolled else ""
        return Text(
            f"{b.german[g].id} counterattacks {b.allied[target].id}{again}: {b.advance_on}+ to {outcome} "
            f"(chance {chance})."
        )
    return None


EVENT_STYLES = {
    "die": "bold yellow",
    "bot": "bold magenta",
    "eliminated": "bold red",
    "escaped": "red",
    "stalled": "yellow",
    "advance": "green",
    "retreat": "cyan",
    "allied_retreat": "yellow",
    "game_over": "bold",
    "turn": "bold cyan",
    "rp": "cyan",
}


def event_style(event: dict[str, Any]) -> str:
    return EVENT_STYLES.get(str(event.get("type")), "")


def terminal_view() -> TerminalView:
    """Dragoon's part of the terminal (the spec's `terminal`); its help is the spec's `help`."""
    return TerminalView(
        render_board=render_board, action_label=action_label, pending_roll=pending_roll, event_style=event_style
    )
