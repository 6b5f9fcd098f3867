"""Coverage passages: the formulary as searchable, citable text, and the facts read back from it.

Granularity, measured on Edition 43 with MiniLM (20–28 chunks/s on this 2-core
machine): a line per product gave 875k tokens in 4,778 chunks (over three
minutes); a section per ingredient still gave 1,800 mostly small chunks, each
repeating its title path (64 s). Now: one document per therapeutic class
(pcg2, 20), a section per subclass (pcg6), and per ingredient one block of
bracketed items — each interchangeable group (status, size, lowest cost) and
each product worth naming (see ``_items``) — plus its notes and Limited Use
criteria, each long text once. The chunker packs an ingredient's blocks with
its neighbours' up to the model's cap: ~250k tokens, ~1,270 MiniLM chunks,
about a minute to embed (prices and DINs cost many tokens each). Every DIN
stays answerable through the SQL path; the search path finds drugs by brand,
ingredient, class and LU wording.

Items are self-delimiting, so facts read back even from a chunk cut
mid-block — for a partial answer when SQL fails, and for the conflict
detector::

    SITAGLIPTIN: [25mg Tab: general benefit, 11 products, lowest $0.8197] [Januvia DIN 02388839 $3.2787, pays $0.8197]

The edition and date are in every document title, hence in every citation.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from curbside.coverage.odb.flags import StatusCode, benefit_status
from curbside.coverage.odb.limited_use import group_notes
from curbside.coverage.odb.parse import Drug, Group, LuNote, ParsedFormulary
from curbside.coverage.odb.pricing import lowest_cost
from curbside.coverage.passages import prepared_document, slug
from curbside.kb.document import Block, LoadedDocument, Section
from curbside.kb.ingest import PreparedDocument

__all__ = [
    "DOC_PREFIX",
    "NAMESPACE",
    "SOURCE_TYPE",
    "GroupFact",
    "PassageFacts",
    "ProductFact",
    "build_documents",
    "edition_from_title",
    "facts_in",
    "money",
]

NAMESPACE = "odb"
SOURCE_TYPE = "formulary"
DOC_PREFIX = "odb-"

# short status words in passages; read back by ``facts_in``
STATUS_WORDS: dict[StatusCode, str] = {
    "general_benefit": "general benefit",
    "limited_use": "Limited Use benefit",
    "additional_benefit": "additional benefit (Part IX)",
    "not_a_benefit": "not a benefit",
    "exceptional_access_only": "not a benefit: Exceptional Access Program only",
    "off_formulary_interchangeable": "not a benefit: Off-Formulary Interchangeable",
    "undetermined": "coverage not stated by a documented flag",
}
_WORD_STATUS = {v: k for k, v in STATUS_WORDS.items()}
_STATUS_RE = "|".join(re.escape(w) for w in sorted(_WORD_STATUS, key=len, reverse=True))
_GENERIC = re.compile(r"(?P<generic>[A-Z0-9][A-Z0-9 &(),./%+'-]*?): \[")  # ingredient names are upper case
_GROUP = re.compile(
    rf"\[(?P<group>[^\[\]:]+): (?P<status>{_STATUS_RE}), (?P<n>\d+) products?(?:, lowest (?P<low>\$[\d.]+))?\]"
)
_PRODUCT = re.compile(
    rf"\[(?P<name>[^\[\]]+?) DIN (?P<din>\d{{8}})(?: (?P<status>{_STATUS_RE}))? (?P<price>\$[\d.]+|no price), "
    r"pays (?P<pays>\$[\d.]+|nothing)\]"
)
_TITLE = re.compile(r"Edition (\S+) \((\d{4}-\d{2}-\d{2})\)")


def money(value: float | None) -> str:
    """'$0.8197', '$223.26': the formulary's 4 decimals without trailing zeros (fewer tokens to embed)."""
    if value is None:
        return "not listed"
    whole, _, decimals = f"{value:.4f}".partition(".")
    return f"${whole}.{decimals.rstrip('0').ljust(2, '0')}"


def printed_price(value: float | None) -> str:
    """'$4.9000', '$1316.4700': a price as the formulary prints it, so a clerk finds the same figure there."""
    return "no listed price" if value is None else f"${value:.4f}"


