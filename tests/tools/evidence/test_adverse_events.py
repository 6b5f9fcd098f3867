"""``evidence.adverse_events`` over the recorded FAERS answers.

The recorded count (``drugevent/count.0``) counts ``patient.drug.openfda.pharm_class_epc.exact``;
the replay serves it for the reaction count query, since every count answer has the same shape
(``{"results": [{"term", "count"}]}``). Its terms are therefore class names, its counts real.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from curbside.settings import Settings
from curbside.tools import ToolResult
from curbside.tools.evidence import adverse_events
from curbside.tools.evidence.common import EvidenceDeps
from curbside.tools.outbound import OutboundClient
from tests.tools.evidence.openfda_routes import OpenFda, install_openfda
from tests.tools.evidence.replay import Fault, ReplayServer

TOOL = adverse_events.TOOL
EVENT = "/openfda/drug/event.json"
COUNT_FIELD = "patient.reaction.reactionmeddrapt.exact"

Call = Callable[..., ToolResult]


@pytest.fixture
def fda(replay: ReplayServer, shared_data: Path) -> OpenFda:
    return install_openfda(replay, shared_data)


def _call(call_tool: Call, args: dict[str, Any], **kw: Any) -> ToolResult:
    return call_tool(adverse_events.register, TOOL, args, **kw)


def _ok(out: ToolResult) -> dict[str, Any]:
    assert out.ok and out.result is not None, out.error
    return out.result


def test_counts_and_total_from_the_recorded_answers(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    res = _ok(_call(call_tool, {"drug": "Humira", "top": 5}))
    assert res["found"] is True
    assert res["reactions"] == [
        {"term": "Nonsteroidal Anti-inflammatory Drug [EPC]", "count": 497173},
        {"term": "Benzodiazepine [EPC]", "count": 255240},
        {"term": "Corticosteroid [EPC]", "count": 238330},
        {"term": "Proton Pump Inhibitor [EPC]", "count": 179126},
        {"term": "Anti-epileptic Agent [EPC]", "count": 177453},
    ]
    assert res["total_reports"] == 1  # meta.results.total of drugevent/search.0
    assert res["data_last_updated"] == "2017-03-06"
    assert (
        res["caveat"].startswith("FAERS counts are spontaneous reports")
        and "neither causation nor rates" in res["caveat"]
    )
    count, total = replay.calls(EVENT)
    assert count.arg("search") == 'patient.drug.medicinalproduct:"Humira"'
    assert count.arg("count") == COUNT_FIELD and count.arg("limit") == "5"
    assert total.arg("search") == 'patient.drug.medicinalproduct:"Humira"' and total.arg("limit") == "1"
    assert total.arg("count") is None
    (cite,) = res["citations"]
    assert cite["kind"] == "openfda_query" and cite["id"] == 'patient.drug.medicinalproduct:"Humira"'
    assert cite["url"] == (
        f"{replay.url}/openfda/drug/event.json?search=patient.drug.medicinalproduct%3A%22Humira%22"
        f"&count={COUNT_FIELD}&limit=5"
    )
    assert cite["retrieved"] == "2026-11-27"


def test_serious_only_adds_serious_1_with_and_never_or(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    res = _ok(_call(call_tool, {"drug": "Humira", "serious_only": True, "top": 2}))
    assert res["serious_only"] is True and len(res["reactions"]) == 2
    search = replay.calls(EVENT)[0].arg("search") or ""
    assert search == 'patient.drug.medicinalproduct:"Humira" AND serious:1'
    assert "+OR+" not in search and " OR " not in search
    assert "+AND+serious%3A1" in res["citations"][0]["url"]  # a space goes out as '+', never a literal '+'


def test_falls_back_to_the_generic_name(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    res = _ok(_call(call_tool, {"drug": "adalimumab"}))
    assert res["searched"] == 'patient.drug.openfda.generic_name:"adalimumab"'
    searches = [r.arg("search") for r in replay.calls(EVENT)]
    assert searches == [
        'patient.drug.medicinalproduct:"adalimumab"',
        'patient.drug.openfda.generic_name:"adalimumab"',
        'patient.drug.openfda.generic_name:"adalimumab"',
    ]


def test_no_reports_is_an_answer(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    res = _ok(_call(call_tool, {"drug": "Nosuchdrug"}))
    assert res["found"] is False and res["reactions"] == [] and res["total_reports"] is None
    assert res["message"] == "no FAERS reports name 'Nosuchdrug' (searched as reported, then as a generic name)."
    assert len(replay.calls(EVENT)) == 2  # no total asked for when nothing matched


def test_total_that_fails_leaves_the_counts_with_a_warning(fda: OpenFda, call_tool: Call) -> None:
    fda.fail_totals = True
    res = _ok(_call(call_tool, {"drug": "Humira", "top": 3}))
    assert len(res["reactions"]) == 3 and res["total_reports"] is None
    assert res["warnings"] == [
        "The number of matching reports could not be read (openFDA answered HTTP 500: Check your request and try "
        "again)."
    ]


@pytest.mark.parametrize("top", [0, 51])
def test_top_is_bounded(fda: OpenFda, replay: ReplayServer, call_tool: Call, top: int) -> None:
    out = _call(call_tool, {"drug": "Humira", "top": top})
    assert out.status == "error" and out.error is not None and out.error.code == "VALIDATION_ERROR"
    assert replay.calls(EVENT) == []


def test_429_with_retry_after_then_success(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    replay.fail_next(EVENT, Fault("status", 429, retry_after="1"))
    started = time.perf_counter()
    res = _ok(_call(call_tool, {"drug": "Humira"}))
    assert time.perf_counter() - started >= 0.9
    assert res["reactions"][0]["count"] == 497173
    assert len(replay.calls(EVENT)) == 3  # 429, count, total


def test_500_forever_names_openfda(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    replay.fail_next(EVENT, *[Fault("status", 500)] * 3)
    out = _call(call_tool, {"drug": "Humira"})
    assert out.status == "error" and out.error is not None
    assert out.error.code == "UPSTREAM_ERROR" and out.error.message == "openFDA answered HTTP 500: injected"


def test_malformed_body_is_an_upstream_error(fda: OpenFda, replay: ReplayServer, call_tool: Call) -> None:
    replay.fail_next(EVENT, Fault("malformed"))
    out = _call(call_tool, {"drug": "Humira"})
    assert out.status == "error" and out.error is not None and out.error.code == "UPSTREAM_ERROR"


def test_count_rows_without_terms_are_an_upstream_error(fda: OpenFda, call_tool: Call) -> None:
    fda.event_count = {"meta": {}, "results": [{"value": 3}]}
    out = _call(call_tool, {"drug": "Humira"})
    assert out.status == "error" and out.error is not None
    assert out.error.message == "openFDA's count answer held no term/count pairs; try again later."


def test_result_size_and_key(
    fda: OpenFda,
    replay: ReplayServer,
    evidence_settings: Settings,
    make_client: Callable[..., OutboundClient],
    call_tool: Call,
) -> None:
    settings = evidence_settings.model_copy(update={"openfda_api_key": SecretStr("k-9")})
    client = make_client(settings)
    res = _ok(
        _call(
            call_tool,
            {"drug": "Humira", "top": 50},
            deps=EvidenceDeps(settings, client=lambda: client, today=lambda: "2026-11-27"),
        )
    )
    assert [r.arg("api_key") for r in replay.calls(EVENT)] == ["k-9", "k-9"]
    assert "k-9" not in json.dumps(res)
    assert len(json.dumps(res, ensure_ascii=False).encode()) <= evidence_settings.evidence_result_bytes
