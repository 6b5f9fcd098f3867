"""When a question needs a qualifier before it can be answered well.

query-orchestrator.md ("Confidence Threshold"): fewer than three words, or an
ambiguous term such as "kidney disease", "diabetes" or "heart failure" without
the type or stage that decides the answer. The terms and qualifiers below follow
its list and its example clarifying questions, widened with the usual clinical
synonyms for each qualifier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AMBIGUOUS_TERMS", "AmbiguousTerm", "clarifying_question", "word_count"]

MIN_WORDS = 3
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*")


@dataclass(frozen=True, slots=True)
class AmbiguousTerm:
    pattern: re.Pattern[str]
    qualifiers: re.Pattern[str]  # any of these in the question resolves the ambiguity
    question: str


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)


AMBIGUOUS_TERMS: tuple[AmbiguousTerm, ...] = (
    AmbiguousTerm(
        _words(r"kidney disease", r"renal disease", r"kidney failure", r"renal failure"),
        _words(
            r"acute",
            r"chronic",
            r"stage\s*[1-5]",
            r"g[1-5][ab]?",
            r"ckd",
            r"aki",
            r"esrd",
            r"esk?d",
            r"end[- ]stage",
            r"e?gfr",
            r"dialysis",
            r"nephrotic",
            r"polycystic",
        ),
        "Are you asking about acute kidney injury (AKI) or chronic kidney disease (CKD)? If CKD, what stage or eGFR?",
    ),
    AmbiguousTerm(
        _words(r"diabetes", r"diabetic"),
        _words(
            r"type\s*(?:1|2|i|ii|one|two)",
            r"t[12]dm?",
            r"dm[12]",
            r"iddm",
            r"niddm",
            r"gestational",
            r"insipidus",
            r"pre-?diabetes",
            r"lada",
            r"mody",
            r"juvenile",
        ),
        "Are you referring to type 1 or type 2 diabetes (or gestational diabetes)?",
    ),
    AmbiguousTerm(
        _words(r"heart failure", r"cardiac failure", r"\bchf"),
        _words(
            r"acute",
            r"chronic",
            r"decompensated",
            r"hfref",
            r"hfpef",
            r"hfmref",
            r"reduced",
            r"preserved",
            r"ejection fraction",
            r"lvef",
            r"ef\s*[<>≤≥]?\s*\d+",
            r"nyha",
            r"class\s*(?:i{1,3}|iv|[1-4])",
            r"stage\s*[a-d]",
            r"right[- ]sided",
            r"left[- ]sided",
        ),
        "Is this acute (decompensated) or chronic heart failure, and is the ejection fraction reduced (HFrEF) "
        "or preserved (HFpEF)?",
    ),
)

SHORT_QUESTION = (
    "Could you say a little more? Name the condition or drug, the patient group if it matters, and what you "
    "want to know (diagnosis, treatment, dose, monitoring …)."
)


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def clarifying_question(question: str) -> str | None:
    """The question to ask back, or None when the question can be answered as it is."""
    if word_count(question) < MIN_WORDS:
        return SHORT_QUESTION
    for term in AMBIGUOUS_TERMS:
        if term.pattern.search(question) and not term.qualifiers.search(question):
            return term.question
    return None