def _items(group: Group, drugs: list[Drug]) -> list[str]:
    """The group's item, then the products worth naming (status written only where it differs).

    Named: a group's sole product, products priced over 10 % above the group's
    lowest price (the brands people ask about, covered or not), and covered
    products whose status differs from the group's. The crowd of generics at the
    lowest price is counted, not listed: the SQL path lists them.
    """
    statuses = [benefit_status(d.flags) for d in drugs]
    codes = [s.code for s in statuses]
    main = max(dict.fromkeys(codes), key=codes.count)  # ties: the first seen, so the text is stable
    lowest = lowest_cost(drugs)
    where = " ".join(p for p in (group.strength, group.dosage_form) if p) or f"group {group.pcg9_id}"
    item = f"{where}: {STATUS_WORDS[main]}, {len(drugs)} product{'s' if len(drugs) != 1 else ''}"
    if lowest is not None and lowest.among_covered:
        item += f", lowest {money(lowest.price)}"
    items = [f"[{item}]"]
    for drug, status in zip(drugs, statuses, strict=True):
        dearer = lowest is not None and drug.individual_price is not None and drug.individual_price > lowest.price * 1.1
        if len(drugs) == 1 or dearer or (status.covered and status.code != main):
            word = "" if status.code == main else f" {STATUS_WORDS[status.code]}"
            price = money(drug.individual_price) if drug.individual_price is not None else "no price"
            pays = money(drug.amount_mohltc_pays) if drug.amount_mohltc_pays is not None else "nothing"
            items.append(f"[{drug.name} DIN {drug.din}{word} {price}, pays {pays}]")
    return items


def _once(head: str, text: str, said: dict[str, str]) -> str:
    """A long note in full the first time; after that a pointer to where it was written."""
    if text in said and len(text) > 200:
        return f"{head}: the same text as under {said[text]}."
    said[text] = head
    return f"{head}: {text}"


def build_documents(parsed: ParsedFormulary, label: str) -> list[PreparedDocument]:
    """One prepared document per therapeutic class, titled with the edition ``label``."""
    by_group: dict[str, list[Drug]] = defaultdict(list)
    for drug in parsed.drugs:
        by_group[drug.pcg9_id].append(drug)
    groups_of: dict[int, list[Group]] = defaultdict(list)
    for group in parsed.groups:
        groups_of[group.generic_key].append(group)
    notes_of: dict[int, list[LuNote]] = defaultdict(list)
    for note in parsed.lu_notes:
        notes_of[note.lu_set].append(note)

    blocks_of: dict[int, list[Block]] = defaultdict(list)  # class key -> its ingredients' blocks, in file order
    said: dict[str, str] = {}  # note text -> the head it was first written under (notes repeat across ingredients)
    for generic in parsed.generics:
        blocks = blocks_of[generic.class_key]
        if generic.note:
            blocks.append(Block(f"Note on {generic.name}: {generic.note}"))
        items: list[str] = []
        group_notes: dict[str, list[str]] = {}
        for group in groups_of[generic.key]:
            items += _items(group, by_group[group.pcg9_id])
            where = " ".join(p for p in (group.strength, group.dosage_form) if p)
            for note_text in dict.fromkeys(n for n in [group.note, *(d.note for d in by_group[group.pcg9_id])] if n):
                group_notes.setdefault(note_text, []).append(where)
        blocks.append(Block(f"{generic.name}: " + " ".join(items)))
        for group_note, wheres in group_notes.items():
            blocks.append(Block(_once(f"Formulary note on {generic.name} ({', '.join(wheres)})", group_note, said)))
        for text, head in _lu_texts(generic.name, groups_of[generic.key], notes_of).items():
            blocks.append(Block(_once(head, text, said)))

    sections: dict[str, Section] = {}  # pcg2 id -> document root
    titles: dict[str, str] = {}
    for klass in parsed.classes:
        root = sections.setdefault(klass.pcg2_id, Section(title=None))
        titles[klass.pcg2_id] = klass.pcg2_name
        blocks = ([Block(f"Note on {klass.pcg6_name}: {klass.note}")] if klass.note else []) + blocks_of[klass.key]
        if klass.pcg6_name:
            root.children.append(Section(title=klass.pcg6_name, blocks=blocks))
        else:  # an unnamed subclass: its ingredients sit directly under the class
            root.blocks.extend(blocks)

    docs: list[PreparedDocument] = []
    for pcg2_id, root in sections.items():
        loaded = LoadedDocument(title=f"{label} — {titles[pcg2_id]}", root=root, format="markdown")
        key = f"{DOC_PREFIX}{pcg2_id}-{slug(titles[pcg2_id], 60)}"
        docs.append(prepared_document(key, loaded))
    return docs


