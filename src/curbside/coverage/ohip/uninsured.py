"""The Schedule's sentence saying a service is uninsured, for a clerk asking whether OHIP pays for it.

"Sclerotherapy for small spider veins, no symptoms - can OHIP be billed?", "newborn circumcision for
religious reasons - OHIP or do I charge them?", "personal psychotherapy she needs for her degree - can I
bill it?" are answered by one sentence: 'Sclerotherapy is only insured for veins greater than 5 mm in
diameter and associated with physical symptomatology …' (J56), '… commonly uninsured services include …
circumcision except if medically necessary …' (GP8), '… psychotherapy, which is uninsured where it is a
requirement for the patient to obtain a diploma or degree …' (GP8). Such a question says much besides the
service (who asks, why), so the sentence holds a small share of its words and ``SentenceIndex.quotes``
ranks it below its threshold. Here the test is what the sentence is about: it says when a service is
(un)insured, and holds at least two of the question's words, the service and one more
(the circumstance: 'degree', 'medically', 'veins'): the sentence holding most of the question's words by
weight is quoted.
"""

from __future__ import annotations

import re

from curbside.coverage.ohip.preamble_quotes import PreambleQuote, SentenceIndex, asked_kinds, question_stems

__all__ = ["uninsured_quotes"]

# the Schedule's ways of saying a service is insured only in some circumstances, or not at all
_SAYS_UNINSURED = re.compile(
    r"\b(uninsured|not (an )?insured|(is|are) only insured|insured only|only an insured)\b", re.I
)
MIN_HELD = 2  # the service and one circumstance of it
# a second sentence shares a word with the first that at most one sentence in this many holds ('circumcision',
# 13 sentences of some 4,700): the same service, not the same 'reasons'
SAME_SERVICE_RARE = 100


def uninsured_quotes(index: SentenceIndex, question: str, limit: int = 2) -> list[PreambleQuote]:
    """Sentences saying when the question's service is (un)insured, best first (by the weight of the question's
    words each holds); none unless the question asks whether it is payable. A second sentence is quoted only when
    it holds a rare word of the first (the same service: 'circumcision … for religious reasons is not an insured
    service', U1, and '… commonly uninsured services include … circumcision except if medically necessary', GP8)."""
    if "payable" not in asked_kinds(question):
        return []
    postings = {w: index.postings(w) for w in question_stems(index, question)}
    known = [w for w, (_, holds) in postings.items() if holds]
    found: list[tuple[float, int, list[str]]] = []
    for n in {n for w in known for n, own in postings[w][1].items() if own}:
        sentence = index.sentences[n]
        if not _SAYS_UNINSURED.search(sentence.text):
            continue
        held = [w for w in known if postings[w][1].get(n)]  # in the sentence itself, not only its headings
        if len(held) >= MIN_HELD:
            found.append((sum(postings[w][0] for w in held), n, held))
    if not found:
        return []
    found.sort(key=lambda item: (-item[0], len(index.sentences[item[1]].text), item[1]))
    total = sum(postings[w][0] for w in known)
    rare = max(len(index.sentences) // SAME_SERVICE_RARE, 1)
    named = {w for w in found[0][2] if len(postings[w][1]) <= rare}  # the first's rare words: its service
    out: list[PreambleQuote] = []
    for score, n, held in found:
        if out and not named.intersection(held):
            continue
        sentence = index.sentences[n]
        out.append(PreambleQuote(sentence.text, sentence.page, sentence.topic, min(score / total, 1.0), sentence.codes))
        if len(out) >= limit:
            break
    return out
