"""Step menus: a long list of legal actions chosen in steps (a place, then a destination, then the force).

A game that wants them gives each legal action a *path*: its choices from the most general to
the action itself, e.g. ``("From St. Lo (5A3I)", "attack Coutances …", "2A1I (2 MP) [odds]")``.
Actions sharing a first step are grouped under it, those sharing a second step under that, and
so on; a group of one is shown as the action itself. Nothing here names a game: the paths are
the game's words, the grouping is generic.

A typed name picks the one entry of a level that names it (`pick_by_name`: a hex number or a place in a
destination list), else finds every action naming it (`find`).

Also here: wrapping a menu line without breaking inside a bracketed note (``[exactly 2/3]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Path = tuple[str, ...]

FLAT_UP_TO = 12
"""A list this short is shown whole, one line an action: steps would only add keystrokes."""


@dataclass(frozen=True)
class Entry:
    """One numbered line of a menu level: a single action (a leaf) or a group of actions."""

    label: str
    actions: tuple[str, ...]

    @property
    def leaf(self) -> bool:
        return len(self.actions) == 1


@dataclass(frozen=True)
class Level:
    """One screen of a step menu: where it is (`trail`, the steps taken) and its numbered entries."""

    trail: tuple[str, ...]
    depth: int
    entries: tuple[Entry, ...]

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(a for entry in self.entries for a in entry.actions)


def build_level(
    actions: Sequence[str],
    paths: Mapping[str, Path],
    label: Callable[[str], str],
    *,
    depth: int = 0,
    trail: tuple[str, ...] = (),
    flat_up_to: int = FLAT_UP_TO,
) -> Level:
    """The entries of `actions` at step `depth`: grouped by their path's step there, in first-seen order.

    A short list at the top is shown flat with each action's full `label`; a level holding a single
    group steps into it at once (choosing the only thing there is would be a wasted keystroke).
    """
    if depth == 0 and len(actions) <= flat_up_to:
        return Level(trail, depth, tuple(Entry(label(a), (a,)) for a in actions))
    groups: dict[str, list[str]] = {}
    for action in actions:
        path = paths.get(action) or (label(action),)
        key = path[depth] if depth < len(path) - 1 else "\0" + action  # a path that ends here: its own entry
        groups.setdefault(key, []).append(action)
    entries = []
    for key, members in groups.items():
        if len(members) == 1:
            path = paths.get(members[0]) or (label(members[0]),)
            entries.append(Entry(" · ".join(path[min(depth, len(path) - 1) :]), (members[0],)))
        else:
            entries.append(Entry(key, tuple(members)))
    if len(entries) == 1 and not entries[0].leaf:
        return build_level(
            entries[0].actions, paths, label, depth=depth + 1, trail=(*trail, entries[0].label), flat_up_to=flat_up_to
        )
    return Level(trail, depth, tuple(entries))


def step_into(level: Level, entry: Entry, paths: Mapping[str, Path], label: Callable[[str], str]) -> Level:
    """The level under a group entry."""
    return build_level(
        entry.actions, paths, label, depth=level.depth + 1, trail=(*level.trail, entry.label), flat_up_to=0
    )


def find(actions: Sequence[str], paths: Mapping[str, Path], label: Callable[[str], str], text: str) -> list[str]:
    """The actions whose label, id or path has a word starting with `text` (any case): "coutances"
    finds every move to, from or against Coutances."""
    wanted = text.strip()
    if not wanted:
        return []
    # from the start of a word: "cout" finds Coutances, "lo" St. Lo, but "3I" not the 3I inside 3A3I
    pattern = re.compile(r"(?<!\w)" + re.escape(wanted), re.IGNORECASE)
    return [a for a in actions if any(pattern.search(word) for word in (label(a), a, *(paths.get(a) or ())))]


def pick_by_word(level: Level, text: str, paths: Mapping[str, Path] | None = None) -> Entry | None:
    """The one entry that the typed word starts (a force like "2A1I"), if exactly one does: the
    entry's label, or for a single action the last step of its path (its force, in a flat list too)."""
    word = text.strip().lower()
    if not word:
        return None

    def starts(entry: Entry) -> bool:
        heads = [entry.label]
        if entry.leaf and paths and paths.get(entry.actions[0]):
            heads.append(paths[entry.actions[0]][-1])
        return any(head.lower().split(" ", 1)[0] == word for head in heads)

    hits = [e for e in level.entries if starts(e)]
    return hits[0] if len(hits) == 1 else None


def pick_by_name(level: Level, text: str, paths: Mapping[str, Path] | None = None) -> Entry | None:
    """The one entry of this level that names what was typed, if exactly one does: a hex number or a place's
    name ("8314", "Lessouda", "less") in a destination list. A whole word or phrase of an entry's label (or of
    a single action's last step) counts first; failing that, the start of a word. None where no entry, or more
    than one, names it: the caller then looks through every action."""
    wanted = " ".join(text.split())
    if not wanted:
        return None

    def heads(entry: Entry) -> list[str]:
        out = [entry.label]
        if entry.leaf and paths and paths.get(entry.actions[0]):
            out.append(paths[entry.actions[0]][-1])
        return out

    for pattern in (
        re.compile(r"(?<!\w)" + re.escape(wanted) + r"(?!\w)", re.IGNORECASE),
        re.compile(r"(?<!\w)" + re.escape(wanted), re.IGNORECASE),
    ):
        hits = [e for e in level.entries if any(pattern.search(head) for head in heads(e))]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return None
    return None


_TOKEN = re.compile(r"\[[^\]]*\]|\S+")


def wrap_words(text: str, width: int, indent: int) -> list[str]:
    """`text` in lines of at most `width` characters (the first already `indent` in), never breaking
    inside a bracketed note; later lines are indented by `indent` spaces."""
    lines: list[str] = []
    line = ""
    room = max(20, width - indent)
    for token in _TOKEN.findall(text):
        if line and len(line) + 1 + len(token) > room:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines
