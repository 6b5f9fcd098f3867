"""Understanding a ``schedule.get`` request before looking anything up.

``plan`` reads the fee codes, the specialty words, the day, the hours from
admission and whether the caller is the MRP out of the question and the
structured fields, and reports a contradiction between them instead of
choosing one. ``WordIndex`` finds codes by the whole words of their titles
(a stem per word, never a substring of a longer word), for questions that
name no code: the origin of this design answered 'which codes apply for a
Thursday discharge?' with endoscopy codes because it matched SQL LIKE
'%discharge%'.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from curbside.coverage.ohip.abbreviations import Reading, read_abbreviation
from curbside.coverage.ohip.spelling import american
from curbside.coverage.ohip.tool import Day, Include, ScheduleGetArgs
from curbside.coverage.ohip.word_forms import MIN_ROOT, is_person_noun, roots
from curbside.coverage.ohip.words import SCHEDULE_PHRASES, SCHEDULE_WORDS

__all__ = [
    "Request",
    "asker_words",
    "WordIndex",
    "asked_days",
    "asked_hours",
    "asked_slot",
    "in_schedule_phrases",
    "inflection_stem",
    "plan",
    "ruled_out",
    "ruled_out_of_titles",
    "schedule_words",
    "stem",
    "without_negations",
    "words_of",
]

# a code in the plural is the code ('how many G264s a year')
_CODE_IN_QUESTION = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]\d{3})(?:[ABCabc]|(?<=\d)s)?(?![A-Za-z0-9])")
_DAYS: dict[str, Day] = {
    "monday": "monday", "tuesday": "tuesday", "wednesday": "wednesday", "thursday": "thursday",
    "friday": "friday", "saturday": "saturday", "sunday": "sunday", "holiday": "holiday", "stat": "holiday",
}  # fmt: skip
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|days?|d)\b", re.IGNORECASE)
_ADMISSION_WORDS = re.compile(r"\b(admi\w*|discharg\w*|stay\w*|hospitali\w*|in hospital)\b", re.IGNORECASE)
_NOT_MRP = re.compile(r"\b(not|n't|wasn't|isn't|am not)\b[^.?!]{0,30}\b(mrp|most responsible)", re.IGNORECASE)
_MRP = re.compile(r"\b(as|the|i am|i'm|was|were)\s+(the\s+)?(mrp|most responsible physician)\b", re.IGNORECASE)
_FEE_WORDS = re.compile(r"\b(fee|fees|how much|pay|pays|paid|worth|amount|rate|price|\$)", re.IGNORECASE)
_RULE_WORDS = re.compile(
    r"\b(can i|may i|could i|eligible|allowed|rules?|limit\w*|how many|how often|requirements?|bill\w*|claim\w*)\b",
    re.IGNORECASE,
)

# words that never identify a service on their own
STOP = frozenset(
    """
    a about add after an and any apply applies are as at be been had has bill billable billed billing
    by can claim claimed code codes could day days do does fee fees for from get have hour hours how i if in is it
    its me my of ohip on or patient patients pay per premium premiums service services should the their them then
    there this to under use used was we were what when where which who will with would you your mrp most not no
    responsible physician doctor can't cannot eligible ontario schedule benefits much worth rule rules many often
    times maximum number limit limits session sessions same year years yearly month months week weeks annual
    annually before drops long minimum what's i'm it's that's who's got came come need needs run put done still also
    see our us
    """.split()  # noqa: SIM905 - a word list reads better as text
) | frozenset(_DAYS)


def stem(word: str) -> str:
    """A crude stem, enough to meet 'discharged' and 'discharge', 'visits' and 'visit', in one spelling
    ('haemoglobin' and 'hemoglobin': ``spelling.american``)."""
    return inflection_stem(american(word.lower()))


def inflection_stem(word: str) -> str:
    """``stem`` in the word's own spelling: a short form ('paeds') is matched against the Schedule's own
    spelling of the name it begins ('Paediatrics')."""
    word = word.lower()
    if word.endswith("ies") and len(word) >= 6:  # 'vasectomies' -> 'vasectomy', as the title says it
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


_SCHEDULE_STEMS = {stem(word): said for word, said in SCHEDULE_WORDS.items() if len(word) > 3}
_RE_PREFIX = re.compile(r"\b(re|e)-(?=[a-z])")
_AGE = re.compile(r"\b\d{1,3}[- ]?(?:years?|yrs?)[- ]?old\b|\baged? \d{1,3}\b", re.I)
_PAGE_REF = re.compile(r"\bGP\s?\d+\b", re.I)  # a General Preamble page ("see GP45"), not the GP who bills


def schedule_words(words: Iterable[str]) -> list[str]:
    """``words`` in the Schedule's own vocabulary: 'phone' (and 'phoned') -> 'telephone', 'er' -> 'emergency',
    'department'."""
    return [w for word in words for w in SCHEDULE_WORDS.get(word, _SCHEDULE_STEMS.get(stem(word), (word,)))]


_PHRASES = re.compile(
    r"(?<![\w/-])(" + "|".join(re.escape(p) for p in sorted(SCHEDULE_PHRASES, key=len, reverse=True)) + r")(?![\w-])",
    re.I,
)


def in_schedule_phrases(text: str) -> str:
    """``text`` with its everyday phrases in the Schedule's words ('c-section' -> 'caesarean section', 'f/u' ->
    'follow-up', 'yearly physical' -> 'periodic health visit'): words_of would split them into letters or into
    words no title says."""
    if _EYE.search(text):
        text = _EYE_SIDE.sub(lambda m: _EYE_SIDES[m.group(1)], text)
    return _PHRASES.sub(lambda m: SCHEDULE_PHRASES[m.group(1).lower()], text)


# leaving one's office or clinic to see a patient, its patients cancelled: the special visit premiums' "Daytime with
# sacrifice of office hours" (GP70), not a service in the office ('had to leave clinic + cancel pts to go see him')
_LEFT_THE_OFFICE = re.compile(
    r"\b(?:(?:leave|left|leaving|pulled (?:out of|from)|called (?:out of|away from))\s+(?:(?:my|the|our|an?)\s+)?"
    r"(?:[\w.]+\s+){0,2}?(?:clinic|office)(?:\s+hours)?|"
    r"cancel(?:l?ed|l?ing)?\s+(?:(?:my|the|our|all|some|\d+)\s+)?(?:pts|patients|clinic|appointments|appts)|"
    r"(?:pts|patients|appointments|appts)\s+(?:were\s+)?(?:rebooked|cancel+ed|bumped))\b",
    re.I,
)


def said_as_the_schedule_says(question: str) -> str:
    """``question`` with a circumstance said in everyday words as the Schedule says it, for every reading of it: 'had
    to leave clinic + cancel pts' is the special visit premiums' 'sacrifice of office hours', no office visit."""
    return _SOLE_REASON.sub(" sole reason for ", _LEFT_THE_OFFICE.sub(" sacrifice of office hours ", question))


# a visit for one thing only: the Schedule's "sole reason" (G212 "Hyposensitisation - when sole reason for visit",
# G373 "… sole reason (first injection)"): 'came in just for her allergy shot', 'came in only for an IM injection'
_SOLE_REASON = re.compile(
    r"\b(?:came|comes|come|coming|in|here|visit|visited)\s+(?:in\s+)?(?:just|only|solely)\s+for\b", re.I
)


# an eye written as ophthalmologists write it (oculus dexter, sinister, uterque), in capitals in a question about
# eyes ('anti-VEGF injection OD for wet AMD': E187 "… right eye", not E186 "… left eye"); not 'OD' for an overdose
_EYE_SIDES = {"OD": "right eye", "OS": "left eye", "OU": "bilateral eyes"}
_EYE_SIDE = re.compile(r"(?<![\w/'-])(OD|OS|OU)(?![\w'-])")
_EYE = re.compile(
    r"\b(eyes?|ocular|retin\w*|macul\w*|AMD|cataracts?|glaucoma|intravitreal|vitre\w*|cornea\w*|ophth\w*|VEGF)\b",
    re.I,
)


_ORDINAL = re.compile(r"\b(1[0-2]|[1-9])(?:st|nd|rd|th)\b")
_ORDINAL_WORDS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()


def words_of(text: str) -> list[str]:
    """Lower-case whole words (hyphenated words split: 'post-discharge' -> 'post', 'discharge'; but
    're-assessment' is one word, 'reassessment', or it would be an 'assessment', and 'e-consultation' one,
    'econsultation', or it would be a telephone 'consultation'). An ordinal in figures is its word: the
    Schedule writes 'fourth degree tear' where a clerk writes '4th degree'."""
    text = _ORDINAL.sub(lambda m: _ORDINAL_WORDS[int(m.group(1)) - 1], text.lower().replace("’", "'"))
    return re.findall(r"[a-z][a-z']*", _RE_PREFIX.sub(r"\1", text))


@dataclass(frozen=True, slots=True)
class Request:
    """A ``schedule.get`` request as understood before looking anything up."""

    text: str  # what the search path searches
    question: str | None
    codes: tuple[str, ...]  # named in the request (fields and question), in order
    specialty: str | None  # as given or as worded in the question (resolved against the sections by the SQL path)
    specialty_words: tuple[str, ...]  # the question's words, for finding a specialty it names
    section: str | None
    words: tuple[str, ...]  # content-word stems, for finding codes by their titles
    day: Day | None
    hours_since_admission: float | None
    mrp: bool | None
    include: frozenset[Include]
    top_k: int
    asks_fee: bool
    asks_rules: bool
    contradictions: tuple[str, ...]  # structured fields that disagree with the question or each other
    ruled_out: frozenset[str] = frozenset()  # stems naming a service the question rules out (``ruled_out_of_titles``)
    not_codes: frozenset[str] = frozenset()  # codes the question names only to rule out ('not the general A235?')


def _hours(question: str) -> float | None:
    if not _ADMISSION_WORDS.search(question):
        return None
    match = _DURATION.search(question)
    if match is None:
        return None
    value = float(match.group(1))
    return value * 24 if match.group(2).lower().startswith("d") else value


# a day as clerks shorten it ('called in sat 1400', 'wed 2000'); 'sat' that is the verb ('sat with the family') is no day
_SHORT_DAYS: dict[str, Day] = {
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday", "thur": "thursday",
    "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
}  # fmt: skip
_SAT_THE_VERB = re.compile(r"\bsat\s+(?:with|w/|down|up|in|on|at|there|by|beside|through|thru|for|and)\b", re.I)


def _day(question: str) -> Day | None:
    verb = bool(_SAT_THE_VERB.search(question))
    found = [
        _DAYS.get(w) or _SHORT_DAYS[w]
        for w in words_of(question)
        if w in _DAYS or (w in _SHORT_DAYS and not (w == "sat" and verb))
    ]
    if "weekend" in question.lower():
        found.append("saturday")
    return found[0] if found else None


# the time slots the special visit premium tables are laid out by (General Preamble GP66-GP90):
# words of the question that say which slot, as the words of the slot's column title
_NIGHT = re.compile(r"\b(?:[0-6](?::\d\d)?\s?a\.?m\b|midnight|overnight|night\w*|middle of the night)", re.I)
_EVENING = re.compile(r"\b(?:evening\w*|(?:[5-9]|1[01])(?::\d\d)?\s?p\.?m\b)", re.I)
_DAYTIME = re.compile(r"\b(?:daytime|afternoon|morning|(?:[7-9]|1[01])(?::\d\d)?\s?a\.?m\b|noon)\b", re.I)
# a time on the 24-hour clock, as the Schedule writes its hours ('Nights (00:00h to 08:00h)'): '0300h', '03:00h',
# '23:30' (a colon or an 'h' says it is a time, not a count)
_CLOCK = re.compile(r"\b([01]?\d|2[0-3])(?::([0-5]\d)h?|([0-5]\d)h(?:rs?)?)(?![\w:])(?!\s?[ap]\.?m\b)", re.I)


# four digits after a day are its hour on the 24-hour clock ('sat 1400', 'wed 2000'), not a count or a year
_CLOCK_AFTER_DAY = re.compile(
    r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun|week)(?:day)?\.?,?\s+(?:at\s+|@\s*)?([01]\d|2[0-3])[0-5]\d\b",
    re.I,
)


# four digits with a leading zero are an hour ('0300 got called from home'): no count is written so
_CLOCK_LEADING_ZERO = re.compile(r"\b(0\d)[0-5]\d\b(?![.,]\d)")


def _clock_hours(question: str) -> str | None:
    """The hours a 24-hour clock time in ``question`` falls in ('0300h' -> 'night', 'sat 1400' -> 'daytime'), by the
    hours the am/pm words give: before 7 the night, from 17 the evening."""
    match = _CLOCK.search(question) or _CLOCK_AFTER_DAY.search(question) or _CLOCK_LEADING_ZERO.search(question)
    if match is None:
        return None
    hour = int(match.group(1))
    return "night" if hour < 7 else "evening" if hour >= 17 else "daytime"


# 'I came back to the office' is a special visit; 'the CT came back' is a result, not the physician's travel
_ASKS_SPECIAL_VISIT = re.compile(
    r"\b(special visit|travel premium|first[- ](person|patient|pt)|called (in|back)|(?:i|we) came back|had to come back|"
    r"premium for the first|"
    # 'had to leave my booked clinic to go see her' (``said_as_the_schedule_says``), 'sacrificed office hours'
    r"sacrific\w*|"
    # 'premium for the pt seen', 'I came in at 10am just to see my pt', 'family called … I went out'
    r"(?:person|patient|pt) seen|(?:i|we) (?:came|went|drove|go|had to go) (?:in|out|back)\b|"
    # 'came in from home', 'got called from home to the nursing home'
    r"(?:came|come|coming|called|drove|went|drive|driving)\s+(?:in\s+)?from home\b)",
    re.I,
)


_SLOT_STEMS = frozenset(
    stem(w) for w in "weekday weekdays weekend weekends evening evenings night nights daytime afternoon morning".split()
)


_DAY_AFTER = re.compile(r"\b(?:day|days) after\b", re.I)


def asks_special_visit(question: str | None) -> bool:
    """Whether the question asks a special visit premium (a travel or first-person-seen premium)."""
    return bool(question and _ASKS_SPECIAL_VISIT.search(question))


def slot_words(question: str, day: Day | None) -> list[str]:
    """'on a Saturday afternoon' -> saturday, sunday, holiday (the column 'Saturdays, Sundays and holidays');
    'at 2 am' -> night; 'weekday evening' -> evening: so a premium's row and column can be matched."""
    words = _SLOT_COLUMN_WORDS.get(asked_slot(question, day) or "", [])
    return [stem(w) for w in words]  # as the columns' titles are stemmed ('Evenings' -> 'evening')


