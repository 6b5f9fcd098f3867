"""Screening text for PHI before it may leave the machine.

The prompt is screened block by block (blocks are separated by blank lines) and
each block's verdict is cached by its digest: the retrieved passages and the
prompt's fixed wording repeat across questions, so in steady state only the
question and the patient context are analysed. Every block of the prompt is
still covered. A detector that cannot load or raises counts as PHI found
(query-orchestrator.md, failure matrix: "PHI detector down → treat as PHI").
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["PromptScreen", "ScreenResult", "SpanDetector"]

log = logging.getLogger(__name__)


class SpanDetector(Protocol):
    def detect(self, text: str) -> list: ...  # PhiSpan-like objects with a .type


@dataclass(frozen=True, slots=True)
class ScreenResult:
    phi: bool
    types: tuple[str, ...] = ()
    error: str | None = None  # the detector failed: phi is True by rule
    ms: float = 0.0
    blocks: int = 0
    analysed: int = 0  # blocks not answered from the cache

    def metadata(self) -> dict[str, object]:
        meta: dict[str, object] = {"phi_detected": self.phi, "phi_types": list(self.types), "phi_screen_ms": self.ms}
        if self.error:
            meta["phi_screen_error"] = self.error
        return meta


@dataclass
class PromptScreen:
    """``screen(text)``: does ``text`` hold PHI, and of which types."""

    detector: Callable[[], SpanDetector]  # called lazily: loading the NLP model is the slow part
    cache_blocks: int = 4096
    _cache: OrderedDict[bytes, tuple[str, ...]] = field(default_factory=OrderedDict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def screen(self, *texts: str | None) -> ScreenResult:
        started = time.perf_counter()
        blocks = [b for text in texts if text for b in text.split("\n\n") if b.strip()]
        found: set[str] = set()
        analysed = 0
        try:
            for block in blocks:
                key = hashlib.blake2b(block.encode("utf-8", "surrogatepass"), digest_size=16).digest()
                with self._lock:
                    types = self._cache.get(key)
                    if types is not None:
                        self._cache.move_to_end(key)
                if types is None:
                    types = tuple(sorted({span.type for span in self.detector().detect(block)}))
                    analysed += 1
                    with self._lock:
                        self._cache[key] = types
                        while len(self._cache) > self.cache_blocks:
                            self._cache.popitem(last=False)
                found.update(types)
        except Exception as exc:  # any failure of the detector means we cannot vouch for the text
            log.warning("PHI screen failed (%s); treating the text as PHI", type(exc).__name__)
            return ScreenResult(True, error=f"{type(exc).__name__}: {exc}"[:300], ms=_ms(started), blocks=len(blocks))
        return ScreenResult(bool(found), tuple(sorted(found)), ms=_ms(started), blocks=len(blocks), analysed=analysed)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)
