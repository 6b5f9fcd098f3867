"""Parsing the whole Schedule of Benefits text: fees by specialty, never-guessed fees, rules, the parse report.

Golden facts read from ``ohip-schedule-of-benefits-2025-03-03.txt`` (line numbers of that file):
C124 is 61.15 under Family Practice (A11, line 7138) and under Anaesthesia (A74, line 10062): there the
run of six codes C012 C017 C019 C122 C123 C124 is followed by 31.00 x3 then 61.15 x3, so 31.00 is the
anaesthetist's subsequent visit fee (C012-C019), not C124's — the issue's '$31.00 in Anaesthesia' is the
naive parser's shift this parser exists to avoid.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ohip_index import index_fees

from curbside.coverage.ohip.listings import ADDS_TO_SEVERAL, Listing
from curbside.coverage.ohip.parse import ParsedSchedule, parse_schedule, parse_schedule_text
from curbside.coverage.ohip.words import SPECIALTY_ALIASES
from curbside.errors import DocumentParseError


@pytest.fixture(scope="module")
def parsed(ohip_text: Path) -> ParsedSchedule:
    return parse_schedule(ohip_text)


def listed(parsed: ParsedSchedule, code: str, section: str) -> list[Listing]:
    return [x for key, x in parsed.listings if x.code == code and parsed.sections[key - 1].entry.title == section]


def fee(parsed: ParsedSchedule, code: str, section: str) -> tuple[str, str, str]:
    """(status, fee as printed, page) of the code's one listing in the section."""
    (x,) = listed(parsed, code, section)
    return x.status, x.fee_text, x.page


def test_edition(parsed: ParsedSchedule) -> None:
    e = parsed.edition
    assert (e.published, e.effective, e.amendment) == ("2025-02-14", "2025-03-03", "Amd 12 Draft 1")
    assert e.label == "OHIP Schedule of Benefits (effective 2025-03-03)"


def test_c124_by_specialty_and_the_31_dollars_that_are_not_its(parsed: ParsedSchedule) -> None:
    assert fee(parsed, "C124", "Family Practice & Practice in General (00)") == ("aligned", "61.15", "A11")
    assert fee(parsed, "C124", "Anaesthesia (01)") == ("aligned", "61.15", "A74")
    assert fee(parsed, "C124", "Cardiology (60)") == ("aligned", "61.15", "A76")
    assert fee(parsed, "C124", "Paediatrics (26)") == ("aligned", "61.15", "A159")
    # every section that lists C124 with an aligned fee prints 61.15
    assert {x.fee for _, x in parsed.listings if x.code == "C124" and x.status == "aligned"} == {61.15}
    for code in ("C012", "C017", "C019"):  # Anaesthesia's subsequent visits, A74
        assert fee(parsed, code, "Anaesthesia (01)") == ("aligned", "31.00", "A74")
        assert listed(parsed, code, "Anaesthesia (01)")[0].unit == "per visit"


@pytest.mark.parametrize(
    ("code", "section", "expected"),
    [
        ("A005", "Family Practice & Practice in General (00)", ("aligned", "87.90", "A1")),  # line 6590s
        ("A813", "Family Practice & Practice in General (00)", ("aligned", "111.70", "A9")),
        ("C015", "Anaesthesia (01)", ("aligned", "109.70", "A73")),
        ("A605", "Cardiology (60)", ("aligned", "161.65", "A75")),
        ("A600", "Cardiology (60)", ("aligned", "310.45", "A75")),
        ("X009", "Head and Neck", ("aligned", "16.40", "D5")),  # the P column; H is 37.25
        ("Z156", "Skin and Subcutaneous Tissue", ("aligned", "20.00", "M2")),
        ("Z159", "Skin and Subcutaneous Tissue", ("aligned", "10.55", "M2")),
        ("N540", "Deformities of the Spine", ("aligned", "2805.00", "Z12")),
        ("E390", "Deformities of the Spine", ("aligned", "255.00", "Z12")),  # 'to N539 or / N540 …… add'
    ],
)
def test_fees_in_five_parts(parsed: ParsedSchedule, code: str, section: str, expected: tuple[str, str, str]) -> None:
    assert fee(parsed, code, section) == expected


