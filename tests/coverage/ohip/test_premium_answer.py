"""The premium a question asks "on" or "on top of" its code, found by the text that governs each premium.
Passages are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt, A128 and A174), as stored."""

from __future__ import annotations

from curbside.coverage.ohip.premium_answer import STATED, premiums_asked, with_asked_premiums
from curbside.coverage.ohip.premium_texts import premium_texts
from curbside.coverage.ohip.query import plan
from curbside.coverage.ohip.sql_path import SqlFindings
from curbside.coverage.ohip.store import EditionRecord
from curbside.coverage.ohip.tool import ScheduleGetArgs, ScheduleGetResult

_EDITION = EditionRecord(1, "2025-02-14", "2025-03-03", None, "ohip.txt", "0" * 64, {}, "2025-03-03T00:00:00")
_HEAD = "OHIP Schedule 2025-03-03 — A: Psychiatry (19) > "
_PSYCHIATRY = [
    (
        "ohip-a174-1",
        "PSYCHIATRIC CLINICAL PRACTICE MODIFIERS/PREMIUMS [A174]",
        f"{_HEAD}PSYCHIATRIC CLINICAL PRACTICE MODIFIERS/PREMIUMS [A174]\n\nAcute post-discharge community "
        "psychiatric care Acute post-discharge community psychiatric care is a premium for a service that occurs "
        "during the (4) week period immediately following discharge where the patient was a hospital in-patient for "
        "treatment of a psychiatric condition. The premium is only applicable to K195, K196, K197 or K198.\n\n"
        "K187 Acute post-discharge community psychiatric care, to K195, K196, K197 or K198: add 15%",
    ),
    (
        "ohip-a174-2",
        "High risk community psychiatric care [A174]",
        f"{_HEAD}High risk community psychiatric care [A174]\n\nHigh risk community psychiatric care is a premium for "
        "a service that occurs during the six (6) month period following a suicide attempt. The premium is "
        "applicable to A190, A191, A192, A195, A197, A198, A695, A795, K195, K196, K197 and K198.\n\n"
        "K188 High risk community psychiatric care, to A190, A191, A192, A195, A197, A198, A695, A795, K195, K196, "
        "K197 or K198: add 15%\n\nPayment rules: 1.K187 or K188 are both payable with K195, K196, K197 or K198 when "
        "rendered during the first four (4) week period following discharge where the patient was a hospital "
        "in-patient for treatment of a psychiatric condition and the requirements for both K187 and K188 are met. "
        "2.K188 is not eligible for payment in addition to K189 on the same patient same day.\n\n"
        "K189 Urgent community psychiatric follow-up, to A190, A195, A192, A198, A695 or A795: $216.30",
    ),
]
_NEPHROLOGY = [
    (
        "ohip-a128-1",
        "Post Renal Transplant Assessment Premium [A128]",
        "OHIP Schedule 2025-03-03 — A: Nephrology (16) > Post Renal Transplant Assessment Premium [A128]\n\n"
        "Post renal transplant assessment premium is payable in addition to the amount payable for an assessment."
        "\n\nE060 Post Renal Transplant Assessment Premium: add 25%\n\nPayment rules: All of the following criteria "
        "apply: 1.The assessment is a: a.medical specific assessment (A163); b.medical specific re-assessment (A164); "
        "c.complex medical specific re-assessment (A161); or d.partial assessment (A168); 2.The service is rendered "
        "by a physician with a specialty designation in (16) Nephrology; 4.The purpose of the assessment is "
        "post-transplant care; and 5.The patient is within the first three years of having received their renal "
        "transplant.",
    )
]
_PREMIUMS = frozenset({"K187", "K188", "K189", "E060"})
_TEXTS = premium_texts(_PSYCHIATRY + _NEPHROLOGY, _PREMIUMS)


def _result(summary: str, confidence: float) -> ScheduleGetResult:
    return ScheduleGetResult(query="q", summary=summary, provenance=["sql"], confidence=confidence, schedule=None)


