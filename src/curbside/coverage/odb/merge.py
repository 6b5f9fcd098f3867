"""Turn what the two paths found into one ``OdbGetResult``.

The SQL path decides the facts whenever it answered; the search path adds
corroboration (confidence), citations and context, and is checked against
the tables (conflicts). When SQL failed, ``fallback.answer_from_passages``
answers from the passages' own items instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from curbside import drug_lexicon
from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.conflicts import Conflict, FieldComparison, detect
from curbside.coverage.odb import pricing
from curbside.coverage.odb.fallback import answer_from_passages
from curbside.coverage.odb.flags import benefit_status, describe_flags
from curbside.coverage.odb.limited_use import group_notes
from curbside.coverage.odb.lu_details import asked_details
from curbside.coverage.odb.passages import printed_price
from curbside.coverage.odb.pricing import lowest_cost, savings
from curbside.coverage.odb.query import Request, norm
from curbside.coverage.odb.search_path import SearchFindings
from curbside.coverage.odb.sql_path import SqlFindings
from curbside.coverage.odb.store import DrugRow
from curbside.coverage.odb.tool import (
    Alternative,
    DrugCoverage,
    FormularyEdition,
    InterchangeableMember,
    LowestCost,
    LuCriterion,
    MatchedProduct,
    OdbGetResult,
)
from curbside.coverage.odb.words import CLASS_ALIASES, KEYWORDS
from curbside.coverage.passages import snippet
from curbside.coverage.paths import PathTrace, path_warnings
from curbside.types import Citation, Passage

__all__ = ["merge"]

MAX_CITATIONS = 3
MAX_LU_SAID = 3  # Reason for Use codes whose criterion the summary states
LU_CHARS = 320  # of a criterion's first paragraph in the summary (the full text is in lu_criteria)


def _describe(row: DrugRow) -> str:
    return " ".join(p for p in (row.strength, row.dosage_form) if p)


def merge(
    request: Request, sql: SqlFindings | None, found: SearchFindings | None, trace: list[PathTrace]
) -> OdbGetResult:
    warnings = path_warnings(trace)
    if sql is not None:
        return _from_sql(request, sql, found, trace, warnings)
    return answer_from_passages(request, found, trace, warnings)


# --- SQL answered ---------------------------------------------------------------------------------


def _edition(sql: SqlFindings) -> FormularyEdition:
    e = sql.edition
    return FormularyEdition(
        edition=e.edition, edition_code=e.edition_code, formulary_date=e.formulary_date, label=e.label
    )


def _from_sql(
    request: Request, sql: SqlFindings, found: SearchFindings | None, trace: list[PathTrace], warnings: list[str]
) -> OdbGetResult:
    formulary = _edition(sql)
    label = formulary.label
    result = OdbGetResult(
        query=request.question or request.text,
        summary="",
        provenance=["sql"],
        confidence=0.0,
        formulary=formulary,
        resolved_as=sql.resolved_as if sql.resolved_as in ("din", "brand", "ingredient", "class") else "none",
        trace=trace,
        warnings=warnings,
        follow_up=sql.follow_up,
    )
    if sql.fuzzy:
        result.warnings.append(f"Read the drug name as a close spelling: {sql.matched}.")
    if sql.primary is None:
        if sql.resolved_as == "class" and sql.matches:
            result.alternatives = _alternatives(sql.matches, request, exclude_generic=None)
            names = ", ".join(sorted({a.generic_name for a in result.alternatives}))
            result.summary = f"Covered {sql.matched} drugs on the {label} include {names}. {sql.follow_up}"
        else:
            result.summary = f"{sql.problem} {sql.follow_up}".strip()
        result.needs_more_info = True
        result.matches = _matched(sql.matches, request)
        return result

    primary = sql.primary
    status = benefit_status(primary.flags)
    result.coverage = _coverage(primary)
    result.matches = _matched(sql.matches, request)
    members = sql.members
    lowest = lowest_cost(members)
    shown = members if request.include_brand or lowest is None else [m for m in members if m.din in lowest.dins]
    result.interchangeable = [_member(m, lowest) for m in shown]
    if lowest is not None:
        first = next(m for m in members if m.din == lowest.dins[0])
        result.lowest_cost = LowestCost(
            din=first.din,
            brand=first.name,
            price=lowest.price,
            savings=savings(primary.individual_price, lowest.price),
            tied_dins=list(lowest.dins),
            covered=lowest.among_covered,
        )
    if "lu_criteria" in request.checks or "documentation" in request.checks or status.code == "limited_use":
        result.lu_criteria = _lu(sql, request)
        if result.coverage is not None and status.code == "limited_use":
            result.coverage.lu_criteria = "\n\n".join(c.text for c in result.lu_criteria) or None
    not_covered = status.covered is not True and request.check_alternatives
    if not_covered or "alternatives" in request.checks:
        result.alternatives = _alternatives(sql.class_products, request, exclude_generic=primary.generic_key)

    # --- the search path: corroboration, citations, conflicts --------------------------------
    supporting = _supporting(found, primary) if found is not None else []
    if supporting:
        result.provenance.append("vector")
    result.conflicts = _conflicts(sql, found, supporting)
    result.citations = _citations(supporting, sql, primary, label)
    result.context = [snippet(p.text) for p in supporting[:MAX_CITATIONS]]
    result.confidence = confidence(
        ConfidenceInputs(
            sql_hit=True, passages=len(supporting), sql_records=sql.records, conflicts=len(result.conflicts)
        )
    )
    if result.conflicts:
        result.warnings.append(
            f"{len(result.conflicts)} fact(s) in the indexed passages disagree with the formulary tables; "
            "the tables are used (see conflicts)."
        )
    other_strengths = _other_strengths(sql.matches, primary)
    if other_strengths and not request.strength:
        # the verdict holds for one strength only and the question did not say which
        result.confidence = min(result.confidence, MIXED_STRENGTHS_CONFIDENCE)
    result.summary = _summary(primary, status.code, result, label, other_strengths, _brands_asked(request, sql))
    return result


_BRAND = re.compile(r"\bbrand(?:s|ed)?\b", re.IGNORECASE)


def _brands_asked(request: Request, sql: SqlFindings) -> str | None:
    """When the question asks for the brand ('is dienogest on ODB? brand + LU code pls') and the answer's product
    is a generic, the group's products named without the ingredient's name: the originator ('Visanne'), with
    its price, which the ministry may pay only in part."""
    primary = sql.primary
    if primary is None or not _BRAND.search(request.question or ""):
        return None
    ingredient = norm(primary.generic_name or "").split()[:1]
    if not ingredient or ingredient[0] not in norm(primary.name).split():
        return None  # the answer's product is itself named as a brand
    brands = [m for m in sql.members if ingredient[0] not in norm(m.name).split()]
    if not brands:
        return None
    said = "; ".join(
        f"{m.name} (DIN {m.din}) at {printed_price(m.individual_price)} per unit, the ministry pays "
        f"{printed_price(m.amount_mohltc_pays)}"
        for m in brands[:MAX_OTHER_STRENGTHS]
    )
    return f"Brand in its group: {said}."


MIXED_STRENGTHS_CONFIDENCE = 0.85
MAX_OTHER_STRENGTHS = 4


def _other_strengths(rows: list[DrugRow], primary: DrugRow) -> list[str]:
    """'Brilinta 60mg Tab (DIN 02455005) is not a benefit': each other strength or form the request matched whose
    status differs from the answer's product (a strength counts as covered when any of its products is)."""
    chosen = benefit_status(primary.flags).code
    by_strength: dict[str, list[DrugRow]] = {}
    for row in rows:
        if _describe(row) != _describe(primary):
            by_strength.setdefault(_describe(row), []).append(row)
    said = []
    for described, members in by_strength.items():
        best = next((r for r in members if benefit_status(r.flags).covered), members[0])
        status = benefit_status(best.flags)
        if status.code != chosen:
            said.append(f"{best.name} {described} (DIN {best.din}) {_VERDICT[status.code]}")
    return said[:MAX_OTHER_STRENGTHS]


