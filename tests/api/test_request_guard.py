"""The API refuses before it reads: no key, the wrong role, or a body over the limit, against a real server.

A 1 GB upload without a key used to be spooled to disk before the 401; a 300 MB JSON body without
one raised memory by 830 MB. Here the server's own read counter (/proc/PID/io rchar) shows how
much of such a request it took in before answering.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from live_server import LiveServer, send_until_answered

from curbside.app import Curbside
from curbside.settings import Settings

pytestmark = pytest.mark.slow

GIB = 1024**3
MIB = 1024**2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, dict[str, str]]]:
    home = tmp_path_factory.mktemp("guard") / "home"
    core = Curbside(Settings(home=home))
    keys = {role: core.users.add(f"guard-{role}", role).key for role in ("clinician", "admin", "auditor")}
    core.close()
    env = {"CURBSIDE_AUTH_FAILURE_LIMIT": "5/minute", "CURBSIDE_MAX_BODY_BYTES": str(64 * 1024)}
    with LiveServer(home, env=env) as live:
        yield live, keys


def _raw_request(port: int, head: str, body_bytes: int) -> tuple[str, int]:
    """(status line, request bytes the server took off its socket before answering)."""
    return send_until_answered(port, head.encode(), body_bytes)


def _upload_head(port: int, length: int, headers: str = "") -> str:
    return (
        f"POST /v1/documents HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}"
        "Content-Type: multipart/form-data; boundary=xyz\r\n"
        f"Content-Length: {length}\r\n\r\n"
    )


def test_an_unauthenticated_1_gib_upload_is_refused_having_read_under_1_mib(server) -> None:
    live, _ = server
    status, read = _raw_request(live.port, _upload_head(live.port, GIB), 64 * MIB)
    assert status == "HTTP/1.1 401 Unauthorized", status
    assert read < MIB, f"the server read {read:,} bytes of a request it refused"


def test_an_unauthenticated_large_json_body_is_refused_unread(server) -> None:
    live, _ = server
    head = (
        f"POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {300 * MIB}\r\n\r\n"
    )
    status, read = _raw_request(live.port, head, 32 * MIB)
    assert status.startswith("HTTP/1.1 401"), status
    assert read < MIB


def test_a_clinician_key_cannot_upload_and_the_body_is_not_read(server) -> None:
    live, keys = server
    status, read = _raw_request(
        live.port, _upload_head(live.port, 100 * MIB, f"Authorization: Bearer {keys['clinician']}\r\n"), 32 * MIB
    )
    assert status.startswith("HTTP/1.1 403"), status
    assert read < MIB


def test_a_declared_length_over_the_limit_is_refused_before_reading(server) -> None:
    live, keys = server
    head = (
        f"POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {keys['clinician']}\r\nContent-Length: {10 * MIB}\r\n\r\n"
    )
    status, read = _raw_request(live.port, head, 8 * MIB)
    assert status.startswith("HTTP/1.1 413"), status
    assert read < MIB


def test_a_chunked_body_is_cut_off_at_the_limit(server) -> None:
    live, keys = server

    def body() -> Iterator[bytes]:
        yield b'{"question": "' + b"a" * (256 * 1024)  # four times CURBSIDE_MAX_BODY_BYTES
        yield b'"}'

    response = httpx.post(
        f"{live.url}/v1/ask",
        content=body(),
        headers={"Authorization": f"Bearer {keys['clinician']}", "Content-Type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "FILE_TOO_LARGE"
    assert "64.0 KiB" in response.json()["error"]["message"]


def test_over_long_questions_are_refused_before_any_work_and_stored_cut(tmp_path: Path) -> None:
    """A megabyte question fails the schema's ceiling; one over CURBSIDE_MAX_QUERY_CHARS is refused before
    PHI screening, and its audit row keeps a redacted head of it."""
    home = tmp_path / "home"
    core = Curbside(Settings(home=home))
    key = core.users.add("long-asker", "clinician").key
    core.close()
    bearer = {"Authorization": f"Bearer {key}"}
    with LiveServer(home, env={"CURBSIDE_MAX_BODY_BYTES": str(4 * MIB)}) as live:
        megabyte = "what is the dose of sertraline for John Smith " * 22_000  # ~1,000,000 characters
        huge = httpx.post(f"{live.url}/v1/ask", json={"question": megabyte}, headers=bearer, timeout=60)
        long = "what is the dose of sertraline for John Smith " * 100  # 4,599 characters once stripped: over 2,000
        refused = httpx.post(f"{live.url}/v1/ask", json={"question": long}, headers=bearer, timeout=60)
        unknown = httpx.post(f"{live.url}/v1/ask", json={"question": "dose?", "qestion": "x"}, headers=bearer)
    assert huge.status_code == 422 and "at most 5000 characters" in huge.json()["error"]["message"], huge.text
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"]["message"].startswith("The question is 4,599 characters long; the limit is 2,000")
    assert unknown.status_code == 422 and "qestion" in unknown.text
    core = Curbside(Settings(home=home))
    try:
        rows = [row for row in core.audit.export(datetime(2000, 1, 1, tzinfo=UTC)) if row["action"] == "ask"]
    finally:
        core.close()
    assert [row["outcome"] for row in rows] == ["VALIDATION_ERROR"]
    stored = rows[0]["question"]
    assert stored.endswith("[truncated: 4,599 characters in all]") and len(stored) < 2600, stored[-200:]
    assert "John" not in stored and "Smith" not in stored


def test_session_ids_are_kept_as_digests(server) -> None:
    live, keys = server
    headers = {"Authorization": f"Bearer {keys['auditor']}", "X-Session-Id": "JohnSmith-DOB-1957-03-14"}
    response = httpx.get(f"{live.url}/v1/audit/verify", headers=headers)
    assert response.status_code == 200
    export = httpx.get(
        f"{live.url}/v1/audit/export", params={"since": "2000-01-01"}, headers={"Authorization": f"Bearer {keys['auditor']}"}
    )
    rows = [json.loads(line) for line in export.text.splitlines()]
    sessions = {row["session"] for row in rows if row["session"]}
    assert sessions and all(s.startswith("s_") and "Smith" not in s for s in sessions), sessions
    bad = httpx.get(f"{live.url}/v1/audit/verify", headers={**headers, "X-Session-Id": "x" * 500})
    assert bad.status_code in (400, 422)


def test_the_longest_urls_the_schema_allows_still_reach_the_api(server) -> None:
    """5,000 four-byte characters percent-encode to 60 KB of URL: under what the HTTP server parses, so the
    answer is the API's JSON, not the server's plain-text 'Invalid HTTP request'."""
    live, keys = server
    headers = {"Authorization": f"Bearer {keys['clinician']}"}
    search = httpx.get(f"{live.url}/v1/search", params={"q": "😀" * 5000}, headers=headers, timeout=60)
    assert search.headers["content-type"] == "application/json" and search.status_code in (200, 400), search.text[:200]
    passages = httpx.get(f"{live.url}/v1/passages", params={"chunk_ids": "😀" * 4000}, headers=headers, timeout=60)
    assert passages.headers["content-type"] == "application/json" and passages.status_code == 404


# last in this module: it leaves the test client's address over its wrong-key limit
def test_wrong_keys_are_rate_limited_per_address(server) -> None:
    live, keys = server
    statuses = [
        httpx.get(f"{live.url}/v1/search", params={"q": "x"}, headers={"Authorization": "Bearer cs_wrong"}).status_code
        for _ in range(8)
    ]
    assert statuses.count(401) <= 5 and statuses[-1] == 429, statuses
    limited = httpx.get(f"{live.url}/v1/search", params={"q": "x"}, headers={"Authorization": "Bearer cs_wrong"})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    # even a valid key from that address waits: the address is what is being limited
    assert httpx.get(f"{live.url}/v1/tools", headers={"Authorization": f"Bearer {keys['clinician']}"}).status_code == 429
