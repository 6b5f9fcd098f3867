"""Fixtures for the evidence tools: a replay server, settings pointing every service at it, an
outbound client with a PHI screen, and a way to call one family's tools through a real executor."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from curbside.settings import Settings
from curbside.tools import ToolExecutor, ToolRegistry, ToolResult
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.outbound import OutboundClient, PhiScreen
from curbside.types import ToolCaller
from tests.tools.evidence.replay import ReplayServer

Register = Callable[[ToolRegistry, EvidenceDeps], None]


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    server = ReplayServer()
    yield server
    server.close()


def no_phi(text: str) -> list[str]:
    """A screen that finds nothing: for tests about something else (the real detector has its own tests)."""
    return []


@pytest.fixture
def evidence_settings(replay: ReplayServer, tmp_path: Path) -> Settings:
    """Every service at the replay server; fast retries so fault tests stay quick."""
    return Settings(
        home=tmp_path / "home",
        pubmed_url=f"{replay.url}/eutils",
        europepmc_url=f"{replay.url}/europepmc",
        clinicaltrials_url=f"{replay.url}/ctgov",
        openfda_url=f"{replay.url}/openfda",
        bookshelf_url=f"{replay.url}/litarch",
        outbound_backoff_s=0.01,
        outbound_timeout_s=2.0,
    )


@pytest.fixture
def make_client(evidence_settings: Settings) -> Callable[..., OutboundClient]:
    def build(settings: Settings | None = None, detect: Callable[[str], list[str]] | None = no_phi) -> OutboundClient:
        chosen = settings or evidence_settings
        screen = PhiScreen(chosen, detect=detect) if detect is not None else PhiScreen(chosen)
        return OutboundClient(chosen, screen=screen)

    return build


@pytest.fixture
def call_tool(evidence_settings: Settings, make_client: Callable[..., OutboundClient]) -> Callable[..., ToolResult]:
    """``call_tool(register, name, args, client=None, deps=None)``: one family's tool through a real executor."""
    import asyncio

    def call(
        register: Register,
        name: str,
        args: dict[str, Any],
        *,
        client: OutboundClient | None = None,
        deps: EvidenceDeps | None = None,
    ) -> ToolResult:
        chosen = client or make_client()
        registry = ToolRegistry()
        register(registry, deps or EvidenceDeps(evidence_settings, client=lambda: chosen, today=lambda: "2026-11-27"))
        executor = ToolExecutor(registry, default_caller=ToolCaller(user="dr-a", role="clinician", channel="cli"))
        return asyncio.run(executor.call(name, args))

    return call
