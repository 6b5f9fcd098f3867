"""What the openFDA tools share: building queries openFDA accepts, finding a drug's label, and
reading a label's sections.

Query syntax (https://open.fda.gov/apis/query-syntax/): ``search=field:"a phrase"``; a space
between clauses is sent as ``+`` — httpx encodes a space that way, so a literal ``+`` is never
put into a parameter (it would arrive as ``%2B`` and change the query). Peers who sent
``brand_name:X+OR+generic_name:X`` got HTTP 500, so a name is looked up as a brand name, then,
when nothing matched, as a generic name: two plain phrase queries, never an OR. openFDA answers
"no match" with HTTP 404 ``{"error": {"code": "NOT_FOUND"}}``, which is read as an empty result.
Endpoints: https://open.fda.gov/apis/drug/label/ and https://open.fda.gov/apis/drug/event/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import httpx
from pydantic import StringConstraints

from curbside.errors import UpstreamError
from curbside.tools.evidence.common import EvidenceDeps, cut_at_sentence, service_for
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = [
    "DrugName",
    "LabelFacts",
    "LabelLookup",
    "US_LABEL_NOTE",
    "cut",
    "dailymed_url",
    "excerpt",
    "fetch_json",
    "find_label",
    "label_facts",
    "label_section",
    "phrase",
    "public_url",
    "sentences",
    "strip_heading",
    "total_of",
]

# A brand or generic name: letters (any script), digits and the punctuation real names use
# ("co-trimoxazole", "dextrose 5%", "Tylenol (acetaminophen)"). Query-syntax characters (quotes,
# colons, '+', wildcards, brackets) are refused here, and ``phrase`` escapes quotes regardless.
DrugName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=2, max_length=100, pattern=r"^\w[\w .,'()/&%-]*$"),
]

US_LABEL_NOTE = (
    "openFDA label text is the manufacturer's US prescribing information (FDA SPL, as on DailyMed), "
    "not a Canadian product monograph: Health Canada's wording, indications and doses may differ."
)

_LABEL_PAGE = 5  # labels read per query: the most recent of them is used
_NAME_FIELDS = ("openfda.brand_name", "openfda.generic_name")


def _base(settings: Settings) -> str:
    return settings.openfda_url.rstrip("/")


def phrase(field: str, value: str) -> str:
    """``field:"value"`` with backslashes and quotes escaped (Lucene phrase syntax)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'{field}:"{escaped}"'


