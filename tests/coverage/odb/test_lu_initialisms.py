"""An initialism a clerk types ('PBC') tells Limited Use criteria apart where a criterion's words spell it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from odb_subset import ask_odb, one_class_app

from curbside.app import Curbside
from curbside.coverage.odb.merge import _spelled_out

UNCLASSIFIED = "920000000"  # the class of ursodiol (formulary edition 43: pcg2 id 920000000)


@pytest.fixture(scope="module")
def unclassified_app(odb_xml: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Curbside]:
    yield from one_class_app(odb_xml, tmp_path_factory, UNCLASSIFIED)


ask = ask_odb


def test_an_initialism_is_read_from_the_criteria_words() -> None:
    purposes = [
        "for the treatment of primary biliary cirrhosis.",
        "for the treatment of primary sclerosing cholangitis.",
    ]
    assert _spelled_out("PBC", purposes) == "primary biliary cirrhosis"
    assert _spelled_out("PSC", purposes) == "primary sclerosing cholangitis"
    assert _spelled_out("ALS", purposes) is None
    assert _spelled_out("TOP", purposes) is None  # 'the treatment of primary': short words spell nothing


def test_pbc_is_the_biliary_cirrhosis_criterion(unclassified_app: Curbside) -> None:
    # ursodiol 250mg (PMS-Ursodiol C, DIN 02273497): LU 273 "For the treatment of primary biliary cirrhosis.",
    # LU 534 "For the treatment of primary sclerosing cholangitis." (formulary edition 43)
    r = ask(unclassified_app, "PBC pt - ursodiol 250 mg tabs, generic. DIN and LU code?")
    assert r.lu_criteria[0].reason_for_use_code == "273" and r.lu_criteria[0].matches_condition
    assert not r.lu_criteria[1].matches_condition
    assert "534" not in r.summary and "273" in r.summary
    r = ask(unclassified_app, "ursodiol 250 mg for PSC - LU code?")
    assert r.lu_criteria[0].reason_for_use_code == "534" and r.lu_criteria[0].matches_condition
    # said in lower case, 'pbc' is not taken for an initialism: both codes stand
    r = ask(unclassified_app, "ursodiol 250 mg tabs on ODB? LU code?")
    assert "273" in r.summary and "534" in r.summary
