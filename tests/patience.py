"""How long a test waits for a state it expects: ceilings that only stop a hung test, never a measure of speed.

CI runs the suite on two cores that other work may load, so no test may pass or fail on how fast the machine is
(issue 37): a test waits for the state it expects (a computer player's move, a server's answer, a push, a page's
update) by polling for it, and gives up only after SLOW_STATE_SECONDS, far beyond what any working machine needs;
work is counted (moves made, calls made), never timed.
"""

from __future__ import annotations

SLOW_STATE_SECONDS = 120.0
"""The most a test waits for a state: only a hung test (or a broken product) ever reaches it."""

SLOW_STATE_TIMEOUT_MS = int(SLOW_STATE_SECONDS * 1000)
"""The same in milliseconds, for Playwright's waits."""
