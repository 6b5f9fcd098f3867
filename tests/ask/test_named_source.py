"""The document a question names as its source is asked alone, without its name (``ask.named_source``)."""

from __future__ import annotations

import asyncio

import pytest

from curbside.app import Curbside
from curbside.ask.named_source import named_source
from curbside.types import AskRequest

# the shared guideline documents as the benchmark's knowledge base holds them (doc_key, title)
DOCUMENTS = [
    ("cep-anxiety-and-depression", "Anxiety and Depression"),
    (
        "moh-adp-policies-and-procedures-manual-assistive-devices-program-2023-07-01",
        "Policies and Procedures Manual for the Assistive Devices Program",
    ),  # fmt: skip
    (
        "moh-adp-policy-and-administration-manual-mobility-devices-2023-07-01",
        "Mobility Devices Policies and Procedures Manual",
    ),  # fmt: skip
    ("sample-hypertension", "SAMPLE — Hypertension in adults (not clinical advice)"),
    ("sample-malaria-guideline", "SAMPLE Guideline Book (not clinical advice)"),
    ("sample-metformin-renal", "SAMPLE — Metformin and kidney function (not clinical advice)"),
    ("pntd.0002065", "Serological Evidence of Rift Valley Fever Virus Circulation in Sheep and Goats"),
]


def listed() -> list[str]:
    return [doc for doc, _ in DOCUMENTS]


@pytest.mark.parametrize(
    ("question", "rest"),
    [
        (
            "pt refuses to come in person - ok per CEP to do the anx/dep check-ins by phone or email?",
            "pt refuses to come in person - ok to do the anx/dep check-ins by phone or email?",
        ),
        ("what drug class does CEP list trintellix under?", "what drug class does list trintellix under?"),
        (
            "do i have to hand every pt a PHQ-9? what's CEP's stance",
            "do i have to hand every pt a PHQ-9? what's stance",
        ),
        (
            "cipralex - how does the CEP table rate its tolerability?",
            "cipralex - how does the table rate its tolerability?",
        ),
        ("according to the CEP, when to refer?", "when to refer?"),
    ],
)
def test_a_source_named_by_its_short_name_is_that_document(question: str, rest: str) -> None:
    named = named_source(question, listed)
    assert named is not None
    assert (named.doc_key, named.name, named.question) == ("cep-anxiety-and-depression", "CEP", rest)


def test_a_name_in_a_documents_key_names_it_and_one_in_its_title_alone_does_not() -> None:
    named = named_source("what does the malaria guideline say about primaquine?", listed)
    assert named is not None and named.doc_key == "sample-malaria-guideline"
    # a word naming it names its subject too: it stays in the question
    assert named.question == "what does the malaria guideline say about primaquine?"
    # 'Serological' is a word of an article's title, its subject, not the name of its file
    assert named_source("per Serological evidence, how many goats were positive?", listed) is None


@pytest.mark.parametrize(
    "question",
    [
        # the Central Equipment Pool of the ADP manuals, written as a subject, not a source
        "OT - CEP power tilt application, what can I put in the skin integrity part of the justification chart?",
        "pt's power tilt chair came thru the CEP - can our local shop fix it?",
        # a name both ADP manuals carry narrows nothing; one most documents carry neither
        "per ADP, can the vendor charge more than the approved price?",
        "what does the sample say about dosing?",
        # a patient's words and a dose's rate name no document
        "pt says the sertraline makes her nauseous - what now?",
        "metformin 500 mg per day in CKD 3?",
        "no source named at all - sertraline starting dose?",
    ],
)
def test_no_single_document_named_leaves_the_question_as_it_is(question: str) -> None:
    assert named_source(question, listed) is None


def test_documents_are_listed_only_for_a_question_that_names_a_source() -> None:
    def never() -> list[str]:
        raise AssertionError("listed the documents for a question naming none")

    assert named_source("sertraline starting dose?", never) is None


def test_the_named_document_alone_answers(make_core) -> None:
    core: Curbside = make_core()
    answer = asyncio.run(
        core.asker.ask(
            AskRequest(question="what does CEP say about follow-up after starting an antidepressant?", use_llm=False)
        )
    )
    assert answer.metadata["named_source"] == {"name": "CEP", "doc_key": "cep-anxiety-and-depression"}
    assert answer.citations and all(c.doc_key == "cep-anxiety-and-depression" for c in answer.citations)
    # the page's acknowledgments, the only lines writing "CEP's", are not what the name finds
    assert "integrated knowledge translation approach" not in answer.answer
