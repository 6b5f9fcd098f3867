"""References in AMA, Vancouver and APA, checked against the styles' rules on real-looking records: a
PubMed article as the pubmed tool returns it, a twelve-author trial, and a guideline chunk."""

from __future__ import annotations

from datetime import date

import pytest

from curbside.errors import ValidationError
from curbside.sessions import Reference, format_citation
from curbside.sessions.citations import abbreviate_pages, expand_pages

# a row of evidence.pubmed_search (authors as the tool writes them), with the issue details added
PUBMED_ROW = {
    "pmid": "12140307",
    "title": "Solid-organ transplantation in HIV-infected patients.",
    "authors": "Halpern SD, Ubel PA, Caplan AL",
    "journal": "N Engl J Med",
    "journal_full": "New England Journal of Medicine",
    "year": 2002,
    "volume": "347",
    "issue": "4",
    "pages": "284-7",
    "doi": "10.1056/NEJMsa020348",
    "url": "https://pubmed.ncbi.nlm.nih.gov/12140307/",
    "citation": {"source": "PubMed", "kind": "pmid", "id": "12140307", "retrieved": "2024-06-03"},
}

EMPA_REG = Reference(
    title="Empagliflozin, Cardiovascular Outcomes, and Mortality in Type 2 Diabetes.",
    authors=tuple(
        "Zinman B, Wanner C, Lachin JM, Fitchett D, Bluhmki E, Hantel S, Mattheus M, Devins T, Johansen OE, "
        "Woerle HJ, Broedl UC, Inzucchi SE".split(", ")
    ),
    journal="N Engl J Med",
    journal_full="New England Journal of Medicine",
    year=2015,
    volume="373",
    issue="22",
    pages="2117-28",
    doi="10.1056/NEJMoa1504720",
    pmid="26378978",
)

# a hit of evidence.search_medical_guidelines, with the document's publication details
GUIDELINE_HIT = {
    "title": "Hypertension in adults: diagnosis and management",
    "authors": ["National Guideline Centre (UK)"],
    "publisher": "National Institute for Health and Care Excellence (NICE)",
    "place": "London",
    "year": "2019",
    "section_path": "Recommendations > Choosing antihypertensive drug treatment",
    "chunk_id": "nice-ng136:v1:42",
    "doc_key": "nice-ng136",
    "citation": {
        "source": "knowledge base",
        "kind": "chunk",
        "id": "nice-ng136:v1:42",
        "url": "https://www.nice.org.uk/guidance/ng136",
        "retrieved": "2024-06-03",
    },
}

EXPECTED = {
    ("pubmed", "ama"): "Halpern SD, Ubel PA, Caplan AL. Solid-organ transplantation in HIV-infected patients. "
    "N Engl J Med. 2002;347(4):284-287. doi:10.1056/NEJMsa020348",
    ("pubmed", "vancouver"): "Halpern SD, Ubel PA, Caplan AL. Solid-organ transplantation in HIV-infected patients. "
    "N Engl J Med. 2002;347(4):284-7. doi: 10.1056/NEJMsa020348. PMID: 12140307.",
    ("pubmed", "apa"): "Halpern, S. D., Ubel, P. A., & Caplan, A. L. (2002). Solid-organ transplantation in "
    "HIV-infected patients. New England Journal of Medicine, 347(4), 284\u2013287. https://doi.org/10.1056/NEJMsa020348",
    # more than 6 authors: AMA the first 3, Vancouver the first 6, then et al.; APA all (up to 20)
    ("trial", "ama"): "Zinman B, Wanner C, Lachin JM, et al. Empagliflozin, Cardiovascular Outcomes, and Mortality "
    "in Type 2 Diabetes. N Engl J Med. 2015;373(22):2117-2128. doi:10.1056/NEJMoa1504720",
    ("trial", "vancouver"): "Zinman B, Wanner C, Lachin JM, Fitchett D, Bluhmki E, Hantel S, et al. Empagliflozin, "
    "Cardiovascular Outcomes, and Mortality in Type 2 Diabetes. N Engl J Med. 2015;373(22):2117-28. "
    "doi: 10.1056/NEJMoa1504720. PMID: 26378978.",
    ("trial", "apa"): "Zinman, B., Wanner, C., Lachin, J. M., Fitchett, D., Bluhmki, E., Hantel, S., Mattheus, M., "
    "Devins, T., Johansen, O. E., Woerle, H. J., Broedl, U. C., & Inzucchi, S. E. (2015). Empagliflozin, "
    "Cardiovascular Outcomes, and Mortality in Type 2 Diabetes. New England Journal of Medicine, 373(22), "
    "2117\u20132128. https://doi.org/10.1056/NEJMoa1504720",
    ("guideline", "ama"): "National Guideline Centre (UK). Hypertension in adults: diagnosis and management. "
    "National Institute for Health and Care Excellence (NICE); 2019. Accessed June 3, 2024. "
    "https://www.nice.org.uk/guidance/ng136",
    ("guideline", "vancouver"): "National Guideline Centre (UK). Hypertension in adults: diagnosis and management "
    "[Internet]. London: National Institute for Health and Care Excellence (NICE); 2019 [cited 2024 Jun 3]. "
    "Recommendations > Choosing antihypertensive drug treatment. Available from: https://www.nice.org.uk/guidance/ng136",
    ("guideline", "apa"): "National Guideline Centre (UK). (2019). Hypertension in adults: Diagnosis and management. "
    "National Institute for Health and Care Excellence (NICE). https://www.nice.org.uk/guidance/ng136",
}

