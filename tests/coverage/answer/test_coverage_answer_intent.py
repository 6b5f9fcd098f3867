"""Routing a question to domains: hints first, then words; multi-domain questions reach every tool."""

from __future__ import annotations

import asyncio

import pytest

from curbside.app import Curbside
from curbside.coverage.answer.drug_names import formulary_lookup
from curbside.coverage.answer.intent import classify, split_clauses
from curbside.coverage.answer.models import DeviceHint, Hints

B, D, R = "billing", "device", "drug"

# (question, hints, expected domains) — words alone, no formulary loaded
TABLE: list[tuple[str, Hints | None, tuple[str, ...]]] = [
    ("Can I bill C124 as MRP?", None, (B,)),
    ("what can I add for an initial smoking cessation discussion?", None, (B,)),  # 'what can I add' is billing
    ("going up to see my pt in the ICU - is there any add-on per patient seen there?", None, (B,)),  # an add-on code
    ("cardiologist seeing a known CHF pt in clinic - any add-on for the heart failure?", None, (B,)),  # a premium
    ("is ezetimibe covered as add-on therapy to a statin?", None, (R,)),  # a drug's add-on is no billing word
    ("clobazam 10 as add-on for refractory sz - DIN and LU?", None, (R,)),  # a drug given as an add-on, too
    ("is Contrave covered for weight loss?", None, (R,)),  # a name English does not use, nothing else routed
    ("patient on ODSP needs a wheelchair: what does ADP cover?", None, (D,)),  # 'ODSP' beside a device: no drug
    ("pt's power tilt chair came from the CEP - does she have to pay for the loaner?", None, (D,)),  # a power chair
    ("can i bill c124?", None, (B,)),
    ("What is the fee for A007 in family practice?", None, (B,)),
    ("Which codes apply for a Thursday discharge?", None, (B,)),
    ("What premiums apply for house calls to elderly patients?", None, (B,)),
    ("Can I bill C124 if the patient was discharged 36 hours after admission?", None, (B,)),
    ("Is E083 payable with a consultation?", None, (B,)),
    ("freezing warts with liquid nitrogen, which code?", None, (B,)),  # asking for a code is billing
    ("what do we get paid for completing the long-term care health report form?", None, (B,)),
    ("phoned the medical officer of health to report a case - any code?", None, (B,)),
    ("what LU code do I write for Ozempic?", None, (R,)),
    ("what does a standard paeds consult pay?", None, (B,)),  # only billing leans: 'paeds' is not a drug
    (
        "regular derm consult in the dermatologist's office, how much?",
        None,
        (B,),
    ),  # an LU code is the formulary's, not a fee code
    ("What does ADP pay for a walker?", None, (D,)),
    # a bill or fee the program or its vendor pays is ADP's, not the Schedule's; beside OHIP it is billing too
    ("vendor wants to bill ADP as soon as the chair is ordered - allowed?", None, (D,)),
    ("a vendor offered our OT a fee for each ADP application, ok?", None, (D,)),
    ("can I bill OHIP for filling in the ADP walker form?", None, (B, D)),
    # a clause ending in 'code?' asks for a fee code; an 'LU code?' is the formulary's
    ("pt on apixaban, we follow her by phone every wk - monthly code?", None, (B, R)),
    ("Ozempic for T2DM - LU code?", None, (R,)),
    ("Are scooter batteries covered under ADP?", None, (D,)),
    ("Does the Assistive Devices Program fund hearing aids?", None, (D,)),
    ("Power wheelchair for a patient on ODSP", None, (D,)),
    ("What forms are needed for AAC device funding?", None, (D,)),
    ("3-year-old scooter needs motor repair - what's covered?", None, (D,)),
    ("Is apixaban covered?", None, (R,)),
    ("Is there a generic for Januvia?", None, (R,)),
    ("What are the LU requirements for Jardiance?", None, (R,)),
    ("cheapest covered atorvastatin 20 mg", None, (R,)),
    ("What's the cheapest statin that's covered?", None, (R,)),
    ("Is DIN 02388839 on the formulary?", None, (R,)),
    ("Are SGLT2 inhibitors listed on the ODB formulary?", None, (R,)),
    # several domains in one question
    ("patient discharged today on apixaban, needs a walker — what can I bill and what's covered?", None, (B, D, R)),
    (
        "My 75yo patient is being discharged after 3 days. Can I bill C124 as MRP? Also needs a walker - "
        "what's covered?",
        None,
        (B, D),
    ),
    ("Can I bill E083 with C124, and is metformin covered?", None, (B, R)),
    ("hearing aid batteries and his atorvastatin: what is funded?", None, (D, R)),
    ("Does ODB cover CGM sensors?", None, (D, R)),
    # hints route their domains whatever the words say
    ("Is it covered?", Hints(drug="Ozempic"), (R,)),
    ("What's covered?", Hints(device=DeviceHint(type="walker")), (D,)),
    ("What's covered?", Hints(device=DeviceHint(category="mobility")), (D,)),
    ("", Hints(codes=["C124"]), (B,)),
    ("what about the walker?", Hints(codes=["C124"]), (B, D)),  # a device noun still routes beside a hint
    # ...but with hints a domain needs a word naming its subject, not a leaning word
    ("is the formulary relevant to C124?", Hints(codes=["C124"]), (B,)),
    ("what can I bill, is it on the formulary?", Hints(drug="metformin"), (R,)),
    ("what can I bill for C124, is it on the formulary?", Hints(drug="metformin"), (B, R)),
    # nothing to route
    ("What's covered?", None, ()),
    ("Hello there", None, ()),
    ("", None, ()),
    ("   ", None, ()),
]


