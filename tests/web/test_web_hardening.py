"""The server as an attacker and an operator meet it: body limits, error bodies that echo nothing
large, storage failures and bugs answered as JSON, clear startup errors, security headers, HEAD,
and the API docs served without a CDN."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from patience import SLOW_STATE_SECONDS

from warroom.web.limits import MAX_BODY_BYTES

ERROR_KEYS = {"ok", "error"}


def refused(response: Any, status: int, code: str) -> str:
    """The message of a refusal with this status and code, in the API's one error body."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == ERROR_KEYS and body["ok"] is False and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def new_game(client: Any, **body: Any) -> tuple[str, str, dict[str, Any]]:
    response = client.post("/api/games", json={"game": "dragoon", "seed": 7, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["seats"][0]["token"], data["game"]


# -- item 6: request size ------------------------------------------------------------------------------
def test_a_body_over_the_limit_is_refused_before_parsing(client: Any) -> None:
    big = b'{"record": {"x": "' + b"a" * MAX_BODY_BYTES + b'"}}'
    message = refused(
        client.post("/api/games/upload", content=big, headers={"content-type": "application/json"}), 413, "too_large"
    )
    assert str(MAX_BODY_BYTES) in message and "aaaa" not in message
    assert client.post("/api/lobby", json={"tokens": []}).json()["games"] == []  # nothing was stored


def test_a_chunked_body_is_counted_as_it_streams(client: Any) -> None:
    chunks_sent = []

    def chunks() -> Any:
        for n in range(MAX_BODY_BYTES // 65536 + 8):
            chunks_sent.append(n)
            yield b'{"record": {"x": "' if n == 0 else b"b" * 65536

    response = client.post("/api/games/upload", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in {k.lower() for k in response.request.headers}
    refused(response, 413, "too_large")


def test_a_body_under_the_limit_reaches_the_route(client: Any) -> None:
    body = b'{"record": {"junk": "' + b"c" * (MAX_BODY_BYTES // 2) + b'"}}'
    message = refused(
        client.post("/api/games/upload", content=body, headers={"content-type": "application/json"}), 400, "bad_record"
    )
    assert "cccc" not in message and len(message) <= 600


# -- item 9: errors never echo large input ---------------------------------------------------------------
def test_an_illegal_action_is_quoted_short_with_a_few_legal_examples(client: Any) -> None:
    game_id, token, payload = new_game(client)
    legal = payload["view"]["legal"]
    action = "march " + "z" * 150
    message = refused(
        client.post(f"/api/games/{game_id}/actions", params={"token": token}, json={"action": action, "move": 0}),
        400,
        "illegal_action",
    )
    assert "z" * 80 not in message and "z" * 60 in message and "…" in message
    assert sum(1 for a in legal if a in message) <= 6 and len(message) < 600


def test_messages_quote_a_few_examples_and_a_count() -> None:
    from warroom.engine.errors import examples, quoted

    moves = [f"move {n}" for n in range(300)]
    assert examples(moves) == "move 0, move 1, move 2, move 3, move 4, move 5 … (300 in all)"
    assert examples(moves[:3]) == "move 0, move 1, move 2"
    assert quoted("x" * 1000) == repr("x" * 79 + "…") and quoted("end") == "'end'"


def test_validation_errors_name_the_field_without_echoing_it(client: Any) -> None:
    junk = "q" * 5000
    message = refused(client.post("/api/games", json={"game": "dragoon", "budget_ms": junk}), 400, "bad_request")
    assert "budget_ms" in message and "qqq" not in message
    message = refused(
        client.post("/api/games/x/actions", params={"token": "t"}, json={"action": junk, "move": 0}), 400, "bad_request"
    )
    assert "action" in message and "qqq" not in message
    assert (
        "detail"
        not in client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}).json()
    )
    refused(
        client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}),
        400,
        "bad_request",
    )


def test_the_router_answers_the_error_body_too(client: Any) -> None:
    refused(client.get("/api/no-such-route"), 404, "not_found")
    refused(client.delete("/api/catalog"), 405, "method_not_allowed")


# -- item 7: storage failures and bugs -------------------------------------------------------------------
def test_a_read_only_database_answers_503_storage(client: Any, db_url: str) -> None:
    from sqlalchemy import create_engine

    game_id, token, _payload = new_game(client)
    store = client.app.state.store
    path = db_url.removeprefix("sqlite:///")
    writable = store.engine
    store.engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")  # the same file, opened read-only
    try:
        message = refused(client.post("/api/games", json={"game": "dragoon"}), 503, "storage")
        assert "nothing was changed" in message
        client.app.state.service.live.clear()
        assert client.get(f"/api/games/{game_id}", params={"token": token}).status_code == 200  # reads still work
        refused(
            client.post(
                f"/api/games/{game_id}/actions",
                params={"token": token},
                json={"action": "invade 3rd-ID Alpha-Beach", "move": 0},
            ),
            503,
            "storage",
        )
    finally:
        store.engine.dispose()
        store.engine = writable


def test_a_bug_answers_json_500_and_is_logged(
    client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> None:
        raise RuntimeError("a bug in the catalog")

    monkeypatch.setattr(client.app.state.service, "catalog", broken)
    message = refused(client.get("/api/catalog"), 500, "internal")
    assert "a bug in the catalog" not in message  # the cause stays on the server
    assert any("a bug in the catalog" in (record.exc_text or "") or record.exc_info for record in caplog.records)


def _start(tmp_path: Path, *argv: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    code = f"import sys; {prelude}from warroom.cli import main; sys.argv = ['warroom', *{list(argv)!r}]; main()"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=SLOW_STATE_SECONDS
    )


def _one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("garbage", "is no database URL"),
        ("missing-folder/games.db", "does not exist"),
        ("mysql://host/games", "SQLite or PostgreSQL"),
    ],
)
def test_serve_refuses_a_database_it_cannot_use_in_one_line(tmp_path: Path, db: str, words: str) -> None:
    line = _one_line_error(_start(tmp_path, "serve", "--port", "0", "--db", db))
    assert words in line
    assert list(tmp_path.iterdir()) == []  # no file called "garbage", nothing made anywhere