_MAXIMUM = re.compile(r"[^.]*\bmaximum\b[^.]*\d[^.]*\.", re.IGNORECASE)


def _maximum(notes: list[str]) -> str | None:
    """The formulary note's sentence that caps a quantity ('a maximum reimbursed quantity of 33 sensors over the
    course of a 365-day period'), from the product, group or ingredient note."""
    for note in notes:
        found = _MAXIMUM.search(note)
        if found:
            return " ".join(found.group(0).split())
    return None


def _coverage(row: DrugRow) -> DrugCoverage:
    status = benefit_status(row.flags)
    notes = list(dict.fromkeys(n for n in (row.note, row.group_note, row.generic_note) if n))
    return DrugCoverage(
        covered=status.covered,
        status=status.code,
        status_text=status.label,
        status_basis=status.basis,
        din=row.din,
        brand_name=row.name,
        generic_name=row.generic_name,
        strength=row.strength,
        dosage_form=row.dosage_form,
        manufacturer=row.manufacturer,
        unit_price=row.individual_price,
        amount_mohltc_pays=row.amount_mohltc_pays,
        listing_date=row.listing_date,
        interchangeable_group=row.pcg9_id,
        therapeutic_class=row.pcg2_name,
        therapeutic_subclass=row.pcg6_name,
        lu_required=status.code == "limited_use",
        notes=notes,
        flags=describe_flags({**row.flags, **row.group_attrs}),
    )


