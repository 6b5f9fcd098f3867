"""Does a passage found name what the question is about, together with the value it asks for?

A value belongs to one thing: a duration to one condition, an age to one screening. The knowledge base gives
durations for depression and anxiety, and "how long to continue an SSRI for PTSD?" found them; the passages
that state a time span never mention PTSD, so quoting them would give another condition's duration as the
answer. A yes/no question is the same in another form: "is ECT recommended for severe depression in older
adults?" found the older-adults section, which reads as an answer though no passage mentions ECT.

So, for a question asking for a kind of value (``extractive.asked_kind``), some passage stating a value of that
kind must mention the question's subject; for a yes/no question, some passage found must. The subject is the
rarest in the knowledge base of the question's words that could name one, a word not common in English ("ptsd"
rather than "ssri"; never "continue", "older", "session"): a common word says too little to withhold on, and the
question's other evidence (``abstain.py``) weighs it. Requiring every such word ("genome" beside "pseudogenes"
and "elegans") withheld answers whose passages name the rarest and write the others another way. A word is
mentioned in its own spelling, another ending of it ("vaccine" in "vaccination"), its Greek letter ("lambda",
"λ"), or written with a hyphen ("postmenopausal" in "post-menopausal"); a short word (an abbreviation) only as
itself, so "ect" is not found in "ectopic", or as what it abbreviates (``search.enhance.ABBREVIATIONS``: "htn" in
"hypertension").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from curbside.ask.abstain import (
    ABBREVIATION_MAX,
    CHART_SHORTHAND,
    common_in_english,
    could_name_subject,
    family,
    process_noun,
    spellings,
)
from curbside.search.enhance import spelled_out

__all__ = ["NAMED_KINDS", "named_subject", "naming_words", "unnamed", "withheld_unnamed", "yes_no"]

_INNER_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
# a yes/no question opens with its verb: "is ECT recommended …?", "is there a vaccine …?", "does ADP cover …?"
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did|can|could|should|will|would|may|has|have|must)\s+\S", re.I)
# The kinds whose value belongs to one subject. Not "amount": a share is often a rule for every device ("the
# ADP pays 75%" answers "how much does the client pay toward a wheelchair?" without naming wheelchairs).
NAMED_KINDS = (
    "dose", "price", "count", "frequency", "time span", "age", "ratio", "rate", "threshold", "concentration",
    "phone number", "code",
)  # fmt: skip


def yes_no(question: str) -> bool:
    """Whether the question asks yes or no ("is ECT recommended …?", "is there a vaccine …?")."""
    return bool(_YES_NO.match(question))


def naming_words(words: Iterable[str]) -> list[str]:
    """The question's key words (``abstain.key_words``) that could name a subject: not common in English, and not a
    noun of action ("augmentation": a dose for augmentation is stated under the drug, not beside the word) and not a
    chart's shorthand ("pts": the study's patients are its participants)."""
    return [w for w in words if not common_in_english(w) and not process_noun(w) and w not in CHART_SHORTHAND]


def named_subject(words: Iterable[str], idf: Mapping[str, float], lacked: Collection[str] = ()) -> list[str]:
    """The rarest in the knowledge base (``idf``; a word it lacks is rarest) of the words that could name a subject.

    Of the words the knowledge base lacks (``lacked``), an abbreviation ("ect") or a word that names a subject
    (``subjects.names_subject``) counts; a plain word it does not use ("frail", "sentinel") only when no other word
    could name the subject ("how often will ADP replace a mattress?"): beside "paxil" in "max paxil dose in a frail
    85 yo?" it is said otherwise in the passages ("debilitated patients"), and requiring it would withhold the
    answer they give."""
    candidates = naming_words(words)
    naming = [w for w in candidates if w not in lacked or could_name_subject(w)]
    naming = naming or candidates
    top = max((idf[w] for w in naming), default=0.0)
    return [w for w in naming if idf[w] >= top - 1e-9]


# words of an abbreviation's expansion that name no condition of their own ("major depressive disorder")
_GENERIC = frozenset({"major", "minor", "disorder", "disorders", "disease", "syndrome", "generalized", "chronic",
                      "acute", "general", "post", "type", "severe", "primary", "secondary"})  # fmt: skip
HEAD_MIN = 6


def _pattern(word: str) -> re.Pattern[str]:
    if len(word) <= ABBREVIATION_MAX:
        forms = [f"{re.escape(word)}s?\\b"]  # "ssri" in "SSRIs", never "ect" in "ectopic"
    else:
        forms = [re.escape(word)] + [re.escape(stem) for stem in (family(word),) if stem]
    forms += [re.escape(s) for s in spellings(word) if not s.isascii()]  # the Greek letter ("λ")
    expansion = spelled_out(word)
    if expansion:  # a clinician's abbreviation the source writes out: "htn" is named by "hypertension"
        forms.append(r"[\s-]+".join(re.escape(part) for part in expansion.split()))
        # … or by the word of it that names the condition, in another ending: "mdd" by "Depression: 6-12 months
        # after symptom remission" (major depressive disorder)
        head = max((w for w in re.split(r"[\s-]+", expansion.lower()) if w not in _GENERIC), key=len, default="")
        if len(head) >= HEAD_MIN and (root := family(head)):
            forms.append(re.escape(root))
    return re.compile(r"(?<!\w)(?:" + "|".join(forms) + ")", re.IGNORECASE)


def unnamed(
    words: Sequence[str],
    passages: Sequence[str],
    shows: re.Pattern[str] | None = None,
    other_names: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The words the best passage leaves out: of the passages that show the kind of value asked (``shows``, or
    every passage when None), the one mentioning most of ``words``. Empty when one mentions them all; all of
    ``words`` when no passage shows the value. A word is mentioned by the other name the question gives it
    (``other_names``, ``abstain.bracket_names``: "orlistat (THL)" is named by a passage writing "THL")."""
    if not words:
        return ()
    names = other_names or {}
    patterns = {
        w: re.compile("|".join(p.pattern for p in (_pattern(w), *([_pattern(names[w])] if w in names else []))), re.I)
        for w in words
    }
    best: tuple[str, ...] = tuple(words)
    for text in passages:
        if shows is not None and not shows.search(text):
            continue
        forms = (text, _INNER_HYPHEN.sub("", text))
        missing = tuple(w for w, p in patterns.items() if not any(p.search(f) for f in forms))
        if len(missing) < len(best):
            best = missing
        if not best:
            break
    return best


def withheld_unnamed(kind: str | None, missing: Sequence[str]) -> str | None:
    """The no_source message when the passages that could answer leave out what the question names, or None."""
    if not missing:
        return None
    named = " or ".join(f"'{w}'" for w in missing)
    if kind is None:
        return (
            f"No passage found mentions {named}, so what they say about the rest of the question is not given as "
            "the answer. Ingest a source that covers it."
        )
    return (
        f"None of the passages found that state a {kind} mentions {named} (any {kind} they give is about something "
        f"else), so no answer is given rather than another {kind}. Ingest a source that covers it."
    )
