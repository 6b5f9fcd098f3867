"""PromptScreen: block-wise PHI screening with a verdict cache; a failing detector means PHI."""

from __future__ import annotations

import io
import json
import logging
import re
from dataclasses import dataclass

from curbside.ask.screening import PromptScreen
from curbside.logs import JsonFormatter
from curbside.redaction import WITHHELD


@dataclass
class Span:
    type: str


class WordDetector:
    """Flags capitalised words from a fixed set, and counts what it was asked to analyse."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.seen: list[str] = []

    def detect(self, text: str) -> list[Span]:
        self.seen.append(text)
        return [Span("PERSON") for word in re.findall(r"\w+", text) if word in self.names]


class BrokenDetector:
    def detect(self, text: str) -> list[Span]:
        raise RuntimeError("model file missing")


def test_phi_in_any_block_is_found_and_typed() -> None:
    detector = WordDetector({"Alice"})
    result = PromptScreen(lambda: detector).screen("Question: dose?\n\nPassage one.\n\nSeen by Alice today.")
    assert result.phi and result.types == ("PERSON",) and result.blocks == 3 and result.error is None


def test_text_without_phi_passes() -> None:
    result = PromptScreen(lambda: WordDetector({"Alice"})).screen("Metformin dose in CKD?", None, "")
    assert not result.phi and result.types == ()
    assert result.metadata() == {"phi_detected": False, "phi_types": [], "phi_screen_ms": result.ms}


def test_repeated_blocks_are_answered_from_the_cache() -> None:
    detector = WordDetector(set())
    screen = PromptScreen(lambda: detector)
    screen.screen("passage A\n\npassage B\n\nquestion 1")
    second = screen.screen("passage A\n\npassage B\n\nquestion 2")
    assert second.analysed == 1 and detector.seen[-1] == "question 2"


def test_cached_phi_verdict_is_kept() -> None:
    screen = PromptScreen(lambda: WordDetector({"Bob"}))
    assert screen.screen("Bob is here").phi
    assert screen.screen("other\n\nBob is here").phi


def test_cache_is_bounded() -> None:
    screen = PromptScreen(lambda: WordDetector(set()), cache_blocks=2)
    screen.screen("a\n\nb\n\nc")
    assert len(screen._cache) == 2


def test_a_failing_detector_counts_as_phi() -> None:
    result = PromptScreen(lambda: BrokenDetector()).screen("nothing personal")
    assert result.phi and result.error is not None and "model file missing" in result.error
    assert result.metadata()["phi_screen_error"] == result.error


def test_a_detector_that_cannot_load_counts_as_phi() -> None:
    def load() -> WordDetector:
        raise ImportError("no spaCy model")

    assert PromptScreen(load).screen("nothing personal").phi


# --- the JSON log formatter ----------------------------------------------------------------------
def _log_through(formatter: JsonFormatter, message: str, **extra: object) -> dict[str, object]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    logger = logging.getLogger("curbside.test-json-log")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.info(message, extra=extra)
    return json.loads(stream.getvalue())


def test_log_lines_are_json_with_redacted_message_and_fields() -> None:
    entry = _log_through(JsonFormatter(lambda t: t.replace("Alice", "[PERSON]")), "asked by Alice", question="Alice?")
    assert entry["message"] == "asked by [PERSON]" and entry["question"] == "[PERSON]?"
    assert entry["level"] == "info" and entry["logger"] == "curbside.test-json-log" and "time" in entry


def test_a_failing_redactor_withholds_the_text() -> None:
    def broken(text: str) -> str:
        raise RuntimeError("boom")

    entry = _log_through(JsonFormatter(broken), "asked by Alice", question="Alice?")
    assert entry["message"] == WITHHELD and entry["question"] == WITHHELD
