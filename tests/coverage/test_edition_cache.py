"""A source's indexes are built once per loaded edition, whichever thread asks, and again for a new one."""

from __future__ import annotations

import threading
import time

from curbside.coverage.edition_cache import EditionCache


def test_built_once_per_key_and_again_when_the_key_changes() -> None:
    builds: list[str] = []
    cache: EditionCache[str] = EditionCache()

    def build(label: str) -> str:
        builds.append(label)
        return f"index of {label}"

    assert cache.get((1, "2025-08-29"), lambda: build("edition 1")) == "index of edition 1"
    assert cache.get((1, "2025-08-29"), lambda: build("edition 1 again")) == "index of edition 1"
    assert cache.get((2, "2025-11-01"), lambda: build("edition 2")) == "index of edition 2"
    assert builds == ["edition 1", "edition 2"]


def test_threads_asking_at_once_share_one_build() -> None:
    builds: list[int] = []
    cache: EditionCache[int] = EditionCache()

    def slow_build() -> int:
        builds.append(1)
        time.sleep(0.05)  # long enough for the other threads to arrive while it builds
        return len(builds)

    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("edition", slow_build))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == [1] and results == [1] * 8
