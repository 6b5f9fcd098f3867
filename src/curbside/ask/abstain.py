"""Abstain honestly: does the evidence found answer this question, or should ``ask`` say it cannot?

A similarity threshold alone does not separate the two (an e5 model puts an unanswerable
amiodarone question and an answerable walker question at 0.854 both). The decision
combines what we know about the hits:

* ``top_relevance``: the best hit's calibrated relevance (search/relevance.py);
* ``key_coverage``: the share of the question's key words, weighted by their rarity in the
  knowledge base, that the answer passages hold (text and section path);
* ``unknown``: the question names a word no chunk of the knowledge base holds ("amiodarone"
  in a psychiatry guideline) — the strongest single sign. Only words that could name a subject
  count: a word common in English ("bought", "worn", "kind") says nothing when the knowledge base
  lacks it, and is left out of the key words altogether; a word the knowledge base writes another
  way ("postmenopausal" as "post-menopausal", "lambda" as "λ", "atherosclerosis" as
  "atherosclerotic", "visualise" as "visualize") is known;
* ``unit_coverage``: the same share for the best answer unit with its heading context;
* ``agreement``: the dense and keyword retrievers both put the top hit in their first three;
* ``off_subject``: every hit sits under a sibling of the section the question names;
* ``typed_answer``: some unit holding at least half the question's key-word weight (in its
  text or heading context) also holds the kind of value the question asks for — a dose in
  mg for a dose question, money or a share for a price, a time span for "how long", an age for "at what age" — or
  the question asks for no particular kind of value;
* ``population_missing``: the question names a population (children, an 80 year old, pregnancy)
  that none of the passages found mentions — an adult guideline does not answer for a child;
* ``subject_in_answer``: the answer's units (text or heading context) hold the question's subject,
  its rarest key word the knowledge base knows ("quetiapine", "metformin") — a dose found under
  another drug's heading is not an answer about this one.

A logistic model over these gives P(answerable); below the fitted threshold the answer
is ``no_source``. Two guards stand before it, because the answer they stop would be confidently
wrong rather than merely weak (``withheld_value``): a question asking for a dose whose passages state
doses only for something else (a dose of aripiprazole for "quetiapine dose?"), and a question asking
for a dose for a population (children, pregnancy, older adults) that none of the passages mentions
(an adult dose for "a 15 year old"). The first guard covers doses, sums of money ("what is the
approved price for a power scooter?" whose passages give a price only for something else, or only a
share) and counts ("how many CBT sessions does the program offer?" whose passages about it give no
number) and ages ("at what age should colorectal cancer screening start?" whose passages give only the ages of a
study's participants): a dose belongs to one drug, a price to one device, a count to one thing counted, an age to
one screening. ``named.py`` adds the same guard at passage level for time spans and yes/no questions. Shares are not guarded: a share is often a
rule stated for every device ("the ADP pays 75% of the Approved Price" answers "what share of a walker's
price?" without naming walkers), so guarding them withheld right answers. Coefficients and threshold are fitted on
every labelled guideline QA set and BioASQ (``benchmarks/fit_abstention.py``) and kept in ``abstention.toml`` beside
this file, with the figures each set reached when it was left out of the fit. Out of set, the questions the model
scores lowest after the guards are mostly answerable (a fifth or fewer unanswerable), so the threshold it is given is
0: the guards withhold, the model's P(answerable) is recorded (``metadata["abstention"]``) and withholds nothing.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from curbside import drug_lexicon
from curbside.ask.focus import AGE as _AGE
from curbside.ask.subjects import english_word, names_subject
from curbside.clinical_words import CHART_SHORTHAND
from curbside.llm.extractive import Sentence, answer_kind, terms
from curbside.llm.lay_terms import clinical_words
from curbside.medical_abbreviations import readings
from curbside.search.enhance import spelled_out
from curbside.types import Passage

__all__ = [
    "FEATURES",
    "CHART_SHORTHAND",
    "AbstentionModel",
    "Evidence",
    "abstention_model",
    "bracket_names",
    "key_words",
    "lacking_subjects",
    "withheld_payment",
    "withheld_value",
]

_MODEL_FILE = Path(__file__).with_name("abstention.toml")
FEATURES = (
    "top_relevance",
    "key_coverage",
    "unknown",
    "unit_coverage",
    "agreement",
    "off_subject",
    "typed_answer",
    "population_missing",
    "subject_in_answer",
)
_RAW_WORD = re.compile(r"[a-z0-9]*[a-z][a-z0-9]*")  # "1p21", "p53", "cd4": a token as the keyword index cuts it
_ASKING = re.compile(
    r"\bhow (?:long|much|many|often|old|soon|far|frequently|fast|quickly)\b|\bwhat age\b|\b(?:must|need|needs|shall)\b"
    # the name of the value asked: "GAD-7 cutoff", "phone # for", "LU code for", "MIC of", "odds of", "half-life of"
    r"|\b(?:thresholds?|cut-?offs?|cut points?|phone|telephone|fax|codes?|mics?|odds|ratios?|half-?li(?:fe|ves))\b"
)
_NUMBERED = re.compile(r"\b([a-z][a-z0-9]*)-\d+\b")
# the clitic of a contraction, which the keyword index would read as a word of its own: "didn't" -> "didn", "isn't"
# -> "isn" (words the knowledge base lacks, so the question looked unanswerable); "n't" leaves the bare verb, a stop word
_CONTRACTION = re.compile(r"(?<=[a-z])(?:n't|'re|'ve|'ll|'d|'m)\b")
TYPED_SHARE = 0.5
COMMON_ZIPF = 4.0  # wordfreq's Zipf scale: a word used this often in English names no subject ("bought" 4.9)
RARE_ZIPF = 3.5  # below this a word is a term of art ("aspirin" 3.3, "regimen" 3.3), not everyday English ("wax" 3.9)
ABBREVIATION_MAX = 4  # letters of a word that may be an abbreviation the knowledge base writes out
_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ",
    "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π",
    "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
}  # fmt: skip
MIN_PART = 3  # letters on each side when an unknown word is tried as two ("post menopausal")
# a name found joined to its variant has at least this many letters: "ohip" in "ohipnl"; a shorter one ("ect") would
# be found inside other words ("ectopic")
JOINED_NAME_MIN = 4
FAMILY_PREFIX = 6  # letters a word shares with its family at least ("visual" for visualise/visualize) …
FAMILY_ENDING = 4  # … and at most this many of its last letters may differ ("atheroscler|osis", "|otic")
CLIPPED_MIN = 5  # letters of a clipped word that may begin the knowledge base's word ("fluvox" -> "fluvoxamine")
# a word-forming prefix before a word the knowledge base knows: "uptitrate" (titrate), "retreatment", "coadminister"
_PREFIX = re.compile(r"^(?:up|down|re|pre|post|co|non|sub|over|under|anti|de|dis|mis|out|cross|self)(?=[a-z]{5})")
# a noun of action or state ("augmentation", "titration", "management") names a way of treating, not a subject
# the knowledge base could lack (a drug, a disease, a gene): the documents say it otherwise ("adjunct")
_PROCESS_NOUN = re.compile(r"[a-z]{4}(?:ation|ition|ment|ing)$")


@dataclass(frozen=True, slots=True)
class Evidence:
    top_relevance: float
    key_coverage: float
    unknown: tuple[str, ...]  # key words no chunk in the knowledge base holds
    unit_coverage: float
    agreement: bool
    off_subject: bool
    typed_answer: bool
    population_missing: bool = False  # the question names a population no passage found mentions
    subject_in_answer: bool = True  # the answer's units hold the question's rarest known key word

    def features(self) -> list[float]:
        return [
            self.top_relevance,
            self.key_coverage,
            1.0 if self.unknown else 0.0,
            self.unit_coverage,
            1.0 if self.agreement else 0.0,
            1.0 if self.off_subject else 0.0,
            1.0 if self.typed_answer else 0.0,
            1.0 if self.population_missing else 0.0,
            1.0 if self.subject_in_answer else 0.0,
        ]

    def as_dict(self) -> dict[str, object]:
        return {name: round(v, 4) for name, v in zip(FEATURES, self.features(), strict=True)} | {
            "unknown_words": list(self.unknown)
        }


# a patient's age and sex as a chart writes them: "34F w mild MDD", "uninsured 27M"
_AGE_SEX = re.compile(r"\b\d{1,3}\s?[mf]\b")
# the source a question asks by its name in capitals, as the authority: "per CEP", "according to CEP", "what does
# CEP say", "CEP's talking tip" (not "EPIC - HR for CRC …", where the study's name says which passages answer)
_SOURCE_ASKED = re.compile(
    r"(?<=\bper )[A-Z]{2,}\b|(?<=\baccording to )[A-Z]{2,}\b|\b[A-Z]{2,}(?= (?:say|suggest|recommend|list|name|want|"
    r"flag|advise|call)s?\b)|\b[A-Z]{2,}(?=(?:'s|’s)? (?:talking tips?|page|tool|card|algorithm)\b)"
)  # 'what does CEP say', 'any dose-timing trick CEP suggests?'


def key_words(question: str) -> dict[str, str]:
    """The question's content words (raw, for the keyword index) and their answer-matching terms.

    Words of the asking are left out: "long" in "how long", "much" in "how much", a modal "must". The
    kind of value they ask for is ``typed_answer``'s to check; as key words they would weigh a time span
    by whether the passage says "long". So is an age ("a 15 year old"): the population it names is
    ``population_missing``'s to check, and no passage on the drug says "year old". So is a patient's age and sex
    written the chart's way ("34F", "27M"), and the source the question asks by name ("per CEP", "what does CEP
    say"): its passages rarely write their publisher's name.
    """
    question = _SOURCE_ASKED.sub(" ", question)
    lowered = _CONTRACTION.sub(" ", question.lower().replace("’", "'").replace("'s ", " "))
    lowered = _ASKING.sub(" ", _AGE_SEX.sub(" ", _AGE.sub(" ", lowered)))
    # a name joined to its number ("GAD-7", "PHQ-9") is matched whole: "GAD" alone is the disorder, not the scale
    numbered = {m.group(1): m.group(0) for m in _NUMBERED.finditer(lowered)}
    out: dict[str, str] = {}
    for word in _RAW_WORD.findall(lowered):
        stems = terms(numbered.get(word, word), question=True)
        if stems and len(word) > 2:
            out[word] = stems[0]
    return out


def weighted_share(found: set[str], keys: Mapping[str, str], idf: Mapping[str, float]) -> float:
    """Share of the key words' rarity weight whose terms are in ``found``."""
    total = sum(idf[w] for w in keys)
    if total <= 0:
        return 1.0
    return sum(idf[w] for w, t in keys.items() if t in found) / total