_SLOT_COLUMN_WORDS = {
    "night": ["nights"],
    "weekend": ["saturdays", "sundays", "holidays"],
    "evening": ["evenings"],
    "daytime": ["weekdays", "daytime"],
}


def asked_slot(question: str | None, day: Day | None) -> str | None:
    """The time slot the question names: 'night' ('at 3 am'), 'weekend' (a Saturday, Sunday or holiday),
    'evening' ('8 pm'), 'daytime' ('weekday morning', or a weekday named alone), or None."""
    if not question:
        return None
    clock = _clock_hours(question)
    if _NIGHT.search(question) or clock == "night":
        return "night"
    if day in ("saturday", "sunday", "holiday"):
        return "weekend"
    if _EVENING.search(question) or clock == "evening":
        return "evening"
    if _DAYTIME.search(question) or clock == "daytime" or day is not None:
        return "daytime"
    return None


def asked_hours(question: str | None, day: Day | None) -> str | None:
    """The hours the question names: 'night' ('at 3 am', 'overnight'), 'evening' ('~8pm'), 'daytime' ('10am', or
    a day named with no hour: the day's service hours are assumed), or None."""
    if not question:
        return None
    clock = _clock_hours(question)
    if _NIGHT.search(question) or clock == "night":
        return "night"
    if _EVENING.search(question) or clock == "evening":
        return "evening"
    if _DAYTIME.search(question) or clock == "daytime" or day is not None:
        return "daytime"
    return None


