"""Parsing the real extract, and the messages for files that are not it."""

from __future__ import annotations

from pathlib import Path

import pytest

from curbside.coverage.odb.parse import parse_formulary, read_edition
from curbside.errors import DocumentParseError


def test_whole_extract(odb_xml: Path) -> None:
    parsed = parse_formulary(odb_xml)
    e = parsed.edition
    assert (e.code, e.formulary_date, e.create_date, e.update_ver) == ("4345", "2025-08-29", "2025-08-27", "H")
    assert parsed.counts() == {
        "drugs": 8401,
        "groups": 2525,
        "generics": 912,
        "classes": 116,
        "lu_notes": 1638,
        "manufacturers": 707,
    }
    januvia = next(d for d in parsed.drugs if d.din == "02388839")
    assert (januvia.name, januvia.manufacturer_id, januvia.individual_price, januvia.amount_mohltc_pays) == (
        "Januvia",
        "MFC",
        3.2787,
        0.8197,
    )
    assert januvia.flags == {"insOH": "Y", "chronicUseMed": "Y", "sec3": "Y"}
    assert januvia.listing_date == "2013-09-27"
    group = next(g for g in parsed.groups if g.pcg9_id == januvia.pcg9_id)
    assert (group.strength, group.dosage_form, group.item_number) == ("25mg", "Tab", "1850")
    generic = next(g for g in parsed.generics if g.key == group.generic_key)
    klass = next(c for c in parsed.classes if c.key == generic.class_key)
    assert (generic.name, klass.pcg2_name, klass.pcg6_name) == (
        "SITAGLIPTIN",
        "HORMONES AND SUBSTITUTES",
        "ANTI-DIABETIC AGENTS ORAL ANTI-DIABETIC AGENTS",
    )
    assert parsed.manufacturers["MFC"] == "Merck Frosst Canada Ltd."
    unnamed = [c for c in parsed.classes if c.pcg6_name is None]  # six pcg6 with neither id nor name
    assert len(unnamed) == 6 and {c.pcg2_name for c in unnamed} >= {"ANTIHISTAMINES", "GOLD COMPOUNDS"}


def test_edition_header_alone(odb_xml: Path) -> None:
    assert read_edition(odb_xml).formulary_date == "2025-08-29"


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "odb-formulary-broken.xml"
    path.write_bytes(data)
    return path


def test_truncated_extract(odb_xml: Path, tmp_path: Path) -> None:
    data = odb_xml.read_bytes()
    path = _write(tmp_path, data[: len(data) // 2])
    with pytest.raises(DocumentParseError) as err:
        parse_formulary(path)
    assert err.value.message.startswith("odb-formulary-broken.xml looks truncated: it does not end with </extract>")
    assert err.value.message.endswith("Download the extract again; the formulary already loaded is kept.")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "odb-formulary-broken.xml is empty."),
        (b"drug,price\n", "odb-formulary-broken.xml is not XML (line 1: Start tag expected, '<' not found)"),
        (
            b"<extract><formulary edition='1' formularyDate='2025-01-01'><pcg2><</pcg2></formulary></extract>",
            "odb-formulary-broken.xml is not well-formed XML at line 1, column 67: StartTag: invalid element name.",
        ),
        (b"<catalog/>", "odb-formulary-broken.xml: the root element is <catalog>, not <extract>"),
        (
            b"<extract><formulary edition='43'/></extract>",
            "odb-formulary-broken.xml: <formulary> needs an edition and a formularyDate (YYYY-MM-DD)",
        ),
        (
            b"<extract><formulary edition='43' formularyDate='2025-08-29'/></extract>",
            "odb-formulary-broken.xml lists no <drug> entries; nothing to load.",
        ),
    ],
)
def test_not_an_extract(tmp_path: Path, data: bytes, message: str) -> None:
    with pytest.raises(DocumentParseError) as err:
        parse_formulary(_write(tmp_path, data))
    assert err.value.message.startswith(message)


def _one_group(drugs: str) -> bytes:
    return (
        "<extract><formulary edition='43' formularyDate='2025-08-29'><pcg2 id='1'><name>A</name><pcg6 id='2'>"
        f"<name>B</name><genericName id='3'><name>C</name><pcgGroup><pcg9 id='9'>{drugs}</pcg9></pcgGroup>"
        "</genericName></pcg6></pcg2></formulary></extract>"
    ).encode()


@pytest.mark.parametrize(
    ("drugs", "message"),
    [
        ("<drug id='0238883'><name>X</name></drug>", "group 9 has a drug whose DIN '0238883' is not 8 digits."),
        (
            "<drug id='02388839'><name>X</name></drug><drug id='02388839'><name>Y</name></drug>",
            "DIN 02388839 appears twice.",
        ),
        (
            "<drug id='02388839'><name>X</name><individualPrice>3,27</individualPrice></drug>",
            "individualPrice of DIN 02388839 is '3,27', not a number.",
        ),
    ],
)
def test_bad_rows_name_the_drug(tmp_path: Path, drugs: str, message: str) -> None:
    with pytest.raises(DocumentParseError) as err:
        parse_formulary(_write(tmp_path, _one_group(drugs)))
    assert message in err.value.message
