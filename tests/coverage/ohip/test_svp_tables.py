"""The special visit premium tables of the General Preamble, read cell by cell from the real Schedule text.

Line numbers are those of ohip-schedule-of-benefits-2025-03-03.txt (``grep -n``); a page is the label of
the next page marker at or after a line (``layout``), so Table I, printed between the GP69 marker (line
3587) and the GP70 marker (line 3738), is on GP70, as the Schedule's own note "(Table I) apply (GP70)"
(line 3557) says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curbside.coverage.ohip.svp_tables import SvpCell, SvpTables, read_svp_tables, special_visit_cells

_WEEKDAY = "Weekdays daytime (07:00-17:00)"
_SACRIFICE = "Daytime with sacrifice of office hours"
_EVENING = "Evenings (17:00-24:00) Monday to Friday"
_WEEKEND = "Saturdays, Sundays and holidays (07:00-24:00)"
_NIGHT = "Nights (00:00-07:00)"
_FIVE = (_WEEKDAY, _SACRIFICE, _EVENING, _WEEKEND, _NIGHT)
_THREE_ROWS = ("Travel premium", "First person seen", "Additional person(s) seen")
_TWO_ROWS = ("Travel premium", "First person seen")


@pytest.fixture(scope="module")
def lines(ohip_text: Path) -> list[str]:
    return ohip_text.read_text(encoding="utf-8").split("\n")  # not splitlines: form feeds would shift line numbers


@pytest.fixture(scope="module")
def svp(lines: list[str]) -> SvpTables:
    return read_svp_tables(lines)


@pytest.fixture(scope="module")
def cells(svp: SvpTables) -> dict[str, tuple[SvpCell, ...]]:
    return svp.by_code()


def _one(cells: dict[str, tuple[SvpCell, ...]], code: str) -> SvpCell:
    found = cells[code]
    assert len(found) == 1, found
    return found[0]


def _without(lines: list[str], first: int, last: int) -> list[str]:
    """``lines`` less the file's lines ``first``..``last`` (1-based, inclusive)."""
    return lines[: first - 1] + lines[last:]


def test_every_table_is_read_and_none_skipped(svp: SvpTables) -> None:
    # headings at lines 3593 (I), 3744, 3903, 4063, 4223, 4349, 4509, 4599, 4674, 4838 (X), 4851 (obstetrical
    # delivery), 5388 (surgical assistant), 5627 (anaesthesia), 6211 (non-elective diagnostic services)
    shapes = [(t.table_no, t.title, len(t.rows), len(t.columns)) for t in svp.tables]
    assert shapes == [
        ("I", "Emergency Department", 3, 5),
        ("II", "Hospital Out-Patient Department", 3, 5),
        ("III", "Hospital In-Patient", 3, 5),
        ("IV", "Long-Term Care Institution", 3, 5),
        ("V", "Emergency Department by Emergency Department Physician", 3, 4),
        ("VI", "Special Visits to Patient's Home (other than Long-Term Care Institution)", 2, 6),
        ("VII", "Palliative Care Home Visit", 2, 5),
        ("VIII", "Physician Office", 2, 4),
        ("IX", "Other (non-professional setting not listed)", 2, 5),
        ("X", "Geriatric Home Visit", 2, 5),
        (None, "Obstetrical Delivery with Sacrifice of Office Hours", 1, 5),
        (None, "Surgical Assistant Services", 1, 5),
        (None, "Anaesthesia Services", 1, 5),
        (None, "Non-elective Diagnostic Services", 3, 3),
    ]
    assert svp.skipped == ()
    assert all(len(t.cells) == len(t.rows) * len(t.columns) for t in svp.tables)
    assert sum(len(t.cells) for t in svp.tables) == 146
    assert svp.tables[0].rows == _THREE_ROWS and svp.tables[0].columns == _FIVE
    assert svp.tables[0].note == "Not eligible for payment to Emergency Department Physicians (see definition GP67)"
    assert svp.tables[10].heading == (
        "SPECIAL VISIT PREMIUM TABLE - OBSTETRICAL DELIVERY WITH SACRIFICE OF OFFICE HOURS"  # lines 4851-4852
    )


