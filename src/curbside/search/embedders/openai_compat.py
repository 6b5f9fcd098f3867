"""Any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (a local
llama.cpp / Ollama / vLLM server, or a cloud API the user configured)."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from curbside.errors import UpstreamError
from curbside.search.embedders.base import l2_normalise
from curbside.search.embedders.tokenizer import minilm_token_counter

__all__ = ["OpenAIEmbedder"]


class OpenAIEmbedder:
    backend = "openai-compatible"
    # an unknown model has no calibrated scale: no threshold unless CURBSIDE_MIN_SIMILARITY sets one
    relevance_threshold = -1.0

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        dim: int | None = None,
        max_tokens: int = 512,
        batch_size: int = 32,
        timeout_s: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.model_id = f"openai:{model}"
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._dim = dim
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout_s, headers=headers, transport=transport)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self._post(["dimension probe"]).shape[1])
        return self._dim

    def warm_up(self) -> None:
        _ = self.dim

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        # the remote tokenizer is unknown here; MiniLM's WordPiece count is a close,
        # usually pessimistic proxy for BPE models, and the cap is a setting
        return minilm_token_counter(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self._post(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return np.vstack(parts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._post([text])[0]

    def _post(self, texts: list[str]) -> np.ndarray:
        url = f"{self.base_url}/embeddings"
        try:
            response = self._client.post(url, json={"model": self.model, "input": texts})
        except httpx.TimeoutException as exc:
            raise UpstreamError(f"The embeddings endpoint {url} timed out.", code="UPSTREAM_TIMEOUT") from exc
        except httpx.HTTPError as exc:
            raise UpstreamError(f"The embeddings endpoint {url} could not be reached: {exc}.") from exc
        if response.status_code != 200:
            raise UpstreamError(
                f"The embeddings endpoint {url} answered HTTP {response.status_code}: {response.text[:200]}"
            )
        try:
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            matrix = np.asarray([item["embedding"] for item in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise UpstreamError(f"The embeddings endpoint {url} returned an unexpected body.") from exc
        if matrix.shape[0] != len(texts) or matrix.ndim != 2:
            raise UpstreamError(f"The embeddings endpoint {url} returned {matrix.shape[0]} vectors for {len(texts)} texts.")
        return l2_normalise(matrix)
