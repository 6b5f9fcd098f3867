"""Turn what the two paths found into one ``ScheduleGetResult``.

The SQL path decides codes, fees and rules whenever it answered; the search
path adds corroboration (confidence), citations and context, and is checked
against the tables (conflicts: a passage's listing line stating another fee, a
passage from another edition). When SQL failed, ``fallback`` answers from the
passages' own listing lines.
"""

from __future__ import annotations

import re

from curbside.coverage.confidence import ConfidenceInputs, confidence
from curbside.coverage.conflicts import Conflict, FieldComparison, detect
from curbside.coverage.ohip.checks import rule_checks
from curbside.coverage.ohip.fallback import answer_from_passages
from curbside.coverage.ohip.passages import DOC_PREFIX, stored_passage
from curbside.coverage.ohip.query import STOP, Request, stem, words_of
from curbside.coverage.ohip.rule_quotes import rule_quotes
from curbside.coverage.ohip.search_path import SearchFindings, codes_stated
from curbside.coverage.ohip.sql_path import Specialty, SqlFindings
from curbside.coverage.ohip.store import ListingRow, RuleRow
from curbside.coverage.ohip.tool import (
    FeeListing,
    Relation,
    RuleCheck,
    RuleText,
    ScheduleEdition,
    ScheduleGetResult,
    ScheduleItem,
)
from curbside.coverage.passages import snippet
from curbside.coverage.paths import PathTrace, path_warnings
from curbside.types import Citation, Passage

__all__ = ["SURE", "add_on_to", "merge", "said_add_ons", "stated_items"]

# a code found by words is stated with high confidence only when its title holds a good part of the
# question (by word weight): on the 61 plain-words OHIP questions (benchmarks/data/coverage_qa.jsonl),
# 15 first matches held less than 0.4 and 9 of those answers were wrong; of the other 46, 12 were
WEAK_MATCH = 0.4
WEAK_MATCH_CONFIDENCE = 0.5

MAX_CITATIONS = 3
MAX_MENTIONS = 4  # rule blocks that only name a code, per item


def merge(
    request: Request, sql: SqlFindings | None, found: SearchFindings | None, trace: list[PathTrace]
) -> ScheduleGetResult:
    warnings = path_warnings(trace)
    if sql is not None:
        return _from_sql(request, sql, found, trace, warnings)
    return answer_from_passages(request, found, trace, warnings)


def _edition(sql: SqlFindings) -> ScheduleEdition:
    e = sql.edition
    return ScheduleEdition(label=e.label, effective=e.effective, published=e.published, amendment=e.amendment)