def asked_days(day: Day | None) -> str | None:
    """'weekend' for a Saturday, Sunday or holiday (the Schedule's headings put holidays with the weekend:
    "Saturdays, Sundays and Holidays", A13), 'weekday' for Monday to Friday, or None."""
    if day is None:
        return None
    return "weekend" if day in ("saturday", "sunday", "holiday") else "weekday"


# 'plain consult, not the special surgical one': the service the asker rules out, named to tell it apart
_NOT_THE_ONE = re.compile(r"\bnot (?:the|a|an) ((?:[\w'-]+ ){1,4}?)(?:one|ones|kind|type|version)\b", re.I)


# 'GP, not on the call roster', '(not via CritiCall)', '(not Bartholin's)': the way the service was not given, or a
# neighbour it is not, named to tell the service apart (A933 'On-call admission assessment', K736 'CritiCall
# telephone consultation', Z714 '… Bartholin or Skene's gland …')
_NOT_BY_WAY = re.compile(
    r"\bnot (?:on|via|through|thru|by|under|from|using|with)\b(?: (?:the|a|an|any|my|our|his|her))?"
    r"((?: [\w'’]+(?:-[\w'’]+)*){1,3}?)(?=\s*(?:[-.,;:()?!]|$|\band\b|\bbut\b))",
    re.I,
)
_NOT_IN_BRACKETS = re.compile(r"\(\s*not (?:(?:on|via|through|thru|by|under|from|using|with) )?([^()]{1,40})\)", re.I)
# 'I'm not the chair', 'i am not the MRP': the role the asker denies having (K709 "… MCC Chairperson")
_NOT_MY_ROLE = re.compile(
    r"\b(?:i'?m|i am|i was|am)\s+not (?:the|an?) ([\w'’-]+(?: [\w'’-]+)?)(?=\s*(?:[-.,;:()?!]|$|\band\b|\bbut\b))",
    re.I,
)
_NEGATIONS = (_NOT_THE_ONE, _NOT_BY_WAY, _NOT_IN_BRACKETS, _NOT_MY_ROLE)


