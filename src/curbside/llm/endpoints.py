"""Which configured model may answer a prompt: the PHI routing policy.

Two OpenAI-compatible endpoints can be set: a local one (on the clinic's machine)
and a cloud one. ``CURBSIDE_LLM_ROUTING`` decides between them
(query-orchestrator.md, "PHI Detection & Routing"):

- ``hybrid`` (default): a prompt with PHI goes to the local model; one without
  goes to the cloud model when one is set, else to the local one.
- ``local-only``: only the local model is ever called.
- ``cloud-only``: only the cloud model, and only with prompts free of PHI.

With no permitted model the answer is extractive: nothing leaves the machine. The
route's reason tells apart a model that is not configured (set its URL) from one
the routing mode forbids (change CURBSIDE_LLM_ROUTING).
The caller screens the whole outgoing prompt first; a screen that failed counts
as PHI found. The router only decides; it sends nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from pydantic import SecretStr

from curbside.llm.breaker import CircuitBreaker
from curbside.llm.client import ChatClient
from curbside.settings import Settings

__all__ = ["Endpoint", "ModelRouter", "Route", "RoutingMode"]

log = logging.getLogger(__name__)

RoutingMode = Literal["hybrid", "local-only", "cloud-only"]
Endpoint = Literal["local", "cloud"]


@dataclass(frozen=True, slots=True)
class Route:
    """Where one prompt goes: ``endpoint`` None means the extractive answer."""

    endpoint: Endpoint | None
    reason: str

    @property
    def model_used(self) -> str:
        return self.endpoint or "extractive"


class ModelRouter:
    def __init__(self, settings: Settings, clients: dict[Endpoint, ChatClient] | None = None) -> None:
        self.mode: RoutingMode = settings.llm_routing
        self.clients: dict[Endpoint, ChatClient] = clients if clients is not None else _clients(settings)
        # what was set up, before the mode drops what it forbids: a missing model and a forbidden one differ
        self.configured: frozenset[Endpoint] = frozenset(self.clients) | settings_endpoints(settings)
        if self.mode == "local-only":
            self.clients.pop("cloud", None)
        elif self.mode == "cloud-only":
            self.clients.pop("local", None)
        # one breaker per endpoint: a dead local model must not stop PHI-free prompts reaching the cloud
        self.breakers = {
            name: CircuitBreaker(
                failure_threshold=settings.llm_breaker_failures, open_seconds=settings.llm_breaker_open_s
            )
            for name in self.clients
        }
        self.warnings: list[str] = []
        configured = settings_endpoints(settings)
        if "local" in configured and "local" not in self.clients:
            self.warnings.append("CURBSIDE_LOCAL_LLM_URL is set but routing is cloud-only: the local model is unused.")
        if "cloud" in configured and "cloud" not in self.clients:
            self.warnings.append("CURBSIDE_CLOUD_LLM_URL is set but routing is local-only: the cloud model is unused.")

    def warm_up(self) -> None:
        """At start-up: say which configured endpoint the routing leaves unused (in the log)."""
        for warning in self.warnings:
            log.warning(warning)

    @property
    def has_model(self) -> bool:
        return bool(self.clients)

    @property
    def needs_screening(self) -> bool:
        """Only a prompt that may reach the cloud must be screened before it is sent."""
        return "cloud" in self.clients

    @property
    def description(self) -> str:
        if not self.clients:
            return "none (extractive answers)"
        parts = ", ".join(client.describe() for client in self.clients.values())
        return f"{parts}; routing {self.mode}" + (", PHI screened before the cloud" if self.needs_screening else "")

    def route(self, phi_detected: bool) -> Route:
        """The endpoint for a prompt whose screen said ``phi_detected`` (True also when the screen failed)."""
        local, cloud = "local" in self.clients, "cloud" in self.clients
        if not local and not cloud:
            return Route(None, self._none_usable())
        if phi_detected:
            if local:
                return Route("local", "the prompt holds PHI, so it stays on the local model")
            why = self._why_no("local")
            return Route(None, f"the prompt holds PHI and {why}, so nothing is sent; extractive answer")
        if cloud:
            return Route("cloud", "no PHI was found in the prompt")
        return Route("local", f"the local model answers everything under routing {self.mode}")

    def client(self, endpoint: Endpoint) -> ChatClient:
        return self.clients[endpoint]

    def _none_usable(self) -> str:
        if not self.configured:
            return (
                "no LLM endpoint is configured (set CURBSIDE_LOCAL_LLM_URL or CURBSIDE_CLOUD_LLM_URL); "
                "extractive answer"
            )
        forbidden = " and ".join(f"the {name} model" for name in sorted(self.configured))
        return f"routing {self.mode} forbids {forbidden} (CURBSIDE_LLM_ROUTING); extractive answer"

    def _why_no(self, endpoint: Endpoint) -> str:
        """Why ``endpoint`` is not in use: not configured, or forbidden by the routing mode."""
        if endpoint in self.configured:
            return f"routing {self.mode} forbids the {endpoint} model (CURBSIDE_LLM_ROUTING)"
        return f"no {endpoint} model is configured (CURBSIDE_{endpoint.upper()}_LLM_URL)"


def settings_endpoints(settings: Settings) -> set[Endpoint]:
    names: set[Endpoint] = set()
    if settings.local_llm_url:
        names.add("local")
    if settings.cloud_llm_url:
        names.add("cloud")
    return names


def _clients(settings: Settings) -> dict[Endpoint, ChatClient]:
    clients: dict[Endpoint, ChatClient] = {}
    if settings.local_llm_url:
        clients["local"] = _client(
            settings, "local", settings.local_llm_url, settings.local_llm_model, _secret(settings.local_llm_key)
        )
    if settings.cloud_llm_url:
        clients["cloud"] = _client(
            settings, "cloud", settings.cloud_llm_url, settings.cloud_llm_model, _secret(settings.cloud_llm_key)
        )
    return clients


def _client(settings: Settings, name: str, url: str, model: str, key: str | None) -> ChatClient:
    return ChatClient(
        name=name,
        base_url=url,
        model=model,
        api_key=key,
        timeout_s=settings.llm_timeout_s,
        connect_timeout_s=settings.llm_connect_timeout_s,
    )


def _secret(value: SecretStr | None) -> str | None:
    return value.get_secret_value() if value is not None else None
