"""Two pluggable slots, off unless configured: ``evidence.search_web`` and ``evidence.search_evidence_service``.

Neither has a public offline API, so Curbside ships no default: the tools are always registered
(an agent or MCP client can see them), and a call while the URL setting is unset ends with
CONFIG_ERROR naming the setting, before anything is screened or sent.

- Web search speaks SearXNG's JSON API (``GET <url>?q=…&format=json`` → ``results[{title, url,
  content, publishedDate}]``; https://docs.searxng.org/dev/search_api.html), which self-hosted
  metasearch and several proxies answer.
- The evidence service speaks the OpenEvidence-like shape of the tools spec
  (specs/semantic-search-and-tools.md, ``SearchOpenEvidenceArgs`` / ``OpenEvidenceResult``):
  ``POST {query, max_results[, evidence_level]}`` with a Bearer key → ``{results: [{title, summary,
  evidence_level, source, pubmed_id, url, date}], total_count}``.

Both queries leave the machine, so both are screened for PHI like every outbound query.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from curbside.errors import ConfigError, UpstreamError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.evidence.common import (
    Citation,
    EvidenceDeps,
    cut_at_sentence,
    evidence_fields,
    fit_to_bytes,
    service_for,
)
from curbside.tools.outbound import Screened

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = [
    "EVIDENCE_TOOL",
    "WEB_TOOL",
    "EvidenceItem",
    "EvidenceServiceArgs",
    "EvidenceServiceResult",
    "WebResult",
    "WebSearchArgs",
    "WebSearchResult",
    "register",
]

WEB_TOOL = "evidence.search_web"
EVIDENCE_TOOL = "evidence.search_evidence_service"
SNIPPET_CHARS = 300
SUMMARY_CHARS = 600

_Domain = Annotated[
    str,
    StringConstraints(
        min_length=3,
        max_length=100,
        to_lower=True,
        pattern=r"^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9-]+)+$",
    ),
]


# --- web search --------------------------------------------------------------------------------


class WebSearchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str = Field(
        min_length=2, max_length=300, description="Keywords, e.g. 'FDA safety communication tirzepatide'."
    )
    max_results: int = Field(5, ge=1, le=10, description="Results to return.")
    domains: list[_Domain] | None = Field(
        None,
        min_length=1,
        max_length=10,
        description="Keep only pages on these sites (and their subdomains), e.g. ['nih.gov', 'cdc.gov', 'who.int'].",
    )


class WebResult(BaseModel):
    title: str
    url: str
    snippet: str | None = Field(None, description="The search engine's excerpt, cut at a sentence ('…').")
    domain: str
    date: str | None = Field(None, description="Publication date where the engine gives one.")
    citation: Citation


class WebSearchResult(BaseModel):
    query: str
    results: list[WebResult]
    warnings: list[str] = Field(default_factory=list)


def _str(value: object) -> str | None:
    return (value.strip() or None) if isinstance(value, str) else None


def _http_url(value: object) -> tuple[str, str] | None:
    """(url, host) of an http(s) address; anything else (javascript:, relative) is no citation."""
    url = _str(value)
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return url, parts.hostname.lower()


def _on_sites(host: str, domains: list[str] | None) -> bool:
    return not domains or any(host == d or host.endswith("." + d) for d in domains)


def _results_list(data: object, service: str) -> list[Any]:
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise UpstreamError(f"The {service} sent an answer without a 'results' list; check its URL setting.")
    return list(data["results"])


def parse_web(data: object, args: WebSearchArgs, retrieved: str) -> WebSearchResult:
    raw = _results_list(data, "web search service")
    results: list[WebResult] = []
    seen: set[str] = set()
    off_site = 0
    for item in raw:
        if not isinstance(item, dict) or (found := _http_url(item.get("url"))) is None:
            continue
        url, host = found
        if url in seen:  # several engines found the same page
            continue
        seen.add(url)
        if not _on_sites(host, args.domains):
            off_site += 1
            continue
        content = _str(item.get("content"))
        domain = host.removeprefix("www.")
        results.append(
            WebResult(
                title=_str(item.get("title")) or url,
                url=url,
                snippet=cut_at_sentence(content, SNIPPET_CHARS) if content else None,
                domain=domain,
                date=_str(item.get("publishedDate")),
                citation=Citation(source=f"web ({domain})", kind="url", id=url, url=url, retrieved=retrieved),
            )
        )
        if len(results) == args.max_results:
            break
    warnings: list[str] = []
    if off_site and not results:
        warnings.append(f"{off_site} results were on other sites than {', '.join(args.domains or [])}.")
    if isinstance(data, dict):
        dead = [
            e[0] for e in data.get("unresponsive_engines") or [] if isinstance(e, list) and e and isinstance(e[0], str)
        ]
        if dead:
            warnings.append(f"Some search engines did not answer ({', '.join(dead[:5])}); results may be partial.")
    if not results and not warnings:
        warnings.append("The web search found nothing; try other keywords.")
    return WebSearchResult(query=args.query, results=results, warnings=warnings)


async def search_web(ctx: ToolContext[EvidenceDeps], args: WebSearchArgs) -> WebSearchResult:
    settings = ctx.deps.settings
    if not settings.web_search_url:
        raise ConfigError(
            "Web search is off: set CURBSIDE_WEB_SEARCH_URL to a SearXNG-compatible JSON endpoint (e.g. "
            "http://localhost:8888/search, with the json format enabled) to turn it on."
        )
    fetched = await ctx.deps.client().get(
        settings.web_search_url,
        service=service_for("web", settings),
        params={"q": args.query, "format": "json"},
        screened=[Screened("query", args.query)],
    )
    result = parse_web(fetched.json(), args, ctx.deps.retrieved())
    return _fit(result, result.results, _shorten_snippet, settings.evidence_result_bytes)


def _shorten_snippet(item: WebResult) -> None:
    item.snippet = cut_at_sentence(item.snippet, 120) if item.snippet else None


# --- evidence service ------------------------------------------------------------------------------

EvidenceLevel = Literal["high", "moderate", "low"]


class EvidenceServiceArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    query: str = Field(
        min_length=2, max_length=1000, description="A clinical question, e.g. 'beta blockers in HFpEF: mortality'."
    )
    max_results: int = Field(5, ge=1, le=20, description="Results to return.")
    evidence_level: EvidenceLevel | None = Field(None, description="Only evidence of this level (high, moderate, low).")


class EvidenceItem(BaseModel):
    title: str
    summary: str | None = Field(None, description="The service's summary, cut at a sentence ('…').")
    evidence_level: str | None = None
    source: str | None = Field(None, description="Journal or publisher.")
    pubmed_id: str | None = None
    url: str | None = None
    date: str | None = None
    citation: Citation


class EvidenceServiceResult(BaseModel):
    query: str
    total_count: int | None = Field(None, description="Results the service holds for the query, where it says.")
    results: list[EvidenceItem]
    warnings: list[str] = Field(default_factory=list)


def _pmid(value: object) -> str | None:
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""
    return text if text.isdigit() else None


def _evidence_item(item: dict[str, Any], service: str, retrieved: str) -> EvidenceItem | None:
    """One result, or None when nothing in it can be cited (no URL, no PMID)."""
    found = _http_url(item.get("url"))
    pmid = _pmid(item.get("pubmed_id"))
    if found is not None:
        citation = Citation(source=service, kind="url", id=found[0], url=found[0], retrieved=retrieved)
    elif pmid is not None:
        link = f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/"
        citation = Citation(source=service, kind="pmid", id=pmid, url=link, retrieved=retrieved)
    else:
        return None
    title = _str(item.get("title"))
    summary = _str(item.get("summary"))
    return EvidenceItem(
        title=title or citation.id,
        summary=cut_at_sentence(summary, SUMMARY_CHARS) if summary else None,
        evidence_level=_str(item.get("evidence_level")),
        source=_str(item.get("source")),
        pubmed_id=pmid,
        url=found[0] if found else None,
        date=_str(item.get("date")),
        citation=citation,
    )


def parse_evidence(data: object, args: EvidenceServiceArgs, retrieved: str) -> EvidenceServiceResult:
    raw = _results_list(data, "evidence service")
    items = [i for x in raw if isinstance(x, dict) and (i := _evidence_item(x, "evidence service", retrieved))]
    warnings: list[str] = []
    if len(items) < len(raw):
        n = len(raw) - len(items)
        warnings.append(f"{n} result{'s' if n != 1 else ''} without a URL or PubMed id (nothing to cite) left out.")
    if len(items) > args.max_results:
        items = items[: args.max_results]  # a service that ignores max_results does not flood the context
    total = data.get("total_count") if isinstance(data, dict) else None
    if not items and not warnings:
        warnings.append("The evidence service found nothing; try other words or no evidence_level.")
    return EvidenceServiceResult(
        query=args.query,
        total_count=total if isinstance(total, int) and not isinstance(total, bool) else None,
        results=items,
        warnings=warnings,
    )


async def search_evidence_service(ctx: ToolContext[EvidenceDeps], args: EvidenceServiceArgs) -> EvidenceServiceResult:
    settings = ctx.deps.settings
    if not settings.evidence_service_url:
        raise ConfigError(
            "The evidence service is off: set CURBSIDE_EVIDENCE_SERVICE_URL to a service answering POST "
            "{query, max_results} with {results: [...]} (and CURBSIDE_EVIDENCE_SERVICE_KEY if it needs a key)."
        )
    payload: dict[str, Any] = {"query": args.query, "max_results": args.max_results}
    if args.evidence_level:
        payload["evidence_level"] = args.evidence_level
    key = settings.evidence_service_key
    headers = {"Authorization": f"Bearer {key.get_secret_value()}"} if key is not None else None
    fetched = await ctx.deps.client().post_json(
        settings.evidence_service_url,
        service=service_for("evidence_service", settings),
        payload=payload,
        screened=[Screened("query", args.query)],
        headers=headers,
    )
    result = parse_evidence(fetched.json(), args, ctx.deps.retrieved())
    return _fit(result, result.results, _shorten_summary, settings.evidence_result_bytes)


def _shorten_summary(item: EvidenceItem) -> None:
    item.summary = cut_at_sentence(item.summary, 200) if item.summary else None


# --- shared ------------------------------------------------------------------------------------

ResultT = TypeVar("ResultT", WebSearchResult, EvidenceServiceResult)
ItemT = TypeVar("ItemT", WebResult, EvidenceItem)


def _fit(result: ResultT, items: list[ItemT], shorten: Callable[[ItemT], None], cap: int) -> ResultT:
    """Under ``cap`` bytes: every text shortened once, then the last items dropped; the warnings say so."""
    shortened = False
    dropped = 0

    def shrink(_: ResultT) -> bool:
        nonlocal shortened, dropped
        if not shortened:
            shortened = True
            for item in items:
                shorten(item)
            return True
        if len(items) > 1:
            items.pop()
            dropped += 1
            return True
        return False

    fit_to_bytes(result, cap, shrink=shrink)
    if dropped:
        result.warnings.append(f"The last {dropped} results were left out to stay under {cap:,} bytes.")
    elif shortened:
        result.warnings.append(f"Texts were shortened to stay under {cap:,} bytes.")
    return result


def register(registry: ToolRegistry, deps: EvidenceDeps) -> None:
    """Put ``evidence.search_web`` and ``evidence.search_evidence_service`` in ``registry`` (both off until configured)."""
    common = evidence_fields(deps)
    registry.register(
        ToolSpec(
            name=WEB_TOOL,
            description=(
                "Search the web (a configured SearXNG-compatible service) for current information the literature "
                "tools miss: agency safety communications, recent news, society pages. Off unless "
                "CURBSIDE_WEB_SEARCH_URL is set (then it ends with CONFIG_ERROR). Each result: title, url, snippet, "
                "domain, date, citation; 'domains' keeps only chosen sites. Web pages are not vetted evidence: "
                "prefer the literature, trial and guideline tools, and check each page. Never put patient "
                "identifiers in the query (it is screened and refused)."
            ),
            args_model=WebSearchArgs,
            result_model=WebSearchResult,
            handler=search_web,
            citation="SearXNG search API (JSON format): https://docs.searxng.org/dev/search_api.html",
            **common,
        )
    )
    registry.register(
        ToolSpec(
            name=EVIDENCE_TOOL,
            description=(
                "Ask a configured medical evidence service (OpenEvidence-like) for summarised evidence on a "
                "clinical question. Off unless CURBSIDE_EVIDENCE_SERVICE_URL is set (then it ends with "
                "CONFIG_ERROR). Each result: title, summary, evidence level (high / moderate / low), source "
                "journal, PubMed id, url, date, citation; evidence_level filters. Never put patient identifiers "
                "in the query (it is screened and refused)."
            ),
            args_model=EvidenceServiceArgs,
            result_model=EvidenceServiceResult,
            handler=search_evidence_service,
            citation="OpenEvidence-like evidence service (tools spec, search_openevidence); the URL configured",
            **common,
        )
    )
