"""Games that exist only for the tests: each is one folder, registered by the tests (never by the package).

They join a run through `warroom.games.register_game` or the environment (WARROOM_GAMES="id=games.<name>.spec:SPEC",
with tests/ on PYTHONPATH), which is the proof that a game needs no file outside its own folder.
"""