def test_two_column_listing_keeps_both_columns(parsed: ParsedSchedule) -> None:
    (x001,) = listed(parsed, "X001", "Head and Neck")
    assert (x001.components, x001.fee) == ({"H": "29.90", "P": "13.25"}, 13.25)


def test_premiums(parsed: ParsedSchedule) -> None:
    (e083,) = listed(parsed, "E083", "Hospital and Institutional Consultations and Assessments")
    (e084,) = listed(parsed, "E084", "Hospital and Institutional Consultations and Assessments")
    assert (e083.status, e083.percent, e083.fee_text, e083.page) == ("percent", 30.0, "add 30%", "GP47")
    assert (e084.status, e084.percent, e084.page) == ("percent", 45.0, "GP47")
    assert "C124" in e083.description and e084.description.startswith("Saturday, Sunday or Holiday")
    (b960,) = listed(parsed, "B960", "Special Visit Premiums")  # '$36.40' over 'B960' in Table VI, GP75
    assert (b960.fee_text, b960.page) == ("36.40", "GP75")


def test_misaligned_runs_are_fee_unknown_never_shifted(parsed: ParsedSchedule) -> None:
    fp = "Family Practice & Practice in General (00)"
    # A10: C002 C007 C009 are followed by 111.70 (A813's, moved by the extraction) and 34.10 x3: not shifted;
    # the second reading takes the 34.10s, which the Numeric Index states for each (test_ohip_fees)
    for code in ("C002", "C007", "C009"):
        (x,) = listed(parsed, code, fp)
        assert (x.status, x.fee, x.fee_text) == ("aligned", 34.10, "34.10")
    (c813,) = listed(parsed, "C813", fp)  # its fee went to the run above; C815's 186.95 alone follows the pair
    assert c813.status == "unknown" and c813.reason == "2 code(s) before 1 fee value(s) (A10 line 7080)"
    # 'K041' / '70.10' / '- additional units … . per unit' / '50.20': the fee after its leader is K041's, the one
    # between the code and its description no run's (test_ohip_fees)
    (k041,) = listed(parsed, "K041", fp)
    assert (k041.status, k041.fee_text) == ("aligned", "50.20")


def test_aligned_fees_agree_with_the_numeric_index(parsed: ParsedSchedule, ohip_text: Path) -> None:
    """The index (a separate table at the end of the file) prices ~2,700 codes; no aligned fee contradicts it."""
    index = index_fees(ohip_text)
    checked, wrong = 0, []
    for _, x in parsed.listings:
        if x.status == "aligned" and not x.components and x.unit != "table" and x.code in index:
            checked += 1
            if x.fee not in index[x.code]:
                wrong.append((x.code, x.page, x.fee, sorted(index[x.code])))
    assert checked > 1800  # 1,884 on this file
    assert wrong == []


def test_parse_report(parsed: ParsedSchedule) -> None:
    r = parsed.report
    assert r.pages == 809  # page labels found before the Numeric Index (P8 and S12 carry none in the extraction)
    assert r.sections == 239  # 231 in the contents' sections, and 8 appendices it lists without sections (AA-AQ)
    assert r.codes_with_fee + r.codes_fee_unknown == r.codes_found
    assert r.listings_with_fee + r.listings_fee_unknown == r.listings == len(parsed.listings)
    assert r.codes_found == len({x.code for _, x in parsed.listings})
    assert r.aligned_share == round(r.codes_with_fee / r.codes_found, 4)
    assert r.aligned_share >= 0.69  # the reported target: 3,650 of 5,215 codes (70.0 %) on this file
    assert parsed.counts()["codes"] == r.codes_found


