"""Built once where thinking workers are forked (warroom.web.thinking's fork server): every
registered game's ruleset and agent hooks, asked of its spec, so that each worker starts with the
game's rules and search modules imported and its first job costs the search alone.

A fork server's preload list names modules, not calls: importing this module is what builds them.
"""

from __future__ import annotations

import logging

log = logging.getLogger("warroom.ai")


def warm() -> list[str]:
    """Build each registered game's ruleset and agent hooks (importing what their factories import);
    the ids of the games built. A game that cannot be built is logged and skipped: its own jobs will
    report why, and the other games' workers still start."""
    from warroom.games import game_ids, get_ruleset, get_spec

    from . import agent_hooks

    built = []
    for game in game_ids():
        try:
            get_spec(game)
            get_ruleset(game)
            agent_hooks(game)
        except Exception:  # noqa: BLE001 - one broken game must not stop the fork server every worker comes from
            log.exception("preloading %s for the thinking workers failed", game)
            continue
        built.append(game)
    return built


BUILT = warm()
"""The games this process built on import."""
