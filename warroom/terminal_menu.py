"""The play session's menu of legal actions: one numbered list, or steps (warroom/menus.py) when the game gives
paths, with the answer typed at it (a number, 0 back, `all`, a name) turned into the action played."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from warroom.menus import Entry, Level, build_level, find, pick_by_name, pick_by_word, step_into, wrap_words

if TYPE_CHECKING:
    from warroom.terminal import TerminalGame


class ActionMenu:
    """The menu of the position the session shows: its labels, its steps' paths and where in the steps the
    player stands, all started afresh in a new position."""

    def __init__(self, game: TerminalGame, *, flat: bool) -> None:
        self.game = game
        self.flat = flat  # every legal action in one numbered list, never in steps (scripts, --flat)
        self._key: Any = None
        self._labels: dict[str, str] = {}
        self._paths: dict[str, tuple[str, ...]] = {}
        self._level: Level | None = None
        self._back: list[Level] = []
        self._show_all = False

    def label(self, action: str) -> str:
        if action not in self._labels:
            self._labels[action] = self.game.renderer.action_label(self.game.match, action)
        return self._labels[action]

    def current_level(self) -> Level | None:
        """The step menu's level now shown; None for the full numbered list (--flat, `all`, or a game without paths)."""
        match, renderer = self.game.match, self.game.renderer
        legal = match.legal_actions()
        key = (id(match), len(match.actions), len(match.dice_rolled), tuple(legal))
        if key != self._key:  # a new position: labels, paths and the menu start afresh
            self._key = key
            self._labels = {}
            self._show_all = False
            self._back = []
            path = renderer.action_path
            self._paths = {a: path(match, a) for a in legal} if path is not None and not self.flat else {}
            order = renderer.action_order
            listed = order(match, legal) if order is not None and self._paths else legal
            self._level = build_level(listed, self._paths, self.label) if self._paths else None
        return None if self._show_all else self._level

    def show(self) -> None:
        match = self.game.match
        side = self.game.renderer.side_name(match, match.to_act or "")
        level = self.current_level()
        if level is None:
            self.game.console.print(Text(f"{side} to decide:", style="bold"))
            for n, action in enumerate(match.legal_actions(), 1):
                self._line(str(n), self.label(action))
            return
        head = Text(f"{side} to decide", style="bold")
        if level.trail:
            head.append(": " + " › ".join(level.trail), style="bold")
        self.game.console.print(head)
        for n, entry in enumerate(level.entries, 1):
            self._line(str(n), entry.label, 0 if entry.leaf else len(entry.actions))
        if self._back:
            self._line("0", "back", style="dim")

    def _line(self, number: str, label: str, choices: int = 0, style: str = "") -> None:
        """One numbered line, wrapped under its text and never inside a bracketed note like [exactly 2/3]."""
        console = self.game.console
        indent = 5
        width = max(40, console.width - 1)
        more = f"  ▸ {choices} choices" if choices else ""
        lines = wrap_words(label + more, width, indent)
        for k, part in enumerate(lines):
            line = Text(f"{number:>3}. " if k == 0 else " " * indent, style="bold cyan")
            line.append(part, style=style or ("cyan" if choices else ""))
            console.print(line, no_wrap=True, overflow="ignore", crop=False)

    def prompt(self) -> str:
        """What the decision prompt asks, for the list or the step now shown."""
        level = self.current_level()
        if level is None:
            back = ", 0 steps" if self._show_all else ""
            return f"Choose 1-{len(self.game.match.legal_actions())}{back} (h help, u undo, s save, q quit)> "
        back = ", 0 back" if self._back else ""
        return f"Choose 1-{len(level.entries)}{back}, or type a name or all (h help, u undo, s save, q quit)> "

    def answer(self, line: str) -> None:
        """Play, or step to, what `line` (not a command) picks from the menu shown."""
        legal = self.game.match.legal_actions()
        level = self.current_level()
        if line in legal:
            self.game.play(line)
        elif level is None:
            self._flat_choice(line, legal)
        else:
            self._step_choice(line, level, legal)

    def _flat_choice(self, line: str, legal: list[str]) -> None:
        if line == "0" and self._show_all:
            self._show_all = False
            self.show()
        elif line.isdigit():
            n = int(line)
            if not 1 <= n <= len(legal):
                self.game.error(f"There is no action {n}: choose a number from 1 to {len(legal)}.")
                return
            self.game.play(legal[n - 1])
        else:
            self.game.error(
                f"{line!r} is not a number or a command: type a number from 1 to {len(legal)}, or h for help."
            )

    def _step_choice(self, line: str, level: Level, legal: list[str]) -> None:
        """A number steps into its group or plays its action; 0 goes back; `all` lists everything;
        a word picks the entry it starts (a force like 2A1I), or inside a group the one entry naming it (a
        hex's number or a place's name in a destination list), else finds the actions naming it (a number
        beyond the list's too: a hex)."""
        n = len(level.entries)
        k = int(line) if line.isdigit() else None
        if k == 0 and self._back:
            self._level = self._back.pop()
            self.show()
            return
        if k is not None and 1 <= k <= n:
            self._choose(level, level.entries[k - 1])
            return
        if line.lower() in ("all", "list"):
            self._show_all = True
            self.show()
            return
        entry = pick_by_word(level, line, self._paths) if k is None else None
        if entry is None and level.trail:
            entry = pick_by_name(level, line, self._paths)
        if entry is not None:
            self._choose(level, entry)
            return
        found = find(legal, self._paths, self.label, line) if k != 0 else []
        if not found:
            self._nothing_named(line, k, n)
            return
        self._back.append(level)
        self._level = build_level(found, self._paths, self.label, trail=(f"actions naming {line!r}",))
        self.show()

    def _nothing_named(self, line: str, k: int | None, n: int) -> None:
        """`line` is neither a choice here nor named by any action: say what may be typed."""
        if k is not None:
            where = "from 1" if not self._back else "from 0 (back)"
            self.game.error(
                f"There is no choice {k} here, nor an action naming {line}: type a number {where} to {n}, "
                "a hex's number or a town's name, or all for the full list."
            )
            return
        self.game.error(
            f"{line!r} is not a number, a command or a name in any action here: type a number from 1 to {n}, "
            "a hex's number or a town's name, all for the full list, or h for help."
        )

    def _choose(self, level: Level, entry: Entry) -> None:
        if entry.leaf:
            self.game.play(entry.actions[0])
            return
        self._back.append(level)
        self._level = step_into(level, entry, self._paths, self.label)
        self.show()
