"""``evidence.search_europepmc``: Europe PMC's REST ``/search``, one page per call, cursor paging.

Europe PMC (https://europepmc.org/RestfulWebService) indexes PubMed, PubMed Central, preprints
and more, and says which articles are open access and where their full text is. ``resultType``
core carries abstracts and full-text links; lite is a tenth of the size and has neither. Paging
follows its ``cursorMark`` (``*`` first, then each answer's ``nextCursorMark``; the same mark
coming back means the end). Field names below are those of its JSON answers (version 6.9).
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from curbside.errors import UpstreamError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.abstracts import Sections, fit_articles
from curbside.tools.evidence.common import Citation, EvidenceDeps, evidence_fields, service_for
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["TOOL_NAME", "EuropePmcArgs", "EuropePmcArticle", "EuropePmcResult", "register"]

TOOL_NAME = "evidence.search_europepmc"

_FIRST_PAGE = "*"
_EARLIEST, _LATEST = 1800, 3000  # an open end of a FIRST_PDATE range
_AUTHORS_SHOWN = 3
# inline markup Europe PMC leaves in titles and abstracts; a bare "<" (as in "p < .001") is text, not a tag
_INLINE_TAG = re.compile(r"</?(?:i|b|em|strong|sub|sup|u|p|br|span|sc|inf|a)\b[^<>]*>", re.IGNORECASE)
_HEADING = re.compile(r"<h\d>(.*?)</h\d>", re.IGNORECASE | re.DOTALL)


class EuropePmcArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str = Field(
        min_length=2,
        max_length=1000,
        description=(
            "What to look for, in words or Europe PMC syntax, e.g. 'sglt2 inhibitor heart failure' or "
            "'TITLE:\"atrial fibrillation\" AND apixaban'. No patient details: such a query is refused."
        ),
    )
    max_results: int = Field(5, ge=1, le=25, description="Articles per page (1-25).")
    open_access_only: bool = Field(False, description="Only open-access articles (full text free to read and reuse).")
    from_year: int | None = Field(None, ge=1800, le=2100, description="Earliest first-publication year, inclusive.")
    to_year: int | None = Field(None, ge=1800, le=2100, description="Latest first-publication year, inclusive.")
    abstracts: bool = Field(True, description="Include abstracts and full-text links (slower); false: titles only.")
    cursor: str | None = Field(
        None,
        max_length=512,
        pattern=r"^[A-Za-z0-9+/=*%_.-]+$",
        description="next_cursor of a previous result, with the same query and filters, for the next page.",
    )

    @model_validator(mode="after")
    def _years_in_order(self) -> EuropePmcArgs:
        if self.from_year is not None and self.to_year is not None and self.from_year > self.to_year:
            raise ValueError(f"from_year {self.from_year} is after to_year {self.to_year}; swap them")
        return self


class EuropePmcArticle(BaseModel):
    id: str = Field(description="Europe PMC's id within its source (a PMID for MED, a PMCID for PMC, …).")
    source: str | None = Field(None, description="MED (PubMed), PMC, PPR (preprint), AGR, CBA, …")
    pmid: str | None = None
    pmcid: str | None = None
    doi: str | None = None
    title: str | None = None
    authors: str | None = Field(None, description="The first authors, then 'et al.' when there are more.")
    journal: str | None = None
    year: int | None = None
    abstract: str | None = Field(None, description="With abstracts=true; labelled sections kept, a cut ends in '…'.")
    publication_types: list[str] = Field(default_factory=list)
    is_open_access: bool = False
    cited_by_count: int | None = None
    full_text_url: str | None = Field(
        None, description="Full text free to read: the open-access copy when there is one; null: subscription only."
    )
    url: str = Field(description="The article's Europe PMC page.")
    citation: Citation


class EuropePmcResult(BaseModel):
    query: str = Field(description="The query as sent, filters included.")
    hit_count: int = Field(description="Articles Europe PMC matched; 'articles' is one page of them.")
    next_cursor: str | None = Field(None, description="Pass as 'cursor' for the next page; null: this is the last.")
    articles: list[EuropePmcArticle] = Field(default_factory=list)
    note: str | None = Field(None, description="Why the list is empty, when it is.")
    warnings: list[str] = Field(default_factory=list)


def build_query(args: EuropePmcArgs) -> str:
    filters = []
    if args.open_access_only:
        filters.append("OPEN_ACCESS:y")
    if args.from_year is not None or args.to_year is not None:
        low, high = args.from_year or _EARLIEST, args.to_year or _LATEST
        filters.append(f"FIRST_PDATE:[{low}-01-01 TO {high}-12-31]")
    if not filters:
        return args.query
    return " AND ".join([f"({args.query})", *filters])


async def _search(ctx: ToolContext[EvidenceDeps], args: EuropePmcArgs) -> EuropePmcResult:
    deps = ctx.deps
    settings = deps.settings
    query = build_query(args)
    cursor = args.cursor or _FIRST_PAGE
    answer = await deps.client().get(
        f"{settings.europepmc_url.rstrip('/')}/search",
        service=service_for("europepmc", settings),
        params={
            "query": query,
            "format": "json",
            "resultType": "core" if args.abstracts else "lite",
            "pageSize": args.max_results,
            "cursorMark": cursor,
        },
        screened=[Screened("query", args.query)],
    )
    data = answer.json()
    records = _dict(data).get("resultList")
    rows = _dict(records).get("result")
    if not isinstance(data, dict) or not isinstance(rows, list):
        raise UpstreamError("Europe PMC sent JSON without a result list; its search answer has changed or failed.")
    hit_count = _int(data.get("hitCount")) or 0
    next_mark = _str(data.get("nextCursorMark"))
    # the end: no mark, the same mark again, or a page shorter than asked for
    at_end = next_mark is None or next_mark == cursor or len(rows) < args.max_results
    result = EuropePmcResult(query=query, hit_count=hit_count, next_cursor=None if at_end else next_mark)
    retrieved = deps.retrieved()
    kept: list[tuple[EuropePmcArticle, Sections]] = []
    skipped = 0
    for row in rows[: args.max_results]:
        article = _article(_dict(row), retrieved)
        if article is None:
            skipped += 1
        else:
            kept.append((article, _sections(_str(_dict(row).get("abstractText")))))
    if skipped:
        result.warnings.append(f"{skipped} record(s) without an id were left out.")
    if not kept:
        if args.cursor:
            result.note = f"No more Europe PMC articles for {query!r} after this cursor: the list has ended."
        else:
            result.note = f"No Europe PMC articles match {query!r}. Try fewer or broader words, or fewer filters."
        return result
    result.articles = [article for article, _ in kept]
    result.warnings.extend(
        fit_articles(
            result,
            settings.evidence_result_bytes,
            result.articles,
            [sections for _, sections in kept],
            ident=lambda item: f"{item.source or 'id'} {item.id}",
            where="each article's url",
        )
    )
    return result


def _article(row: dict[str, Any], retrieved: str) -> EuropePmcArticle | None:
    ident = _str(row.get("id"))
    if ident is None:
        return None
    source = _str(row.get("source"))
    pmid, pmcid, doi = _str(row.get("pmid")), _str(row.get("pmcid")), _str(row.get("doi"))
    is_oa = row.get("isOpenAccess") == "Y"
    url = f"https://europepmc.org/article/{source}/{ident}" if source else f"https://europepmc.org/search?query={ident}"
    if pmid:
        citation = Citation(source="Europe PMC", kind="pmid", id=pmid, url=url, retrieved=retrieved)
    elif pmcid:
        citation = Citation(source="Europe PMC", kind="pmcid", id=pmcid, url=url, retrieved=retrieved)
    elif doi:
        citation = Citation(source="Europe PMC", kind="doi", id=doi, url=url, retrieved=retrieved)
    else:
        citation = Citation(source="Europe PMC", kind="url", id=url, url=url, retrieved=retrieved)
    return EuropePmcArticle(
        id=ident,
        source=source,
        pmid=pmid,
        pmcid=pmcid,
        doi=doi,
        title=_clean(_str(row.get("title"))),
        authors=_authors(_str(row.get("authorString"))),
        journal=_journal(row),
        year=_int(row.get("pubYear")),
        publication_types=_publication_types(row),
        is_open_access=is_oa,
        cited_by_count=_int(row.get("citedByCount")),
        full_text_url=_full_text_url(row, pmcid, is_oa),
        url=url,
        citation=citation,
    )


def _full_text_url(row: dict[str, Any], pmcid: str | None, is_oa: bool) -> str | None:
    """An open-access copy (html before pdf) first; then one free to read; then the PMC page of an OA article."""
    links = [_dict(link) for link in _list(_dict(row.get("fullTextUrlList")).get("fullTextUrl"))]
    style_rank = {"html": 0, "pdf": 1}
    for code in ("OA", "F"):  # availabilityCode: OA open access, F free to read, S subscription
        usable = [link for link in links if link.get("availabilityCode") == code and _str(link.get("url"))]
        if usable:
            best = min(usable, key=lambda link: style_rank.get(str(link.get("documentStyle")), 2))
            return _str(best.get("url"))
    if is_oa and pmcid:
        return f"https://europepmc.org/article/PMC/{pmcid}"
    return None


def _journal(row: dict[str, Any]) -> str | None:
    journal = _dict(_dict(row.get("journalInfo")).get("journal"))  # core
    for key in ("isoabbreviation", "medlineAbbreviation", "title"):
        if name := _str(journal.get(key)):
            return name
    return _str(row.get("journalTitle"))  # lite


def _publication_types(row: dict[str, Any]) -> list[str]:
    listed = [t for t in (_str(v) for v in _list(_dict(row.get("pubTypeList")).get("pubType"))) if t]  # core
    if listed:
        return listed
    single = _str(row.get("pubType"))  # lite: "journal article" or "review; journal article"
    return [t.strip() for t in single.split(";") if t.strip()] if single else []


def _authors(author_string: str | None) -> str | None:
    if not author_string:
        return None
    names = [name.strip() for name in author_string.rstrip(" .").split(",") if name.strip()]
    shown = ", ".join(names[:_AUTHORS_SHOWN])
    return f"{shown}, et al." if len(names) > _AUTHORS_SHOWN else shown or None


def _sections(abstract: str | None) -> Sections:
    """Europe PMC marks an abstract's sections with <h4>Label</h4>; each becomes ('LABEL', text)."""
    if not abstract:
        return []
    pieces = _HEADING.split(abstract)
    sections: Sections = []
    lead = _clean(pieces[0])
    if lead:
        sections.append((None, lead))
    for label, text in zip(pieces[1::2], pieces[2::2], strict=False):
        body = _clean(text)
        if body:
            name = _clean(label)
            sections.append((name.rstrip(":").upper() if name else None, body))
    return sections


def _clean(text: str | None) -> str | None:
    if not text:
        return None
    cleaned = " ".join(html.unescape(_INLINE_TAG.sub("", text)).split())
    return cleaned or None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.search_europepmc`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL_NAME,
            description=(
                "Search Europe PMC (PubMed, PubMed Central, preprints, patents, guidelines) for articles, one page "
                "at a time. Each article has its ids (PMID, PMCID, DOI), title, first authors, journal, year, "
                "abstract (with abstracts=true; long ones cut with '…'), publication types, whether it is open "
                "access, a full-text link free to read when there is one, and a citation. Filter with "
                "open_access_only and from_year/to_year; for the next page pass the result's next_cursor as "
                "'cursor' with the same query (null next_cursor: no more pages). Ask about conditions and "
                "treatments only: a query with patient details is refused."
            ),
            args_model=EuropePmcArgs,
            result_model=EuropePmcResult,
            handler=_search,
            **evidence_fields(deps),
            citation="Europe PMC RESTful Web Service, search (https://europepmc.org/RestfulWebService)",
        )
    )
