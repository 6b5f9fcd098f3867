"""Where a note mentions a yes/no criterion, and whether it says so plainly (issue #15, "From a note").

Each criterion is looked for by its ``aliases`` and, when its label is one short concept ("Haemoptysis",
"Nursing home resident"), by the label itself, as a note may word them (``note_match.py``: "the entire
left leg is swollen" for "entire leg swollen"). Each mention is classed by the words around it in its
clause, in the manner of NegEx (Chapman et al., J Biomed Inform 2001;34:301-10): *negated* after a cue
such as "no", "denies", "without", "negative for" or before "was excluded"/"ruled out"; *uncertain*
under "possible", "suspected", "risk of", "rule out", "if", when about a relative ("family history
of", "his mother"), or when a word before it makes it another condition ("pulmonary hypertension");
otherwise *affirmed*.

``plain_answer`` reads a criterion without a model only where that is safe:

- "no" when every mention is negated and either the criterion is one concept (its label has no "or",
  "and", comma or slash) or one sentence denies two or more of its names together: "denies black
  stools" is no melaena, "denies any history of MI, stroke, or TIA" no cerebrovascular disease (prior
  stroke or TIA), and so does a denied name that is itself the pair ("denies prior DVT or PE"); but "no
  stroke" alone says nothing of a TIA, so it is not read for it;
- "yes" when every mention is affirmed and the label, brackets included, sets no threshold, time
  window, severity or treatment ("> 160 mmHg", "within 4 weeks", "recent", "new", "acute", "uncontrolled",
  "moderate–severe", "active", "treated"): "a history of stroke" is a prior stroke, but "surgery 5
  months ago" is not "surgery within 4 weeks", nor "rheumatoid arthritis" a moderate–severe one;
- nothing when mentions disagree, any is uncertain, or there is none. (A criterion with a time window
  may still be read from an explicit elapsed time, ``note_recent.py``; a difference between the sides
  from the one stated, ``note_compared.py``; a role such as "the symptomatic leg" from the side of the
  note's symptoms, ``note_side.py``; a qualified criterion from a denial of its broader finding,
  ``note_broader.py``.)

The mentions also pick the sentences the model is shown for a criterion (``note_model.py``): a
criterion the note never mentions is not asked about at all. Everything here is linear in the
note's length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from curbside.tools.calculators.kit import Criterion
from curbside.tools.calculators.note_match import term_pattern

__all__ = [
    "SEVERAL",
    "Mention",
    "context_sentences",
    "criterion_terms",
    "find_mentions",
    "label_stems",
    "denies_it",
    "names_it",
    "names_option",
    "plain_answer",
    "plain_label",
]

Polarity = Literal["affirmed", "negated", "uncertain"]

# a clause ends at these: "no fever, but a cough" and "no fever; developed a stroke" negate the fever only
_CLAUSE_BREAK = re.compile(
    r"[;:.!?()\[\]]|\b(?:but|however|although|though|except|apart from|aside from|other than|whereas|while|"
    r"which|who|whose|yet|still|then|now|presents?|presented|reports?|reported|admitted|developed|underwent|"
    r"started|received|takes|taking|has|had|have|is|was|were|are)\b",
    re.IGNORECASE,
)
_NEGATION_BEFORE = re.compile(
    r"\b(?:no|not|denies|denied|denying|deny|without|negative for|free of|absence of|absent|never|nor|"
    r"neither|none|ruled out|rules out|unremarkable for)\b",
    re.IGNORECASE,
)
_NEGATION_AFTER = re.compile(
    r"[\s,:-]*(?:(?:was|were|is|are|has been|have been|had been)\s+)?(?:excluded|ruled out|absent|negative|"
    r"not (?:seen|found|present|detected|noted|reported|observed|identified)|denied)\b",
    re.IGNORECASE,
)
_UNCERTAIN = re.compile(
    r"\b(?:possible|possibly|probable|probably|suspected|suspect|suspicion|concern for|concerning for|"
    r"rule out|r/o|risk of|risks of|risk factors?|at risk|likely|unlikely|may|might|could|if|whether|"
    r"differential|versus|vs|screening|screen|prophylaxis|prevent|prevention|to assess|evaluate for|"
    r"family history|familial|mother|father|sister|brother|son|daughter|wife|husband|parents?|"
    r"grandmother|grandfather|aunt|uncle)\b|\?",
    re.IGNORECASE,
)
# a word right before a name that makes it another condition: "pulmonary hypertension" is no hypertension
_OTHER_KIND = re.compile(
    r"\b(?:pulmonary|portal|intracranial|ocular|gestational|pregnancy-induced|neonatal|drug-induced)[\s-]+$",
    re.IGNORECASE,
)
# words in a label that make a bare mention not enough for "yes"
_CONDITIONAL = re.compile(
    r"[<>≤≥\d]|\b(?:within|recent|recently|past|current|currently|new|acute|uncontrolled|severe|severely|"
    r"moderate|active|presentation|last|days?|weeks?|months?|years?|hours?|requiring|treated|treatment|"
    r"objectively|documented|confined|unilateral|bilateral|more than|less than|at least|on)\b",
    re.IGNORECASE,
)
SEVERAL = re.compile(r",|/|\bor\b|\band\b", re.IGNORECASE)  # a label naming two things or more
# "Localised tenderness along the deep venous system": the note's "tenderness along the deep venous system"
_LOCALISED = re.compile(r"locali[sz]ed\s+(\w+\s+(?:along|over)\s+\w+(?:\s+\w+){0,3})", re.IGNORECASE)
_LOOK_BACK = 160  # characters before a mention that may hold its cue
_CUE_WORDS = 12  # a cue further back negates a list this long at most ("denies fainting, chest pain, ... or melaena")


@dataclass(frozen=True)
class Mention:
    """One place a criterion's words are in the note, and how the note says it."""

    term: str
    start: int
    end: int
    sentence: int  # its index in the note's sentences
    polarity: Polarity
    cue: str | None  # the words that made it negated or uncertain


