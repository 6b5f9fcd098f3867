from __future__ import annotations

from collections.abc import Mapping, Sequence

from curbside.ask.generic_names import with_generic_names
from curbside.ask.spelled_abbreviations import spelled_abbreviations

# chunks holding each word or phrase, as the lexical index counts them: the CEP page writes "tardive dyskinesia"
# and "SSRI", never "TD"; no document writes "BPH" or what it stands for
HELD = {
    "tardive dyskinesia": 2,
    "ssri": 30,
    "selective serotonin reuptake inhibitor": 1,
    "hypertension": 9,
    "appointment": 4,
}


def frequencies(words: Sequence[str]) -> Mapping[str, int]:
    return {w: HELD.get(w, 0) for w in words}


def test_an_abbreviation_the_knowledge_base_never_writes_is_asked_written_out() -> None:
    question = "long term abilify augmentation - is TD flagged in the warnings?"
    spelled = spelled_abbreviations(question, frequencies)
    assert spelled == [("TD", "tardive dyskinesia")]
    assert with_generic_names(question, spelled) == (
        "long term abilify augmentation - is tardive dyskinesia flagged in the warnings?"
    )
    assert spelled_abbreviations("HTN pt - first line?", frequencies) == [("HTN", "hypertension")]
    # a clipped everyday word, plural too: the page writes "appointments"
    assert spelled_abbreviations("help between appts?", frequencies) == [("appts", "appointment")]


def test_one_it_writes_itself_or_whose_meaning_it_lacks_stays() -> None:
    assert spelled_abbreviations("SSRI for a pt with anxiety?", frequencies) == []  # the page writes 'SSRI'
    assert spelled_abbreviations("BPH meds and falls?", frequencies) == []  # nothing about it either way
    assert spelled_abbreviations("Td booster due?", frequencies) == []  # 'Td' is the vaccine, not 'TD'
    # already spelled out beside it
    assert spelled_abbreviations("tardive dyskinesia (TD) on abilify?", frequencies) == []


def test_an_ontario_programs_abbreviation_is_asked_as_the_manuals_write_it() -> None:
    # the ADP Manual §300.01 cites the "Workplace Safety and Insurance Act" and never writes "WSIB"
    held = {"workplace safety and insurance": 1}
    spelled = spelled_abbreviations(
        "can a patient covered by WSIB for the same device get ADP funding?", lambda ws: {w: held.get(w, 0) for w in ws}
    )
    assert spelled == [("WSIB", "Workplace Safety and Insurance")]
    # 'poa' in lower case is no abbreviation: only 'POA' is power of attorney
    assert spelled_abbreviations("the poa of the text", lambda ws: {w: 1 if " " in w else 0 for w in ws}) == []
