"""Which product a question means: the strength written after a name, strengths that differ in status, a
device told apart by its form word (ODB Formulary Edition 43 rows, read from the XML by hand).

- Brilinta (ticagrelor): 60mg Tab DIN 02455005 notABenefit="Y"; 90mg Tab DIN 02368544 sec12 (LU 441).
- Norvasc (amlodipine): 2.5mg Tab DIN 00878901 notABenefit="Y"; 5mg DIN 00878928 and 10mg DIN 00878936 benefits.
- FreeStyle Libre 2 Sensor DIN 09858147 ('Flash Glucose Monitoring System - Sensor', note: "a maximum reimbursed
  quantity of 33 sensors over the course of a 365-day period"); FreeStyle Libre 2 Reader DIN 09858148;
  Freestyle DIN 09857141 is a Strip.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from curbside.app import Curbside
from curbside.coverage.odb.query import _brand_keys, _without_description
from curbside.coverage.odb.sql_path import _by_bare_number
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult


def ask(app: Curbside, **args: Any) -> OdbGetResult:
    return asyncio.run(app.coverage_service("odb").get(OdbGetArgs(**args)))


_BRILINTA = [
    SimpleNamespace(din="02455005", strength="60mg"),
    SimpleNamespace(din="02368544", strength="90mg"),
]


def _dins(rows: Any) -> list[str]:
    return [r.din for r in rows]


def test_a_number_after_the_name_is_its_strength() -> None:
    chosen = _by_bare_number(_BRILINTA, "post-MI pt on Brilinta 90 bid + ASA - what LU code?", "brilinta")  # type: ignore[arg-type]
    assert _dins(chosen) == ["02368544"]
    assert _dins(_by_bare_number(_BRILINTA, "is Brilinta 60 covered?", "brilinta")) == ["02455005"]  # type: ignore[arg-type]

    # Advair Diskus (salmeterol/fluticasone) 50/100, 50/250, 50/500mcg: 'Advair Diskus 250' is the middle one
    advair = [
        SimpleNamespace(din=d, strength=s)
        for d, s in (("1", "50mcg & 100mcg"), ("2", "50mcg & 250mcg"), ("3", "50mcg & 500mcg"))
    ]
    assert _dins(_by_bare_number(advair, "brand Advair Diskus 250 - how much?", "advair diskus")) == ["2"]  # type: ignore[arg-type]
    assert _dins(_by_bare_number(advair, "Advair Diskus 50 - how much?", "advair diskus")) == ["1", "2", "3"]  # type: ignore[arg-type]


def test_a_number_of_time_count_or_no_listed_strength_chooses_nothing() -> None:
    for question in (
        "Brilinta 90 days supply?",
        "Brilinta 2 tabs a day?",
        "Brilinta 45 covered?",
        "is Brilinta covered?",
    ):
        assert _dins(_by_bare_number(_BRILINTA, question, "brilinta")) == ["02455005", "02368544"], question  # type: ignore[arg-type]


def test_norvasc_5_is_the_covered_5mg(odb_app: Curbside) -> None:
    r = ask(odb_app, q="elderly pt on Norvasc 5 daily - is it covered by ODB?")
    assert r.coverage is not None and r.coverage.din == "00878928" and r.coverage.covered is True
    assert "Other strengths differ" not in r.summary  # the strength was chosen


def test_strengths_that_differ_in_status_are_each_said(odb_app: Curbside) -> None:
    r = ask(odb_app, q="is Norvasc covered by ODB?")
    assert r.coverage is not None and r.coverage.covered is True  # a covered strength leads, not the 2.5mg
    assert "Norvasc 2.5mg Tab (DIN 00878901) is not a benefit" in r.summary
    assert r.confidence <= 0.85  # the verdict holds for one strength; which one is meant is asked
    assert r.follow_up and "Which strength" in r.follow_up


def test_a_strength_given_with_its_unit_still_decides(odb_app: Curbside) -> None:
    r = ask(odb_app, q="is amlodipine 2.5 mg (Norvasc) covered?")
    assert r.coverage is not None and r.coverage.din == "00878901" and r.coverage.covered is False


def test_a_bare_mass_finds_the_strength_listed_per_actuation(odb_app: Curbside) -> None:
    # Alvesco (ciclesonide) 100mcg/Actuation DIN 02285606 and 200mcg/Actuation DIN 02285614: 'alvesco 200 mcg' is the
    # second, not "listed as 100mcg/Actuation, 200mcg/Actuation; not as 200mcg" (so Neupro 4mg/24hr, Abilify Maintena
    # 400mg/Vial, which the test subset lacks)
    r = ask(odb_app, q="asthma pt on alvesco 200 mcg - covered by ODB?")
    assert r.coverage is not None and r.coverage.din == "02285614"
    assert "not as 200mcg" not in r.summary


def test_a_prefilled_pen_is_found_by_the_dose_it_holds(odb_app: Curbside) -> None:
    # Repatha 140mg/mL Inj Sol-Pref Syr Autoinj (DIN 02446057): 'repatha 140 mg' is that autoinjector
    r = ask(odb_app, q="FH pt, LDL still high on max statin + ezetimibe - repatha 140 mg autoinjector, ODB? DIN?")
    assert r.coverage is not None and r.coverage.din == "02446057"


def test_a_maker_named_chooses_its_generic_in_the_group(odb_app: Curbside) -> None:
    # Norvasc 5mg (DIN 00878928) shares its group with Teva-Amlodipine (DIN 02250497), Ran-Amlodipine (DIN 02321858) …
    teva = ask(odb_app, q="pt wants teva's generic norvasc 5 mg - DIN + covered?")
    assert teva.coverage is not None and teva.coverage.din == "02250497"
    ran_out = ask(odb_app, q="pt ran out of norvasc 5 mg - covered?")  # 'ran' is a word, not the maker Ran-
    assert ran_out.coverage is not None and ran_out.coverage.din == "00878928"
    # the ingredient asked and the group's brand named: the brand, not the group's lowest cost
    brand = ask(odb_app, q="amlodipine 5 mg - pharmacy is dispensing brand norvasc, what does ODB pay?")
    assert brand.coverage is not None and brand.coverage.din == "00878928"


def test_a_device_name_with_its_form_word_finds_that_device() -> None:
    # the form word at the end of a device's name is dropped for a key, so 'FreeStyle Libre 2' names both devices
    assert "freestyle libre 2" in _brand_keys("FreeStyle Libre 2 Sensor")
    assert "freestyle libre 2" in _brand_keys("FreeStyle Libre 2 Reader")


def test_libre_sensors_are_the_sensor_with_its_yearly_maximum(odb_app: Curbside) -> None:
    r = ask(odb_app, q="T1 on MDI insulin - will ODB cover FreeStyle Libre 2 sensors? how many a yr?")
    assert r.coverage is not None and r.coverage.din == "09858147"
    assert "33 sensors over the course of a 365-day period" in r.summary
    reader = ask(odb_app, q="is the FreeStyle Libre 2 reader covered?")
    assert reader.coverage is not None and reader.coverage.din == "09858148"


def test_a_strip_is_not_answered_for_a_sensor(odb_app: Curbside) -> None:
    r = ask(odb_app, q="are Freestyle sensors covered?")
    assert r.coverage is None or r.coverage.din != "09857141"


def test_a_dose_written_before_the_name_and_apart_from_it_is_another_drugs(odb_app: Curbside) -> None:
    # ivabradine (Lancora) is listed as 5mg Tab (DIN 02459973) and 7.5mg Tab; 50 mg is the metoprolol's dose
    r = ask(odb_app, q="HFrEF pt on metoprolol 50 mg bid, HR still 80s - cardiology wants ivabradine. LU code?")
    assert r.coverage is not None and r.coverage.din in {"02459973", "02459981"}
    assert "not as 50mg" not in r.summary
    # a dose the name is written with still chooses among its strengths, and one no product has is still asked about
    assert ask(odb_app, q="ivabradine 7.5 mg - covered?").coverage.din == "02459981"  # type: ignore[union-attr]
    r = ask(odb_app, q="is ivabradine 50 mg covered?")
    assert r.coverage is None and "not as 50mg" in r.summary


def test_a_volume_no_strength_has_is_the_packs() -> None:
    from curbside.coverage.odb.query import plan
    from curbside.coverage.odb.sql_path import _said_of_something_else

    # Cabenuva (DIN 02497220): '200mg/mL & 300mg/mL Inj Sol-2mL Kit' and '-3mL Kit'
    kits = [SimpleNamespace(strength="200mg/mL & 300mg/mL", dosage_form="Inj Sol-2mL Kit")]
    request = plan(OdbGetArgs(q="HIV pt wants the cabenuva injections - DIN/price for the 2 mL kit?"))
    assert request.strength == "2ml" and _said_of_something_else(request, kits, "cabenuva")  # type: ignore[arg-type]
    # a strength given as an argument is the caller's
    request = plan(OdbGetArgs(q="cabenuva 2 mL kit price?", strength="3ml"))
    assert not _said_of_something_else(request, kits, "cabenuva")  # type: ignore[arg-type]


def test_a_device_is_found_by_its_makers_words_without_its_description(odb_app: Curbside) -> None:
    # 'Contour Next Blood Glucose Test Strips' (DIN 09857453, $0.7290) beside 'Contour Blood Glucose Test Strips':
    # 'blood glucose test strips' is the description eight strip names share (formulary edition 43)
    r = ask(odb_app, q="pt on ODB uses contour next test strips - what does ODB pay per strip? PIN?")
    assert r.coverage is not None and r.coverage.din == "09857453" and "$0.7290" in r.summary
    # one maker's word left is too little to name a product by ('Contour Blood Glucose Test Strips')
    shared = frozenset({"blood", "glucose", "test", "strips"})
    assert _without_description("contour next blood glucose test strips", shared) == "contour next"
    assert _without_description("contour blood glucose test strips", shared) is None
    assert _without_description("accu chek guide test strips", shared) == "accu chek guide"



def test_insulin_units_per_ml_as_a_clinician_writes_them(odb_app: Curbside) -> None:
    # Lantus-(Vial) is listed as '100U/mL' (DIN 02245689): '100 units/mL' is that strength
    r = ask(odb_app, q="lantus 100 units/mL vial DIN?")
    assert r.matches and r.matches[0].din == "02245689" and "not as" not in r.summary
