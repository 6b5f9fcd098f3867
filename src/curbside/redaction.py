"""Text through the PHI redactor before it is stored or written anywhere (audit rows, logs).

``phi_redactor(settings)`` loads ``curbside.phi``'s detector on first use, so
commands that never redact (``audit verify``, ``--help``) never load its NLP model.
``redact_or_withhold`` is the rule both sinks follow: text that could not be
screened is never kept; a fixed marker is kept in its place.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["WITHHELD", "phi_redactor", "redact_or_withhold"]

WITHHELD = "[withheld: PHI redaction failed]"


def phi_redactor(settings: Settings | None = None, detector: Callable[[], Any] | None = None) -> Callable[[str], str]:
    """``redact(text)`` through ``detector()`` (by default ``curbside.phi.get_detector(settings)``), asked
    for on the first text; raises if the detector cannot load."""
    loaded: list[Any] = []
    lock = threading.Lock()

    def redact(text: str) -> str:
        if not loaded:
            with lock:
                if not loaded:
                    if detector is not None:
                        loaded.append(detector())
                    else:
                        from curbside.phi import get_detector

                        loaded.append(get_detector(settings))
        redacted: str = loaded[0].redact(text)
        return redacted

    return redact


def redact_or_withhold(redact: Callable[[str], str], text: str) -> tuple[str, BaseException | None]:
    """The redacted text, or ``WITHHELD`` and the reason when redaction failed."""
    try:
        redacted = redact(text)
    except Exception as exc:  # noqa: BLE001 - unscreened text is the one thing never to keep
        return WITHHELD, exc
    return (redacted, None) if isinstance(redacted, str) else (WITHHELD, TypeError("redactor returned no text"))
