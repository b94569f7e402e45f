"""Security headers on every HTTP response, and the API docs page served from installed files.

The pages carry seat tokens in their URLs (`/play/ID?token=...`), so no page may run a script,
load a style sheet or send a Referer to anyone but this server, nor be framed by another site:

- Content-Security-Policy: only the server's own scripts and style sheets (no inline script, no
  inline `<style>`; the client sets styles through the CSSOM), WebSockets back to the server,
  images from the server or `data:` URLs; no framing, no `<base>`, forms post only here.
- X-Frame-Options: DENY (what older browsers know of `frame-ancestors 'none'`).
- Referrer-Policy: no-referrer (a link followed from a game page must not carry its token away).
- X-Content-Type-Options: nosniff.

A response that sets its own Content-Security-Policy keeps it (the API docs page adds a nonce for
Swagger UI's start-up script).
"""

from __future__ import annotations

import secrets
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; "
    "object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}

DOCS_ASSETS = "/docs-assets"
"""Where Swagger UI's script, style sheet and icon are served from (the `fastapi-offline` package's copy)."""


class SecurityHeaders:
    """A pure ASGI middleware adding SECURITY_HEADERS to each HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def add_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(name, value) for name, value in self.headers if name not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, add_headers)


def swagger_assets() -> Path:
    """The folder of Swagger UI files shipped by the `fastapi-offline` package (a dependency)."""
    import fastapi_offline

    folder = Path(fastapi_offline.__file__).parent / "static"
    if not (folder / "swagger-ui-bundle.js").is_file():  # pragma: no cover - a broken install
        raise RuntimeError(f"Swagger UI's files are missing from {folder}; reinstall fastapi-offline")
    return folder


def mount_docs(app: FastAPI, openapi_url: str = "/openapi.json") -> None:
    """/docs: Swagger UI from the installed package, not a CDN, under a CSP that allows its one inline start-up
    script by nonce.

    Create the app with `docs_url=None, redoc_url=None` (ReDoc is not served: it would need a CDN or
    inline styles; /docs and /openapi.json say the same).
    """
    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_assets()), name="docs-assets")

    @app.api_route("/docs", methods=["GET", "HEAD"], include_in_schema=False)
    async def docs() -> HTMLResponse:
        nonce = secrets.token_urlsafe(16)
        page = get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from the validator's own host
        )
        html = bytes(page.body).decode("utf-8").replace("<script>", f'<script nonce="{nonce}">')
        csp = CSP.replace("script-src 'self'", f"script-src 'self' 'nonce-{nonce}'")
        return HTMLResponse(html, headers={"content-security-policy": csp, "cache-control": "no-store"})
