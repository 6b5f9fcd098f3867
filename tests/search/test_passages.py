from __future__ import annotations

from curbside.search.passages import highlight_snippets

TEXT = (
    "Metformin is first-line therapy for type 2 diabetes. Check eGFR before starting metformin and at least "
    "yearly. Metformin is contraindicated when eGFR is below 30 mL/min/1.73 m2. Replace nothing."
)


def test_snippets_mark_terms_case_insensitively_with_context_at_word_boundaries() -> None:
    snippets = highlight_snippets(TEXT, ["EGFR"])
    assert len(snippets) == 2
    assert snippets == [
        "… is first-line therapy for type 2 diabetes. Check **eGFR** before starting metformin and at least yearly. …",
        "… least yearly. Metformin is contraindicated when **eGFR** is below 30 mL/min/1.73 m2. Replace nothing.",
    ]
    for s in snippets:
        core = s.strip("… ").replace("**", "")
        assert core in TEXT  # context is verbatim text


def test_at_most_five_snippets_in_text_order() -> None:
    snippets = highlight_snippets(TEXT, ["metformin", "eGFR"])
    assert len(snippets) == 5
    assert [s.count("**") for s in snippets] == [2] * 5
    assert "**Metformin** is first-line" in snippets[0]


def test_whole_words_only_and_longest_term_wins() -> None:
    assert highlight_snippets(TEXT, ["ace"]) == []  # not inside "Replace"
    snippets = highlight_snippets(TEXT, ["type 2 diabetes", "diabetes"])
    assert len(snippets) == 1 and "**type 2 diabetes**" in snippets[0]


def test_no_terms_no_snippets() -> None:
    assert highlight_snippets(TEXT, []) == []
