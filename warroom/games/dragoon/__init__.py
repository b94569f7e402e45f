"""The game package; its spec is spec.py (warroom/games/__init__.py registers it)."""

KEYWORDS = ("Montelimar", "Montélimar")
"""Words besides its id that name this game (a place only its map has): no code outside warroom/games/ may use them
(tests/test_one_folder.py)."""