@pytest.mark.parametrize(("question", "hints", "expected"), TABLE, ids=[f"{i:02d}" for i in range(len(TABLE))])
def test_routes(question: str, hints: Hints | None, expected: tuple[str, ...]) -> None:
    assert classify(question, hints).domains == expected


def test_hints_override_a_leaning_word() -> None:
    question = "is the formulary relevant to C124?"
    assert classify(question).domains == (B, R)  # 'formulary' alone routes drug
    intent = classify(question, Hints(codes=["C124"]))
    assert intent.domains == (B,) and intent.from_hints == (B,)
    assert intent.scores == {B: 3, D: 0, R: 2}


def test_scores_count_each_word_once_and_report_the_evidence() -> None:
    intent = classify("Can I bill C124? Bill C124 as MRP, what is the fee?")
    assert intent.scores[B] == 3 + 2 + 2 + 2  # C124, bill, MRP, fee
    assert intent.labels(B) == ["fee code C124", "bill", "mrp", "fee"]
    assert intent.codes == ("C124",)


def test_extracts_codes_devices_and_drugs() -> None:
    intent = classify("Bill C124 and E083A; power wheelchair and hearing aid; apixaban and SGLT2 inhibitors")
    assert intent.codes == ("C124", "E083")
    assert intent.devices == (("power wheelchair", "mobility"), ("hearing aid", "hearing_devices"))
    assert intent.drugs == ("apixaban", "sglt2 inhibitors")


def test_clauses_and_the_part_each_tool_is_sent() -> None:
    question = "patient discharged today on apixaban, needs a walker — what can I bill and what's covered?"
    assert split_clauses(question) == [
        "patient discharged today on apixaban",
        "needs a walker",
        "what can I bill",
        "what's covered?",
    ]
    intent = classify(question)
    # 'what's covered?' names no domain clearly, so every tool gets it
    assert intent.text_for(B) == "patient discharged today on apixaban; what can I bill and what's covered?"
    assert intent.text_for(D) == "needs a walker; what's covered?"
    assert intent.text_for(R) == "patient discharged today on apixaban; what's covered?"


def test_a_hinted_domain_named_nowhere_gets_the_whole_question() -> None:
    intent = classify("Is it covered? She is 80.", Hints(drug="Ozempic"))
    assert intent.text_for(R) == "Is it covered? She is 80."


def _lookup(app: Curbside):  # noqa: ANN202 - the DrugLookup or None
    return asyncio.run(asyncio.to_thread(formulary_lookup, app.coverage_service("odb")))


