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
        if not listing.description.startswith("("):  # 'K189 (video' / 'only)' in a table (A70) names no service
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


def test_an_add_on_to_several_codes_hangs_under_the_heading_over_them_all(titles: dict[str, str]) -> None:
    # J77: 'Percutaneous epidural injections' / G246 Lumbar, G117 Thoracic, G119 Cervical, G918 Caudal / 'E440 - with
    # injection of contrast using fluoroscopy, to G246, G117, G119 or G918 …… add 30.00': not 'Caudal', the last code
    assert titles["E440"] == (
        "Percutaneous epidural injections - with injection of contrast using fluoroscopy, to G246, G117, G119 or G918"
    )
    assert titles["E833"].startswith("Percutaneous epidural injections - with insertion of subcutaneous port")
    # S20: 'E738 - with continent ileostomy, to either S168, S169, S170, S173 or S174' follows codes of several
    # headings ('Two-surgeon team' is over S173 and S174 only): its own words, under no heading
    assert titles["E738"] == "with continent ileostomy, to either S168, S169, S170, S173 or S174"
    # an add-on to its one code keeps that code's name (M22: 'Z132 Insertion of tissue expander' / 'E527 - additional
    # expander, same incision')
    assert titles["E527"].startswith("Insertion of tissue expander")
    # an add-on named as its heading is that heading's one service (A173: 'High risk community psychiatric care' /
    # 'K188 High risk community psychiatric care, to A190, …'): the heading does not reach K189 after it
    assert titles["K189"] == "Urgent community psychiatric follow-up, to A190, A195, A192, A198, A695 or A795"


def test_a_dash_description_repeating_its_heading_is_said_once(titles: dict[str, str]) -> None:
    # A8: 'Identification of patient for a major eye examination' / 'E077 - identification of patient for a major eye
    # examination.. add 10.25' (a leader of two dots)
    assert titles["E077"] == "Identification of patient for a major eye examination"
