"""Panzer Saint-Lo 1944 (Spielen, 2011): the board, the order of battle and the Battle Reports as data
(board.py, cards.py) and the rules engine (rules.py: two players and the four-player team variant).
Not registered yet: the spec, front ends and AI come next."""

KEYWORDS = ("Saint-Lo", "Saint-Lô", "St-Lo")
"""Words besides its id that name this game (its title's place, however spelled): no code outside warroom/games/ may
use them (tests/test_one_folder.py)."""
