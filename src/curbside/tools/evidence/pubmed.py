"""``evidence.search_pubmed``: PubMed through NCBI E-utilities, esearch then one efetch.

esearch (https://www.ncbi.nlm.nih.gov/books/NBK25499/#chapter4.ESearch) ranks the PMIDs;
efetch (rettype=abstract, retmode=xml) brings their records in one request. A failed efetch
still leaves the PMIDs and their links, with a warning: a partial answer, never a crash. The
result stays under ``evidence_result_bytes``: abstracts are cut at sentence ends (conclusions
kept longest), then trailing articles dropped, and the warnings say what went.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from curbside.errors import RateLimitedError, UpstreamError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.abstracts import Sections, fit_articles
from curbside.tools.evidence.common import Citation, EvidenceDeps, evidence_fields, service_for
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.tools.evidence.pubmed_parse import ParsedArticle
    from curbside.tools.registry import ToolRegistry

__all__ = [
    "TOOL_NAME",
    "PubMedArgs",
    "PubMedArticle",
    "PubMedResult",
    "build_term",
    "register",
]

TOOL_NAME = "evidence.search_pubmed"

ArticleType = Literal[
    "randomized_controlled_trial",
    "systematic_review",
    "meta_analysis",
    "guideline",
    "practice_guideline",
    "review",
    "clinical_trial",
]
# PubMed publication types as the [pt] field spells them (https://www.nlm.nih.gov/mesh/pubtypes.html)
_PUBLICATION_TYPE: dict[str, str] = {
    "randomized_controlled_trial": "Randomized Controlled Trial",
    "systematic_review": "Systematic Review",
    "meta_analysis": "Meta-Analysis",
    "guideline": "Guideline",
    "practice_guideline": "Practice Guideline",
    "review": "Review",
    "clinical_trial": "Clinical Trial",
}
# esearch's sort values for PubMed: "relevance" (Best Match) and "pub_date" (newest first)
_SORT = {"relevance": "relevance", "date": "pub_date"}
# PubMed's own custom date range runs from 1000 to 3000 when one end is open
_EARLIEST, _LATEST = 1000, 3000
_AUTHORS_SHOWN = 3


class PubMedArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str = Field(
        min_length=2,
        max_length=1000,
        description=(
            "What to look for, in words or PubMed syntax, e.g. 'SGLT2 inhibitors heart failure preserved ejection "
            "fraction' or 'metformin[tiab] AND pregnancy'. No patient details: a query holding names, dates or "
            "identifiers is refused."
        ),
    )
    max_results: int = Field(5, ge=1, le=20, description="Articles to return (1-20).")
    from_year: int | None = Field(None, ge=1800, le=2100, description="Earliest publication year, inclusive.")
    to_year: int | None = Field(None, ge=1800, le=2100, description="Latest publication year, inclusive.")
    article_types: list[ArticleType] | None = Field(
        None,
        min_length=1,
        max_length=len(_PUBLICATION_TYPE),
        description="Keep only these publication types (any of them), e.g. ['randomized_controlled_trial'].",
    )
    sort: Literal["relevance", "date"] = Field(
        "relevance", description="relevance (PubMed's Best Match) or date (newest first)."
    )

    @model_validator(mode="after")
    def _years_in_order(self) -> PubMedArgs:
        if self.from_year is not None and self.to_year is not None and self.from_year > self.to_year:
            raise ValueError(f"from_year {self.from_year} is after to_year {self.to_year}; swap them")
        return self


class PubMedArticle(BaseModel):
    pmid: str
    title: str | None = None
    authors: str | None = Field(None, description="The first authors, then 'et al.' when there are more.")
    journal: str | None = None
    year: int | None = None
    doi: str | None = None
    pmcid: str | None = Field(None, description="PubMed Central id: the full text is in PMC.")
    abstract: str | None = Field(
        None, description="Structured abstracts keep their labels ('RESULTS: …'); a cut ends in '…'."
    )
    publication_types: list[str] = Field(default_factory=list)
    url: str
    citation: Citation


class PubMedResult(BaseModel):
    query: str = Field(description="The esearch term as sent, filters included.")
    query_translation: str | None = Field(None, description="How PubMed read the term (MeSH mapping and all).")
    date_range: str | None = Field(
        None, description="Publication years searched, when limited: '2019-3000' (3000: no upper limit)."
    )
    total: int = Field(description="Articles PubMed matched; 'articles' holds at most max_results of them.")
    articles: list[PubMedArticle] = Field(default_factory=list)
    note: str | None = Field(None, description="Why the list is empty, when it is.")
    warnings: list[str] = Field(default_factory=list)


def build_term(query: str, article_types: Sequence[str] | None) -> str:
    """The esearch term: the query, and (any of) the publication types, parenthesised so OR binds inside."""
    if not article_types:
        return query
    kinds = " OR ".join(f'"{_PUBLICATION_TYPE[kind]}"[pt]' for kind in dict.fromkeys(article_types))
    return f"({query}) AND ({kinds})"


def _identity(settings: Settings) -> dict[str, str | None]:
    # E-utilities usage policy: name the tool and a contact address; a key raises the limit to 10/s
    key = settings.ncbi_api_key.get_secret_value() if settings.ncbi_api_key else None
    return {"tool": "curbside", "email": settings.ncbi_email, "api_key": key}


async def _search(ctx: ToolContext[EvidenceDeps], args: PubMedArgs) -> PubMedResult:
    from curbside.tools.evidence.pubmed_parse import parse_esearch

    deps = ctx.deps
    settings = deps.settings
    term = build_term(args.query, args.article_types)
    params: dict[str, Any] = {
        "db": "pubmed",
        "term": term,
        "retmax": args.max_results,
        "sort": _SORT[args.sort],
        "retmode": "xml",
        **_identity(settings),
    }
    date_range = None
    if args.from_year is not None or args.to_year is not None:
        low, high = args.from_year or _EARLIEST, args.to_year or _LATEST
        params.update(datetype="pdat", mindate=str(low), maxdate=str(high))
        date_range = f"{low}-{high}"
    answer = await deps.client().get(
        f"{settings.pubmed_url.rstrip('/')}/esearch.fcgi",
        service=service_for("ncbi", settings),
        params=params,
        screened=[Screened("query", args.query)],
    )
    found = parse_esearch(answer.body)
    result = PubMedResult(
        query=term, query_translation=found.query_translation, date_range=date_range, total=found.count
    )
    if found.not_found:
        result.warnings.append(
            "PubMed found nothing for " + ", ".join(repr(t) for t in found.not_found) + " and left it out of the "
            "search; check the spelling or use other words."
        )
    ids = list(dict.fromkeys(found.ids))[: args.max_results]
    if not ids:
        messages = f" (PubMed: {' '.join(found.messages)})" if found.messages else ""
        result.note = f"No PubMed articles match {term!r}{messages}. Try fewer or broader words, or fewer filters."
        return result
    if found.messages:
        result.warnings.append("PubMed: " + " ".join(found.messages))
    parsed = await _records(deps, ids, result.warnings)
    ordered = _in_rank_order(parsed, ids)
    retrieved = deps.retrieved()
    result.articles = [_article(article, retrieved) for article in ordered]
    if not result.articles:
        result.note = f"PubMed matched {found.count:,} articles but sent none of their records; try again."
    result.warnings.extend(
        fit_articles(
            result,
            settings.evidence_result_bytes,
            result.articles,
            [_sections(article) for article in ordered],
            ident=lambda item: f"PMID {item.pmid}",
            where="each article's PubMed link",
        )
    )
    return result


async def _records(deps: EvidenceDeps, ids: list[str], warnings: list[str]) -> list[ParsedArticle]:
    """efetch's records for ``ids`` in one request; if it fails, bare PMIDs and a warning (a partial answer)."""
    from curbside.tools.evidence.pubmed_parse import ParsedArticle, parse_efetch

    settings = deps.settings
    params = {"db": "pubmed", "id": ",".join(ids), "rettype": "abstract", "retmode": "xml", **_identity(settings)}
    try:
        answer = await deps.client().get(
            f"{settings.pubmed_url.rstrip('/')}/efetch.fcgi", service=service_for("ncbi", settings), params=params
        )
        parsed = parse_efetch(answer.body)
    except (UpstreamError, RateLimitedError) as exc:
        warnings.append(
            f"PubMed found these articles but their records could not be fetched ({exc.message}); only their PMIDs "
            "and links are listed. Try again for titles and abstracts."
        )
        return [ParsedArticle(pmid=pmid) for pmid in ids]
    got = {article.pmid for article in parsed}
    missing = [pmid for pmid in ids if pmid not in got]
    if missing:
        warnings.append(
            f"PubMed sent no record for {len(missing)} of the {len(ids)} PMIDs its search returned "
            f"({', '.join(missing)}); they are left out."
        )
    return parsed


