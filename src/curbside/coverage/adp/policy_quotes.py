"""What ADP policy questions ask and what the manuals' answering sentences say ("how long does an appeal
take?", "can they apply if WSIB covers it?", "where does the application go?"); the matching itself is
the coverage kit's (``curbside.coverage.policy_quotes``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from curbside.coverage.adp.store import ParagraphRow
from curbside.coverage.policy_quotes import PolicyIndex, PolicyText, Vocabulary

__all__ = ["VOCABULARY", "policy_index"]

VOCABULARY = Vocabulary(
    asks={  # most specific first
        "time": re.compile(r"\b(how (long|soon|often)|when|period|valid|good for|stale|expire\w*|within|take)\b", re.I),
        "where": re.compile(r"\b(where|who (do|does|should|handles)|which office|send|submit\w*)\b", re.I),
        "count": re.compile(r"\b(how many|both|plus|as well as|more than one)\b", re.I),
        "allowed": re.compile(
            r"\b(can|could|may|will|would|does|do|is|are)\b[^?]*\b(adp|program|they|we|i|patient|client)\b|"
            r"\b(eligible|allowed|funded|covered|instead|also)\b",
            re.I,
        ),
    },
    says={
        "time": re.compile(
            r"\b(\d+|one|two|three|four|five|six|twelve|thirty)\s(\(\d+\)\s)?(business\s)?(days|months|years)\b", re.I
        ),
        "allowed": re.compile(
            r"\b(not (eligible|entitled|funded|provided|considered)|does not|will not|may not|must not|are not|"
            r"is not|only|eligible|entitled)\b",
            re.I,
        ),
        "where": re.compile(r"\b((sent|submitted|forwarded|directed|returned) to|central equipment pool|CEP)\b", re.I),
        "count": re.compile(r"\b(up to|one|two|three|maximum|more than one)\b", re.I),
    },
    # a question about the amount is answered by the funding rules, not by a policy sentence
    amount=re.compile(
        r"\b(how much|what (share|percent\w*|portion|part)|what (do|does|will|would) (adp|it|the program|they|"
        r"the patient|the client|i|we) (cover|pay))\b",
        re.I,
    ),
    # abbreviations and words a clinician writes for what the manuals spell out
    spelled={
        "wsib": "workplace safety insurance",
        "odsp": "ontario disability support",
        "cep": "central equipment pool",
        "get": "obtain",
        "good": "stale valid",
    },
    stop=frozenset("patient patients client clients adp program device devices assistive ontario".split()),
)


def policy_index(paragraphs: Iterable[ParagraphRow]) -> PolicyIndex:
    """Every sentence of the loaded manuals: ``source`` is the manual, ``ref`` the paragraph id."""
    return PolicyIndex((PolicyText(p.manual, p.paragraph_id, str(p.page), p.text) for p in paragraphs), VOCABULARY)
