"""Patton in the browser: its board module and styles (static/) and the layout they draw (layout.py)."""
