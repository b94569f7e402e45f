"""Panzer Saint-Lo 1944 in the browser: layout.py (the drawing data), actions.py (descriptors), static/."""
