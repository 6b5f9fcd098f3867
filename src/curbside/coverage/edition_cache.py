"""What a source builds from its loaded edition once, and keeps until another edition is loaded.

A source's SQL path needs in-memory indexes of its tables (the formulary's names, the
Schedule's titles, the manuals' terms). Building one takes tens of milliseconds: too long per
call, but right once per edition. ``EditionCache.get(key, build)`` returns what ``build()`` made
for ``key`` (an edition's id and load time, say), rebuilding when the key changes; worker threads
share it, and only one builds at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["EditionCache"]

T = TypeVar("T")


class EditionCache(Generic[T]):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: Hashable | None = None
        self._value: T | None = None

    @property
    def empty(self) -> bool:
        """Nothing built yet (a first call: build it outside any time budget)."""
        return self._value is None

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if self._value is None or key != self._key:
                self._value = build()
                self._key = key
            return self._value
