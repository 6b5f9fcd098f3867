"""Every fee read (issue #14): the layouts the parser aligns, each from the real lines of the 2025-03-03 text.

Each pattern is read twice: from an excerpt of the file (its pages only, cut by line numbers, so the test
shows the layout that decides it) and in the whole parse. Line numbers are the file's; the lines quoted are
the file's words, '·' a blank line. Fees the Numeric Index (an April 2024 table at the end of the file) also
states are marked 'index'.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curbside.coverage.ohip.crossref import check_fees
from curbside.coverage.ohip.layout import Edition, Layout, Line, is_furniture, page_markers, read_layout
from curbside.coverage.ohip.listings import Listing, read_listings
from curbside.coverage.ohip.numeric_index import (
    IndexPage,
    Stated,
    anchored_fees,
    direct_fees,
    leading_fees,
    read_index,
)
from curbside.coverage.ohip.parse import ParsedSchedule, parse_schedule
from curbside.coverage.ohip.realign import Token, realign_verified


@pytest.fixture(scope="module")
def parsed(ohip_text: Path) -> ParsedSchedule:
    return parse_schedule(ohip_text)


@pytest.fixture(scope="module")
def raw(ohip_text: Path) -> list[str]:
    return ohip_text.read_text(encoding="utf-8").split("\n")


def read_excerpt(raw: list[str], first: int, last: int) -> dict[str, list[Listing]]:
    """The listings read from lines ``first``..``last`` of the file alone (pages as the whole file has them)."""
    chunk = raw[first - 1 : last]
    markers = page_markers(chunk)
    at = [i for i, _ in markers]
    labels = [label for _, label in markers]
    lines: list[Line] = []
    for i, text in enumerate(chunk):
        if i in at or is_furniture(text.strip()):
            continue
        later = [label for j, label in zip(at, labels, strict=True) if j >= i]
        lines.append(Line(first + i, text.strip(), later[0] if later else "END"))
    layout = Layout(Edition("2025-02-14", "2025-03-03", None), lines, labels, [], 0, len(lines))
    out: dict[str, list[Listing]] = {}
    for x in read_listings(layout).listings:
        out.setdefault(x.code, []).append(x)
    return out


def fees(listings: dict[str, list[Listing]], *codes: str) -> list[str]:
    return [listings[code][0].fee_text for code in codes]


def at_line(parsed: ParsedSchedule, line: int) -> Listing:
    (x,) = [x for _, x in parsed.listings if x.line == line]
    return x


# --- the second reading: page by page -------------------------------------------------------------------


def test_a_page_of_fees_then_its_codes(raw: list[str], parsed: ParsedSchedule) -> None:
    """T6 (44817-44962): the page's fee boxes first, in the order of its codes, then all its codes::

        6 6 · 376.80 482.40 · 7 7 · 6 6 · 437.20 522.50 · 6 7 · … · 6 · 557.85 · 6
        INCISION / Ureterotomy, abdominal or vaginal exploratory or for drainage / With removal of calculus
        # S445 - upper 2/3 ……  # S446 - lower 1/3 ……  Where ureter has been previously opened
        # S447 - upper 2/3 ……  # S448 - lower 1/3 ……  … # S459 Ureterovaginal fistula ……

    Pass one sees codes with no fee after them; page by page, 18 codes take the 18 fees in order, each box
    of fees within one group of codes (between headings).
    """
    page = read_excerpt(raw, 44817, 44962)
    codes = ("S445", "S446", "S447", "S448", "S449", "S450", "S452", "S454", "S457", "S451", "S459")
    expected = ["376.80", "482.40", "437.20", "522.50", "445.40", "331.70", "788.15", "893.50", "552.30"]
    assert fees(page, *codes) == [*expected, "490.25", "557.85"]
    assert [at_line(parsed, n).fee_text for n in (44920, 44921, 44958)] == ["376.80", "482.40", "557.85"]


def test_a_page_whose_last_fees_follow_its_page_marker(raw: list[str], parsed: ParsedSchedule) -> None:
    """N30 (33528-33680): fee boxes first, then 24 codes, then the marker 'N30' and nine more fees before
    the next page's heading::

        # R644 Coronoidectomy……  Note: …  Amd 12 Draft 1 · N30 · 511.90 6 10 · 803.80 1443.95 · 15 20 · …
        1586.20 204.80 204.80 307.15 · 20 7 7 6 · February 14, 2025 … · MUSCULOSKELETAL SYSTEM …

    The fees between a marker and the next page's first line are the page's: R588 803.80, R389 1443.95,
    R396 803.80, R145 204.80, R644 307.15 (index).
    """
    page = read_excerpt(raw, 33528, 33680)
    assert fees(page, "R379", "R580", "E972", "R588", "R389", "R395", "R396", "R145", "R644") == [
        "803.80",
        "1525.30",
        "511.90",
        "803.80",
        "1443.95",
        "1402.75",
        "803.80",
        "204.80",
        "307.15",
    ]
    assert at_line(parsed, 33609).fee_text == "803.80"  # R588


def test_a_group_takes_the_box_after_it_the_later_groups_the_boxes_left(raw: list[str], parsed: ParsedSchedule) -> None:
    """N62 (36720-36962): a box of fees right after a group is that group's; the boxes after it are fees of
    groups printed further down::

        # R565 - single …… # E055 - each additional …… add · 6 · 253.30 94.60 · 7 · 6 6 · 258.90 253.30 94.60
        …  # R585 - one …… # E581 - each additional …… · 6 · 307.60 128.95 · 7 · 6 6 · 227.40 387.00
        …  # Z229 - one toe …… # Z243 - more than one toe …… · 49.20 97.35 · 7 7 · 171.70 132.70
        Tendons / # R640 Exploration - tendon sheath …… · # R572 Tenodesis …… # R560 Graft …… # E053
        Achilles tendon repair / # R589 - early …… # R587 - late …… / … # R544 - open …… # R555 - closed ……

    R572 258.90, R587 387.00, R555 132.70 (index).
    """
    page = read_excerpt(raw, 36720, 36962)
    assert fees(page, "R565", "E055", "R585", "E581", "Z229", "Z243") == [
        "253.30",
        "94.60",
        "307.60",
        "128.95",
        "49.20",
        "97.35",
    ]
    assert fees(page, "R640", "R572", "R560", "E053", "R589", "R587", "R544", "R555") == [
        "126.25",
        "258.90",
        "253.30",
        "94.60",
        "227.40",
        "387.00",
        "171.70",
        "132.70",
    ]
    assert at_line(parsed, 36959).fee_text == "132.70"  # R555


def test_the_first_group_takes_the_boxes_after_it(raw: list[str], parsed: ParsedSchedule) -> None:
    """P2 (37380-37502): M011 ends page P1 with no fee of its own; pass one read it with the next page's
    seven codes (eight codes, seven fees). On P2 alone, the seven codes take the boxes right after them::

        # M012 Septoplasty …… # M013 …… # M014 …… # E841 - …… add # E842 - …… add # E642 - …… add
        # E840 - with repair of septal perforation, to M012, M013 or M014 …… add
        · 6 · 293.95 526.00 541.65 · 10 10 10 · 226.80 58.60 119.20 119.20 ·
    """
    page = read_excerpt(raw, 37380, 37502)
    codes = ("M012", "M013", "M014", "E841", "E842", "E642", "E840")
    assert fees(page, *codes) == ["293.95", "526.00", "541.65", "226.80", "58.60", "119.20", "119.20"]
    assert at_line(parsed, 37386).fee_text == "293.95"  # M012


def test_a_page_whose_order_the_fees_contradict_stays_unknown(raw: list[str], parsed: ParsedSchedule) -> None:
    """S32 (43755-43879): 102.10 122.05 · 406.85 open the page, then::

        # S309 Distal - body, tail with splenectomy …  # S299 Distal - body, tail with preservation of spleen …
        # E793 - laparoscopic … add 25%  # E709 - with cholecystectomy, to S299, S300 or S309 …… add
        · 9 · 986.05 · 11 · 9 · 1250.00 · 11 · INCISION / Biopsy / # Z762 - needle …… # Z577 - incisional ……

    Ten codes and ten fees, but in order Z762 would take 986.05 (the index gives 102.10): the fees right
    after S309 S299 E709 cannot be a later group's, so the page's structure leaves it 'fee unknown' — but for
    the run the index confirms fee by fee (its first '$' box: Z762 102.10, Z577 122.05, S297 406.85), the
    page's first three fees. The codes and fees left then pair off only by the fees the index's later boxes
    state (S309 986.05, S299 1250.00): taken on that, and marked so, never in the text's order.
    """
    page = read_excerpt(raw, 43755, 43879)
    for code in ("S309", "S299", "Z762", "Z577", "S297"):
        assert page[code][0].status == "unknown", code  # the excerpt has no index
    for code, fee in (("Z762", 102.10), ("Z577", 122.05), ("S297", 406.85), ("S309", 986.05), ("S299", 1250.00)):
        (x,) = [x for _, x in parsed.listings if x.code == code and x.page == "S32"]
        assert (x.fee, x.status, x.basis) == (fee, "aligned", "cross-references")
    (z762,) = [x for _, x in parsed.listings if x.code == "Z762" and x.page == "S32"]
    assert z762.fee != 986.05


def test_fees_right_after_a_group_are_its_own_before_they_are_an_earlier_groups(
    raw: list[str], parsed: ParsedSchedule
) -> None:
    """F2 (19986-20063), MRI: a multislice sequence is 73.35, a repeat 36.70 (X421 73.35, X425 36.70)::

        Neck / X431 - multislice sequence …… / X435 - repeat (another plane, …) …… · 73.35 ·
        Thorax / X441 - multislice sequence …… / X445 - repeat (another plane, …) …… · 73.35 · 36.70 · 36.70 ·

    In order X435 would take the 73.35 printed right after X441 X445 (it was read so). A group with some of
    its fees right after it takes the rest from the end of another group's, not from its head: X441 73.35,
    X445 36.70, and X435 the last 36.70.
    """
    page = read_excerpt(raw, 19986, 20063)
    assert fees(page, "X431", "X435", "X441", "X445") == ["73.35", "36.70", "73.35", "36.70"]
    assert [at_line(parsed, n).fee_text for n in (20009, 20010, 20016, 20017)] == ["73.35", "36.70", "73.35", "36.70"]


def test_one_value_per_code_on_a_page_of_t_and_p_columns_is_not_read_in_order(parsed: ParsedSchedule) -> None:
    """J95-J96: 'G149 - technical component ……' 'G147 - professional component ……' · 18.55 · 'G152 - technical
    component ……' 'G150 - professional component ……' · 31.80 · Amd 12 Draft 1 · J96 · P · 12.30 · 19.20: the
    T values inline, the P values after the page marker (the index: G147 12.30, G150 19.20). In stream
    order G147 would take 31.80: it does not. Each code is one component, so the T column holds the technical
    codes' fees and the P column the professional codes' (GP10): G149 18.55, G152 31.80, then G147 12.30 and
    G150 19.20, in order (``_component_pages``)."""
    assert [at_line(parsed, n).fee_text for n in (26212, 26213, 26218, 26219)] == ["18.55", "12.30", "31.80", "19.20"]


@pytest.mark.parametrize(
    ("line", "code", "fee"),
    [
        # J16 (22018-22055): 'G682 G683 G658' · their three descriptions · 50.50 69.05 (T, the technical two);
        # 'G684 G685 G659' · … · 75.70 103.60; 'G647 G648 G649' · … · 119.00 173.20 · 75.45 · 95.85 · 122.25:
        # the last group's T values, then the P values of G658, G659 and G649 (index: G658 75.45, G659 95.85)
        (22018, "G682", "50.50"),
        (22019, "G683", "69.05"),
        (22020, "G658", "75.45"),
        (22029, "G684", "75.70"),  # '- professional component - 60 hours to 13 days recording ..': a cut leader
        (22030, "G685", "103.60"),
        (22031, "G659", "95.85"),
        (22040, "G647", "119.00"),
        (22041, "G648", "173.20"),
        (22042, "G649", "122.25"),
        (22060, "G654", "24.05"),  # Level 2: G654 G655 G653 · 24.05 16.45 … · 34.10 · 51.15 · 68.20
        (22062, "G653", "34.10"),
        # J18 (22149-22180): four pairs, each 'technical component' 'professional component' · its T value;
        # then · P · 4.30 · 11.30 · 16.95 · 9.55 (index: G320 4.30, G307 9.55)
        (22149, "G311", "2.03"),
        (22150, "G320", "4.30"),
        (22167, "G308", "9.30"),
        (22168, "G307", "9.55"),
        # J91 (25934-25951): G851 G437, 'Electro-retinography with report', G852 G439 G524 · 32.30 · 35.00 ·
        # 22.90 · 75.00 75.00: the two T values, then the three P values (index T: G851 32.30, G852 35.00)
        (25934, "G851", "32.30"),
        (25935, "G437", "22.90"),
        (25937, "G852", "35.00"),
        (25939, "G439", "75.00"),
        (25940, "G524", "75.00"),
        # J101 (26447-26460): G104 G105 · 19.60; G451 G533 · 19.60 · 20.90 · 18.30 (index: G105 20.90)
        (26447, "G104", "19.60"),
        (26448, "G105", "20.90"),
        (26454, "G533", "18.30"),
    ],
)
def test_technical_and_professional_component_codes_take_their_column(
    parsed: ParsedSchedule, line: int, code: str, fee: str
) -> None:
    x = at_line(parsed, line)
    assert (x.code, x.status, x.fee_text, x.basis) == (code, "aligned", fee, None)


def test_a_fee_printed_apart_from_its_order_is_not_shifted(parsed: ParsedSchedule) -> None:
    """A17 (7476-7500): 'K013 - first three units …… per unit' 'K033 - additional units …… per unit' · 49.35 ·
    … 'K040 - where no group members …… per unit' · 70.10 · K041 · 70.10 · '- additional units … K040 combined
    per provider per 12 month period . per unit' · 50.20. K041's description ends in its leader and 50.20
    follows it as a fee follows every listing: K041 50.20, the 70.10 between the code and its description no
    run's. K013's 70.10 (index) is that one: no order of the text pairs K013 K033 with 49.35 70.10 (in order
    K013 would take 49.35). Only the index's fees pair the page's codes and fees left (K013 70.10, K033 49.35):
    taken so, and marked so."""
    k041 = at_line(parsed, 7491)
    assert (k041.code, k041.fee_text, k041.basis) == ("K041", "50.20", None)
    k013, k033 = at_line(parsed, 7477), at_line(parsed, 7479)
    assert (k013.fee_text, k033.fee_text) == ("70.10", "49.35")
    assert k013.basis == k033.basis == "cross-references"


# --- two columns (H or T, and P) -------------------------------------------------------------------------


def test_h_inline_and_p_in_a_box_after(raw: list[str], parsed: ParsedSchedule) -> None:
    """D10 (18546-18602): 'X090 - single view ……' 14.90 'X091 - two views ……' 21.90 'X092 - three or more
    views ……' 28.15, a Note, then · 6.35 10.70 12.40 ·: H inline, P in the box (was read X090 $14.90)."""
    page = read_excerpt(raw, 18546, 18602)
    assert [page[c][0].components for c in ("X090", "X091", "X092")] == [
        {"H": "14.90", "P": "6.35"},
        {"H": "21.90", "P": "10.70"},
        {"H": "28.15", "P": "12.40"},
    ]
    x = at_line(parsed, 18555)
    assert (x.fee, x.components) == (6.35, {"H": "14.90", "P": "6.35"})