def _in_rank_order(parsed: list[ParsedArticle], ids: list[str]) -> list[ParsedArticle]:
    """esearch's order (its ranking); records efetch sent unasked come after, as sent; duplicates once."""
    rank = {pmid: i for i, pmid in enumerate(ids)}
    unique: dict[str, ParsedArticle] = {}
    for article in parsed:
        unique.setdefault(article.pmid, article)
    return sorted(unique.values(), key=lambda article: rank.get(article.pmid, len(rank)))  # stable: efetch's order


def _article(parsed: ParsedArticle, retrieved: str) -> PubMedArticle:
    url = f"https://pubmed.ncbi.nlm.nih.gov/{parsed.pmid}/"
    authors = ", ".join(parsed.authors[:_AUTHORS_SHOWN]) or None
    if authors and (len(parsed.authors) > _AUTHORS_SHOWN or not parsed.authors_complete):
        authors += ", et al."
    return PubMedArticle(
        pmid=parsed.pmid,
        title=parsed.title,
        authors=authors,
        journal=parsed.journal,
        year=parsed.year,
        doi=parsed.doi,
        pmcid=parsed.pmcid,
        publication_types=parsed.publication_types,
        url=url,
        citation=Citation(source="PubMed", kind="pmid", id=parsed.pmid, url=url, retrieved=retrieved),
    )


def _sections(parsed: ParsedArticle) -> Sections:
    return [(label.upper() if label else None, text) for label, text in parsed.abstract_sections]


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.search_pubmed`` in ``registry``."""
    registry.register(
        ToolSpec(
            name=TOOL_NAME,
            description=(
                "Search PubMed (MEDLINE and life-science journals) for articles. Each article has its PMID, title, "
                "first authors, journal, year, DOI, PMCID (full text in PubMed Central), abstract (structured "
                "abstracts keep labels such as 'RESULTS:'; long ones are cut with '…'), publication types, link "
                "and citation. Narrow with article_types (randomized_controlled_trial, systematic_review, "
                "meta_analysis, guideline, practice_guideline, review, clinical_trial), from_year/to_year "
                "(publication date) and sort (relevance or date). 'total' is PubMed's hit count; an empty list "
                "comes with a note. Ask about conditions and treatments only: a query with patient details is "
                "refused."
            ),
            args_model=PubMedArgs,
            result_model=PubMedResult,
            handler=_search,
            **evidence_fields(deps),
            citation="NCBI E-utilities, ESearch and EFetch (https://www.ncbi.nlm.nih.gov/books/NBK25499/)",
        )
    )