def _matched(rows: list[DrugRow], request: Request) -> list[MatchedProduct]:
    limit = 50 if "all_strengths" in request.checks else request.top_k
    out: list[MatchedProduct] = []
    seen: set[str] = set()
    for row in rows:
        if row.pcg9_id in seen and len(rows) > limit:
            continue  # one product per group when there are many
        seen.add(row.pcg9_id)
        status = benefit_status(row.flags)
        out.append(
            MatchedProduct(
                din=row.din,
                brand_name=row.name,
                generic_name=row.generic_name,
                strength=row.strength,
                dosage_form=row.dosage_form,
                status=status.code,
                covered=status.covered,
            )
        )
        if len(out) >= limit:
            break
    return out


def _unclassified(row: DrugRow) -> bool:
    return row.pcg2_name.upper().startswith("UNCLASSIFIED")


def _member(row: DrugRow, lowest: pricing.LowestCost | None) -> InterchangeableMember:
    status = benefit_status(row.flags)
    at_lowest = lowest is not None and lowest.among_covered and row.din in lowest.dins
    return InterchangeableMember(
        din=row.din,
        brand=row.name,
        manufacturer=row.manufacturer,
        price=row.individual_price,
        amount_mohltc_pays=row.amount_mohltc_pays,
        covered=status.covered,
        status=status.code,
        lowest_cost=at_lowest,
    )


# what happened with an earlier drug, in a clinician's words and in a criterion's: "propranolol made her dizzy so
# she stopped" is flunarizine's LU 61 "… tried propranolol and experienced significant adverse effects", not LU 60
# "… have not responded to propranolol", though only LU 60 says 'migraine'
_SITUATIONS = (
    (  # could not tolerate it
        re.compile(
            r"\bside[- ]?effects?\b|\bs/?es?\b|\bmade (?:him|her|them|me) \w+|\b(?:couldn'?t|can'?t|could not|cannot) "
            r"(?:tolerate|stand)\b|\bintoleran\w*|\bnot tolerat\w*|\badverse\b",
            re.I,
        ),
        re.compile(
            r"\badverse (?:effects?|events?|reactions?)\b|\bintoleran\w*|\bside effects?\b|\bnot tolerat\w*", re.I
        ),
    ),
    (  # it did not work
        re.compile(
            r"\b(?:didn'?t|did not|doesn'?t|does not) (?:work|help|respond)\b|\bno (?:response|benefit|improvement)\b"
            r"|\bnot respond\w*|\bnon-?respon\w*|\bnot (?:at|to|reaching) (?:target|goal)\b",  # 'IOP still not at target'
            re.I,
        ),
        re.compile(
            r"\bnot responded\b|\bnon-?respon\w*|\binadequate (?:\w+ ){0,3}response\b|\bunresponsive\b"
            r"|\bnot have an adequate\b",  # Simbrinza LU 466: "… do not have an adequate intraocular pressure lowering …"
            re.I,
        ),
    ),
)


