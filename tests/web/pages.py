"""Steps the page's browser tests share."""

from __future__ import annotations

import re
from typing import Any

import pytest

expect: Any = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright").expect


def ask(page: Any, message: str) -> Any:
    """Send ``message`` from the composer (as server-sent events); the last answer once the turn has ended."""
    page.get_by_test_id("message").fill(message)
    with page.expect_response(lambda r: r.url.endswith("/v1/turns")) as turn:
        page.get_by_test_id("send").click()
    assert "text/event-stream" in turn.value.headers["content-type"]
    expect(page.get_by_test_id("turn-state")).to_have_text(re.compile(r"^Answered"), timeout=30_000)
    return page.get_by_test_id("msg-assistant").last
