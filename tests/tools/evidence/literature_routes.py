"""Replay routes for the literature tools, serving the recorded E-utilities XML and Europe PMC JSON.

PubMed: no recorded esearch lists the PMIDs of the recorded efetch article sets, so two modes:

- aligned (default): a recorded esearch answer whose ``<IdList>`` is replaced by PMIDs of the
  recorded articles (``pmids``, capped at the request's ``retmax``); efetch then answers, as the
  real one does, with the recorded ``<PubmedArticle>`` of each requested PMID it has, in the
  order asked.
- verbatim (``align=False``): the esearch file as recorded, and efetch serving ``efetch`` (a
  recorded ``pubmed*.xml``) whole, whatever was asked: the tool must report what came back.

Europe PMC: ``resultType`` picks the core or lite page, a cursor other than ``*`` the second
page, ``empty`` the recorded empty answer; each page is cut to the request's ``pageSize``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.tools.evidence.replay import ReplayServer, Reply, Request

__all__ = ["EuropePmcRoutes", "PUBMED_FILES", "PubMedRoutes", "recorded_articles"]

# efetch PubMed article sets; esearch1-3, 5 and 8 are db=pubmed searches (6 and 7 are nucleotide/protein)
PUBMED_FILES = ("pubmed1.xml", "pubmed2.xml", "pubmed4.xml", "pubmed5.xml", "pubmed6.xml", "pubmed7.xml")

_ARTICLE = re.compile(rb"<PubmedArticle>.*?</PubmedArticle>", re.DOTALL)
_PMID = re.compile(rb"<PMID[^>]*>(\d+)</PMID>")
_ID_LIST = re.compile(rb"<IdList\s*/>|<IdList>.*?</IdList>", re.DOTALL)
_SET_HEAD = (
    b'<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" '
    b'"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">\n<PubmedArticleSet>\n'
)
_XML = "text/xml; charset=UTF-8"


def recorded_articles(data: Path) -> dict[str, bytes]:
    """PMID -> its recorded ``<PubmedArticle>`` element, over every recorded article set, in file order."""
    pool: dict[str, bytes] = {}
    for name in PUBMED_FILES:
        for block in _ARTICLE.findall((data / "api-responses" / "ncbi-eutils" / name).read_bytes()):
            match = _PMID.search(block)  # the first PMID is the article's; later ones are its references'
            assert match is not None, f"{name}: a PubmedArticle without a PMID"
            pool[match.group(1).decode()] = block
    return pool


class PubMedRoutes:
    def __init__(
        self,
        replay: ReplayServer,
        data: Path,
        *,
        esearch: str = "esearch5.xml",
        pmids: list[str] | None = None,
        align: bool = True,
        efetch: str | None = None,
    ) -> None:
        self.eutils = data / "api-responses" / "ncbi-eutils"
        self.pool = recorded_articles(data)
        self.pmids = pmids if pmids is not None else list(self.pool)
        self.esearch = (self.eutils / esearch).read_bytes()
        self.align = align
        self.efetch = (self.eutils / efetch).read_bytes() if efetch else None
        replay.route("GET", "/eutils/esearch.fcgi", self._esearch)
        replay.route("GET", "/eutils/efetch.fcgi", self._efetch)

    def _esearch(self, request: Request) -> Reply:
        if not self.align:
            return Reply(200, self.esearch, _XML)
        retmax = int(request.arg("retmax", "20") or 20)
        ids = b"".join(b"<Id>%s</Id>\n" % pmid.encode() for pmid in self.pmids[:retmax])
        return Reply(200, _ID_LIST.sub(lambda _: b"<IdList>\n" + ids + b"</IdList>", self.esearch, count=1), _XML)

    def _efetch(self, request: Request) -> Reply:
        if self.efetch is not None:
            return Reply(200, self.efetch, _XML)
        asked = (request.arg("id") or "").split(",")
        body = b"\n".join(self.pool[pmid] for pmid in asked if pmid in self.pool)
        return Reply(200, _SET_HEAD + body + b"\n</PubmedArticleSet>\n", _XML)


class EuropePmcRoutes:
    def __init__(self, replay: ReplayServer, data: Path, *, empty: bool = False) -> None:
        self.folder = data / "api-responses" / "europepmc"
        self.empty = empty
        replay.route("GET", "/europepmc/search", self._search)

    def page(self, name: str) -> dict[str, Any]:
        return json.loads((self.folder / name).read_text(encoding="utf-8"))

    def _search(self, request: Request) -> Reply:
        if self.empty:
            return Reply(200, (self.folder / "search_no_results.json").read_bytes())
        if request.arg("cursorMark", "*") != "*":
            name = "search_cancer_page2.json"
        elif request.arg("resultType") == "core":
            name = "search_cancer_core.json"
        else:
            name = "search_cancer.json"
        data = self.page(name)
        size = int(request.arg("pageSize", "25") or 25)
        if size >= len(data["resultList"]["result"]):
            return Reply(200, (self.folder / name).read_bytes())  # the page as recorded, byte for byte
        data["resultList"]["result"] = data["resultList"]["result"][:size]
        return Reply(200, json.dumps(data).encode())
