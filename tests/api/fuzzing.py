"""What API fuzzing checks, and the real values it mixes into schemathesis' generated requests.

``RESPONSE_CHECKS``, for every response: no 5xx, a documented status code, a body matching
the documented response model, the documented content type and headers. ``CHECKS`` adds
that a route which answered 2xx refuses the same request without the key or with a wrong one
(schemathesis sends those two probes itself).

Real values get fuzzing past validation. Schemathesis draws any string for a question, a
namespace or a chunk id, so nearly every generated ask or search stops at validation
(400/422) and the pipeline behind it never runs. For the operations in ``_REAL``, half the
generated cases stay as generated and half get a few fields set from real values: questions
the bundled samples answer, chunk ids that exist, ``source.passages`` calls, job ids that
exist, ISO 8601 times (naive or with any offset, the ends of the calendar included). The
other fields stay as generated, so real questions meet odd ``k``, findings, patient contexts
and headers. The coverage tools are left out: they need data this home does not load, and
answer 503 without it (``test_fuzz_regressions.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import schemathesis
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from curbside.cli.demo import sample_paths

__all__ = ["CHECKS", "CHUNK_IDS", "QUESTIONS", "RESPONSE_CHECKS", "install"]

RESPONSE_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
# ignored_auth: a 2xx must turn into a refusal without the key, or with a wrong one
CHECKS = [*RESPONSE_CHECKS, ignored_auth]

QUESTIONS = (
    "can I start metformin if eGFR is 35?",
    "metformin dose in renal impairment",
    "malaria treatment in pregnancy, first trimester",
    "blood pressure target for adults with hypertension",
    "when should a patient be referred to the clinic?",
    "heart failure management options",
)
CHUNK_IDS = tuple(f"{path.stem}:v1:0" for path in sample_paths())
TOOL_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("source.passages", {"chunk_ids": [CHUNK_IDS[0]], "highlight_terms": ["metformin", "eGFR"]}),
    ("source.passages", {"chunk_ids": ["sample-missing:v1:0"]}),
    ("source.passages", {"chunk_ids": list(CHUNK_IDS), "highlight_terms": ["sample"]}),
    ("source.passages", {"chunk_ids": []}),
)
_FILTERS = ("doc_key", "source_type", "specialty")

_minutes = st.integers(1, 23 * 60 + 59)
_offsets = st.builds(
    lambda minutes, sign: timezone(timedelta(minutes=sign * minutes)), _minutes, st.sampled_from((1, -1))
)
_times = st.one_of(
    st.dates().map(date.isoformat),
    st.datetimes(timezones=st.none() | st.just(UTC) | _offsets).map(datetime.isoformat),
    # the ends of the calendar, with an offset that takes them past it in UTC
    _minutes.map(lambda m: datetime.min.replace(tzinfo=timezone(timedelta(minutes=m))).isoformat()),
    _minutes.map(lambda m: datetime.max.replace(tzinfo=timezone(timedelta(minutes=-m))).isoformat()),
)


def _ask(case: schemathesis.Case, question: str) -> None:
    if isinstance(case.body, dict):
        case.body.update(question=question, namespace="kb")
        for name in _FILTERS:
            case.body.pop(name, None)


def _search(case: schemathesis.Case, question: str) -> None:
    if isinstance(case.query, dict):
        case.query.update(q=question, namespace="kb")
        for name in _FILTERS:
            case.query.pop(name, None)


def _passages(case: schemathesis.Case, ids: list[str]) -> None:
    if isinstance(case.query, dict):
        case.query["chunk_ids"] = ",".join(ids)


def _tool(case: schemathesis.Case, call: tuple[str, dict[str, Any]]) -> None:
    name, arguments = call
    case.path_parameters = {"name": name}
    case.body = dict(arguments)


def _job(case: schemathesis.Case, job_id: int) -> None:
    case.path_parameters = {"job_id": job_id}


def _export(case: schemathesis.Case, window: tuple[str, str | None]) -> None:
    since, until = window
    case.query = {"since": since} if until is None else {"since": since, "until": until}


_REAL: dict[str, tuple[st.SearchStrategy[Any], Callable[[schemathesis.Case, Any], None]]] = {
    "POST /v1/ask": (st.sampled_from(QUESTIONS), _ask),
    "GET /v1/search": (st.sampled_from(QUESTIONS), _search),
    "GET /v1/passages": (
        st.lists(st.sampled_from([*CHUNK_IDS, "sample-missing:v1:0"]), min_size=1, max_size=4),
        _passages,
    ),
    "POST /v1/tools/{name}": (st.sampled_from(TOOL_CALLS), _tool),
    "GET /v1/jobs/{job_id}": (st.integers(1, 6), _job),
    "POST /v1/jobs/{job_id}/retry": (st.integers(1, 6), _job),
    "GET /v1/audit/export": (st.tuples(_times, st.none() | _times), _export),
}


def install(schema: schemathesis.BaseSchema) -> None:
    """Register the hook on ``schema`` (not globally): for the operations above, half the cases get real values."""

    @schema.hook("flatmap_case")
    def real_values(context: schemathesis.HookContext, case: schemathesis.Case) -> st.SearchStrategy[Any]:
        assert context.operation is not None
        entry = _REAL.get(context.operation.label)
        if entry is None:
            return st.just(case)
        values, apply = entry

        def patched(value: Any) -> schemathesis.Case:
            apply(case, value)
            return case

        return st.one_of(st.just(case), values.map(patched))
