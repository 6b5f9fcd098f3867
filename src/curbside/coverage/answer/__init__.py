"""``coverage.answer``: the coverage orchestrator of the spec (Tool 1).

Pipeline::

    intent.py      hints, then keywords (vocabulary.py) and the formulary's drug names -> domains
    routing.py     domains -> tool calls with the part of the question (and fields) for each tool
    execution.py   the calls, concurrently, through the tool executor, under one total timeout
    readers/       each tool's result -> a DomainFinding (findings.py)
    synthesis.py   decision, summary, highlights, conflicts (crosscheck.py), follow-ups,
                   weighted confidence (confidence.py), trace
    service.py     CoverageAnswerer, the whole of it; tool.py declares the tool

Deterministic throughout: no language model is asked anything.
"""

from __future__ import annotations

from curbside.coverage.answer.intent import DrugLookup, Intent, classify
from curbside.coverage.answer.models import CoverageAnswerArgs, CoverageAnswerResult
from curbside.coverage.answer.service import CoverageAnswerer
from curbside.coverage.answer.tool import coverage_answer_tool, run_coverage_answer

__all__ = [
    "CoverageAnswerArgs",
    "CoverageAnswerResult",
    "CoverageAnswerer",
    "DrugLookup",
    "Intent",
    "classify",
    "coverage_answer_tool",
    "run_coverage_answer",
]
