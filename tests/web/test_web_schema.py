"""The API keeps its OpenAPI contract: an independent fuzzer (schemathesis, every check) finds nothing.

Schemathesis generates requests from /openapi.json, valid and invalid, and checks every answer: no
server error, a status the description lists for the route, a body that fits the listed schema,
valid data accepted, invalid data refused, and more. It runs against the app in this process, with a
seat token for the token-guarded routes (a game made first), and then statefully, following the
description's links (a created game's id and token into its view, actions, undo, ...).

Three routes take values whose legality no schema can say: an action is legal or not in the game's
current position, and an uploaded or verified record is valid only if every move in it replays. There
a well-formed request the rules refuse is answered 400 (illegal_action, bad_record, not_verifiable),
which "positive data acceptance" is told to expect for those routes only.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402

from warroom.web import agents  # noqa: E402
from warroom.web.errors import ApiError  # noqa: E402

MAX_EXAMPLES = int(os.environ.get("WARROOM_FUZZ_EXAMPLES", "10"))
"""Cases per route (and stateful runs): 10 keep the module near a minute; raise it for a deeper search."""
RULES_DECIDE = ("/api/games/{game_id}/actions", "/api/games/upload", "/api/verify")


class FirstLegal:
    """A computer player that answers at once (the fuzzer makes many games against the computer)."""

    def __init__(self, name: str, game: str) -> None:
        if name not in agents.agent_names(game):  # as the real players are built: only those the game has
            raise ApiError(400, "unknown_agent", f"no computer player {name!r} for {game}")

    def choose(self, match: Any) -> tuple[str, str]:
        return match.legal_actions()[0], "the first legal action"


def _app() -> tuple[Any, str, str]:
    """The app on a fresh SQLite file, with one hot-seat Patton game: (app, game id, a seat token)."""
    from warroom.web.server import create_app

    folder = Path(tempfile.mkdtemp(prefix="warroom-schema-"))
    atexit.register(shutil.rmtree, folder, True)
    app = create_app(f"sqlite:///{folder / 'warroom.db'}")
    created = app.state.service.create("patton", None, "hotseat", 7)
    return app, created.live.id, next(iter(created.tokens.values()))


APP, GAME_ID, TOKEN = _app()


def config(pinned: bool) -> Any:
    """All checks; `pinned`: every request opens the game made above (else ids and tokens come from links)."""
    return schemathesis.Config.from_dict(
        {
            "checks": {"enabled": True},
            "generation": {"max-examples": MAX_EXAMPLES},
            **({"parameters": {"path.game_id": GAME_ID}, "headers": {"X-Warroom-Token": TOKEN}} if pinned else {}),
            "operations": [
                {
                    "include-path": path,
                    "checks": {
                        "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "401", "403", "404", "409"]}
                    },
                }
                for path in RULES_DECIDE
            ],
        }
    )


@pytest.fixture(autouse=True, scope="module")
def quick_computer_players() -> Any:
    """For this module only: computer seats answer at once (a real search per fuzzed game would take minutes)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agents, "make_agent", lambda name, game, budget_ms, seed: FirstLegal(name, game))
        yield


schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=config(pinned=True))
linked = schemathesis.openapi.from_asgi("/openapi.json", APP, config=config(pinned=False))


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_keeps_the_contract(case: Any) -> None:
    case.call_and_validate()


TestLinkedRequests = linked.as_state_machine().TestCase
TestLinkedRequests.settings = settings(
    max_examples=MAX_EXAMPLES, stateful_step_count=8, deadline=None, suppress_health_check=list(HealthCheck)
)
