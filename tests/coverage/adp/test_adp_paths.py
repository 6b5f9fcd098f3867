"""Each path of ``adp.get`` timing out or failing: a partial answer with a trace, never an exception."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from coverage_helpers import SlowSnapshots, broken_search, slow_search, tuned_services

from curbside.app import Curbside
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.store import AdpReader
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult
from curbside.errors import NotLoadedError
from curbside.settings import Settings
from curbside.types import Passage

Make = Callable[..., AdpService]
WALKER = "What does ADP pay for a walker?"


def _get(service: AdpService, **args: object) -> AdpGetResult:
    return asyncio.run(service.get(AdpGetArgs(**args)))


class SlowReader(SlowSnapshots, AdpReader):
    """The manuals' reader, late (see ``SlowSnapshots``)."""


@pytest.fixture
def tuned(adp_app: Curbside) -> Iterator[Make]:
    """Services on the loaded home with other adp.* settings (and, when given, another search or a slow reader)."""
    yield from tuned_services(adp_app, AdpService, SlowReader)


def test_search_path_fails_sql_answers_alone(tuned: Make) -> None:
    r = _get(tuned(broken_search), q=WALKER)
    sql, search = r.trace
    assert (sql.path, sql.status, search.path, search.status) == ("sql", "ok", "search", "error")
    assert r.warnings == ["The search path failed (error): the search index is unavailable"]
    assert r.provenance == ["sql"]
    assert r.funding is not None and (r.funding.adp_contribution, r.funding.client_share_percent) == (75.0, 25.0)
    assert r.confidence == 0.9  # one rule cited (§705), no corroborating passage
    # still cited: the SQL path knows which stored passage holds §705
    assert [(c.page, c.excerpt[:12], c.score) for c in r.citations] == [(38, "§705: The Pr", 0.0)]
    assert r.citations[0].section_path == "Part 7: Funding and Payment > 705 Funding Amount for ADP Clients"


def test_search_path_times_out(tuned: Make) -> None:
    r = _get(tuned(slow_search, adp_search_timeout_ms=50), q="Does ADP cover power wheelchair batteries?")
    search = r.trace[1]
    assert (search.status, search.error) == ("timeout", "no answer within 50 ms")
    assert search.duration_ms >= 50  # it waited its whole timeout (how promptly it stops is bench_*'s business)
    assert [e.source.section for e in r.exclusion_rules if e.asked] == ["200.02", "225"]


def test_total_timeout_cuts_the_slow_path(tuned: Make) -> None:
    r = _get(tuned(slow_search, adp_total_timeout_ms=250), q=WALKER)
    assert (r.trace[1].status, r.trace[1].error) == ("timeout", "the call's 250 ms total ran out first")
    assert r.trace[0].status == "ok" and r.funding is not None


def test_sql_path_times_out_passages_answer(tuned: Make) -> None:
    service = tuned(slow_sql=True, adp_sql_timeout_ms=50, adp_search_timeout_ms=10_000, adp_total_timeout_ms=15_000)
    r = _get(service, q="Does ADP pay for batteries?")
    sql, search = r.trace
    assert (sql.status, sql.error, search.status) == ("timeout", "no answer within 50 ms", "ok")
    assert r.provenance == ["vector"] and r.funding is None and r.exclusion_rules == []
    assert r.confidence == round(0.6 + 0.03 * len(r.citations), 4) and len(r.citations) == 3
    assert r.edition is not None and r.edition.startswith("ADP manuals, July 2023:")
    assert r.summary.startswith("The ADP rule tables could not be read; the closest passage of the manuals is")
    assert r.warnings[-1].startswith("Answered from indexed passages of the ADP manuals only")
    assert all(c.page is not None for c in r.citations)


def test_nothing_loaded_is_an_error_saying_how_to_load(tmp_path: Path) -> None:
    app = Curbside(Settings(home=tmp_path / "empty"))
    service = AdpService(app.source_parts, search=lambda text, k: [])
    try:
        with pytest.raises(NotLoadedError) as raised:
            _get(service, q=WALKER)
    finally:
        service.close()
        app.close()
    assert (raised.value.code, raised.value.message) == (
        "NOT_LOADED",
        "No ADP manuals are loaded; run `curbside coverage load DIR` with the ministry's ADP manuals (PDF) in DIR.",
    )


def test_both_paths_fail(tuned: Make) -> None:
    r = _get(tuned(broken_search, slow_sql=True, adp_sql_timeout_ms=50), q=WALKER)
    assert [t.status for t in r.trace] == ["timeout", "error"]
    assert r.needs_more_info and r.funding is None and r.confidence == 0.0
    assert r.summary.startswith("The ADP manuals could not be read for this request;")


def test_a_passage_that_disagrees_with_the_rules_is_a_conflict(tuned: Make, adp_app: Curbside) -> None:
    """An index holding another text of §705 (a stale load): reported, the rule wins, confidence drops."""
    row = adp_app.db.one(
        "SELECT c.chunk_id, c.section_path, c.text, c.page FROM chunks c JOIN documents d "
        "ON d.current_version_id = c.version_id WHERE d.doc_key = 'adp-mobility-devices' AND instr(c.text, ?) > 0",
        ("\n705 ",),
    )
    assert row is not None
    chunk_id, section_path, text, page = row
    stale = Passage(
        chunk_id=chunk_id,
        doc_key="adp-mobility-devices",
        title="Mobility Devices Policy and Administration Manual (July 2023)",
        section_path=section_path,
        page=page,
        score=1.0,
        text=text.replace(
            "75 percent (75%) of the Approved Price for Mobility", "70 percent (70%) of the Approved Price for Mobility"
        ),
        namespace="adp",
    )
    r = _get(tuned(lambda q, k: [stale]), q=WALKER)
    assert [(c.field, c.subject, c.sql_value, c.vector_value, c.chunk_id) for c in r.conflicts] == [
        ("adp_percent", "§705", 75.0, 70.0, chunk_id)
    ]
    assert r.funding is not None and r.funding.adp_contribution == 75.0
    assert r.confidence == round(0.9 + 0.03 - 0.1, 4)  # one corroborating passage, one conflict
