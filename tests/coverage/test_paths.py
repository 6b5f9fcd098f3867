"""Each path of ``odb.get`` timing out or failing: a partial answer with a trace, never an exception.

With no edition loaded at all there is nothing to answer from: that alone is an error (NOT_LOADED).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from coverage_helpers import SlowSnapshots, broken_search, slow_search, tuned_services

from curbside.app import Curbside
from curbside.cli._exit import exit_code_for
from curbside.coverage.odb.service import OdbService
from curbside.coverage.odb.store import OdbReader
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult
from curbside.errors import NotLoadedError
from curbside.settings import Settings

Make = Callable[..., OdbService]
LABEL = "ODB Formulary Edition 43 (2025-08-29)"


def _get(service: OdbService, **args: object) -> OdbGetResult:
    return asyncio.run(service.get(OdbGetArgs(**args)))


class SlowReader(SlowSnapshots, OdbReader):
    """The formulary's reader, late (see ``SlowSnapshots``)."""


@pytest.fixture
def tuned(odb_app: Curbside) -> Iterator[Make]:
    """Services on the loaded home with other odb.* settings (and, when given, another search or a slow reader)."""
    yield from tuned_services(odb_app, OdbService, SlowReader)


def test_search_path_fails_sql_answers_alone(tuned: Make) -> None:
    r = _get(tuned(broken_search), q="Is there a generic for Januvia?")
    sql, search = r.trace
    assert (sql.path, sql.status, search.path, search.status) == ("sql", "ok", "search", "error")
    assert search.error == "the search index is unavailable"
    assert r.warnings[0] == "The search path failed (error): the search index is unavailable"
    assert r.provenance == ["sql"]
    assert r.coverage is not None and (r.coverage.din, r.coverage.unit_price) == ("02388839", 3.2787)
    assert r.confidence == 0.94  # 0.9 + 0.02 x 2 more Januvia products, no corroborating passage
    # still cited: the SQL path looks up the stored passage that holds the DIN
    assert [c.excerpt for c in r.citations] == ["[Januvia DIN 02388839 $3.2787, pays $0.8197]"]
    assert LABEL in r.citations[0].title


def test_search_path_times_out(tuned: Make) -> None:
    r = _get(tuned(slow_search, odb_search_timeout_ms=50), drug="Jardiance")
    search = r.trace[1]
    assert (search.status, search.error) == ("timeout", "no answer within 50 ms")
    assert search.duration_ms >= 50  # it waited its whole timeout (how promptly it stops is bench_*'s business)
    assert r.coverage is not None and r.coverage.din == "02443937"
    assert r.confidence == 0.92  # 0.9 + 0.02 for Jardiance's second product (25mg), no passage


def test_total_timeout_cuts_the_slow_path(tuned: Make) -> None:
    r = _get(tuned(slow_search, odb_total_timeout_ms=250), drug="Jardiance")
    assert r.trace[1].status == "timeout" and r.trace[1].error == "the call's 250 ms total ran out first"
    assert r.trace[0].status == "ok" and r.coverage is not None


def test_sql_path_times_out_passages_answer(tuned: Make) -> None:
    # the search path gets ample time, so a loaded CI machine cannot time it out as well
    service = tuned(slow_sql=True, odb_sql_timeout_ms=50, odb_search_timeout_ms=10_000, odb_total_timeout_ms=15_000)
    r = _get(service, q="Is there a generic for Januvia?")
    sql, search = r.trace
    assert (sql.status, sql.error, search.status) == ("timeout", "no answer within 50 ms", "ok")
    assert r.resolved_as == "search" and r.provenance == ["vector"]
    c = r.coverage
    assert c is not None
    assert (c.din, c.brand_name, c.status, c.unit_price, c.amount_mohltc_pays) == (
        "02388839",
        "Januvia",
        "general_benefit",
        3.2787,
        0.8197,
    )
    assert r.formulary is not None and r.formulary.label == LABEL and r.formulary.edition_code is None
    assert r.interchangeable == [] and r.lu_criteria == []
    assert r.confidence == round(0.6 + 0.03 * len(r.citations), 4) and r.citations
    assert "Answered from indexed passages" in r.warnings[-1]


def test_nothing_loaded_is_an_error_saying_how_to_load(tmp_path: Path) -> None:
    """No edition: not an "ok" answer that could not read anything, but NOT_LOADED naming the command."""
    app = Curbside(Settings(home=tmp_path / "empty"))
    service = OdbService(app.source_parts, search=lambda text, k: [])
    try:
        with pytest.raises(NotLoadedError) as raised:
            _get(service, drug="Januvia")
    finally:
        service.close()
        app.close()
    assert raised.value.code == "NOT_LOADED" and exit_code_for(raised.value.code) == 4
    assert raised.value.message == (
        "No ODB formulary is loaded; run `curbside coverage load DIR` with the ministry's XML extract "
        "(odb*formulary*.xml) in DIR."
    )


def test_both_paths_fail(tuned: Make) -> None:
    r = _get(tuned(broken_search, slow_sql=True, odb_sql_timeout_ms=50), drug="Januvia")
    assert [t.status for t in r.trace] == ["timeout", "error"]
    assert r.needs_more_info and r.coverage is None and r.confidence == 0.0
    assert r.summary.startswith("The formulary could not be read for this request;")