REFERENCES = {
    "pubmed": Reference.from_record(PUBMED_ROW),
    "trial": EMPA_REG,
    "guideline": Reference.from_record(GUIDELINE_HIT),
}


@pytest.mark.parametrize(("record", "style"), sorted(EXPECTED))
def test_each_style_writes_the_reference_by_its_rules(record: str, style: str) -> None:
    assert format_citation(REFERENCES[record], style) == EXPECTED[(record, style)]


def test_a_record_is_read_from_a_tool_row() -> None:
    guideline = REFERENCES["guideline"]
    assert guideline.url == "https://www.nice.org.uk/guidance/ng136"  # from the row's citation
    assert guideline.accessed == date(2024, 6, 3)
    assert guideline.section == "Recommendations > Choosing antihypertensive drug treatment"
    cut = Reference.from_record({"title": "T", "authors": "Wright JT, Williamson JD, Whelton PK, et al."})
    assert cut.authors == ("Wright JT", "Williamson JD", "Whelton PK") and cut.more_authors


def test_a_list_the_tool_cut_short_ends_in_et_al_in_every_style() -> None:
    ref = Reference.from_record(
        {"title": "A randomized trial of intensive versus standard blood-pressure control.", "authors":
         "Wright JT, Williamson JD, Whelton PK, et al.", "journal": "N Engl J Med", "year": 2015}
    )  # fmt: skip
    assert format_citation(ref, "ama").startswith("Wright JT, Williamson JD, Whelton PK, et al. A randomized")
    assert format_citation(ref, "vancouver").startswith("Wright JT, Williamson JD, Whelton PK, et al. A randomized")
    assert format_citation(ref, "apa").startswith("Wright, J. T., Williamson, J. D., Whelton, P. K., et al. (2015).")


def test_a_bare_knowledge_base_passage_still_cites() -> None:
    ref = Reference.from_record({"title": "Atrial fibrillation", "section_path": "Stroke prevention"})
    assert format_citation(ref, "ama") == "Atrial fibrillation."
    assert format_citation(ref, "vancouver") == "Atrial fibrillation. Stroke prevention."
    assert format_citation(ref, "apa") == "Atrial fibrillation. (n.d.)."


def test_apa_names_and_long_author_lists() -> None:
    hyphen = Reference(title="T", authors=("Dupont J-P", "World Health Organization"), year=2020)
    assert format_citation(hyphen, "apa").startswith("Dupont, J.-P., & World Health Organization. (2020).")
    many = Reference(title="T", authors=tuple(f"Author{i} A" for i in range(1, 23)), year=2021)
    assert format_citation(many, "apa").startswith(
        ", ".join(f"Author{i}, A." for i in range(1, 20)) + ", . . . Author22, A. (2021)."
    )
    assert format_citation(Reference(title="T", authors=("Osler W",)), "apa") == "Osler, W. (n.d.). T."


def test_page_ranges() -> None:
    assert expand_pages("284-7") == "284-287" and expand_pages("1021-30") == "1021-1030"
    assert expand_pages("e0123") == "e0123" and expand_pages("S12-8") == "S12-S18"
    assert abbreviate_pages("284-287") == "284-7" and abbreviate_pages("1021-1030") == "1021-30"
    assert abbreviate_pages("98-102") == "98-102" and abbreviate_pages("55-55") == "55"


def test_an_unknown_style_is_refused_with_the_choices() -> None:
    with pytest.raises(ValidationError, match="Unknown citation style 'harvard': use one of ama, apa, vancouver"):
        format_citation(EMPA_REG, "harvard")
    assert format_citation(EMPA_REG, " AMA ") == EXPECTED[("trial", "ama")]