def plain_label(item: Criterion) -> str:
    """The label outside brackets: "Dementia (chronic cognitive deficit)" -> "Dementia"."""
    return " ".join(re.sub(r"\([^)]*\)", " ", item.label).split())


# abbreviations and their full names: a note may use either whichever the criterion's aliases give
_EXPANSIONS = (
    ("TIA", "transient ischemic attack"),
    ("CVA", "cerebrovascular accident"),
    ("MI", "myocardial infarction"),
    ("CHF", "congestive heart failure"),
    ("CKD", "chronic kidney disease"),
    ("COPD", "chronic obstructive pulmonary disease"),
    ("DVT", "deep vein thrombosis"),
    ("VTE", "venous thromboembolism"),
    ("CAD", "coronary artery disease"),
    ("IHD", "ischemic heart disease"),
    ("PAD", "peripheral arterial disease"),
    ("AKI", "acute kidney injury"),
    ("HTN", "hypertension"),
    ("PE", "pulmonary embolism"),
)


def _us_spelling(term: str) -> str:
    """'ischaemic attack' -> 'ischemic attack', 'oedema' -> 'edema', 'melaena' -> 'melena'."""
    return re.sub(r"(?<=[a-z])ae|\boe", lambda m: "e", term, flags=re.IGNORECASE)


def criterion_terms(item: Criterion) -> list[str]:
    """The words a note uses for the criterion: its aliases (with their abbreviation or full name, and US
    spelling), and its label when that is one short concept (or, for "Localised tenderness along the
    deep venous system", the finding at the place it names)."""
    terms = [alias for alias in item.aliases if alias.strip()]
    label = plain_label(item)
    if len(label.split()) <= 4 and not SEVERAL.search(label) and not _CONDITIONAL.search(label):
        terms.append(label)
    placed = _LOCALISED.fullmatch(label)
    if placed and not SEVERAL.search(label) and not _CONDITIONAL.search(label):
        terms.append(placed.group(1))  # a finding the note places along a structure is localised there
    for short, full in _EXPANSIONS:
        plain = {_us_spelling(t).lower() for t in terms}
        if short in terms and full not in plain:
            terms.append(full)
        elif full in plain and short not in terms:
            terms.append(short)
    terms.extend(_us_spelling(t) for t in list(terms) if _us_spelling(t) != t)
    return list(dict.fromkeys(terms))


