"""Pregnancy dating from the last menstrual period: estimated due date (Naegele's rule with the cycle
length adjustment), estimated date of conception, and gestational age on a given date.

A date result is returned as a number of days after the LMP (the value), with the date itself as its
display and in the meaning (ISO 'YYYY-MM-DD'), and in ``extra`` as ``*_ordinal`` (``date.fromordinal``).
"""

from __future__ import annotations

from datetime import date, timedelta

from curbside.errors import ValidationError
from curbside.tools.calculators.kit import Band, Calculator, Day, Given, Number, Outcome, band_for

__all__ = ["CALCULATORS"]

_LMP = Day(
    "lmp",
    "First day of the last menstrual period (LMP)",
    description="The first day of bleeding of the last normal period.",
)
_CYCLE = Number(
    "cycle_length",
    "Menstrual cycle length",
    "days",
    20,
    45,
    required=False,
    description="Usual cycle length (first day of one period to the first day of the next). Optional; "
    "28 days is assumed, and said, when not given.",
    aliases=("cycle length", "cycles every", "menstrual cycle", "cycle of"),
)
_TODAY = Day("current_date", "Date of assessment", description="The date to date the pregnancy on (today).")

# Naegele's rule (F. K. Naegele, 19th century): due date = LMP + 280 days (40 weeks)
# for a 28-day cycle, as in ACOG Committee Opinion No. 700, Methods for estimating the due date,
# Obstet Gynecol 2017;129:e150-4. The cycle length adjustment (add the days by which the cycle exceeds
# 28, subtract those by which it falls short) moves ovulation, taken as 14 days before the next period.
_NAEGELE = "Naegele's rule (LMP + 280 days), cycle-adjusted; ACOG Committee Opinion 700, Obstet Gynecol 2017;129:e150-4"
_GESTATION_DAYS = 280
_STANDARD_CYCLE = 28
# Ovulation (and conception) about 14 days before the next period: LMP + (cycle length - 14) days;
# its timing varies widely even in regular cycles (Wilcox AJ, Dunson D, Baird DD. The timing of the
# "fertile window" in the menstrual cycle. BMJ 2000;321:1259-62).
_LUTEAL_DAYS = 14
_CONCEPTION = (
    "Ovulation 14 days before the next period (LMP + cycle length − 14 days); Wilcox AJ et al. BMJ 2000;321:1259-62"
)

# ACOG Committee Opinion No. 579, Definition of term pregnancy. Obstet Gynecol 2013;122:1139-40:
# early term 37 0/7-38 6/7, full term 39 0/7-40 6/7, late term 41 0/7-41 6/7, postterm >= 42 0/7 weeks.
_TERM = "ACOG Committee Opinion 579, Obstet Gynecol 2013;122:1139-40"
_TERM_BANDS = (
    Band(float("-inf"), "preterm", "< 37+0 weeks: preterm (birth now would be a preterm birth)"),
    Band(37 * 7, "early term", "37+0 to 38+6 weeks: early term"),
    Band(39 * 7, "full term", "39+0 to 40+6 weeks: full term"),
    Band(41 * 7, "late term", "41+0 to 41+6 weeks: late term"),
    Band(42 * 7, "postterm", "≥ 42+0 weeks: postterm"),
)
_LONGEST_DAYS = 45 * 7  # beyond this an LMP date describes no ongoing pregnancy

_DATING_LIMITS = (
    "LMP dating assumes a known LMP and regular cycles; a first-trimester ultrasound (crown-rump length) "
    "dates the pregnancy more accurately, and ACOG CO 700 prefers it when the two disagree beyond set limits."
)


def _date_extra(name: str, when: date) -> dict[str, float]:
    return {f"{name}_ordinal": float(when.toordinal())}


def _cycle(given: Given, warnings: list[str]) -> float:
    cycle = given.opt("cycle_length")
    if cycle is None:
        warnings.append(f"Cycle length not given: {_STANDARD_CYCLE} days assumed.")
        return float(_STANDARD_CYCLE)
    if cycle != round(cycle):
        raise ValidationError(f"cycle_length: give whole days (got {cycle:g})")
    return cycle