def _by_situation(question: str, texts: list[str]) -> list[bool] | None:
    """Which criteria say what the question says happened with an earlier drug, when some do and others do not."""
    for asked, said in _SITUATIONS:
        if asked.search(question):
            says = [bool(said.search(text)) for text in texts]
            if 0 < sum(says) < len(says):
                return says
    return None


# a criterion for renewing or continuing therapy (Glatect's LU 537 "Renewal of therapy for patients diagnosed with
# RRMS or a single demyelinating event …") answers only a question about renewing it; an initial one only a question
# that does not ask that
_RENEWAL = re.compile(r"^\W*(?:renewal|continuation|continued therapy)\b", re.I)
_INITIAL = re.compile(r"^\W*initial\b", re.I)
_ASKS_RENEWAL = re.compile(
    r"\b(?:renew\w*|continu\w*|re-?authori[sz]\w*|extend\w*|already on|still on|been on|another year)\b", re.I
)


def _of_stage(question: str, purposes: list[str]) -> list[bool]:
    """Which criteria are of the stage of therapy the question asks about (all, when none is of another)."""
    other = _INITIAL if _ASKS_RENEWAL.search(question) else _RENEWAL
    return [not other.match(p) for p in purposes]


def _lu(sql: SqlFindings, request: Request) -> list[LuCriterion]:
    named = set(norm(f"{sql.primary.name} {sql.primary.generic_name}").split()) if sql.primary else set()
    groups = group_notes(sql.lu_notes)
    full = [group.full_text() for group in groups]
    texts = [f"{group.heading or ''} {text}".lower() for group, text in zip(groups, full, strict=True)]
    purposes = [
        f"{group.heading or ''} {_first_paragraph(text)}".lower() for group, text in zip(groups, full, strict=True)
    ]
    says: Callable[[str, str], bool] = _says
    words: set[str] = set()
    if request.condition:
        says = str.__contains__  # the condition's words anywhere ('arthritis' in 'osteoarthritis')
        words = {_ORDINALS.get(w, w) for w in norm(request.condition).split()}
        words = {w for w in words if len(w) > 3 and w not in named}
        words |= {phrase for abbr in _capitals(request.condition) if (phrase := _spelled_out(abbr, purposes))}
    # a word of the question that some criteria say and others do not tells them apart ('palliative pt …
    # ondansetron ODT … LU code?': the palliative-care criterion, not the chemotherapy ones)
    asked = _question_words(request.question or "", named, purposes)
    telling_asked = {w for w in asked if 0 < sum(_says(t, w) for t in texts) < len(texts)}
    said = any(says(t, w) for t in texts for w in words)
    tells = any(0 < sum(says(t, w) for t in group) < len(group) for w in words for group in (purposes, texts))
    if not said or (not tells and telling_asked):
        # no condition stated, one no criterion says, or one every criterion says where the question's other
        # words tell them apart ('… ondansetron ODT LU code for my patient?')
        says, words = _says, telling_asked
    # the criteria whose purpose (heading and first paragraph) says the most of the words some purposes say and
    # others do not: 'recurrence' is in the first- and the later-recurrence criteria, 'first' ('1st') only in one;
    # with no such word, any word anywhere in a criterion (its later conditions tell less: 'failed' is in many)
    # a note before any code is said of all of them ('For the treatment or prophylaxis of institutionalized
    # individuals …' above Relenza's LU 414 and 415): it tells no criterion apart
    stage = [
        ok and g.code is not None for ok, g in zip(_of_stage(request.question or "", purposes), groups, strict=True)
    ]
    staged = [p for p, ok in zip(purposes, stage, strict=True) if ok]
    telling = {w for w in words if 0 < sum(says(p, w) for p in staged) < len(staged)}
    counts = [sum(says(p, w) for w in telling) if ok else 0 for p, ok in zip(purposes, stage, strict=True)]
    most = max(counts, default=0)
    matches = [
        0 < count == most if telling else any(says(lowered, w) for w in words)
        for count, lowered in zip(counts, texts, strict=True)
    ]
    matches = _by_situation(request.question or "", texts) or matches
    matches = [m and ok for m, ok in zip(matches, stage, strict=True)]
    items = []
    for group, text, match in zip(groups, full, matches, strict=True):
        items.append(
            LuCriterion(
                reason_for_use_code=group.code,
                indication=group.heading,
                text=text,
                authorization_period=group.authorization_period,
                note_types=[t for t, _ in group.notes if t],
                matches_condition=match,
            )
        )
    return sorted(items, key=lambda c: not c.matches_condition)  # stable: formulary order otherwise


