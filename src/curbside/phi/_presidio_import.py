"""Import Presidio without the work it would do at import time for recognizers we never use.

Presidio's ``nlp_engine`` package imports its Hugging Face engine, which imports ``transformers``
(and with it ``torch``) when they are installed — as they are here, for another embedder — and
probes ``torch`` for a GPU. Curbside runs Presidio on the shipped spaCy model only, so those
imports cost 2–3 s of every cold start for nothing. While Presidio is first imported, they are
made to fail as if absent (Presidio handles that: it falls back to the CPU and leaves the
Hugging Face engine unavailable); afterwards they import normally for whoever needs them.

Importing Presidio also defines its ~170 predefined regex patterns, and each ``Pattern`` compiles
its regex once at creation only to check it (then drops it; recognizers compile their own on first
use). ``UrlRecognizer``'s four patterns each hold every top-level domain: parsing them alone takes
0.2 s on a quiet machine, 1 s on a busy one, and Curbside uses none of them. While Presidio is
first imported, that check is skipped; it is restored at once, so every ``Pattern`` made later is
checked as before. A pattern Curbside does use still compiles before its first match, and a bad
one fails there (the detector fails, so the text counts as PHI). Should Presidio rename the check,
nothing is skipped and the import is simply slower.

spaCy's package imports its command line (``spacy.cli``: downloads, training, project tools, with
``requests``, ``httpx`` and ``weasel``) only to offer ``spacy.info``; that is a sixth of a cold
detector's load. While Presidio (and so spaCy) is first imported, ``spacy.cli.info`` is a stand-in
whose ``info`` imports the real one when called; then the stand-ins go, and a later
``import spacy.cli`` loads the real package. Detection never uses it.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__all__ = ["import_presidio"]

_NOT_NEEDED = ("transformers", "torch")
_SPACY_CLI = ("spacy.cli", "spacy.cli.info")
_PATTERN_MODULE = "presidio_analyzer.pattern"
_PATTERN_CHECK = "_Pattern__validate_regex"  # Pattern.__validate_regex, name-mangled


def import_presidio() -> None:
    if "presidio_analyzer" in sys.modules:
        return
    hidden = [name for name in _NOT_NEEDED if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # None in sys.modules: 'import name' fails
    stand_ins = [] if "spacy" in sys.modules else [name for name in _SPACY_CLI if name not in sys.modules]
    for name in stand_ins:
        sys.modules[name] = _spacy_cli_stand_in(name)
    unchecked = _UncheckedPatterns()
    sys.meta_path.insert(0, unchecked)
    try:
        import presidio_analyzer  # noqa: F401
    finally:
        sys.meta_path.remove(unchecked)
        unchecked.restore()
        for name in stand_ins:
            if getattr(sys.modules.get(name), "__curbside_stand_in__", False):
                del sys.modules[name]
        for name in hidden:
            if sys.modules.get(name, "") is None:
                del sys.modules[name]


class _UncheckedPatterns:
    """A finder for ``presidio_analyzer.pattern`` alone: it loads as usual, then its ``Pattern``
    skips the compile-to-check until ``restore()``. Every other module it leaves to the usual finders."""

    def __init__(self) -> None:
        self._pattern: Any = None
        self._check: Any = None

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _PATTERN_MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = spec.loader if spec is not None else None
        if isinstance(loader, importlib.machinery.SourceFileLoader | importlib.machinery.SourcelessFileLoader):
            run = loader.exec_module

            def exec_module(module: ModuleType) -> None:
                run(module)
                self._skip_check(module)

            loader.exec_module = exec_module  # type: ignore[method-assign]  # this one loader, for this one import
        return spec

    def _skip_check(self, module: ModuleType) -> None:
        pattern = getattr(module, "Pattern", None)
        check = vars(pattern).get(_PATTERN_CHECK) if isinstance(pattern, type) else None
        if isinstance(check, staticmethod):
            self._pattern, self._check = pattern, check
            setattr(pattern, _PATTERN_CHECK, staticmethod(_unchecked))

    def restore(self) -> None:
        if self._pattern is not None:
            setattr(self._pattern, _PATTERN_CHECK, self._check)
            self._pattern = None


def _spacy_cli_stand_in(name: str) -> ModuleType:
    """A module standing in for ``name`` while spaCy is first imported; its ``info`` is spaCy's, imported on call."""
    module = ModuleType(name)
    module.__curbside_stand_in__ = True  # type: ignore[attr-defined]  # so only a stand-in is removed

    def info(*args: Any, **kwargs: Any) -> Any:
        from spacy.cli.info import info as real_info

        return real_info(*args, **kwargs)

    module.info = info  # type: ignore[attr-defined]
    module.__path__ = []  # type: ignore[attr-defined]  # a package, so spacy.cli.info resolves under it
    return module


def _unchecked(regex: str) -> None:
    """Stands in for ``Pattern``'s check while Presidio's own patterns are defined."""
