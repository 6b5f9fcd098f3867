"""``evidence.search_pubmed`` against recorded E-utilities answers on a replay server, faults included."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from curbside.errors import UpstreamError
from curbside.settings import Settings
from curbside.tools import ToolResult
from curbside.tools.evidence import pubmed
from curbside.tools.evidence.abstracts import render_abstract
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.evidence.pubmed import build_term
from curbside.tools.evidence.pubmed_parse import parse_efetch, parse_esearch
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.literature_routes import PubMedRoutes, recorded_articles
from tests.tools.evidence.replay import Fault, ReplayServer

ESEARCH = "/eutils/esearch.fcgi"
EFETCH = "/eutils/efetch.fcgi"
TELOMERE = "27797938"  # Bao et al., Gut 2017: a structured abstract (pubmed4.xml)
PESTICIDE = "28775130"  # Lerro et al., Occup Environ Med 2018 (pubmed5.xml)
HEME = "9997"  # Strekas, Biochim Biophys Acta 1976: one plain abstract paragraph (pubmed1.xml)

Call = Callable[..., ToolResult]


def search(call_tool: Call, **args: Any) -> ToolResult:
    return call_tool(pubmed.register, pubmed.TOOL_NAME, {"query": "telomere length pancreatic cancer", **args})


def with_settings(evidence_settings: Settings, make_client: Callable[..., OutboundClient], **update: Any) -> dict:
    settings = evidence_settings.model_copy(update=update)
    client = make_client(settings)
    return {"client": client, "deps": EvidenceDeps(settings, client=lambda: client, today=lambda: "2026-11-27")}


def size(result: ToolResult) -> int:
    return len(json.dumps(result.result, ensure_ascii=False).encode())


# --- the recorded answers --------------------------------------------------------------------------


def test_finds_articles_with_their_abstracts_and_citations(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    PubMedRoutes(replay, shared_data, pmids=[TELOMERE, PESTICIDE, HEME])
    result = search(call_tool, max_results=3)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert out["query"] == "telomere length pancreatic cancer"
    assert out["total"] == 5  # esearch5.xml's Count
    assert out["query_translation"].endswith("AND hasabstract[All Fields]")
    assert [a["pmid"] for a in out["articles"]] == [TELOMERE, PESTICIDE, HEME]  # esearch's rank order
    first = out["articles"][0]
    assert first["title"] == (
        "Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer."
    )
    assert first["authors"] == "Bao Y, Prescott J, Yuan C, et al."
    assert (first["journal"], first["year"]) == ("Gut", 2017)
    assert (first["doi"], first["pmcid"]) == ("10.1136/gutjnl-2016-312510", "PMC5442267")
    assert "Observational Study" in first["publication_types"]
    assert first["abstract"].startswith("OBJECTIVE: Telomere shortening occurs as an early event")
    assert "CONCLUSIONS: Prediagnostic leucocyte telomere length and genetic variants" in first["abstract"]
    assert first["url"] == f"https://pubmed.ncbi.nlm.nih.gov/{TELOMERE}/"
    assert first["citation"] == {
        "source": "PubMed",
        "kind": "pmid",
        "id": TELOMERE,
        "url": f"https://pubmed.ncbi.nlm.nih.gov/{TELOMERE}/",
        "retrieved": "2026-11-27",
    }
    heme = out["articles"][2]
    assert heme["abstract"].startswith("Electron paramagnetic resonance and magnetic susceptibility studies")
    assert heme["doi"] == "10.1016/0005-2795(76)90109-4" and heme["pmcid"] is None
    # the two structured abstracts are longer than an abstract is kept; the plain one is whole
    assert out["warnings"] == [
        "2 abstracts were shortened at sentence ends (marked …): an abstract is kept to about 1,500 characters and "
        "the whole result under 10,000 bytes; each article's PubMed link has the whole text."
    ]
    assert first["abstract"].count(" … ") >= 1 and len(first["abstract"]) <= 1500
    assert not heme["abstract"].endswith("…")
    assert size(result) <= 10_000

    (esearch,) = replay.calls(ESEARCH)
    assert esearch.arg("db") == "pubmed" and esearch.arg("retmax") == "3" and esearch.arg("sort") == "relevance"
    assert esearch.arg("tool") == "curbside" and esearch.arg("email") is None and esearch.arg("api_key") is None
    assert esearch.arg("mindate") is None  # no date filter asked
    (efetch,) = replay.calls(EFETCH)  # one request for every PMID
    assert efetch.arg("id") == f"{TELOMERE},{PESTICIDE},{HEME}"
    assert (efetch.arg("db"), efetch.arg("rettype"), efetch.arg("retmode")) == ("pubmed", "abstract", "xml")


def test_article_types_years_and_sort_build_the_search(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    PubMedRoutes(replay, shared_data, pmids=[TELOMERE])
    result = search(
        call_tool,
        article_types=["randomized_controlled_trial", "systematic_review", "randomized_controlled_trial"],
        from_year=2015,
        sort="date",
    )
    assert result.ok, result.error
    term = '(telomere length pancreatic cancer) AND ("Randomized Controlled Trial"[pt] OR "Systematic Review"[pt])'
    assert result.result is not None
    assert result.result["query"] == term
    assert result.result["date_range"] == "2015-3000"
    (sent,) = replay.calls(ESEARCH)
    assert sent.arg("term") == term
    assert (sent.arg("datetype"), sent.arg("mindate"), sent.arg("maxdate")) == ("pdat", "2015", "3000")
    assert sent.arg("sort") == "pub_date"


def test_build_term_groups_the_types_so_or_binds_inside() -> None:
    assert build_term("statin", None) == "statin"
    assert build_term("a OR b", ["guideline", "practice_guideline"]) == (
        '(a OR b) AND ("Guideline"[pt] OR "Practice Guideline"[pt])'
    )


def test_ncbi_email_and_api_key_are_sent_when_set(
    replay: ReplayServer, shared_data: Path, call_tool: Call, evidence_settings: Settings, make_client: Callable
) -> None:
    PubMedRoutes(replay, shared_data, pmids=[HEME])
    chosen = with_settings(
        evidence_settings, make_client, ncbi_email="ops@example.org", ncbi_api_key=SecretStr("k-123")
    )
    result = call_tool(pubmed.register, pubmed.TOOL_NAME, {"query": "flavocytochrome"}, **chosen)
    assert result.ok, result.error
    for request in replay.calls("/eutils/"):
        assert (request.arg("email"), request.arg("api_key"), request.arg("tool")) == (
            "ops@example.org",
            "k-123",
            "curbside",
        )
    assert "k-123" not in json.dumps(result.model_dump())


def test_a_phrase_pubmed_does_not_know_gives_a_note_and_a_warning(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    PubMedRoutes(replay, shared_data, esearch="esearch8.xml", align=False)
    result = call_tool(pubmed.register, pubmed.TOOL_NAME, {"query": "abcXYZ"})
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert out["articles"] == [] and out["total"] == 0
    assert "No PubMed articles match 'abcXYZ'" in out["note"] and "No items found." in out["note"]
    assert out["warnings"] == [
        "PubMed found nothing for 'abcXYZ' and left it out of the search; check the spelling or use other words."
    ]
    assert replay.calls(EFETCH) == []  # nothing to fetch


def test_reports_the_records_efetch_sent_and_warns_of_the_missing(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    # esearch3.xml lists PNAS PMIDs 11121077-11121072; efetch answers with pubmed2.xml's two articles
    PubMedRoutes(replay, shared_data, esearch="esearch3.xml", align=False, efetch="pubmed2.xml")
    result = search(call_tool, max_results=6)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert out["total"] == 2651
    assert [a["pmid"] for a in out["articles"]] == ["11748933", "11700088"]
    assert out["articles"][0]["title"].startswith("Is cryopreservation a homogeneous process?")
    assert out["articles"][1]["journal"] == "J Magn Reson"
    missing, shortened = out["warnings"]
    assert missing.startswith("PubMed sent no record for 6 of the 6 PMIDs its search returned (11121077, 11121076")
    assert shortened.startswith("1 abstract was shortened")  # the first one: 1,834 characters
    (efetch,) = replay.calls(EFETCH)
    assert efetch.arg("id") == "11121077,11121076,11121075,11121074,11121073,11121072"


# --- the size cap ----------------------------------------------------------------------------------


def test_every_recorded_article_fits_under_the_default_cap(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    PubMedRoutes(replay, shared_data)
    result = search(call_tool, max_results=20)
    assert result.ok, result.error
    assert result.result is not None
    assert len(result.result["articles"]) == len(recorded_articles(shared_data)) == 8
    assert size(result) <= 10_000


def test_a_small_cap_shortens_abstracts_then_drops_trailing_articles(
    replay: ReplayServer, shared_data: Path, call_tool: Call, evidence_settings: Settings, make_client: Callable
) -> None:
    PubMedRoutes(replay, shared_data)
    result = call_tool(
        pubmed.register,
        pubmed.TOOL_NAME,
        {"query": "cancer", "max_results": 8},
        **with_settings(evidence_settings, make_client, evidence_result_bytes=3000),
    )
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert size(result) <= 3000
    kept = [a["pmid"] for a in out["articles"]]
    everything = list(recorded_articles(shared_data))
    assert 0 < len(kept) < 8 and kept == everything[: len(kept)]  # the trailing ones went
    shortened, dropped = out["warnings"]
    assert "shortened at sentence ends (marked …)" in shortened and "the whole result under 3,000 bytes" in shortened
    assert dropped.startswith(f"{8 - len(kept)} of 8 articles were left out to keep the result under 3,000 bytes")
    assert all(f"PMID {pmid}" in dropped for pmid in everything[len(kept) :])
    assert any(a["abstract"] and a["abstract"].endswith("…") for a in out["articles"])


def test_a_structured_abstract_keeps_its_conclusions_when_cut() -> None:
    sections = [
        ("OBJECTIVES", "Animal studies suggest that pesticides may alter thyroid function. " * 6),
        ("METHODS", "We measured TSH in 679 men. " * 10),
        ("RESULTS", "Aldrin exposure was associated with subclinical hypothyroidism. " * 6),
        ("CONCLUSIONS", "Long-term exposure to aldrin may alter thyroid function."),
    ]
    text = render_abstract(sections, 250)
    assert text is not None and len(text) <= 250
    assert text.endswith("CONCLUSIONS: Long-term exposure to aldrin may alter thyroid function.")
    assert text.startswith("… METHODS: We measured TSH in 679 men.")  # the background went first
    assert "… RESULTS: Aldrin exposure was associated with subclinical hypothyroidism. … CONCLUSIONS" in text
    assert render_abstract(sections, 120) == "… CONCLUSIONS: Long-term exposure to aldrin may alter thyroid function."
    assert render_abstract([], 400) is None
    assert render_abstract([(None, "Short.")], 400) == "Short."


# --- faults ----------------------------------------------------------------------------------------


def test_a_429_with_retry_after_is_waited_out(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    PubMedRoutes(replay, shared_data, pmids=[HEME])
    replay.fail_next(ESEARCH, Fault("status", 429, retry_after="1"))
    result = search(call_tool)
    assert result.ok, result.error
    assert result.result is not None and result.result["articles"][0]["pmid"] == HEME
    assert len(replay.calls(ESEARCH)) == 2
    assert result.duration_ms >= 900  # it honoured Retry-After: 1


def test_a_500_then_success_is_retried(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    PubMedRoutes(replay, shared_data, pmids=[HEME])
    replay.fail_next(EFETCH, Fault("status", 500))
    result = search(call_tool)
    assert result.ok, result.error
    assert result.result is not None and result.result["articles"][0]["title"].startswith("Magnetic studies")
    assert result.result["warnings"] == []
    assert len(replay.calls(EFETCH)) == 2


def test_esearch_failing_every_time_is_a_clear_error(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    PubMedRoutes(replay, shared_data)
    replay.fail_next(ESEARCH, *[Fault("status", 500)] * 3)  # the first try and both retries
    result = search(call_tool)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_ERROR"
    assert "PubMed (NCBI E-utilities)" in result.error.message and "500" in result.error.message
    assert len(replay.calls(ESEARCH)) == 3 and replay.calls(EFETCH) == []


def test_efetch_failing_every_time_still_lists_the_pmids(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    PubMedRoutes(replay, shared_data, pmids=[TELOMERE, PESTICIDE])
    replay.fail_next(EFETCH, *[Fault("status", 503)] * 3)
    result = search(call_tool)
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert [(a["pmid"], a["title"], a["url"]) for a in out["articles"]] == [
        (TELOMERE, None, f"https://pubmed.ncbi.nlm.nih.gov/{TELOMERE}/"),
        (PESTICIDE, None, f"https://pubmed.ncbi.nlm.nih.gov/{PESTICIDE}/"),
    ]
    (warning,) = out["warnings"]
    assert warning.startswith("PubMed found these articles but their records could not be fetched")


def test_a_timeout_is_reported_as_such(
    replay: ReplayServer, shared_data: Path, call_tool: Call, evidence_settings: Settings, make_client: Callable
) -> None:
    PubMedRoutes(replay, shared_data)
    replay.fail_next(ESEARCH, Fault("delay", delay_s=1.5))
    chosen = with_settings(evidence_settings, make_client, outbound_timeout_s=0.3, outbound_retries=0)
    result = call_tool(pubmed.register, pubmed.TOOL_NAME, {"query": "cancer"}, **chosen)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_TIMEOUT", result.error


def test_a_dropped_connection_is_retried(replay: ReplayServer, shared_data: Path, call_tool: Call) -> None:
    PubMedRoutes(replay, shared_data, pmids=[HEME])
    replay.fail_next(ESEARCH, Fault("drop"))
    result = search(call_tool)
    assert result.ok, result.error
    assert len(replay.calls(ESEARCH)) == 2


@pytest.mark.parametrize("kind", ["malformed", "truncate"])
def test_a_broken_esearch_body_is_an_upstream_error(
    replay: ReplayServer, shared_data: Path, call_tool: Call, kind: str
) -> None:
    PubMedRoutes(replay, shared_data)
    replay.fail_next(ESEARCH, Fault(kind))
    result = search(call_tool)
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_ERROR"
    assert "sent an esearch answer that is not valid XML" in result.error.message


@pytest.mark.parametrize("kind", ["malformed", "truncate"])
def test_a_broken_efetch_body_gives_the_pmids_and_a_warning(
    replay: ReplayServer, shared_data: Path, call_tool: Call, kind: str
) -> None:
    PubMedRoutes(replay, shared_data, pmids=[TELOMERE])
    replay.fail_next(EFETCH, Fault(kind))
    result = search(call_tool)
    assert result.ok, result.error
    assert result.result is not None
    assert [a["pmid"] for a in result.result["articles"]] == [TELOMERE]
    assert "not valid XML" in result.result["warnings"][0]


def test_an_esearch_error_without_a_count_is_an_upstream_error() -> None:
    body = b'<?xml version="1.0" ?><eSearchResult><ERROR>Invalid query syntax</ERROR></eSearchResult>'
    with pytest.raises(UpstreamError, match="could not run the search: Invalid query syntax"):
        parse_esearch(body)


def test_the_wrong_kind_of_answer_is_an_upstream_error(shared_data: Path) -> None:
    eutils = shared_data / "api-responses" / "ncbi-eutils"
    with pytest.raises(UpstreamError, match=r"sent <eSummaryResult> where a PubMed article set"):
        parse_efetch((eutils / "esummary1.xml").read_bytes())
    with pytest.raises(UpstreamError, match=r"sent <PubmedArticleSet> where an esearch answer"):
        parse_esearch((eutils / "pubmed1.xml").read_bytes())


def test_missing_fields_are_none_and_entities_are_not_expanded(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    body = (
        f'<?xml version="1.0"?><!DOCTYPE PubmedArticleSet [<!ENTITY xxe SYSTEM "file://{secret}">]>'
        "<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>123</PMID>"
        "<Article><ArticleTitle>Title &xxe;</ArticleTitle></Article></MedlineCitation></PubmedArticle>"
        "<PubmedArticle><MedlineCitation><PMID>456</PMID></MedlineCitation></PubmedArticle>"
        "<PubmedArticle><MedlineCitation/></PubmedArticle></PubmedArticleSet>"
    ).encode()
    first, second = parse_efetch(body)  # the record without a PMID is skipped
    assert first.pmid == "123" and "TOP-SECRET" not in (first.title or "")
    assert (second.pmid, second.title, second.journal, second.year, second.doi, second.authors) == (
        "456",
        None,
        None,
        None,
        None,
        [],
    )


# --- PHI ---------------------------------------------------------------------------------------------


def test_a_query_with_phi_is_refused_by_the_real_detector_and_never_sent(
    replay: ReplayServer, shared_data: Path, call_tool: Call, make_client: Callable
) -> None:
    PubMedRoutes(replay, shared_data)
    client = make_client(detect=None)  # PhiScreen(settings): Curbside's own detector
    result = call_tool(
        pubmed.register, pubmed.TOOL_NAME, {"query": "John Smith born 1950-03-02 metformin"}, client=client
    )
    assert result.status == "error" and result.error is not None
    assert result.error.code == "PHI_REFUSED"
    assert "'query'" in result.error.message and "PubMed" in result.error.message
    assert replay.calls() == []


def test_bad_arguments_are_refused_before_anything_is_sent(
    replay: ReplayServer, shared_data: Path, call_tool: Call
) -> None:
    PubMedRoutes(replay, shared_data)
    for args in (
        {"from_year": 2024, "to_year": 2020},
        {"max_results": 21},
        {"article_types": ["case_report"]},
        {"unknown": 1},
    ):
        result = search(call_tool, **args)
        assert result.status == "error" and result.error is not None
        assert result.error.code == "VALIDATION_ERROR", args
    assert replay.calls() == []
