"""List markers glued to their item's first word by the text extraction are spaced for quoting."""

from __future__ import annotations

from curbside.coverage.ohip.list_markers import spaced_markers


def test_glued_markers_are_spaced() -> None:
    assert spaced_markers("a.failed a trial; b.Grade III or IV; or c.haemorrhoids") == (
        "a. failed a trial; b. Grade III or IV; or c. haemorrhoids"
    )
    assert spaced_markers("3.R081 with or without E524") == "3. R081 with or without E524"
    assert spaced_markers("ii.medical specific re-assessment") == "ii. medical specific re-assessment"


def test_abbreviations_decimals_and_codes_are_left_as_printed() -> None:
    for text in ("e.g. laser, i.e. this, at 8 a.m. today", "a 1.5 cm cut", "G104A,G111A", "vs.The"):
        assert spaced_markers(text) == text
