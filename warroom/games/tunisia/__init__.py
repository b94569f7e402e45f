"""Patton's First Victory: Tunisia (Decision Games, 2011; issue 14): a hex-and-counter game.

So far its data (data/*.toml: the reconstructed map, Terrain Effects Chart and counters) and its board
model (board.py); the rules and the spec come next, and the game joins warroom/games/__init__.py's
registry then. NOTES.md lists every reading of the rules and every reconstruction.
"""