def rarity(frequencies: Mapping[str, int], chunks: int) -> dict[str, float]:
    """Inverse document frequency of each word in the knowledge base (a word in every chunk weighs ~0)."""
    return {w: math.log((chunks + 1) / (df + 1)) for w, df in frequencies.items()}


def unknown_words(frequencies: Mapping[str, int]) -> tuple[str, ...]:
    return tuple(w for w, df in frequencies.items() if df == 0 and not w[0].isdigit())


def spellings(word: str) -> list[str]:
    """Other ways a text may write ``word``: its Greek letter ("lambda" -> "λ", "phix174" -> "φx174") and, for a
    compound, the two words it joins ("postmenopausal" -> "post menopausal", which the keyword index finds in "post-menopausal")."""
    out = [_GREEK[word]] if word in _GREEK else []
    if any(c.isdigit() for c in word):  # a strain or gene named with a Greek letter: "phix174" as "φx174"
        out += [_GREEK[g] + word[len(g) :] for g in _GREEK if word.startswith(g) and len(word) > len(g)]
    out += [f"{word[:i]} {word[i:]}" for i in range(MIN_PART, len(word) - MIN_PART + 1)]
    # a scale or a vitamin written without its hyphen: "phq9" is the text's "PHQ-9", "b12" its "B-12"
    joined = _LETTERS_DIGITS.fullmatch(word)
    if joined:
        out.append(f"{joined.group(1)} {joined.group(2)}")
    return out


