"""The setting a question names ('on the medicine ward') chooses the hospital in-patient copy of a service,
also where the minutes given or the patient's age bring a code forward (#14).

The Schedule's own pages (ohip-schedule-of-benefits-2025-03-03.txt): Neurology (18) lists A682 "Extended special
neurology consultation" (90 minutes of direct contact, A133), its in-patient copy C682 "subject to the same
conditions as A682" (A134) and its long-term care copy W682 (A135), all $401.30. Psychiatry (19) lists A192
"Neurodevelopmental consultation … patient at least 65 years of age, or … less than 65 years of age with a
diagnosis of dementia" (A170) and C895 "Consultation" $259.90 (A172).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from coverage_helpers import loaded_home
from ohip_subset import KEPT_PAGES, write_subset

from curbside.app import Curbside
from curbside.coverage.ohip.query import asker_words, plan
from curbside.coverage.ohip.sql_path import _spoken_alias, in_setting
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult
from curbside.coverage.ohip.words import SPECIALTY_ALIASES


def loaded(ohip_text: Path, factory: pytest.TempPathFactory, name: str, pages: list[str]) -> Iterator[Curbside]:
    directory = factory.mktemp(name)
    # the usual pages (a Schedule text needs many to be read as one) and the section's own
    write_subset(ohip_text, directory / ohip_text.name, keep=[*KEPT_PAGES, *pages])
    for app, _ in loaded_home(directory, factory.mktemp(f"{name}-home")):
        yield app


@pytest.fixture(scope="module")
def neurology_app(ohip_text: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from loaded(ohip_text, tmp_path_factory, "neurology", ["A132", "A133", "A134", "A135"])


@pytest.fixture(scope="module")
def psychiatry_app(ohip_text: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from loaded(ohip_text, tmp_path_factory, "psychiatry", ["A169", "A170", "A171", "A172"])


def ask(app: Curbside, question: str) -> ScheduleGetResult:
    return asyncio.run(app.coverage_service("ohip").get(ScheduleGetArgs(q=question)))


def matched(result: ScheduleGetResult) -> list[str]:
    return [item.code for item in result.items if item.relation == "matched"]


def test_a_ward_is_the_hospital_in_patient_setting() -> None:
    assert in_setting(["A682", "C682", "W682"], "to see a 52M on the medicine ward") == ["C682"]
    assert in_setting(["A895", "C895", "W895"], "a 58M on their ward") == ["C895"]
    assert in_setting(["A895", "C895", "W895"], "in-pt consult, day 2") == ["C895"]  # 'in-pt', as 'inpt'


def test_neuro_alone_is_the_neurologist_and_a_joined_specialty_name_is_the_other() -> None:
    said = _spoken_alias(asker_words("neuro - non-urgent consult req on the ward"))
    assert said == "neuro" and SPECIALTY_ALIASES[said] == "18"
    # a neuro-ophthalmologist bills as an ophthalmologist (A231 "Neuro-ophthalmology consultation", Ophthalmology)
    words = asker_words("fellowship-trained neuro-ophthalmologist, referral for ?papilledema")
    assert "neuro" not in words and "ophthalmologist" in words
    said = _spoken_alias(asker_words("nuc med - pt came for her bone scan but was too agitated"))
    assert said == "nuc med" and SPECIALTY_ALIASES[said] == "63"  # Nuclear Medicine (63)


def test_a_code_written_in_the_plural_is_the_code_asked() -> None:
    assert plan(ScheduleGetArgs(q="how many first-block G264s can I bill in a yr?")).codes == ("G264",)


def test_the_level_the_minutes_meet_is_the_in_patient_copy_on_a_ward(neurology_app: Curbside) -> None:
    r = ask(
        neurology_app,
        "neuro - non-urgent written consult req to see a 52M on the medicine ward, progressive weakness. I spent "
        "95 min direct contact, start + stop times in the chart. which consult code / $?",
    )
    codes = matched(r)
    assert codes[0] == "C682" and "W682" not in codes and "A682" not in codes
    assert "$401.30" in r.summary


def test_an_age_band_brings_no_code_of_another_setting_forward(psychiatry_app: Curbside) -> None:
    r = ask(
        psychiatry_app,
        "psychiatrist - medicine sent a written req to see a 58M on their ward for depression after a new cancer "
        "dx. routine, ~60 min. consult code + what fee?",
    )
    codes = matched(r)
    assert codes[0] == "C895" and "A192" not in codes, r.summary
    assert "$259.90" in r.summary


def test_a_title_all_said_is_looked_for_in_the_setting_asked(neurology_app: Curbside) -> None:
    # A682 "Extended special neurology consultation" is all said by the question; C682, its in-patient copy, adds
    # "- subject to the same conditions as A682": the in-patient asked is C682
    r = ask(neurology_app, "neuro - extended special neurology consultation on an in-patient. code and fee?")
    codes = matched(r)
    assert codes[0] == "C682" and "A682" not in codes