def test_two_columns_a_box_per_cell_read_row_by_row(raw: list[str], parsed: ParsedSchedule) -> None:
    """G4 (20279-20313): the page opens · H · P · 48.75 · 26.45 · 32.10 · 17.55 · and ends 'J135 - complete
    ……' 'J128 - limited study (e.g. gallbladder only, aorta only or follow-up study) ……'. One box per cell:
    row by row, J135 T 48.75 P 26.45, J128 T 32.10 P 17.55 (the index's T and P columns for J125-J135
    read 48.75 23.70 32.10 48.75 and 24.55 13.10 17.55 26.45)."""
    page = read_excerpt(raw, 20279, 20313)
    assert page["J135"][0].components == {"H": "48.75", "P": "26.45"}
    assert page["J128"][0].components == {"H": "32.10", "P": "17.55"}
    assert at_line(parsed, 20305).fee == 26.45


def test_two_columns_a_box_per_column(parsed: ParsedSchedule) -> None:
    """D15: 'X181 - non-selective ……' 'X182 - selective (per vessel, to a maximum of 4) ……' 'X140 - selective
    (5 or more vessels) ……' · 59.65 79.30 317.35 · 30.90 37.45 185.60 (index P: X181 30.90, X182 37.45)."""
    assert at_line(parsed, 18856).components == {"H": "59.65", "P": "30.90"}
    assert at_line(parsed, 18858).components == {"H": "317.35", "P": "185.60"}