def _from_sql(
    request: Request, sql: SqlFindings, found: SearchFindings | None, trace: list[PathTrace], warnings: list[str]
) -> ScheduleGetResult:
    schedule = _edition(sql)
    label = schedule.label
    result = ScheduleGetResult(
        query=request.question or " ".join(request.codes),
        summary="",
        provenance=["sql"],
        confidence=0.0,
        schedule=schedule,
        trace=trace,
        warnings=warnings,
        follow_up=sql.follow_up,
    )
    if request.contradictions:
        result.needs_more_info = True
        result.summary = f"The request contradicts itself: {'; '.join(request.contradictions)}."
        result.follow_up = "Which is right? Please confirm the facts of the service so I can check the rules."
        return result
    if sql.problem and not sql.codes:
        result.needs_more_info = True
        result.summary = f"{sql.problem} {sql.follow_up or ''}".strip()
        return result

    relation: dict[str, Relation] = {}
    for code in sql.asked:
        relation.setdefault(code, "asked")
    for code in sql.matched:
        relation.setdefault(code, "matched")
    for code in sql.related:
        relation.setdefault(code, "related")
    for code in sql.premiums:
        relation.setdefault(code, "premium")
    items = [_item(code, rel, sql, request) for code, rel in relation.items()]
    result.items = items  # 'codes' is always reported: the other fields hang on the codes
    primary = [i for i in items if i.relation in ("asked", "matched")]
    checks: list[RuleCheck] = []
    for item in items:
        if item.relation in ("asked", "matched", "premium"):
            checks += rule_checks(request, item.code, sql.rules.get(item.code, []), item.description)
    result.rule_checks = checks

    asked_checks = [c for c in checks if c.code in sql.asked]
    if any(c.verdict == "not_eligible" for c in asked_checks):
        result.billable = False
    elif asked_checks and all(c.verdict == "satisfied" for c in asked_checks):
        result.billable = True

    # --- the search path: corroboration, citations, conflicts --------------------------------
    supporting = _supporting(found, [i.code for i in primary]) if found is not None else []
    if supporting:
        result.provenance.append("vector")
    result.conflicts = _conflicts(sql, found, supporting)
    result.citations = _citations(supporting, sql, checks, [i.code for i in primary])
    result.context = [snippet(p.text) for p in supporting[:MAX_CITATIONS]]
    records = sum(len(sql.listings.get(i.code, [])) for i in primary)
    result.confidence = confidence(
        ConfidenceInputs(
            sql_hit=bool(primary), passages=len(supporting), sql_records=records, conflicts=len(result.conflicts)
        )
    )
    if sql.match_coverage is not None and sql.match_coverage < WEAK_MATCH and primary:
        # found from a part of the question only: the code may be another service that shares a word
        result.confidence = min(result.confidence, WEAK_MATCH_CONFIDENCE)
        result.warnings.append(
            f"{primary[0].code}'s title holds only part of the question ({sql.match_coverage:.0%} of its words "
            f"by weight; not: {', '.join(sql.match_lacking[:6])}): check that it is the service meant."
        )
    if sql.rivals and primary:
        # the first code holds more of the question, another's title is the service as worded: two readings
        result.confidence = min(result.confidence, WEAK_MATCH_CONFIDENCE)
        result.follow_up = result.follow_up or (
            f"Which service was it: {primary[0].code} {primary[0].description}, or {sql.rivals[0]} "
            f"{sql.titles.get(sql.rivals[0], '')}?"
        )
    if sql.untold and primary:
        # a sibling stated beside the first that the question does not tell apart from it: two readings
        result.confidence = min(result.confidence, WEAK_MATCH_CONFIDENCE)
    if result.conflicts:
        result.warnings.append(
            f"{len(result.conflicts)} fact(s) in the indexed passages disagree with the Schedule tables; "
            "the tables are used (see conflicts)."
        )
    if sql.unknown:
        result.warnings.append(sql.problem or "")
        result.needs_more_info = True
    _decide_follow_up(result, request, sql, primary, checks)
    result.summary = _summary(result, request, sql, primary, checks, label)
    return result


# --- items ----------------------------------------------------------------------------------------


def _fee_listing(row: ListingRow) -> FeeListing:
    return FeeListing(
        section=row.section,
        part=row.part,
        specialty=row.specialty,
        page=row.page,
        description=row.description,
        fee=row.fee,
        fee_text=row.fee_text,
        fee_status=row.status,
        components=row.components,
        unit=row.unit,
    )


def _in_specialty(row: ListingRow, specialty: Specialty | None) -> bool:
    if specialty is None:
        return True
    if specialty.code is not None:
        return row.specialty == specialty.code
    return row.part == specialty.part or row.section == specialty.section


def _item(code: str, relation: Relation, sql: SqlFindings, request: Request) -> ScheduleItem:
    rows = sql.listings.get(code, [])
    title = sql.titles.get(code, code)
    # a premium or preamble code listed in no specialty's section applies whatever the specialty
    general = not any(r.specialty for r in rows)
    chosen = [r for r in rows if _in_specialty(r, sql.specialty)] or (rows if general or not sql.specialty else [])
    item = ScheduleItem(code=code, description=title, relation=relation, fee_text="not listed", fee_status="unknown")
    if "fee" in request.include:
        item.listings = [_fee_listing(r) for r in rows]
    # a listing with no fee of its own (a table naming the code: GP63) gives way to the code's priced listings
    known = [r for r in chosen if r.status not in ("unknown", "no_fee")] or [r for r in chosen if r.status == "no_fee"]
    distinct = {(r.status, r.fee_text, tuple(sorted(r.components.items()))) for r in known}
    if len(distinct) == 1:
        first = known[0]
        item.fee, item.fee_text, item.fee_status = first.fee, first.fee_text, first.status
        item.percent, item.unit, item.page = first.percent, first.unit, first.page
        item.section, item.specialty = first.section, first.specialty
        if len(known) > 1 and sql.specialty is None:
            item.section = f"{first.section} and {len(known) - 1} other section(s), all the same"
    elif len(distinct) > 1:
        item.fee_status = "varies"
        shown = ", ".join(f"{r.fee_text} ({r.section}, {r.page})" for r in known[:6])
        item.fee_text = f"varies by section: {shown}" + (" …" if len(known) > 6 else "")
    elif chosen:
        item.fee_text = "fee unknown: the text extraction did not let it be aligned (see the printed page)"
        item.page = chosen[0].page
    elif sql.specialty is not None and rows:
        item.fee_text = f"not listed under {sql.specialty.section}"
    rules = sql.rules.get(code, [])
    own = [r for r in rules if r.relation == "subject"]
    mentions = [r for r in rules if r.relation == "mention"][:MAX_MENTIONS]
    item.rules = [_rule_text(r) for r in own + mentions]
    if item.page is None and own:
        item.page = own[0].page
    inc = request.include
    item.requirements = _joined(own, ("definition",)) if "limits" in inc or "documentation" in inc else None
    item.limits = _joined(own, ("payment_rules", "note")) if "limits" in inc else None
    item.documentation = _joined(own, ("medical_record", "claims")) if "documentation" in inc else None
    item.commentary = _joined(own, ("commentary",)) if "commentary" in inc else None
    return item


