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
A sibling kept beside the first code whose title holds every question word the first's holds is one the question
does not tell apart from it ('transvaginal pelvic US': J138 "Intracavitary ultrasound (e.g. … transvaginal)" and
J165 "Transvaginal sonohysterography …"): the answer states two readings, and is not confident in either.
Twins that share a title up to its last dash or colon are told apart by what follows: "A330 Radiology second
opinion of CT or MRI Study: … of CT study, per study" and "A332 …: … of MRI study, per study". A question that
says the one twin's own word ('brain MRI for a written 2nd opinion') and none of the other's is not answered
with the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from curbside.coverage.ohip.qualifiers import tail
from curbside.coverage.ohip.query import BARE_WEIGHT, STOP, WordIndex, stem, without_negations, words_of

__all__ = ["NAMED_SHARE", "adds_a_service", "by_said_tail", "the_service_asked", "untold_siblings"]

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
    return _not_a_qualified_variant(
        _not_a_larger_service(_named_or_all(codes, words, index), words, index), words, index
    )


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


def _not_a_qualified_variant(codes: list[str], words: Sequence[str], index: WordIndex) -> list[str]:
    """``codes`` less those whose title is the first code's title and more, the more being words the question does
    not say: K224 "Clinical interpretation by a geneticist: Clinical interpretation requested by a midwife …" is
    not beside K223 "… Clinical interpretation" for a question that names no midwife (a word of the more that
    names something, ``BARE_WEIGHT``; 'requested' said is not enough)."""
    first = index.titles.get(codes[0], set())
    if len(codes) < 2 or not first:
        return codes
    said = index.said_forms(words)
    printed = index.printed_titles.get(codes[0], "")

    def qualified(code: str) -> bool:
        title = index.titles.get(code, set())
        # the more's words that name something ('midwife', 'aboriginal'), none of them said
        naming = {w for w in title - first if index.weight.get(w, 0.0) >= BARE_WEIGHT}
        # a band the question may give in its own numbers ('14 yr old': K269 "… - 12 - 17 years of age") stays
        banded = bool(set(re.findall(r"\d+", index.printed_titles.get(code, ""))) - set(re.findall(r"\d+", printed)))
        return title > first and not banded and bool(naming) and not naming & said

    return [codes[0], *(c for c in codes[1:] if not qualified(c))]


def untold_siblings(codes: Sequence[str], words: Sequence[str], index: WordIndex) -> list[str]:
    """The codes of ``codes`` beside the first whose titles hold every question word the first's holds: other
    services (another number, another title; not the first's own listing in another setting, C164 beside A164)
    that the question's words do not tell apart from it. None when the question says the first's title whole
    ('general assessment': A003 "General assessment", not A903 "Pre-dental/pre-operative general assessment")."""
    if len(codes) < 2 or not index.extra(words, codes[0]):
        return []  # the question says the first code's title whole: it names that service, not a sibling
    held = index.held(words, codes[0])
    first = index.printed_titles.get(codes[0], "")
    return [
        code
        for code in codes[1:]
        if code[1:4] != codes[0][1:4]
        and index.printed_titles.get(code, "") != first
        and held <= index.held(words, code)
    ]


_TOLD_BY = 2  # most words of its own a twin's tail may have to be told apart by them ('CT' / 'MRI')


def by_said_tail(codes: list[str], question: str | None, titles: dict[str, str]) -> list[str]:
    """``codes`` without a twin (a code whose title shares another's up to the tail, ``qualifiers.tail``) whose
    tail's own words the question does not say when another twin's own words it does say."""
    if not question or len(codes) < 2:
        return codes
    said = {stem(w) for w in words_of(without_negations(question))}
    heads: dict[str, list[tuple[str, set[str]]]] = {}
    for code in codes:
        title = titles.get(code, "")
        end = tail(title)
        if end:
            words = {stem(w) for w in words_of(end) if w not in STOP}
            heads.setdefault(title[: len(title) - len(end)].strip().lower(), []).append((code, words))
    dropped: set[str] = set()
    for twins in heads.values():
        if len(twins) < 2:
            continue
        own = {code: words - set().union(*(w for c, w in twins if c != code)) for code, words in twins}
        # only twins told apart by a word or two: a long tail's own words ('when sole reason for visit …') say
        # more than which twin it is, and a question may say one of them of something else
        told = [code for code, _ in twins if 0 < len(own[code]) <= _TOLD_BY]
        if any(own[code] & said for code in told):
            dropped |= {code for code in told if not own[code] & said}
    kept = [code for code in codes if code not in dropped]
    return kept or codes