def test_one_value_on_a_two_column_page_with_values_left_over_is_unknown(parsed: ParsedSchedule) -> None:
    """B5: 'J876 … J877 …' · 56.70 40.15 · 40.30 40.30 40.30 40.30 · then 'J830 Tc99m sulphur colloid or
    Tc04' 'J878 labelled RBCs' · 87.00 143.20: two P values too many above, so 87.00 may be J830's H
    (it was read as J830's fee)."""
    for line in (16979, 16980):
        x = at_line(parsed, line)
        assert (x.status, x.fee) == ("unknown", None)
        assert x.reason is not None and "H and P" in x.reason


def test_a_code_that_is_one_component_keeps_its_one_value_on_a_two_column_page(parsed: ParsedSchedule) -> None:
    """J85 (EEG, a page of T and P columns): 'G414 Routine EEG - technical component ……' · 25.75, then
    'G415 … - professional component' 'G418 … (16 - 21 channel EEG)' · 23.15 62.50. A technical component
    has one value, so the values around it do not make G414's doubtful."""
    assert (at_line(parsed, 25645).code, at_line(parsed, 25645).fee_text) == ("G414", "25.75")
    assert [at_line(parsed, n).fee_text for n in (25647, 25648)] == ["23.15", "62.50"]


# --- an I.C alone ----------------------------------------------------------------------------------------


