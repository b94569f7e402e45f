"""Panzer Saint-Lo 1944 (Spielen, 2011): the board, the order of battle and the Battle Reports as data
(board.py, cards.py). The rules are built on them next; the game is not registered yet."""
