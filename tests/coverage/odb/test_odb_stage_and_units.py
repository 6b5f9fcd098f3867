"""Limited Use criteria of a stage of therapy, notes said of every code, toxin units and a list of drugs taken (#14),
each on one whole therapeutic class of the real formulary extract."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from odb_subset import ask_odb, one_class_app

from curbside.app import Curbside
from curbside.coverage.odb.tool import OdbGetResult

UNCLASSIFIED = "920000000"  # Glatect, Xeomin, Botox (formulary: pcg2 id 920000000)
ANTI_INFECTIVES = "080000000"  # Relenza
NERVOUS_SYSTEM = "280000000"  # clobazam, valproate
EYE_EAR_NOSE_THROAT = "520000000"  # Simbrinza


@pytest.fixture(scope="module")
def unclassified(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from one_class_app(odb_xml, tmp_path_factory, UNCLASSIFIED)


@pytest.fixture(scope="module")
def anti_infectives(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from one_class_app(odb_xml, tmp_path_factory, ANTI_INFECTIVES)


@pytest.fixture(scope="module")
def nervous_system(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from one_class_app(odb_xml, tmp_path_factory, NERVOUS_SYSTEM)


@pytest.fixture(scope="module")
def eye_ear_nose_throat(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from one_class_app(odb_xml, tmp_path_factory, EYE_EAR_NOSE_THROAT)


def matched(r: OdbGetResult) -> list[str | None]:
    return [c.reason_for_use_code for c in r.lu_criteria if c.matches_condition]


def test_a_renewal_criterion_answers_only_a_question_about_renewing(unclassified: Curbside) -> None:
    # Glatect 20mg/mL (DIN 02460661): LU 535 "As monotherapy … relapsing remitting multiple sclerosis (RRMS) …",
    # LU 536 "As monotherapy … a single demyelinating event/ Clinically Isolated Syndrome (CIS) …", LU 537 "Renewal
    # of therapy for patients diagnosed with RRMS or a single demyelinating event /Clinically Isolated Syndrome (CIS)"
    start = ask_odb(
        unclassified,
        "28F, first demyelinating event (optic neuritis) 3 mo ago w/ typical MRI lesions, not yet RRMS - neuro wants "
        "glatiramer (Glatect). DIN + LU code?",
    )
    assert matched(start) == ["536"] and "LU 537 (matches" not in start.summary
    assert matched(ask_odb(unclassified, "RRMS pt on Glatect for a year, doing well - LU code to renew?")) == ["537"]


def test_toxin_units_are_one_strength_however_written(unclassified: Curbside) -> None:
    # Xeomin is listed as '50 LD50 Units' (DIN 02371081) and '100 LD50 Units' (DIN 02324032); Botox as '100U/Vial'
    # (DIN 01981501)
    xeomin = ask_odb(unclassified, "blepharospasm - neuro wants Xeomin, the 100-unit vial. DIN + LU code?")
    assert xeomin.matches[0].din == "02324032"
    assert ask_odb(unclassified, "botox 100 unit vial for cervical dystonia LU?").matches[0].din == "01981501"


def test_a_note_said_of_every_code_tells_no_criterion_apart(anti_infectives: Curbside) -> None:
    # Relenza (DIN 02240863): a note before any code, "For the treatment or prophylaxis of institutionalized
    # individuals during confirmed outbreaks …", then LU 414 "For treatment: …" and LU 415 "For prophylaxis: …"
    r = ask_odb(
        anti_infectives,
        "LTC home w/ a public-health-confirmed flu A outbreak, strain oseltamivir-resistant - want Relenza (zanamivir) "
        "PROPHYLAXIS for the residents. DIN + LU code?",
    )
    assert matched(r) == ["415"]
    assert "Reason for Use code (415) for the situation the question describes" in r.summary


def test_a_list_of_drugs_the_patient_takes_is_history(nervous_system: Curbside) -> None:
    # 'on valproate + clobazam': both taken now; Fintepla (fenfluramine) is the drug asked, and the formulary lacks it
    r = ask_odb(
        nervous_system,
        "Dravet syndrome kid still seizing on valproate + clobazam - neuro wants Fintepla (fenfluramine oral "
        "solution). on the ODB formulary?",
    )
    assert r.summary.startswith("Fintepla / fenfluramine is not listed in the ODB Formulary Edition 43")
    assert "Clobazam" not in r.summary


def test_a_pressure_not_at_target_on_one_drug_is_an_inadequate_response(eye_ear_nose_throat: Curbside) -> None:
    # Simbrinza (DIN 02435411): LU 393 "For use as initial therapy in an urgent situation …", LU 466 "As second-line
    # therapy for patients who do not have an adequate intraocular pressure lowering response to monotherapy with
    # brinzolamide or brimonidine"
    r = ask_odb(
        eye_ear_nose_throat,
        "glaucoma pt on brinzolamide alone, IOP still not at target - switching to Simbrinza (brinzolamide/"
        "brimonidine). DIN + LU code?",
    )
    assert matched(r) == ["466"] and "393" not in r.summary