def test_k960_is_the_emergency_department_weekday_travel_premium(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # Table I (3593), 'Emergency Department' (3594), first column 'Weekdays / Daytime / (07:00- 17:00)' (3596-3598),
    # row 'Travel / Premium' (3618-3619), first cell '$36.40 / K960 / (max. 2 per time / period)' (3621-3624)
    cell = _one(cells, "K960")
    assert (cell.table, cell.table_no, cell.row, cell.column) == (
        "Emergency Department",
        "I",
        "Travel premium",
        _WEEKDAY,
    )
    assert (cell.fee, cell.limit, cell.page, cell.line) == ("36.40", "max. 2 per time period", "GP70", 3622)
    assert cell.column_text == "Weekdays Daytime (07:00- 17:00)"


def test_k963_is_the_emergency_department_weekend_travel_premium(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # fourth column 'Sat., Sun. / and / Holidays / (07:0024:00)' (3611-3614); cell '$36.40 / K963 / (max. 6 per /
    # time period)' (3636-3639), the fourth of the 'Travel Premium' row
    cell = _one(cells, "K963")
    assert (cell.table, cell.row, cell.column) == ("Emergency Department", "Travel premium", _WEEKEND)
    assert (cell.fee, cell.limit, cell.line) == ("36.40", "max. 6 per time period", 3637)
    travel = [
        c for found in cells.values() for c in found if c.table == "Emergency Department" and c.row == "Travel premium"
    ]
    assert [c.code for c in travel] == ["K960", "K961", "K962", "K963", "K964"]


def test_k998_is_the_emergency_department_weekend_first_person_seen(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # row 'First / Person / Seen' (3646-3648); its fourth cell '$75.00 / K998 / (max. 20 / (total of first / and /
    # additional / person / seen) per / time period)' (3675-3683)
    cell = _one(cells, "K998")
    assert (cell.table, cell.row, cell.column, cell.fee) == (
        "Emergency Department",
        "First person seen",
        _WEEKEND,
        "75.00",
    )
    assert cell.limit == "max. 20 (total of first and additional person seen) per time period"


def test_k996_is_the_emergency_department_night_first_person_seen(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # fifth column 'Nights (00:0007:00)' (3616); fifth cell of 'First Person Seen': '$100.00 / K996 / (no max. per /
    # time period)' (3685-3688)
    cell = _one(cells, "K996")
    assert (cell.table, cell.row, cell.column, cell.fee) == (
        "Emergency Department",
        "First person seen",
        _NIGHT,
        "100.00",
    )
    assert cell.limit == "no max. per time period"
    assert _one(cells, "K997").row == "Additional person(s) seen"  # '$100.00 / K997' (3729-3730)


def test_b993_is_the_home_visit_weekend_first_person_seen(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # Table VI (4349) 'Special Visits to Patient's Home (other than Long-Term Care Institution)' (4350); fourth
    # column 'Sat., Sun. / and / Holidays / (07:0024:00) / Nonelective' (4373-4377); row 'First / person / seen'
    # (4422-4424); its fourth cell '$82.50 / B993 / (max. 20 …' (4457-4466); page GP75 (marker line 4503)
    cell = _one(cells, "B993")
    assert "Patient's Home" in cell.table and cell.table_no == "VI"
    assert (cell.row, cell.column, cell.fee, cell.page) == (
        "First person seen",
        f"{_WEEKEND} (non-elective)",
        "82.50",
        "GP75",
    )


def test_a994_is_the_physician_office_evening_first_person_seen(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # Table VIII (4599) 'Physician Office' (4600), four columns (no sacrifice of office hours), the second
    # 'Evenings / (17:0024:00) / Monday / through / Friday' (4605-4609); row 'First person / seen' (4641-4642);
    # its second cell '$60.00 / A994 / (max. 1 per / time period)' (4649-4652); page GP76 (marker line 4668)
    cell = _one(cells, "A994")
    assert (cell.table, cell.table_no, cell.row, cell.column) == (
        "Physician Office",
        "VIII",
        "First person seen",
        _EVENING,
    )
    assert (cell.fee, cell.limit, cell.page) == ("60.00", "max. 1 per time period", "GP76")


def test_a_code_in_two_cells_of_one_row_keeps_both(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # Table VI prints B960 under the non-elective weekday column (4389-4393) and the 'Elective / home visit'
    # column (4383-4384, cell 4417-4420); Table VII prints B966 in all five travel cells (4542-4567)
    b960 = cells["B960"]
    assert [c.column for c in b960] == [f"{_WEEKDAY} (non-elective)", "Elective home visit"]
    assert {c.row for c in b960} == {"Travel premium"}
    b966 = cells["B966"]
    assert [c.column for c in b966] == list(_FIVE) and {c.table for c in b966} == {"Palliative Care Home Visit"}
    assert {c.limit for c in b966} == {"no max. per time period"}  # '$36.40 B966' / '(no max. per' and 'B966 (no'


def test_table_x_body_printed_before_its_heading(svp: SvpTables, cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # after Table IX's Q960-Q996 cells (4704-4755) a second set of column headers (4757-4779) and cells B986,
    # B988, B987 (4783-4834), then the heading 'SPECIAL VISIT PREMIUM TABLE X' / 'Geriatric Home Visit'
    # (4838-4839) with nothing under it but 'Premium' and the page's furniture
    table_x = next(t for t in svp.tables if t.table_no == "X")
    assert table_x.body_before_title and table_x.line == 4838
    assert [c.code for c in table_x.cells] == ["B986"] * 5 + ["B988"] * 4 + ["B987"]
    assert _one(cells, "B987").column == _NIGHT and _one(cells, "B987").fee == "110.00"
    assert [c.code for c in next(t for t in svp.tables if t.table_no == "IX").cells][-1] == "Q996"


def test_one_row_tables_have_no_row_label(cells: dict[str, tuple[SvpCell, ...]], svp: SvpTables) -> None:
    # obstetrical delivery: '$0.00' (4857) under the weekday header, then 'Sacrifice / of Office / Hours'
    # (4861-4863) over '$76.40 / C989 / (max. 1 / per time / period)' (4864-4868), three '$0.00' (4884-4888)
    c989 = _one(cells, "C989")
    assert (c989.row, c989.column, c989.fee, c989.table) == (
        None,
        _SACRIFICE,
        "76.40",
        "Obstetrical Delivery with Sacrifice of Office Hours",
    )
    obstetrical = svp.tables[10]
    assert [(c.code, c.fee) for c in obstetrical.cells] == [
        (None, "0.00"),
        ("C989", "76.40"),
        (None, "0.00"),
        (None, "0.00"),
        (None, "0.00"),
    ]
    # anaesthesia: C998C under both the sacrifice and the evening columns (5655-5663)
    assert [c.column for c in cells["C998C"]] == [_SACRIFICE, _EVENING]
    assert _one(cells, "C999B").fee == "117.65"  # surgical assistant, '$117.65 / C999B' (5428-5429)


def test_the_diagnostic_table_has_three_columns(cells: dict[str, tuple[SvpCell, ...]]) -> None:
    # 'Evenings (17:0024:00) Monday / through Friday' (6214-6215) … row 'Additional / person(s) / seen'
    # (6252-6254), its second cell '$75.00 / C106' (6260-6261)
    cell = _one(cells, "C106")
    assert (cell.row, cell.column, cell.fee, cell.page) == ("Additional person(s) seen", _WEEKEND, "75.00", "GP105")


def test_column_labels_are_normalised(svp: SvpTables) -> None:
    columns = {c for t in svp.tables for c in t.columns}
    assert columns == {*_FIVE, *(f"{c} (non-elective)" for c in _FIVE), "Elective home visit"}
    assert {r for t in svp.tables for r in t.rows} == {*_THREE_ROWS, None}


def test_special_visit_cells_is_by_code(lines: list[str], cells: dict[str, tuple[SvpCell, ...]]) -> None:
    assert special_visit_cells(lines) == cells
    assert len(cells) == 123
    assert read_svp_tables(["no table here", "$36.40", "K960"]) == SvpTables((), ())


def test_a_missing_cell_skips_only_its_table(lines: list[str]) -> None:
    result = read_svp_tables(_without(lines, 3626, 3630))  # K961's cell (3626-3629) and the blank after it
    assert [(s.heading, s.reason) for s in result.skipped] == [
        ("SPECIAL VISIT PREMIUM TABLE I", "row 'Travel premium' has 4 cells for 5 columns")
    ]
    assert result.skipped[0].title == "Emergency Department" and result.skipped[0].line == 3593
    found = result.by_code()
    assert not any(code.startswith("K9") for code in found)  # nothing guessed from Table I
    assert len(result.tables) == 13 and found["U961"][0].column == _SACRIFICE


def test_merged_column_headers_skip_the_table(lines: list[str]) -> None:
    result = read_svp_tables(_without(lines, 3749, 3749))  # the blank between Table II's first two headers
    assert len(result.skipped) == 1 and result.skipped[0].heading == "SPECIAL VISIT PREMIUM TABLE II"
    assert "names no single time period" in result.skipped[0].reason
    assert "U960" not in result.by_code() and "K960" in result.by_code()


def test_a_stray_code_skips_the_table(lines: list[str]) -> None:
    changed = [*lines[:3603], "K999", *lines[3603:]]  # a code between Table I's header lines 3603 and 3604
    result = read_svp_tables(changed)
    assert [s.heading for s in result.skipped] == ["SPECIAL VISIT PREMIUM TABLE I"]
    assert "outside a cell" in result.skipped[0].reason


def test_furniture_inside_a_cell_is_passed_over(lines: list[str]) -> None:
    changed = [*lines[:3623], "", "Amd 12 Draft 1", "", *lines[3623:]]  # inside K960's limit (3623-3624)
    result = read_svp_tables(changed)
    assert result.skipped == ()
    assert result.by_code()["K960"][0].limit == "max. 2 per time period"


def test_an_unclosed_limit_skips_the_table(lines: list[str]) -> None:
    result = read_svp_tables(_without(lines, 3624, 3624))  # 'period)', the end of K960's limit
    assert [s.heading for s in result.skipped] == ["SPECIAL VISIT PREMIUM TABLE I"]
    assert result.skipped[0].reason == "limit '(max. 2 per time' of the cell at line 3622 is not closed"


def test_a_body_no_heading_claims_is_skipped(lines: list[str]) -> None:
    result = read_svp_tables(_without(lines, 4838, 4838))  # Table X's heading: its body has no title left
    assert [s.heading for s in result.skipped] == ["untitled table body"]
    assert result.skipped[0].line == 4757  # where the second set of column headers starts
    found = result.by_code()
    assert "B986" not in found and found["Q996"][0].table.startswith("Other")
