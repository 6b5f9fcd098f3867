"""The answer says which day and hour block the question's time chose, on the Schedule's own ED page.

A13 (2025-03-03 text) lists the emergency department's "Multiple systems assessment" as H103 under
"Monday to Friday - Daytime (08:00h to 17:00h)", H133 under "Monday to Friday - Evenings (17:00h to 24:00h)"
($47.45), H153 under "Saturdays, Sundays and Holidays - Daytime and Evenings" and H123 under "Nights".
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from coverage_helpers import loaded_home
from ohip_subset import KEPT_PAGES, write_subset

from curbside.app import Curbside
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult


@pytest.fixture(scope="module")
def ed_app(ohip_text: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    directory = tmp_path_factory.mktemp("ohip-ed")
    # the usual pages (a Schedule text needs many to be read as one) and the ED page
    write_subset(ohip_text, directory / ohip_text.name, keep=[*KEPT_PAGES, "A13"])
    for app, _ in loaded_home(directory, tmp_path_factory.mktemp("ohip-ed-home")):
        yield app


def ask(app: Curbside, question: str) -> ScheduleGetResult:
    return asyncio.run(app.coverage_service("ohip").get(ScheduleGetArgs(q=question)))


def test_a_weekday_evening_answers_with_its_block_and_says_so(ed_app: Curbside) -> None:
    r = ask(ed_app, "working an ER shift, tuesday ~8pm, I did a multiple systems assessment. which H code?")
    codes = [i.code for i in r.items if i.relation == "matched"]
    assert codes[0] == "H133" and "H153" not in codes and "H103" not in codes
    assert "Codes of the Monday to Friday, evening block, read from the time the question gives." in r.summary


def test_no_time_given_says_no_block(ed_app: Curbside) -> None:
    r = ask(ed_app, "which H code for an ER multiple systems assessment?")
    assert "block, read from the time" not in r.summary
