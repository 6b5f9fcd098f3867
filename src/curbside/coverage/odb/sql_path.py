"""The SQL path of ``odb.get``: resolve the request against the formulary tables and fetch the facts.

Runs on a worker thread with the reader's per-thread connection, inside one
read transaction, so a load committing meanwhile cannot mix two editions in
one answer. ``Cancel.interrupt`` stops its query when the path times out.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

from curbside import drug_lexicon
from curbside.coverage.edition_cache import EditionCache
from curbside.coverage.odb.flags import benefit_status
from curbside.coverage.odb.pricing import lowest_cost
from curbside.coverage.odb.query import (
    NameIndex,
    Request,
    Resolution,
    norm,
    norm_strength,
    said_strength,
    same_strength,
    strength_apart,
    strength_as_written,
)
from curbside.coverage.odb.store import DrugRow, EditionRecord, LuNoteRow, OdbReader
from curbside.coverage.odb.unlisted import class_of, missing_combination, missing_drugs, unlisted_names
from curbside.coverage.odb.words import CLASS_NAMES
from curbside.coverage.reader import Cancel

MAX_CLASS_NAMES = 6  # listed products named beside an unlisted drug of their class

__all__ = ["NameIndexCache", "SqlFindings", "run_sql_path"]


@dataclass(slots=True)
class SqlFindings:
    edition: EditionRecord
    resolved_as: str = "none"  # din | brand | ingredient | class | none
    matched: str = ""
    fuzzy: bool = False
    primary: DrugRow | None = None
    matches: list[DrugRow] = field(default_factory=list)  # every product the request matched
    members: list[DrugRow] = field(default_factory=list)  # the primary's interchangeable group
    lu_notes: list[LuNoteRow] = field(default_factory=list)
    class_products: list[DrugRow] = field(default_factory=list)  # the primary's class, for alternatives
    problem: str | None = None  # why the request could not be answered as asked
    follow_up: str | None = None  # what a pharmacist would ask
    source_chunks: list[tuple[str, str, str, str, str, int]] = field(default_factory=list)

    @property
    def records(self) -> int:
        return len(self.matches)


class NameIndexCache:
    """The name index of the loaded edition, built once per edition and shared by worker threads."""

    def __init__(self) -> None:
        self._cache: EditionCache[NameIndex] = EditionCache()

    @property
    def empty(self) -> bool:
        return self._cache.empty

    def get(self, reader: OdbReader, edition: EditionRecord) -> NameIndex:
        return self._cache.get((edition.id, edition.loaded_at), lambda: NameIndex(reader.name_rows()))


def _describe(row: DrugRow) -> str:
    return " ".join(p for p in (row.strength, row.dosage_form) if p)


def _strength_ok(row: DrugRow, request: Request, *, per_unit: bool = False) -> bool:
    if request.strength and not same_strength(row.strength, request.strength, per_unit=per_unit, form=row.dosage_form):
        return False
    if not request.form:
        return True
    form = f" {norm(row.dosage_form or '')} "
    return any(f" {norm(spelling)} " in form for spelling in request.form.split("|"))


_PACK = re.compile(r"(?<![\d./])(\d+(?:\.\d+)?)\s?ml\b", re.I)  # '3 mL pen'; not the '/mL' of a concentration


def _said_of_something_else(request: Request, rows: list[DrugRow], matched: str) -> bool:
    """Whether the strength read from the question, which no product of the drug has, is not this drug's: a
    pack's volume ('the 2 mL kit' of a 200mg/mL & 300mg/mL Inj Sol-2mL Kit), or another drug's dose written
    before the name ('SL bup 16 mg … wants the monthly sublocade shot')."""
    question = request.question or ""
    if said_strength(question) != request.strength:
        return False  # the strength was given as an argument: it is the caller's, not read from words
    volume = re.fullmatch(r"(\d+(?:\.\d+)?)ml", request.strength or "")
    if volume and any(f"{volume.group(1)}ml" in norm_strength(r.dosage_form or "") for r in rows):
        return True
    return strength_apart(question, matched)


def _in_pack(rows: list[DrugRow], question: str | None) -> list[DrugRow]:
    """The rows whose pack holds the volume the question names ('the 3 mL pen' of a 1.5 mL and a 3 mL pack)."""
    sizes = {norm_strength(m.group(1)) for m in _PACK.finditer(question or "")}
    if not sizes:
        return rows
    chosen = [r for r in rows if any(f"{size}ml" in norm_strength(r.dosage_form or "") for size in sizes)]
    return chosen or rows


_PAIR = re.compile(r"(?<![\d./])(\d+(?:\.\d+)?)\s?/\s?(\d+(?:\.\d+)?)(?![\d.]|\s?m?l\b)", re.I)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _in_pair(rows: list[DrugRow], question: str | None) -> list[DrugRow]:
    """The rows whose two strengths round to a pair the question names: a combination is prescribed by
    its rounded marketed name ('Entresto 49/51' is listed as 48.6mg & 51.4mg)."""
    pairs = [(float(a), float(b)) for a, b in _PAIR.findall(question or "")]
    if not pairs:
        return rows

    def fits(row: DrugRow) -> bool:
        listed = [float(n) for n in _NUMBER.findall(row.strength or "")]
        return len(listed) == 2 and any(
            all(abs(x - y) <= 0.05 * max(x, y) for x, y in zip(pair, listed, strict=True)) for pair in pairs
        )

    chosen = [r for r in rows if fits(r)]
    return chosen or rows


# a number written right after the drug's name is its strength ('Brilinta 90 bid', 'Eliquis 5'), unless a unit
# of time, age or count follows it ('Januvia 3 months', 'Rexulti 2 tabs')
_DOSE_UNITS = r"(?:tabs?|tablets?|caps?|capsules?)"
_NOT_STRENGTH = (
    r"(?:yo|y|yrs?|years?|wks?|weeks?|days?|d|months?|mos?|h|hrs?|hours?|min|mins|minutes?|x|times|units?|u|iu|"
    r"tabs?|tablets?|caps?|capsules?|puffs?|pens?|boxes|packs?|sensors?|strips?|ml|l)"
)


def _by_bare_number(rows: list[DrugRow], question: str | None, matched: str) -> list[DrugRow]:
    """The rows whose strength is the unitless number written after the name ('Brilinta 90' is the 90mg Tab);
    every row when no such number is written or none of the rows has that strength."""
    if not question or not matched:
        return rows
    after = re.compile(rf"\b{re.escape(norm(matched))}\s+(\d+(?:\.\d+)?)(?![\d.])(?!\s*{_NOT_STRENGTH}\b)")
    numbers = {norm_strength(m.group(1)) for m in after.finditer(norm(question))}
    chosen = [r for r in rows if any(_first_number(r.strength) == n for n in numbers)]
    if not numbers:
        # 'amoxicillin 500 caps' is the 500mg capsule when one is listed, not a count of 500 ('apixaban 60 tabs')
        dosed = re.compile(rf"\b{re.escape(norm(matched))}\s+(\d+(?:\.\d+)?)\s*{_DOSE_UNITS}\b")
        said = {norm_strength(m.group(1)) for m in dosed.finditer(norm(question))}
        chosen = [r for r in rows if any(_first_number(r.strength) == n for n in said)]
    if not chosen:  # 'Advair Diskus 250' is the 50/250mcg inhaler: the number may be a pair's second
        chosen = [r for r in rows if numbers & _all_numbers(r.strength)]
    return chosen or rows


def _all_numbers(strength: str | None) -> set[str]:
    return {norm_strength(m.group(0)) for m in _NUMBER.finditer(strength or "")}


def _first_number(strength: str | None) -> str | None:
    match = _NUMBER.search(strength or "")
    return norm_strength(match.group(0)) if match else None


def _choose(rows: list[DrugRow], resolution: Resolution) -> DrugRow:
    """The product an answer is about: a brand as named (its first covered strength when its strengths differ
    in status: the summary then says each strength's status); for an ingredient, its group's covered lowest
    cost."""
    if resolution.kind == "brand":
        return next((r for r in rows if benefit_status(r.flags).covered), rows[0])
    # the first group (formulary order) with a covered member: 'metformin' is the covered tablet,
    # not an extended-release brand that happens to be listed first and is not a benefit
    for group_id in dict.fromkeys(r.pcg9_id for r in rows):
        group = [r for r in rows if r.pcg9_id == group_id]
        found = lowest_cost(group)
        if found is not None and found.among_covered:
            return next(r for r in group if r.din == found.dins[0])
    return rows[0]


def run_sql_path(reader: OdbReader, names: NameIndexCache, request: Request, cancel: Cancel) -> SqlFindings:
    """Resolve and fetch; raises NotFoundError when no edition is loaded (the caller records it)."""
    with reader.snapshot() as conn:
        cancel.attach(conn)
        edition = reader.edition()
        out = SqlFindings(edition)
        index = names.get(reader, edition)
        _resolve(reader, index, request, out)
        if out.primary is not None:
            out.members = reader.group(out.primary.pcg9_id)
            primary = out.primary = _of_maker_named(out.primary, out.members, request.question, index)
            out.lu_notes = reader.lu_notes(primary.lu_set)
            if request.check_alternatives or "alternatives" in request.checks:
                out.class_products = reader.in_class(primary.class_key)
            out.source_chunks = reader.source_chunks(f"DIN {primary.din}") or reader.source_chunks(
                f"{primary.generic_name}: ["
            )
        elif out.resolved_as == "class" and out.matches:
            out.class_products = out.matches
        return out


def _of_maker_named(primary: DrugRow, members: list[DrugRow], question: str | None, index: NameIndex) -> DrugRow:
    """The interchangeable product the question names, when it names another of the group's brands ("brand aclasta"
    is Aclasta, not the group's lowest cost Taro-Zoledronic Acid) or makers ("apo's generic diclectin" is
    Apo-Doxylamine/B6, DIN 02413248, not Diclectin, DIN 00609129; the makers are the name index's,
    ``NameIndex.by_maker``: 'apo', 'teva', never 'ran' of 'ran out of …')."""
    if not question:
        return primary
    lowered = f" {norm(question)} "
    for member in members:  # the brand itself named
        name = norm(member.name)
        generic = {w for w in norm(member.generic_name).split() if len(w) > 3}
        if (
            member.din != primary.din
            and not generic & set(name.split())
            and f" {name} " in lowered
            and name not in norm(primary.name)
        ):
            return member
    for word in lowered.split():
        dins = index.by_maker.get((word, primary.generic_key), set())
        if dins and primary.din not in dins:
            return next((m for m in members if m.din in dins), primary)
    return primary


def _not_listed(reader: OdbReader, index: NameIndex, names: list[str], label: str, out: SqlFindings) -> None:
    """'Wegovy is not listed': the name the question asks about is in no brand, generic or DIN of the edition."""
    said = " / ".join(names)
    out.problem = f"{said} is not listed in the {label}: no brand or generic name of the formulary is {said}."
    key = class_of(names)
    listed: list[str] = []
    if key is not None:
        rows = reader.by_generics(sorted(index.by_class(key).generic_keys))
        listed = sorted({r.name for r in rows if benefit_status(r.flags).covered})
    if listed:
        out.problem += f" Listed in its class ({CLASS_NAMES[key or '']}): {', '.join(listed[:MAX_CLASS_NAMES])}."
    for name in names:
        out.problem += _ingredient_listed(reader, index, name)
    out.follow_up = (
        "If the prescription names it otherwise, give its generic name or DIN; under this name it is not an ODB "
        "benefit in this edition."
    )


def _ingredient_listed(reader: OdbReader, index: NameIndex, name: str) -> str:
    """' Its ingredient, epinephrine, is listed as other products: Adrenalin 30mg/30mL Inj Sol-30mL Pk …': a brand
    the formulary lacks whose ingredient it lists (drug lexicon: EpiPen is epinephrine), said as other products,
    never as the brand asked about."""
    ingredient = drug_lexicon.ingredient_of(name)
    if not ingredient or norm(ingredient) == norm(name):
        return ""
    found = index.resolve(ingredient, fuzzy=False)
    if found.kind != "ingredient" or found.matched != norm(ingredient):
        return ""  # a combination's one part ('naltrexone' of Contrave's 'naltrexone and bupropion') is no match
    strengths: dict[str, list[str]] = {}
    for row in reader.by_generics(sorted(found.generic_keys)):
        if benefit_status(row.flags).covered:
            strengths.setdefault(row.name, []).append(_describe(row))
    if not strengths:
        return ""
    products = [f"{n} {', '.join(dict.fromkeys(s))}" for n, s in list(strengths.items())[:MAX_CLASS_NAMES]]
    return f" Its ingredient, {ingredient}, is listed as other products: {'; '.join(products)}; ask about the one prescribed."


def _resolve(reader: OdbReader, index: NameIndex, request: Request, out: SqlFindings) -> None:
    label = out.edition.label
    named = [_as_written(index.resolve(name, fuzzy=False), name) for name in request.names]
    if request.din and request.question and not request.names:  # 'is DIN 02388839 (Januvia) covered?'
        spoken = index.resolve(request.question.replace(request.din, " ").replace(request.din.lstrip("0"), " "))
        if spoken.kind in ("brand", "ingredient") and not spoken.fuzzy:
            named.append(spoken)
    if request.din:
        rows = reader.by_dins([request.din])
        if not rows:
            out.problem = f"DIN {request.din} is not in the {label}."
            out.follow_up = "Could you check the DIN on the package (8 digits) or tell me the drug's name and strength?"
            return
        row = rows[0]
        contradicted = [r for r in named if r.kind != "none" and not _names_product(r, row)]
        if contradicted:
            out.problem = (
                f"DIN {row.din} is {row.name} ({row.generic_name} {_describe(row)}), not {contradicted[0].matched!r}."
            )
            out.follow_up = (
                f"Did you mean {row.name} (DIN {row.din}) or {contradicted[0].matched}? Which one is prescribed?"
            )
            return
        if request.strength and not same_strength(row.strength, request.strength, per_unit=True, form=row.dosage_form):
            out.problem = f"DIN {row.din} is {row.name} {_describe(row)}, not {request.strength}."
            out.follow_up = f"Is the prescription for {row.name} {row.strength}, or another strength?"
            return
        out.resolved_as, out.matched, out.primary, out.matches = "din", row.din, row, rows
        return

    resolution = next((r for r in named if r.kind != "none"), None)
    if resolution is None and request.question:
        resolution = index.resolve(request.question, fuzzy=False)

    def resolves(name: str) -> bool:
        return index.resolve(name, fuzzy=False).kind != "none"

    if request.question and resolution is not None and resolution.kind != "none":
        combined = missing_combination(request.question, resolves, partial(_listed_as_one, index))
        if combined:  # 'qsymia (phentermine/topiramate)': the product asked is the pair, not topiramate alone
            _not_listed(reader, index, combined, label, out)
            out.problem = f"{out.problem} {resolution.matched.upper()} alone is listed: ask about it by name."
            return
    no_drug_asked = resolution is None or resolution.kind == "none" or resolution.history
    if no_drug_asked and request.question:
        # a drug the lexicon knows, named beside a class ('triptans aren't working, is Ubrelvy covered?') or
        # beside a drug the patient cannot take ('can't take terbinafine - jublia (efinaconazole)?'), is what
        # is asked; and not a close spelling of some listed name
        missing = missing_drugs(request.question, resolves)
        if missing:
            _not_listed(reader, index, missing, label, out)
            return
    if (resolution is None or resolution.kind == "none") and request.drug_class:
        resolution = index.by_class(request.drug_class)
    if resolution is None or resolution.kind == "none":  # last, a close spelling ('atorvastatine')
        resolution = index.resolve(" ".join(filter(None, (*request.names, request.question))))
    if resolution.kind == "none":
        names = unlisted_names(" ".join(filter(None, (*request.names, request.question))))
        if names:
            _not_listed(reader, index, names, label, out)
            return
        asked = ", ".join(request.names) or request.question or "the request"
        out.problem = f"No drug in the {label} matches {asked!r}."
        out.follow_up = (
            "Which drug do you mean? Please give its brand or generic name (or the DIN) as on the prescription."
        )
        return
    out.resolved_as, out.matched, out.fuzzy = resolution.kind, resolution.matched, resolution.fuzzy
    rows = (
        reader.by_dins(sorted(resolution.dins))
        if resolution.kind == "brand"
        else reader.by_generics(sorted(resolution.generic_keys))
    )
    if resolution.kind == "class":
        out.matches = [r for r in rows if benefit_status(r.flags).covered]
        if not out.matches:  # every triptan is an Exceptional Access product: say so, not an empty list
            labels = Counter(benefit_status(r.flags).label for r in rows)
            listed = "; ".join(f"{n} ({label})" for label, n in labels.most_common()) or "none"
            out.problem = f"No {resolution.matched} drug is covered on the {label}. Its products listed: {listed}."
        out.follow_up = (
            "Which drug and strength? Unit prices differ by drug and strength, so the cheapest covered option "
            "depends on the dose prescribed."
        )
        return
    # the strength as listed; else a bare mass asked of a strength listed per vial, patch hour or syringe
    fitting = [r for r in rows if _strength_ok(r, request)] or [
        r for r in rows if _strength_ok(r, request, per_unit=True)
    ]
    if request.strength:  # '320mg/2mL' as listed, before '160mg/mL', the same concentration in another pack
        fitting = [r for r in fitting if strength_as_written(r.strength, request.strength)] or fitting
    if not fitting and request.strength and _said_of_something_else(request, rows, resolution.matched):
        request = dataclasses.replace(request, strength=None)
        fitting = [r for r in rows if _strength_ok(r, request)]
    if not request.strength:
        fitting = _by_bare_number(fitting, request.question, resolution.matched)
    if not fitting:
        offered = list(dict.fromkeys(_describe(r) for r in rows))  # formulary order
        out.matches = rows
        asked = request.strength or (request.form or "").split("|")[0]
        out.problem = f"{resolution.matched!r} is listed in the {label} as {', '.join(offered)}; not as {asked}."
        out.follow_up = f"Which of these is prescribed: {', '.join(offered)}?"
        return
    out.matches = fitting
    out.primary = _choose(_in_pair(_in_pack(fitting, request.question), request.question), resolution)
    groups = list(dict.fromkeys(_describe(r) for r in fitting))
    if len(groups) > 1 and not request.strength:
        asked = out.primary.name if resolution.kind == "brand" else out.primary.generic_name
        out.follow_up = (
            f"Which strength and form? {asked} is listed as {', '.join(groups)}; "
            f"this answer is for {_describe(out.primary)}."
        )


def _listed_as_one(index: NameIndex, first: str, second: str) -> bool:
    """Whether the index names the pair as one product ('sacubitril valsartan'), not only each alone."""
    for pair in (f"{first} {second}", f"{second} {first}"):  # 'metformin/sitagliptin' is SITAGLIPTIN & METFORMIN
        found = index.resolve(pair, fuzzy=False)
        if found.kind != "none" and len(found.matched.split()) > 1:
            return True
    return False


def _as_written(resolution: Resolution, name: str) -> Resolution:
    if resolution.kind != "none":
        resolution.matched = name
    return resolution


def _names_product(resolution: Resolution, row: DrugRow) -> bool:
    return row.din in resolution.dins or row.generic_key in resolution.generic_keys
