"""Each path of schedule.get timing out or failing: a partial answer with a trace, never an exception."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from coverage_helpers import SlowSnapshots, broken_search, slow_search, tuned_services

from curbside.app import Curbside
from curbside.coverage.ohip.service import OhipService
from curbside.coverage.ohip.store import OhipReader
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult
from curbside.errors import NotLoadedError
from curbside.settings import Settings
from curbside.types import Passage

Make = Callable[..., OhipService]


def _get(service: OhipService, **args: object) -> ScheduleGetResult:
    return asyncio.run(service.get(ScheduleGetArgs(**args)))  # type: ignore[arg-type]


class SlowReader(SlowSnapshots, OhipReader):
    """The Schedule's reader, late (see ``SlowSnapshots``)."""


@pytest.fixture
def tuned(ohip_app: Curbside) -> Iterator[Make]:
    """Services on the loaded home with other ohip.* settings (and, when given, another search or a slow reader)."""
    yield from tuned_services(ohip_app, OhipService, SlowReader)


def stale_passage(text: str, k: int) -> list[Passage]:
    """A passage left by another load: an older edition, stating another fee for C124 under Anaesthesia."""
    body = "C124 Subsequent visits by the MRP - day of discharge: $59.00"
    return [
        Passage(
            chunk_id="ohip-a72-anaesthesia-01:v1:0",
            doc_key="ohip-a72-anaesthesia-01",
            title="OHIP Schedule 2024-04-01 — A: Anaesthesia (01)",
            section_path="NON-EMERGENCY HOSPITAL IN-PATIENT SERVICES [A74]",
            text=f"OHIP Schedule 2024-04-01 — A: Anaesthesia (01) > NON-EMERGENCY HOSPITAL IN-PATIENT SERVICES [A74]\n\n{body}",
            score=0.5,
            namespace="ohip",
        )
    ]


def test_search_fails_sql_answers_alone(tuned: Make) -> None:
    r = _get(tuned(broken_search), codes=["C124"], specialty="01")
    sql, search = r.trace
    assert (sql.path, sql.status, search.path, search.status) == ("sql", "ok", "search", "error")
    assert r.warnings[0] == "The search path failed (error): the search index is unavailable"
    assert r.provenance == ["sql"] and r.items[0].fee == 61.15
    assert r.confidence == 0.96  # 0.9 + 0.02 x 3 more sections listing C124, no corroborating passage
    # still cited: the SQL path looks up the stored passage of the code's own heading
    assert r.citations[0].section_path == "Subsequent visit by the MRP - day of discharge (C124) [GP45]"


def test_search_times_out(tuned: Make) -> None:
    r = _get(tuned(slow_search, ohip_search_timeout_ms=50), codes=["A005"])
    search = r.trace[1]
    assert (search.status, search.error) == ("timeout", "no answer within 50 ms")
    assert search.duration_ms >= 50  # it waited its whole timeout (how promptly it stops is bench_*'s business)
    assert r.items[0].fee == 87.90 and r.confidence == 0.9


def test_total_timeout_cuts_the_slow_path(tuned: Make) -> None:
    r = _get(tuned(slow_search, ohip_total_timeout_ms=250), codes=["A005"])
    assert r.trace[1].status == "timeout" and r.trace[1].error == "the call's 250 ms total ran out first"
    assert r.trace[0].status == "ok" and r.items[0].fee == 87.90


def test_sql_times_out_passages_answer(tuned: Make) -> None:
    # the search path gets ample time, so a loaded machine cannot time it out as well
    service = tuned(slow_sql=True, ohip_sql_timeout_ms=50, ohip_search_timeout_ms=10_000, ohip_total_timeout_ms=15_000)
    r = _get(service, q="What is the fee for A005?")
    sql, search = r.trace
    assert (sql.status, sql.error, search.status) == ("timeout", "no answer within 50 ms", "ok")
    assert r.provenance == ["vector"] and r.rule_checks == []
    a005 = r.items[0]
    assert (a005.code, a005.fee, a005.fee_text, a005.page) == ("A005", 87.90, "$87.90", "A1")
    assert r.schedule is not None and r.schedule.effective == "2025-03-03"
    assert r.confidence == round(0.6 + 0.03 * len(r.citations), 4) and r.citations
    assert r.warnings[-1].startswith("Answered from indexed passages only")


def test_a_late_sql_path_is_waited_for_when_the_passages_answer_nothing_better(tuned: Make) -> None:
    # a question naming no code: the passages would answer with whatever codes the first ones name, so the SQL
    # path past its 50 ms (the slow reader pauses 300 ms, as a loaded machine does) answers, within the total
    service = tuned(slow_sql=True, ohip_sql_timeout_ms=50, ohip_search_timeout_ms=10_000, ohip_total_timeout_ms=15_000)
    r = _get(service, q="fee for a general assessment by a family doctor?")
    sql = r.trace[0]
    assert (sql.status, sql.error) == ("ok", None) and sql.duration_ms >= 50
    assert "sql" in r.provenance
    first = next(i for i in r.items if i.relation == "matched")
    assert (first.code, first.fee) == ("A003", 87.35)  # Family Practice (00), A1


def test_a_late_sql_path_is_still_cut_by_the_total(tuned: Make) -> None:
    service = tuned(slow_sql=True, ohip_sql_timeout_ms=50, ohip_search_timeout_ms=10_000, ohip_total_timeout_ms=150)
    r = _get(service, q="fee for a general assessment by a family doctor?")
    assert (r.trace[0].status, r.trace[0].error) == ("timeout", "the call's 150 ms total ran out first")
    assert "sql" not in r.provenance


def test_both_paths_fail(tuned: Make) -> None:
    # with no passage, the SQL path is waited for to the call's total (150 ms, under the slow SQL's pause)
    r = _get(tuned(broken_search, slow_sql=True, ohip_sql_timeout_ms=50, ohip_total_timeout_ms=150), codes=["C124"])
    assert [t.status for t in r.trace] == ["timeout", "error"]
    assert r.needs_more_info and r.items == [] and r.confidence == 0.0
    assert r.summary == "The Schedule could not be read for this request; its tables and its passages both failed."


def test_nothing_loaded_is_an_error_saying_how_to_load(tmp_path: Path) -> None:
    app = Curbside(Settings(home=tmp_path / "empty"))
    service = OhipService(app.source_parts, search=lambda text, k: [])
    try:
        with pytest.raises(NotLoadedError) as raised:
            _get(service, codes=["C124"])
    finally:
        service.close()
        app.close()
    assert raised.value.code == "NOT_LOADED"
    assert raised.value.message == (
        "No OHIP Schedule of Benefits is loaded; run `curbside coverage load DIR` with the schedule's text "
        "(ohip-schedule-of-benefits-*.txt) in DIR."
    )


def test_a_stale_passage_is_a_conflict_and_the_tables_win(tuned: Make) -> None:
    r = _get(tuned(stale_passage), codes=["C124"], specialty="01")
    assert r.items[0].fee == 61.15
    assert {(c.field, c.subject, c.sql_value, c.vector_value) for c in r.conflicts} == {
        ("edition", "schedule", "2025-03-03", "2024-04-01"),
        ("fee", "C124 (Anaesthesia (01))", 61.15, 59.0),
    }
    assert r.confidence == round(0.9 + 0.03 + 0.06 - 0.2, 4)  # one passage, 3 more listings, two conflicts
    assert r.warnings[-1].startswith("2 fact(s) in the indexed passages disagree with the Schedule tables")