def ruled_out(question: str | None) -> frozenset[str]:
    """Stems of the words that name a service the question rules out ('not the 75 min comprehensive one', 'not on
    the call roster', '(not Bartholin's)'), unless the question also says them elsewhere: they must not find the
    codes titled with them (A600 'Comprehensive cardiology consultation', A935 'Special surgical consultation',
    A933 'On-call admission assessment')."""
    # 'not the … one' with its 'one': no title's "- one" either
    spans = [m.group(0) for m in _NOT_THE_ONE.finditer(question or "")]
    return _said_only_there(question, spans + _negated(question))


def ruled_out_of_titles(question: str | None) -> frozenset[str]:
    """``ruled_out`` without the word that stood for the service ('one', 'kind'): a code whose title holds one
    of these is not the service asked (``sql_path.without_ruled_out_words``)."""
    return _said_only_there(question, _negated(question))


def _negated(question: str | None) -> list[str]:
    found = [m.group(1) for pattern in _NEGATIONS for m in pattern.finditer(question or "")]
    found += [_LEVELS] if _PLAIN_LEVEL.search(question or "") else []
    return found + ([_LESSER] if _FULL_LEVEL.search(question or "") else [])


# 'ordinary consult', 'standard consultation', 'a regular assessment': the service at its plain level, none of the
# levels the Schedule lists apart (A935 'Special surgical consultation', A150 'Comprehensive endocrinology
# consultation', A096 'Repeat consultation'), unless the question names one of them as well
_PLAIN_LEVEL = re.compile(
    r"\b(?:ordinary|standard|regular|plain|usual|routine|basic)\s+(?:consult\w*|assess\w*|visit)\b", re.I
)
_LEVELS = "special comprehensive extended complex limited repeat"
# 'full consult', 'a full assessment': not the lesser level the Schedule lists apart (A865 'Limited consultation',
# A888 '… partial assessment')
_FULL_LEVEL = re.compile(r"\bfull\s+(?:\w+\s+)?(?:consult\w*|assess\w*|re-?assess\w*|visit)\b", re.I)
_LESSER = "limited partial"


def _said_only_there(question: str | None, spans: list[str]) -> frozenset[str]:
    if not question or not spans:
        return frozenset()
    named = {_stem_of_name(w) for span in spans for w in _ruling_words(span)}
    rest = {_stem_of_name(w) for w in schedule_words(words_of(without_negations(question)))}
    return frozenset(named - rest)


