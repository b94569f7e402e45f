"""Patton's First Victory: Tunisia (Decision Games, 2011; issue 14): a hex-and-counter game.

Its data (data/*.toml: the reconstructed map, Terrain Effects Chart and counters), its board model
(board.py) and its rules engine (rules.py: `TunisiaRules`, the Ruleset, and the modules it ties
together). The spec, front ends and AI come next, and the game joins warroom/games/__init__.py's
registry then. NOTES.md lists every reading of the rules and every reconstruction.
"""

KEYWORDS = ("Kasserine",)
"""Words besides its id that name this game (a place only its map has): no code outside warroom/games/ may use them
(tests/test_one_folder.py)."""
