"""JSON logs: URLs are decoded before redaction, so a name in a query string is redacted like any other."""

from __future__ import annotations

import io
import json
import logging

import pytest

from curbside.logs import JsonFormatter, decode_urls
from curbside.redaction import phi_redactor

ACCESS_FORMAT = '%s - "%s %s HTTP/%s" %d'  # uvicorn.protocols.http.*_impl: access_logger.info(...)


def access_record(path: str) -> logging.LogRecord:
    """The record uvicorn's access logger makes for one request (its args hold the encoded path)."""
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "h11_impl.py",
        477,
        ACCESS_FORMAT,
        ("127.0.0.1:51234", "GET", path, "1.1", 200),
        None,
    )


@pytest.mark.parametrize(
    ("text", "decoded"),
    [
        ("GET /v1/search?q=sertraline+dose+for+john+smith&k=5", "GET /v1/search?q=sertraline dose for john smith&k=5"),
        ("GET /v1/patients/Mary%20Jones%2Fnotes", "GET /v1/patients/Mary Jones/notes"),
        ("fetch https://example.org/a+b?q=mary%2520jones failed", "fetch https://example.org/a+b?q=mary jones failed"),
        ('"GET /search?q=x%2Fy HTTP/1.1" 200', '"GET /search?q=x/y HTTP/1.1" 200'),
        ("dose 1+2 and 50% of the time", "dose 1+2 and 50% of the time"),  # no URL: unchanged
    ],
)
def test_decode_urls(text: str, decoded: str) -> None:
    assert decode_urls(text) == decoded


@pytest.fixture(scope="module")
def formatter() -> JsonFormatter:
    return JsonFormatter(phi_redactor())


@pytest.mark.parametrize(
    ("path", "kept", "gone"),
    [
        ("/v1/search?q=sertraline+dose+for+john+smith", "sertraline dose for [PERSON]", "john"),
        ("/v1/search?q=seen%20by%20smith%20on%207%2F22", "seen by [PERSON] on [DATE]", "smith"),
        ("/v1/patients/Mary%2520Jones/notes", "/v1/patients/[PERSON]/notes", "Mary"),
    ],
)
def test_access_log_query_strings_are_decoded_then_redacted(
    formatter: JsonFormatter, path: str, kept: str, gone: str
) -> None:
    entry = json.loads(formatter.format(access_record(path)))
    assert entry["logger"] == "uvicorn.access"
    assert kept in entry["message"] and gone not in entry["message"].lower()
    assert entry["message"].startswith('127.0.0.1:51234 - "GET /v1/') and entry["message"].endswith('HTTP/1.1" 200')


def test_urls_in_any_message_are_decoded(formatter: JsonFormatter) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("curbside.test-logs")
    logger.handlers, logger.propagate = [handler], False
    logger.warning("upstream failed for https://api.example.org/find?name=john+smith&dob=1957-03-14")
    message = json.loads(stream.getvalue())["message"]
    assert "john" not in message and "1957" not in message and "[PERSON]" in message


def test_hex_digests_in_messages_are_not_mangled(formatter: JsonFormatter) -> None:
    digest = "e7f6c011776e8db7cd330b54174fd76f7d0216b612387a5ffcfb81e6f0919683"
    record = logging.LogRecord("curbside.kb", logging.INFO, "ingest.py", 1, "stored document %s", (digest,), None)
    assert json.loads(formatter.format(record))["message"] == f"stored document {digest}"


def test_an_access_record_of_another_shape_is_formatted_as_usual(formatter: JsonFormatter) -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "x.py", 1, "%s %s", ("GET", "/health"), None)
    assert json.loads(formatter.format(record))["message"] == "GET /health"
