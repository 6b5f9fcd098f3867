"""The page in Firefox (#19: "works in current Chromium and Firefox"): Debian's Firefox ESR driven over
Marionette (``marionette-driver``), against the same real ``curbside serve`` as the Chromium tests.
Playwright drives only its own patched Firefox, which cannot be downloaded here, and Firefox ESR 140
lacks the WebDriver BiDi commands Playwright's BiDi mode sends.

One test walks the clinician's main path: sign in, ask, the streamed answer with its marker, the
marker's popover, and the exact passage with the cited words marked."""

from __future__ import annotations

import base64
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Served, _skip_or_fail

FIREFOX = Path("/usr/bin/firefox-esr")
HYPERTENSION = "What are the first-line drug classes for hypertension?"


def firefox_path() -> Path:
    """Debian's Firefox ESR, installed with apt-get when missing and we are root; else skip (fail under CI)."""
    if not FIREFOX.exists() and shutil.which("apt-get") and os.geteuid() == 0:
        install = ["apt-get", "install", "-y", "--no-install-recommends", "firefox-esr"]
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        if subprocess.run(install, env=env, capture_output=True, timeout=900).returncode != 0:
            subprocess.run(["apt-get", "update"], env=env, capture_output=True, timeout=900)
            subprocess.run(install, env=env, capture_output=True, timeout=900)
    if not FIREFOX.exists():
        _skip_or_fail(f"no Firefox for the page's test: {FIREFOX} is missing (apt-get install firefox-esr)")
    return FIREFOX


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def firefox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    executable = firefox_path()
    driver = pytest.importorskip("marionette_driver.marionette", reason="the test extra installs marionette-driver")
    profile = tmp_path_factory.mktemp("firefox-profile")
    port = _free_port()
    # a fixed Marionette port of our own, and no network outside loopback
    (profile / "user.js").write_text(
        f'user_pref("marionette.port", {port});\n'
        'user_pref("network.proxy.type", 1);\n'
        'user_pref("network.proxy.http", "192.0.2.1");\n'  # TEST-NET-1: anything not loopback goes nowhere
        'user_pref("network.proxy.http_port", 9);\n'
        'user_pref("network.proxy.ssl", "192.0.2.1");\n'
        'user_pref("network.proxy.ssl_port", 9);\n'
        'user_pref("network.proxy.no_proxies_on", "127.0.0.1,localhost");\n'
        'user_pref("network.proxy.allow_hijacking_localhost", false);\n'
    )
    process = subprocess.Popen(
        [str(executable), "--headless", "--marionette", "--no-remote", "--profile", str(profile)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = driver.Marionette(host="127.0.0.1", port=port, startup_timeout=60)
        client.start_session()
        client.set_window_rect(width=1280, height=900)
        yield client
        client.delete_session()
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def until(check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:  # an element not there yet
            value = None
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_the_clinicians_main_path_works_in_firefox(firefox: Any, served: Served, screenshots: Path) -> None:
    css = "css selector"

    def testid(name: str, within: Any = None) -> Any:
        return (within or firefox).find_element(css, f'[data-testid="{name}"]')

    firefox.navigate(served.url + "/")
    testid("api-key").send_keys(served.keys["clinician"])
    testid("sign-in").click()
    until(lambda: "clinician" in testid("who").text, "the signed-in role")
    testid("message").send_keys(HYPERTENSION)
    testid("send").click()

    marker = until(lambda: firefox.find_elements(css, '[data-testid="msg-assistant"] [data-testid="marker-1"]'), "[1]")[
        0
    ]
    answer = firefox.find_elements(css, '[data-testid="msg-assistant"]')[-1]
    until(lambda: "thiazide" in testid("answer", answer).text, "the answer's text")
    assert len(answer.find_elements(css, "button.marker")) == 1
    assert "Hypertension" in testid("source-item-1", answer).text

    marker.click()
    popover = until(lambda: testid("marker-popover"), "the marker's popover")
    until(lambda: popover.is_displayed() and "Hypertension in adults" in popover.text, "the popover's source")
    testid("popover-open", popover).click()
    panel = testid("source-panel")
    until(
        lambda: panel.is_displayed() and "First-line drug classes" in testid("passage-text", panel).text, "the passage"
    )
    marked = until(lambda: testid("passage-text", panel).find_elements(css, "mark"), "the cited words marked")
    assert marked[0].text.startswith("Single-pill combinations are preferred when two drugs")
    (screenshots / "firefox-consult-passage.png").write_bytes(base64.b64decode(firefox.screenshot()))
