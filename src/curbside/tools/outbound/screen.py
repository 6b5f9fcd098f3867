"""The PHI screen every outbound query passes before it is sent.

A literature or label search names diseases and drugs; a name, a birth date, a health card
number or an MRN has no business leaving the machine. Only the free text a caller names is
screened (identifiers such as PMIDs and structured filters are validated by their tools), and a
field may allow a type that is not identifying on its own there (a city in a trial's location
filter). A detector that fails counts as PHI found: the query is refused.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curbside.errors import CurbsideError, PhiRefusedError

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["PhiScreen", "Screened"]

# Detect: text -> the PHI types found in it (a PhiDetector's spans, reduced to their types)
Detect = Callable[[str], list[str]]


@dataclass(frozen=True)
class Screened:
    """One piece of free text bound for a service: the argument it came from, and types it may hold."""

    field: str
    text: str
    allow: frozenset[str] = dataclasses.field(default_factory=frozenset)


class PhiScreen:
    """Refuses a query whose free text holds PHI; ``detect`` defaults to Curbside's detector (loaded once)."""

    def __init__(self, settings: Settings | None = None, *, detect: Detect | None = None) -> None:
        self._settings = settings
        self._detect = detect
        self._lock = threading.Lock()

    def _detector(self) -> Detect:
        with self._lock:
            if self._detect is None:
                from curbside.phi import get_detector

                detector = get_detector(self._settings)
                self._detect = lambda text: [span.type for span in detector.detect(text)]
            return self._detect

    def check(self, texts: Iterable[Screened], *, service: str) -> None:
        """Raise ``PhiRefusedError`` naming the field and the PHI type when any text holds PHI."""
        for item in texts:
            if not item.text.strip():
                continue
            try:
                found = [kind for kind in self._detector()(item.text) if kind not in item.allow]
            except CurbsideError as exc:
                raise PhiRefusedError(
                    f"The {item.field!r} text could not be checked for PHI ({exc.code}), so it was not sent to "
                    f"{service}. Try again, or ask without patient details."
                ) from exc
            except Exception as exc:  # a detector that fails says nothing: assume PHI
                raise PhiRefusedError(
                    f"The {item.field!r} text could not be checked for PHI, so it was not sent to {service}."
                ) from exc
            if found:
                kinds = ", ".join(sorted(set(found)))
                raise PhiRefusedError(
                    f"The {item.field!r} text holds what looks like PHI ({kinds}); it was not sent to {service}. "
                    "Ask about the condition or the drug without names, dates, numbers or places that identify "
                    "a patient."
                )