def _rule_text(rule: RuleRow) -> RuleText:
    return RuleText(kind=rule.kind, heading=rule.heading, page=rule.page, text=rule.text, relation=rule.relation)


def _joined(rules: list[RuleRow], kinds: tuple[str, ...]) -> str | None:
    texts = [f"{r.text} ({r.page})" for r in rules if r.kind in kinds]
    return "\n\n".join(texts) or None


# --- evidence -------------------------------------------------------------------------------------


def _supporting(found: SearchFindings, codes: list[str]) -> list[Passage]:
    """Passages that name one of the answer's codes."""
    wanted = set(codes)
    return [p for p in found.passages if wanted & set(codes_stated(p))]


def _section_page(passage: Passage) -> str | None:
    """'A72' from the passage's document key 'ohip-a72-anaesthesia-01'."""
    key = passage.doc_key.removeprefix(DOC_PREFIX)
    return key.split("-", 1)[0].upper() if key else None


def _conflicts(sql: SqlFindings, found: SearchFindings | None, supporting: list[Passage]) -> list[Conflict]:
    if found is None:
        return []
    comparisons: list[FieldComparison] = []
    for passage in supporting:
        stated = found.effective.get(passage.chunk_id)
        if stated is not None:
            comparisons.append(
                FieldComparison(
                    field="edition",
                    subject="schedule",
                    sql_value=sql.edition.effective,
                    vector_value=stated,
                    chunk_id=passage.chunk_id,
                )
            )
        section = _section_page(passage)
        for code, fee in found.fees.get(passage.chunk_id, {}).items():
            for row in sql.listings.get(code, []):
                if row.section_page == section and row.status == "aligned" and not row.components:
                    comparisons.append(
                        FieldComparison(
                            field="fee",
                            subject=f"{code} ({row.section})",
                            sql_value=row.fee,
                            vector_value=fee,
                            chunk_id=passage.chunk_id,
                        )
                    )
    return detect(comparisons)


def _citations(
    supporting: list[Passage], sql: SqlFindings, checks: list[RuleCheck], codes: list[str]
) -> list[Citation]:
    """Passages behind the answer: the one holding a decisive rule first, then the code's own section."""
    decisive = [c for c in checks if c.verdict in ("not_eligible", "needs_fact")]
    pool = list(supporting)
    for code in codes:
        pool += [stored_passage(c) for c in sql.source_chunks.get(code, [])]

    own_docs = {p.doc_key for p in pool if any(f"({code})" in p.section_path for code in codes)}

    def rank(p: Passage) -> tuple[int, int, int, int]:
        holds_rule = any(_words(c.rule)[:60] in _words(p.text) for c in decisive)
        own = any(f"({code})" in p.section_path for code in codes)
        listed = any(f"\n{code} " in f"\n{p.body}" for code in codes)
        return (not holds_rule, not own, p.doc_key not in own_docs, not listed)

    ordered = sorted(dict((p.chunk_id, p) for p in pool).values(), key=rank)
    picked = ordered[:MAX_CITATIONS]
    return [Citation.from_passage(i, p, _excerpt(p, decisive, codes)) for i, p in enumerate(picked, start=1)]


def _words(text: str) -> str:
    return " ".join(text.split())


def _excerpt(passage: Passage, decisive: list[RuleCheck], codes: list[str]) -> str:
    body = _words(passage.body)
    for check in decisive:
        at = body.find(_words(check.rule)[:60])
        if at >= 0:
            return body[at : at + 300]
    for code in codes:
        at = body.find(f"{code} ")
        if at >= 0:
            return body[at : at + 200]
    return passage.excerpt()