def test_c124_rules(parsed: ParsedSchedule) -> None:
    own = {r.kind: r for r in parsed.rules if "C124" in r.subjects and r.page == "GP45"}
    assert set(own) == {"definition", "payment_rules", "commentary"}
    rules = own["payment_rules"]
    assert rules.heading == "Subsequent visit by the MRP - day of discharge (C124)"
    assert rules.text.startswith(
        "Payment rules: 1.C124 is only payable to the MRP and limited to one service per hospital admission. "
        "2.C124 is not eligible for payment under any of the following circumstances: a.The patient was "
        "discharged within 48 hours of admission to hospital (calculated from the actual date of admission to "
        "hospital);"
    )
    assert "completion of the discharge summary by the physician within 48 hours of discharge" in own["definition"].text
    # C122/C123's own rules name C124: they are its relatives
    gp44 = [r for r in parsed.rules if r.page == "GP44" and r.kind == "payment_rules" and "C124" in r.mentions]
    assert {"C122", "C123"} <= set(gp44[0].subjects)
    assert parsed.codes["C124"].title == "Subsequent visit by the MRP - day of discharge"
    assert parsed.codes["C124"].defined_on == "GP45"


def test_every_specialty_alias_names_a_section_of_the_schedule(parsed: ParsedSchedule) -> None:
    specialties = {s.entry.specialty for s in parsed.sections if s.entry.specialty}
    assert set(SPECIALTY_ALIASES.values()) <= specialties


