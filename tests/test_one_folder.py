"""A game is one folder (issue 13): no code, page or style outside warroom/games/ names a game.

The words come from the registry, so the check grows with every game added: each game's id, and the
words its spec declares as naming it (`GameSpec.keywords`, e.g. a title word such as "Saint-Lo", a
scenario, a place only that game has). Not every word of a title or a side
name: a new dice game's "race", "dice" or "Red" are every game's words, and banning them would flag
generic code that never meant the game. Generic code asks the game's spec instead
(warroom/engine/spec.py); user documents (README, docs/) may name games freely.
"""

from __future__ import annotations

import re
from pathlib import Path

from warroom.games import game_ids, get_spec

PACKAGE = Path(__file__).resolve().parents[1] / "warroom"
GAMES = PACKAGE / "games"
SOURCES = ("*.py", "*.js", "*.css", "*.html")


def declared_keywords(game: str) -> tuple[str, ...]:
    """The words `game`'s spec declares as naming it (`GameSpec.keywords`)."""
    keywords = get_spec(game).keywords
    assert isinstance(keywords, tuple) and all(isinstance(k, str) and k for k in keywords), (game, keywords)
    return keywords


def game_words() -> set[str]:
    """Every registered game's id and declared keywords, in lower case (matched in any case)."""
    return {word.lower() for game in game_ids() for word in (game, *declared_keywords(game))}


def names_of_games(root: Path, words: set[str]) -> list[str]:
    """Each line of a source under `root` (outside its games/ folder) that names one of `words`, as a whole word."""
    pattern = re.compile(r"(?<!\w)(" + "|".join(sorted(map(re.escape, words))) + r")(?!\w)", re.IGNORECASE)
    games = root / "games"
    found = []
    for glob in SOURCES:
        for path in sorted(root.rglob(glob)):
            if games in path.parents:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(root.parent)}:{number}: {line.strip()[:100]}")
    return found


def test_nothing_outside_the_games_folder_names_a_game() -> None:
    found = names_of_games(PACKAGE, game_words())
    assert not found, "generic code names a game (ask the game's spec instead):\n" + "\n".join(found)


def test_the_check_would_see_a_game_name() -> None:
    """The pattern is not empty: every registered game's id is among the words, and some declare more."""
    words = game_words()
    assert set(game_ids()) <= words and len(words) > len(game_ids())


def test_the_check_flags_ids_and_keywords_and_spares_common_words(tmp_path: Path) -> None:
    """A generic module that names a game by its id or a declared keyword, in any case, is flagged; the words of
    titles and sides that every game uses are not."""
    root = tmp_path / "warroom"
    (root / "games" / "somegame").mkdir(parents=True)
    (root / "games" / "somegame" / "rules.py").write_text("PATTON = 'the games folder may name itself'\n")
    keyword = next(word for game in game_ids() for word in declared_keywords(game))
    naming = [f"# the {game} rules" for game in game_ids()] + [
        '"""Unlike Tunisia, this works."""',
        "if title == 'Panzer Saint-Lo':",
        "const DRAGOON = 1;",
        "/* patton's towns */",
        f"<p>{keyword.upper()}</p>",
    ]
    generic = ["# roll the dice and race to the Red line", "first = 'Allied'  # the first side", "a battle of the game"]
    (root / "engine").mkdir()
    (root / "engine" / "generic.py").write_text("\n".join(naming + generic) + "\n", encoding="utf-8")
    found = names_of_games(root, game_words())
    assert [line.split(":", 2)[1] for line in found] == [str(n) for n in range(1, len(naming) + 1)], found
