"""coverage.answer on drug questions, through the application's executor and the real loaded formulary subset.

Facts (ODB Formulary Edition 43, formularyDate 2025-08-29) as read from the extract for
tests/coverage/test_odb_get.py: Ozempic 0.68mg/mL DIN 02540258, Limited Use (code 667, authorization
Indefinite), $223.26 / pays $223.26; Januvia 25mg DIN 02388839 general benefit, lowest cost
PMS-Sitagliptin 02503840 at $0.8197, saving $2.459; Blexten (bilastine) 20mg DIN 02454130 not a
benefit; Volibris 5mg DIN 02307065 exceptional access only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from curbside.app import Curbside
from curbside.coverage.answer.models import CoverageAnswerResult
from curbside.coverage.answer.synthesis import ASK_DOMAIN
from curbside.types import ToolCaller

LABEL = "ODB Formulary Edition 43 (2025-08-29)"


def answer(app: Curbside, caller: ToolCaller, **args: Any) -> CoverageAnswerResult:
    outcome = asyncio.run(app.tools.call("coverage.answer", args, caller=caller))
    assert outcome.status == "ok", outcome.error
    assert outcome.result is not None
    return CoverageAnswerResult.model_validate(outcome.result)


def _only_odb(r: CoverageAnswerResult) -> None:
    assert r.intent.domains == ["drug"]
    assert [(t.tool, t.status) for t in r.trace] == [("odb.get", "ok")]
    assert r.trace[0].call_id and r.trace[0].duration_ms > 0
    assert r.confidence == r.trace[0].confidence == r.domains[0].confidence  # one tool, weight 1.0
    assert LABEL in r.summary
    assert "[1]" not in r.summary  # odb.get's own citation markers are not carried over


def test_ozempic_limited_use(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is Ozempic covered for diabetes?")
    _only_odb(r)
    assert r.decision == "covered"
    assert r.trace[0].args == {"q": "Is Ozempic covered for diabetes?"}
    assert r.intent.signals["drug"] == ["covered", "drug ozempic"]
    points = [h.point for h in r.highlights]
    assert points[0] == (
        "Ozempic (SEMAGLUTIDE 0.68mg/mL Inj Sol - Pref Pen 3mL Pk, DIN 02540258): Limited Use benefit: covered only "
        f"when the LU criteria are met and the Reason for Use code is on the prescription ({LABEL}). "
        "Unit price $223.2600; the ministry pays $223.2600."
    )
    assert points[1] == "Limited Use: Reason for Use code 667; authorization period Indefinite."
    cited = r.highlights[0].citations[0]
    assert (cited.tool, cited.source, cited.loc) == (
        "odb.get",
        f"{LABEL} — HORMONES AND SUBSTITUTES",
        "ANTI-DIABETIC AGENTS INCRETIN MIMETICS",
    )
    assert cited.chunk_id and cited.excerpt == "[Ozempic DIN 02540258 $223.26, pays $223.26]"
    assert r.confidence >= 0.7 and r.followups == []  # odb.get's strength question is not bubbled when sure
    assert r.provenance_summary == "sql+vector"
    assert r.conflicts == [] and r.warnings == []


def test_januvia_lowest_cost_generic(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is there a generic for Januvia?")
    _only_odb(r)
    assert r.decision == "covered"
    assert r.highlights[0].point.startswith("Januvia (SITAGLIPTIN 25mg Tab, DIN 02388839): general benefit")
    assert "Unit price $3.2787; the ministry pays $0.8197." in r.highlights[0].point
    assert r.highlights[1].point == (
        "Lowest-cost interchangeable product: PMS-Sitagliptin (DIN 02503840) at $0.8197 per unit, "
        "saving $2.4590 per unit."
    )


def test_bilastine_hint_not_covered(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is it covered?", hints={"drug": "bilastine"})
    _only_odb(r)
    assert r.intent.from_hints == ["drug"]
    assert r.trace[0].args == {"q": "Is it covered?", "drug": "bilastine"}
    assert r.decision == "not_covered"
    assert r.highlights[0].point.startswith("Blexten (BILASTINE 20mg Tab, DIN 02454130): not a benefit")
    assert "No other ingredient in its class is covered." in r.summary


def test_volibris_not_covered_lists_covered_alternatives(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is Volibris 5 mg covered?")
    _only_odb(r)
    assert r.decision == "not_covered"
    assert r.highlights[0].point.startswith("Volibris (AMBRISENTAN 5mg Tab, DIN 02307065): ")
    alternatives = [h.point for h in r.highlights if h.point.startswith("Covered alternatives in its class: ")]
    assert len(alternatives) == 1 and alternatives[0].count("(") == 5  # odb.get's top 5


def test_unknown_din_bubbles_the_pharmacists_follow_up(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is DIN 12345678 covered?")
    assert r.decision == "needs_more_info"
    assert r.confidence < 0.7
    assert r.highlights == []
    assert [(f.ask, f.tool) for f in r.followups] == [
        (
            "Could you check the DIN on the package (8 digits) or tell me the drug's name and strength?",
            "odb.get",
        )
    ]
    assert r.summary.startswith(f"DIN 12345678 is not in the {LABEL}.")


def test_empty_question_asks_what_it_is_about(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="   ")
    assert r.decision == "needs_more_info"
    assert r.trace == [] and r.domains == [] and r.confidence == 0.0
    assert [(f.ask, f.reason) for f in r.followups] == [(ASK_DOMAIN, "The question is empty.")]
    assert r.summary == "No question was asked."


def test_question_naming_no_domain_calls_no_tool(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="What's covered?")
    assert r.decision == "needs_more_info" and r.trace == []
    assert r.intent.scores == {"billing": 0, "device": 0, "drug": 1}
    assert r.followups[0].reason == "No billing, device or drug term was recognised in the question."


def test_private_plan_is_warned_about(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is Januvia covered?", patient={"plan": "private", "age": 50})
    assert r.decision == "covered"
    assert r.warnings == [
        "The patient's drug plan is 'private': odb.get answers from the Ontario Drug Benefit formulary, "
        "which decides coverage for ODB recipients only."
    ]


def test_bad_patient_fields_become_follow_ups(odb_app: Curbside, caller: ToolCaller) -> None:
    r = answer(odb_app, caller, question="Is Januvia covered?", patient={"age": -4, "income": -100})
    assert r.decision == "covered"  # the drug part does not depend on them
    assert r.followups[0].ask == "How old is the patient?"
    assert "patient.income is used only by the device (ADP) part; no device was asked about." in r.warnings


def test_invalid_arguments_are_refused_with_the_field_named(odb_app: Curbside, caller: ToolCaller) -> None:
    outcome = asyncio.run(
        odb_app.tools.call("coverage.answer", {"question": "x", "patient": {"plan": "gold"}}, caller=caller)
    )
    assert outcome.status == "error" and outcome.error is not None
    assert outcome.error.code == "VALIDATION_ERROR" and "patient.plan" in outcome.error.message