# --- the answer in words --------------------------------------------------------------------------


def _decide_follow_up(
    result: ScheduleGetResult, request: Request, sql: SqlFindings, primary: list[ScheduleItem], checks: list[RuleCheck]
) -> None:
    if result.billable is False or sql.unknown:
        return
    missing = [c for c in checks if c.verdict == "needs_fact" and c.code in {i.code for i in primary}]
    wants_rules = request.asks_rules or bool(sql.matched)
    if missing and wants_rules:
        asks: list[str] = []
        if any(c.reason.startswith("MRP") for c in missing):
            asks.append("Were you the patient's most responsible physician (MRP)?")
        for c in missing:
            if c.reason.startswith("stay"):
                asks.append(
                    f"How many hours after admission was the patient discharged? {c.rule} ({c.page})".replace("  ", " ")
                )
                break
        result.needs_more_info = True
        result.follow_up = " ".join(asks)
        return
    varies = [i for i in primary if i.fee_status == "varies"]
    if varies and request.asks_fee and sql.specialty is None:
        result.follow_up = (
            f"Which specialty do you bill under? The fee for {varies[0].code} differs by section of the Schedule."
        )


# how a clerk asks for an add-on: "+ office add-on?", "the add-on for doing it outside hospital", "a tray fee"
_ASKS_ADD_ON = re.compile(r"\badd[- ]?ons?\b|\boutside (?:of )?(?:the )?hospital\b|\btray fees?\b|\bpremiums?\b", re.I)
MAX_ADD_ONS_SAID = 2
_CODE = re.compile(r"\b[A-Z]\d{3}[A-Z]?\b")
# ', to M145, M149 or M151' at the end of an add-on's title: the codes it is added to
_TO_CODES = re.compile(r",?\s+to\s+[A-Z]\d{3}[A-Z]?(?:(?:,\s*|\s+or\s+|\s+and\s+)[A-Z]\d{3}[A-Z]?)*\s*$")


def asks_add_on(question: str) -> bool:
    return bool(_ASKS_ADD_ON.search(question))


def said_add_ons(request: Request, add_ons: list[ListingRow], primary: list[ScheduleItem]) -> list[ListingRow]:
    """The add-ons printed with the first code that the summary states with their fees: all of them (at most
    ``MAX_ADD_ONS_SAID``) when the question asks for an add-on, else those whose titles hold a word of the question the
    first code's title lacks: "panniculectomy and I also fixed her umbilical hernia" is S318 and its E748 "- with
    repair of umbilical hernia, to S318 … add 122.05"."""
    if not request.question or not primary:
        return []
    # an add-on printed after the first code but to other codes ('E497 … bone graft, to R322 or R345' after R321)
    to_first = [
        row for row in add_ons if primary[0].code in _CODE.findall(row.description) or not _CODE.search(row.description)
    ]
    if asks_add_on(request.question):
        return to_first[:MAX_ADD_ONS_SAID]
    asked, first = _stems(request.question) - STOP, _stems(primary[0].description)
    return [row for row in to_first if (asked & _stems(row.description)) - first][:MAX_ADD_ONS_SAID]


def _stems(text: str) -> set[str]:
    """The stems of ``text``'s words, as the titles are matched (``query.stem``)."""
    return {stem(w) for w in words_of(text)}


def add_on_to(row: ListingRow, code: str) -> str:
    """An add-on's title as said beside ``code``: its list of base codes narrowed to that one ('E683 when performed
    thorascopically …, to M145, M149 or M151' beside M149 is '…, to M149')."""
    return _TO_CODES.sub(f", to {code}", row.description) if code in _CODE.findall(row.description) else row.description


def _add_on_fee(row: ListingRow) -> str:
    """'add $11.55 (V2)', 'add 25% (M5)': an add-on listing's fee as printed in its block."""
    if row.percent is not None:
        return f"add {row.percent:g}% ({row.page})"
    if row.fee is not None:
        return f"add ${row.fee:,.2f} ({row.page})"
    return row.fee_text or "fee as printed"


