"""A title's qualifier that the question contradicts rules its code out: '- female' for a man, 'unilateral' for both.

The Schedule lists one service under twin titles told apart by one word of a pair: "K018 Sexual assault
examination - female" and "K021 … - male" (A52), "G536 Sclerotherapy … unilateral" beside bilateral codes.
The question's words say which side it is ("on a woman", "both legs"); the twin whose title names the other
side is not the service asked, and stating it beside the right one reads as a second answer.
"""

from __future__ import annotations

import re

__all__ = ["by_qualifier"]

# side -> (how a title says it, how a question says it); each pair's sides are opposites
_SIDES: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "female": (re.compile(r"\bfemales?\b", re.I), re.compile(r"\b(?:wom[ae]n|females?|girls?|lady|ladies)\b", re.I)),
    "male": (re.compile(r"\bmales?\b", re.I), re.compile(r"\b(?:m[ae]n|males?|boys?|gentlem[ae]n)\b", re.I)),
    "unilateral": (
        re.compile(r"\bunilateral\b", re.I),
        re.compile(r"\bunilateral\w*|\bone (?:side|eye|ear|leg|arm|breast|knee|hip|foot)\b", re.I),
    ),
    "bilateral": (
        re.compile(r"\bbilateral\b", re.I),
        re.compile(r"\bbilateral\w*|\bboth (?:sides|eyes|ears|legs|arms|breasts|knees|hips|feet)\b", re.I),
    ),
}
_OPPOSITE = {"female": "male", "male": "female", "unilateral": "bilateral", "bilateral": "unilateral"}


def by_qualifier(codes: list[str], question: str | None, titles: dict[str, str]) -> list[str]:
    """``codes`` without those whose title names one side of a pair when the question names only the other (when
    any code is left)."""
    if not question or not codes:
        return codes
    said = {side for side, (_, in_question) in _SIDES.items() if in_question.search(question)}
    contradicted = {_OPPOSITE[side] for side in said if _OPPOSITE[side] not in said}
    if not contradicted:
        return codes

    def against(code: str) -> bool:
        title = titles.get(code, "")
        named = {side for side, (in_title, _) in _SIDES.items() if in_title.search(title)}
        return bool(named & contradicted) and not named & said

    kept = [code for code in codes if not against(code)]
    return kept or codes
