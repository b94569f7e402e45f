"""Tunisia in the browser: its board module and styles (static/), the layout they draw (layout.py) and each
legal action's descriptor (actions.py)."""
