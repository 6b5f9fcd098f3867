"""Which configured model answers.

Two OpenAI-compatible endpoints can be set: a local one (on the clinic's machine)
and a cloud one. Until PHI screening exists (issue #4), the local endpoint is used
whenever it is set, and the cloud one only when it is the only one set — with a
warning that questions reach it unscreened.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from curbside.llm.client import ChatClient
from curbside.settings import Settings

__all__ = ["CLOUD_UNSCREENED_WARNING", "ModelChoice", "choose_model"]

log = logging.getLogger(__name__)

CLOUD_UNSCREENED_WARNING = (
    "Only the cloud LLM endpoint is configured and PHI screening is not active yet: questions and "
    "retrieved passages are sent to it unscreened. Do not put patient details in questions, or set "
    "CURBSIDE_LOCAL_LLM_URL to a model on this machine."
)


@dataclass(slots=True)
class ModelChoice:
    client: ChatClient | None
    reason: str
    warnings: list[str] = field(default_factory=list)

    @property
    def description(self) -> str:
        return self.client.describe() if self.client else "none (extractive answers)"


def choose_model(settings: Settings) -> ModelChoice:
    if settings.local_llm_url:
        return ModelChoice(_client(settings, "local"), "the local endpoint is configured")
    if settings.cloud_llm_url:
        log.warning(CLOUD_UNSCREENED_WARNING)
        return ModelChoice(
            _client(settings, "cloud"), "only the cloud endpoint is configured", [CLOUD_UNSCREENED_WARNING]
        )
    return ModelChoice(None, "no LLM endpoint is configured")


def _client(settings: Settings, name: str) -> ChatClient:
    url, model, key = (
        (settings.local_llm_url, settings.local_llm_model, settings.local_llm_key)
        if name == "local"
        else (settings.cloud_llm_url, settings.cloud_llm_model, settings.cloud_llm_key)
    )
    assert url is not None
    return ChatClient(
        name=name,
        base_url=url,
        model=model,
        api_key=key,
        timeout_s=settings.llm_timeout_s,
        connect_timeout_s=settings.llm_connect_timeout_s,
    )
