"""Shared plumbing for Curbside's Presidio recognizers."""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from curbside.phi._tokens import Token

__all__ = ["Found", "RuleRecognizer", "next_index", "prev_index"]

Found = tuple[int, int, str, float]  # start, end, PHI type, score


class RuleRecognizer(EntityRecognizer):
    """A recognizer whose rules return ``Found`` tuples; subclasses implement ``find``."""

    ENTITIES: tuple[str, ...] = ()

    def __init__(self) -> None:
        super().__init__(supported_entities=list(self.ENTITIES), name=type(self).__name__, supported_language="en")

    def load(self) -> None:  # word lists load with the detector
        return None

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        return [
            RecognizerResult(entity_type=kind, start=start, end=end, score=score)
            for start, end, kind, score in self.find(text, nlp_artifacts)
            if kind in entities or not entities
        ]

    def find(self, text: str, nlp_artifacts: NlpArtifacts | None) -> list[Found]:
        raise NotImplementedError


def next_index(tokens: tuple[Token, ...], i: int, skip: str = "") -> int | None:
    """Index of the first token after ``i`` that is not punctuation in ``skip``."""
    j = i + 1
    while j < len(tokens) and tokens[j].kind == "punct" and tokens[j].text in skip:
        j += 1
    return j if j < len(tokens) else None


def prev_index(tokens: tuple[Token, ...], i: int, skip: str = "") -> int | None:
    j = i - 1
    while j >= 0 and tokens[j].kind == "punct" and tokens[j].text in skip:
        j -= 1
    return j if j >= 0 else None
