"""A copy of the real extract with whole therapeutic classes only (see conftest.py for why)."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

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
