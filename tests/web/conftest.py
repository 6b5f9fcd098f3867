"""Browser fixtures for the clinician's page: a real ``curbside serve`` with the bundled sample documents,
a user per role, and Debian's Chromium driven by Playwright (never a downloaded browser).

One server and one browser per module; each test gets a fresh browser context (an empty
``sessionStorage``) whose every request to a host other than the loopback server is aborted and
recorded, so a test fails if the page tried to reach outside. Screenshots go to
``CURBSIDE_SCREENSHOTS`` (default: a pytest temporary folder), never into the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from curbside.app import Curbside
from curbside.cli.demo import sample_paths
from curbside.settings import Settings
from tests.live_server import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROLES = ("clinician", "admin", "auditor")


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("CURBSIDE_REQUIRE_SHARED_DATA") == "1":
        pytest.fail(reason + " (CURBSIDE_REQUIRE_SHARED_DATA=1 forbids skipping)")
    pytest.skip(reason)


def chromium_path() -> Path:
    """Debian's Chromium, installed with apt-get when missing and we are root; else skip (fail under CI)."""
    if not CHROMIUM.exists() and shutil.which("apt-get") and os.geteuid() == 0:
        install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        if subprocess.run(install, env=env, capture_output=True, timeout=900).returncode != 0:
            subprocess.run(["apt-get", "update"], env=env, capture_output=True, timeout=900)
            subprocess.run(install, env=env, capture_output=True, timeout=900)
    if not CHROMIUM.exists():
        _skip_or_fail(
            f"no browser for the page's tests: {CHROMIUM} is missing and could not be installed (apt-get install chromium)"
        )
    return CHROMIUM


@dataclass
class Served:
    server: LiveServer
    keys: dict[str, str]
    home: Path

    @property
    def url(self) -> str:
        return self.server.url

    def headers(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[role]}"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_page(tmp_path_factory)


def serve_page(tmp_path_factory: pytest.TempPathFactory, **env: str) -> Iterator[Served]:
    """`curbside serve` over a new home with the sample documents and a user per role, with ``env`` added."""
    root = tmp_path_factory.mktemp("page")
    home = root / "home"
    core = Curbside(Settings(home=home))
    try:
        assert not core.ingestor.ingest(sample_paths()).failed
        keys = {role: core.users.add(f"page-{role}", role).key for role in ROLES}
    finally:
        core.close()
    limits = {"CURBSIDE_RATE_LIMIT": "100000/minute", "CURBSIDE_AUTH_FAILURE_LIMIT": "100000/minute"}
    server = LiveServer(home, env={**limits, **env})
    try:
        yield Served(server, keys, home)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    playwright_api = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    configured = os.environ.get("CURBSIDE_SCREENSHOTS")
    folder = Path(configured) if configured else tmp_path_factory.mktemp("screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Visit:
    """A fresh browser context on the served page, with the requests it tried to send outside."""

    page: Any
    served: Served
    screens: Path
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def sign_in(self, role: str) -> None:
        self.page.goto(self.served.url + "/")
        self.page.get_by_test_id("api-key").fill(self.served.keys[role])
        self.page.get_by_test_id("sign-in").click()
        self.page.get_by_test_id("who").filter(has_text=role).wait_for()

    def shot(self, name: str) -> Path:
        path = self.screens / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def visit(browser: Any, served: Served, screenshots: Path) -> Iterator[Callable[..., Visit]]:
    contexts: list[Any] = []
    visits: list[Visit] = []

    def open_page(**options: Any) -> Visit:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        seen = Visit(page, served, screenshots)
        visits.append(seen)

        def guard(route: Any) -> None:
            host = urlsplit(route.request.url).hostname
            if route.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
                route.continue_()
            else:
                seen.outside.append(route.request.url)
                route.abort()

        context.route("**/*", guard)
        page.on("pageerror", lambda error: seen.errors.append(str(error)))
        return seen

    yield open_page
    for context in contexts:
        context.close()
    for seen in visits:
        assert seen.outside == [], f"the page tried to reach outside: {seen.outside}"
        assert seen.errors == [], f"the page raised: {seen.errors}"