def test_an_ic_alone_is_a_fee_only_where_the_page_needs_it(raw: list[str], parsed: ParsedSchedule) -> None:
    """S31: '# S293 Biliary duct atresia, infant (see General Preamble GP12) ……' · 8 · I.C · 12 · 314.20 ·
    6 · '# Z596 Extracorporeal shock wave lithotripsy for bile duct calculi ……'. Pass one read S293 314.20
    (leaving the I.C out); the index has no fee for S293 and 314.20 for Z596."""
    x, z = at_line(parsed, 43736), at_line(parsed, 43748)
    assert (x.status, x.fee_text) == ("independent_consideration", "I.C")
    assert (z.status, z.fee_text) == ("aligned", "314.20")


# --- codes the first reading now finds ------------------------------------------------------------------


def test_stacked_codes_and_their_descriptions_without_dashes(parsed: ParsedSchedule) -> None:
    """A127: 'W445' 'W765' 'W845' 'W446' · 'Consultation ……' 'Consultation, patient 16 years of age and
    under ……' 'Limited consultation ……' 'Repeat consultation ……' · 166.50 167.00 105.25 105.25."""
    assert [at_line(parsed, n).fee_text for n in (12966, 12967, 12968, 12969)] == [
        "166.50",
        "167.00",
        "105.25",
        "105.25",
    ]


def test_stacked_codes_across_a_blank_line_and_a_stray_page_label(parsed: ParsedSchedule) -> None:
    """P9: '# E632' … '# E636' · '# E637' … '# E677' · nine '- with …, to Z327 …… add' descriptions (one
    ending 'specimens labeled as to site, to' / 'Z327 …… add'), then 'P8' (a page label without its
    furniture) · 68.40 44.55 52.00 67.20 · 50.00 76.45 81.90 79.40 104.00."""
    assert [at_line(parsed, n).fee_text for n in (37970, 37974, 37976, 37979)] == [
        "68.40",
        "50.00",
        "76.45",
        "104.00",
    ]


def test_a_code_alone_then_its_description_with_a_leader(parsed: ParsedSchedule) -> None:
    """A160: 'H261' · 'Newborn care in hospital or home ……' · 60.80 (index H261 60.80)."""
    assert at_line(parsed, 14698).fee_text == "60.80"


def test_a_description_starting_with_a_hyphenated_word_or_after_a_connector(parsed: ParsedSchedule) -> None:
    """K11 '# P058 In-utero ligation of umbilical cord vessels ……', A13 'H105 In-patient interim admission
    orders ……' 26.25 (index), S1 'Tongue tie, release of' / 'Z111 - simple ……' 15.35: listings, not prose."""
    assert at_line(parsed, 27842).code == "P058"
    assert at_line(parsed, 7245).fee_text == "26.25"
    assert at_line(parsed, 40819).fee_text == "15.35"


def test_a_column_of_percentages(parsed: ParsedSchedule) -> None:
    """GP104: 'E412 Evenings … increase the procedural fee(s) by ……' 'E413 Nights … by .' · 20% 40% ·."""
    e412, e413 = at_line(parsed, 6144), at_line(parsed, 6147)
    assert (e412.status, e412.percent, e412.fee_text) == ("percent", 20.0, "add 20%")
    assert (e413.status, e413.percent) == ("percent", 40.0)


# --- cross-references ------------------------------------------------------------------------------------


def test_no_aligned_fee_disagrees_with_the_schedules_cross_references(parsed: ParsedSchedule) -> None:
    r = parsed.report
    assert r.fee_disagreements == 0 and parsed.disagreements == []
    assert r.fees_cross_checked > 3900  # 3,950 on this file (3,003 before the index's later boxes were read)
    assert r.fees_checked_later_boxes > 850
    # the one reading the later boxes contradicted, a run of the first reading (V10 47304-47328: '6 · 431.45 · 6 ·
    # 8 · 1081.80 · 8' then '# S727 Ovarian debulking ……' '# E853 - with resection of diaphragm …… add' · 260.80
    # · 145.00: S727's 1081.80 is printed before it, 260.80 is E090's), is withheld, not shown
    assert parsed.withheld == ["S727 260.80 (V10 line 47318) | index: 1081.80"] and r.fees_withheld == 1
    s727 = at_line(parsed, 47318)
    assert s727.status == "unknown" and s727.reason is not None and s727.reason.startswith("withheld: read 260.80")
    # what the cross-check of readings taken on the cross-references is worth is said apart
    assert 250 < r.listings_on_cross_references < 320 and r.codes_on_cross_references < 250


def test_the_cross_check_finds_a_misread_fee_and_a_code_with_two_fees() -> None:
    def listing(code: str, fee: float, line: int) -> Listing:
        return Listing(code, "", "A1", line, None, "aligned", fee, f"{fee:.2f}")

    # a page of the index with one fee per code: each pairs directly
    whole = [IndexPage("NI1", ("A001", "A002", "A003"), (23.75, 62.20, 87.35))]
    right = [listing("A001", 23.75, 1), listing("A002", 62.20, 2), listing("A003", 87.35, 3)]
    assert check_fees(right, whole).disagreement_count == 0 and check_fees(right, whole).checked == 3
    shifted = [listing("A001", 23.75, 1), listing("A002", 87.35, 2), listing("A003", 87.35, 3)]
    assert [d.split(" |")[0] for d in check_fees(shifted, whole).disagreements] == ["A002 87.35 (A1 line 2)"]
    # a page with a blank '$' cell (A003, an I.C code): the fees pair in order around it, as cheaply as can be
    ic = Listing("A003", "", "A1", 3, None, "independent_consideration", None, "I.C")
    gap = [IndexPage("NI2", ("A001", "A002", "A003", "A004"), (23.75, 62.20, 38.35))]
    around = [listing("A001", 23.75, 1), listing("A002", 62.20, 2), ic, listing("A004", 38.35, 4)]
    assert check_fees(around, gap).disagreement_count == 0 and check_fees(around, gap).checked == 3
    misread = [listing("A001", 23.75, 1), listing("A002", 62.20, 2), ic, listing("A004", 40.00, 4)]
    assert check_fees(misread, gap).disagreement_count == 1  # A004 40.00, or 38.35 A003's: one is wrong
    # where a code the parser did not price could take the fee, the pairing cannot tell: a lower bound
    unpriced = [x for x in misread if x.code != "A003"]
    assert check_fees(unpriced, gap).disagreement_count == 0
    twice = [*right, listing("A001", 25.00, 9)]
    assert check_fees(twice, whole).disagreements[0].startswith("A001 listed with different fees")


