"""The flags data file: every flag in the extract has an entry, every meaning a source or a plain 'not documented'."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import get_args

from lxml import etree

from curbside.coverage.odb.flags import NOT_DOCUMENTED, StatusCode, benefit_status, describe_flags, flag_table
from curbside.coverage.odb.parse import parse_formulary


def test_every_attribute_in_the_extract_has_an_entry(odb_xml: Path) -> None:
    seen = {(e.tag, name) for e in etree.parse(str(odb_xml)).iter("drug", "pcg9") for name in e.attrib if name != "id"}
    table = flag_table()
    assert {name for _, name in seen} <= set(table["flags"]), "a new flag in the extract needs an entry in flags.toml"
    assert seen == {
        ("drug", n)
        for n in (
            "notABenefit",
            "sec3",
            "sec3b",
            "sec3bEAP",
            "sec3c",
            "sec9",
            "sec12",
            "chronicUseMed",
            "insOH",
            "maO",
            "selfMed",
            "dinStatus",
            "additionalBenefitType",
        )
    } | {("pcg9", "dpp"), ("pcg9", "suppliedBy")}


def test_entries_are_sourced_or_say_undocumented() -> None:
    table = flag_table()
    for name, entry in {**table["flags"], **table["fields"]}.items():
        assert entry["status"] in ("documented", "inferred", "undocumented"), name
        assert set(entry["sources"]) <= set(table["sources"]), name
        if entry["status"] == "undocumented":
            assert entry["meaning"] == "", name
        else:
            assert entry["meaning"] and entry["sources"], f"{name}: a meaning needs a source"
    assert set(table["status"]) == set(get_args(StatusCode))


def test_undocumented_flags_are_shown_as_written() -> None:
    infos = {i.name: i for i in describe_flags({"insOH": "Y", "sec12": "Y", "newFlag": "Q"})}
    assert infos["insOH"].meaning == NOT_DOCUMENTED and infos["insOH"].value == "Y"
    assert infos["newFlag"].documentation == "undocumented" and infos["newFlag"].sources == []
    assert infos["sec12"].documentation == "inferred" and infos["sec12"].meaning.startswith("Listed in Part XII")


def test_coverage_rules() -> None:
    assert benefit_status({"sec3": "Y", "maO": "Y", "insOH": "Y"}).code == "general_benefit"
    assert benefit_status({"sec3c": "Y", "chronicUseMed": "Y"}).covered is None  # undocumented flags decide nothing
    assert benefit_status({"notABenefit": "Y", "sec3": "Y", "sec12": "Y"}).code == "not_a_benefit"
    assert benefit_status({"sec3": "Y", "sec3b": "Y", "sec3bEAP": "Y"}).code == "exceptional_access_only"
    assert benefit_status({"sec3": "Y", "sec3b": "Y"}).covered is False


def test_statuses_over_the_whole_extract(odb_xml: Path) -> None:
    parsed = parse_formulary(odb_xml)
    counts = Counter(benefit_status(d.flags).code for d in parsed.drugs)
    assert counts == {
        "general_benefit": 4753,
        "limited_use": 1218,
        "not_a_benefit": 1418,
        "exceptional_access_only": 823,
        "additional_benefit": 140,
        "undetermined": 32,
        "off_formulary_interchangeable": 17,
    }
    # the documented evidence: no product that is not a benefit has an amount the ministry pays
    assert not any(d.amount_mohltc_pays for d in parsed.drugs if benefit_status(d.flags).code == "not_a_benefit")
    assert all(d.amount_mohltc_pays for d in parsed.drugs if benefit_status(d.flags).code == "general_benefit")
