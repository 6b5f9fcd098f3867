"""Replay routes for ClinicalTrials.gov (``/ctgov/studies``) and for the two pluggable slots.

ClinicalTrials.gov answers from the one recorded real v2 page (``api-responses/clinicaltrials/
studies_response.json``: 10 studies and a ``nextPageToken``), read from ../shared/data:
- the first page is that recording, cut to ``pageSize`` (the recorded token kept);
- ``pageToken`` = the recorded token answers a last page (the recording's last three studies,
  no token): the recording has no second page, so its own studies stand in for one;
- another ``pageToken`` answers 400, as the API does for a token it did not issue;
- ``query.cond`` = ``EMPTY_CONDITION`` answers ``{"studies": []}``, the API's empty result.

The web search and the evidence service have no public recorded data: their answers here are
written for the tests in the shapes their APIs document (SearXNG's JSON search API; the
OpenEvidence-like ``OpenEvidenceResult`` of specs/semantic-search-and-tools.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.tools.evidence.replay import ReplayServer, Reply, Request

__all__ = [
    "EMPTY_CONDITION",
    "EVIDENCE_ANSWER",
    "SEARXNG_ANSWER",
    "add_evidence_service_route",
    "add_trials_routes",
    "add_web_route",
    "recorded_studies",
]

EMPTY_CONDITION = "zz no such condition"
STUDIES = "api-responses/clinicaltrials/studies_response.json"


def recorded_studies(data_root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((data_root / STUDIES).read_text(encoding="utf-8"))
    return data


def add_trials_routes(replay: ReplayServer, data_root: Path, *, total: int | None = None) -> dict[str, Any]:
    """Serve ``/ctgov/studies``; ``total`` adds a ``totalCount`` to first pages asked with countTotal=true."""
    recorded = recorded_studies(data_root)
    token = recorded["nextPageToken"]

    def studies(request: Request) -> Reply:
        if request.arg("query.cond") == EMPTY_CONDITION:
            return Reply.of_json({"studies": []})
        size = int(request.arg("pageSize", "10") or 10)
        asked = request.arg("pageToken")
        if asked is None:
            page: dict[str, Any] = {"studies": recorded["studies"][:size], "nextPageToken": token}
            if total is not None and request.arg("countTotal") == "true":
                page["totalCount"] = total
            return Reply.of_json(page)
        if asked == token:
            return Reply.of_json({"studies": recorded["studies"][-3:][:size]})
        return Reply(400, b"The pageToken parameter is invalid.", "text/plain")

    replay.route("GET", "/ctgov/studies", studies)
    return recorded


# A SearXNG /search?format=json answer (docs.searxng.org/dev/search_api.html), written for the tests.
SEARXNG_ANSWER: dict[str, Any] = {
    "query": "tirzepatide safety communication",
    "number_of_results": 0,
    "results": [
        {
            "url": "https://www.fda.gov/drugs/drug-safety-and-availability/example-communication",
            "title": "FDA Drug Safety Communication (example)",
            "content": "The agency reviewed reports of adverse events. Health care professionals should weigh the "
            "risks. This text continues for a while so that shortening it can be seen in the tests, sentence "
            "after sentence, until it runs well past the snippet length that the tool keeps for each page. A "
            "search engine's excerpt is rarely this long. It is here so that the cut at a sentence shows.",
            "publishedDate": "2024-01-12T00:00:00",
            "engine": "duckduckgo",
        },
        {
            "url": "https://medlineplus.gov/druginfo/meds/example.html",
            "title": "Tirzepatide Injection: MedlinePlus Drug Information",
            "content": "Tirzepatide injection may increase the risk of thyroid tumors.",
            "engine": "bing",
        },
        {"url": "javascript:alert(1)", "title": "not a page", "content": "dropped"},
        {
            "url": "https://www.fda.gov/drugs/drug-safety-and-availability/example-communication",
            "title": "the same page again, from another engine",
            "content": "duplicate",
        },
        {"url": "https://example.org/blog/post", "title": "A blog post", "content": "Opinions."},
    ],
    "answers": [],
    "suggestions": [],
    "unresponsive_engines": [["google", "timeout"]],
}

# An evidence-service answer in the shape of OpenEvidenceResult (tools spec), written for the tests.
EVIDENCE_ANSWER: dict[str, Any] = {
    "query": "beta blockers in heart failure",
    "total_count": 42,
    "results": [
        {
            "title": "Beta-blockers in heart failure with reduced ejection fraction (example)",
            "summary": "Beta-blockers reduce mortality in heart failure with reduced ejection fraction. The benefit "
            "is consistent across trials.",
            "evidence_level": "high",
            "source": "Example Journal of Cardiology",
            "pubmed_id": "10376614",
            "url": "https://evidence.example/articles/1",
            "date": "1999-06-12",
        },
        {
            "title": "A result with only a PubMed id",
            "summary": "Cited by its PMID.",
            "evidence_level": "moderate",
            "source": "Example Heart Journal",
            "pubmed_id": 11386263,
        },
        {"title": "A result with nothing to cite", "summary": "No URL, no PMID.", "evidence_level": "low"},
    ],
}


def add_web_route(replay: ReplayServer, answer: dict[str, Any] | None = None) -> None:
    replay.route(
        "GET", "/searx/search", lambda request: Reply.of_json(answer if answer is not None else SEARXNG_ANSWER)
    )


def add_evidence_service_route(replay: ReplayServer, answer: dict[str, Any] | None = None) -> None:
    replay.route(
        "POST", "/evidence/search", lambda request: Reply.of_json(answer if answer is not None else EVIDENCE_ANSWER)
    )
