"""The answer benchmark's matching rules and its guideline QA set (benchmarks/_answers_eval.py)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _answers_eval import (  # noqa: E402
    abstention,
    any_match,
    condition_side,
    lead_tokens,
    list_recall,
    load_qa,
    tokens,
    wrong_condition,
)

QA = ROOT / "benchmarks" / "data" / "guideline_qa.jsonl"


def test_dashes_case_and_spacing_do_not_matter_but_whole_numbers_do() -> None:
    assert any_match(tokens("Initial: 25–50 MG daily"), ["25-50 mg"])
    assert any_match(tokens("Initial: 25 - 50 mg daily"), ["25-50 mg"])
    assert not any_match(tokens("Initial: 5-10 mg daily"), ["10 mg"])  # inside a range is not the value
    assert not any_match(tokens("125 mg"), ["25 mg"])
    assert any_match(tokens("1,500,000 deaths"), ["1500000 deaths"])


def test_list_recall_and_lead_tokens() -> None:
    assert list_recall(tokens("PHQ-9 and GAD-7 are used"), [["GAD-7"], ["PHQ-9"], ["EPDS"]]) == pytest.approx(2 / 3)
    assert list_recall(tokens("anything"), []) == 0.0
    lead, used = lead_tokens(["one two three", "four five"], 4)
    assert lead == ["one", "two", "three", "four"] and used == 2


def test_the_deepest_heading_naming_a_condition_decides() -> None:
    right, wrong = ["Depression"], ["Anxiety"]
    assert condition_side("Follow-up > Anxiety and Depression > Anxiety > Duration", right, wrong) == "wrong"
    assert condition_side("Follow-up > Depression > Duration", right, wrong) == "right"
    assert condition_side("Management > Medication counselling", right, wrong) is None
    assert wrong_condition(["Management", "Follow-up > Anxiety > Duration"], right, wrong)
    assert not wrong_condition(["Follow-up > Anxiety > Duration"], [], [])


def test_abstention_counts() -> None:
    counts = abstention([(False, True), (False, True), (True, True), (False, False), (True, False)])
    assert (counts.tp, counts.fp, counts.fn, counts.tn) == (2, 1, 1, 1)
    assert counts.precision == pytest.approx(2 / 3) and counts.recall == pytest.approx(2 / 3)
    assert abstention([(True, False)]).precision is None


def test_qa_set_size_and_shape() -> None:
    items = load_qa(QA)
    answerable = [i for i in items if i.answerable]
    assert len(items) >= 80 and len(items) - len(answerable) >= 20
    sources = {i.source for i in answerable}
    assert any(s.endswith(".html") for s in sources) and any(s.endswith(".pdf") for s in sources)
    assert any(s.endswith(".nxml") for s in sources) and any(s.startswith("sample-") for s in sources)


def _source_path(source: str, shared: Path) -> Path | None:
    from curbside.cli.demo import sample_paths

    for path in [
        *(shared / "guidelines").rglob(source),
        *(shared / "ontario" / "adp").glob(source),
        *sample_paths(),
    ]:
        if path.name == source or path.stem == Path(source).stem:
            return path
    return None


@cache
def _document_tokens(path: Path) -> list[str]:
    from curbside.kb.loaders import load_document

    document = load_document(path)
    out: list[str] = []

    def walk(section: object) -> None:
        for block in section.blocks:  # type: ignore[attr-defined]
            out.extend(tokens(block.text))
        for child in section.children:  # type: ignore[attr-defined]
            out.extend(tokens(child.title or ""))
            walk(child)

    walk(document.root)
    return out


def test_every_gold_fact_is_in_its_document(shared_data: Path) -> None:
    """A gold string that its document does not hold would score a right answer as wrong."""
    missing = []
    for item in load_qa(QA):
        if not item.answerable:
            continue
        path = _source_path(item.source, shared_data)
        assert path is not None, f"{item.id}: no file {item.source}"
        if not any_match(_document_tokens(path), item.gold):
            missing.append((item.id, item.gold))
    assert not missing, missing
