"""Operation Dragoon in the browser: its board module and styles (static/) and the layout they draw (layout.py)."""
