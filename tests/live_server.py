"""A real ``curbside serve`` process on a loopback port, for tests that need the whole server.

``LiveServer(home, env=…)`` starts it and waits for ``/healthz``; ``stop()`` ends it with
SIGTERM, ``kill()`` with SIGKILL (a crash). ``send_until_answered`` tells how much of a request
the server took off its socket before it answered.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

__all__ = ["LiveServer", "free_port", "send_until_answered"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    def __init__(self, home: Path, *, env: dict[str, str] | None = None, start_timeout_s: float = 90.0) -> None:
        self.home = home
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = home.parent / f"server-{self.port}.log"
        full_env = {**os.environ, "CURBSIDE_HOME": str(home), **(env or {})}
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "curbside.cli", "serve", "--port", str(self.port), "--log-level", "warning"],
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self._wait_ready(start_timeout_s)

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.output()}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the server did not answer /healthz in {timeout_s:.0f} s:\n{self.output()}")
            time.sleep(0.2)

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._log.close()

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to clean up, as in a crash."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._log.close()

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _tcp_queues(local_port: int, remote_port: int) -> tuple[int, int] | None:
    """(tx_queue, rx_queue) of the loopback socket local_port → remote_port, from /proc/net/tcp."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, queues = fields[1], fields[2], fields[4]
        if int(local.split(":")[1], 16) == local_port and int(remote.split(":")[1], 16) == remote_port:
            tx, rx = (int(part, 16) for part in queues.split(":"))
            return tx, rx
    return None


def send_until_answered(port: int, head: bytes, body_bytes: int, *, timeout_s: float = 30.0) -> tuple[str, int]:
    """Send ``head`` and up to ``body_bytes`` of body until the server answers.

    Returns the status line and the bytes of the request the server had taken off its socket when
    it answered: what the client sent, less what still sat in the client's send queue and the
    server's receive queue (read from /proc/net/tcp while the connection was open).
    """
    import socket as socket_module

    sent, reply, consumed = 0, b"", 0
    with socket_module.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        sent = len(head)
        client_port = sock.getsockname()[1]
        sock.setblocking(False)
        block = b"x" * 65536
        deadline = time.monotonic() + timeout_s
        while b"\r\n" not in reply and time.monotonic() < deadline:
            client = _tcp_queues(client_port, port)
            server = _tcp_queues(port, client_port)
            if client is not None and server is not None:
                consumed = max(consumed, sent - client[0] - server[1])
            try:
                reply += sock.recv(65536)
                continue
            except BlockingIOError:
                pass
            except ConnectionResetError:
                break
            if sent - len(head) < body_bytes:
                try:
                    sent += sock.send(block[: min(len(block), body_bytes - (sent - len(head)))])
                except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                    time.sleep(0.002)
            else:
                time.sleep(0.002)
    return reply.split(b"\r\n", 1)[0].decode(errors="replace"), consumed
