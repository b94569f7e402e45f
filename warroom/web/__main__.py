"""`python -m warroom.web`: serve the browser front end (what `warroom serve` does)."""

from warroom.web.server import main

main()
