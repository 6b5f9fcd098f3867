"""Reading NCBI E-utilities XML: an esearch answer and an efetch PubMed article set.

Both formats are documented by NCBI (E-utilities help, "ESearch" and the PubMed DTD,
https://dtd.nlm.nih.gov/ncbi/pubmed/out/). Every field is optional here: a record missing one
gives None, never a KeyError. A body that is not the XML it should be is an ``UpstreamError``.
lxml is imported on first use (no heavy import at module load) and never resolves entities, loads
a DTD or touches the network: a hostile body cannot make it read files or expand entities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from curbside.errors import UpstreamError

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["EsearchAnswer", "ParsedArticle", "parse_efetch", "parse_esearch"]

_SERVICE = "PubMed (NCBI E-utilities)"
_MATHML = "{http://www.w3.org/1998/Math/MathML}"
_YEAR = re.compile(r"\b(1[5-9]\d\d|2\d\d\d)\b")


@dataclass(frozen=True)
class EsearchAnswer:
    """What esearch said: the hit count, the PMIDs in rank order, how PubMed read the term, and its complaints."""

    count: int
    ids: list[str]
    query_translation: str | None
    not_found: list[str] = field(default_factory=list)  # ErrorList/PhraseNotFound, FieldNotFound: terms ignored
    messages: list[str] = field(default_factory=list)  # WarningList entries (e.g. "No items found.")


@dataclass
class ParsedArticle:
    pmid: str
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    authors_complete: bool = True
    journal: str | None = None
    year: int | None = None
    doi: str | None = None
    pmcid: str | None = None
    abstract_sections: list[tuple[str | None, str]] = field(default_factory=list)
    publication_types: list[str] = field(default_factory=list)


@cache
def _parser() -> Any:
    from lxml import etree

    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, remove_pis=True, huge_tree=False
    )


def _root(body: bytes, what: str) -> etree._Element:
    from lxml import etree

    try:
        root = etree.fromstring(body, _parser())
    except etree.XMLSyntaxError as exc:
        raise UpstreamError(
            f"{_SERVICE} sent {what} that is not valid XML ({len(body):,} bytes, starts {body[:60]!r}): {exc}."
        ) from exc
    if root is None:
        raise UpstreamError(f"{_SERVICE} sent an empty {what}.")
    return root


def parse_esearch(body: bytes) -> EsearchAnswer:
    root = _root(body, "an esearch answer")
    if root.tag != "eSearchResult":
        raise UpstreamError(f"{_SERVICE} sent <{root.tag}> where an esearch answer (<eSearchResult>) belongs.")
    error = _text(root.find("ERROR"))
    count_text = _text(root.find("Count"))
    if count_text is None:
        # a failed search (e.g. a malformed term) has <ERROR> and no Count
        reason = f": {error}" if error else ""
        raise UpstreamError(f"{_SERVICE} could not run the search{reason}.")
    try:
        count = int(count_text)
    except ValueError as exc:
        raise UpstreamError(f"{_SERVICE} sent a hit count that is not a number: {count_text!r}.") from exc
    ids = [t for t in (_text(e) for e in root.iterfind("IdList/Id")) if t]
    not_found = [t for t in (_text(e) for e in root.iterfind("ErrorList/*")) if t]
    messages = [t for t in (_text(e) for e in root.iterfind("WarningList/*")) if t]
    if error:
        messages.append(error)
    return EsearchAnswer(count, ids, _text(root.find("QueryTranslation")), not_found, messages)


def parse_efetch(body: bytes) -> list[ParsedArticle]:
    root = _root(body, "an efetch answer")
    if root.tag != "PubmedArticleSet":
        raise UpstreamError(f"{_SERVICE} sent <{root.tag}> where a PubMed article set (<PubmedArticleSet>) belongs.")
    articles = []
    for node in root.iterfind("PubmedArticle"):
        article = _article(node)
        if article is not None:
            articles.append(article)
    return articles


def _article(node: etree._Element) -> ParsedArticle | None:
    citation = node.find("MedlineCitation")
    pmid = _text(citation.find("PMID")) if citation is not None else None
    if citation is None or not pmid:
        return None
    out = ParsedArticle(pmid=pmid)
    article = citation.find("Article")
    if article is not None:
        out.title = _text(article.find("ArticleTitle")) or _text(article.find("VernacularTitle"))
        journal = article.find("Journal")
        if journal is not None:
            out.journal = _text(journal.find("ISOAbbreviation")) or _text(journal.find("Title"))
            out.year = _pub_year(journal.find("JournalIssue/PubDate"))
        if out.year is None:
            out.year = _pub_year(article.find("ArticleDate"))
        author_list = article.find("AuthorList")
        if author_list is not None:
            out.authors = [name for name in (_author(a) for a in author_list.iterfind("Author")) if name]
            out.authors_complete = author_list.get("CompleteYN", "Y") != "N"
        for section in article.iterfind("Abstract/AbstractText"):
            text = _text(section)
            if text:
                out.abstract_sections.append((section.get("Label") or None, text))
        out.publication_types = [t for t in (_text(e) for e in article.iterfind("PublicationTypeList/*")) if t]
        for location in article.iterfind("ELocationID"):
            if location.get("EIdType") == "doi" and location.get("ValidYN", "Y") != "N":
                out.doi = out.doi or _text(location)
    # PubmedData's own ArticleIdList (not the ones inside its ReferenceList, which are the references')
    for article_id in node.iterfind("PubmedData/ArticleIdList/ArticleId"):
        kind = article_id.get("IdType")
        if kind == "doi" and out.doi is None:
            out.doi = _text(article_id)
        elif kind == "pmc" and out.pmcid is None:
            out.pmcid = _text(article_id)
    return out


def _author(node: etree._Element) -> str | None:
    collective = _text(node.find("CollectiveName"))
    if collective:
        return collective
    last = _text(node.find("LastName"))
    initials = _text(node.find("Initials"))
    if last:
        return f"{last} {initials}" if initials else last
    return None


def _pub_year(date: etree._Element | None) -> int | None:
    if date is None:
        return None
    year = _text(date.find("Year"))
    if year and year.isdigit():
        return int(year)
    # <MedlineDate>1998 Dec-1999 Jan</MedlineDate> and other free-form dates: the first year in it
    match = _YEAR.search(_text(date.find("MedlineDate")) or "")
    return int(match.group(1)) if match else None


def _text(node: etree._Element | None) -> str | None:
    """The element's text with inline markup (<i>, <sub>, MathML) flattened; whitespace folded; None if empty."""
    if node is None:
        return None
    parts: list[str] = []
    _inner(node, parts)
    text = " ".join("".join(parts).split())
    return text or None


def _inner(node: etree._Element, parts: list[str]) -> None:
    if isinstance(node.tag, str) and node.tag.startswith(_MATHML):
        # MathML is laid out one token per element with indented line breaks between: keep the tokens and
        # a space the formula itself holds (<mml:mtext> </mml:mtext>), drop the layout
        parts.append("".join(" " if t.isspace() and "\n" not in t else t.strip() for t in node.itertext()))
        return
    if node.text:
        parts.append(node.text)
    for child in node:
        _inner(child, parts)
        if child.tail:
            parts.append(child.tail)
