"""Due date, conception date and gestational age from the LMP (Naegele's rule; ACOG term categories)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate


def _run(calc_id: str, **given: object) -> CalcResult:
    return evaluate(calculator(calc_id), given)


def _date(result: CalcResult, name: str) -> date:
    """The date a result carries in ``extra``, checked against its meaning."""
    when = date.fromordinal(int(result.extra[f"{name}_ordinal"]))
    assert result.meaning is not None and when.isoformat() in result.meaning
    return when


# --- due date ----------------------------------------------------------------------------------------------------


def test_due_date_naegele_28_day_cycle() -> None:
    # Naegele's rule, LMP + 280 days (ACOG CO 700): LMP 2021-01-01 -> 2021-10-08 (computed by hand)
    result = _run("due_date", lmp="2021-01-01", cycle_length=28)
    assert (result.value, result.unit, result.display) == (280, "days after LMP", "2021-10-08")
    assert _date(result, "due_date") == date(2021, 10, 8)
    assert result.extra["cycle_adjustment_days"] == 0
    # the same as the mnemonic for this LMP: + 1 year - 3 months + 7 days = 2021-10-08
    assert date(2021, 1, 1) + timedelta(days=280) == date(2021, 10, 8)


def test_due_date_cycle_adjustment_both_ways() -> None:
    # longer cycle: + (cycle - 28) days; shorter: minus. LMP 2021-01-01, 32 days -> 2021-10-12; 25 days -> 2021-10-05
    longer = _run("due_date", lmp="2021-01-01", cycle_length=32)
    assert (longer.value, _date(longer, "due_date")) == (284, date(2021, 10, 12))
    shorter = _run("due_date", lmp="2021-01-01", cycle_length=25)
    assert (shorter.value, _date(shorter, "due_date")) == (277, date(2021, 10, 5))
    assert shorter.extra["cycle_adjustment_days"] == -3


def test_due_date_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 13: LMP 02/24/2000, 30-day cycle -> 12/02/2000 (its answer);
    # 2000 is a leap year: + 280 days = 2000-11-30, + 2 days for the cycle
    result = _run("due_date", lmp="2000-02-24", cycle_length=30)
    assert _date(result, "due_date") == date(2000, 12, 2)
    assert result.value == 282


def test_due_date_without_cycle_length_assumes_28_and_says_so() -> None:
    result = _run("due_date", lmp="2021-01-01")
    assert result.status == "complete"
    assert _date(result, "due_date") == date(2021, 10, 8)
    assert any("28 days assumed" in w for w in result.warnings)


def test_due_date_units_refusal_missing() -> None:
    # cycle length in weeks: 4 weeks = 28 days
    weeks = _run("due_date", lmp="2021-01-01", cycle_length={"value": 4, "unit": "weeks"})
    assert weeks.value == 280
    assert weeks.conversions == ["Menstrual cycle length: 4 weeks = 28 days"]
    with pytest.raises(ValidationError, match=r"expected 20–45 days"):
        _run("due_date", lmp="2021-01-01", cycle_length=90)
    with pytest.raises(ValidationError, match="whole days"):
        _run("due_date", lmp="2021-01-01", cycle_length=28.5)
    with pytest.raises(ValidationError, match="not a date"):
        _run("due_date", lmp="02/24/2000")
    missing = _run("due_date", cycle_length=28)
    assert missing.status == "needs_more_info"
    assert [(m.input, m.kind) for m in missing.missing] == [("lmp", "date")]


# --- conception date -------------------------------------------------------------------------------------------


def test_conception_date_28_day_cycle() -> None:
    # ovulation 14 days before the next period: day 14 of a 28-day cycle (computed by hand)
    result = _run("conception_date", lmp="2021-01-01", cycle_length=28)
    assert result.value == 14
    assert _date(result, "conception_date") == date(2021, 1, 15)
    # consistent with the due date: conception + 266 days = LMP + 280
    assert date(2021, 1, 15) + timedelta(days=266) == date(2021, 10, 8)


def test_conception_date_adjusts_for_cycle_length() -> None:
    # 35-day cycle: LMP + 21 days; 24-day cycle: LMP + 10 days
    assert _date(_run("conception_date", lmp="2021-01-01", cycle_length=35), "conception_date") == date(2021, 1, 22)
    assert _date(_run("conception_date", lmp="2021-01-01", cycle_length=24), "conception_date") == date(2021, 1, 11)


def test_conception_date_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 68: LMP 01/07/2017, cycle 29 days; its answer 01/21/2017 adds
    # 2 weeks whatever the cycle length. With a 29-day cycle ovulation is 14 days before the next period,
    # day 15: 2017-01-22 — one day later than the dataset. Its answer holds only for a 28-day cycle.
    with_cycle = _run("conception_date", lmp="2017-01-07", cycle_length=29)
    assert _date(with_cycle, "conception_date") == date(2017, 1, 22)
    assert _date(_run("conception_date", lmp="2017-01-07", cycle_length=28), "conception_date") == date(2017, 1, 21)


def test_conception_date_missing_and_refusal() -> None:
    result = _run("conception_date", lmp="2021-01-01")
    assert result.value == 14 and any("28 days assumed" in w for w in result.warnings)
    assert [m.input for m in _run("conception_date").missing] == ["lmp"]
    with pytest.raises(ValidationError, match="not plausible"):
        _run("conception_date", lmp="2021-01-01", cycle_length=10)


# --- gestational age -------------------------------------------------------------------------------------------


def test_gestational_age_weeks_and_days() -> None:
    # computed by hand: LMP 2021-01-01 to 2021-03-01 = 59 days = 8 weeks 3 days
    result = _run("gestational_age", lmp="2021-01-01", current_date="2021-03-01")
    assert (result.value, result.display) == (59, "8 weeks 3 days")
    assert (result.extra["weeks"], result.extra["days"]) == (8, 3)
    assert result.meaning is not None and result.meaning.startswith("8 weeks 3 days (8+3)")
    assert result.extra["days_to_due_date"] == 221
    assert date.fromordinal(int(result.extra["due_date_ordinal"])) == date(2021, 10, 8)


def test_gestational_age_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 69: LMP 12/23/2020, today 08/21/2021 -> 34 weeks 3 days (its answer)
    result = _run("gestational_age", lmp="2020-12-23", current_date="2021-08-21")
    assert result.value == 34 * 7 + 3
    assert (result.extra["weeks"], result.extra["days"]) == (34, 3)
    assert result.category == "preterm"


@pytest.mark.parametrize(
    ("days", "category"),
    [
        (0, "preterm"),
        (36 * 7 + 6, "preterm"),
        (37 * 7, "early term"),
        (38 * 7 + 6, "early term"),
        (39 * 7, "full term"),
        (40 * 7 + 6, "full term"),
        (41 * 7, "late term"),
        (41 * 7 + 6, "late term"),
        (42 * 7, "postterm"),
    ],
)
def test_gestational_age_term_thresholds(days: int, category: str) -> None:
    # ACOG Committee Opinion 579 (2013): early term 37+0, full term 39+0, late term 41+0, postterm 42+0
    lmp = date(2021, 1, 1)
    result = _run("gestational_age", lmp=lmp.isoformat(), current_date=(lmp + timedelta(days=days)).isoformat())
    assert (result.value, result.category) == (days, category)


def test_gestational_age_refuses_impossible_dates_and_lists_missing() -> None:
    with pytest.raises(ValidationError, match="before the LMP"):
        _run("gestational_age", lmp="2021-03-01", current_date="2021-01-01")
    with pytest.raises(ValidationError, match="not an ongoing pregnancy"):
        _run("gestational_age", lmp="2020-01-01", current_date="2021-01-01")
    # 45+0 weeks is the last accepted
    last = _run("gestational_age", lmp="2021-01-01", current_date=(date(2021, 1, 1) + timedelta(days=315)).isoformat())
    assert (last.value, last.category) == (315, "postterm")
    missing = _run("gestational_age", lmp="2021-01-01")
    assert [(m.input, m.kind) for m in missing.missing] == [("current_date", "date")]
    assert [m.input for m in _run("gestational_age").missing] == ["lmp", "current_date"]