def _weeks_days(days: int) -> str:
    return f"{days // 7} weeks {days % 7} days"


def _due_date(given: Given) -> Outcome:
    warnings: list[str] = []
    cycle = _cycle(given, warnings)
    shift = int(cycle) - _STANDARD_CYCLE
    days = _GESTATION_DAYS + shift
    due = given.day("lmp") + timedelta(days=days)
    adjusted = f", {shift:+d} days for a {int(cycle)}-day cycle" if shift else ""
    meaning = f"Estimated due date {due.isoformat()} ({due:%A}): LMP + 280 days{adjusted}."
    extra = {**_date_extra("due_date", due), "cycle_adjustment_days": float(shift)}
    return Outcome(
        days, "days after LMP", "estimated due date", meaning, warnings=warnings, extra=extra, display=due.isoformat()
    )


def _conception_date(given: Given) -> Outcome:
    warnings: list[str] = []
    cycle = _cycle(given, warnings)
    days = int(cycle) - _LUTEAL_DAYS
    when = given.day("lmp") + timedelta(days=days)
    meaning = (
        f"Estimated conception {when.isoformat()}: LMP + {days} days (ovulation about 14 days before the "
        f"next period of a {int(cycle)}-day cycle)."
    )
    extra = {**_date_extra("conception_date", when), "cycle_length_days": cycle}
    return Outcome(
        days,
        "days after LMP",
        "estimated conception",
        meaning,
        warnings=warnings,
        extra=extra,
        display=when.isoformat(),
    )


def _check_dates(given: Given) -> None:
    lmp, today = given.day("lmp"), given.day("current_date")
    if today < lmp:
        raise ValidationError(f"current_date {today.isoformat()} is before the LMP {lmp.isoformat()}")
    if (today - lmp).days > _LONGEST_DAYS:
        raise ValidationError(
            f"LMP {lmp.isoformat()} is {_weeks_days((today - lmp).days)} before {today.isoformat()}: "
            "more than 45 weeks, not an ongoing pregnancy"
        )


def _gestational_age(given: Given) -> Outcome:
    days = (given.day("current_date") - given.day("lmp")).days
    band = band_for(days, _TERM_BANDS)
    due = given.day("lmp") + timedelta(days=_GESTATION_DAYS)
    meaning = f"{_weeks_days(days)} ({days // 7}+{days % 7}) by LMP — {band.meaning}"
    extra = {
        "weeks": float(days // 7),
        "days": float(days % 7),
        "days_to_due_date": float(_GESTATION_DAYS - days),
        **_date_extra("due_date", due),
    }
    return Outcome(days, "days", band.category, meaning, extra=extra, display=_weeks_days(days))


CALCULATORS = (
    Calculator(
        id="due_date",
        title="Estimated due date (Naegele's rule)",
        summary="estimated due date from the LMP: LMP + 280 days, adjusted by the cycle length − 28 days.",
        formula="Naegele's rule, cycle-adjusted: EDD = LMP + 280 + (cycle length − 28) days",
        citation=_NAEGELE,
        inputs=(_LMP, _CYCLE),
        compute=_due_date,
        warnings=(_DATING_LIMITS,),
    ),
    Calculator(
        id="conception_date",
        title="Estimated date of conception",
        summary="estimated conception (ovulation) date from the LMP: LMP + cycle length − 14 days (day 14 of a 28-day cycle).",
        formula="Conception = LMP + (cycle length − 14) days",
        citation=_CONCEPTION,
        inputs=(_LMP, _CYCLE),
        compute=_conception_date,
        warnings=(
            "An estimate: ovulation varies from cycle to cycle even in regular cycles, and conception can "
            "follow intercourse by up to several days.",
        ),
    ),
    Calculator(
        id="gestational_age",
        title="Gestational age by LMP",
        summary="gestational age in weeks and days on a date, from the LMP, with the ACOG term category.",
        formula="Gestational age = date − LMP (in completed weeks + days)",
        citation=f"Naegele's rule (LMP dating); term categories: {_TERM}",
        inputs=(_LMP, _TODAY),
        compute=_gestational_age,
        check=_check_dates,
        warnings=(_DATING_LIMITS,),
    ),
)
