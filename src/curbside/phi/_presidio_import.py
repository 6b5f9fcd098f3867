"""Import Presidio without the machine-learning stacks it can use but we do not.

Presidio's ``nlp_engine`` package imports its Hugging Face engine, which imports ``transformers``
(and with it ``torch``) when they are installed — as they are here, for another embedder — and
probes ``torch`` for a GPU. Curbside runs Presidio on the shipped spaCy model only, so those
imports cost 2–3 s of every cold start for nothing. While Presidio is first imported, they are
made to fail as if absent (Presidio handles that: it falls back to the CPU and leaves the
Hugging Face engine unavailable); afterwards they import normally for whoever needs them.
"""

from __future__ import annotations

import sys

__all__ = ["import_presidio"]

_NOT_NEEDED = ("transformers", "torch")


def import_presidio() -> None:
    if "presidio_analyzer" in sys.modules:
        return
    hidden = [name for name in _NOT_NEEDED if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # None in sys.modules: 'import name' fails
    try:
        import presidio_analyzer  # noqa: F401
    finally:
        for name in hidden:
            if sys.modules.get(name, "") is None:
                del sys.modules[name]
