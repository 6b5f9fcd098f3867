"""The sentence saying when a service is uninsured answers 'can OHIP be billed?' asked in many words (#14).

Passage texts are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt: GP8 lines 941-948, J56 line
24107, U1), in the shape the passage builder stores them.
"""

from __future__ import annotations

from curbside.coverage.ohip.preamble_quotes import SentenceIndex, asked_kinds
from curbside.coverage.ohip.uninsured import uninsured_quotes


def _passage(doc: str, heading: str, page: str, body: str) -> tuple[str, str, str]:
    path = f"{heading} [{page}]"
    return (doc, path, f"OHIP Schedule 2025-03-03 — GP: {doc} > {path}\n\n{body}")


_GP8 = (
    "Some services are specifically listed as uninsured in regulation 552, section 24 of the Act (see Appendix A), "
    "such as a service that is solely for the purpose of altering or restoring appearance. Other services may be "
    "uninsured depending on the circumstances. An example of a service which is uninsured in limited circumstances "
    "is psychotherapy, which is uninsured where it is a requirement for the patient to obtain a diploma or degree or "
    "to fulfill a course of study. Other examples of commonly uninsured services include missed appointments or "
    "procedures, circumcision except if medically necessary, and certain services rendered and documents and forms "
    "completed in connection with non-medically necessary requests (e.g. life insurance application)."
)
_PASSAGES = [
    _passage("General Information", "GENERAL INFORMATION", "GP8", _GP8),
    _passage(
        "Injections or Infusions",
        "SCLEROTHERAPY",
        "J56",
        "Sclerotherapy is only insured for veins greater than 5 mm in diameter and associated with physical "
        "symptomatology and when rendered personally by the physician.",
    ),
    _passage(
        "Penis",
        "EXCISION",
        "U1",
        "Circumcision is an insured service only when there is physical symptomatology. As such, circumcision "
        "performed for ritual, cultural, religious or cosmetic reasons at any age is not an insured service.",
    ),
    _passage(
        "Psychotherapy",
        "PSYCHOTHERAPY",
        "A176",
        "Psychotherapy is a form of treatment which is generally accepted as being of therapeutic value. Individual "
        "psychotherapy is payable per unit of 30 minutes.",
    ),
]
# the Schedule's other sentences, for the words' rarity: 'circumcision' is in 13 of some 4,700
_OTHERS = [
    _passage("Other", "ASSESSMENTS", f"A{n}", f"An assessment number {n} of the patient is payable once per day.")
    for n in range(400)
]
INDEX = SentenceIndex(_PASSAGES + _OTHERS)


def test_a_question_in_many_words_finds_the_sentence_saying_when_its_service_is_uninsured() -> None:
    question = (
        "grad student in a counselling psychology program needs personal psychotherapy hours to finish her degree. "
        "can I bill those sessions to OHIP?"
    )
    quotes = uninsured_quotes(INDEX, question)
    assert [q.page for q in quotes] == ["GP8"]
    assert "diploma or degree" in quotes[0].text
    spider = uninsured_quotes(INDEX, "pt wants sclerotherapy for small spider veins, no symptoms - can OHIP be billed?")
    assert "greater than 5 mm" in spider[0].text


def test_a_second_sentence_is_quoted_only_about_the_same_service() -> None:
    question = "newborn son circumcised for religious reasons, no medical indication - OHIP or do I charge them?"
    assert asked_kinds(question) == ["payable"]
    quotes = uninsured_quotes(INDEX, question)
    assert [q.page for q in quotes] == ["U1", "GP8"]  # the religious reasons first, then 'except if medically …'
    assert "circumcision except if medically necessary" in quotes[1].text


def test_nothing_unless_the_question_asks_whether_it_is_payable_and_the_sentence_holds_two_of_its_words() -> None:
    assert uninsured_quotes(INDEX, "how many units of psychotherapy for her degree program?") == []
    assert uninsured_quotes(INDEX, "can I bill psychotherapy by phone?") == []  # the service alone is no circumstance
