"""A scripted OpenAI-compatible chat server on loopback, for tests.

It speaks the real wire format (``POST /v1/chat/completions``, SSE streaming
or a JSON body) over a real socket, so the client under test runs unchanged.
Each request is answered by the next scripted ``Reply`` (or ``default``), and
every request body is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    text: str = ""
    stream: bool = True
    status: int = 200
    delay_s: float = 0.0  # before the first byte
    chunk_delay_s: float = 0.0
    raw: bytes | None = None  # sent as-is (malformed payloads)
    finish_reason: str = "stop"
    model: str = "scripted-model"


Script = Callable[[dict[str, Any]], Reply]


class ScriptedLLM:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.replies: deque[Reply | Script] = deque()
        self.default: Reply | Script = Reply("No scripted reply.")
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, b'{"error": "not found"}', "application/json")
                    return
                item = server.replies.popleft() if server.replies else server.default
                reply = item(body) if callable(item) else item
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.raw is not None:
                    self._send(reply.status, reply.raw, "text/event-stream" if reply.stream else "application/json")
                elif reply.status >= 400:
                    self._send(
                        reply.status,
                        json.dumps({"error": {"message": "scripted failure"}}).encode(),
                        "application/json",
                    )
                elif reply.stream and body.get("stream"):
                    self._stream(reply)
                else:
                    payload = {
                        "model": reply.model,
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.text},
                                "finish_reason": reply.finish_reason,
                            }
                        ],
                        "usage": {"prompt_tokens": 10, "completion_tokens": len(reply.text.split())},
                    }
                    self._send(200, json.dumps(payload).encode(), "application/json")

            def _send(self, status: int, data: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, reply: Reply) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                words = reply.text.split(" ")
                for i, word in enumerate(words):
                    piece = word if i == 0 else " " + word
                    event = {
                        "model": reply.model,
                        "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
                    }
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                    self.wfile.flush()
                    if reply.chunk_delay_s:
                        time.sleep(reply.chunk_delay_s)
                last = {
                    "model": reply.model,
                    "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish_reason}],
                }
                self.wfile.write(f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def user_prompt(self, index: int = -1) -> str:
        return self.requests[index]["body"]["messages"][-1]["content"]
