"""Real servers on loopback for the workspace tools: Radicale (CalDAV) and wsgidav (WebDAV), each a
WSGI app served by cheroot in a thread, with a user and password required. Each test module gets its
own servers; each calendar test gets its own calendar collection, so tests never see each other's events.
"""

from __future__ import annotations

import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from cheroot import wsgi

from curbside.settings import Settings
from curbside.tools import ToolExecutor, ToolRegistry
from curbside.tools.confirmations import ConfirmationStore
from curbside.tools.workspace import WorkspaceDeps, register
from curbside.types import ToolCaller

USER = "dr-a"
PASSWORD = "s3cret-Pass"
DR_A = ToolCaller(user=USER, role="clinician", channel="cli")
SHARED = "clinic"  # the WebDAV folder the tools are given; the server's root above it holds a file they must not reach


@dataclass(frozen=True)
class Server:
    base: str  # http://127.0.0.1:PORT
    root: Path  # where it keeps its files


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Serve a WSGI app on a free loopback port; yields its base URL and stops it afterwards."""
    server = wsgi.Server(("127.0.0.1", 0), app, numthreads=4)
    server.prepare()
    thread = threading.Thread(target=server.serve, name="workspace-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.bind_addr[1]}"
    finally:
        server.stop()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def radicale_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    import radicale
    from radicale import config

    root = tmp_path_factory.mktemp("radicale")
    users = root / "users"
    users.write_text(f"{USER}:{PASSWORD}\n", encoding="utf-8")
    configuration = config.load()
    configuration.update(
        {
            "storage": {"filesystem_folder": str(root / "collections")},
            "auth": {"type": "htpasswd", "htpasswd_filename": str(users), "htpasswd_encryption": "plain"},
            "logging": {"level": "error"},
        },
        "curbside tests",
        privileged=True,
    )
    with serve(radicale.Application(configuration)) as base:
        yield Server(base=base, root=root)


@pytest.fixture
def calendar_url(radicale_server: Server) -> str:
    """A new, empty calendar collection for this test."""
    url = f"{radicale_server.base}/{USER}/cal-{uuid.uuid4().hex[:8]}/"
    answer = httpx.request("MKCALENDAR", url, auth=(USER, PASSWORD))
    assert answer.status_code == 201, answer.text
    return url


@pytest.fixture(scope="module")
def webdav_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    from wsgidav.wsgidav_app import WsgiDAVApp

    root = tmp_path_factory.mktemp("webdav")
    (root / SHARED).mkdir()
    app = WsgiDAVApp(
        {
            "provider_mapping": {"/": str(root)},
            "simple_dc": {"user_mapping": {"*": {USER: {"password": PASSWORD}}}},
            "http_authenticator": {"accept_basic": True, "accept_digest": False, "default_to_digest": False},
            "dir_browser": {"enable": False},
            "logging": {"enable": False},
            "verbose": 0,
        }
    )
    with serve(app) as base:
        yield Server(base=base, root=root)


@pytest.fixture
def closed_url() -> str:
    """An address on loopback where nothing listens (the port was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def workspace_settings(tmp_path: Path, **overrides: Any) -> Settings:
    return Settings(home=tmp_path / "home", **overrides)


class NoNetwork(httpx.AsyncBaseTransport):
    """A transport that fails the test if anything is sent through it."""

    def __init__(self) -> None:
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        raise AssertionError(f"unexpected request: {request.method} {request.url}")


def executor_for(deps: WorkspaceDeps) -> ToolExecutor:
    registry = ToolRegistry()
    register(registry, deps)
    return ToolExecutor(registry, default_caller=DR_A, confirmations=ConfirmationStore(ttl_s=60))


MakeExecutor = Callable[..., ToolExecutor]
