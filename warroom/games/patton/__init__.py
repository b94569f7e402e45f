"""The game package; its spec is spec.py (warroom/games/__init__.py registers it)."""

KEYWORDS = ("Normandy", "Bulge", "Sicily")
"""Words besides its id that name this game (its scenarios' names): no code outside warroom/games/ may use them
(tests/test_one_folder.py)."""