# a service's head noun, after the words that say which kind of it is ruled out: '(not a full general assessment)'
# rules out the general assessment (W903), not every assessment (W904 "Pre-dental/pre-operative assessment")
_SERVICE_NOUNS = frozenset(
    stem(w) for w in "assessment assessments consult consults consultation consultations visit visits exam".split()
)


def _ruling_words(span: str) -> list[str]:
    """The words of a negated ``span`` that name what it rules out: its head noun only when it says nothing else."""
    words = [w for w in schedule_words(words_of(span)) if w not in STOP]
    if len(words) > 1 and stem(words[-1]) in _SERVICE_NOUNS:
        return words[:-1]
    return words


def _stem_of_name(word: str) -> str:
    """``stem``, a possessive's too: "Bartholin's" is the title's 'Bartholin'."""
    return stem(word.removesuffix("'s").rstrip("'"))


# what was ordered names no service the asker bills, nor does who ordered it: 're-assessed her, still needed more
# w/u (ordered CT)' asks the ER re-assessment (H154), not a CT code; 'reading a CT head ordered by the ER' asks the
# CT's reading, not an emergency department code; up to the end of the clause
_ORDERED = re.compile(r"\bordered\b(?:(?!\s[-–—]\s)[^.,;:()?!\n]){0,40}", re.I)


def without_orders(question: str) -> str:
    """``question`` without what the asker ordered from someone else (``_ORDERED``)."""
    return _ORDERED.sub(" ", question)


def without_negations(question: str) -> str:
    """``question`` without the spans that rule a service out (``ruled_out``): what it means is what is left
    ('on call' near A933's title 'On-call admission assessment' is not what 'not on the call roster' means)."""
    for pattern in _NEGATIONS:
        question = pattern.sub(" ", question)
    return question


# a practitioner the question names as someone other than the asker: one it denies being ('FP (not a paed)'), one
# who did something before or for the asker ('set by ortho 3 wks ago', 'OB asked me to stand by', 'referred by her
# GP'): that practitioner's section is not the one the asker bills under. A service 'by a family doctor' (a noun
# before 'by', not a verb's past participle) is the asker's own.
_SOMEONE_ELSE = (
    re.compile(r"\bnot (?:an? |the )?([\w'’]+)", re.I),
    re.compile(
        r"\b(?:\w+ed|set|seen|done|made|given|sent|put|taken) by (?:(?:the|an?|her|his|their|my|our|your) )?([\w'’]+)",
        re.I,
    ),
    re.compile(r"\b([\w'’]+) (?:asked|referred|sent|requested|wanted) (?:me|us)\b", re.I),
    # the one who sent the patient: 'rheum - GP sent a 50F just for one swollen knee' (the asker is the
    # rheumatologist, A595), 'derm referred her over'
    re.compile(r"\b([\w'’]+) (?:referred|sent)(?= (?:an?|the|this|her|him|them|pts?|patients?|over|in)\b)", re.I),
)


# a word after 'in', 'at', 'to' or 'from' names where the service was given ('weekday 8pm in emerg', 'sent to the
# ER'), a department and not the asker's specialty: unless the asker says they work or practise in it
_PLACE = re.compile(
    r"(?<!\bwork )(?<!\bworking )(?<!\bpractice )(?<!\bpractise )(?<!\bspecialist )(?<!\btrained )"
    r"\b(?:in|at|into|to|from) (?:the |an? |our |my |his |her |their )?([\w'’]+)",
    re.I,
)


def _owned(word: str) -> bool:
    """Whether a place word names its practitioner ("the psychiatrist's office", 'at the dermatologist'): the
    specialty the asker practises, not a department."""
    return word.lower().endswith(("'s", "’s")) or is_person_noun(word)


def asker_words(question: str | None) -> tuple[str, ...]:
    """The question's words that may name the asker's specialty: without the practitioners it names as someone
    else (``_SOMEONE_ELSE``) and the departments it names as the place (``_PLACE``)."""
    text = question or ""
    for pattern in _SOMEONE_ELSE:
        text = pattern.sub(lambda m: m.group(0).replace(m.group(1), " "), text)
    text = _PLACE.sub(lambda m: m.group(0) if _owned(m.group(1)) else m.group(0).replace(m.group(1), " "), text)
    text = _COMBINING_PREFIX.sub(" ", text)
    return tuple(words_of(in_schedule_phrases(_AGE.sub(" ", _PAGE_REF.sub(" ", _CODE_IN_QUESTION.sub(" ", text))))))


# a specialty's combining form joined to another's name narrows it: a 'neuro-ophthalmologist' bills as an
# ophthalmologist, a 'neuro-radiologist' as a radiologist ('neuro' alone is the neurologist)
_COMBINING_PREFIX = re.compile(r"\b[A-Za-z]+o-(?=[A-Za-z]+(?:ists?|ians?|ogy|ics)\b)")


def _mrp(question: str) -> bool | None:
    if _NOT_MRP.search(question):
        return False
    if _MRP.search(question):
        return True
    return None


def lettered_codes(question: str | None) -> dict[str, str]:
    """Code -> the code as the question writes it with its letter ('E401B'): the Schedule lists a few codes
    only so (E400B/E401B the assistant's after-hours premiums, K300A/K301A the modality indicators), and a
    claim suffix on any other code is dropped (``plan``)."""
    return {
        m.group(1).upper(): m.group(0).upper()
        for m in _CODE_IN_QUESTION.finditer(question or "")
        if len(m.group(0)) == 5
    }


