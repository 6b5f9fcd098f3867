"""A replay server on loopback for the evidence tools: recorded real responses, and faults on demand.

Routes map a method and a path (exact, or a prefix ending in ``/``) to a responder that builds the
reply from the request; ``fail_next`` queues faults for the next requests to a path — 429 with
``Retry-After``, 500, a delay longer than the client's timeout, a truncated or malformed body, a
dropped connection. Every request is recorded (method, path, query, body).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["Fault", "Reply", "ReplayServer", "Request"]


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: bytes
    headers: dict[str, str]

    def arg(self, name: str, default: str | None = None) -> str | None:
        values = self.query.get(name)
        return values[0] if values else default

    def json(self) -> Any:
        return json.loads(self.body or b"null")


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0

    @classmethod
    def of_json(cls, data: Any, status: int = 200) -> Reply:
        return cls(status, json.dumps(data).encode())


@dataclass
class Fault:
    """What the next request to a path gets instead of its reply."""

    kind: str  # "status", "delay", "truncate", "malformed", "drop"
    status: int = 500
    retry_after: str | None = None
    delay_s: float = 0.0


Responder = Callable[[Request], Reply]


class ReplayServer:
    def __init__(self) -> None:
        self.routes: list[tuple[str, str, Responder]] = []
        self.faults: dict[str, deque[Fault]] = {}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_POST(self) -> None:
                server._handle(self, "POST")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def route(self, method: str, path: str, responder: Responder) -> None:
        self.routes.append((method, path, responder))

    def fail_next(self, path: str, *faults: Fault) -> None:
        with self._lock:
            self.faults.setdefault(path, deque()).extend(faults)

    def calls(self, path_prefix: str = "/") -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path.startswith(path_prefix)]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.faults.clear()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    # --- serving -----------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        # headers and body leave in two writes: without this, Nagle's algorithm meets the client's
        # delayed ACK and every reply waits ~40 ms, which is the loopback's artefact, not a service's
        handler.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        parts = urlsplit(handler.path)
        length = int(handler.headers.get("content-length") or 0)
        body = handler.rfile.read(length) if length else b""
        request = Request(method, parts.path, parse_qs(parts.query), body, dict(handler.headers))
        with self._lock:
            self.requests.append(request)
            fault = self._take_fault(parts.path)
        responder = self._responder(method, parts.path)
        reply = responder(request) if responder else Reply.of_json({"error": "no such route"}, 404)
        if fault is not None:
            if fault.kind == "drop":
                handler.close_connection = True
                handler.connection.close()
                return
            if fault.kind == "status":
                headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else {}
                reply = Reply(fault.status, b'{"error": {"message": "injected"}}', headers=headers)
            elif fault.kind == "delay":
                time.sleep(fault.delay_s)
            elif fault.kind == "malformed":
                reply = Reply(200, b"<html>Service temporarily unavailable</html", reply.content_type)
            elif fault.kind == "truncate":
                reply = Reply(reply.status, reply.body[: max(1, len(reply.body) // 2)], reply.content_type)
        if reply.delay_s:
            time.sleep(reply.delay_s)
        handler.send_response(reply.status)
        handler.send_header("Content-Type", reply.content_type)
        handler.send_header("Content-Length", str(len(reply.body)))
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        try:
            handler.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _take_fault(self, path: str) -> Fault | None:
        for prefix, queue in self.faults.items():
            if queue and (path == prefix or (prefix.endswith("/") and path.startswith(prefix))):
                return queue.popleft()
        return None

    def _responder(self, method: str, path: str) -> Responder | None:
        for want_method, want_path, responder in self.routes:
            if want_method != method:
                continue
            if path == want_path or (want_path.endswith("/") and path.startswith(want_path)):
                return responder
        return None
