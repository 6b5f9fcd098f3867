"""The PHI detector in a child process: the same spans as in process, and every failure reads as PHI."""

from __future__ import annotations

import pytest

from curbside.ask.screening import PromptScreen
from curbside.errors import PhiDetectorError, ValidationError
from curbside.phi import get_detector, remembered_detections
from curbside.phi.child import ChildDetector
from curbside.settings import Settings

TEXTS = [
    "pt John Smith seen 3/14, MRN 00123456, lives at 12 Elm St, Toronto M5V 2T6",
    "Call Dr. Alvarez at 416-555-0199 re: Mrs. O'Neil's INR (on warfarin 5 mg)",
    "can I start metformin if eGFR is 35?",
    "ÉLODIE BÉRUBÉ, 92 y.o., HCN 1234-567-890-AB — émigré from Québec",
    "",
]


@pytest.fixture(scope="module")
def child():
    detector = ChildDetector(Settings())
    yield detector
    detector.close()


def test_the_child_finds_the_same_spans_as_the_detector_in_process(child: ChildDetector) -> None:
    here = get_detector(Settings())
    for text in TEXTS:
        assert child.detect(text) == here.detect(text), text
    assert child.redact(TEXTS[0]) == here.redact(TEXTS[0])
    assert child.redact(TEXTS[0]).startswith("pt [PERSON] seen [DATE]")
    assert not child.contains_phi(TEXTS[2])


def test_within_one_piece_of_work_the_child_is_asked_once_per_text(child: ChildDetector) -> None:
    with remembered_detections():
        first = child.detect(TEXTS[1])
        child._process.stdin.close()  # the child can answer no more: the second answer must come from memory
        assert child.redact(TEXTS[1]) == get_detector(Settings()).redact(TEXTS[1])
        assert child.detect(TEXTS[1]) == first
    with pytest.raises(PhiDetectorError, match="not running|ended|could not be reached"):
        child.detect("a text not analysed before")


def test_text_longer_than_the_limit_is_refused_before_it_is_sent() -> None:
    detector = ChildDetector(Settings(phi_max_chars=1000))
    try:
        with pytest.raises(ValidationError, match="CURBSIDE_PHI_MAX_CHARS"):
            detector.detect("x" * 1001)
        assert detector._process.poll() is None  # still serving
    finally:
        detector.close()
    assert detector._process.returncode is not None


def test_a_child_that_cannot_build_its_detector_says_why_and_the_screen_reads_phi() -> None:
    broken = ChildDetector(Settings().model_copy(update={"phi_window_chars": 999}))  # PhiDetector refuses these
    try:
        with pytest.raises(PhiDetectorError, match="window_chars must be at least 1000"):
            broken.detect("can I start metformin?")
        result = PromptScreen(lambda: broken).screen("can I start metformin?")
        assert result.phi and result.error and "window_chars" in result.error
    finally:
        broken.close()


def test_a_child_that_died_is_reported_with_its_exit_code() -> None:
    detector = ChildDetector(Settings())
    detector._process.kill()
    detector._process.wait()
    try:
        with pytest.raises(PhiDetectorError, match="not running"):
            detector.detect("can I start metformin?")
    finally:
        detector.close()
