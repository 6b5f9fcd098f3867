"""Streaming parse of the ODB formulary XML extract into plain rows.

The extract's shape (edition 43, no schema or data dictionary ships with it)::

    extract@createDate
      manufacturerList/manufacturer@id            → name
      formulary@edition@formularyDate@createDate@updateVer
        pcg2@id/name                               therapeutic class
          pcg6[@id]/name?, note?                   subclass (some pcg6 have neither id nor name)
            genericName@id/name, note?             ingredient(s)
              pcgGroup[@lccId]                     a set of groups sharing Limited Use notes
                pcg9@id[@dpp][@suppliedBy]         one interchangeable group
                  itemNumber, strength, dosageForm, note?, dailyCost?
                  drug@id(DIN)@<flags>/name, manufacturerId, individualPrice?,
                       listingDate, amountMOHLTCPays?, dailyCost?, note?
                lccNote@seq[@type][@reasonForUseId]   LU criteria text

The file is read with ``lxml.etree.iterparse`` and each ``pcgGroup`` is
dropped once turned into rows, so memory stays flat. Everything is parsed
before anything is stored: a malformed or truncated file raises
``DocumentParseError`` and the caller keeps the edition it has.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from lxml import etree

from curbside.errors import DocumentParseError

__all__ = [
    "Drug",
    "Edition",
    "Generic",
    "Group",
    "LuNote",
    "ParsedFormulary",
    "TherapeuticClass",
    "parse_formulary",
    "read_edition",
]

_DIN = re.compile(r"^\d{8}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class Edition:
    code: str  # the extract's edition attribute as written, e.g. '4345'
    formulary_date: str  # YYYY-MM-DD
    create_date: str | None
    update_ver: str | None


@dataclass(frozen=True, slots=True)
class TherapeuticClass:
    key: int  # ordinal in the file: pcg6 ids repeat as None
    pcg2_id: str
    pcg2_name: str
    pcg6_id: str | None
    pcg6_name: str | None
    note: str | None


@dataclass(frozen=True, slots=True)
class Generic:
    key: int  # ordinal in the file: one ingredient can sit in several classes
    generic_id: str
    name: str
    class_key: int
    note: str | None


@dataclass(frozen=True, slots=True)
class Group:
    pcg9_id: str
    generic_key: int
    lu_set: int  # the pcgGroup ordinal; its lccNotes apply to every group in it
    lcc_id: str | None
    item_number: str | None
    strength: str | None
    dosage_form: str | None
    note: str | None
    daily_cost: float | None
    attrs: dict[str, str]


@dataclass(frozen=True, slots=True)
class LuNote:
    lu_set: int
    lcc_id: str | None
    seq: str | None
    note_type: str | None
    reason_for_use_id: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Drug:
    din: str
    pcg9_id: str
    name: str
    manufacturer_id: str | None
    individual_price: float | None
    amount_mohltc_pays: float | None
    daily_cost: float | None
    listing_date: str | None
    note: str | None
    flags: dict[str, str]  # every attribute but id, as written


@dataclass(slots=True)
class ParsedFormulary:
    edition: Edition
    manufacturers: dict[str, str] = field(default_factory=dict)
    classes: list[TherapeuticClass] = field(default_factory=list)
    generics: list[Generic] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    lu_notes: list[LuNote] = field(default_factory=list)
    drugs: list[Drug] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "drugs": len(self.drugs),
            "groups": len(self.groups),
            "generics": len(self.generics),
            "classes": len(self.classes),
            "lu_notes": len(self.lu_notes),
            "manufacturers": len(self.manufacturers),
        }


class _Tracked:
    """A binary file that reports how many bytes the parser has read."""

    def __init__(self, handle: IO[bytes], report: Callable[[int], None] | None) -> None:
        self._handle = handle
        self._report = report
        self.done = 0

    def read(self, size: int = -1) -> bytes:
        data = self._handle.read(_CHUNK if size < 0 else min(size, _CHUNK))
        self.done += len(data)
        if self._report is not None:
            self._report(self.done)
        return data


def _text(elem: etree._Element, tag: str) -> str | None:
    value = elem.findtext(tag)
    if value is None:
        return None
    value = value.strip()
    return value or None


def _money(value: str | None, what: str) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        raise DocumentParseError(f"{what} is {value!r}, not a number.") from None


def read_edition(path: Path) -> Edition:
    """The edition header alone (reads only the start of the file)."""
    try:
        for _, elem in etree.iterparse(str(path), events=("start",), tag="formulary"):
            return _edition(elem, path.name)
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(path, exc) from None
    raise DocumentParseError(f"{path.name} has no <formulary> element; it is not an ODB formulary extract.")


def _edition(elem: etree._Element, name: str) -> Edition:
    code = (elem.get("edition") or "").strip()
    date = (elem.get("formularyDate") or "").strip()
    if not code or not _DATE.match(date):
        raise DocumentParseError(
            f"{name}: <formulary> needs an edition and a formularyDate (YYYY-MM-DD); found edition={code!r}, "
            f"formularyDate={date!r}. Is this the ministry's formulary data extract?"
        )
    return Edition(code, date, elem.get("createDate"), elem.get("updateVer"))


def _syntax_error(path: Path, exc: etree.XMLSyntaxError) -> DocumentParseError:
    """A message that tells a truncated download from a file that was never this extract."""
    name = path.name
    line, column = exc.position or (0, 0)
    message = re.sub(r", line \d+, column \d+$", "", str(exc.msg or exc))
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            head = handle.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
            handle.seek(max(size - 64, 0))
            tail = handle.read().rstrip()
    except OSError:
        size, head, tail = -1, b"<", b""
    if size == 0:
        return DocumentParseError(f"{name} is empty. Download the extract again; the formulary already loaded is kept.")
    if not head.startswith(b"<"):
        return DocumentParseError(f"{name} is not XML (line {line}: {message}); the formulary already loaded is kept.")
    if not tail.endswith(b"</extract>"):
        return DocumentParseError(
            f"{name} looks truncated: it does not end with </extract> and the XML breaks off at line {line}, "
            f"column {column} ({message}). Download the extract again; the formulary already loaded is kept."
        )
    return DocumentParseError(
        f"{name} is not well-formed XML at line {line}, column {column}: {message}. "
        "The formulary already loaded is kept."
    )


def parse_formulary(path: Path, *, on_bytes: Callable[[int], None] | None = None) -> ParsedFormulary:
    """Parse the whole extract; raises ``DocumentParseError`` naming what is wrong and where."""
    try:
        with path.open("rb") as handle:
            return _Parser(path.name).run(_Tracked(handle, on_bytes))
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(path, exc) from None
    except OSError as exc:
        raise DocumentParseError(f"Cannot read {path}: {exc.strerror or exc}.") from None


class _Parser:
    def __init__(self, name: str) -> None:
        self.name = name
        self.out: ParsedFormulary | None = None
        self.class_key: int | None = None
        self.generic_key: int | None = None
        self.lu_set = 0
        self.seen_dins: set[str] = set()
        self.seen_groups: set[str] = set()
        self.pending_manufacturers: dict[str, str] = {}

    def run(self, source: _Tracked) -> ParsedFormulary:
        events: Iterator[tuple[str, etree._Element]] = etree.iterparse(
            source, events=("start", "end"), remove_blank_text=True, huge_tree=False
        )
        root_seen = False
        for event, elem in events:
            if not root_seen:
                root_seen = True
                if elem.tag != "extract":
                    raise DocumentParseError(
                        f"{self.name}: the root element is <{elem.tag}>, not <extract>; "
                        "this is not an ODB formulary data extract."
                    )
            if event == "start":
                self._start(elem)
            else:
                self._end(elem)
        if self.out is None:
            raise DocumentParseError(f"{self.name} has no <formulary> element; it is not an ODB formulary extract.")
        self.out.manufacturers.update(self.pending_manufacturers)
        if not self.out.drugs:
            raise DocumentParseError(f"{self.name} lists no <drug> entries; nothing to load.")
        return self.out

    def _need(self) -> ParsedFormulary:
        if self.out is None:
            raise DocumentParseError(f"{self.name}: formulary entries appear outside <formulary>.")
        return self.out

    def _start(self, elem: etree._Element) -> None:
        if elem.tag == "formulary":
            self.out = ParsedFormulary(_edition(elem, self.name))
        elif elem.tag == "pcgGroup":
            self.lu_set += 1

    def _end(self, elem: etree._Element) -> None:
        tag = elem.tag
        if tag == "manufacturer":
            mid = (elem.get("id") or "").strip()
            if mid:
                self.pending_manufacturers[mid] = (elem.text or "").strip()
            elem.clear()
        elif tag == "name":
            parent = elem.getparent()
            if parent is not None and parent.tag == "genericName":
                self._open_generic(parent)
        elif tag == "pcgGroup":
            self._group_set(elem)
            elem.clear()
        elif tag == "genericName":
            self.generic_key = None
            elem.clear()
        elif tag == "pcg6":
            self.class_key = None
            elem.clear()

    # opened at the class's first genericName: its name and note (which come first) are parsed by then
    def _open_class(self, pcg6: etree._Element) -> None:
        out = self._need()
        pcg2 = pcg6.getparent()
        if pcg2 is None or pcg2.tag != "pcg2":
            raise DocumentParseError(f"{self.name}: a <pcg6> sits outside a <pcg2> class.")
        key = len(out.classes) + 1
        out.classes.append(
            TherapeuticClass(
                key=key,
                pcg2_id=(pcg2.get("id") or "").strip(),
                pcg2_name=_text(pcg2, "name") or "",
                pcg6_id=pcg6.get("id"),
                pcg6_name=_text(pcg6, "name"),
                note=_text(pcg6, "note"),
            )
        )
        self.class_key = key

    def _open_generic(self, elem: etree._Element) -> None:
        out = self._need()
        if self.class_key is None:
            pcg6 = elem.getparent()
            if pcg6 is None or pcg6.tag != "pcg6":
                raise DocumentParseError(f"{self.name}: <genericName> {elem.get('id')!r} sits outside a <pcg6>.")
            self._open_class(pcg6)
        assert self.class_key is not None
        key = len(out.generics) + 1
        name = _text(elem, "name")
        if not name:
            raise DocumentParseError(f"{self.name}: <genericName> {elem.get('id')!r} has no name.")
        out.generics.append(Generic(key, (elem.get("id") or "").strip(), name, self.class_key, None))
        self.generic_key = key

    def _group_set(self, elem: etree._Element) -> None:
        out = self._need()
        generic_el = elem.getparent()
        if self.generic_key is None or generic_el is None:
            raise DocumentParseError(f"{self.name}: a <pcgGroup> sits outside a <genericName>.")
        note = _text(generic_el, "note")  # generic notes come before its groups
        last = out.generics[-1]
        if note and last.note is None:
            out.generics[-1] = Generic(last.key, last.generic_id, last.name, last.class_key, note)
        lcc_id = elem.get("lccId")
        for child in elem:
            if child.tag == "pcg9":
                self._group(child, lcc_id)
            elif child.tag == "lccNote":
                text = (child.text or "").strip()
                if text:
                    out.lu_notes.append(
                        LuNote(
                            self.lu_set, lcc_id, child.get("seq"), child.get("type"), child.get("reasonForUseId"), text
                        )
                    )

    def _group(self, elem: etree._Element, lcc_id: str | None) -> None:
        out = self._need()
        assert self.generic_key is not None
        pcg9_id = (elem.get("id") or "").strip()
        if not pcg9_id:
            raise DocumentParseError(f"{self.name}: a <pcg9> group has no id.")
        if pcg9_id in self.seen_groups:
            raise DocumentParseError(f"{self.name}: interchangeable group {pcg9_id} appears twice.")
        self.seen_groups.add(pcg9_id)
        attrs = {k: v for k, v in elem.attrib.items() if k != "id"}
        out.groups.append(
            Group(
                pcg9_id=pcg9_id,
                generic_key=self.generic_key,
                lu_set=self.lu_set,
                lcc_id=lcc_id,
                item_number=_text(elem, "itemNumber"),
                strength=_text(elem, "strength"),
                dosage_form=_text(elem, "dosageForm"),
                note=_text(elem, "note"),
                daily_cost=_money(_text(elem, "dailyCost"), f"dailyCost of group {pcg9_id}"),
                attrs=attrs,
            )
        )
        for drug in elem.iterchildren("drug"):
            out.drugs.append(self._drug(drug, pcg9_id))

    def _drug(self, elem: etree._Element, pcg9_id: str) -> Drug:
        din = (elem.get("id") or "").strip()
        if not _DIN.match(din):
            raise DocumentParseError(f"{self.name}: group {pcg9_id} has a drug whose DIN {din!r} is not 8 digits.")
        if din in self.seen_dins:
            raise DocumentParseError(f"{self.name}: DIN {din} appears twice.")
        self.seen_dins.add(din)
        name = _text(elem, "name")
        if not name:
            raise DocumentParseError(f"{self.name}: DIN {din} has no name.")
        return Drug(
            din=din,
            pcg9_id=pcg9_id,
            name=name,
            manufacturer_id=_text(elem, "manufacturerId"),
            individual_price=_money(_text(elem, "individualPrice"), f"individualPrice of DIN {din}"),
            amount_mohltc_pays=_money(_text(elem, "amountMOHLTCPays"), f"amountMOHLTCPays of DIN {din}"),
            daily_cost=_money(_text(elem, "dailyCost"), f"dailyCost of DIN {din}"),
            listing_date=_text(elem, "listingDate"),
            note=_text(elem, "note"),
            flags={k: v for k, v in elem.attrib.items() if k != "id"},
        )