def _clause_before(text: str, sentence_start: int, start: int) -> str:
    """The words of the mention's clause before it, at most ``_CUE_WORDS`` of them."""
    window = text[max(sentence_start, start - _LOOK_BACK) : start]
    breaks = list(_CLAUSE_BREAK.finditer(window))
    clause = window[breaks[-1].end() :] if breaks else window
    words = clause.split()
    return " ".join(words[-_CUE_WORDS:])


def _polarity(text: str, sentence: tuple[int, int], start: int, end: int) -> tuple[Polarity, str | None]:
    before = _clause_before(text, sentence[0], start)
    sentence_text = text[sentence[0] : sentence[1]]
    uncertain = _UNCERTAIN.search(sentence_text)
    if uncertain:
        return "uncertain", uncertain.group(0)
    other = _OTHER_KIND.search(text, max(sentence[0], start - 30), start)
    if other:
        return "uncertain", other.group(0).strip()
    cues = _NEGATION_BEFORE.findall(before)
    if cues:
        return "negated", cues[-1]
    after = _NEGATION_AFTER.match(text, end, sentence[1])
    if after:
        return "negated", after.group(0).strip(" ,")
    return "affirmed", None


def find_mentions(item: Criterion, text: str, sentences: Sequence[tuple[int, int]]) -> list[Mention]:
    """Every mention of the criterion in ``text`` (whose sentence spans are ``sentences``), in order."""
    pattern = term_pattern(criterion_terms(item))
    if pattern is None:
        return []
    out: list[Mention] = []
    index = 0
    for m in pattern.finditer(text):
        while index + 1 < len(sentences) and sentences[index + 1][0] <= m.start():
            index += 1
        polarity, cue = _polarity(text, sentences[index], m.start(), m.end())
        out.append(Mention(m.group(0), m.start(), m.end(), index, polarity, cue))
    return out


def plain_answer(item: Criterion, mentions: Sequence[Mention]) -> tuple[bool, Mention] | None:
    """(answer, the mention it rests on) when the note states the criterion plainly; otherwise None."""
    if not mentions:
        return None
    polarities = {m.polarity for m in mentions}
    if polarities == {"negated"} and (
        not SEVERAL.search(item.label) or _one_list(mentions) or any(SEVERAL.search(m.term) for m in mentions)
    ):
        return False, mentions[0]
    if polarities == {"affirmed"} and not _CONDITIONAL.search(item.label):
        return True, mentions[0]
    return None


def _one_list(mentions: Sequence[Mention]) -> bool:
    """Two or more of the criterion's names denied together ("denies aspirin, clopidogrel, or NSAIDs")."""
    return len({m.term.lower() for m in mentions}) >= 2 and len({m.sentence for m in mentions}) == 1


# label words too common, or too much a qualifier ("severely", "acute"), to pick a criterion's sentences by
_COMMON = frozenset(
    """about above after again against among before being below between both during each from further
    having here into more most other over same some such than that their them then there these they this
    those through under until very what when where which while with within without would days weeks months
    years hours history previous prior recent recently current currently treatment treated ongoing least
    disease patient presentation including less than more times other side previously documented
    active severe severely mild moderate acute chronic known entire localised localized absence""".split()
)
_STEM = 6  # letters of a word that stand for it: "paralysis" finds "paralysed"
_CONTEXT_SENTENCES = 5  # enough for a history, an examination and a result; short enough for a small model
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")