def test_a_premium_text_is_its_paragraph_and_its_own_rules_not_the_premium_listed_before_it() -> None:
    k189 = _TEXTS["K189"][0]
    assert k189.lead == ""  # K188's payment rules above it are K188's
    k188 = _TEXTS["K188"][0]
    assert "suicide attempt" in k188.lead and k188.rules.startswith("Payment rules: 1.K187 or K188")
    assert _TEXTS["E060"][0].section == "Nephrology (16)" and _TEXTS["E060"][0].page == "A128"


def test_the_premium_whose_paragraph_holds_the_question_s_circumstance_is_found() -> None:
    question = "psych - outpt psychotherapy (K197) w/ a pt who made a serious suicide attempt 3 mo ago. any premium?"
    titles = {"K197": "Individual out-patient psychotherapy"}
    found = premiums_asked(question, ["K197"], titles, {}, _TEXTS)
    assert [p.text.code for p in found] == ["K188"]
    assert found[0].lead.startswith("High risk community psychiatric care is a premium")


def test_a_premium_named_only_by_its_payment_rules_is_found() -> None:
    sql = SqlFindings(_EDITION, asked=["A164"], titles={"A164": "Medical specific re-assessment"})
    question = "nephro clinic f/u of a kidney transplant pt (A164) - any premium on top?"
    before = "A164 Medical specific re-assessment: $62.10 (Nephrology (16), A128). Source: X."
    out = with_asked_premiums(_result(before, 0.96), plan(ScheduleGetArgs(q=question)), sql, _TEXTS)
    assert "Premium on A164 (Nephrology (16), A128): E060 Post Renal Transplant Assessment Premium: add 25%." in (
        out.summary
    )
    assert out.summary.endswith("Source: X.") and out.confidence == 0.96


def test_no_premium_without_a_word_of_the_question_s_circumstance() -> None:
    sql = SqlFindings(_EDITION, asked=["K197"], titles={"K197": "Individual out-patient psychotherapy"})
    before = "K197 Individual out-patient psychotherapy: $89.70. Source: X."
    question = "is there a premium on K197 psychotherapy?"
    out = with_asked_premiums(_result(before, 0.99), plan(ScheduleGetArgs(q=question)), sql, _TEXTS)
    assert out.summary == before


def test_a_code_found_by_words_but_not_stated_as_certain_gets_no_premium() -> None:
    sql = SqlFindings(_EDITION, matched=["K197"], titles={"K197": "Individual out-patient psychotherapy"})
    before = "K197 Individual out-patient psychotherapy: $89.70. Source: X."
    question = "psychotherapy for a pt after a suicide attempt - any premium?"
    unsure = with_asked_premiums(_result(before, STATED - 0.1), plan(ScheduleGetArgs(q=question)), sql, _TEXTS)
    assert unsure.summary == before
    sure = with_asked_premiums(_result(before, STATED), plan(ScheduleGetArgs(q=question)), sql, _TEXTS)
    assert "K188" in sure.summary


# General Fees N3: the Schedule's line runs the fracture premiums together
_FRACTURE = [
    (
        "ohip-n3-1",
        "Fractures [N3]",
        "OHIP Schedule 2025-03-03 — N: General Fees > Fractures [N3]\n\n# E547 methyl methacrylate (not arthroplasty): "
        "$59.40 # E569 percutaneous pinning, to closed reduction fee .. add 50%: add 50% # E826 percutaneous pinning, "
        "to F005, F006, F009, F013 or F016: add 75%",
    )
]


def test_each_premium_of_a_line_running_several_together_is_read_by_its_own_entry() -> None:
    texts = premium_texts(_FRACTURE, frozenset({"E547", "E569", "E826"}))
    assert set(texts) == {"E547", "E569", "E826"}
    question = "closed reduction of a Bennett's fracture (F013) and then percutaneous K-wire pinning - premium?"
    found = premiums_asked(question, ["F013"], {"F013": "Bennett's - closed reduction"}, {}, texts)
    # E826 names F013; E569 is added to closed reductions in general and is not paid with E826
    assert [(p.text.code, p.line) for p in found] == [
        ("E826", "# E826 percutaneous pinning, to F005, F006, F009, F013 or F016: add 75%")
    ]
