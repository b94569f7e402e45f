"""Three-card bluff (Kuhn poker), a test-only game with hidden cards; see rules.py."""

KEYWORDS = ("Kuhn",)
"""Words besides its id that name this game: no code outside warroom/games/ may use them (tests/test_one_folder.py)."""
