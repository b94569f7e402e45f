"""Panzer Saint-Lo 1944 (Spielen, 2011): the board, the order of battle and the Battle Reports as data
(board.py, cards.py), the rules engine (rules.py: two players and the four-player team variant), and what
it offers every front end (spec.py: `saintlo` and `saintlo-teams`, registered in warroom/games/__init__.py)."""
