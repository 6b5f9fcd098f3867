"""What every PHI detector does around its analysis: check the text, remember what was analysed, redact.

``PhiDetector`` analyses in this process; ``ChildDetector`` asks a child process to. Both give the same
spans for the same text, so the screen and the audit trail cannot tell which one they hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.errors import ValidationError
from curbside.phi._memo import MEMO
from curbside.phi._spans import PhiSpan

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["DetectorKey", "SpanDetector", "detector_key"]

DetectorKey = tuple[int, int, float]


def detector_key(settings: Settings | None = None) -> DetectorKey:
    """The settings a detector is built with: (max_chars, window_chars, score_threshold)."""
    if settings is None:
        from curbside.settings import Settings

        settings = Settings()
    return (settings.phi_max_chars, settings.phi_window_chars, settings.phi_score_threshold)


class SpanDetector:
    """``detect``, ``contains_phi`` and ``redact`` over a subclass's ``_detect``."""

    max_chars: int

    def _detect(self, text: str) -> list[PhiSpan]:
        raise NotImplementedError

    def detect(self, text: str) -> list[PhiSpan]:
        """PHI spans in ``text``, sorted by position, overlapping finds merged; ``[]`` for ``""``."""
        if not isinstance(text, str):
            raise ValidationError(f"PHI detection needs text (str), got {type(text).__name__}.")
        if len(text) > self.max_chars:
            raise ValidationError(
                f"Text of {len(text):,} characters is longer than the PHI detector accepts "
                f"({self.max_chars:,}, CURBSIDE_PHI_MAX_CHARS). Split it, or raise the limit."
            )
        if not text.strip():
            return []
        memo = MEMO.get()
        if memo is not None and text in memo:
            return list(memo[text])
        spans = self._detect(text)
        if memo is not None:
            memo[text] = tuple(spans)
        return spans

    def contains_phi(self, text: str) -> bool:
        return bool(self.detect(text))

    def redact(self, text: str) -> str:
        """``text`` with every PHI span replaced by ``[TYPE]``, e.g. ``"[PERSON] called"``."""
        parts: list[str] = []
        last = 0
        for span in self.detect(text):
            parts.append(text[last : span.start])
            parts.append(f"[{span.type}]")
            last = span.end
        parts.append(text[last:])
        return "".join(parts)