def context_sentences(
    item: Criterion, text: str, sentences: Sequence[tuple[int, int]], limit: int = _CONTEXT_SENTENCES
) -> list[int]:
    """The sentences a model is shown for the criterion, in note order, at most ``limit``: first those with
    one of its names, then those with a word of its label (by its first six letters: 'paralysis' finds
    'paralysed')."""
    stems = label_stems(item)
    pattern = term_pattern(criterion_terms(item))
    stem_pattern = (
        re.compile(r"\b(?:" + "|".join(re.escape(s) for s in sorted(stems)) + r")", re.IGNORECASE) if stems else None
    )
    named: list[int] = []
    worded: list[int] = []
    for index, (start, end) in enumerate(sentences):
        if pattern is not None and pattern.search(text, start, end):
            named.append(index)
        elif stem_pattern is not None and stem_pattern.search(text, start, end):
            worded.append(index)
    return sorted([*named, *worded][:limit])


def label_stems(item: Criterion) -> set[str]:
    """The first six letters of the label's telling words ("Severely inflamed tonsils" -> inflam, tonsil;
    six, since five would make "collapse" a word of "collateral veins"); an abbreviation's by its full
    name: "Prior PE or DVT" -> pulmon, emboli, deep, vein, thromb."""
    label = item.label
    for short, full in _EXPANSIONS:
        if re.search(rf"(?<![\w-]){short}(?![\w-])", label):
            label += f" {full}"
    stems = {w.lower()[:_STEM] for w in _WORD.findall(label) if w.lower() not in _COMMON}
    return stems | {w.lower() for w in re.findall(r"\b[A-Z]{3}\b", label)}  # INR, DVT


def _stems(text: str) -> set[str]:
    return {w.lower()[:_STEM] for w in _SHORT_WORD.findall(text)}


def _shared(stems: set[str], words: set[str]) -> int:
    """How many of ``stems`` start a word of the quote ('eye' of 'eyes'), or are started by one of four
    letters or more ('vent' of 'ventil')."""
    return sum(any(w.startswith(s) or (len(w) >= 4 and s.startswith(w)) for w in words) for s in stems)


def names_it(item: Criterion, quote: str, least: int = 2) -> bool:
    """Does a model's quote name the criterion: one of its names, or ``least`` of its label's telling words
    (all of them when there are fewer)? "his tonsils are shown in the image" names no tonsillar swelling."""
    pattern = term_pattern(criterion_terms(item))
    if pattern is not None and pattern.search(quote):
        return True
    stems = label_stems(item)
    return bool(stems) and _shared(stems, _stems(quote)) >= min(least, len(stems))


_DENIAL = re.compile(
    r"\b(?:no|not|nor|denies|denied|denying|without|negative|never|none|absent|normal|unremarkable|stable)\b",
    re.IGNORECASE,
)


def denies_it(item: Criterion, quote: str) -> bool:
    """Does a model's "no" rest on words that deny the criterion: a denial ("no", "denies", "within normal
    limits", "stable") beside one of its names or telling words? A sentence that merely does not mention
    it is no "no": "His blood pressure is 130/85" says nothing of heart failure."""
    return bool(_DENIAL.search(quote)) and names_it(item, quote, least=1)


def names_option(label: str, option: str, quote: str) -> bool:
    """Does a model's quote for an option name the item or the option ("no ascites"; "eyes open
    spontaneously")? A one-letter quote, or a sentence about something else, does not."""
    words = _short_stems(quote)
    named = _short_stems(f"{label} {option.replace('_', ' ')}") - _COMMON_STEMS
    return _shared(named, words) > 0


_COMMON_STEMS = {w[:_STEM] for w in _COMMON} | {"the", "and", "for", "not", "per", "with", "best"}
_SHORT_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")  # an option's words may be short: "eye", "to pain"


def _short_stems(text: str) -> set[str]:
    return {w.lower()[:_STEM] for w in _SHORT_WORD.findall(text)}