# 'can't tolerate' reads as 'can t tolerate': the word after these means its opposite ('intolerant'), so it is
# not matched as written ('maximally tolerated doses' is the other criterion)
_NEGATORS = frozenset({"not", "t", "cannot", "never", "no", "unable", "without"})


_ORDINALS = {"1st": "first", "2nd": "second", "3rd": "third"}


def _negated(words: list[str], k: int) -> bool:
    return any(w in _NEGATORS for w in words[max(0, k - 2) : k])


def _capitals(question: str) -> list[str]:
    """Words the question writes in capitals, 3-6 letters: the initialisms a clerk types ('PBC pt')."""
    return re.findall(r"\b[A-Z]{3,6}\b", question)


def _spelled_out(abbr: str, texts: list[str]) -> str | None:
    """The words of a criterion's purpose (lower case) whose initials spell ``abbr``: 'PBC' is 'primary biliary cirrhosis'
    where a criterion says so, and no criterion says 'primary sclerosing cholangitis' for it. The formulary
    does not define the initialisms clerks use, so they are read from the criteria's own words."""
    n = len(abbr)
    for text in texts:
        words = re.findall(r"[a-z][a-z'-]*", text)
        for k in range(len(words) - n + 1):
            run = words[k : k + n]
            if "".join(w[0] for w in run) == abbr.lower() and all(len(w) > 2 for w in run):
                return " ".join(run)
    return None


def _question_words(question: str, named: set[str], purposes: list[str]) -> set[str]:
    """The question's words that may tell criteria apart: not the drug's names, nor a drug class it names ('can't
    tolerate any statin' is history, and criteria name classes each their own way: 'statin' in one,
    'HMG-CoA reductase inhibitors' in the next). A word the question negates is kept as '!word': it matches
    only a criterion that negates it too ('LDL still not at target' is the criterion for patients who 'have not
    reached target LDL levels'; 'can't tolerate' is not 'maximally tolerated doses')."""
    said = [_ORDINALS.get(w, w) for w in norm(question).split()]
    asked = {
        f"!{w}" if _negated(said, k) else w
        for k, w in enumerate(said)
        if len(w) > 4 and w not in named and not CLASS_ALIASES.get(w)
    }
    asked |= {phrase for abbr in _capitals(question) if (phrase := _spelled_out(abbr, purposes))}
    # a brand the question names is its ingredient in the criteria: 'tylenol 1g qid didn't cut it' is the
    # criterion for patients who 'failed an adequate trial of acetaminophen'
    asked |= {
        ingredient
        for w in said
        if (ingredient := drug_lexicon.ingredient_of(w)) and ingredient != w and ingredient not in named
    }
    return asked


_NEGATED_IN_TEXT = r"\b(?:not|no|never|without|cannot|unable to)\b(?:\s+\S+){0,2}\s+"


def _says(text: str, word: str) -> bool:
    """Whether ``text`` (lower case) holds ``word`` as a word or a word's start ('palliative' in 'palliative care');
    '!word' (negated in the question) only where the text negates it within the three words before."""
    if word.startswith("!"):
        return re.search(rf"{_NEGATED_IN_TEXT}{re.escape(word[1:])}", text) is not None
    return re.search(rf"\b{re.escape(word)}", text) is not None


