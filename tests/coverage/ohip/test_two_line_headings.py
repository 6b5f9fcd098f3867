"""A sub-heading printed over two lines governs the codes under it (2025-03-03 Schedule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from curbside.coverage.ohip.parse import code_title, parse_schedule


@pytest.fixture(scope="module")
def titles(ohip_text: Path) -> dict[str, str]:
    parsed = parse_schedule(ohip_text)
    out: dict[str, str] = {}
    for _, listing in parsed.listings:
        out.setdefault(listing.code, code_title(listing))
    return out


def test_a_heading_carried_on_to_a_lower_case_line_titles_the_codes_under_it(titles: dict[str, str]) -> None:
    # M9: 'Debridement of wound(s) and/or ulcer(s) extending into any of the following structures: tendon,' /
    # 'ligament, bursa and/or bone' / 'Z084 - one', 'Z085 - two or more'; not the subcutaneous heading above it
    assert titles["Z085"] == (
        "Debridement of wound(s) and/or ulcer(s) extending into any of the following structures: tendon, ligament, "
        "bursa and/or bone - two or more"
    )
    assert titles["Z081"] == "Debridement of wound(s) and/or ulcer(s) extending into subcutaneous tissue - two"
    # External ear (Aural Surgical Procedures): the pinna's haematoma, not 'Removal of drainage tube(s)' further up
    assert titles["E317"].startswith("Incision and drainage of extensive haematoma of pinna with packing of ear")
    # a reference carried on is no part of the heading (A9: 'see General Preamble GP28 …')
    assert titles["A110"] == "Periodic oculo-visual assessment - aged 19 years and below"


def test_a_line_qualifying_the_heading_above_does_not_replace_it(titles: dict[str, str]) -> None:
    # Y2: 'Ulcer cautery' / 'Including laser and/or electrocautery, …' / 'or corneal puncture' / 'Z871'
    assert titles["Z871"] == "Ulcer cautery - local anaesthetic"
