"""Strengths as prescribers write them, packs by volume, brand names with a qualifier (ODB edition 43 rows)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from curbside.coverage.odb.query import _brand_keys, norm_strength
from curbside.coverage.odb.sql_path import _in_pack


@pytest.mark.parametrize(
    ("written", "listed"),
    [("1 mg", "1.0mg"), ("0.5 mg", "0.50mg"), (".5 mg", "0.5mg"), ("2.5mg & 5mg", "2.50mg & 5.0mg"), ("10 mg", "10mg")],
)
def test_a_strength_matches_however_its_zeros_are_written(written: str, listed: str) -> None:
    # Apo-Varenicline is listed as '1.0mg Tab' (DIN 02419890); a prescription says '1 mg'
    assert norm_strength(written) == norm_strength(listed)


def test_different_strengths_stay_different() -> None:
    assert norm_strength("10mg") != norm_strength("1.0mg")
    assert norm_strength("100 mg") == "100mg"
    assert norm_strength("1.34mg/mL") == "1.34mg/ml"


def test_a_brand_with_a_qualifier_is_found_by_its_name() -> None:
    # 'Jubbonti (Preservative Free)', DIN 02545411, is what a prescriber calls 'Jubbonti'
    assert "jubbonti" in _brand_keys("Jubbonti (Preservative Free)")
    assert "jubbonti preservative free" in _brand_keys("Jubbonti (Preservative Free)")


def _row(din: str, form: str) -> Any:
    return SimpleNamespace(din=din, dosage_form=form)


def test_the_pack_named_by_volume_is_chosen() -> None:
    # Ozempic 1.34 mg/mL: the 1.5 mL pen pack (DIN 02471477) and the 3 mL one (DIN 02471469)
    rows = [_row("02471477", "Inj Sol-Pref Pen 1.5mL Pk"), _row("02471469", "Inj Sol-Pref Pen 3mL Pk")]
    chosen = _in_pack(rows, "what LU code do I write for the 1.34 mg/mL 3 mL pen?")
    assert [r.din for r in chosen] == ["02471469"]
    assert _in_pack(rows, "is Ozempic 1.34 mg/mL covered?") == rows  # the concentration's mL is no pack
    assert _in_pack(rows, "the 10 mL vial?") == rows  # no such pack: keep every row


def test_a_combination_is_found_by_its_rounded_marketed_name() -> None:
    from curbside.coverage.odb.sql_path import _in_pair

    # Entresto is listed as 24.3mg & 25.7mg (DIN 02446928), 48.6mg & 51.4mg (DIN 02446936), 97.2mg & 102.8mg
    rows = [
        SimpleNamespace(din="02446928", strength="24.3mg & 25.7mg"),
        SimpleNamespace(din="02446936", strength="48.6mg & 51.4mg"),
        SimpleNamespace(din="02446944", strength="97.2mg & 102.8mg"),
    ]
    assert [r.din for r in _in_pair(rows, "is Entresto 49/51 covered?")] == ["02446936"]  # type: ignore[arg-type]
    assert _in_pair(rows, "is Entresto covered?") == rows  # type: ignore[arg-type]
    assert _in_pair(rows, "Ozempic 1.34 mg/mL?") == rows  # type: ignore[arg-type]  # a concentration, no pair
