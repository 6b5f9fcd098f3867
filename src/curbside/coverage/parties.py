"""Whom a policy sentence, and whom a question, is about: the rule's party.

A manual writes each rule for one party, in its capitalised defined terms: "The Applicant must have a valid
Ontario Health number" (ADP Manual §300.02) is the Applicant's rule, "The ADP Authorizers who have access to
the Health Card Validation system … are not eligible to apply" (§535.03) the Authorizers'. The two share
"health", "card" and "apply", so a question about a patient ("no Ontario health card yet - can she apply?")
must tell them apart by the party: the one it names ("the vendor", "as an OT") or implies ("pt", "she",
"my client" are the Applicant).

A sentence's party is its subject: the last party term before its first verb that is not a mere modifier
("ADP funding assistance is …" has none; "The ADP Authorizers who have …" is the Authorizers'), else the
agent of a passive ("… completed by the prescriber").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Parties"]

# where a sentence's subject ends: its first modal, auxiliary or common rule verb
_VERB = re.compile(
    r"\b(must|may|will|shall|should|can|cannot|could|would|is|are|was|were|has|have|had|does|do|did|own|"
    r"owns|provides?|pays?|receives?|requires?|needs?|submits?|agrees?|completes?|signs?|retains?)\b"
)
# a leading subordinate clause: the subject follows its comma
_LEADING_CLAUSE = re.compile(r"(?:To|If|Where|When|Once|Unless|After|Before|While|Although|In order to)\b[^,.;]*,\s*")
# words after a party term that keep it the head of the subject: a relative clause, a preposition, punctuation
_HEAD_FOLLOWERS = frozenset("who that which whose for of in on at with under from to and or".split())
# the agent of a passive: '… must be completed by the prescriber', '… signed by an ADP Authorizer'
_BY = re.compile(r"\bby (?:the |an? )?(?:ADP )?")
_WORD_AFTER = re.compile(r"([’']s?)?\s*([A-Za-z]+|[^\sA-Za-z])?")


@dataclass(frozen=True)
class Parties:
    """A source's parties: ``terms`` are the defined terms its sentences name a party by (case kept: the
    manuals capitalise them), ``implied`` the words a question names or implies one by; ``everyone`` are
    parties every question is addressed to (the Program), never a reason to demote a sentence."""

    terms: Mapping[str, re.Pattern[str]]
    implied: Mapping[str, re.Pattern[str]]
    everyone: frozenset[str] = field(default_factory=frozenset)

    def of_sentence(self, text: str) -> str | None:
        """The party ``text`` is about, or None when its subject is no party ('ADP funding assistance is …')."""
        lead = _LEADING_CLAUSE.match(text)  # 'To ensure that individuals are aware …, the Vendor must …'
        start = lead.end() if lead else 0
        verb = _VERB.search(text, start)
        subject = text[start : verb.start()] if verb else text[start:]
        found: tuple[int, str] | None = None
        for party, pattern in self.terms.items():
            for m in pattern.finditer(subject):
                follower = _WORD_AFTER.match(subject, m.end())
                possessive, after = (follower.group(1), follower.group(2) or "") if follower else (None, "")
                # 'Vendor quotation', 'ADP funding': the term qualifies the subject's own noun; a possessive
                # keeps the party ('The individual's ability to propel … is not' is about the individual)
                if not possessive and after.isalpha() and after.lower() not in _HEAD_FOLLOWERS:
                    continue
                if found is None or m.start() > found[0]:
                    found = (m.start(), party)
        if found is not None:
            return found[1]
        by = _BY.search(text, verb.end()) if verb else None
        if by is not None:
            return next((party for party, pattern in self.terms.items() if pattern.match(text, by.end())), None)
        return None

    def of_question(self, question: str) -> frozenset[str]:
        """The parties a question names or implies ('pt', 'she' -> the Applicant; 'as an OT' -> the Authorizer)."""
        return frozenset(party for party, pattern in self.implied.items() if pattern.search(question))