def _alternatives(rows: list[DrugRow], request: Request, exclude_generic: int | None) -> list[Alternative]:
    """Per other ingredient of the class, its first group's covered lowest-cost product."""
    out: list[Alternative] = []
    seen: set[int] = set()
    by_group: dict[str, list[DrugRow]] = {}
    for row in rows:
        by_group.setdefault(row.pcg9_id, []).append(row)
    for members in by_group.values():
        generic = members[0].generic_key
        if generic == exclude_generic or generic in seen:
            continue
        found = lowest_cost(members)
        if found is None or not found.among_covered:
            continue
        row = next(m for m in members if m.din == found.dins[0])
        status = benefit_status(row.flags)
        if request.exclude_lu and status.code == "limited_use":
            continue
        seen.add(generic)
        out.append(
            Alternative(
                din=row.din,
                brand=row.name,
                generic_name=row.generic_name,
                strength=row.strength,
                dosage_form=row.dosage_form,
                price=row.individual_price,
                status=status.code,
                lu_required=status.code == "limited_use",
            )
        )
        if len(out) >= request.top_k:
            break
    return out


def _supporting(found: SearchFindings, primary: DrugRow) -> list[Passage]:
    """Passages that speak of the answer's drug: its DIN, or its ingredient's items or LU text."""
    return [p for p in found.passages if any(m in p.text for m in _marks(primary))]


def _marks(row: DrugRow) -> tuple[str, ...]:
    """Strings only a passage about this product or its ingredient contains (block heads start a paragraph)."""
    g = row.generic_name
    return (f"DIN {row.din}", f"\n\n{g}: [", f"for {g}, Reason", f"for {g}, type", f"Note on {g}:", f"note on {g} (")


def _conflicts(sql: SqlFindings, found: SearchFindings | None, supporting: list[Passage]) -> list[Conflict]:
    if found is None:
        return []
    comparisons: list[FieldComparison] = []
    edition = (sql.edition.edition, sql.edition.formulary_date)
    for passage in supporting:
        stated = found.editions.get(passage.chunk_id)
        if stated is not None:
            comparisons.append(
                FieldComparison(
                    field="edition",
                    subject="formulary",
                    sql_value=" ".join(edition),
                    vector_value=" ".join(stated),
                    chunk_id=passage.chunk_id,
                )
            )
        facts = found.facts.get(passage.chunk_id)
        if facts is None:
            continue
        for member in sql.members:
            fact = facts.products.get(member.din)
            if fact is None:
                continue
            subject = f"DIN {member.din}"
            status = benefit_status(member.flags).code
            comparisons += [
                FieldComparison(
                    field="coverage",
                    subject=subject,
                    sql_value=status,
                    vector_value=fact.status,
                    chunk_id=passage.chunk_id,
                ),
                FieldComparison(
                    field="unit_price",
                    subject=subject,
                    sql_value=member.individual_price,
                    vector_value=fact.unit_price,
                    chunk_id=passage.chunk_id,
                ),
                FieldComparison(
                    field="amount_mohltc_pays",
                    subject=subject,
                    sql_value=member.amount_mohltc_pays,
                    vector_value=fact.amount_mohltc_pays,
                    chunk_id=passage.chunk_id,
                ),
            ]
        primary = sql.primary
        assert primary is not None
        group_name = f"{primary.generic_name} {_describe(primary)}".strip()
        group = facts.groups.get(group_name)
        lowest = lowest_cost(sql.members)
        if group is not None and lowest is not None and lowest.among_covered:
            comparisons.append(
                FieldComparison(
                    field="lowest_cost",
                    subject=group_name,
                    sql_value=lowest.price,
                    vector_value=group.lowest_cost,
                    chunk_id=passage.chunk_id,
                )
            )
    return detect(comparisons)


