"""Appends from many threads, several trail objects and several processes keep one valid chain."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from audit_helpers import entry, fake_redact

from curbside.audit import AuditTrail
from curbside.settings import Settings


def _append_from_threads(trails: list[AuditTrail], per_thread: int, threads_per_trail: int) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(len(trails) * threads_per_trail)

    def work(trail: AuditTrail, worker: int) -> None:
        try:
            start.wait()
            for n in range(per_thread):
                trail.append(entry(worker * 1000 + n))
        except BaseException as exc:  # surfaced below: a thread's failure must fail the test
            errors.append(exc)

    workers = [
        threading.Thread(target=work, args=(trail, t * threads_per_trail + i))
        for t, trail in enumerate(trails)
        for i in range(threads_per_trail)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []


def test_threads_sharing_one_trail_keep_one_chain(settings: Settings) -> None:
    trail = AuditTrail.from_settings(settings, redact=fake_redact)
    try:
        _append_from_threads([trail], per_thread=15, threads_per_trail=4)
        report = trail.verify()
        assert report.ok and report.rows == 60 and report.warnings == []
    finally:
        trail.close()


def test_separate_trail_objects_on_one_home_keep_one_chain(settings: Settings) -> None:
    trails = [AuditTrail.from_settings(settings, redact=fake_redact) for _ in range(3)]
    try:
        _append_from_threads(trails, per_thread=10, threads_per_trail=2)
        report = trails[0].verify()
        assert report.ok and report.rows == 60 and report.warnings == []
    finally:
        for trail in trails:
            trail.close()


def test_processes_appending_together_keep_one_chain(settings: Settings, tmp_path: Path) -> None:
    settings.home.mkdir(parents=True)
    script = textwrap.dedent(
        f"""
        import sys
        from curbside.audit import AuditEntry, AuditTrail
        from curbside.settings import Settings

        trail = AuditTrail.from_settings(Settings(home={str(settings.home)!r}), redact=lambda text: text)
        for n in range(25):
            trail.append(AuditEntry(action="ask", user=sys.argv[1], role="clinician", outcome="answered"))
        trail.close()
        """
    )
    processes = [subprocess.Popen([sys.executable, "-c", script, f"proc-{i}"]) for i in range(3)]
    assert [p.wait(timeout=120) for p in processes] == [0, 0, 0]
    trail = AuditTrail.from_settings(settings, redact=fake_redact)
    try:
        report = trail.verify()
        assert report.ok and report.rows == 75 and report.warnings == []
        users = [r["user"] for r in trail.export(__import__("datetime").datetime(2000, 1, 1))]
        assert sorted(set(users)) == ["proc-0", "proc-1", "proc-2"] and len(users) == 75
    finally:
        trail.close()