def test_the_numeric_index_read_where_its_columns_pair_directly(ohip_text: Path) -> None:
    index = read_index(read_layout(ohip_text.read_text(encoding="utf-8")))
    direct = direct_fees(index)
    assert len(index) > 100 and len(direct) > 2600
    assert direct["A001"] == 23.75 and direct["A003"] == 87.35  # NI1
    # a page's first '$' box, ended by a blank cell, holds its first codes' fees: NI100 R602 596.35, R603 1586.20
    leading = leading_fees(index)
    assert leading.keys() > direct.keys() and (leading["R602"], leading["R603"]) == (596.35, 1586.20)
    assert "R604" not in leading  # the blank cell (I.C)


def test_a_run_is_taken_on_cross_references_only_between_two_confirmed_codes() -> None:
    """``realign_verified``: codes A B C and fees a b c in one page; the pairing is taken only when the
    first and last codes' fees are confirmed and none is contradicted."""
    tokens = [
        Token("code", "X1", 0, open=True),
        Token("code", "X1", 1, open=True),
        Token("code", "X1", 2, open=True),
        Token("blank", "X1", 3),
        Token("fee", "X1", 4, box=1, open=True),
        Token("fee", "X1", 5, box=1, open=True),
        Token("fee", "X1", 6, box=1, open=True),
    ]

    def says(confirmed: dict[int, int]):  # noqa: ANN202 - a Verdict
        return lambda code, fee: confirmed.get(code, 0) if fee == code + 4 else -confirmed.get(code, 0)

    assert realign_verified(tokens, says({0: 1, 2: 1})).pairs == {0: 4, 1: 5, 2: 6}
    assert realign_verified(tokens, says({0: 1, 1: 1})).pairs == {}  # C's fee stands on nothing after it
    assert realign_verified(tokens, says({0: 1, 1: -1, 2: 1})).pairs == {}


# --- the report ------------------------------------------------------------------------------------------


def test_the_report_gives_the_share_per_section(parsed: ParsedSchedule) -> None:
    r = parsed.report
    assert r.aligned_share >= 0.93  # 4,860 of 5,219 codes (93.1 %) on this file; 4,742, and 3,650 of 5,215 before
    shares = r.sections_by_share
    assert [s.share for s in shares] == sorted(s.share for s in shares)
    assert sum(s.codes for s in shares) == len({(key, x.code) for key, x in parsed.listings})
    skin = next(
        s for s in shares if s.section == "M. Integumentary System Surgical Procedures — Skin and Subcutaneous Tissue"
    )
    assert skin.codes > 200 and skin.share > 0.7
    assert r.to_dict()["section_shares"][0] == shares[0].to_dict()


# --- layouts read since 4,742 of 5,219 ------------------------------------------------------------------


def test_a_page_printing_no_column_heads_has_one_column_whatever_the_next_page_prints(
    parsed: ParsedSchedule,
) -> None:
    """J84 (25557-25626) is headed 'Fee'; J85 prints H and P. J84's codes were read as a page of two
    columns and left 'fee unknown'::

        # G410 Amytal test (Wada)-bilateral … ……  # G413 Electrocorticogram … ……  Note: …
        G419 Tensilon test ……  # G551 Katzman test … ……  # G267 Intra-operative evaluation … ……  Note: …
        · 68.40 170.85 · 20.60 170.85 270.05 · # G547 Clinical Programming of Deep Brain Stimulator … ……
        # G549 - additional implantation site(s) (maximum 1 per patient)…… · 185.70 157.85

    Two groups, two boxes of their sizes (index: G410 68.40, G413 170.85); J96, printing 'T' with its
    'P' after the page marker, is still a page of two columns."""
    lines = (25574, 25576, 25579, 25580, 25582, 25594, 25597)
    assert [at_line(parsed, n).fee_text for n in lines] == [
        "68.40",
        "170.85",
        "20.60",
        "170.85",
        "270.05",
        "185.70",
        "157.85",
    ]
    assert at_line(parsed, 26213).fee_text == "12.30"  # G147, J96: its P value, after the page marker


def test_stacked_codes_whose_descriptions_are_followed_by_a_listing(raw: list[str], parsed: ParsedSchedule) -> None:
    """E4 (19755-19795): four codes stacked, their four descriptions, then a listing of its own::

        · 26.95 44.25 56.70 · 7 6 · # J036 # J068 # J008 # J004 · Fistula or sinus injection ……
        Hydrostatic/pneumatic reduction of intussusception…… Hysterosalpingogram……
        Intramammary needling for localization under mammographic / control……
        # J009 Laryngogram…… · Amd 12 Draft 1 · E4 · 70.35 33.50

    The J009 line ended the descriptions' box too soon; the fees printed before and after the codes are
    theirs in order (index: J068 44.25, J004 70.35)."""
    page = read_excerpt(raw, 19755, 19795)
    assert page["J036"][0].description == "Fistula or sinus injection"
    assert fees(page, "J036", "J068", "J008", "J004", "J009") == ["26.95", "44.25", "56.70", "70.35", "33.50"]
    assert [at_line(parsed, n).fee_text for n in (19774, 19777, 19784)] == ["26.95", "70.35", "33.50"]