def _with_key(settings: Settings, params: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(params)
    if settings.openfda_api_key is not None:
        out["api_key"] = settings.openfda_api_key.get_secret_value()
    return out


def public_url(url: str, params: Mapping[str, Any]) -> str:
    """The query as a reader can repeat it: the API URL with its parameters, never the API key."""
    return str(httpx.URL(url, params={k: v for k, v in params.items() if k != "api_key" and v is not None}))


async def fetch_json(
    deps: EvidenceDeps, path: str, params: Mapping[str, Any], screened: Iterable[Screened]
) -> dict[str, Any] | None:
    """GET ``path`` under the openFDA base; None when openFDA says nothing matched (HTTP 404)."""
    settings = deps.settings
    fetched = await deps.client().get(
        f"{_base(settings)}{path}",
        service=service_for("openfda", settings),
        params=_with_key(settings, params),
        screened=list(screened),
        readable=frozenset({200, 404}),
    )
    if fetched.status == 404:
        if _no_match(fetched.body):
            return None
        # a 404 without openFDA's own body is a wrong address, not an empty answer
        raise UpstreamError(
            f"openFDA answered HTTP 404 for {path} without its 'No matches found' body; check CURBSIDE_OPENFDA_URL "
            f"(now {settings.openfda_url!r})."
        )
    data = fetched.json()
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise UpstreamError("openFDA sent an answer without a 'results' list; try again later.")
    return data


def _no_match(body: bytes) -> bool:
    """openFDA's "nothing matched": ``{"error": {"code": "NOT_FOUND", "message": "No matches found!"}}``."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return False
    error = data.get("error") if isinstance(data, dict) else None
    return isinstance(error, dict) and error.get("code") == "NOT_FOUND"


def total_of(data: Mapping[str, Any]) -> int | None:
    """``meta.results.total``: how many records matched (absent on count queries)."""
    meta = data.get("meta")
    results = meta.get("results") if isinstance(meta, dict) else None
    total = results.get("total") if isinstance(results, dict) else None
    return total if isinstance(total, int) and not isinstance(total, bool) else None


# --- finding a label ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelLookup:
    """The label chosen for a name (None: no label matched), how many matched, and the query."""

    label: dict[str, Any] | None
    matched: int
    field: str | None  # the openfda field that matched: openfda.brand_name or openfda.generic_name
    query_url: str


async def find_label(deps: EvidenceDeps, drug: str, *, arg: str = "drug") -> LabelLookup:
    """The label for ``drug``: asked as a brand name, then as a generic name (separate requests).

    Among a page of matches, a label whose brand or generic name is exactly the name asked wins,
    then the most recent ``effective_time``.
    """
    url = f"{_base(deps.settings)}/drug/label.json"
    query_url = ""
    for field in _NAME_FIELDS:
        params = {"search": phrase(field, drug), "limit": _LABEL_PAGE}
        query_url = public_url(url, params)
        data = await fetch_json(deps, "/drug/label.json", params, [Screened(arg, drug)])
        labels = [r for r in (data or {}).get("results", []) if isinstance(r, dict)]
        if labels:
            matched = total_of(data or {}) or len(labels)
            return LabelLookup(_best(labels, drug), matched, field, query_url)
    return LabelLookup(None, 0, None, query_url)


def _best(labels: list[dict[str, Any]], drug: str) -> dict[str, Any]:
    wanted = drug.casefold()

    def rank(label: dict[str, Any]) -> tuple[bool, str]:
        facts = label_facts(label)
        exact = any(n.casefold() == wanted for n in facts.brand_names + facts.generic_names)
        return exact, str(label.get("effective_time") or "")

    return max(labels, key=rank)


# --- reading a label ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelFacts:
    brand_names: list[str]
    generic_names: list[str]
    manufacturer: str | None
    set_id: str | None
    effective_time: str | None  # YYYY-MM-DD
    pharm_class_epc: list[str]
    pharm_class_moa: list[str]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str) and v.strip()]
    return []


def _unique(values: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for value in values:
        seen.setdefault(value.casefold(), value)
    return list(seen.values())


def label_facts(label: Mapping[str, Any]) -> LabelFacts:
    openfda = label.get("openfda")
    meta: Mapping[str, Any] = openfda if isinstance(openfda, dict) else {}
    set_ids = _strings(label.get("set_id")) or _strings(meta.get("spl_set_id"))
    manufacturers = _strings(meta.get("manufacturer_name"))
    return LabelFacts(
        brand_names=_unique(_strings(meta.get("brand_name"))),
        generic_names=_unique(_strings(meta.get("generic_name"))),
        manufacturer=manufacturers[0] if manufacturers else None,
        set_id=set_ids[0] if set_ids else None,
        effective_time=_iso_date(label.get("effective_time")),
        pharm_class_epc=_unique(_strings(meta.get("pharm_class_epc"))),
        pharm_class_moa=_unique(_strings(meta.get("pharm_class_moa"))),
    )


def _iso_date(value: object) -> str | None:
    """SPL dates are ``YYYYMMDD``; anything else is passed on as it came."""
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip()
    if re.fullmatch(r"\d{8}", value):
        return f"{value[:4]}-{value[4:6]}-{value[6:]}"
    return value


def dailymed_url(set_id: str) -> str:
    return f"https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid={set_id}"


def label_section(
    label: Mapping[str, Any], fields: Iterable[str], headings: Iterable[str] = ()
) -> tuple[str, str] | None:
    """The first of ``fields`` the label has, as ``(field, text)``, its leading heading removed."""
    for field in fields:
        parts = _strings(label.get(field))
        if parts:
            text = strip_heading(" ".join(" ".join(parts).split()), headings)
            if text:
                return field, text
    return None


def strip_heading(text: str, headings: Iterable[str]) -> str:
    """Drop a leading section number and heading: "5 WARNINGS AND PRECAUTIONS …" → "…"."""
    for heading in sorted(headings, key=len, reverse=True):  # longest first: "WARNINGS AND …" before "WARNINGS"
        pattern = rf"^\s*(?:\d+(?:\.\d+)*\s+)?{re.escape(heading)}\b\s*:?\s*"
        stripped = re.sub(pattern, "", text, count=1, flags=re.IGNORECASE)
        if stripped != text:
            return stripped
    return re.sub(r"^\s*\d+(?:\.\d+)*\s+(?=[A-Z])", "", text, count=1)


# A sentence ends at . ! ? before a capital, digit or bracket; label text also runs subsection
# headings into the previous paragraph without a full stop ("… HUMIRA. 7.2 Biological Products In …"),
# so a subsection number starts a new piece too.
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[•])|\s+(?=\d{1,2}\.\d{1,2}\s+[A-Z])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SPLIT.split(" ".join(text.split())) if s and s.strip()]


def excerpt(sentence: str, start: int, end: int, width: int) -> str:
    """``sentence`` whole when it fits ``width``; else a window around ``[start, end)`` cut at words, "…" marking cuts."""
    if len(sentence) <= width:
        return sentence
    room = max(0, width - (end - start))
    left = max(0, start - room // 2)
    right = min(len(sentence), end + (room - (start - left)))
    if left > 0:
        space = sentence.find(" ", left, start)
        left = space + 1 if space != -1 else left
    if right < len(sentence):
        space = sentence.rfind(" ", end, right)
        right = space if space != -1 else right
    body = sentence[left:right].strip()
    return ("… " if left > 0 else "") + body + (" …" if right < len(sentence) else "")


def cut(text: str, max_chars: int) -> tuple[str, bool]:
    """``text`` cut at a sentence boundary, and whether it was cut."""
    short = cut_at_sentence(text, max_chars)
    return short, short != " ".join(text.split())
