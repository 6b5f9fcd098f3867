"""Tool results in clinical words: each renderer turns one tool's result into sentences, each pointing
at what it rests on (a ``Source``: the resource, article, trial or passage), for the synthesis to
number. Nothing is said that the result does not hold; an empty result is said to be empty.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Rendered", "Source", "render"]


@dataclass(frozen=True)
class Source:
    title: str
    tool: str
    id: str | None = None
    url: str | None = None
    detail: str | None = None
    record: dict[str, Any] | None = field(default=None, compare=False)  # the row a reference is written from


@dataclass
class Rendered:
    # (sentence, source or None); the synthesis puts [n] after a sentence that has a source
    lines: list[tuple[str, Source | None]]
    values: dict[str, Any]  # structured facts (for evaluations and cards)
    warnings: list[str] = field(default_factory=list)  # the tool's own (weak retrieval, another condition …)


Renderer = Callable[[str, dict[str, Any], dict[str, Any]], Rendered]


def render(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    for prefix, renderer in _RENDERERS:
        if tool == prefix or (prefix.endswith(".") and tool.startswith(prefix)):
            return renderer(tool, result, slots)
    return Rendered([(f"{tool} answered.", Source(tool, tool))], {})


def _num(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def _day(text: str | None) -> str:
    return (text or "")[:10] or "date not recorded"


def _observations(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    concept = result.get("concept") or {}
    label = concept.get("label") or slots.get("lab") or slots.get("vital") or "value"
    rows = result.get("observations") or []
    if not rows:
        return Rendered([(result.get("message") or f"No {label} is recorded in that window.", None)], {"count": 0})
    first = rows[0]
    source = Source(
        f"{label}, Observation/{first['id']}", tool, f"Observation/{first['id']}", detail=_day(first.get("date"))
    )
    aggregate = slots.get("aggregate")
    numbers = [r["value"] for r in rows if isinstance(r.get("value"), int | float)]
    unit = first.get("unit") or ""
    if aggregate == "average" and not numbers:
        pairs = [_pair(r) for r in rows]
        readings = [p for p in pairs if p is not None]
        if readings:  # a panel such as blood pressure: each component averaged
            systolic = statistics.fmean(p[0] for p in readings)
            diastolic = statistics.fmean(p[1] for p in readings)
            unit = next((c.get("unit") for c in first.get("components") or [] if c.get("unit")), "") or ""
            text = (
                f"Average {label} over {len(readings)} readings from {_day(rows[-1].get('date'))} to "
                f"{_day(first.get('date'))}: {systolic:.0f}/{diastolic:.0f} {unit} (systolic "
                f"{_num(min(p[0] for p in readings))}–{_num(max(p[0] for p in readings))})."
            )
            values = {"average": systolic, "diastolic_average": diastolic, "unit": unit, "count": len(readings)}
            return Rendered([(text, source)], values)
    if aggregate == "average" and numbers:
        mean = statistics.fmean(numbers)
        since = _day(rows[-1].get("date"))
        text = (
            f"Average {label} over {len(numbers)} results from {since} to {_day(first.get('date'))}: "
            f"{_num(round(mean, 2))} {unit} (range {_num(min(numbers))}–{_num(max(numbers))})."
        )
        return Rendered([(text, source)], {"average": mean, "count": len(numbers), "unit": unit})
    if len(rows) == 1 or slots.get("latest", True) and aggregate != "trend":
        text = f"Latest {label}: {_value(first)} on {_day(first.get('date'))}."
        values = {"value": first.get("value"), "unit": unit, "date": first.get("date")}
        if first.get("interpretation"):
            text = text[:-1] + f" ({', '.join(first['interpretation'])})."
        return Rendered([(text, source)], values)
    shown = ", ".join(f"{_value(r)} ({_day(r.get('date'))})" for r in rows[:6])
    more = f", and {len(rows) - 6} earlier" if len(rows) > 6 else ""
    return Rendered([(f"{label}, newest first: {shown}{more}.", source)], {"count": len(rows)})


_SYSTOLIC, _DIASTOLIC = "8480-6", "8462-4"  # LOINC: the blood-pressure panel's two components


def _pair(row: dict[str, Any]) -> tuple[float, float] | None:
    """(systolic, diastolic) of a blood-pressure reading, by their LOINC codes (components come in any order)."""
    by_code = {
        (c.get("code") or {}).get("code"): float(c["value"])
        for c in row.get("components") or []
        if isinstance(c.get("value"), int | float)
    }
    if _SYSTOLIC in by_code and _DIASTOLIC in by_code:
        return by_code[_SYSTOLIC], by_code[_DIASTOLIC]
    return None


def _value(row: dict[str, Any]) -> str:
    components = row.get("components") or []
    if components and row.get("value") is None:
        parts = [c for c in components if c.get("value") is not None]
        pair = _pair(row)
        if pair is not None:  # systolic / diastolic, by their codes: never the other way round
            return f"{_num(pair[0])}/{_num(pair[1])} {parts[0].get('unit') or ''}".strip()
        return "; ".join(
            f"{(c.get('code') or {}).get('display')}: {_num(c['value'])} {c.get('unit') or ''}" for c in parts
        )
    return f"{_num(row.get('value'))} {row.get('unit') or ''}".strip()


def _chart(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    patient = result.get("patient") or {}
    pid = patient.get("id")
    source = Source(f"Chart of Patient/{pid}, as of {result.get('as_of')}", tool, f"Patient/{pid}")
    who = ", ".join(
        str(x)
        for x in (
            patient.get("name"),
            f"{patient['age']} y" if patient.get("age") is not None else None,
            patient.get("sex"),
        )
        if x
    )
    lines: list[tuple[str, Source | None]] = [(f"{who}.", source)]
    lines.append(
        (
            f"Active problems: {_listed(result.get('problems'), lambda p: (p.get('problem') or {}).get('display'))}.",
            None,
        )
    )
    lines.append((f"Active medications: {_listed(result.get('medications'), _medication)}.", None))
    lines.append(
        (f"Allergies: {_listed(result.get('allergies'), lambda a: (a.get('substance') or {}).get('display'))}.", None)
    )
    for section in ("vitals", "labs"):
        rows = result.get(section)
        if isinstance(rows, list) and rows:
            shown = "; ".join(f"{r['name']} {_value(r)} ({_day(r.get('date'))})" for r in rows[:8])
            lines.append((f"Latest {section}: {shown}.", None))
    return Rendered(lines, {"patient": patient})


def _medication(row: dict[str, Any]) -> str:
    name = (row.get("medication") or {}).get("display") or "unnamed"
    return f"{name} ({row['dose']})" if row.get("dose") else name


def _listed(rows: Any, name: Callable[[dict[str, Any]], str | None], limit: int = 8) -> str:
    if isinstance(rows, str):
        return rows  # "none recorded", "could not be read", "left out to fit"
    if not rows:
        return "none recorded"
    names = [n for n in (name(r) for r in rows) if n]
    more = f", and {len(names) - limit} more" if len(names) > limit else ""
    return "; ".join(names[:limit]) + more


def _list_tool(
    key: str, label: str, name: Callable[[dict[str, Any]], str | None], item: Callable[[dict[str, Any]], str | None]
) -> Renderer:
    """``name`` words a row for the answer (a medication with its dose); ``item`` is its bare name (for values)."""

    def render_list(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
        rows = result.get(key) or []
        if not rows:
            return Rendered([(result.get("message") or f"No {label} recorded.", None)], {key: []})
        patient = result.get("patient_id")
        source = Source(f"{label.capitalize()} of Patient/{patient}", tool, f"Patient/{patient}")
        names = [n for n in (name(r) for r in rows) if n]
        items = [n for n in (item(r) for r in rows) if n]
        return Rendered([(f"{label.capitalize()} ({len(names)}): {_listed(rows, name, 12)}.", source)], {key: items})

    return render_list


def _search_patient(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    matches = result.get("matches") or []
    if len(matches) == 1:
        m = matches[0]
        text = f"Found {m.get('name')}, born {m.get('birth_date')} (Patient/{m['id']}, MRN {m.get('mrn')})."
        return Rendered([(text, Source(f"Patient/{m['id']}", tool, f"Patient/{m['id']}"))], {"patient_id": m["id"]})
    return Rendered([(result.get("message") or "No patient matches.", None)], {"matches": [m["id"] for m in matches]})


def _calculator(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    title = result.get("title") or tool
    if result.get("status") != "complete":
        missing = ", ".join(m.get("label") or m.get("key") or "?" for m in result.get("missing") or [])
        return Rendered([(f"{title} needs more information: {missing}.", None)], {"missing": missing})
    text = f"{title}: {result.get('display')}"
    if result.get("category"):
        text += f" — {result['category']}"
    if result.get("meaning"):
        text += f" ({result['meaning']})"
    source = Source(f"{title} ({result.get('formula')})", tool, detail=result.get("citation"))
    lines: list[tuple[str, Source | None]] = [(text + ".", source)]
    used = result.get("inputs_used") or {}
    if used:
        lines.append(("Inputs used: " + ", ".join(f"{k} {_num(v)}" for k, v in used.items()) + ".", None))
    for warning in result.get("warnings") or []:
        lines.append((warning, None))
    values: dict[str, Any] = {
        "value": result.get("value"),
        "unit": result.get("unit"),
        "category": result.get("category"),
    }
    criteria = [f"{p.get('label')}: {p.get('points'):+g}" for p in result.get("points") or [] if p.get("points")]
    if criteria:
        values["criteria"] = criteria  # what each criterion added, for the card
    return Rendered(lines, values)


def _coverage(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    source = Source("Ontario coverage (coverage.answer)", tool, detail=result.get("provenance_summary"))
    findings = [h.get("point") for h in result.get("highlights") or [] if h.get("point")][:4]  # fees, rules
    values = {"decision": result.get("decision"), "confidence": result.get("confidence"), "findings": findings}
    return Rendered([(result.get("summary") or "No coverage answer.", source)], values)


def _drug_safety(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    if not result.get("found"):
        return Rendered([(result.get("message") or "No openFDA label found.", None)], {})
    cite = (result.get("citations") or [{}])[0]
    name = ", ".join(result.get("brand_names") or result.get("generic_names") or [result.get("drug") or "?"])
    source = Source(f"{name} US label ({result.get('effective_time')})", tool, cite.get("id"), cite.get("url"))
    lines: list[tuple[str, Source | None]] = []
    for section in result.get("sections") or []:
        if section.get("present") and section.get("text"):
            label = str(section.get("section", "")).replace("_", " ")
            lines.append((f"{label.capitalize()}: {section['text']}", source))
    lines.append((result.get("note") or "", None))
    return Rendered(lines or [(f"The {name} label has none of the sections asked for.", source)], {})


def _interactions(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    lines: list[tuple[str, Source | None]] = []
    for label in result.get("labels") or []:
        names = ", ".join(label.get("brand_names") or label.get("generic_names") or ["?"])
        source = Source(f"{names} US label, drug interactions", tool, label.get("set_id"))
        for mention in label.get("mentions") or []:
            said = " ".join(mention.get("sentences") or [])[:400]
            lines.append((f'The {names} label mentions {mention.get("drug")}: "{said}"', source))
        if label.get("not_mentioned"):
            lines.append((f"The {names} label does not mention {', '.join(label['not_mentioned'])}.", source))
    if result.get("not_found"):
        lines.append((f"No openFDA label found for {', '.join(result['not_found'])}.", None))
    lines.append((result.get("disclaimer") or "", None))
    return Rendered(lines, {})


def _adverse_events(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    reactions = result.get("reactions") or []
    if not reactions:
        return Rendered([(result.get("message") or "No FAERS reports found.", None)], {})
    cite = (result.get("citations") or [{}])[0]
    source = Source(f"FAERS reports for {result.get('drug')}", tool, url=cite.get("url"))
    shown = ", ".join(f"{r['term']} ({r['count']:,})" for r in reactions[:6])
    return Rendered([(f"Most reported reactions: {shown}.", source), (result.get("caveat") or "", None)], {})


def _articles(key: str, id_key: str, what: str) -> Renderer:
    def render_articles(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
        items = result.get(key) or []
        if not items:
            return Rendered([(result.get("note") or f"No {what} found.", None)], {})
        lines: list[tuple[str, Source | None]] = []
        for item in items[:3]:
            cite = item.get("citation") or {}
            year = item.get("year") or item.get("start_date") or ""
            where = item.get("journal") or item.get("status") or ""
            title = item.get("title") or "untitled"
            source = Source(title, tool, item.get(id_key), item.get("url") or cite.get("url"), str(year), item)
            lines.append((f"{title} ({', '.join(str(x) for x in (where, year) if x)}).", source))
        return Rendered(lines, {"ids": [i.get(id_key) for i in items]})

    return render_articles


def _guidelines(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    hits = result.get("hits") or []
    if not hits:
        return Rendered([(" ".join(result.get("warnings") or ["No guideline passage matched."]), None)], {})
    lines: list[tuple[str, Source | None]] = []
    for hit in hits[:2]:
        source = Source(f"{hit.get('title')} — {hit.get('section_path')}", tool, hit.get("chunk_id"), record=hit)
        lines.append((hit.get("snippet") or "", source))
    return Rendered(lines, {})


def _coded(key: str) -> Callable[[dict[str, Any]], str | None]:
    return lambda row: (row.get(key) or {}).get("display")


_MARKER = re.compile(r"\[(\d+)\]")


def _kb_answer(tool: str, result: dict[str, Any], slots: dict[str, Any]) -> Rendered:
    status = result.get("status")
    if status in ("no_source", "clarify") or not result.get("answer"):
        said = result.get("clarifying_question") or "The knowledge base holds nothing relevant enough to answer this."
        return Rendered([(said, None)], {"status": status})
    cited = {c["n"]: c for c in result.get("citations") or []}
    lines: list[tuple[str, Source | None]] = []
    # one line per sentence, each keeping the passage its marker pointed at
    for sentence in re.split(r"(?<=[.!?])\s+", result["answer"]):
        marks = _MARKER.findall(sentence)
        text = _MARKER.sub("", sentence).strip()
        citation = cited.get(int(marks[0])) if marks else None
        source = (
            Source(
                f"{citation['title']} — {citation.get('section_path') or ''}".rstrip(" —"),
                tool,
                citation["chunk_id"],
                record=citation,
            )
            if citation
            else None
        )
        if text:
            lines.append((text, source))
    return Rendered(lines, {"status": status}, list(result.get("warnings") or []))


_RENDERERS: tuple[tuple[str, Renderer], ...] = (
    ("ehr.get_observations", _observations),
    ("ehr.get_patient_chart", _chart),
    ("ehr.get_medications", _list_tool("medications", "active medications", _medication, _coded("medication"))),
    ("ehr.get_allergies", _list_tool("allergies", "allergies", _coded("substance"), _coded("substance"))),
    ("ehr.get_conditions", _list_tool("conditions", "active problems", _coded("code"), _coded("code"))),
    ("ehr.search_patient", _search_patient),
    ("calc.", _calculator),
    ("coverage.answer", _coverage),
    ("evidence.check_drug_safety", _drug_safety),
    ("evidence.check_drug_interactions", _interactions),
    ("evidence.adverse_events", _adverse_events),
    ("evidence.search_pubmed", _articles("articles", "pmid", "articles")),
    ("evidence.search_europepmc", _articles("articles", "id", "articles")),
    ("evidence.find_clinical_trials", _articles("studies", "nct_id", "trials")),
    ("evidence.search_medical_guidelines", _guidelines),
    ("kb.ask", _kb_answer),
)