# a code named to be ruled out: 'not the general A235?', 'other than K013', 'instead of C124'
_NOT_CODE = re.compile(
    r"\b(?:not|other than|instead of|rather than|except|excluding)\s+(?:(?:the|a|an|just|plain|general|usual|regular)"
    r"\s+)*([A-Za-z]\d{3})(?:[ABCabc])?(?![A-Za-z0-9])",
    re.I,
)


def negated_codes(question: str | None) -> frozenset[str]:
    """The fee codes a question names only to rule out ('which consult code? not the general A235?')."""
    return frozenset(m.group(1).upper() for m in _NOT_CODE.finditer(question or ""))


def plan(args: ScheduleGetArgs) -> Request:
    question = said_as_the_schedule_says(args.q) if args.q else args.q
    not_codes = negated_codes(question)
    # a code the question rules out is not asked, though a caller read it from the question (``coverage.answer``)
    asked_codes = [c for c in args.codes or [] if c.upper() not in not_codes]
    spoken = [c for m in _CODE_IN_QUESTION.finditer(question or "") if (c := m.group(1).upper()) not in not_codes]
    codes = tuple(dict.fromkeys([*asked_codes, *spoken]))
    context = args.context
    contradictions: list[str] = []

    day = context.day if context and context.day else None
    spoken_day = _day(question) if question else None
    if day and spoken_day and day != spoken_day:
        contradictions.append(f"the question says {spoken_day.title()} but context.day is {day}")
    day = day or spoken_day

    hours = context.hours_since_admission if context and context.hours_since_admission is not None else None
    spoken_hours = _hours(question) if question else None
    if hours is not None and spoken_hours is not None and abs(hours - spoken_hours) > 0.5:
        contradictions.append(
            f"the question says {spoken_hours:g} hours after admission but context.hours_since_admission is {hours:g}"
        )
    hours = hours if hours is not None else spoken_hours

    mrp = context.mrp if context and context.mrp is not None else None
    spoken_mrp = _mrp(question) if question else None
    if mrp is not None and spoken_mrp is not None and mrp != spoken_mrp:
        contradictions.append(
            f"the question says you {'are' if spoken_mrp else 'are not'} the MRP but context.mrp is {str(mrp).lower()}"
        )
    mrp = mrp if mrp is not None else spoken_mrp

    # an age ('a 70 year old') selects a band (quantities.py), it names no service
    plain = words_of(
        in_schedule_phrases(
            _AGE.sub(" ", _PAGE_REF.sub(" ", _CODE_IN_QUESTION.sub(" ", without_orders(question or ""))))
        )
    )
    content = [stem(w) for w in schedule_words(plain) if w not in STOP and len(w) > 2 and not w.isdigit()]
    ruled = ruled_out(question)
    content = [w for w in content if w not in ruled]
    if _DAY_AFTER.search(question or ""):
        content.append(stem("following"))  # the Schedule's word: 'day following the hospital admission assessment'
    if question and asks_special_visit(question):
        # the slot replaces the words that named it: 'weekday evening' is the evenings column only
        content = [w for w in content if w not in _SLOT_STEMS] + slot_words(question, day)
    text = question or " ".join(codes)
    return Request(
        text=text,
        question=question,
        codes=codes,
        specialty=args.specialty,
        specialty_words=asker_words(question),
        section=args.section,
        words=tuple(dict.fromkeys(content)),
        day=day,
        hours_since_admission=hours,
        mrp=mrp,
        include=args.included(),
        top_k=args.top_k,
        asks_fee=bool(question and _FEE_WORDS.search(question)) or not question,
        asks_rules=bool(question and _RULE_WORDS.search(question)),
        contradictions=tuple(contradictions),
        ruled_out=ruled_out_of_titles(question),
        not_codes=not_codes,
    )


# an aside in a title that says what the service may include or where its rules are is not what the service is:
# Z735 "Examination and/or dilatation (may include insertion and/or removal of IUD) - general anaesthetic" is no
# IUD insertion (G378, J47); nor one that says what it is not paid with: S724 "Perineorrhaphy (not eligible for
# payment with delivery or other vaginal surgery procedures)" is no vaginal delivery (P006, K6). An aside that
# narrows the service ("(other than Long-Term Care Institution)") stays.
_TITLE_ASIDE = re.compile(r"\((?:may |see |includ|not )[^()]*\)")


# ' or ' between a title's alternatives ('Intermediate assessment or well baby care', A007)
_TITLE_OR = re.compile(r"\s+or\s+", re.I)


# what a title says its service is not: 'Wedging of casts in other than fracture treatment' (Z216) is no fracture care
_TITLE_EXCEPT = re.compile(
    r"\b(?:other than|except(?: for)?|excluding|not including)\s+([^,;:()\[\]]+?)(?=\s+[-–—]\s|[,;:()\[\]]|$)", re.I
)


def _without_asides(title: str) -> tuple[str, str]:
    """(``title`` without its asides and what it excepts, their text)."""
    set_aside = [*_TITLE_ASIDE.findall(title), *(m.group(1) for m in _TITLE_EXCEPT.finditer(title))]
    return _TITLE_EXCEPT.sub(" ", _TITLE_ASIDE.sub(" ", title)), " ".join(set_aside)


