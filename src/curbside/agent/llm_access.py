"""The turn's way to a model: which endpoint the PHI policy allows, the clients, the prices.

A turn's text holds PHI whenever a patient is active (the chart's values are in it); otherwise the
message and the draft are screened when a cloud model could receive them, as ``ask`` does. A screen
that fails counts as PHI found. The router decides; nothing here sends a prompt.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curbside.tools.calculators.note_model import ChatJsonModel

if TYPE_CHECKING:
    from curbside.ask.screening import PromptScreen
    from curbside.llm.client import ChatClient
    from curbside.llm.endpoints import Endpoint, ModelRouter
    from curbside.settings import Settings

__all__ = ["ModelChoice", "TurnLLM"]


@dataclass(frozen=True)
class ModelChoice:
    """Where a turn's prompts may go: ``endpoint`` None means nowhere, for ``reason``."""

    endpoint: Endpoint | None
    reason: str
    phi: bool | None  # None: not screened (no cloud model could see it)


class TurnLLM:
    def __init__(self, router: ModelRouter, screen: PromptScreen, settings: Settings) -> None:
        self.router = router
        self.screen = screen
        self.settings = settings
        self._json: dict[str, ChatJsonModel] = {}

    @property
    def usable(self) -> bool:
        return self.settings.turn_use_llm and self.router.has_model

    async def choose(self, *texts: str, patient_active: bool) -> ModelChoice:
        """The endpoint for prompts made of ``texts``, by the PHI routing policy."""
        if patient_active:
            route = self.router.route(phi_detected=True)
            return ModelChoice(route.endpoint, route.reason, True)
        if not self.router.needs_screening:
            route = self.router.route(phi_detected=False)
            return ModelChoice(route.endpoint, route.reason, None)
        screened = await asyncio.to_thread(self.screen.screen, *texts)
        route = self.router.route(phi_detected=screened.phi)
        reason = route.reason + (" (the PHI screen failed, so PHI was assumed)" if screened.error else "")
        return ModelChoice(route.endpoint, reason, screened.phi)

    def client(self, endpoint: Endpoint) -> ChatClient:
        return self.router.client(endpoint)

    def json_model(self, endpoint: Endpoint) -> ChatJsonModel:
        """A structured-output client for ``endpoint`` (kept: it remembers which response_format works)."""
        if endpoint not in self._json:
            client = self.router.client(endpoint)
            secret = self.settings.local_llm_key if endpoint == "local" else self.settings.cloud_llm_key
            self._json[endpoint] = ChatJsonModel(
                name=client.name,
                base_url=client.base_url,
                model=client.model,
                api_key=secret.get_secret_value() if secret is not None else None,
                timeout_s=self.settings.llm_timeout_s,
                connect_timeout_s=self.settings.llm_connect_timeout_s,
                breaker=self.router.breakers.get(endpoint),
            )
        return self._json[endpoint]

    def prices(self, endpoint: Endpoint) -> tuple[float, float]:
        """Cost of 1,000 prompt and 1,000 completion tokens on ``endpoint``."""
        if endpoint == "local":
            return self.settings.llm_price_local_per_1k, self.settings.llm_price_local_per_1k
        return self.settings.llm_price_cloud_prompt_per_1k, self.settings.llm_price_cloud_completion_per_1k
