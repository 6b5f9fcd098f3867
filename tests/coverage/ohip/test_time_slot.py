"""The day and the hour a question names choose among codes whose headings name days and hours (#14).

Headings are the Schedule's own: the emergency department's assessments (ohip-schedule-of-benefits-2025-03-03.txt,
A13, lines 7254-7285).
"""

from __future__ import annotations

from curbside.coverage.ohip.query import asked_days, asked_hours
from curbside.coverage.ohip.time_slot import fits_time, in_time_slot

TEXTS = {
    "H103": "Multiple systems assessment | Monday to Friday - Daytime (08:00h to 17:00h)",
    "H133": "Multiple systems assessment | Monday to Friday - Evenings (17:00h to 24:00h)",
    "H153": "Multiple systems assessment | Saturdays, Sundays and Holidays - Daytime and Evenings (08:00h to 24:00h)",
    "H123": "Multiple systems assessment | Nights (00:00h to 08:00h)",
    "A888": "Emergency department equivalent - partial assessment",
}
ALL = ["H103", "H133", "H153", "H123", "A888"]


def test_a_weekday_evening_is_not_the_weekend_block_that_also_names_evenings() -> None:
    question = "working an ER shift, tuesday ~8pm, I did a multiple systems assessment"
    hours, days = asked_hours(question, "tuesday"), asked_days("tuesday")
    assert (hours, days) == ("evening", "weekday")
    assert in_time_slot(ALL, hours, days, TEXTS) == ["H133", "A888"]


def test_a_weekday_morning_is_the_weekday_daytime_block() -> None:
    hours, days = asked_hours("wednesday 10am, comprehensive assessment", "wednesday"), asked_days("wednesday")
    assert (hours, days) == ("daytime", "weekday")
    assert in_time_slot(ALL, hours, days, TEXTS) == ["H103", "A888"]


def test_a_holiday_or_weekend_named_alone_is_the_weekend_block_and_its_night_is_the_night_block() -> None:
    assert asked_days("holiday") == "weekend"
    assert in_time_slot(ALL, asked_hours("stat holiday shift", "holiday"), "weekend", TEXTS) == ["H153", "A888"]
    assert in_time_slot(ALL, asked_hours("saturday at 3 am", "saturday"), "weekend", TEXTS) == ["H123", "A888"]


def test_no_day_or_hour_named_or_none_fitting_keeps_every_code() -> None:
    assert asked_hours("a multiple systems assessment", None) is None
    assert in_time_slot(ALL, None, None, TEXTS) == ALL
    weekend_only = ["H153", "A888"]
    assert in_time_slot(weekend_only, "evening", "weekday", TEXTS) == weekend_only


def test_a_related_code_of_another_block_does_not_fit_the_time_asked() -> None:
    # a Saturday afternoon: the night block's code is not an answer, even as a related code (H121 beside H151)
    hours, days = asked_hours("ER shift saturday 2pm - quick minor assessment", "saturday"), asked_days("saturday")
    assert (hours, days) == ("daytime", "weekend")
    assert [code for code in ALL if fits_time(code, hours, days, TEXTS)] == ["H153", "A888"]


def test_a_shortened_day_and_its_hour_on_the_24_hour_clock_are_read() -> None:
    from curbside.coverage.ohip.query import _day, asks_special_visit

    assert _day("ER doc, got called in sat 1400 for a trauma") == "saturday"
    assert asked_hours("got called in sat 1400 for a trauma", "saturday") == "daytime"
    assert _day("called into the ER wed 2000 for a bleeder") == "wednesday"
    assert asked_hours("called into the ER wed 2000 for a bleeder", "wednesday") == "evening"
    assert _day("sat with the family for an hour") is None  # the verb, not Saturday
    assert asked_hours("2000 mg of metformin", None) is None  # a count, not a time
    # the physician's visit said in a clerk's words
    assert asks_special_visit("GP - office closed sunday, I came in at 10am just to see my pt. first pt seen premium?")
    assert asks_special_visit("palliative pt at home, family called - I went out. premium for the pt seen?")
    assert not asks_special_visit("pt came in for a bp check")


def test_an_hour_with_a_leading_zero_or_after_weekday_and_a_call_from_home() -> None:
    from curbside.coverage.ohip.query import asks_special_visit

    assert asked_hours("0300 got called from home to the nursing home", None) == "night"
    assert asked_hours("geriatrician - home visit, weekday 1000", None) == "daytime"
    assert asks_special_visit("sunday 1100, came in from home for a crashing ward pt")
    assert asks_special_visit("0300 got called from home to the nursing home, resident fell")