_LETTERS_DIGITS = re.compile(r"([a-z]+)(\d+)")


def spelled_out_words(word: str) -> list[str]:
    """The words of what a clinician's abbreviation stands for that could name it ("t2dm" -> "type", "diabetes",
    "mellitus"; ``search.enhance.ABBREVIATIONS``); empty for a word that is no known abbreviation."""
    expansion = spelled_out(word)
    return _naming_words(expansion) if expansion else []


def readings_words(word: str) -> list[list[str]]:
    """The naming words of each thing an abbreviation may stand for: the search layer's own reading ("t2dm"), else
    the published lexicon's (``medical_abbreviations``: "sob" -> "shortness", "breath") for a word that may be an
    abbreviation (``abbreviation``); empty for any other word."""
    own = spelled_out_words(word)
    if own:
        return [own]
    if not abbreviation(word):
        return []
    return [parts for reading in readings(word) if (parts := _naming_words(reading))]


def lay_readings(word: str) -> list[list[str]]:
    """The naming words of the clinical term a symptom said in everyday words is filed under ("anorgasmia" ->
    "sexual", "dysfunction": ``llm.lay_terms``); empty for any other word."""
    return [parts for term in clinical_words(word) if (parts := _naming_words(term))]


def _naming_words(expansion: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", expansion.lower()) if len(w) >= MIN_PART + 1]


def family(word: str) -> str | None:
    """The beginning ``word`` shares with the other words of its family (another ending, another spelling):
    "atherosclerosis" -> "atheroscler", "visualise" -> "visual"; None for a word too short to have one."""
    keep = max(FAMILY_PREFIX, len(word) - FAMILY_ENDING)
    return word[:keep] if len(word) > keep else None


def beginnings(word: str) -> list[str]:
    """What a word the knowledge base lacks may begin a word it has with: its family ("atheroscler"), the word itself
    as a clinician clips it ("fluvox" for fluvoxamine), and the word after a word-forming prefix ("uptitrate" ->
    "titrate", "titrat" for titration)."""
    out = [stem for stem in (family(word),) if stem]
    if len(word) >= CLIPPED_MIN:
        out.append(word)
    prefixed = _PREFIX.match(word)
    if prefixed:
        rest = word[prefixed.end() :]
        out += [rest] + [stem for stem in (family(rest),) if stem]
    return list(dict.fromkeys(out))


def process_noun(word: str) -> bool:
    """Whether ``word`` is a noun of action or state ("augmentation", "titration"): a way of treating, not a subject."""
    return bool(_PROCESS_NOUN.search(word))


def warm_word_frequencies() -> None:
    """Load ``wordfreq``'s English list now (a third of a second, once a process), so that a cold ``ask``
    does it while its search runs rather than after."""
    from wordfreq import zipf_frequency

    zipf_frequency("the", "en")


def common_in_english(word: str) -> bool:
    from wordfreq import zipf_frequency  # loaded only when the knowledge base lacks a word (~0.2 s once)

    return zipf_frequency(word, "en") >= COMMON_ZIPF


def lacking_subjects(unknown: Sequence[str]) -> tuple[str, ...]:
    """The unknown words that name something the knowledge base does not cover: a drug, a disease, a gene, a
    brand ("aspirin", "krabbe", "samhd1", "dexcom") no chunk holds. Such a question is answered by no passage,
    however close its other words come ("does aspirin reduce colorectal cancer risk?" over an oral-contraceptive
    study), so ``ask`` says what is missing instead. Left out: a word of four letters or fewer (an abbreviation
    the knowledge base may spell out: "WSIB", "ECT"), an everyday English word ("wax", "slower"), a noun of
    action ("augmentation", "titration") and a plain word that names no subject (``subjects.names_subject``:
    "frail", "outgrew", "bloodwork"), whose absence says less about the subject: the model weighs it. A drug the
    offline lexicon knows is a subject even where a dictionary lists it ("quinine", "chloramphenicol")."""
    from wordfreq import zipf_frequency

    return tuple(
        w
        for w in unknown
        if not (w.isalpha() and len(w) <= ABBREVIATION_MAX)
        and not process_noun(w)
        and zipf_frequency(w, "en") < RARE_ZIPF
        and (names_subject(w) or drug_lexicon.ingredient_of(w) is not None)
    )


def resolve_unknown(
    keys: Mapping[str, str], frequencies: Mapping[str, int], lookup: Callable[[list[str], bool], Mapping[str, int]]
) -> tuple[dict[str, str], dict[str, int]]:
    """The key words and their chunk frequencies after a second look at the ones the knowledge base lacks:
    a word written another way or with another ending counts with that form's frequency; a word common in
    English is dropped (it names no subject, and missing it is no evidence). ``lookup(words, prefix)``
    gives chunk frequencies of words or phrases, or of words beginning with them
    (``SearchEngine.word_frequencies``)."""
    missing = [w for w in unknown_words(frequencies) if w in keys]
    if not missing:
        return dict(keys), dict(frequencies)
    tried = {w: spellings(w) for w in missing}
    found = dict(lookup([v for variants in tried.values() for v in variants], False)) if any(tried.values()) else {}
    stems = {w: starts for w in missing if (starts := beginnings(w))}
    if stems:
        by_stem = lookup(list({s for starts in stems.values() for s in starts}), True)
        for word, starts in stems.items():
            for stem in starts:
                tried[word].append(f"{stem}*")
                found[f"{stem}*"] = by_stem.get(stem, 0)
    # an abbreviation the knowledge base writes out in words it holds ("t2dm" beside a text on diabetes)
    # (of its readings, the one the knowledge base holds best)
    # … or a symptom said in everyday words whose clinical term it holds ("anorgasmia": sexual dysfunction)
    expanded = {w: read for w in missing if (read := readings_words(w) or lay_readings(w))}
    wanted = {p for read in expanded.values() for parts in read for p in parts}
    by_part = dict(lookup(list(wanted), False)) if expanded else {}
    keys_out, freq_out = dict(keys), dict(frequencies)
    for word, variants in tried.items():
        df = max((found.get(v, 0) for v in variants), default=0)
        if not df and word in expanded:
            df = max(min(by_part.get(p, 0) for p in parts) for parts in expanded[word])
        if df:
            freq_out[word] = df
            # the Greek letter the text writes ("ΦX174") is matched as the text's term ("x174"), not the question's
            greek = [v for v in variants if not v.isascii() and found.get(v, 0) == df and terms(v)]
            if greek:
                keys_out[word] = terms(greek[0])[0]
        elif common_in_english(word):
            del keys_out[word]
            freq_out.pop(word, None)
    return keys_out, freq_out


def subject_terms(keys: Mapping[str, str], idf: Mapping[str, float], frequencies: Mapping[str, int]) -> set[str]:
    """The answer terms of the question's rarest key word(s) the knowledge base knows (its subject)."""
    known = {w: idf[w] for w in _naming_first(keys, frequencies)}
    if not known:
        return set()
    top = max(known.values())
    return {keys[w] for w, v in known.items() if v >= top - 1e-9}


def holds_subject(units: Sequence[Sentence], subject: set[str]) -> bool:
    """Whether any of ``units`` holds the subject in its text or heading context (no subject: True)."""
    return not subject or any((u.terms | u.context) & subject for u in units)


def agreement(dense_rank: int | None, lexical_rank: int | None, within: int = 3) -> bool:
    return dense_rank is not None and lexical_rank is not None and dense_rank <= within and lexical_rank <= within


@dataclass(frozen=True)
class AbstentionModel:
    intercept: float
    weights: tuple[float, ...]
    threshold: float  # answer when P(answerable) is at least this

    def probability(self, evidence: Evidence) -> float:
        z = self.intercept + sum(w * x for w, x in zip(self.weights, evidence.features(), strict=True))
        return 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0


@cache
def abstention_model() -> AbstentionModel | None:
    """The fitted model, or None when there is none fitted on these features (then nothing abstains on it)."""
    if not _MODEL_FILE.exists():
        return None
    data = tomllib.loads(_MODEL_FILE.read_text(encoding="utf-8"))
    entry = data.get("model")
    if not entry or tuple(entry["features"]) != FEATURES:
        return None
    return AbstentionModel(
        float(entry["intercept"]), tuple(float(w) for w in entry["weights"]), float(entry["threshold"])
    )


def typed_answer(
    question: str,
    units: Sequence[Sentence],
    keys: Mapping[str, str],
    idf: Mapping[str, float],
    frequencies: Mapping[str, int],
    read: Sequence[Passage] = (),
) -> bool:
    """Whether a unit about the question holds the kind of value the question asks for; a question asking
    for no particular kind passes. "About the question": the unit (heading context included) holds its
    rarest word that the knowledge base knows ("lithium", not "dose") and half its key-word weight.

    ``read``: the passages the units were read from, in their ranks' order. A name the question writes in
    capitals may be their document's rather than the unit's: "EPIC - HR for CRC with menopause after age
    55?" is answered by a table row under "Age at menopause" (">55; … HR (95% CI): 1.00 (0.76–1.31)") of the
    EPIC paper, whose other passages say "EPIC" and "CRC" and the row does not."""
    shows = answer_kind(question)
    if shows is None:
        return True
    subject = subject_terms(keys, idf, frequencies)
    rarest = subject | aliases(question, subject)
    # a plain word no chunk holds ("augmentation": the page says "adjunct") is in no unit, and as the rarest word it
    # would outweigh the rest; a word that could name the subject ("ect", a drug) stays, no unit giving it
    weighed = {w: t for w, t in keys.items() if frequencies.get(w, 0) > 0 or could_name_subject(w)}
    # of its document's words, only the names the question writes in capitals: a study's ('EPIC'), a condition's
    # ('CRC'); a plain word ('QTc', 'drinks') must be the unit's own, as a page on many drugs holds every word
    named = {t for w, t in weighed.items() if w in _capitals(question)}
    documents = _names_in_documents(read, named) if named else {}
    # so may the rarest word, when it is such a name ('ADP fax # to send a grant application?': the manual's
    # contact line "Fax: 416 327-8192" never says "ADP")
    return any(
        shows.search(u.text)
        and holds_term(u.terms | u.context | documents.get(u.rank, frozenset()), rarest)
        and weighted_share(set(u.terms | u.context | documents.get(u.rank, frozenset())), weighed, idf) >= TYPED_SHARE
        for u in units
    )


def _capitals(question: str) -> set[str]:
    """The words ``question`` writes in capitals, three letters or more ('EPIC', 'CRC', 'HTN'), lower-cased."""
    return {w.lower() for w in _CAPITALS.findall(question)}


_CAPITALS = re.compile(r"\b[A-Z][A-Z0-9]{2,}\b")


# a name and its other name in brackets, as a question may give both: "orlistat (THL)", "tetrahydrolipstatin (THL)"
_ALIAS = re.compile(r"([a-z][a-z0-9-]*)\s*\(([a-z][a-z0-9-]*)\)")


def bracket_names(question: str) -> dict[str, str]:
    """Each word the question names another way in brackets, with that other name, both ways round:
    "orlistat (THL) MIC?" -> {"orlistat": "thl", "thl": "orlistat"}."""
    out: dict[str, str] = {}
    for first, second in _ALIAS.findall(question.lower()):
        out |= {first: second, second: first}
    return out


def aliases(question: str, subject: set[str]) -> set[str]:
    """The terms of the other name the question gives its subject in brackets: "orlistat (THL)" -> {"thl"} when
    "orlistat" is the subject (and the reverse), so a passage writing only "THL" states the value for it."""
    out: set[str] = set()
    for word, other in bracket_names(question).items():
        pair = [t for w in (word, other) for t in terms(w, question=True)[:1]]
        if len(pair) == 2 and pair[0] in subject:
            out.add(pair[1])
    return out - subject


def holds_term(held: Iterable[str], wanted: set[str]) -> bool:
    """Whether ``held`` has one of the ``wanted`` terms, or a term beginning with one: a name written joined to its
    variant ("OHIP-NL" is the term "ohipnl", which names OHIP)."""
    return any(t in wanted or any(t.startswith(w) for w in wanted if len(w) >= JOINED_NAME_MIN) for t in held)


def could_name_subject(word: str) -> bool:
    """Whether a word the knowledge base lacks could name what the question is about: an abbreviation ("ect") or a
    word ``subjects.names_subject`` takes for a subject; not a noun of action ("augmentation") or a plain word."""
    if word in CHART_SHORTHAND or process_noun(word):
        return False
    return abbreviation(word) or names_subject(word)


def abbreviation(word: str) -> bool:
    """Whether a short word the knowledge base lacks may be an abbreviation it writes out or lacks ("ect", "wsib",
    "cpap"). A dictionary word of everyday English is not: "bump up the dose", "mat leave", "remeron tabs" say in
    plain words what the documents say otherwise ("increase", "leave of absence", "tablets")."""
    if len(word) > ABBREVIATION_MAX:
        return False
    from wordfreq import zipf_frequency

    return not (english_word(word) and zipf_frequency(word, "en") >= RARE_ZIPF)


# another drug's dose, another device's price, the age for another screening would be stated as this one's
# and so for a study's ratio or rate, a threshold, a concentration, a telephone number, a code
GUARDED_KINDS = ("dose", "price", "count", "age", "ratio", "rate", "threshold", "concentration", "phone number", "code")


def withheld_value(kind: str | None, evidence: Evidence, subject: str | None, populations: Sequence[str]) -> str | None:
    """Why a dose, a price, a count or an age must not be answered from these passages (the no_source message), or None.

    ``kind`` is the kind of value asked (``asked_kind``), ``subject`` the question's rarest word the
    knowledge base knows, ``populations`` those the question names that no passage found mentions.
    """
    if kind not in GUARDED_KINDS:
        return None
    if not evidence.typed_answer:
        about = f" for '{subject}'" if subject else " for what the question names"
        return (
            f"The passages found state no {kind}{about} (any {kind} they give is about something else), so no "
            f"answer is given rather than another {kind}. Ingest a source that covers it."
        )
    if kind == "dose" and populations:
        named = " and ".join(populations)
        return (
            f"The question asks for a dose for {named}, but none of the passages found mentions {named}; a dose "
            "from a source about other patients is not given as the answer. Ingest a source that covers them."
        )
    return None


# the words a source states a payment in: "ADP pays 75%", "the client's portion", "a grant of $X", "covered at 75%"
_PAYMENT = re.compile(
    r"\b(?:pa(?:y|ys|id|yment|yable)|fund(?:s|ed|ing)?|fees?|costs?|prices?|reimburs\w*|cover(?:s|ed|age)?|"
    r"contribut\w*|grants?|portion)\b",
    re.IGNORECASE,
)


def withheld_payment(kind: str | None, question: str, units: Sequence[Sentence]) -> str | None:
    """Why "what does X pay for …?" / "how much does X cover?" must not be answered (the no_source message), or None.

    Such a question (the "amount" kind) is answered by money or a share stated as a payment; a share of anything
    else ("68.9% women" in a study of the OHIP questionnaire) is no answer. Unlike a price, the payment need not
    name what the question names: a share is often one rule for every device ("the ADP pays 75%").
    """
    shows = answer_kind(question)
    if kind != "amount" or shows is None:
        return None
    if any(shows.search(u.text) and _PAYMENT.search(u.text) for u in units):
        return None
    return (
        "None of the passages found states a payment (a sum of money or a share paid), so no answer is given. "
        "Ingest a source that covers it."
    )


def subject_word(keys: Mapping[str, str], idf: Mapping[str, float], frequencies: Mapping[str, int]) -> str | None:
    """The question's rarest key word the knowledge base knows, as the question writes it."""
    known = _naming_first(keys, frequencies)
    return max(known, key=lambda w: idf[w]) if known else None


def _naming_first(keys: Iterable[str], frequencies: Mapping[str, int]) -> list[str]:
    """The key words the knowledge base knows that could name a subject (not common in English), else all it knows:
    "pill" is rare in an article that writes "oral contraceptive", and says less than "colorectal" about the subject."""
    known = [w for w in keys if frequencies.get(w, 0) > 0]
    return [w for w in known if not common_in_english(w) and not _clipped_everyday(w)] or known


def _clipped_everyday(word: str) -> bool:
    """Whether ``word`` is a clipped everyday word ("yrs", "hrs", "thru": ``search.enhance.ABBREVIATIONS``): rare in a
    knowledge base, it names no subject ("EPIC - women on the pill 5-9 yrs, adjusted HR?" is about the pill)."""
    expansion = spelled_out(word)
    if not expansion:
        return False
    return " " not in expansion and common_in_english(expansion)


def _names_in_documents(read: Sequence[Passage], named: set[str]) -> dict[int, frozenset[str]]:
    """By rank, the ``named`` terms that some passage ``read`` from the same document holds (``typed_answer``)."""
    by_document: dict[str, set[str]] = {}
    for passage in read:
        by_document.setdefault(passage.doc_key, set()).update(named.intersection(terms(passage.text)))
    return {rank: frozenset(by_document[p.doc_key]) for rank, p in enumerate(read)}


def coverage_terms(texts: Sequence[str]) -> set[str]:
    out: set[str] = set()
    for text in texts:
        out.update(terms(text))
    return out