def test_formulary_names_route_brands_words_alone_cannot(odb_app: Curbside) -> None:
    lookup = _lookup(odb_app)
    assert lookup is not None
    # without the formulary, a name English does not use is still read as a drug when nothing else routes
    assert classify("Is Ozempic covered for diabetes?").domains == (R,)
    assert classify("Is Ozempic covered for diabetes?", lookup=lookup).domains == (R,)
    intent = classify("Can my patient on Blexten get a walker?", lookup=lookup)
    assert intent.domains == (D, R) and intent.drugs == ("blexten",)
    assert classify("Is Januvia covered?", lookup=lookup).drugs == ("januvia",)


@pytest.mark.parametrize(
    "question",
    [
        "Can I bill C124 as MRP for a patient discharged after 3 days?",
        "What does ADP pay for a walker?",
        "Are hearing aid batteries covered by ADP?",
        "premium for a house call to an elderly patient on ODSP",
        "Which codes apply for a Thursday discharge?",
    ],
)
def test_formulary_names_add_no_drug_to_billing_or_device_questions(odb_app: Curbside, question: str) -> None:
    lookup = _lookup(odb_app)
    assert classify(question, lookup=lookup).domains == classify(question).domains
    assert R not in classify(question, lookup=lookup).domains


def test_a_name_the_schedule_lists_is_a_service_not_an_unlisted_drug() -> None:
    # nothing routes 'is haemorrhoidectomy insured?' but a name English does not use; without the Schedule's words it
    # reads as a drug ('… is not listed in the ODB Formulary'), with them it is a surgery the Schedule lists
    question = "pt wants her piles removed surgically - is haemorrhoidectomy insured?"
    assert classify(question).domains == (R,)
    intent = classify(question, schedule_word=lambda word: word.lower() == "haemorrhoidectomy")
    assert intent.domains == (B,) and intent.drugs == ()
    # a drug's name is none of the Schedule's words: still a drug
    assert classify("is Contrave covered for weight loss?", schedule_word=lambda word: False).domains == (R,)


def test_a_little_used_word_the_schedule_lists_names_the_service() -> None:
    # 'mohs' (Zipf 2.2) is no drug and the Schedule lists it (R081 Mohs micrographic surgery); 'BCCs' (1.35) reads
    # as a name, but beside a service only a name the drug lexicon knows is a drug
    question = "did mohs on 2 BCCs same pt same day - is the 2nd one covered?"
    assert classify(question).domains == (R,)  # no Schedule to ask: the rare name is all there is
    intent = classify(question, schedule_word=lambda word: word.lower() == "mohs")
    assert intent.domains == (B,) and intent.drugs == ()
    # beside a service word, a drug the lexicon knows still routes to the formulary
    intent = classify("holter after starting dofetilide?", schedule_word=lambda word: word.lower() == "holter")
    assert intent.domains == (B, R) and intent.drugs == ("dofetilide",)


def test_how_a_service_is_paid_asks_the_schedule() -> None:
    # the Schedule's payment rules: 'the second … 85%' (P006 twins, R081 Mohs)
    assert classify("delivered vaginal twins last night - how is the 2nd baby paid?").domains == (B,)
    assert classify("how is ozempic paid for on ODB?").domains == (R,)  # 'paid for' is coverage's


def test_a_three_letter_initialism_the_schedule_lists_names_the_service() -> None:
    question = "low risk 58F had her baseline bone density 2 yrs ago, can she get the 2nd DXA covered now?"
    assert classify(question).domains == ()
    assert classify(question, schedule_word=lambda word: word.lower() == "dxa").domains == (B,)


def test_neighbouring_clauses_are_sent_as_the_question_joined_them() -> None:
    # held-out 13: the drug asked follows a list of drugs that failed; cut at every comma and joined by '; ', the
    # list read as separate clauses and odb.get answered the first, carbamazepine
    question = "focal seizures, failed keppra, carbamazepine + lamotrigine - lacosamide ODB LU code?"

    def lookup(text: str) -> str | None:
        return next((w for w in ("keppra", "carbamazepine", "lamotrigine", "lacosamide") if w in text.lower()), None)

    intent = classify(question, lookup=lookup)
    assert intent.breaks == (", ", ", ", " - ")
    assert intent.text_for("drug") == question
    # clauses not next to each other are joined as before
    spread = classify("pt on apixaban. needs a walker - what does ADP pay? is it covered?")
    assert spread.text_for("device") == "needs a walker - what does ADP pay? is it covered?"