def test_stacked_codes_whose_last_leader_lost_its_dots(parsed: ParsedSchedule) -> None:
    """G5 (20368): 'J168' 'J169' · '- nuchal translucency for Prenatal Genetic Screening' '(maximum one per
    pregnancy) ……' '- multiple gestation, for each additional fetus, to J168 . add' · 39.00 33.15 · 20.85
    16.35, on a page of H and P columns: the box's end ends the last description; a box per column."""
    assert at_line(parsed, 20368).components == {"H": "39.00", "P": "20.85"}
    assert at_line(parsed, 20369).components == {"H": "33.15", "P": "16.35"}
    assert at_line(parsed, 20369).description.startswith("multiple gestation")


def test_an_ic_alone_ends_a_page_read_group_by_group(raw: list[str], parsed: ParsedSchedule) -> None:
    """M5 (28668-28790): nine codes, a commentary, seven codes, then the fee boxes in the groups' order and
    two I.C alone after the marker::

        Face or neck / Simple excision / R048 - single lesion …… R049 … R050 … E542 - … add / Other areas …
        R094 … R040 … R041 … E542 … / Malignant melanoma / R010 - wide excision …… / # E540 … add 25%
        · 6 6 6 · 92.15 139.20 233.00 11.55 · … · 58.15 95.70 191.40 11.55 · … · 124.10 · … Note: …
        R018 … R019 … R020 … / Other areas … R031 … R032 … R033 … # R051 Laser surgery on Group 1 - 4,
        pre-malignant and malignant lesions (see General Preamble GP12)…… · M5 · … 68.55 112.90 225.75 · …
        55.05 90.70 181.55 · 6 7 6 · I.C · I.C

    Each group takes whole boxes of its size; R051 takes the first I.C, the page pairing off only with it
    (index: R048 92.15, R049 139.20, R050 233.00, R094 58.15, R041 191.40, R051 no '$' fee)."""
    page = read_excerpt(raw, 28668, 28790)
    assert fees(page, "R048", "R049", "R050", "R094", "R040", "R041", "R010") == [
        "92.15",
        "139.20",
        "233.00",
        "58.15",
        "95.70",
        "191.40",
        "124.10",
    ]
    assert fees(page, "R018", "R031", "R033", "R051") == ["68.55", "55.05", "181.55", "I.C"]
    assert at_line(parsed, 28755).status == "independent_consideration"  # R051
    # M21: sixteen free flaps then '# R025 Revision of free island flaps (see General Preamble GP12)' and R106
    assert [at_line(parsed, n).fee_text for n in (29856, 29862, 29864, 29865)] == ["1048.60", "1233.75", "I.C", "I.C"]


def test_an_ic_alone_is_not_a_fee_where_a_dollar_fee_is_left_over(parsed: ParsedSchedule) -> None:
    """S2: '# S021 Repair of extensive laceration (see General Preamble GP12)' 'Note: …' '# S034 Cleft palate
    repair ……' · Asst 6 · Surg I.C · Anae I.C · 6 · 369.25 · 8 · 41.25 · 6 · 335.65 · 8 · '# S035 …'
    '# S032 …': S021's surgeon and anaesthetist are both I.C, so taking each I.C for a code would leave
    335.65 over (and give S034 I.C): the page's structure alone reads none of them. The index's later boxes
    state S034 369.25, S035 41.25, S032 335.65: the dollar fees are taken in order on that confirmation
    (marked so), the I.C values are no one's fee."""
    for line, fee in ((40938, "369.25"), (40963, "41.25"), (40964, "335.65")):
        x = at_line(parsed, line)
        assert (x.fee_text, x.basis) == (fee, "cross-references")
    assert at_line(parsed, 40935).status == "independent_consideration"  # S021, by its own '(see … GP12)'


def test_a_run_whose_every_fee_the_index_states_is_taken_in_order(parsed: ParsedSchedule) -> None:
    """A10 (7112-7126): 'C002 - first five weeks …… per visit' 'C007 - sixth to thirteenth week …… per visit'
    'C009 - after thirteenth week …… per visit' · Amd 12 Draft 1 · A10 · 111.70 · 34.10 34.10 34.10: the
    111.70 right after them is an earlier code's; the index gives C002, C007 and C009 34.10 each.
    J64 (24453-24472): ten cytopathology codes L806 … L820, then · 77.20 · 36.35 36.35 36.35 14.30 25.00 ·
    24.70 25.20 13.60 29.65 8.50 (the index: L806 36.35 … L820 8.50; 77.20 is L822's)."""
    assert [at_line(parsed, n).fee_text for n in (7112, 7113, 7115)] == ["34.10"] * 3
    assert [at_line(parsed, n).fee_text for n in (24453, 24459, 24470, 24472)] == ["36.35", "14.30", "29.65", "8.50"]
    # L822: 38.25 is printed right after it, 77.20 in order: no order reads it; the page's codes left (L822
    # L823) and fees left (77.20 38.25) pair off only by the fees the index states (``matched_page``)
    assert [(at_line(parsed, n).fee_text, at_line(parsed, n).basis) for n in (24430, 24431)] == [
        ("77.20", "cross-references"),
        ("38.25", "cross-references"),
    ]


# --- no fee in the text ----------------------------------------------------------------------------------


def test_a_listing_that_refers_to_gp12_is_independent_consideration(parsed: ParsedSchedule) -> None:
    """GP12 'Independent Consideration (IC)': 'Services listed in the Schedule without specified fees are
    identified as “IC” …'. M18 (29552): '# R007 Other - (see General Preamble GP12) ……' · I.C · I.C, the
    I.C values printed where no reading can tell them from a units column; P11 (38293) '# M109 - closed
    (see General Preamble GP12) ……'. With no value aligned, such a listing is I.C by its own words, the
    reason recorded; the report counts codes with a fee read apart from codes the text gives none."""
    for line in (29552, 38293):
        x = at_line(parsed, line)
        assert (x.status, x.fee, x.fee_text) == ("independent_consideration", None, "I.C")
        assert x.reason is not None and x.reason.startswith("no fee printed: the listing refers to General Preamble")
    gp12 = [x for _, x in parsed.listings if "(see General Preamble GP12)" in x.description]
    aligned = [x for x in gp12 if x.status == "aligned"]
    assert aligned == []  # no listing that refers to GP12 has a dollar fee
    r = parsed.report
    assert r.codes_fee_read + r.codes_no_fee == r.codes_with_fee and r.codes_no_fee > 20
    assert r.to_dict()["read_share"] == r.read_share


