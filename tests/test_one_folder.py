"""A game is one folder (issue 13): no code, page or style outside warroom/games/ names a game.

The words come from the registry, so the check grows with every game added: each game's id, its
title's distinctive words, its scenarios and its side ids. Generic code asks the game's spec
instead (warroom/engine/spec.py); user documents (README, docs/) may name games freely.
"""

from __future__ import annotations

import re
from pathlib import Path

from warroom.games import game_ids, get_ruleset

PACKAGE = Path(__file__).resolve().parents[1] / "warroom"
GAMES = PACKAGE / "games"
SOURCES = ("*.py", "*.js", "*.css", "*.html")
COMMON = {
    "battle",
    "battles",
    "campaigns",
    "major",
    "general",
    "operation",
    "standard",
    "campaign",
    "the",
    "and",
    "of",
    "game",
    "first",
    "victory",
}
"""Title and scenario words too common to point at one game ("Patton's First Victory: Tunisia" is still found by
its id; "first" and "victory" are every game's words: the first player, a victory)."""


def game_words() -> set[str]:
    """Ids, scenarios and title words, in any case."""
    words: set[str] = set()
    for game in game_ids():
        info = get_ruleset(game).info
        words.add(game)
        words.update(info.scenarios)
        words.update(w for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", info.title))
    return {w.lower() for w in words} - COMMON


def side_words() -> set[str]:
    """Side ids as the games spell them: a side may be a common word in lower case (a chart's axis)."""
    return {side for game in game_ids() for side in get_ruleset(game).info.sides}


def test_nothing_outside_the_games_folder_names_a_game() -> None:
    anycase = re.compile(r"\b(" + "|".join(sorted(map(re.escape, game_words()))) + r")\b", re.IGNORECASE)
    exact = re.compile(r"\b(" + "|".join(sorted(map(re.escape, side_words()))) + r")\b")
    found = []
    for glob in SOURCES:
        for path in PACKAGE.rglob(glob):
            if GAMES in path.parents:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if anycase.search(line) or exact.search(line):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()[:100]}")
    assert not found, "generic code names a game (ask the game's spec instead):\n" + "\n".join(found)


def test_the_check_would_see_a_game_name() -> None:
    """The pattern is not empty: every registered game's id is among the words."""
    words = game_words()
    assert set(game_ids()) <= words and len(words) > len(game_ids())