def _excerpt(passage: Passage, primary: DrugRow | None) -> str:
    """The item about the drug (its product item, else its group item) when the passage has one."""
    text = passage.text
    if primary is not None:
        at = text.find(f"DIN {primary.din}")
        if at >= 0:
            start, end = text.rfind("[", 0, at), text.find("]", at)
            return " ".join(text[start : end + 1].split())
        head = text.find(f"\n\n{primary.generic_name}: [")
        if head >= 0:
            item = text.find(f"[{_describe(primary)}:", head)
            start = item if item >= 0 else head + 2
            end = text.find("]", start)
            prefix = f"{primary.generic_name}: " if item >= 0 else ""
            return prefix + " ".join(text[start : end + 1].split())
    return passage.excerpt()


def _citations(supporting: list[Passage], sql: SqlFindings, primary: DrugRow, label: str) -> list[Citation]:
    passages = supporting[:MAX_CITATIONS]
    if not passages:  # the search missed it: cite the stored passage that holds the drug
        passages = [
            Passage(
                chunk_id=c[0],
                doc_key=c[1],
                title=c[2],
                section_path=c[3],
                text=c[4],
                version=c[5],
                score=0.0,
                namespace="odb",
            )
            for c in sql.source_chunks[:1]
        ]
    return [Citation.from_passage(i, p, _excerpt(p, primary)) for i, p in enumerate(passages, start=1)]


_CRITERIA = dict(KEYWORDS)["lu_criteria"]


def _asks_criteria(question: str) -> bool:
    return bool(_CRITERIA.search(question))


def _lu_parts(result: OdbGetResult, subject: str) -> list[str]:
    """The Limited Use sentences of a result: codes and criteria, the details the question asks, the period."""
    coded = [c for c in result.lu_criteria if c.reason_for_use_code]
    some_match = any(c.matches_condition for c in coded) and not all(c.matches_condition for c in coded)
    parts = _lu_sentences(result.lu_criteria, coded, some_match, subject)
    shown = [c for c in coded if c.matches_condition] if some_match else coded
    parts.extend(asked_details(result.query, shown[:MAX_LU_SAID]))
    periods = list(dict.fromkeys(c.authorization_period for c in result.lu_criteria if c.authorization_period))
    if periods:
        parts.append(f"LU authorization period: {', '.join(periods)}.")
    return parts


def _lu_sentences(
    criteria: list[LuCriterion], coded: list[LuCriterion], some_match: bool, subject: str = "It is"
) -> list[str]:
    """The Limited Use codes and what each criterion covers. When the question matches some criteria and not
    others, only the matching codes are given as codes: a clerk copies the number written in the answer, and
    the other criteria's numbers (institutional outbreaks when the patient lives at home) would be billed
    wrongly; their purpose is still said, and every code stays in the result's lu_criteria."""
    shown = [c for c in coded if c.matches_condition] if some_match else coded
    codes = sorted({c.reason_for_use_code for c in (shown if some_match else criteria) if c.reason_for_use_code})
    which = "for the situation the question describes" if some_match else ""
    parts = [
        f"{subject} covered only when the Limited Use criteria are met and the Reason for Use code "
        f"({', '.join(codes) or 'see the criteria'}) {which + ' ' if which else ''}is on the prescription."
    ]
    for criterion in shown[:MAX_LU_SAID]:
        # the criterion's first paragraph says for whom ('established on Prolia … prior to November 29, 2024')
        mark = " (matches the question)" if some_match else ""
        parts.append(f"LU {criterion.reason_for_use_code}{mark}: {_first_paragraph(criterion.text)}")
    others = [c for c in coded if not c.matches_condition] if some_match else []
    if others:
        said = "; ".join(_purpose(c.text) for c in others[:MAX_LU_SAID])
        parts.append(f"Its other Limited Use criteria ({len(others)}) are for other situations: {said}.")
    return parts


def _purpose(text: str) -> str:
    """A criterion's first paragraph without its opening 'For': 'the treatment of emesis in cancer patients …'."""
    first = _first_paragraph(text)
    first = first[4:] if first.startswith("For ") else first
    return first.rstrip(".:")


