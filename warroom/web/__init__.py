"""The browser front end: an authoritative HTTP + WebSocket server, its storage and the SVG client.

Start it with `warroom serve` (or `python -m warroom.web`); see `server.serve`. Nothing heavy is
imported here, so `import warroom` stays fast.
"""
