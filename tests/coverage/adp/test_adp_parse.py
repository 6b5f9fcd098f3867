"""Reading the ADP manuals: sections and numbered paragraphs with their pages, categories, broken files."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfWriter

from curbside.coverage.adp.data import listed_categories
from curbside.coverage.adp.parse import ParsedManual, manual_key, normalize, parse_manual
from curbside.errors import DocumentParseError
from tests.coverage.adp.conftest import CORE_PDF

CATEGORIES = [
    "Breast Prostheses", "Communication Aids", "Enteral Feeding Pump and Supplies", "Hearing Devices",
    "Home Oxygen", "Insulin Pump and Supplies for Adults", "Insulin Pump and Supplies for Children",
    "Insulin Syringes for Seniors", "Limb Prostheses", "Maxillofacial Extraoral Prostheses",
    "Maxillofacial Intraoral Prostheses", "Mobility Devices", "Ocular Prostheses", "Orthotic Devices", "Ostomy",
    "Pressure Modification Devices", "Respiratory Equipment and Supplies", "Ventilator Equipment and Supplies",
    "Visual Aids",
]  # fmt: skip


def test_core_manual_edition_and_sections(adp_manuals: dict[str, ParsedManual]) -> None:
    core = adp_manuals["core"]
    assert (core.title, core.edition, core.edition_date, core.page_count) == (
        "Policies and Procedures Manual for the Assistive Devices Program",
        "July 2023",
        "2023-07",
        132,
    )
    assert core.label == "Policies and Procedures Manual for the Assistive Devices Program (July 2023)"
    assert core.warnings == []
    ids = [s.section_id for s in core.sections]
    assert ids[:4] == ["100", "105", "110", "200"] and ids[-1] == "Appendix A" and len(ids) == 66
    funding = core.section("305")
    assert funding is not None
    assert (funding.title, funding.part, funding.page, funding.page_end) == (
        "Funding Available to Clients",
        "Part 3: Clients",
        35,
        36,
    )
    assert [(p.paragraph_id, p.page, p.page_end) for p in funding.paragraphs] == [
        ("305.00", 35, 35),
        ("305.01", 35, 36),
        ("305.02", 36, 36),
    ]
    social = core.section("310")
    assert social is not None and social.title == "Funding Available to Clients Receiving Social Assistance"
    assert [p.paragraph_id for p in social.paragraphs] == ["310.00", "310.01", "310.02"]


def test_running_headers_and_divider_pages_are_not_text(adp_manuals: dict[str, ParsedManual]) -> None:
    core = adp_manuals["core"]
    text = " ".join(p.text for s in core.sections for p in s.paragraphs)
    assert "Policies and Procedures Manual for the Assistive Devices Program 35" not in text
    # §220.07 ends page 31; page 32 is the 'Clients / 3' divider of Part 3
    assert core.text_of("220.07").endswith("damaged due to misuse or negligence.")


def test_a_number_split_by_the_text_layer_still_starts_its_paragraph(adp_manuals: dict[str, ParsedManual]) -> None:
    # page 99 extracts '810.03' as '8 10.03'
    paragraph = adp_manuals["core"].paragraph("810.03")
    assert paragraph is not None and paragraph.page == 99
    assert paragraph.text.startswith("For individuals applying for a grant for ADP-funded supplies")


def test_mobility_manual_sections(adp_manuals: dict[str, ParsedManual]) -> None:
    mobility = adp_manuals["mobility-devices"]
    assert (mobility.key, mobility.title, mobility.edition, mobility.page_count) == (
        "mobility-devices",
        "Mobility Devices Policy and Administration Manual",
        "July 2023",
        54,
    )
    section = mobility.section("710")
    assert section is not None
    assert (
        section.title == "Funding for Ministry of Children, Community and Social Services Benefits (MCCSS) Recipients"
    )
    assert (section.part, section.page) == ("Part 7: Funding and Payment", 39)
    assert [p.paragraph_id for p in mobility.section("605").paragraphs] == [  # type: ignore[union-attr]
        "605",
        "605.01",
        "605.02",
        "605.03",
        "605.04",
    ]
    assert normalize(mobility.text_of("205")) == (
        "• Forearm crutches • Wheeled walkers (two, three and four wheels) • Paediatric specific standing frames "
        "• Approved options for ambulation aids"
    )


def test_device_categories_of_section_105_05(adp_manuals: dict[str, ParsedManual]) -> None:
    assert listed_categories(adp_manuals["core"]) == CATEGORIES
    assert adp_manuals["core"].paragraph("105.05").page == 12  # type: ignore[union-attr]


def test_manual_keys() -> None:
    assert manual_key("Policies and Procedures Manual for the Assistive Devices Program") == "core"
    assert manual_key("Hearing Devices Policy and Administration Manual") == "hearing-devices"
    with pytest.raises(DocumentParseError, match="neither the ADP Manual"):
        manual_key("Schedule of Benefits")


def test_normalize_joins_lines_and_straightens_quotes() -> None:
    assert normalize("the Client\u2019s  portion\nmust be") == "the Client's portion must be"


def test_truncated_pdf_is_refused(adp_dir: Path) -> None:
    data = (adp_dir / CORE_PDF).read_bytes()
    with pytest.raises(DocumentParseError) as err:
        parse_manual(adp_dir / CORE_PDF, data[: len(data) // 2])
    assert err.value.message == (
        f"{CORE_PDF} looks truncated: it does not end with the PDF end-of-file marker; the ADP data was not "
        "changed. Download the manual again."
    )
    with pytest.raises(DocumentParseError, match=r"cannot be read as a PDF \(PdfReadError"):
        parse_manual(adp_dir / CORE_PDF, data[: len(data) // 2] + b"\n%%EOF\n")


def test_not_a_pdf_and_no_outline_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DocumentParseError, match=r"is not a PDF"):
        parse_manual(tmp_path / "adp-manual.pdf", b"<html>not found</html>")
    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    buffer = io.BytesIO()
    writer.write(buffer)
    with pytest.raises(DocumentParseError, match="has no bookmark outline"):
        parse_manual(tmp_path / "adp-manual.pdf", buffer.getvalue())


def test_a_parts_introduction_is_read_as_its_own_section(adp_manuals: dict[str, ParsedManual]) -> None:
    # Mobility Devices manual p. 21: Part 4's text before §400 Ambulation Aid
    intro = adp_manuals["mobility-devices"].section("Part 4")
    assert intro is not None and intro.introduces_part
    assert (intro.part, intro.page) == ("Part 4: Confirmation of Eligibility for Device Required", 21)
    text = normalize(intro.paragraphs[0].text)
    assert text.startswith("In order to determine what Device is clinically required and basic for ADP funding")
    assert "avoid including a list of symptoms" in text
    assert "Ambulation Aid" not in text  # §400 begins after it
    # the core manual's parts run straight into their first policy: no introduction is made up
    assert not [s for s in adp_manuals["core"].sections if s.introduces_part]
