"""The coverage question set (benchmarks/data/coverage_qa.jsonl, #14): every fact is read from the official files."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "benchmarks" / "data" / "coverage_qa.jsonl"


def rows() -> list[dict]:
    return [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]


def norm(text: str) -> str:
    return " ".join(text.split())


@cache
def pdf_pages(path: Path) -> tuple[str, ...]:
    return tuple(norm(page.extract_text() or "") for page in PdfReader(path).pages)


@cache
def lines_of(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8").split("\n"))


def test_shape_and_counts() -> None:
    items = rows()
    assert len({r["id"] for r in items}) == len(items)
    sources = Counter(r["source"] for r in items)
    sections = {r["id"].split("-")[1] for r in items if r["source"] == "ohip"}
    assert sources["ohip"] >= 30 and len(sections) >= 6
    assert sum(1 for r in items if r["source"] == "odb" and "not listed" in r["must_contain"]) >= 5
    assert sum(1 for r in items if "absent_manual" in r["evidence"]) >= 3
    assert len(items) >= 60
    for r in items:
        assert r["must_contain"], r["id"]
        assert not {m.casefold() for m in r["must_contain"]} & {m.casefold() for m in r["must_not_contain"]}, r["id"]


def test_every_quote_is_where_it_says(shared_data: Path) -> None:
    wrong = []
    for r in rows():
        ev = r["evidence"]
        path = shared_data / ev["file"]
        quote = norm(ev["quote"])
        if path.suffix == ".pdf":
            page = int(re.match(r"page (\d+)", ev["where"]).group(1))  # type: ignore[union-attr]
            found = quote in pdf_pages(path)[page - 1]
        else:
            first, last = re.match(r"lines? (\d+)(?:-(\d+))?", ev["where"]).groups()  # type: ignore[union-attr]
            found = quote in norm(" ".join(lines_of(path)[int(first) - 1 : int(last or first)]))
        if not found:
            wrong.append(r["id"])
    assert not wrong


def test_codes_fees_and_shares_to_be_said_are_in_their_quotes() -> None:
    # ODB rows are checked against the XML's structure by their quote's DIN; absent categories quote the list
    wrong = [
        (r["id"], m)
        for r in rows()
        if r["source"] != "odb" and "absent_manual" not in r["evidence"]
        for m in r["must_contain"]
        if m.casefold() not in norm(r["evidence"]["quote"]).casefold()
    ]
    assert not wrong


def test_drugs_said_to_be_absent_are_absent_from_the_formulary(shared_data: Path) -> None:
    formulary = (shared_data / "ontario" / "odb-formulary-edition-43-2025-08-29.xml").read_text(encoding="utf-8")
    formulary = formulary.casefold()
    absent = [(r["id"], name) for r in rows() for name in r["evidence"].get("absent", [])]
    assert len(absent) >= 5
    assert [(i, n) for i, n in absent if n.casefold() in formulary] == []


def test_a_code_a_title_points_to_is_not_a_code_stated() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_coverage_qa", ROOT / "benchmarks" / "bench_coverage_qa.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    row = {"must_contain": ["C912", "226.05"], "must_not_contain": ["A912"]}
    # the Schedule's own title of C912 (A10) names A912 only as the code whose conditions apply
    told = "C912 Comprehensive family and general practice consultation subject to the same conditions as A912: $226.05"
    assert bench.judge(row, told, 0.9)["right"]
    # A912 stated as a code of the answer is still wrong, and confidently so
    stated = f"{told}. A912 Comprehensive family and general practice consultation: $226.05"
    judged = bench.judge(row, stated, 0.9)
    assert judged["wrong"] == ["A912"] and judged["confident_wrong"]
