"""Helpers the browser tests share: API calls against the live server, and a watched page.

A page waits up to SLOW_STATE_TIMEOUT_MS for what it expects (tests/patience.py): a computer player's turn, the
server's answer, a push. Playwright's waits poll for the state, so a fast machine goes on at once and a slow one
is given time; the ceiling only stops a hung test.
"""

from __future__ import annotations

from typing import Any

import httpx
from patience import SLOW_STATE_SECONDS, SLOW_STATE_TIMEOUT_MS

HTTP = httpx.Client(timeout=SLOW_STATE_SECONDS)
"""One client for every test request: `httpx.request` builds a client, and with it an SSL context from the
certificate store, for each call (most of a playthrough's time went there), though the tests speak plain HTTP."""


def api(server: Any, method: str, path: str, **kwargs: Any) -> Any:
    response = HTTP.request(method, server.url + path, **kwargs)
    assert response.status_code < 300, response.text
    return response.json()


WHOLE_MAP = "try { localStorage.setItem('warroom.view.' + location.pathname, JSON.stringify('whole')); } catch (e) {}"
"""A page script that has every hex board open on the whole map, as a player who chose "Whole map" there before
finds it (static/js/svg.js ZoomPan.remember): what the tests written before boards opened on the action see."""


def new_page(browser: Any, phone: bool = False, whole_map: bool = True) -> tuple[Any, Any, list[str]]:
    """A fresh context and page (laptop or phone size) that collects page errors and console errors; its waits
    (and the context's) give up only after SLOW_STATE_TIMEOUT_MS. `whole_map`: hex boards open on the whole map
    (WHOLE_MAP), every counter on screen to click; else on the action, as a new game opens."""
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, device_scale_factor=2 if phone else 1)
    if whole_map:
        context.add_init_script(WHOLE_MAP)
    context.set_default_timeout(SLOW_STATE_TIMEOUT_MS)
    page = context.new_page()
    page.set_default_timeout(SLOW_STATE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" and "status of 4" not in msg.text else None,
    )
    return context, page, errors


def seat_tokens(post: Any, created: dict[str, Any]) -> dict[str, str]:
    """Every seat's token of a game just created: the creator's own, and each invite claimed (as an opponent would).

    `post(path, json)` answers the JSON of a POST (a TestClient's or the live server's)."""
    tokens = {seat["side"]: seat["token"] for seat in created["seats"] if "token" in seat}
    for seat in created["seats"]:
        if "invite" in seat:
            tokens[seat["side"]] = post(f"/api/games/{created['id']}/claim", {"invite": seat["invite"]})["token"]
    return tokens


def client_post(client: Any) -> Any:
    """`post(path, json)` for `seat_tokens` over a TestClient."""

    def post(path: str, body: dict[str, Any]) -> Any:
        response = client.post(path, json=body)
        assert response.status_code < 300, response.text
        return response.json()

    return post


def server_post(server: Any) -> Any:
    """`post(path, json)` for `seat_tokens` over the live server."""
    return lambda path, body: api(server, "POST", path, json=body)
