"""The SQL path of ``schedule.get``: resolve the request against the Schedule's tables and fetch the facts.

Runs on a worker thread inside one read transaction (a load committing
meanwhile cannot mix two editions in one answer); ``Cancel.interrupt`` stops
its query when the path times out.

What it resolves: the codes the request names (an unknown one is a problem,
with the clerk's follow-up); for a question naming none, the codes whose
titles share its words (``WordIndex``); then the codes whose rules name those
(C122/C123 and C142/C143 name C124) and the premiums whose listing names them
(E083, E084); the specialty billed under, from its code, its name, or the
question's words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace

from curbside.coverage.edition_cache import EditionCache
from curbside.coverage.ohip.abbreviations import Reading
from curbside.coverage.ohip.asker_role import (
    bills_as_ed_physician,
    for_ed_physician,
    for_other_physician,
    not_the_ed_physician,
)
from curbside.coverage.ohip.counts import asked_counts, count_fit
from curbside.coverage.ohip.definitions import definitions
from curbside.coverage.ohip.listing_headings import full_title, listed_title, listing_headings, service_headings
from curbside.coverage.ohip.preamble_quotes import PreambleQuote, SentenceIndex
from curbside.coverage.ohip.qualifiers import by_negated_service, by_qualifier
from curbside.coverage.ohip.quantities import age_words, asked_quantities
from curbside.coverage.ohip.quantities import fit as fit_band
from curbside.coverage.ohip.query import (
    STOP,
    Request,
    WordIndex,
    asked_days,
    asked_hours,
    asks_special_visit,
    in_schedule_phrases,
    lettered_codes,
    schedule_words,
    stem,
    without_negations,
    words_of,
)
from curbside.coverage.ohip.siblings import adds_a_service, by_said_tail, the_service_asked, untold_siblings
from curbside.coverage.ohip.sides import the_count_asked, the_person_asked, the_side_asked, with_each_additional
from curbside.coverage.ohip.specialty_reach import listed_elsewhere
from curbside.coverage.ohip.spoken_section import spoken_sections
from curbside.coverage.ohip.store import EditionRecord, ListingRow, OhipReader, RuleRow
from curbside.coverage.ohip.time_minimums import asked_minutes, by_time_minimum, time_minimums, within_minutes
from curbside.coverage.ohip.time_slot import fits_time, in_time_slot, with_sacrifice_asked
from curbside.coverage.ohip.title_meaning import TitleMeaning, keep_word_leader, with_word_leader
from curbside.coverage.ohip.twins import twin_heads, with_twins
from curbside.coverage.ohip.uninsured import uninsured_quotes
from curbside.coverage.ohip.with_without import by_with_or_without, not_contradicted
from curbside.coverage.ohip.words import SPECIALTY_ALIASES
from curbside.coverage.reader import Cancel

__all__ = ["IndexCache", "Indexes", "SqlFindings", "Specialty", "run_sql_path"]

MAX_PRIMARY = 3  # codes whose relatives are looked up
MAX_RELATED = 8
POOL = 24  # codes found by words before the setting and stage choose among them
BAND_POOL = 300  # … and the band: many codes share 'subsequent visit' before C007's 'sixth to thirteenth week'
BAND_REACH = 0.5  # a code in the asked band goes first if its words score at least this share of the best


@dataclass(frozen=True, slots=True)
class Specialty:
    code: str | None  # '01'
    section: str  # 'Anaesthesia (01)'
    part: str | None
    said: tuple[str, ...] = ()  # the question's words it was assumed from ('internist'), when not given


@dataclass(slots=True)
class SqlFindings:
    edition: EditionRecord
    asked: list[str] = field(default_factory=list)  # named in the request and in the Schedule
    unknown: list[str] = field(default_factory=list)  # named in the request, not in the Schedule
    matched: list[str] = field(default_factory=list)  # found by the question's words
    match_coverage: float | None = None  # share of the question's word weight the first match's title holds
    match_lacking: list[str] = field(default_factory=list)  # the question's words that title lacks
    rivals: list[str] = field(default_factory=list)  # codes titled as the question words them, beside the first
    untold: list[str] = field(default_factory=list)  # matched siblings the question's words do not tell from the first
    lacking_distinct: list[str] = field(default_factory=list)  # … of them, those rarer than the median word
    related: list[str] = field(default_factory=list)
    premiums: list[str] = field(default_factory=list)
    add_ons: list[ListingRow] = field(default_factory=list)  # add-on listings printed in a primary code's block
    titles: dict[str, str] = field(default_factory=dict)
    listings: dict[str, list[ListingRow]] = field(default_factory=dict)
    rules: dict[str, list[RuleRow]] = field(default_factory=dict)
    specialty: Specialty | None = None
    problem: str | None = None  # why the request cannot be answered as asked
    follow_up: str | None = None
    source_chunks: dict[str, list[tuple[str, str, str, str, str, int]]] = field(default_factory=dict)
    prose: list[PreambleQuote] = field(default_factory=list)  # sentences of the Schedule's prose answering the question
    uninsured: list[PreambleQuote] = field(default_factory=list)  # … saying when the service asked is uninsured
    time_block: str | None = None  # the day and hour block the question's time chose ('Monday to Friday, evening')
    by_meaning: list[str] = field(default_factory=list)  # codes ranked up by their titles' meaning (title_meaning)
    readings: list[Reading] = field(default_factory=list)  # abbreviations read as what they stand for

    @property
    def codes(self) -> list[str]:
        return list(dict.fromkeys([*self.asked, *self.matched, *self.related, *self.premiums]))

    @property
    def records(self) -> int:
        return sum(len(rows) for code, rows in self.listings.items() if code in (self.asked or self.matched))


Sections = list[tuple[int, str, str, str | None]]


@dataclass(frozen=True, slots=True)
class Indexes:
    words: WordIndex
    sections: Sections
    preamble: list[RuleRow]
    sentences: SentenceIndex
    premiums: frozenset[str]  # codes listed as premiums, the special visit tables' cells too
    minimums: dict[str, int]  # code -> the minutes its service must last ('at least 90 minutes', A770)
    family_practice: frozenset[str]  # codes listed in Family Practice's sections (``family_practice_first``)


class IndexCache:
    """The word index, the section list, the General Preamble's rules and the sentence index of the loaded
    edition, read once per edition."""

    def __init__(self) -> None:
        self._cache: EditionCache[Indexes] = EditionCache()

    def get(self, reader: OhipReader, edition: EditionRecord) -> Indexes:
        return self._cache.get((edition.id, edition.loaded_at), lambda: _indexes(reader))


def _indexes(reader: OhipReader) -> Indexes:
    passages = reader.passage_texts()
    headings = listing_headings(passages)
    titled = reader.title_rows()
    defined = definitions(passages, {code: title for code, title, _ in titled})
    rows = [
        (
            code,
            full_title(title, headings.get(code, "")),
            f"{listed} | {headings.get(code, '')} | {defined.get(code, '')}",
        )
        for code, title, listed in titled
    ]
    premiums = frozenset(reader.premium_codes(special_visits=True))
    words = WordIndex(rows, {code: service_headings(paths) for code, paths in headings.items()})
    twin_heads(words)  # built with the index, not inside a question's time budget
    return Indexes(
        words,
        reader.sections(),
        reader.preamble_rules(),
        SentenceIndex(passages),
        premiums,
        time_minimums(passages),
        frozenset(reader.codes_listed_in(FAMILY_PRACTICE, None)),
    )


def run_sql_path(
    reader: OhipReader, cache: IndexCache, request: Request, cancel: Cancel, meaning: TitleMeaning | None = None
) -> SqlFindings:
    """Resolve and fetch; raises NotFoundError when no edition is loaded (the caller records it)."""
    with reader.snapshot() as conn:
        cancel.attach(conn)
        edition = reader.edition()
        out = SqlFindings(edition)
        indexes = cache.get(reader, edition)
        index, sections, preamble = indexes.words, indexes.sections, indexes.preamble
        request, out.readings = with_abbreviations_read(request, index)
        if request.question:
            out.prose = indexes.sentences.quotes(request.question, list(request.codes), limit=4)
            if not request.codes:
                out.uninsured = uninsured_quotes(indexes.sentences, request.question)
        out.specialty = _specialty(request, sections, out, index.knows)
        if out.problem:
            return out
        # who bills: the emergency department's own physician, or a physician who says they are not it
        ed_physician = bills_as_ed_physician(request.question)
        other_physician = not_the_ed_physician(request.question, out.specialty.code if out.specialty else None)
        # 'E401B' is its own listing; 'A007A' is A007 with a claim suffix
        lettered = lettered_codes(request.question)
        known = reader.known([*request.codes, *lettered.values()])
        codes = [lettered[c] if lettered.get(c) in known else c for c in request.codes]
        out.asked = [c for c in codes if c in known]
        out.unknown = [c for c in codes if c not in known]
        if out.unknown:
            label = edition.label
            out.problem = f"{', '.join(out.unknown)} {'is' if len(out.unknown) == 1 else 'are'} not in the {label}."
            out.follow_up = (
                f"Could you check the code{'s' if len(out.unknown) > 1 else ''} on the claim? A fee code is a letter and "
                "three digits (e.g. C124); or tell me the service and where it was given."
            )
            if not out.asked:
                return out
        if not out.asked:
            among = reader.codes_listed_in(out.specialty.code, out.specialty.part) if out.specialty else None
            if request.question and _ASKS_PREMIUM.search(request.question) and not asks_service_first(request.question):
                # "what premium can I add …": a premium, not the base service
                premiums = reader.premium_codes(special_visits=asks_special_visit(request.question))
                # the General Preamble's premiums apply whatever the specialty (E406 'After hours premium:
                # Urgent CT/MRI' is the radiologist's, listed in no radiology section)
                general = premiums & reader.codes_listed_in(None, "GP")
                among = premiums if among is None else (among & premiums) | general or premiums
                service = _service_words(request, out.specialty)
                among = named_premiums_of_setting(among, request.question, service, index)
                among = specialty_tables(among, out.specialty.code if out.specialty else None, index.printed_titles)
                among = visit_tables(among, request.question, index.printed_titles)
            among = of_letter(among, request.question, index.titles.keys())
            words = without_the_lettered_setting(_service_words(request, out.specialty), request.question)
            words = before_the_premium(words, request.question)
            # a wider pool than is answered: the setting, the stage and the number asked choose among codes
            # whose titles share the same words (K140 / K141 '… shared appointment: 2 / 3 patients')
            wide = index.match(words, max(BAND_POOL, request.top_k), among) if words else []
            if among is not None and out.specialty is not None and out.specialty.said and words:
                # a specialty assumed from the question's words: its procedures may be listed in no section of it
                anywhere = of_letter(None, request.question, index.titles.keys())  # the letter asked still holds
                everywhere = index.match(words, max(BAND_POOL, request.top_k), anywhere)
                if listed_elsewhere(words, wide, everywhere, index):
                    wide, among = everywhere, anywhere
            by_words = wide
            if meaning is not None and words and request.question:
                meant = without_negations(request.question)  # what the question rules out is not what it means
                wide, out.by_meaning = meaning.widen(reader, edition, meant, words, wide, index, among)
                if not asks_a_premium(request.question):
                    wide = raised_premiums_last(wide, out.by_meaning, indexes.premiums)
            pool = with_word_leader([code for code, _ in wide[: max(POOL, request.top_k)]], by_words, out.by_meaning)
            matched = setting_first(in_setting(pool, request.question), dict(wide), request.question)
            matched = not_the_other_stage(matched, request.question, index.titles)
            matched = the_person_asked(matched, request.question, index.printed_titles)
            matched = the_side_asked(matched, request.question, index.printed_titles)
            matched = the_count_asked(matched, request.question, index.printed_titles)
            matched = without_ruled_out_words(matched, request.ruled_out, index)
            # a code found in the band must not be one the question ruled out ('7 cm lac (not face …)': not Z177)
            unruled = set(without_ruled_out_words([c for c, _ in wide], request.ruled_out, index))
            # a code put first, for its band or for agreeing, must be of the setting asked and not ruled out ('LTC
            # resident … (not a full general assessment)': not C903; '58M on their ward': not A192 for its ages)
            settled = set(in_setting([c for c, _ in wide], request.question)) & unruled
            of_setting = {c: s for c, s in wide if c in settled}
            matched = in_band(matched, of_setting, request.question, index.text)
            # a code put first for agreeing must also hold a question word besides the thing said with or without
            matched = by_with_or_without(
                matched,
                of_setting,
                request.question,
                index.text,
                BAND_REACH,
                lambda c: len(index.held(words, c)) > 1,
            )
            matched = with_twins(matched, request.question, words, index, among)
            matched = not_ruled_out(matched, request.question, index.printed_titles)
            # a level met by the minutes given is looked for in the setting asked ('on the medicine ward … 95 min':
            # C682, not W682 "subject to the same conditions as A682", which scores the same)
            matched = by_time_minimum(matched, of_setting, request.question, indexes.minimums, BAND_REACH)
            # a title all said must score near the best by the words themselves: the meaning's blended scores are
            # close together, and a one-word title ('Re-assessment', H154) would pass any code found by more words
            # an age the question gives says the Schedule's age word that holds it ('16yo': 'adolescent')
            said = (*words, *(stem(w) for w in age_words(request.question)))
            # of the setting asked too: 'consult on an in-patient' is C835, not A835 for its title all said
            of_setting_words = [(c, s) for c, s in by_words if c in settled] or by_words
            matched, out.rivals = titled_as_asked(matched, of_setting_words, said, index)
            # the minutes given choose the level of service after the words: 'endo consult ran 85 min' is A150
            # "Comprehensive endocrinology consultation" (75 minutes at least), not A155 "Consultation", all said
            # (not minutes the question rules out: 'regular consult, not the long 75 min one')
            timed_question = without_negations(request.question or "")
            matched = by_time_minimum(matched, of_setting, timed_question, indexes.minimums, BAND_REACH)
            matched = without_lesser_levels(matched, timed_question, indexes.minimums, index)
            out.rivals = [code for code in out.rivals if code in matched]
            hours, days = asked_hours(request.question, request.day), asked_days(request.day)
            timed = in_time_slot(matched, hours, days, index.text)
            if len(timed) < len(matched):  # the time given chose among the blocks: the answer says which it read
                out.time_block = ", ".join(_BLOCK_WORDS[w] for w in (days, hours) if w)
            matched = with_sacrifice_asked(timed, request.question, index.printed_titles)
            if ed_physician:
                matched = for_ed_physician(matched, index.text)
            elif other_physician:
                matched = for_other_physician(matched, index.text) or matched
            matched = premiums_last(matched, request.question, indexes.premiums)
            leads_premium = bool(by_words) and by_words[0][0] in indexes.premiums
            if asks_a_premium(request.question) or not leads_premium:  # else premiums_last put it last
                matched = keep_word_leader(matched, by_words, out.by_meaning)
            # the readings put first by their words may be twins or services the question ruled out
            matched = not_ruled_out(matched, request.question, index.printed_titles)
            matched = by_said_tail(matched, request.question, index.printed_titles)
            if out.specialty is None:
                matched = family_practice_first(matched, index.printed_titles, indexes.family_practice)
            matched = matched[: request.top_k]
            kept = set(not_ruled_out([*matched, *out.rivals], request.question, index.printed_titles))
            out.rivals = [code for code in out.rivals if code in kept]
            matched = [code for code in matched if code not in request.not_codes]  # 'not the general A235?'
            out.rivals = [code for code in out.rivals if code not in request.not_codes]
            out.matched = the_service_asked(matched, words, index)
            # several asked: the first code's 'each additional' listing with it ('3 levels': G220, G221)
            out.matched = with_each_additional(out.matched, request.question, index.printed_titles)
            out.untold = untold_siblings(out.matched[: request.top_k], words, index)
            if out.matched:
                out.match_coverage, out.match_lacking = index.coverage(words, out.matched[0])
                out.lacking_distinct = index.distinct(out.match_lacking)
            if not out.matched:
                asked = request.question or "the request"
                out.problem = f"No fee code in the {edition.label} matches {asked!r}."
                out.follow_up = (
                    "Which service do you want to bill? Give the fee code if you have it (e.g. C124), or the service "
                    "and the setting (e.g. 'hospital visit on the day of discharge', 'house call')."
                )
                return out
        primary = (out.asked or out.matched)[:MAX_PRIMARY]
        _relatives(reader, primary, out)
        out.related = not_the_other_stage(out.related, request.question, index.titles)
        out.related = not_contradicted(out.related, request.question, index.text)
        out.related = the_person_asked(out.related, request.question, index.printed_titles)
        out.related = the_side_asked(out.related, request.question, index.printed_titles)
        out.related = within_minutes(out.related, request.question, indexes.minimums)
        if out.time_block:  # the night block's codes are not related to a Saturday afternoon's (H121 beside H151)
            hours, days = asked_hours(request.question, request.day), asked_days(request.day)
            out.related = [code for code in out.related if fits_time(code, hours, days, index.text)]
        if ed_physician:
            out.related = for_ed_physician(out.related, index.text)
            out.premiums = for_ed_physician(out.premiums, index.text)
        elif other_physician:
            out.related = for_other_physician(out.related, index.text)
            out.premiums = for_other_physician(out.premiums, index.text)
        codes = out.codes
        out.listings = _by_code(reader.listings(codes))
        out.rules = defaultdict(list)
        for rule in reader.rules(codes):
            out.rules[rule.code].append(rule)
        out.titles = {
            code: listed_title(code, rows[0].title, rows[0].description) for code, rows in out.listings.items()
        }
        for code in codes:
            if code not in out.titles:
                out.titles[code] = code
        for code in primary:
            out.rules[code] = titled_as_own(out.rules[code], out.titles[code])
        for code, rule in headed_rules(preamble, {c: out.titles[c] for c in primary}):
            if all(r.key != rule.key for r in out.rules[code]):
                out.rules[code].append(rule)
        for code in primary:
            out.source_chunks[code] = reader.source_chunks(f"({code})", 1) or reader.source_chunks(f"\n{code} ", 1)
        return out


# Where a consultation or visit happens is in its code's letter: each specialty lists its office and
# ambulatory services as A codes, its "Hospital In-Patient Services" as C codes and its "Long-Term Care
# Institution" services as W codes (Schedule of Benefits 2025-03-03, Family Practice: A911, C911, W911).
_SETTINGS = (
    (re.compile(r"\b(in[- ]?patients?|in-?pts?|admitted|wards?|hospital (visit|stay))\b", re.I), "C"),
    (re.compile(r"\b(long[- ]term care|nursing home|LTC|home for the aged)\b", re.I), "W"),
    (re.compile(r"\b(office(?! hours)|clinic|walk[- ]in)\b", re.I), "A"),  # 'sacrifice of office hours' is a time
)
_SETTING_LETTERS = frozenset("ACW")
# the special visit premium tables are one per setting, each lettered as that setting's services are, and the
# patient's home has its own (GP75: B990 … B996 "Special Visits to Patient's Home")
_PREMIUM_SETTINGS = (
    *_SETTINGS,
    (re.compile(r"\b(patient'?s (home|house)|house ?call|home visit|(her|his|their) (home|house))\b", re.I), "B"),
    # GP71 "Hospital Out-Patient Department"; GP76 "Other (non-professional setting not listed)": an arena, a school
    (re.compile(r"\b(out[- ]?patients?|out-?pts?|OPD)\b", re.I), "U"),
    (
        re.compile(
            r"\b(arena|rink|stadium|school|playground|workplace|community (?:centre|center)|roadside|scene)\b", re.I
        ),
        "Q",
    ),
    # the emergency department's tables: GP66 Table I (K codes) and Table V, for its own physician (H codes); who
    # bills which is the asker's role (``for_ed_physician``). 'ED' and 'ER' in capitals ('ed' ends many words)
    (re.compile(r"\b(?:ED|ER|E\.R\.)\b|\b(?i:emerg\w*)"), "HK"),
)
# a table named more narrowly than another the question also matches: the out-patient clinic is not the office
_NARROWER = {"U": "A"}
# the tables of one specialty's own (GP77 "Geriatric Home Visit", GP83 "Anaesthesia Services"), for the
# specialty billing them
_SPECIALTY_TABLES = {"07": "Geriatric Home Visit"}
# GP105 "Non-elective Diagnostic Services": the table of a diagnostic service done after hours, not of a visit
_DIAGNOSTIC_TABLE = "Non-elective Diagnostic Services"
_ASKS_DIAGNOSTIC = re.compile(
    r"\b(?:radiolog\w*|imaging|x-?rays?|ultrasound|US[- ]guided|CT|MRI|scan\w*|diagnostic|echo\w*|nuclear|"
    r"angio\w*|fluoro\w*|drain\w*|biops\w*)\b",
    re.I,
)


# how the answer names the block the question's day and hour chose, in the words of the Schedule's headings (A13)
_BLOCK_WORDS = {
    "weekday": "Monday to Friday",
    "weekend": "Saturday, Sunday or holiday",
    "night": "night",
    "evening": "evening",
    "daytime": "daytime",
}


def premiums_of_setting(premiums: set[str], question: str) -> set[str]:
    """``premiums`` of the one setting the question names, when it names one and the Schedule has some:
    'nursing home called me in … special visit premium' -> W990 … W999, not B988 'Geriatric Home Visit'."""
    named = {letter for pattern, letter in _PREMIUM_SETTINGS if pattern.search(question)}
    named -= {_NARROWER[letter] for letter in named if letter in _NARROWER}
    if len(named) != 1:
        return premiums
    letters = named.pop()
    return {code for code in premiums if code[0] in letters} or premiums


def specialty_tables(premiums: set[str], specialty: str | None, titles: Mapping[str, str]) -> set[str]:
    """``premiums`` of the specialty's own special visit table when it has one among them ('geriatrician - home visit
    … weekday 1000': GP77 "Geriatric Home Visit", B986 and B988, not the home table's B960)."""
    table = _SPECIALTY_TABLES.get(specialty or "")
    own = {code for code in premiums if table and table in titles.get(code, "")}
    return own or premiums


def visit_tables(premiums: set[str], question: str, titles: Mapping[str, str]) -> set[str]:
    """``premiums`` without the non-elective diagnostic services' table when the question names no diagnostic
    service ('came in from home for a crashing ward pt … a 2nd non-elective inpt': C987, not C106)."""
    if _ASKS_DIAGNOSTIC.search(question):
        return premiums
    return {code for code in premiums if _DIAGNOSTIC_TABLE not in titles.get(code, "")} or premiums


def named_premiums_of_setting(premiums: set[str], question: str, words: Sequence[str], index: WordIndex) -> set[str]:
    """``premiums_of_setting``, unless the question's ``words`` name none of that setting's premiums: 'the post
    renal transplant premium … as an inpatient or in emerg' asks E060, which no setting's premium table lists."""
    of_setting = premiums_of_setting(premiums, question)
    if not words or of_setting == premiums:
        return of_setting
    # named in a title: a word of the text listed with one (its heading's definition) names no premium ('emergency'
    # in the prose above K684, the OAMP team premium, for 'ER doc … what after-hours procedure premium?')
    said = {form for word in words for form in index.forms(word)}
    return of_setting if any(index.titles.get(code, set()) & said for code in of_setting) else premiums


_LETTER_ASKED = re.compile(r"\b(?:which|what|an?|the|any)\s+([A-Z])[- ]?codes?\b")


def of_letter(among: set[str] | None, question: str | None, codes: Iterable[str]) -> set[str] | None:
    """Only codes of the letter the question asks for ('which H code?'), when there are some."""
    asked = _LETTER_ASKED.search(question or "")
    if asked is None:
        return among
    letter = asked.group(1)
    kept = {code for code in (among if among is not None else codes) if code[0] == letter}
    return kept or among


def without_the_lettered_setting(words: tuple[str, ...], question: str | None) -> tuple[str, ...]:
    """``words`` without those naming the setting of the code letter the question asks for: 'nursing home … my
    admission assessment, which W code' asks for W102 "Admission assessment - Type 1" (A15: the W codes are the
    long-term care listings), not W004 "General re-assessment of patient in nursing home" for naming the home."""
    asked = _LETTER_ASKED.search(question or "")
    if asked is None or question is None:
        return words
    said = {
        stem(w)
        for pattern, letter in _SETTINGS
        if letter == asked.group(1)
        for match in pattern.finditer(question)
        for w in schedule_words(words_of(match.group(0)))
    }
    kept = tuple(w for w in words if w not in said)
    return kept or words


# a code whose title is all said by the question is a reading if its words score at least this share of the best
TITLE_REACH = 0.6


def titled_as_asked(
    codes: list[str], wide: list[tuple[str, float]], words: tuple[str, ...], index: WordIndex
) -> tuple[list[str], list[str]]:
    """(``codes`` reordered, rival readings). A code whose every title word the question says (``WordIndex.extra``
    is 0), scoring at least ``TITLE_REACH`` of the best, goes first when the leading code holds other words of
    the question ('a minor assessment in the ER': H121 "Minor assessment" before H100 "Emergency department
    investigative ultrasound", which scores more by the setting's words); when the leading code holds all its
    words and more, the leader stays and the titled code follows it as a second reading ('death certificate
    when another doctor pronounced': W771 "… pronouncement of death (W777) or certification of death", or
    A771 "Certification of death")."""
    if not wide or not codes:
        return codes, []
    best = wide[0][1]
    titled = [
        c for c, score in wide if score >= TITLE_REACH * best and index.titles.get(c) and not index.extra(words, c)
    ]
    if not titled or codes[0] in titled:
        return codes, []
    lead = index.held(words, codes[0])
    # a leader whose title is the titled code's with a further service the question also says is no other reading
    # ('c-section + tubal ligation': P041 "Caesarean section including tubal interruption", not P018 beside it)
    printed, leader = index.printed_titles, index.printed_titles.get(codes[0], "")
    titled = [c for c in titled if not (index.held(words, c) < lead and adds_a_service(leader, printed.get(c, "")))]
    if not titled:
        return codes, []
    rivals = [c for c in titled if index.held(words, c) < lead]
    first = [c for c in titled if c not in rivals]
    ordered = first + [c for c in codes if c not in first]
    if first or not rivals:
        return ordered, []
    rival = rivals[0]
    return [ordered[0], rival, *[c for c in ordered[1:] if c != rival]], [rival]


def premiums_last(codes: list[str], question: str | None, premiums: AbstractSet[str]) -> list[str]:
    """``codes`` with the premiums (``premiums``: those listed as one, ``OhipReader.premium_codes``) after the
    others when the question asks no premium: a premium is added to a service, so a question naming the
    service asks its code ('a minor assessment at 3 am in the ER': H121, before H964 'Special visit premium:
    Emergency Department … Nights'; 'bedside FAST scan on a trauma pt': H100, before E420 "Trauma premium"
    and E413 "Emergency Department Physician: Nights … increase the procedural fee(s) by")."""
    if asks_a_premium(question):
        return codes
    return [c for c in codes if c not in premiums] + [c for c in codes if c in premiums]


def raised_premiums_last(
    wide: list[tuple[str, float]], raised: Iterable[str], premiums: AbstractSet[str]
) -> list[tuple[str, float]]:
    """``wide`` (code, score; best first) with the premiums the meaning ranked up (``raised``) after every other
    code, for a question that asks no premium: a time of day or a setting the question names is near a premium's
    title ('on call … overnight, admitted … what's the admission code': E413 'Emergency Department Physician:
    Nights …', E082 'Admission assessment by the MRP' premium), but a premium is added to the service asked, it
    does not answer it (A933 'On-call admission assessment'). Premiums the words found keep their place
    (``premiums_last`` puts them after the services the question names)."""
    pushed = set(raised) & premiums
    if not pushed:
        return wide
    return [item for item in wide if item[0] not in pushed] + [item for item in wide if item[0] in pushed]


def asks_a_premium(question: str | None) -> bool:
    """Whether the question asks for a premium ('what premium …', 'any add-on …', a special visit's), and not
    first for the service it would be added to (``asks_service_first``)."""
    return bool(
        question
        and (_ASKS_PREMIUM.search(question) or _ASKS_TO_ADD.search(question) or asks_special_visit(question))
        and not asks_service_first(question)
    )


# 'what do I bill? can I add a special visit premium on top?': the service first, then what is added to it
_ASKS_SERVICE = re.compile(
    r"\b(?:what (?:do|can|should|would) (?:i|we) (?:bill|claim|charge)\b(?! (?:for )?(?:the |a |an )?premium)"
    r"|what(?:'s| is) the (?:[\w-]+ )?code\b|which (?:[\w-]+ )?code\b(?! (?:for|of) (?:the |a |an )?premium)"
    # the clerk's "code + fee? + office add-on?"
    r"|\bcodes?\s*(?:\+|&|and|/)\s*(?:the\s+)?(?:fee|\$|amount)\b)",
    re.I,
)
_ADDED_ON_TOP = re.compile(r"\b(?:on top|as well|in addition|also|add(?:ed)?)\b", re.I)


def asks_service_first(question: str | None) -> bool:
    """Whether the question asks the service's code and then whether a premium is added to it ('I assessed her
    there - what do I bill? can I add a special visit premium on top?': A100, its premiums after it): the
    premium is an addition to the answer, not the answer."""
    if not question:
        return False
    service = _ASKS_SERVICE.search(question)
    if service is None:
        return False
    return bool(_ADDED_ON_TOP.search(question, service.end()) and _ASKS_PREMIUM.search(question, service.end()))


def before_the_premium(words: tuple[str, ...], question: str | None) -> tuple[str, ...]:
    """``words`` said up to the ask for the service, when the question asks it first (``asks_service_first``):
    the words after name what is added to it ('special visit' is not the service A100 that was rendered)."""
    if not question or not asks_service_first(question):
        return words
    service = _ASKS_SERVICE.search(question)
    said = {stem(w) for w in schedule_words(words_of(question[: service.end()]))} if service else set()
    return tuple(w for w in words if w in said) or words


# 'what can I add for an initial smoking cessation discussion?' asks for what is added to a service: E079, listed
# as an add-on ('add' $15.55), is the answer, not a premium to put last
_ASKS_TO_ADD = re.compile(r"\b(?:can|could|may|should|do) (?:i|we) (?:also )?add\b", re.I)


# a setting the question denies: 'not an inpt', 'not in hospital', '(not at the nursing home)'
_DENIED = re.compile(r"\bnot (?:an? |the |in (?:the |an? )?|at (?:the |an? )?)?$", re.I)


def _denied_settings(question: str) -> set[str]:
    return {
        letter
        for pattern, letter in _SETTINGS
        for m in pattern.finditer(question)
        if _DENIED.search(question[max(0, m.start() - 16) : m.start()])
    }


FAMILY_PRACTICE = "00"  # the Schedule's "Family Practice & Practice in General (00)"


def family_practice_first(codes: list[str], titles: Mapping[str, str], family: AbstractSet[str]) -> list[str]:
    """``codes`` with Family Practice's own code first when the question names no specialty and the leading code's
    title is listed under other codes in other sections ('routine hospital visit on my inpatient in week 3': C002
    "Subsequent visits - first five weeks" of Family Practice, not C112 of Critical Care Medicine, same title and
    fee): the general practitioner's is the plain reading. ``family``: the codes listed in Family Practice's
    sections."""
    if len(codes) < 2:
        return codes
    lead = titles.get(codes[0])
    same = [code for code in codes if lead and titles.get(code) == lead]
    if len(same) < 2:
        return codes
    first = next((code for code in same if code in family), None)
    if first is None or first == codes[0]:
        return codes
    return [first, *(code for code in codes if code != first)]


def in_setting(codes: list[str], question: str | None) -> list[str]:
    """``codes`` without the A/C/W variants of another setting than the one the question names, when a
    code of the named setting is among them ('special consultation in the office': A911, not C911), and without
    those of a setting it denies ('pronounced him in our waiting room … not an inpt': A777, not C777)."""
    if not question:
        return codes
    denied = _denied_settings(question)
    if denied:
        kept = [code for code in codes if code[0] not in denied]
        codes = kept if any(code[0] in _SETTING_LETTERS for code in kept) else codes
    named = [letter for pattern, letter in _SETTINGS if pattern.search(question) and letter not in denied]
    if len(named) != 1 or not any(code[0] == named[0] for code in codes):
        return codes
    return [code for code in codes if code[0] not in _SETTING_LETTERS or code[0] == named[0]]


def setting_first(codes: list[str], scores: dict[str, float], question: str | None) -> list[str]:
    """``codes`` with those of the setting the question names ahead of others scoring the same ('monthly
    management fee for a nursing home patient': W010 before K682 'Opioid Agonist … monthly management fee')."""
    named = [letter for pattern, letter in _SETTINGS if pattern.search(question or "")]
    if len(named) != 1:
        return codes
    order = {code: n for n, code in enumerate(codes)}
    return sorted(codes, key=lambda c: (-round(scores.get(c, 0.0), 6), c[0] != named[0], order[c]))


def not_ruled_out(codes: list[str], question: str | None, titles: dict[str, str]) -> list[str]:
    """``codes`` without twins whose qualifier the question contradicts and services it denies by name."""
    return by_negated_service(by_qualifier(codes, question, titles), question, titles)


# a service's stages: a question that names one is not answered with a code of the other
_REMOVAL = frozenset({stem("remove"), stem("removal")})
_INSERTION = frozenset({stem("insert"), stem("insertion")})
_STAGES = (
    (frozenset({stem("initial")}), frozenset({stem("follow")})),
    (frozenset({stem("follow")}), frozenset({stem("initial")})),
    # taking a device out is not putting one in ('pulled out her PleurX': Z362 "Removal of indwelling catheter", not
    # Z361 "Insertion of …"; 'took out a pt's IUD': G552, not G378 "Insertion of intrauterine contraceptive device")
    (_REMOVAL, _INSERTION),
    (_INSERTION, _REMOVAL),
    # an elective procedure is not the emergency one (K10: P031 "Prophylactic cervical cerclage", not P032
    # "Emergency cervical cerclage")
    (frozenset({stem("elective")}), frozenset({stem("emergency")})),
)
# 'non-elective', 'vs the elective one', 'not elective': no elective procedure asked
_NON_ELECTIVE = re.compile(
    r"\b(?:non[- ]?|(?:vs\.?|versus|rather than|instead of|not)\s+(?:the\s+|an?\s+)?)elective\b", re.I
)
# 'pulled out', 'took the IUD out'; 'put in', 'placed' (not 'not putting a new one in')
_TAKEN_OUT = re.compile(r"\b(?:took|take|taking|taken|pulled|pull|pulling)\s+(?:[\w'’-]+\s+){0,3}?out\b", re.I)
_PUT_IN = re.compile(r"(?<!\bnot )\b(?:put|putting|placed|placing)\s+(?:[\w'’-]+\s+){0,3}?in\b", re.I)


def not_the_other_stage(codes: list[str], question: str | None, titles: dict[str, set[str]]) -> list[str]:
    """``codes`` without those titled with the other stage of the service the question names ('an initial
    smoking cessation discussion': E079, and not K039 'Smoking cessation follow-up visit' beside it; a removal,
    and not the insertion)."""
    # 'f/u' says 'follow-up'; 'non-elective' is no elective procedure
    said = {stem(w) for w in words_of(in_schedule_phrases(_NON_ELECTIVE.sub(" ", question or "")))}
    if _TAKEN_OUT.search(question or ""):
        said |= _REMOVAL
    if _PUT_IN.search(question or ""):
        said |= _INSERTION
    out = codes
    for named, other in _STAGES:
        if said & named and not said & other:
            out = [c for c in out if not other & titles.get(c, set()) or named & titles.get(c, set())]
    return out


def without_ruled_out_words(codes: list[str], ruled: AbstractSet[str], index: WordIndex) -> list[str]:
    """``codes`` without those whose title holds a word naming what the question rules out (``query.ruled_out``:
    'GP, not on the call roster … which C code': not C933 'On-call admission assessment'; '(not via CritiCall)':
    not K736 'CritiCall telephone consultation'), unless the title says 'not' itself (G807 'Physician not in
    constant attendance') or no code is left."""
    if not ruled:
        return codes
    # a ruled-out word in any of its forms: 'not a re-assess' rules out A474 'Medical specific re-assessment'
    ruled = {form for word in ruled for form in index.forms(word)} | set(ruled)
    kept = [
        c
        for c in codes
        if not {w.rstrip("'") for w in index.titles.get(c, set())} & ruled
        or "not" in words_of(index.printed_titles.get(c, ""))
    ]
    return kept or codes


def in_band(codes: list[str], scores: dict[str, float], question: str | None, texts: dict[str, str]) -> list[str]:
    # scores: the wider pool's codes by word score, best first (a code in the band may be found there)
    """``codes`` without those whose band excludes the number asked (age, week of stay, patients, lesions) when another
    is not excluded ('a 70 year old': K132 '65 years of age and older', not K131 '18 to 64'); a code whose band
    holds the number goes first ('8 weeks': C007 'sixth to thirteenth week'; '16yo': K130 'adolescent', read by
    the General Preamble's age words, before W109 'Periodic health visit' of the nursing home listings)."""
    asked, counts = asked_quantities(question), asked_counts(question)
    if not (asked or counts) or not codes:
        return codes

    def fit(title: str) -> int:
        # a count that excludes the question's rules a sibling out; one that holds it brings no code forward: a
        # count of sides or members is too common a thing to choose a service by ('one side': R342 '… one side')
        band = fit_band(asked, title)
        return -1 if count_fit(counts, title) < 0 else band

    verdicts = {code: fit(texts.get(code, "")) for code in codes}
    kept = [c for c in codes if verdicts[c] >= 0] or codes
    best = max(scores.get(code, 0.0) for code in kept)
    near = [c for c in scores if scores[c] >= BAND_REACH * best]  # only these may go first: read no others' bands
    verdicts |= {code: fit(texts.get(code, "")) for code in near if code not in verdicts}
    holding = [c for c in near if verdicts[c] > 0]
    return holding + [c for c in kept if c not in holding]


def headed_rules(rules: list[RuleRow], titles: dict[str, str]) -> list[tuple[str, RuleRow]]:
    """(code, rule) for each General Preamble rule whose heading is the code's title, or the title's head
    before ':' or ' - ': 'GENERAL RE-ASSESSMENT' governs 'A004 General re-assessment', 'PERIODIC HEALTH
    VISIT' governs 'K131 Periodic health visit: adult age 18 to 64 inclusive'."""
    by_heading: dict[str, list[RuleRow]] = defaultdict(list)
    for rule in rules:
        by_heading[_heading_key(rule.heading)].append(rule)
    out: list[tuple[str, RuleRow]] = []
    for code, title in titles.items():
        for head in _title_heads(title):
            out.extend((code, replace(rule, code=code)) for rule in by_heading.get(head, []))
    return out


def titled_as_own(rules: list[RuleRow], title: str) -> list[RuleRow]:
    """``rules`` with a block that only names the code counted as its own when the block's heading is the
    code's title: the Schedule sometimes defines a service above its listing line, under its name
    ('Antenatal preventative health assessment … Maximum once per pregnancy.' above P005, K4)."""
    heads = _title_heads(title)
    return [
        replace(r, relation="subject") if r.relation == "mention" and _heading_key(r.heading) in heads else r
        for r in rules
    ]


def _title_heads(title: str) -> set[str]:
    return {_heading_key(title), _heading_key(title.split(":")[0]), _heading_key(title.split(" - ")[0])} - {""}


def _heading_key(text: str) -> str:
    return " ".join(words_of(text))


def _by_code(rows: list[ListingRow]) -> dict[str, list[ListingRow]]:
    out: dict[str, list[ListingRow]] = defaultdict(list)
    for row in rows:
        out[row.code].append(row)
    return dict(out)


def _relatives(reader: OhipReader, primary: list[str], out: SqlFindings) -> None:
    """The codes whose rules name a primary code (General Preamble rules first), and the premiums naming one."""
    mentioning = [r for r in reader.rules(primary) if r.relation == "mention"]
    mentioning.sort(key=lambda r: (r.part != "GP", r.key))
    subjects = reader.subjects([r.key for r in mentioning])
    related = [c for r in mentioning for c in sorted(subjects.get(r.key, [])) if c not in primary]
    premiums = [row.code for row in reader.premiums_naming(primary) if row.code not in primary]
    # the add-ons printed in a service's block (not those beside an add-on: E569's neighbours are other premiums
    # to the same reduction fee)
    adding = {row.code for row in reader.listings(primary) if row.unit == "add" or row.percent is not None}
    services = [code for code in primary if code not in adding]
    add_ons = [(under, row) for under, row in reader.add_ons_after(services) if row.code not in primary]
    premiums += [row.code for _, row in add_ons]
    # the leading code's own add-ons, once each as printed ('E542 when performed outside hospital: add 11.55')
    leading = {row.code: row for under, row in add_ons if primary[0] in under}
    out.add_ons = list(leading.values())
    out.premiums = list(dict.fromkeys(premiums))[:MAX_RELATED]
    out.related = [c for c in dict.fromkeys(related) if c not in out.premiums][:MAX_RELATED]


def _specialty(
    request: Request, sections: list[tuple[int, str, str, str | None]], out: SqlFindings, known: Callable[[str], bool]
) -> Specialty | None:
    """The section billed under: from ``specialty`` / ``section``, else from the question's words."""
    named = {code: title for _, _, title, code in sections if code}
    given = _specialty_code(request.specialty, named) if request.specialty else None
    if request.specialty and given is None:
        out.problem = f"No specialty section of the {out.edition.label} is called {request.specialty!r}."
        out.follow_up = (
            "Which specialty do you bill under? Give its two-digit code or name, e.g. '00' (Family Practice) or "
            "'Anaesthesia'."
        )
        return None
    section = _section(request.section, sections) if request.section else None
    if request.section and section is None:
        out.problem = f"No section of the {out.edition.label} is called {request.section!r}."
        out.follow_up = "Which part of the Schedule do you mean, e.g. 'General Preamble', 'Anaesthesia (01)' or 'J'?"
        return None
    if given and section and section.code and section.code != given:
        out.problem = f"specialty {given} ({named[given]}) and section {section.section!r} are different specialties."
        out.follow_up = f"Which do you bill under: {named[given]} or {section.section}?"
        return None
    if given:
        return Specialty(given, named[given], "A")
    if section:
        return section
    if bills_as_ed_physician(request.question):
        return None  # the asker bills as the emergency department's physician: a specialist named is someone else
    # 'physician' says no specialty, whatever its suffix
    said = _without_techniques(request.specialty_words)
    spoken = spoken_sections([w for w in said if w not in STOP], sections, known)
    alias = _spoken_alias(said)
    if alias and SPECIALTY_ALIASES[alias] in named:
        code = SPECIALTY_ALIASES[alias]
        # the question's other words naming the same section are not the service either ('geriatrician … the
        # comprehensive geri consult': not 'geriatric' in a title)
        also = tuple(word for found, words in spoken if found == code for word in words if word != alias)
        return Specialty(code, named[code], "A", (alias, *also))
    spoken = [found for found in spoken if found[0] in named]
    if len(spoken) > 1 and set(spoken[0][1]) <= _AGE_GROUP_WORDS:
        spoken = spoken[1:]  # 'paeds ophtho': the paediatric ophthalmologist bills as an ophthalmologist
    first = spoken[0] if spoken else None
    return Specialty(first[0], named[first[0]], "A", first[1]) if first else None


def _specialty_code(text: str, named: dict[str, str]) -> str | None:
    value = text.strip().strip("()")
    if value.isdigit():
        return value.zfill(2) if value.zfill(2) in named else None
    wanted = " ".join(words_of(value))
    for code, title in named.items():
        if " ".join(words_of(re.sub(r"\(\d{2}\)", "", title))) == wanted:
            return code
    return SPECIALTY_ALIASES.get(wanted)


def _section(text: str, sections: list[tuple[int, str, str, str | None]]) -> Specialty | None:
    value = text.strip()
    for _, part, title, code in sections:
        if value.upper() == part or value.lower() == title.lower():
            return Specialty(code, title, part) if value.lower() == title.lower() else Specialty(None, part, part)
    wanted = " ".join(words_of(value))
    if wanted in ("general preamble", "preamble gp"):
        return Specialty(None, "General Preamble", "GP")
    return None


def without_lesser_levels(
    codes: list[str], question: str | None, minimums: dict[str, int], index: WordIndex
) -> list[str]:
    """``codes`` without the lesser levels of the first, when the minutes asked chose it by its time minimum: 'endo
    consult ran 85 min' is A150 "Comprehensive endocrinology consultation" (75 minutes at least), and A155
    "Consultation", whose title says nothing A150's does not, is the service those minutes went past."""
    if not codes or codes[0] not in minimums or asked_minutes(question) is None:
        return codes
    chosen = index.titles.get(codes[0], set())
    return [c for c in codes if c in minimums or not (title := index.titles.get(c)) or not title < chosen]


def with_abbreviations_read(request: Request, index: WordIndex) -> tuple[Request, list[Reading]]:
    """``request`` with the clinical abbreviations of its question written out ('UPPP' -> 'uvulopalatopharyngoplasty',
    S036) for what the titles' meaning is asked (its words stay: the index reads them, ``WordIndex.reading``); and
    the readings made, for the answer to say."""
    readings = [reading for word in request.words if (reading := index.reading(word)) is not None]
    if not readings or not request.question:
        return request, readings
    question = request.question
    for reading in readings:
        said = re.compile(rf"(?<![\w-]){re.escape(reading.said)}(?![\w-])", re.I)
        question = said.sub(reading.meaning, question)
    return replace(request, question=question), readings


# a specialty's patients' age group, said before another specialty's name ('paeds ophtho'), is no section of its own
_AGE_GROUP_WORDS = frozenset({"peds", "paeds", "paed", "pediatric", "paediatric"})
# 'done under general anaesthesia' names how a service was done, not who billed it (Anaesthesia (01))
_TECHNIQUE_BEFORE = frozenset({"general", "local", "regional", "topical", "spinal", "under", "without"})
_TECHNIQUE_WORDS = frozenset({"anaesthesia", "anesthesia", "anaesthetic", "anesthetic"})


def _without_techniques(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` without an anaesthetic technique's name ('under general anaesthesia'): a specialty is who bills."""
    return tuple(
        w for i, w in enumerate(words) if not (w in _TECHNIQUE_WORDS and i and words[i - 1] in _TECHNIQUE_BEFORE)
    )


def _spoken_alias(words: tuple[str, ...]) -> str | None:
    """The first (longest) specialty name the question says, as written in SPECIALTY_ALIASES."""
    for n in (3, 2, 1):
        for i in range(len(words) - n + 1):
            alias = " ".join(words[i : i + n])
            if alias in SPECIALTY_ALIASES:
                return alias
    return None


# 'any add-on for the heart failure?' asks for a premium (E088 "Congestive heart failure premium") by the
# asker's word for one
_ASKS_PREMIUM = re.compile(r"\b(?:premiums?|add[- ]?ons?)\b", re.I)


def _service_words(request: Request, specialty: Specialty | None) -> tuple[str, ...]:
    """The question's words that name the service: those naming the specialty billed under are left out
    ('family practice intermediate assessment' asks for an assessment, not a code titled 'family practice …')."""
    if specialty is None or not specialty.said:
        return request.words
    said = {stem(w) for phrase in specialty.said for w in phrase.split()}
    return tuple(w for w in request.words if w not in said)
