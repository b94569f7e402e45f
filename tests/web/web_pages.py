"""Helpers the browser tests share: API calls against the live server, and a watched page."""

from __future__ import annotations

from typing import Any

import httpx


def api(server: Any, method: str, path: str, **kwargs: Any) -> Any:
    response = httpx.request(method, server.url + path, timeout=10, **kwargs)
    assert response.status_code < 300, response.text
    return response.json()


def new_page(browser: Any, phone: bool = False) -> tuple[Any, Any, list[str]]:
    """A fresh context and page (laptop or phone size) that collects page errors and console errors."""
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, device_scale_factor=2 if phone else 1)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and "status of 4" not in msg.text else None)
    return context, page, errors