def _lu_texts(generic: str, groups: list[Group], notes_of: dict[int, list[LuNote]]) -> dict[str, str]:
    """Each distinct LU criteria text of an ingredient -> its heading, with every code it applies to."""
    texts: dict[str, tuple[str | None, list[str]]] = {}
    for lu_set in dict.fromkeys(g.lu_set for g in groups):
        for item in group_notes(notes_of.get(lu_set, [])):
            heading, codes = texts.setdefault(item.full_text(), (item.heading, []))
            if item.code and item.code not in codes:
                codes.append(item.code)
    out: dict[str, str] = {}
    for text, (heading, codes) in texts.items():
        about = f"{generic} ({heading})" if heading else generic
        if codes:
            out[text] = f"Limited Use criteria for {about}, Reason for Use code {', '.join(codes)}"
        else:
            out[text] = f"Limited Use note for {about}"
    return out


@dataclass(frozen=True, slots=True)
class ProductFact:
    """What a product line of a passage states."""

    din: str
    name: str
    generic: str | None  # 'SITAGLIPTIN'
    group: str | None  # 'SITAGLIPTIN 25mg Tab'
    status: StatusCode | None  # None: words this version does not write
    unit_price: float | None
    amount_mohltc_pays: float | None


@dataclass(frozen=True, slots=True)
class GroupFact:
    """What a group line of a passage states."""

    generic: str
    group: str
    status: StatusCode | None
    products: int
    lowest_cost: float | None


@dataclass(slots=True)
class PassageFacts:
    products: dict[str, ProductFact]  # by DIN
    groups: dict[str, GroupFact]  # by group name


def _price(text: str | None) -> float | None:
    return float(text[1:]) if text and text.startswith("$") else None


def facts_in(text: str) -> PassageFacts:
    """The group and product items of a passage (items cut at a chunk edge are skipped).

    An item belongs to the ingredient header and group item before it; a group
    item whose header fell into the previous chunk is skipped, and a product
    item whose group item did keeps its own facts with ``group`` unknown.
    """
    products: dict[str, ProductFact] = {}
    groups: dict[str, GroupFact] = {}
    found = [(m.start(), "h", m) for m in _GENERIC.finditer(text)]
    found += [(m.start(), "g", m) for m in _GROUP.finditer(text)]
    found += [(m.start(), "p", m) for m in _PRODUCT.finditer(text)]
    generic: str | None = None
    current: GroupFact | None = None
    for _, kind, m in sorted(found, key=lambda t: t[0]):
        if kind == "h":
            generic, current = m.group("generic"), None
        elif kind == "g":
            current = None
            if generic is not None:
                current = GroupFact(
                    generic,
                    f"{generic} {m.group('group')}",
                    _WORD_STATUS[m.group("status")],
                    int(m.group("n")),
                    _price(m.group("low")),
                )
                groups[current.group] = current
        else:
            status = _WORD_STATUS[m.group("status")] if m.group("status") else (current.status if current else None)
            products[m.group("din")] = ProductFact(
                m.group("din"),
                m.group("name"),
                current.generic if current else None,
                current.group if current else None,
                status,
                _price(m.group("price")),
                _price(m.group("pays")),
            )
    return PassageFacts(products, groups)


def edition_from_title(title: str) -> tuple[str, str] | None:
    """(edition, formulary date) from a passage title, e.g. ('43', '2025-08-29')."""
    match = _TITLE.search(title)
    return (match.group(1), match.group(2)) if match else None
