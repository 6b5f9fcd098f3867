"""Structured logs: one JSON object per line, every message through the PHI redactor.

A log line may quote a question or an upstream error that quotes a prompt, so
the message and any exception text are redacted before they are written. When
redaction itself fails, the text is withheld rather than written unscreened.

URLs are decoded first: uvicorn's access line quotes the request as sent
("GET /v1/search?q=sertraline+dose+for+john+smith"), and "john+smith" or
"john%20smith" is no name to the detector until it reads "john smith".
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO
from urllib.parse import unquote, unquote_plus

from curbside.redaction import phi_redactor, redact_or_withhold

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["JsonFormatter", "configure_logging", "decode_urls"]

_EXTRA_SKIP = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
# an absolute URL, or a path that starts after a space, a quote or the start: "/v1/search?q=..."
_URL = re.compile(r"""(?:\b[a-z][a-z0-9+.-]*://|(?<![^\s"'(=])/)[^\s"'<>]*""", re.IGNORECASE)
_ENCODED = re.compile(r"%[0-9A-Fa-f]{2}|\+")
_DECODE_ROUNDS = 3  # "%2520" is "%20" encoded again: decode until nothing changes, a few times at most
_ACCESS_ARGS = 5  # uvicorn.access: (client address, method, path with query, HTTP version, status)


def decode_urls(text: str) -> str:
    """``text`` with every URL or path percent-decoded, and '+' read as a space in its query string."""
    if "%" not in text and "+" not in text:
        return text
    return _URL.sub(lambda m: _decode_url(m.group()), text)


def _decode_url(url: str) -> str:
    for _ in range(_DECODE_ROUNDS):
        if not _ENCODED.search(url):
            break
        path, mark, query = url.partition("?")
        decoded = unquote(path) + mark + unquote_plus(query)
        if decoded == url:
            break
        url = decoded
    return url


class JsonFormatter(logging.Formatter):
    def __init__(self, redact: Callable[[str], str]) -> None:
        super().__init__()
        self.redact = redact

    def _clean(self, text: str) -> str:
        if not text or not any(ch.isalnum() for ch in text):
            return text
        return redact_or_withhold(self.redact, decode_urls(text))[0]

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": self._clean(_message(record)),
        }
        # structured fields passed as extra={...}: strings are redacted like the message
        for key, value in vars(record).items():
            if key not in _EXTRA_SKIP and not key.startswith("_"):
                entry[key] = self._clean(value) if isinstance(value, str) else value
        if record.exc_info:
            entry["error"] = self._clean(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False, default=str)


def _message(record: logging.LogRecord) -> str:
    """The record's message; an access line's path is decoded as an argument, before formatting
    (a path is one argument there, so no guess is needed where it starts and ends)."""
    args = record.args
    if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == _ACCESS_ARGS:
        path = args[2]
        if isinstance(path, str):
            try:
                return str(record.msg) % (*args[:2], _decode_url(path), *args[3:])
            except (TypeError, ValueError):
                pass  # not uvicorn's format after all: the usual message below
    return record.getMessage()


def configure_logging(
    settings: Settings, *, stream: TextIO | None = None, redact: Callable[[str], str] | None = None
) -> logging.Handler:
    """Route the ``curbside`` loggers (and uvicorn's) to one redacting JSON handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(redact or phi_redactor(settings)))
    level = settings.log_level.upper()
    for name in ("curbside", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level)
        logger.propagate = False
    return handler
