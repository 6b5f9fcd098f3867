"""When one code's title is the service asked, its siblings are not answers.

"Fee for a minor prenatal visit?" finds P004 "Minor prenatal assessment" and, by the words 'prenatal' and
'visit', P003 "General assessment (major prenatal visit)"; "the 18 month well baby visit" finds A002
"Enhanced 18 month well baby visit" and A007 "Intermediate assessment or well baby care". Stating the
sibling beside the code whose title names the service reads as a second answer, and it is the wrong one.
So when the first code's title holds most of the question (by word weight), the codes kept are those whose
titles hold every question word it holds: A002 and A268 (the same title in two sections), not A007.
When no title holds most of the question there are two readings, and every code found is kept (the answer's
confidence is capped elsewhere: ``merge.WEAK_MATCH``, ``prose_answer.cap_unspecific``).
Either way, when the question says every word of the first code's title, a sibling whose title is that title with
a further service joined on is a larger service the question does not name: 'emerg c-section' is P018 "Caesarean
section", not P041 "Caesarean section including tubal interruption" or P042 "… including hysterectomy".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curbside.coverage.ohip.query import WordIndex

__all__ = ["NAMED_SHARE", "adds_a_service", "the_service_asked"]

# share of the question's word weight the first code's title must hold to be "the service asked": on the
# 61 + 20 plain-words OHIP questions (benchmarks/data/coverage_qa*.jsonl) the titles that name the service
# asked hold 0.8 or more ('minor prenatal visit' -> P004 'Minor prenatal assessment': 0.81, all but 'visit')
NAMED_SHARE = 0.8

# words that join a further service onto a title ('Caesarean section including hysterectomy')
_JOINED_ON = "including|with|and|plus"


def the_service_asked(codes: Sequence[str], words: Sequence[str], index: WordIndex) -> list[str]:
    """``codes`` (best first) less those whose titles hold only part of what the first code's title holds,
    when the first code's title holds at least ``NAMED_SHARE`` of the question."""
    if len(codes) < 2:
        return list(codes)
    return _not_a_larger_service(_named_or_all(codes, words, index), words, index)


def _named_or_all(codes: Sequence[str], words: Sequence[str], index: WordIndex) -> list[str]:
    held = index.held(words, codes[0])
    share, _ = index.coverage(words, codes[0])
    if share < NAMED_SHARE:
        # two readings stay; a code holding only part of what the first holds is the same reading, less said
        # ('pronounced dead at home': A902 "… Pronouncement of death in the home", not A777 "… Pronouncement
        # of death" beside it)
        if len(held) < 2:
            return list(codes)
        # (a code found by its headings alone, holding none of it in its title, is another reading)
        return [code for code in codes if not (index.held(words, code) and index.held(words, code) < held)]
    return [code for code in codes if held <= index.held(words, code)]


def adds_a_service(title: str, base: str) -> bool:
    """Whether ``title`` is ``base`` with a further service joined on: P041 "Caesarean section including tubal
    interruption" on P018 "Caesarean section"."""
    base = base.strip()
    return bool(base) and bool(re.match(rf"{re.escape(base)},? (?:{_JOINED_ON})\b", title.strip(), re.I))


def _not_a_larger_service(codes: list[str], words: Sequence[str], index: WordIndex) -> list[str]:
    """``codes`` less those whose title adds a service to the first code's, whose title the question says whole:
    the question names the one, not the other."""
    if not index.held(words, codes[0]) or index.extra(words, codes[0]):
        return codes
    first = index.printed_titles.get(codes[0], "")
    return [codes[0], *(c for c in codes[1:] if not adds_a_service(index.printed_titles.get(c, ""), first))]
