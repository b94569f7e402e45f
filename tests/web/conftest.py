"""Fixtures for the web tests: an app on a fresh SQLite file, a live server, a headless chromium."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

warnings.filterwarnings("ignore", message="Using `httpx` with")


def pytest_configure(config: pytest.Config) -> None:
    # starlette's TestClient asks for httpx2, which is not released for every Python yet
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with")

from warroom.games import REGISTRY, get_ruleset  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'warroom.db'}"


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

    monkeypatch.setattr(agents, "make_agent", lambda name, game, budget_ms, seed: FirstCardAgent(name, game, budget_ms, seed))
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
