"""The game package; its spec is spec.py (warroom/games/__init__.py registers it)."""
