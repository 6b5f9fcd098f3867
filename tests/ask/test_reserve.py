"""Reserve passages: strong hits under the similarity threshold that may add to an extractive answer."""

from __future__ import annotations

from curbside.ask.reserve import RESERVE_PASSAGES, reserve_passages
from curbside.types import Passage

OUTLINE = [
    "Follow-up/monitoring > Anxiety > Overall approach > Duration of pharmacological treatment",
    "Follow-up/monitoring > Depression > Overall approach > Ongoing treatment options",
    "Management > Discontinuation",
]


def chunk(ordinal: int, path: str, body: str = "Taper over at least 2-4 weeks.") -> Passage:
    return Passage(
        chunk_id=f"cep:v1:{ordinal}", doc_key="cep", title="CEP", section_path=path, score=0.0,
        text=f"CEP > {path}\n\n{body}",
    )  # fmt: skip


def outline(doc_key: str, version: int) -> list[str]:
    return OUTLINE


def test_reserve_passages_are_new_and_stay_on_the_question() -> None:
    in_pool = chunk(1, "Management > Discontinuation")
    beside = chunk(2, OUTLINE[0], "Continue for 12 months.")  # the Anxiety sibling of what the question names
    fresh = chunk(3, "Management > Discontinuation", "Most people taper over 2-4 weeks.")
    found = [in_pool, beside, fresh]
    kept = reserve_passages("how long to taper an antidepressant for depression?", found, [in_pool], outline)
    assert [p.chunk_id for p in kept] == ["cep:v1:3"]


def test_only_the_first_hits_are_reserve_passages() -> None:
    found = [chunk(n, "Management > Discontinuation") for n in range(RESERVE_PASSAGES + 2)]
    assert len(reserve_passages("taper?", found, [], outline)) == RESERVE_PASSAGES


def test_a_reserve_passage_filed_under_the_drug_named_leads_when_no_passage_above_it_is() -> None:
    """'pt on trintellix complaining of itchy skin - listed side effect?': "Side effect management" passed the
    threshold (0.857) and "Vortioxetine (Trintellix®)", the search's first hit, sat just under it (0.851)."""
    from curbside.ask.reserve import leading_reserve

    general = chunk(1, "Management > Medication counselling > Side effect management", "Treat the side effect.")
    drug = chunk(2, "Management > First-line medication options > Vortioxetine (Trintellix®)", "Other: pruritus")
    question = "pt on trintellix complaining of itchy skin - is that a listed side effect?"
    assert leading_reserve(question, [drug], [general]) == [drug]
    # a pool passage filed under the drug already answers about it; a question naming nothing rare leads with nothing
    assert leading_reserve(question, [drug], [drug, general]) == []
    assert leading_reserve("is itchy skin a listed side effect?", [drug], [general]) == []