def _fee_phrase(item: ScheduleItem) -> str:
    columns = next((x.components for x in item.listings if x.components and x.page == item.page), None)
    if item.fee_status == "aligned" and columns:
        named = {"H": "technical", "T": "technical", "P": "professional"}
        shown = ", ".join(f"{k} ${v} ({named.get(k, k)})" for k, v in columns.items())
        return f"{shown} ({item.section}, {item.page})"
    if item.fee_status == "aligned" and item.fee is not None:
        unit = f" {item.unit}" if item.unit and item.unit.startswith("per") else ""
        where = f" ({item.section}, {item.page})" if item.section else ""
        return f"${item.fee:,.2f}{unit}{where}"
    if item.fee_status == "percent" and item.percent is not None:
        return f"a premium: add {item.percent:g}% ({item.page})"
    if item.fee_status == "independent_consideration":
        return "paid by independent consideration (I.C.)"
    return item.fee_text


# the confidence from which the first code is the answer, not one of several readings (the weak-match cap is 0.5)
SURE = 0.9


def stated_items(result: ScheduleGetResult, request: Request, primary: list[ScheduleItem]) -> list[ScheduleItem]:
    """The codes the summary states: the first three found. When the first is found with high confidence, another
    is stated beside it only if its title holds every word of the question the first one's does, or a word of the
    question the first one's lacks (the first person seen beside the travel premium): R120 "Nipple-areola
    reconstruction …" lacks the 'tattooing' that makes R142 "Nipple-areola tattooing - unilateral" the service
    asked, and stated beside it would be read as a second answer. A code the question names is always stated."""
    shown = primary[:3]
    if not request.question or result.confidence < SURE or len(shown) < 2:
        return shown
    asked = _stems(request.question) - STOP
    first = asked & _stems(shown[0].description)

    def beside(item: ScheduleItem) -> bool:
        own = asked & _stems(item.description)
        return first <= own or bool(own - first)  # as specific as the first, or it answers another part asked

    return [shown[0], *(i for i in shown[1:] if i.relation == "asked" or beside(i))]


def _summary(
    result: ScheduleGetResult,
    request: Request,
    sql: SqlFindings,
    primary: list[ScheduleItem],
    checks: list[RuleCheck],
    label: str,
) -> str:
    parts: list[str] = []
    cite = f" [{result.citations[0].n}]" if result.citations else ""
    failed = [c for c in checks if c.verdict == "not_eligible" and c.code in sql.asked]
    if failed:
        c = failed[0]
        parts.append(
            f"No: {c.code} is not payable here — {c.reason.split(': ', 1)[1]}. The rule ({c.page}): “{c.rule}”{cite}"
        )
    stated = stated_items(result, request, primary)
    for item in stated:
        parts.append(f"{item.code} {item.description}: {_fee_phrase(item)}.")
    if not failed and primary:
        rules = [r for i in stated for r in sql.rules.get(i.code, [])]
        for quote in rule_quotes(request.question, rules, primary[0].code):
            parts.append(f"Rule for {quote.code} ({quote.page}): “{quote.text}”")
    for row in said_add_ons(request, sql.add_ons, primary):
        parts.append(f"Add-on printed with it: {row.code} {add_on_to(row, primary[0].code)}: {_add_on_fee(row)}.")
    if sql.matched:
        others = [i.code for i in result.items if i.relation in ("related", "premium")]
        if others:
            parts.append(f"Related codes: {', '.join(others)}.")
    weekday = [c for c in checks if c.verdict == "not_applicable"]
    for c in weekday:
        parts.append(f"{c.code} does not apply: {c.reason.split(': ', 1)[1]} ({c.page}).")
    if sql.unknown:
        parts.append(sql.problem or "")
    if sql.time_block:
        parts.append(f"Codes of the {sql.time_block} block, read from the time the question gives.")
    if sql.readings:
        read = "; ".join(f"'{r.said.upper()}' as {r.meaning}" for r in sql.readings)
        parts.append(f"Read {read} (a clinical abbreviation).")
    if sql.specialty is not None:
        said = ", ".join(f"'{w}'" for w in sql.specialty.said)
        assumed = f", the section assumed from {said}" if said else ""
        parts.append(f"Fees are for {sql.specialty.section}{assumed}.")
    if sql.match_coverage is not None and sql.match_coverage < WEAK_MATCH and primary:
        parts.append(f"These codes match only part of the question: check that {primary[0].code} is the service meant.")
    if result.follow_up:
        parts.append(result.follow_up)
    parts.append(f"Source: {label}.")
    if cite and not failed:
        parts.append(cite.strip())
    return " ".join(p for p in parts if p)
