"""A copy of the real extract with whole therapeutic classes only (see conftest.py for why)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

from coverage_helpers import loaded_home
from lxml import etree
from pytest import TempPathFactory

from curbside.app import Curbside
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult

# antihistamines, cardiovascular, hormones, vitamins, miscellaneous: every coverage status occurs in them
KEPT_CLASSES = ("040000000", "240000000", "680000000", "880000000", "960000000")


def write_subset(source: Path, target: Path, keep: tuple[str, ...] = KEPT_CLASSES) -> Path:
    tree = etree.parse(str(source))
    formulary = tree.getroot().find("formulary")
    assert formulary is not None
    for pcg2 in list(formulary.findall("pcg2")):
        if pcg2.get("id") not in keep:
            formulary.remove(pcg2)
    target.parent.mkdir(parents=True, exist_ok=True)
    tree.write(str(target), xml_declaration=True, encoding="UTF-8")
    return target


def one_class_app(odb_xml: Path, tmp_path_factory: TempPathFactory, pcg2: str) -> Iterator[Curbside]:
    """A home loaded with one whole therapeutic class of the real extract (``pcg2`` id): small enough to load
    per test module."""
    directory = tmp_path_factory.mktemp(f"odb-{pcg2}")
    write_subset(odb_xml, directory / odb_xml.name, keep=(pcg2,))
    for app, _ in loaded_home(directory, tmp_path_factory.mktemp(f"odb-{pcg2}-home")):
        yield app


def ask_odb(app: Curbside, question: str) -> OdbGetResult:
    """``odb.get`` on a question, after the service's warm-up."""
    service = app.coverage_service("odb")
    service.warm_up()
    return asyncio.run(service.get(OdbGetArgs(q=question)))