# a title word this common (in ~40 of the Schedule's 5,264 codes: 'component', 'level', 'view', 'first') names
# no service on its own
BARE_WEIGHT = 5.0


class WordIndex:
    """Title words of one edition's codes, stemmed, for finding codes by what the question says.

    A word found in a code's title counts twice its weight, in its listings'
    text once; a word's weight is its inverse document frequency, so
    'psychotherapy' outweighs 'session'.
    """

    def __init__(self, rows: Iterable[tuple[str, str, str]], headed: Mapping[str, str] | None = None) -> None:
        self.titles: dict[str, set[str]] = {}
        self.listed: dict[str, set[str]] = {}
        self.text: dict[str, str] = {}  # title and listings as printed, for the bands in them ('3 patients')
        self.printed_titles: dict[str, str] = {}  # as printed, for the qualifiers in them ('- female')
        self.title_head: dict[str, set[str]] = {}  # a title's first alternative ('… assessment or well baby care')
        self.by_word: dict[str, set[str]] = defaultdict(set)
        for code, title, listed in rows:
            self.text[code] = f"{title} | {listed}"
            self.printed_titles[code] = title
            named, aside = _without_asides(title)
            self.titles[code] = {stem(w) for w in words_of(named) if w not in STOP}
            if " - " not in named and len(parts := _TITLE_OR.split(named)) > 1:
                self.title_head[code] = {stem(w) for w in words_of(parts[0]) if w not in STOP}
            self.listed[code] = {stem(w) for w in words_of(f"{listed} {aside}") if w not in STOP}
            for word in self.titles[code] | self.listed[code]:
                self.by_word[word].add(code)
        total = max(len(self.titles), 1)
        self.weight = {word: math.log(1 + total / len(codes)) for word, codes in self.by_word.items()}
        self.headed: dict[str, frozenset[str]] = {}  # a part's service words, from its heading (``_name_parts_by``)
        for code, heading in (headed or {}).items():
            self._name_parts_by(code, heading)
        self._by_root: dict[str, set[str]] = defaultdict(set)
        for word in self.by_word:
            for found in roots(word):
                self._by_root[found].add(word)
        self._forms: dict[str, frozenset[str]] = {}
        self._readings: dict[str, Reading | None] = {}
        self._sorted = sorted(self.by_word)  # for the words a short form begins
        self._last_said: tuple[tuple[str, ...], frozenset[str]] = ((), frozenset())

    def _name_parts_by(self, code: str, heading: str) -> None:
        """A title whose every word is a common one ('technical component - 12 to 35 hours recording', G651) names
        a part of the service its ``heading`` names: the heading's words count as its title's."""
        title = self.titles.get(code)
        if not title or max(self.weight.get(w, 0.0) for w in title) >= BARE_WEIGHT:
            return
        # the heading is in the code's listing text already (``listing_headings``): its words have their weights.
        # They weigh as the title's in finding the code, not in choosing between titles that say the same
        # ('C895 Consultation' under "NON-EMERGENCY HOSPITAL SERVICES" is no less a consultation than A195)
        words = {word for word in (stem(w) for w in words_of(heading) if w not in STOP) if word in self.weight}
        self.headed[code] = frozenset(words - title)

    def forms(self, word: str) -> frozenset[str]:
        """The index's words a question word stands for: itself and those sharing its root ('consult' ->
        'consultation', 'consultative'); a word the index lacks in every form is a short form of the words it
        begins ('conf' -> 'conference', 'confirm'; ``short_forms``), or stands for itself."""
        found = self._forms.get(word)
        if found is None:
            found = self._same_root(word)
            if found == {word} and word not in self.by_word:
                found |= self.short_forms(word)
            if found == {word} and word not in self.by_word and (parts := self._parts(word)):
                found = frozenset().union(*(self._same_root(part) for part in parts))
            self._forms[word] = found
        return found

    def reading(self, word: str) -> Reading | None:
        """What ``word`` stands for when it is a clinical abbreviation the Schedule writes out ('uppp' ->
        'uvulopalatopharyngoplasty'; ``abbreviations.read_abbreviation``), else None."""
        if word not in self._readings:  # a clipped word of the Schedule's ('conf') is that word (``short_forms``)
            clipped = bool(self.short_forms(word))
            self._readings[word] = (
                None if clipped else read_abbreviation(word, lambda w: self.knows(stem(w)), self._named_together)
            )
        return self._readings[word]

    def _named_together(self, words: tuple[str, ...]) -> bool:
        """Whether one code's title or listing holds every one of ``words`` (in a form of its root)."""
        holding: set[str] | None = None
        for word in words:
            codes = {c for f in self._same_root(stem(word)) for c in self.by_word.get(f, ())}
            holding = codes if holding is None else holding & codes
            if not holding:
                return False
        return bool(holding)

    def _parts(self, word: str) -> tuple[str, ...]:
        """The stems of what an abbreviation stands for ('lp' -> 'lumbar', 'puncture'); () for any other word."""
        reading = self.reading(word)
        return tuple(dict.fromkeys(stem(w) for w in reading.words if w not in STOP)) if reading else ()

    def _same_root(self, word: str) -> frozenset[str]:
        return frozenset(w for r in roots(word) for w in self._by_root.get(r, ())) | {word}

    def knows(self, word: str) -> bool:
        """Whether the Schedule uses ``word`` in some form of its root (a short form it begins is not one)."""
        return any(f in self.by_word for f in self._same_root(word))

    def short_forms(self, word: str) -> frozenset[str]:
        """The index's words ``word`` begins, when it has ``MIN_ROOT`` letters: a clinician's clipped word ('conf',
        'hosp', 'abdo') stands for the Schedule's word written out."""
        if len(word) < MIN_ROOT:
            return frozenset()
        start = bisect.bisect_left(self._sorted, word)
        found: list[str] = []
        for candidate in self._sorted[start:]:
            if not candidate.startswith(word):
                break
            found.append(candidate)
        return frozenset(found)

    def extra(self, words: Iterable[str], code: str) -> int:
        """How many of ``code``'s title words the question does not say: 0 when the title is the service asked.

        A title that is two services, 'Intermediate assessment or well baby care' (A007), says its first one
        whole, as 'Intermediate assessment - Pronouncement of death' (A777) does not, when that one holds every
        word (two at least) of the question the title holds. A title qualified after a dash ('Nursing home or home
        for the aged - first 2 subsequent visits', W003) is one service in two places, not two services."""
        said = self._said(tuple(words))
        title = self.titles.get(code, set())
        extra = len(title - said)
        head = self.title_head.get(code)
        held = title & said
        if head is not None and len(held) > 1 and held <= head:
            extra = min(extra, len(head - said))
        return extra

    def said_forms(self, words: Iterable[str]) -> frozenset[str]:
        """Every form of the question's ``words`` (``forms``): what a title word must be to be said."""
        return self._said(tuple(words))

    def _said(self, words: tuple[str, ...]) -> frozenset[str]:
        """Every form of the question's ``words`` (the last question's, kept: ranking asks it per code)."""
        last = self._last_said  # read once: requests on other threads may replace it
        if last[0] != words:
            last = (words, frozenset().union(*(self.forms(w) for w in words)))
            self._last_said = last
        return last[1]

    def match(self, words: Iterable[str], limit: int, among: set[str] | None = None) -> list[tuple[str, float]]:
        """(code, score) of the best-matching codes, best first (ties: code order).

        ``among``: only these codes (those listed in the specialty billed under).
        """
        words = tuple(dict.fromkeys(words))
        scores: dict[str, float] = defaultdict(float)
        for word in words:
            # an abbreviation is one word of the question: what it stands for counts as the mean of its words
            # ('icd': a title holding 'implantable cardioverter defibrillator' whole counts as one rare word)
            parts = () if word in self.by_word else self._parts(word)
            groups = [self._same_root(part) for part in parts] or [self.forms(word)]
            for forms in groups:
                for code, score in self._best_forms(forms, among).items():
                    scores[code] += score / len(groups)
        # a tie goes to the title that says least besides the question: 'Consultation' before
        # 'Consultation, patient 16 years of age and under'
        ranked = sorted(scores.items(), key=lambda item: (-round(item[1], 9), self.extra(words, item[0]), item[0]))
        return ranked[:limit]

    def _best_forms(self, forms: Iterable[str], among: set[str] | None) -> dict[str, float]:
        """code -> its best score by one of a word's ``forms``: a word counts once per code."""
        best: dict[str, float] = {}
        for form in forms:
            for code in self.by_word.get(form, ()):
                if among is None or code in among:
                    titled = form in self.titles[code] or form in self.headed.get(code, ())
                    score = self.weight[form] * (2 if titled else 1)
                    best[code] = max(best.get(code, 0.0), score)
        return best

    def distinct(self, words: Iterable[str]) -> list[str]:
        """``words`` that say what the service is: rarer than the median word (a word no code uses counts as rare)."""
        weights = sorted(self.weight.values())
        median = weights[len(weights) // 2] if weights else 1.0
        return [w for w in words if self._weight_of(w, median) >= median]

    def _weight_of(self, word: str, median: float) -> float:
        """A word's weight; one the index lacks weighs as its commonest form, or as the median word."""
        known = [self.weight[f] for f in self.forms(word) if f in self.weight]
        return self.weight.get(word, min(known) if known else median)

    def held(self, words: Iterable[str], code: str) -> frozenset[str]:
        """The question's ``words`` that ``code``'s title holds."""
        title = self.titles.get(code, set())
        return frozenset(w for w in words if self.forms(w) & title)

    def coverage(self, words: Iterable[str], code: str) -> tuple[float, list[str]]:
        """The share of the question's word weight that ``code``'s title holds, and the words it lacks.

        A word no title or listing uses counts at the median word's weight: 'WSIB' or 'modality' that no
        code names still says the question is about something the matched code is not.
        """
        weights = sorted(self.weight.values())
        median = weights[len(weights) // 2] if weights else 1.0
        title = self.titles.get(code, set())
        total = held = 0.0
        lacking: list[str] = []
        for word in dict.fromkeys(words):
            weight = self._weight_of(word, median)
            total += weight
            if self.forms(word) & title:
                held += weight
            else:
                lacking.append(word)
        return (held / total if total else 1.0), lacking
