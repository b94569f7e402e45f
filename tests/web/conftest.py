"""Fixtures for the web tests: an app on a fresh SQLite file (or PostgreSQL database), a live server, a
headless chromium.

A module marked `pytestmark = pytest.mark.both_databases` runs each test that takes `db_url` (or
`client`) twice: on a SQLite file and on a fresh database of the test PostgreSQL named by
WARROOM_TEST_PG (`bash .ci/postgres.sh start` starts one; `.ci/run` does). Without it those runs
skip, unless WARROOM_REQUIRE_PG=1 (CI), which makes a missing PostgreSQL a failure.
"""

from __future__ import annotations

import os
import secrets
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from patience import SLOW_STATE_SECONDS

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

warnings.filterwarnings("ignore", message="Using `httpx` with")


def pytest_configure(config: pytest.Config) -> None:
    # starlette's TestClient asks for httpx2, which is not released for every Python yet
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with")
    config.addinivalue_line(
        "markers", "both_databases: run the module's db_url tests on SQLite and on PostgreSQL (WARROOM_TEST_PG)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_databases"):
        metafunc.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)


from warroom.games import REGISTRY, get_ruleset  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or (parametrized "postgresql") a new PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:///{tmp_path / 'warroom.db'}"


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The test PostgreSQL's URL (WARROOM_TEST_PG); skip without one, or fail where WARROOM_REQUIRE_PG=1
    (CI never skips)."""
    url = os.environ.get("WARROOM_TEST_PG")
    problem = None
    if not url:
        problem = (
            "no test PostgreSQL: set WARROOM_TEST_PG=postgresql://postgres@127.0.0.1:PORT/postgres "
            '(eval "$(bash .ci/postgres.sh start)" starts a throwaway one; bash .ci/run does it all)'
        )
    else:
        try:
            import psycopg

            with psycopg.connect(url, connect_timeout=int(SLOW_STATE_SECONDS)):  # a loaded machine's answer too
                pass
        except ImportError:
            problem = "psycopg is not installed: pip install -e '.[test]' (or 'warroom[postgres]')"
        except Exception as exc:  # psycopg.OperationalError: nothing answers at that URL
            problem = f"the test PostgreSQL at WARROOM_TEST_PG does not answer: {exc}"
    if problem is not None:
        if os.environ.get("WARROOM_REQUIRE_PG") == "1":
            pytest.fail(problem + " (WARROOM_REQUIRE_PG=1: PostgreSQL tests may not skip)", pytrace=False)
        pytest.skip(problem)
    assert url is not None
    return url


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped after it, whoever still holds connections)."""
    import psycopg

    name = f"warroom_test_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield urlsplit(pg_server)._replace(path=f"/{name}").geturl()
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from warroom.web.server import create_app

    app = create_app(db_url)
    with TestClient(app) as test_client:
        yield test_client
    app.state.store.close()


@pytest.fixture(scope="module")
def secret_cards() -> Iterator[str]:
    """Register the hidden-hand test game for this module only (the real registry is left as it was)."""
    REGISTRY["secretcards"] = "web_secret_cards:SecretCards"
    get_ruleset.cache_clear()
    yield "secretcards"
    del REGISTRY["secretcards"]
    get_ruleset.cache_clear()


@pytest.fixture
def first_card_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computer players for the test game without the AI package."""
    from web_secret_cards import FirstCardAgent

    from warroom.web import agents

    monkeypatch.setattr(
        agents, "make_agent", lambda name, game, budget_ms, seed: FirstCardAgent(name, game, budget_ms, seed)
    )
    monkeypatch.setattr(agents, "agent_names", lambda game: ["first-card"])


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from warroom.web.server import BackgroundServer

    db = tmp_path_factory.mktemp("live") / "warroom.db"
    with BackgroundServer(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
