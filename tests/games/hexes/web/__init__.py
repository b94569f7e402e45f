"""Hex skirmish in the browser: its board module and styles (static/), the layout they draw (layout.py)."""
