"""An add-on printed in a procedure's block is said with its fee when the question asks for one (#14).

Skin and Subcutaneous Tissue, M1 (ohip-schedule-of-benefits-2025-03-03.txt, lines 28262-28274): "INCISION /
Abscess or haematoma - Local anaesthetic / Z101 - subcutaneous - one … Z103 - palmar or plantar spaces / E542 - when
performed outside hospital … add", the add-on's fee 11.55 printed with the block's fees.
"""

from __future__ import annotations

import asyncio

from curbside.app import Curbside
from curbside.coverage.ohip.sql_path import asks_service_first
from curbside.coverage.ohip.store import OhipReader
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult


def ask(app: Curbside, question: str) -> ScheduleGetResult:
    return asyncio.run(app.coverage_service("ohip").get(ScheduleGetArgs(q=question)))


def _reader(app: Curbside) -> OhipReader:
    return OhipReader(app.settings.db_path)


def test_the_add_ons_of_a_block_are_those_printed_after_the_code_before_another_heading(ohip_app: Curbside) -> None:
    reader = _reader(ohip_app)
    found = reader.add_ons_after(["Z101"])
    assert [(row.code, row.fee, row.page) for _, row in found] == [("E542", 11.55, "M1")]
    assert found[0][1].description == "when performed outside hospital"
    assert reader.add_ons_after(["A005"]) == []  # an assessment's block prints no add-on


def test_a_clerks_code_and_fee_then_add_on_asks_the_service_first() -> None:
    assert asks_service_first("FP office - I&D of a Bartholin abscess under local. code + fee? + office add-on?")
    assert asks_service_first("excised a benign anal skin lesion in my office - code & fee, plus the add-on?")
    assert not asks_service_first("what premium can I add for a Saturday subsequent visit as MRP?")


def test_an_add_on_asked_is_said_with_its_fee_as_printed_in_the_block(ohip_app: Curbside) -> None:
    r = ask(ohip_app, "drained a subcutaneous abscess under local in my office - code + fee? + office add-on?")
    assert r.items[0].code == "Z101"
    assert "Add-on printed with it: E542 when performed outside hospital: add $11.55 (M1)." in r.summary
    plain = ask(ohip_app, "drained a subcutaneous abscess under local - code + fee?")
    assert "Add-on printed with it" not in plain.summary  # said only when asked; still among the related codes
    assert "E542" in {i.code for i in plain.items}


def test_several_asked_bring_the_first_codes_each_additional_listing() -> None:
    from curbside.coverage.ohip.sides import with_each_additional

    # Nerve Blocks - Peripheral/Other Injections (J82): G220 "Intercostal nerve" 34.20, G221 "Intercostal nerve -
    # for each additional one" 16.95
    printed = {
        "G220": "Intercostal nerve",
        "G221": "Intercostal nerve - for each additional one",
        "G265": "Occipital nerve - each additional unilateral block following G264",
    }
    question = "hospitalist - did intercostal nerve blocks at 3 levels for a pt w/ rib fx. how do I bill them?"
    assert with_each_additional(["G220", "G265"], question, printed) == ["G220", "G221", "G265"]
    assert with_each_additional(["G220", "G265"], "did an intercostal nerve block - code?", printed) == ["G220", "G265"]
    assert with_each_additional(["G265", "G220"], question, printed) == ["G265", "G220"]  # another nerve's is not it


def test_several_asked_bring_the_each_additional_add_on_that_names_the_first_code() -> None:
    from curbside.coverage.ohip.sides import with_each_additional

    # Fractures of the Spine (Z10): N583 "Kyphoplasty … as sole procedure, first level" 1201.55; E392 "- kyphoplasty
    # combined with any other procedure, first level, to other procedure" add 510.00; E393 "- kyphoplasty, each
    # additional level, to N583 or E392" add 510.00 (a two-dot leader, '… E392.. add')
    first = "Kyphoplasty (balloon tamp and injection of bone cement) as sole procedure, first level"
    printed = {
        "N583": first,
        "E392": f"{first} - kyphoplasty combined with any other procedure, first level, to other procedure",
        "E393": f"{first} - kyphoplasty, each additional level, to N583 or E392",
        "F072": "Os calcis - open reduction",
    }
    question = "osteoporotic T12 + L1 compression fx, balloon kyphoplasty at both levels - how do i bill?"
    assert with_each_additional(["N583", "F072"], question, printed) == ["N583", "E393", "F072"]
    assert with_each_additional(["N583", "F072"], "balloon kyphoplasty, one level - code?", printed) == ["N583", "F072"]
    assert with_each_additional(["F072", "N583"], question, printed) == ["F072", "N583"]  # names no other code