def test_malformed_texts_are_refused(ohip_text: Path, tmp_path: Path) -> None:
    text = ohip_text.read_text(encoding="utf-8")
    with pytest.raises(DocumentParseError, match="looks truncated: it has no Numeric Index"):
        parse_schedule_text(text[: len(text) * 6 // 10], "cut.txt")
    with pytest.raises(DocumentParseError, match="does not start like the Schedule of Benefits"):
        parse_schedule_text("Ontario Drug Benefit Formulary\n" * 50, "odb.txt")
    with pytest.raises(DocumentParseError, match="is empty"):
        parse_schedule_text("  \n", "empty.txt")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Schedule of Benefits – café".encode("cp1252"))
    with pytest.raises(DocumentParseError, match="is not UTF-8 text"):
        parse_schedule(latin)


def test_a_title_is_the_code_own_text_with_a_heading_only_where_it_governs(parsed: ParsedSchedule) -> None:
    # issue #14: A007 and A001 came out as "Special palliative care consultation: …" (the heading that
    # defines A945, lines 6580-6590), C911 as "MAMRA: …", A100 as "On-call admission assessment: …"
    titles = {code: parsed.codes[code].title for code in ("A007", "A001", "A003", "A905", "C911", "A100", "A945")}
    assert titles["A007"] == "Intermediate assessment or well baby care"  # line 6635
    assert titles["A001"] == "Minor assessment"
    assert titles["A003"] == "General assessment"
    assert titles["A905"] == "Limited consultation"
    assert titles["C911"].startswith("Special family and general practice consultation")
    assert titles["A100"] == "General/Family physician emergency department assessment"
    assert titles["A945"] == "Special palliative care consultation"
    # a heading that governs a group keeps leading it, and a dash description continues the line introducing it
    assert parsed.codes["K007"].title == "Psychotherapy: Individual care"
    # 15656-15661: 'Group psychotherapy, in-patients - per member - first 12 units per day' / 'K202 - 6 to 12
    # people ……' (was 'Psychotherapy: 6 to 12 people': a description starting with a digit lost its line)
    assert parsed.codes["K202"].title == (
        "Group psychotherapy, in-patients - per member - first 12 units per day - 6 to 12 people"
    )
    # 30335-30342: 'Mastectomy - male' / 'Unilateral - for treatment of … e.g.' / 'carcinoma' / '# R149 -
    # subcutaneous with nipple preservation' (was 'Mastectomy - female …: carcinoma - …': the heading of R146-R147
    # above and the paragraph's last word)
    assert parsed.codes["R149"].title == "Mastectomy - male - subcutaneous with nipple preservation"


@pytest.mark.parametrize(
    ("code", "title"),
    [
        # 25567-25574: a column's head ('Fee') is no heading (150 titles began 'Fee: ')
        ("G410", "Amytal test (Wada)-bilateral - supervision and co-ordination of tests"),
        # 7019-7116: 'MAMRA', the heading defining A813 on A9, does not govern 'Subsequent visits' / 'C002 - …'
        ("C002", "Subsequent visits - first five weeks"),
        # 30151-30161: R150-R154's note ends '… following specialties: General and Family Practice (00) and
        # Emergency Medicine (12).'; '# Z132 Insertion of tissue expander ……' / '# E527' / '- additional
        # expander, same incision …… add': the dash continues Z132's line, not the note's
        ("E527", "Insertion of tissue expander - additional expander, same incision"),
        ("E528", "Insertion of tissue expander - additional expander, different incision"),
        # 37947-37959: 'Bronchoscopy' / Z360 and its note / '# Z327' / '- flexible or rigid …' (was 'Z360 to the
        # same physician for the same patient, same day. - flexible …')
        (
            "Z327",
            "Bronchoscopy - flexible or rigid, with or without bronchial biopsy, suction or injection of contrast material",
        ),
        # 22003-22014: 'Level 1' / a paragraph ending 'monitoring.' / 'G652 - technical component …'
        ("G652", "Level 1 - technical component - 12 to 35 hours scanning"),
        # 36982-36987: 'Ankle' / '# F075 - closed reduction ……' / '- open reduction' / '# F077 - multiple malleoli …'
        ("F077", "Ankle - open reduction - multiple malleoli or ligaments"),
        # 30084-30085: 'Greater than 10 cm' / 'R017 face or neck ……': a lower-case description carries on too
        ("R017", "Greater than 10 cm - face or neck"),
        # 7476-7487: K040 is not under 'Individual care', the sub-heading of K013 K033 before it
        (
            "K040",
            "Group counselling - 2 or more persons - where no group members have received more than 3 units of "
            "any counselling paid under codes K013 and K040 combined per provider per 12 month period",
        ),
        # 7253-7257: a table's time column is no sub-heading
        ("H102", "Comprehensive assessment and care"),
        # 22873-22876: a sub-heading of 91 characters governs its codes ('Physician in hyperbaric unit but not in
        # chamber(s) …'); G804 and G805 took G800's 'Physician in chamber with patient(s)' from above it
        (
            "G805",
            "Physician in hyperbaric unit but not in chamber(s) with patient(s), per session per patient - after "
            "first ¼ hour (per ¼ hour or major part thereof)",
        ),
        # 25291-25292: G236 took the cervical block's heading over G920 and G234
        (
            "G236",
            "Percutaneous lumbar, thoracic or sacral sympathetic nerve block with fluoroscopic guidance - "
            "unilateral or bilateral",
        ),
    ],
)
def test_titles_take_no_heading_from_a_column_a_note_or_another_block(
    parsed: ParsedSchedule, code: str, title: str
) -> None:
    assert parsed.codes[code].title == title


def test_no_title_begins_with_a_column_head_a_list_item_or_a_sentence_end(parsed: ParsedSchedule) -> None:
    """The general cause: any short line before a code was taken as its heading (a paragraph's last line, a
    note's item, a description's second line), and a column's head 'Fee' as a sub-heading."""
    titles = {code: info.title for code, info in parsed.codes.items()}
    assert [c for c, t in titles.items() if t.startswith(("Fee:", "Fee -"))] == []
    assert [c for c, t in titles.items() if re.match(r"^\d+\.", t) or "]" in t] == []
    # a description printed with its own full stop ("… with or without flaps.", E831 E832; "Club foot, etc.", Z224)
    assert len([c for c, t in titles.items() if re.search(r"[a-z]\. - ", t)]) <= 4
    # fragments of paragraphs: 135 before; an add-on to several codes that no heading governs is titled by its own
    # words, lower case as printed ('with continent ileostomy, to either S168, S169, S170, S173 or S174', S20)
    fragments = [c for c, t in titles.items() if t[:1].islower() and not ADDS_TO_SEVERAL.search(t)]
    assert len(fragments) < 70


@pytest.mark.parametrize(
    ("code", "title"),
    [
        # 7211-7250: 'Re-assessment' / 'A re-assessment is an assessment …' defines one service; H065 and H105 are
        # printed after its payment rules and are not re-assessments
        ("H105", "In-patient interim admission orders"),
        ("H065", "Consultation in Emergency Medicine"),
        # 9961-10012: 'A limited consultation for acute pain management is a consultation …' names A215, not A816
        ("A816", "Midwife or Aboriginal Midwife-Requested Anaesthesia Assessment (MAMRAA)"),
        (
            "A215",
            "Limited consultation for acute pain management in association with special visit to hospital in-patient",
        ),
        # the heading still governs what names it: 'FPA is an assessment …' over 'A917 Sport medicine FPA' (A7)
        ("A917", "Focused practice assessment (FPA): Sport medicine FPA"),
        # 9792-9794: '$25.25' (E080's cell) over 'E088' in the virtual care premiums table is not E088's listing
        ("E088", "Congestive heart failure premium"),
        # 9821: 'K189 (video' / 'only)' in that table is an aside, not its name (A174); 'High risk community
        # psychiatric care' (A173) defines K188, named so, and does not reach K189 after it
        ("K189", "Urgent community psychiatric follow-up, to A190, A195, A192, A198, A695 or A795"),
        # 52317-52318: a code line ending mid-phrase ('… Health Status Report and') goes on without a leader
        (
            "K058",
            "Medical Form Part B including both Health Status Report and Activities of Daily Living Index for Medical Review process",
        ),
        ("K055", "Application for Special Diet Allowance"),  # not under K058's second line as a heading
    ],
)
def test_a_heading_that_defines_one_service_governs_only_the_listings_naming_it(
    parsed: ParsedSchedule, code: str, title: str
) -> None:
    assert parsed.codes[code].title == title


def test_premium_table_cells_are_read_only_in_their_tables(parsed: ParsedSchedule) -> None:
    # a '$' amount over a code on a page without a premium table's title is the row above's last cell (A70)
    # (read as 25.25 and 216.30, K189's; the table's rows print no dollar fee of their own but E080's and K189's)
    assert {x.fee_text for _, x in parsed.listings if x.code in ("E088", "E079") and x.page == "A70"} <= {"fee unknown"}
    after_hours = {x.code: (x.fee_text, x.description) for _, x in parsed.listings if x.page == "GP109"}
    assert after_hours["E406"] == ("60.00", "After hours premium: Urgent CT/MRI Services")  # lines 6366-6378
    assert after_hours["E408"][0] == "100.00"


def test_appendix_f_listings_are_read_in_a_section_named_as_the_appendix(parsed: ParsedSchedule) -> None:
    # lines 52314-52375: Appendix F (forms paid for MCSS, WSIB) has no sections in the contents; its codes are listed
    # with their fees like the Schedule's own, and the Numeric Index bears them out
    assert fee(parsed, "K053", "Appendix F") == ("aligned", "15.85", "AF2")
    assert fee(parsed, "K055", "Appendix F") == ("aligned", "21.10", "AF1")
    assert fee(parsed, "K050", "Appendix F") == ("aligned", "105.65", "AF1")
    assert parsed.codes["K053"].title == "A Limitation to Participation Form"
    assert parsed.report.fee_disagreements == 0


def test_codes_printed_with_their_role_or_modality_letter_are_listings(parsed: ParsedSchedule) -> None:
    # lines 5303-5309 (GP87): the surgical assistant's after-hours premiums, percentages in a column after them
    assistant = {x.code: x for _, x in parsed.listings if x.page == "GP87"}
    assert (assistant["E400B"].status, assistant["E400B"].fee_text) == ("percent", "add 50%")
    assert (assistant["E401B"].status, assistant["E401B"].fee_text) == ("percent", "add 75%")
    assert "assistant's fee" in assistant["E401B"].description
    # lines 9610-9611 (A66): the virtual care modality indicators carry no fee of their own
    indicators = {x.code: x for _, x in parsed.listings if x.code in ("K300A", "K301A")}
    assert indicators["K300A"].status == indicators["K301A"].status == "no_fee"
    assert "Video" in indicators["K300A"].description and "Telephone" in indicators["K301A"].description
    # the sentence over them ('… the modality indicator that identifies the technology used …:') introduces them:
    # the line above it ('Comprehensive Virtual Care Services rendered within an Existing/Ongoing …') is no heading
    assert indicators["K300A"].heading is None
    # a lettered code alone on its line is a unit table's row, not a listing (GP93: 'E021C'); nor is the code
    # without its letter ('E401' is not listed in the Schedule)
    assert not any(x.code in ("E021C", "E401") for _, x in parsed.listings)
    assert parsed.report.fee_disagreements == 0
