"""Patton's First Victory: Tunisia (Decision Games, 2011; issue 14): a hex-and-counter game.

Its data (data/*.toml: the reconstructed map, Terrain Effects Chart and counters), its board model
(board.py), its rules engine (rules.py: `TunisiaRules`, the Ruleset, and the modules it ties together),
and what it offers every front end (spec.py, registered in warroom/games/__init__.py). NOTES.md lists
every reading of the rules and every reconstruction.
"""