def test_serve_refuses_an_unwritable_database(tmp_path: Path) -> None:
    from warroom.web.storage import Store

    Store(f"sqlite:///{tmp_path / 'games.db'}").close()
    line = _one_line_error(
        _start(tmp_path, "serve", "--port", "0", "--db", f"sqlite:///file:{tmp_path / 'games.db'}?mode=ro&uri=true")
    )
    assert "readonly" in line or "read-only" in line


def test_serve_says_which_package_postgresql_needs(tmp_path: Path) -> None:
    line = _one_line_error(
        _start(
            tmp_path,
            "serve",
            "--port",
            "0",
            "--db",
            "postgresql://warroom@localhost/warroom",
            prelude="sys.modules['psycopg'] = None; ",
        )
    )
    assert "pip install 'warroom[postgres]'" in line


def test_python_m_warroom_web_refuses_in_one_line_too(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "warroom.web", "--port", "0", "--db", "garbage"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=SLOW_STATE_SECONDS,
    )
    assert "is no database URL" in _one_line_error(done)


def test_normalize_url() -> None:
    from warroom.web.storage import StorageConfigError, normalize_url

    assert normalize_url("games.db") == "sqlite:///games.db"
    assert normalize_url("data/x.sqlite3") == "sqlite:///data/x.sqlite3"
    assert normalize_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
    pytest.importorskip("psycopg")
    assert normalize_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    for bad in ("garbage", "games.db/", "redis://h/0", ""):
        with pytest.raises(StorageConfigError):
            normalize_url(bad)


# -- item 9: headers, HEAD, docs -----------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/play/abc", "/api/catalog", "/static/app.css", "/api/no-such-route"])
def test_security_headers_on_every_response(client: Any, path: str) -> None:
    response = client.get(path)
    csp = response.headers["content-security-policy"]
    assert (
        "script-src 'self'" in csp
        and "frame-ancestors 'none'" in csp
        and "base-uri 'none'" in csp
        and "unsafe-inline" not in csp
    )
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-content-type-options"] == "nosniff"


def test_head_answers_200_on_the_pages(client: Any) -> None:
    for path in ("/", "/play/abc", "/static/js/main.js"):
        response = client.head(path)
        assert response.status_code == 200 and response.content == b"", path


def test_the_pages_load_nothing_inline_nor_from_elsewhere() -> None:
    static = Path(__file__).resolve().parents[2] / "warroom" / "web" / "static"
    page = (static / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", page) and "<style" not in page and " style=" not in page
    assert not re.search(r"\son[a-z]+=", page)
    for script in (static / "js").glob("*.js"):
        text = script.read_text()
        assert 'h("style"' not in text and 'setAttribute("style"' not in text, script.name


def test_docs_come_from_this_server(client: Any) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)""", html)
    assert urls and all(url.startswith("/") for url in urls), urls
    assert "cdn" not in html.lower() and "http://" not in html and "https://" not in html
    for url in urls:
        assert client.get(url).status_code == 200, url
    nonce = re.search(r'<script nonce="([^"]+)">', html)
    assert nonce and f"'nonce-{nonce.group(1)}'" in page.headers["content-security-policy"]
    assert client.get("/redoc").status_code == 404
    assert client.head("/docs").status_code == 200


def test_swagger_ui_runs_under_the_csp(live_server: Any, browser: Any) -> None:
    from web_pages import new_page

    context, page, errors = new_page(browser)
    page.goto(live_server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path")  # Swagger UI rendered the operations
    assert "/api/games" in page.inner_text("#swagger-ui")
    context.close()
    assert not errors, errors


def test_the_description_lists_every_refusal_with_the_error_body(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    assert "ErrorBody" in spec["components"]["schemas"] and "HTTPValidationError" not in spec["components"]["schemas"]
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            codes = set(operation["responses"])
            assert "422" not in codes and "500" in codes, (method, path)
            for code in codes - {"200", "201"}:
                schema = operation["responses"][code]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (method, path, code)
            if "{game_id}" in path and not path.endswith("/claim"):
                assert {"400", "401", "403", "404", "503"} <= codes, (method, path)
            if "requestBody" in operation:
                assert "413" in codes, (method, path)
    from warroom.games import game_ids

    assert spec["paths"]["/api/boards/{game}"]["get"]["parameters"][0]["schema"]["enum"] == game_ids()
    new_game = spec["components"]["schemas"]["NewGame"]["anyOf"]
    sicily = next(
        v
        for v in new_game
        if v["properties"]["scenario"].get("enum") == ["sicily"] and v["properties"]["mode"]["enum"] == ["online"]
    )
    assert sicily["properties"]["seed"] == {"type": "null", "description": sicily["properties"]["seed"]["description"]}
    assert sicily["properties"]["options"]["properties"]["turn_limit"]["maximum"] == 99
    assert sicily["properties"]["options"]["additionalProperties"] is False
