"""Structured logs: one JSON object per line, every message through the PHI redactor.

A log line may quote a question or an upstream error that quotes a prompt, so
the message and any exception text are redacted before they are written. When
redaction itself fails, the text is withheld rather than written unscreened.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from curbside.redaction import phi_redactor, redact_or_withhold

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["JsonFormatter", "configure_logging"]

_EXTRA_SKIP = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def __init__(self, redact: Callable[[str], str]) -> None:
        super().__init__()
        self.redact = redact

    def _clean(self, text: str) -> str:
        if not text or not any(ch.isalnum() for ch in text):
            return text
        return redact_or_withhold(self.redact, text)[0]

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": self._clean(record.getMessage()),
        }
        # structured fields passed as extra={...}: strings are redacted like the message
        for key, value in vars(record).items():
            if key not in _EXTRA_SKIP and not key.startswith("_"):
                entry[key] = self._clean(value) if isinstance(value, str) else value
        if record.exc_info:
            entry["error"] = self._clean(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False, default=str)


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