# --- issue #14, every fee read: more layouts, the index's later boxes, no fee of its own ------------------------


def test_fees_printed_between_stacked_codes_and_their_descriptions(raw: list[str], parsed: ParsedSchedule) -> None:
    """E5 (19829-19847): '# J045' … '# J063' · 140.55 257.60 257.60 257.60 298.80 · 6 · 'Percutaneous antegrade
    pyelogram ……' … five descriptions: one fee per code between the two boxes, the descriptions in the box of
    text after them (index: J045 140.55, J063 298.80). Where the box between is not one fee per priced code the
    codes stay apart from their descriptions (P11 38198-38209: E640 · E601 E602 · 179.55 · two descriptions)."""
    page = read_excerpt(raw, 19822, 19905)
    assert fees(page, "J045", "J055", "J061", "J062", "J063") == ["140.55", "257.60", "257.60", "257.60", "298.80"]
    assert page["J045"][0].description == "Percutaneous antegrade pyelogram"
    assert [at_line(parsed, n).fee_text for n in (19829, 19833)] == ["140.55", "298.80"]
    assert at_line(parsed, 38202).description == ""  # E601: its description not taken
    assert at_line(parsed, 38198).fee_text == "179.55"  # E640 (index 179.55)


def test_fees_printed_between_a_code_and_its_description_are_no_run_s(parsed: ParsedSchedule) -> None:
    """Z6 (50767-50802): 'N509 One level - unilateral ……' 'N510 …' 'E374' '- foramen magnum … add' 'E361' '- each
    additional level … add' 'N520 …' 'E380' '- each additional level - laminoplasty … add' '# E368' · 9 9 ·
    1004.70 1208.70 · 12 17 · 357.00 255.00 · 9 · 1514.70 · 14 · 357.00 · '- first disc excision, to N509, N510 or
    N520 ……… add' · 306.00. E368's description ends in its leader and a fee follows it: that fee is E368's, the
    six between are the codes' above, in order (index: N509 1004.70, N510 1208.70, N520 1514.70)."""
    lines = (50767, 50768, 50769, 50772, 50775, 50776, 50779)
    assert [at_line(parsed, n).fee_text for n in lines] == [
        "1004.70",
        "1208.70",
        "357.00",
        "255.00",
        "1514.70",
        "357.00",
        "306.00",
    ]


def test_a_sentence_naming_a_code_is_no_listing_and_a_capital_word_starts_a_description(
    parsed: ParsedSchedule,
) -> None:
    """'W121. When acute intercurrent illness requires a special visit …' (GP49, 2676), 'S120 (gastric bypass or
    partition), S189 (intestinal bypass) and S114 …' (SP7, 28192), 'G811 (keratometry) or G810 (corneal
    topography) rendered …' (J93, 26067), 'A252.' (A146, 14008), '(X152/' 'X153) or normal subsequent test …'
    (D17, 19068) were 'fee unknown' listings. 'Application' and 'For' had been read as prose after a code
    ('applies', 'for'): 'C101 For each patient seen on a visit to ICU or CCU …… ' 9.10 (GP103, 6072), 'K623
    Application for psychiatric assessment ……' 117.05 (A19, 7646), 'Z200 Application of Unna's paste ……' 14.90
    (N7, 31019) were not listed at all."""
    lines = {x.line for _, x in parsed.listings}
    assert not lines & {2676, 28192, 26067, 14008, 19068}
    assert [(at_line(parsed, n).code, at_line(parsed, n).fee_text) for n in (6072, 7646, 31019)] == [
        ("C101", "9.10"),
        ("K623", "117.05"),
        ("Z200", "14.90"),
    ]


@pytest.mark.parametrize(
    ("line", "code", "why"),
    [
        # GP63 (3246-3310): the Delegated Procedure table: 'Ultraviolet light therapy · G470 · J37'; its codes are
        # priced on their own pages (G470 7.85, J37)
        (3264, "G470", "in a table"),
        (3294, "G369", "in a table"),
        # GP22 (1537-1574): the periodic health visit codes 'Code · Description · K017 · child …'
        (1542, "K017", "in a table"),
        # A71 (9884-9925): 'Fee Code · Descriptor · K045 · Endocrinology & Metab/Internal Med-Diabetes …'
        (9888, "K045", "in a table"),
        # M10 (29016-29021): 'For burn care requiring anaesthetists' and assistants' services, the following fee
        # codes apply.' '# R030 Minor burns ……' · 6 · 6: units, no fee
        (29017, "R030", "basic units"),
        # GP102 (6044-6054): 'The fee for this service is calculated in the same manner as for assistant and
        # anaesthesia services.' Asst 6 · 'E003 Supportive care/Monitoring ……' · Anae 4
        (6049, "E003", "basic units"),
    ],
)
def test_a_listing_with_no_fee_of_its_own_says_so(parsed: ParsedSchedule, line: int, code: str, why: str) -> None:
    x = at_line(parsed, line)
    assert (x.code, x.status, x.fee) == (code, "no_fee", None)
    assert why in x.fee_text and x.reason is not None
    others = [y for _, y in parsed.listings if y.code == code and y.line != line]
    if why == "in a table":  # the code's fee is in its own listing
        assert any(y.status == "aligned" for y in others)


def test_no_fee_codes_are_counted_apart_from_fee_unknown(parsed: ParsedSchedule) -> None:
    r = parsed.report
    gp63 = next(s for s in r.sections_by_share if s.section == "GP. General Preamble — Delegated Procedure")
    assert (gp63.codes, gp63.codes_with_fee, gp63.codes_no_fee) == (gp63.codes, gp63.codes, gp63.codes)
    assert r.codes_fee_unknown < 230 and r.aligned_share >= 0.95


