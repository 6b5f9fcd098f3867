"""Which process runs a job, and whether that process is still alive.

Each process that runs ingest jobs holds an exclusive ``flock`` on a file of its own under
``CURBSIDE_HOME/runners`` for as long as it lives, and stamps the jobs it starts with that
file's name. The kernel drops the lock when the process ends, however it ends (``kill -9``
included), so a job whose runner's lock can be taken was interrupted: nobody is running it.
Several processes (a server, a CLI ingest) can then run jobs side by side, and each can tell
another's live jobs from a dead one's.
"""

from __future__ import annotations

import fcntl
import os
import re
import socket
import threading
import uuid
from pathlib import Path

__all__ = ["RunnerRegistry"]

_NAME = re.compile(r"[A-Za-z0-9._-]{1,120}")
_registries: dict[Path, RunnerRegistry] = {}
_registries_lock = threading.Lock()


class RunnerRegistry:
    """This process's runner id under ``directory``, and the liveness of any runner id."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._id: str | None = None
        self._fd: int | None = None
        self._lock = threading.Lock()

    @classmethod
    def for_directory(cls, directory: Path) -> RunnerRegistry:
        """One registry per directory per process: its lock is held until the process exits."""
        key = directory.resolve()
        with _registries_lock:
            if key not in _registries:
                _registries[key] = cls(key)
            return _registries[key]

    @property
    def runner_id(self) -> str:
        """This process's id, its lock taken on first use."""
        with self._lock:
            if self._id is None:
                self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
                name = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
                name = re.sub(r"[^A-Za-z0-9._-]", "-", name)[:120]
                fd = os.open(self.directory / name, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else holds it
                self._id, self._fd = name, fd
            return self._id

    def alive(self, runner_id: str | None) -> bool:
        """Whether the process that stamped ``runner_id`` still runs (False for a missing or odd id)."""
        if runner_id is None or not _NAME.fullmatch(runner_id):
            return False
        if runner_id == self._id:
            return True
        path = self.directory / runner_id
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True  # its process holds the lock
        finally:
            os.close(fd)  # closing our descriptor releases the lock we may have taken
        path.unlink(missing_ok=True)  # a dead runner's file: nobody will stamp a job with it again
        return False
