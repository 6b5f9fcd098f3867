"""The day and time a question names choose among codes that differ only by them.

The Schedule prices one service by when it was rendered: the emergency department's "Multiple systems
assessment" is H103 under the heading "Monday to Friday - Daytime (08:00h to 17:00h)", H133 under "Monday to
Friday - Evenings (17:00h to 24:00h)", H153 under "Saturdays, Sundays and Holidays - Daytime and Evenings
(08:00h to 24:00h)" and H123 under "Nights (00:00h to 08:00h)" (Schedule 2025-03-03, A13); the special visit
premium tables have a column per slot (GP75-GP90: "Evenings (17:00-24:00) Monday to Friday"). A heading says
which days and which hours, each or both; a code is the answer to "8 pm on a Tuesday" when neither its days
nor its hours contradict the question: H133, not H153, whose heading names the evenings too but of the weekend.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["fits_time", "in_time_slot", "with_sacrifice_asked"]

# the hours a code's title or heading names
_HOURS = {
    "night": re.compile(r"\bnights?\b", re.I),
    "evening": re.compile(r"\bevenings?\b", re.I),
    "daytime": re.compile(r"\bdaytime\b|\bweekdays daytime\b", re.I),
}
# … and the days
_DAYS = {
    "weekday": re.compile(r"\bmonday to friday\b|\bweekdays?\b", re.I),
    "weekend": re.compile(r"\b(?:saturdays?|sundays?|holidays?|weekends?)\b", re.I),
}


def _named(text: str, patterns: dict[str, re.Pattern[str]]) -> set[str]:
    return {name for name, pattern in patterns.items() if pattern.search(text)}


def in_time_slot(codes: list[str], hours: str | None, days: str | None, texts: dict[str, str]) -> list[str]:
    """``codes`` without those whose text names other hours than ``hours`` ('night', 'evening', 'daytime') or other
    days than ``days`` ('weekday', 'weekend'), when some code's text fits both (a code naming neither stays: the
    time does not decide it)."""
    if hours is None and days is None:
        return codes

    def fits(code: str) -> bool:
        return fits_time(code, hours, days, texts)

    def says_when(code: str) -> bool:
        text = texts.get(code, "")
        return bool(_named(text, _HOURS) or _named(text, _DAYS))

    if not any(fits(code) and says_when(code) for code in codes):
        return codes
    return [code for code in codes if fits(code)]


def fits_time(code: str, hours: str | None, days: str | None, texts: dict[str, str]) -> bool:
    """Whether ``code``'s text names no other hours than ``hours`` and no other days than ``days``."""
    text = texts.get(code, "")
    named_hours, named_days = _named(text, _HOURS), _named(text, _DAYS)
    return (hours is None or not named_hours or hours in named_hours) and (
        days is None or not named_days or days in named_days
    )


# the special visit tables' column "Daytime with sacrifice of office hours" (GP70) beside "Weekdays daytime
# (07:00-17:00)": a weekday at 10 am fits both, and leaving the office to go (``said_as_the_schedule_says``) is the first
_SACRIFICE = "sacrifice of office hours"
_WEEKDAY_DAYTIME = "Weekdays daytime"


def with_sacrifice_asked(codes: list[str], question: str | None, titles: Mapping[str, str]) -> list[str]:
    """``codes`` without the weekday daytime premiums when the question says office hours were given up and a
    premium of the sacrifice column is among them ('had to leave clinic + cancel pts to go see him': K961 and
    K992, not K960 and K990)."""
    if _SACRIFICE not in (question or "").lower() or not any(_SACRIFICE in titles.get(c, "") for c in codes):
        return codes
    return [c for c in codes if not (_WEEKDAY_DAYTIME in (t := titles.get(c, "")) and _SACRIFICE not in t)]