def _first_paragraph(text: str) -> str:
    """A criterion's first paragraph, cut at a word past LU_CHARS characters."""
    first = " ".join(text.strip().split("\n\n", 1)[0].split())
    if len(first) > LU_CHARS:
        first = first[:LU_CHARS].rsplit(" ", 1)[0] + " …"
    return first if first.endswith((".", "…", ":")) else first + "."


_VERDICT = {
    "general_benefit": "is a general benefit",
    "limited_use": "is a Limited Use benefit",
    "additional_benefit": "is an additional benefit (Part IX)",
    "not_a_benefit": "is not a benefit",
    "exceptional_access_only": "is not a formulary benefit; it is funded only with an Exceptional Access Program approval",
    "off_formulary_interchangeable": "is not a benefit (Off-Formulary Interchangeable listing)",
    "undetermined": "carries no flag whose meaning is documented here, so its coverage is not stated",
}


def _summary(
    row: DrugRow, code: str, result: OdbGetResult, label: str, other_strengths: list[str], brands: str | None = None
) -> str:
    what = f"{row.name} ({' '.join(filter(None, (row.generic_name, _describe(row))))}, DIN {row.din})"
    parts = [f"{what} {_VERDICT[code]} on the {label}."]
    if other_strengths:
        parts.append(f"Other strengths differ: {'; '.join(other_strengths)}.")
    maximum = _maximum(result.coverage.notes) if result.coverage is not None else None
    if maximum:
        parts.append(f"Formulary note: {maximum}")
    if code == "limited_use":
        parts.extend(_lu_parts(result, "It is"))
    elif result.coverage is not None and result.coverage.notes and not maximum and _asks_criteria(result.query):
        # no Limited Use criteria, but the formulary's note says for whom it is listed ('… inadequately
        # controlled on basal insulin (less than 60 units daily) in combination with metformin')
        parts.append(f"Formulary note: {' '.join(result.coverage.notes[0].split())}")
    if row.individual_price is not None or row.amount_mohltc_pays is not None:
        parts.append(
            f"Unit price {printed_price(row.individual_price)}; the ministry pays {printed_price(row.amount_mohltc_pays)} per unit."
        )
    others = [m for m in result.interchangeable if m.din != row.din]
    low = result.lowest_cost
    if others:
        parts.append(f"{len(others)} other interchangeable product(s) in its group.")
    if low is not None and low.covered and low.din != row.din and low.savings:
        tied = f" ({len(low.tied_dins)} products at that price)" if len(low.tied_dins) > 1 else ""
        parts.append(
            f"Lowest cost: {low.brand} (DIN {low.din}) at {printed_price(low.price)} per unit{tied}, "
            f"saving {printed_price(low.savings)} per unit."
        )
    elif low is not None and low.covered and row.din in low.tied_dins and others:
        parts.append(f"It is at the group's lowest cost ({printed_price(low.price)} per unit).")
    covered_others = [m for m in others if m.covered]
    if result.coverage is not None and result.coverage.covered is not True and covered_others:
        # the same ingredient and strength, covered: the alternative a pharmacist substitutes
        names = ", ".join(f"{m.brand} (DIN {m.din})" for m in covered_others[:3])
        parts.append(f"Covered interchangeable products in its group: {names}.")
        if all(m.status == "limited_use" for m in covered_others):
            # the brand is not a benefit, its generics are Limited Use ones: their code is what the clerk needs
            parts.extend(_lu_parts(result, "They are"))
    # 'unclassified therapeutic agents' is no therapeutic class: its members are no alternatives
    elif result.coverage is not None and result.coverage.covered is not True and not _unclassified(row):
        if result.alternatives:
            names = ", ".join(f"{a.generic_name.lower()} ({a.brand})" for a in result.alternatives)
            parts.append(f"Covered alternatives in its class: {names}.")
        else:
            parts.append("No other ingredient in its class is covered.")
    if brands:
        parts.append(brands)
    if result.citations:
        parts.append(f"[{result.citations[0].n}]")
    return " ".join(parts)