def test_the_runs_taken_on_cross_references_are_marked(parsed: ParsedSchedule) -> None:
    """S8 (41480-41557): eleven codes (S081 … E644) and S093, S161 E758 S100 E758 before the fees, all printed
    after the page marker: 558.05 898.15 507.00 300.00 · 6 · 37.20 390.05 · … The box of the first four runs past
    the heading EXCISION, so the page's structure alone does not pair them; the index's second box (NI110,
    after the blank cells of S073-S075) states S079 … S122 and bears the order out."""
    x = at_line(parsed, 41480)
    assert (x.code, x.fee_text, x.basis) == ("S081", "558.05", "cross-references")
    assert [at_line(parsed, n).fee_text for n in (41481, 41486, 41492, 41515)] == [
        "898.15",
        "37.20",
        "1912.30",
        "738.90",
    ]
    structural = [x for _, x in parsed.listings if x.status == "aligned" and x.basis is None]
    assert len(structural) > 5000


def test_the_index_later_boxes_are_pinned_by_the_bodys_fees() -> None:
    """``anchored_fees``: a box lands where at least two of its fees are the body's and none contradicts it, on
    one placement only; ``check_fees`` pairs a later box allowing blank cells inside it, and a misread or a
    swapped pair then shows."""
    codes = ("A001", "A002", "A003", "A004", "A005", "A006")
    page = IndexPage("NI9", codes, (10.0,), ((10.0,), (30.0, 40.0, 50.0, 60.0)))
    body = {"A001": 10.0, "A003": 30.0, "A004": 40.0, "A006": 60.0}
    stated = Stated(body, {}, frozenset())
    assert anchored_fees([page], stated) == {"A003": 30.0, "A004": 40.0, "A005": 50.0, "A006": 60.0}
    # a fee the body gives otherwise: no placement, nothing stated
    assert anchored_fees([page], Stated({**body, "A005": 55.0}, {}, frozenset())) == {}
    # a placement shifted by one is not taken
    assert "A002" not in anchored_fees([page], stated)

    def listing(code: str, fee: float) -> Listing:
        return Listing(code, "", "A1", 1, None, "aligned", fee, f"{fee:.2f}")

    ten = tuple(f"B{n:03d}" for n in range(10))
    amounts = tuple(float(10 * n + 5) for n in range(10))
    longer = IndexPage("NI9", ten, (5.0,), ((5.0,), amounts[1:]))
    right = [listing(c, f) for c, f in zip(ten, amounts, strict=True)]
    check = check_fees(right, [longer])
    assert (check.disagreement_count, check.checked_later_boxes) == (0, 9)
    swapped = [listing(c, {25.0: 35.0, 35.0: 25.0}.get(f, f)) for c, f in zip(ten, amounts, strict=True)]
    assert sorted(d.split(" ")[0] for d in check_fees(swapped, [longer]).disagreements) == ["B002", "B003"]
    # a box of another column, or another page's, pinned nowhere: no disagreement from it
    stray = IndexPage("NI9", ten, (5.0,), ((5.0,), amounts[1:], (1.0, 2.0, 3.0, 4.0)))
    assert check_fees(right, [stray]).disagreement_count == 0


def test_codes_and_fees_left_on_a_page_pair_off_by_the_fees_the_schedule_states() -> None:
    """``matched_page``: taken only where every code left and every fee left pair off by the stated fees."""
    tokens = [
        Token("code", "X1", 0, open=True),
        Token("code", "X1", 1, open=True),
        Token("blank", "X1", 2),
        Token("fee", "X1", 3, box=1, open=True, text="49.35"),
        Token("blank", "X1", 4),
        Token("fee", "X1", 5, box=2, open=True, text="70.10"),
    ]
    stated = {0: "70.10", 1: "49.35"}  # code key -> the fee the index gives it
    printed = {3: "49.35", 5: "70.10", 6: "50.20"}

    def verdict(code: int, fee: int) -> int:
        return 1 if stated[code] == printed[fee] else -1

    assert realign_verified(tokens, verdict).pairs == {0: 5, 1: 3}
    one_more = [*tokens, Token("fee", "X1", 6, box=2, open=True, text="50.20")]
    assert realign_verified(one_more, verdict).pairs == {}  # a fee left over: nothing is taken


def test_a_table_listing_with_no_fee_gives_way_to_the_codes_priced_listing() -> None:
    """GP63 names G470 in a table, without a fee; J37 prices it 7.85: the answer's fee is 7.85, not 'varies'.
    A code whose only listing has no fee of its own says so (R030: basic units only)."""
    from dataclasses import replace

    from curbside.coverage.ohip.merge import _item
    from curbside.coverage.ohip.query import Request
    from curbside.coverage.ohip.sql_path import SqlFindings
    from curbside.coverage.ohip.store import ListingRow

    priced = ListingRow(
        "G470", "Ultraviolet light therapy", "Ultraviolet light therapy", None, "J37", "aligned", 7.85, "7.85", {},
        None, None, None, None, "Dermatology", "J", "Diagnostic and Therapeutic Procedures", None, "J37",
    )  # fmt: skip
    table = replace(priced, page="GP63", status="no_fee", fee=None, fee_text="no fee here: the page names the code")
    request = Request(
        "G470", None, ("G470",), None, (), None, (), None, None, None, frozenset({"fee"}), 5, True, False, ()
    )
    sql = SqlFindings(edition=None, asked=["G470"], listings={"G470": [table, priced]})  # type: ignore[arg-type]
    item = _item("G470", "asked", sql, request)
    assert (item.fee_status, item.fee, item.page) == ("aligned", 7.85, "J37")
    units = replace(table, code="R030", page="M10", fee_text="no fee of its own here: basic units only")
    sql = SqlFindings(edition=None, asked=["R030"], listings={"R030": [units]})  # type: ignore[arg-type]
    item = _item("R030", "asked", sql, request)
    assert (item.fee_status, item.fee, item.fee_text) == ("no_fee", None, "no fee of its own here: basic units only")
