"""Dates in the forms clinical notes use — '7/22', '10/14/82', '2/3/98', 'Jan 3', 'March of 1993',
"'92", '1992' — and ages over 89. Bare times ('14:30', '0700', '1900 - 0700') and durations
('2 weeks') are not dates, and neither are ventilator settings ('PS 10/5') or fractions ('1/2 NS').
"""

from __future__ import annotations

import re

from presidio_analyzer.nlp_engine import NlpArtifacts

from curbside.phi.recognizers._base import Found, RuleRecognizer

__all__ = ["ClinicalDateRecognizer"]

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MON_NUM = r"(?:0?[1-9]|1[0-2])"
_YEAR = r"(?:19\d\d|20\d\d|'?\d\d)"
_ORD = r"(?:st|nd|rd|th)?"
_I = re.IGNORECASE

NUMERIC_DATE = re.compile(
    rf"(?<![\d/.,])(?<!\d:)(?P<m>{_MON_NUM})/(?P<d>{_DAY})(?:/(?P<y>\d{{4}}|\d{{2}})|\.(?P<y2>\d{{2}})(?=\s))?(?![\d/]|\.\d)"
)  # (also "11/21.93": a year after a dot)
# two dates run together ("treatments 10/03/10/04") and a day written as a date after "on" ("on 7-8")
DOUBLE_DATE = re.compile(rf"(?<![\d/.]){_MON_NUM}/{_DAY}/{_MON_NUM}/{_DAY}(?![\d/])")
ON_DASHED_DATE = re.compile(rf"(?<=\bon\s){_MON_NUM}-{_DAY}(?![\d-]|\s*(?:mg|mcg|cc|ml|units?|%|l\b|lpm|x\b))", _I)
DASHED_DATE = re.compile(rf"(?<![\d.:-]){_MON_NUM}-{_DAY}-(?:\d{{4}}|\d{{2}})(?![\d-])")
MONTH_YEAR_NUMERIC = re.compile(rf"(?<![\d/.:,]){_MON_NUM}/(?P<y>3[2-9]|[4-9]\d|19\d\d|20\d\d)(?![\d/]|\.\d)")
ISO_DATE = re.compile(r"(?<!\d)(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?!\d)")
DOTTED_DATE = re.compile(rf"(?<![\d.]){_DAY}\.{_MON_NUM}\.(?:19|20)\d\d(?!\d)")
# day first, as Canada and most of the world write it: "DOB 14/03/1957", "14-03-57" (a first number
# over 12 can only be a day; one of 12 or less reads as month-first above, a date either way)
DAY_FIRST_DATE = re.compile(r"(?<![\d/.,:-])(?:1[3-9]|2\d|3[01])([/-])(?:0?[1-9]|1[0-2])\1(?:\d{4}|\d{2})(?![\d/%-])")
# the month as a word between numbers: "14-Mar-1957", "14/mar/57", "14-Mar", "Mar-14-2019", "14Mar1957"
DAY_MON_YEAR = re.compile(
    rf"(?<![\w/-]){_DAY}(?:[-/.]|(?=[a-z]))(?P<mon>{_MONTH})(?:[-/.](?:19|20)?\d\d|(?<=[a-z])(?:19|20)\d\d)?(?![\w/-])",
    _I,
)
MON_DAY_YEAR = re.compile(rf"(?<![\w/-])(?P<mon>{_MONTH})-{_DAY}(?:-(?:19|20)?\d\d)?(?![\w/-])", _I)
# a range of dates: "3/14-3/21", "3/14 - 3/21/19"
DATE_RANGE = re.compile(
    rf"(?<![\d/.-])(?P<m1>{_MON_NUM})/(?P<d1>{_DAY})\s*-\s*(?P<m2>{_MON_NUM})/(?P<d2>{_DAY})(?:/(?:\d{{4}}|\d{{2}}))?(?![\d/%-])"
)
MONTH_DAY = re.compile(
    rf"\b(?P<mon>{_MONTH})\.?\s+(?P<d>{_DAY}){_ORD}\b(?:,?\s+(?:19|20)?\d\d\b)?(?!\s*(?:mg|mcg|cc|ml|units?|%|mm|kg))",
    _I,
)
DAY_MONTH = re.compile(
    rf"\b(?:{_DAY}\s*(?:-|->|to)\s*)?{_DAY}{_ORD}\s+(?:of\s+)?(?P<mon>{_MONTH})\b\.?(?:,?\s+(?:19|20)?\d\d\b)?", _I
)
MONTH_YEAR = re.compile(rf"\b(?P<mon>{_MONTH})\.?,?\s+(?:of\s+)?(?:'\d\d|(?:19|20)\d\d|\d\d)\b", _I)
YEAR = re.compile(r"(?<![\d/.:$#-])(?P<y>19\d\d|20[0-2]\d)(?P<s>'?s)?(?![\d/%]|\.\d|:\d)")
APOSTROPHE_YEAR = re.compile(r"(?:(?<![\w'])['’](?P<a>\d\d)(?![\d'\"])|(?<![\d.])(?P<b>\d\d)['’](?![\d\w\"]))")
# "the 11th", "on the 3rd" (not "2nd degree", "1st step")
DAY_ORDINAL = re.compile(
    rf"\b(?:on\s+)?the\s+(?P<d>[12]?\d|3[01])(?:st|nd|rd|th)\b(?=\s*(?:[.,;:)!?]|$|and\b|at\b|@|of\s+{_MONTH}))",
    _I | re.MULTILINE,
)
# "in sept.", "since March", "early December"
MONTH_ALONE = re.compile(
    r"\b(?:in|since|during|until|till|last|early|late|mid|mid-|end\s+of|beginning\s+of)\s+"
    r"(?P<mon>january|february|march|april|june|july|august|september|october|november|december|"
    r"jan|feb|apr|jun|jul|aug|sept?|oct|nov)\b\.?",
    _I,
)
EVENT_WORD = re.compile(
    r"mi|cabg|cva|tia|ptca|pci|stent|stents|avr|mvr|tvr|chole|cholecystectomy|appy|appendectomy|"
    r"hysterectomy|tah|bso|turp|orif|thr|tkr|redo|ppm|aicd|pacer|pacemaker|dx|dx'd|diagnosed|repair|ablation|"
    r"cardioversion|nephrectomy|mastectomy|lumpectomy|colectomy|stroke|amputation|bka|aka|cea|fem-pop|dvt|pe|"
    r"placed|inserted|implanted|performed|replaced|resected|s/p|h/o|hx",
    _I,
)
# a two-digit year after an event of the history: "MI 92", "CABG 81, Redo CABG 84", "CVA in 94 and 00"
EVENT_YEAR = re.compile(
    r"\b(?:mi|cabg|cva|tia|ptca|pci|stent|stents|avr|mvr|tvr|chole|cholecystectomy|appy|appendectomy|"
    r"hysterectomy|tah|bso|turp|orif|thr|tkr|redo|ppm|aicd|pacer|pacemaker|dx|dx'd|diagnosed|repair|ablation|"
    r"cardioversion|nephrectomy|mastectomy|lumpectomy|colectomy|stroke|amputation|bka|aka|cea|fem-pop|dvt|pe)"
    r"(?:\s+(?:in|x\d|x|'))?\s+'?(?P<y>\d\d)(?=\s*(?:[,;.)/]|and\b|$|\n))"
    r"(?:\s+and\s+'?(?P<y2>\d\d)(?!\s*(?:%|hrs?\b|hours?\b|mg\b|min|days?\b|cc\b)))?",
    _I | re.MULTILINE,
)
HOLIDAY = re.compile(
    r"\b(?:christmas|xmas|thanksgiving|easter|hanukkah|chanukah|new year'?s(?: day| eve)?|labor day|memorial day|"
    r"independence day|halloween|valentine'?s day|mother'?s day|father'?s day|canada day|boxing day|victoria day)\b",
    _I,
)
AGE_OVER_89 = re.compile(
    r"(?<![\d.])(?P<age>9\d|1[01]\d)\s*(?:-\s*)?(?:yo\b|y/o\b|y\.o\.?|yrs?\b|years?\b|y\b)(?:[\s-]*old\b)?", _I
)
AGE_WORD = re.compile(r"\b(?:age|aged)\s*:?\s*(?P<age>9\d|1[01]\d)\b", _I)
AGE_PERSON = re.compile(
    r"(?:^|(?<=\n)|(?<=\s{2})|(?<=[:.]\s))(?P<age>9\d|1[01]\d)\s+(?:male|female|man|woman|gentleman|gent|lady|s/p)\b",
    _I,
)

# words before 'a/b' that make it a setting, score or ratio rather than a date
_NOT_DATE_BEFORE = frozenset(
    "cpap ps psv peep bipap ipap epap vent settings simv imv prvc strength str motor grips power grade gcs "
    "ratio mae x rass cam pain bp abp nbp sbp map ap pap pa cvp hr rr tv vt & trial ventilation".split()
)
# words after 'a/b' that make it a fraction ("1/2 NS", "1/2 strength")
_FRACTION_AFTER = frozenset(
    "ns strength str of tab tabs way amp amps dose doses normal nl full cup the ns. nss ns, hour hours hr hrs "
    "up bilat bilaterally".split()
)
# words right before a four-digit number that make it a clock time ("at 1900", "until 2000")
_TIME_BEFORE = frozenset(
    "at @ approx approximately around about by until till til after before between from to since ~ circa "
    "@approx time started start began ended end stopped since".split()
)
_UNIT_AFTER = re.compile(
    r"\s*(?:cc|ml|mls|mg|mcg|units?|u\b|kcal|cal|calories|ml/hr|cc/hr|hrs?\b|h\b|am\b|pm\b|mmhg|gm|g\b|l\b|kg)", _I
)
_TIME_RANGE = re.compile(r"\s*(?:-|to|until|till)\s*\d{3,4}\b", _I)
_CALENDAR_WORDS = frozenset("in since year yr dated date on of born dob ' s/p".split())


class ClinicalDateRecognizer(RuleRecognizer):
    ENTITIES = ("DATE", "AGE")

    def find(self, text: str, nlp_artifacts: NlpArtifacts | None) -> list[Found]:
        found: list[Found] = []
        for match in NUMERIC_DATE.finditer(text):
            if self._numeric_date_ok(text, match):
                found.append((match.start(), match.end(), "DATE", 0.85 if match.group("y") else 0.75))
        for match in MONTH_YEAR_NUMERIC.finditer(text):
            if _word_before(text, match.start()) in _NOT_DATE_BEFORE or text[match.end() : match.end() + 1] in "%'":
                continue
            if not _VENT_WORDS & _words_before(text, match.start(), 3):
                found.append((match.start(), match.end(), "DATE", 0.6))
        for pattern in (DASHED_DATE, ISO_DATE, DOTTED_DATE, HOLIDAY, DOUBLE_DATE, ON_DASHED_DATE):
            found += [(m.start(), m.end(), "DATE", 0.85) for m in pattern.finditer(text)]
        for pattern in (DAY_MON_YEAR, MON_DAY_YEAR):
            found += [(m.start(), m.end(), "DATE", 0.8) for m in pattern.finditer(text)]
        for match in DAY_FIRST_DATE.finditer(text):
            if not _setting_before(text, match.start()):
                found.append((match.start(), match.end(), "DATE", 0.85))
        for match in DATE_RANGE.finditer(text):
            fractions = all(int(match.group(m)) < int(match.group(d)) <= 4 for m, d in (("m1", "d1"), ("m2", "d2")))
            if not fractions and not _setting_before(text, match.start()):  # not "crackles 1/3-1/2 up"
                found.append((match.start(), match.end(), "DATE", 0.8))
        for pattern in (MONTH_DAY, DAY_MONTH, MONTH_YEAR):
            for match in pattern.finditer(text):
                if self._month_ok(text, match):
                    found.append((match.start(), match.end(), "DATE", 0.8))
        for match in YEAR.finditer(text):
            if self._year_ok(text, match):
                found.append((match.start(), match.end(), "DATE", 0.6))
        for match in APOSTROPHE_YEAR.finditer(text):
            suffix_form = match.group("b") is not None  # "74'" rather than "'74"
            before = text[max(0, match.start() - 2) : match.start()]
            if suffix_form and (_word_before(text, match.start()) in _NOT_YEAR_BEFORE or re.search(r"\d-$", before)):
                continue  # "HOB 30'", "10-15'": degrees and minutes
            found.append((match.start(), match.end(), "DATE", 0.7))
        for pattern in (DAY_ORDINAL, MONTH_ALONE):
            for match in pattern.finditer(text):
                group = "d" if pattern is DAY_ORDINAL else "mon"
                found.append((match.start(group), match.end(group), "DATE", 0.7))
        for match in EVENT_YEAR.finditer(text):
            for group in ("y", "y2"):
                if match.group(group):
                    found.append((match.start(group), match.end(group), "DATE", 0.65))
        for pattern in (AGE_OVER_89, AGE_WORD, AGE_PERSON):
            for match in pattern.finditer(text):
                if pattern is AGE_PERSON and _word_before(text, match.start("age")) in _MEASURE_WORDS:
                    continue
                found.append((match.start("age"), match.end("age"), "AGE", 0.8))
        return found

    @staticmethod
    def _numeric_date_ok(text: str, match: re.Match[str]) -> bool:
        start, end = match.start(), match.end()
        before = _word_before(text, start)
        if before in _NOT_DATE_BEFORE:
            return False
        if before.rsplit("(", 1)[-1] not in _DATE_WORDS and _VENT_WORDS & _words_before(text, start, 3):
            return False
        if text[end : end + 1] in {"%", "'"} or text[start - 1 : start] in {"x", "X"}:
            return False
        if re.match(r"\s*,?\s*\d{2,3}\s*%", text[end : end + 10]):
            return False  # "5/5, 40%": a ventilator setting
        if re.search(r"\d-$", text[max(0, start - 2) : start]) or re.match(r"-\d", text[end : end + 2]):
            return False  # a run of readings: "5-6/3-4/0-80"
        if match.group("y") or match.group("y2"):
            return True
        month, day = int(match.group("m")), int(match.group("d"))
        if _VENT_WORDS & set(re.split(r"[/(]", _word_after(text, end))):
            return False
        if day == 10 and month <= 10 and _PAIN_WORDS & (_words_before(text, start, 4) | _words_after(text, end, 3)):
            return False  # a pain score, "CP 3/10", "3/10 incisional pain" (never above 10: "on 12/10 with CP")
        if month < day <= 4 and text[end : end + 1].isalpha():
            return False  # "1/2ns"
        if month < day <= 4:  # 1/2, 1/3, 2/3, 3/4: fractions unless a date word comes first
            if _word_after(text, end) in _FRACTION_AFTER:
                return False  # "1/2 NS", "1/2 hour", "1/3 up"
            heading = text[end : end + 1] == ":" and not text[text.rfind("\n", 0, start) + 1 : start].strip()
            timed = bool(_CLOCK_BEFORE.search(text, max(0, start - 12), start))  # "d/c'd at 0630 3/4"
            return before in _DATE_WORDS or heading or timed or _listed_with_date(text, start, end)  # "2/3: CABG"
        return True

    @staticmethod
    def _month_ok(text: str, match: re.Match[str]) -> bool:
        month = match.group("mon")
        if month.lower() in {"may", "mar", "dec", "jan", "sept", "sep", "june", "july", "aug"} and month.islower():
            # "may 2", "dec 5" are verbs and nouns in a lower-case note unless a year follows
            return bool(re.search(r"\d{4}|'\d\d", match.group()))
        if month.lower() in {"may", "dec", "mar"} and month.isupper():
            return bool(re.search(r"\d{4}|'\d\d|,\s*\d\d", match.group())) or _word_before(text, match.start()) in {
                "on",
                "since",
                "of",
            }
        return True

    @staticmethod
    def _year_ok(text: str, match: re.Match[str]) -> bool:
        if match.group("s"):
            return True  # "1980s"
        before = _word_before(text, match.start())
        year = match.group("y")
        clock = int(year[:2]) < 24 and int(year[2:]) < 60  # "since 1945" may be a time; "since 1999" may not
        timed = before in _TIME_BEFORE or text[max(0, match.start() - 2) : match.start()].rstrip() in _TIME_MARKS
        if timed and clock:
            return False
        rest = text[match.end() : match.end() + 12]
        if _UNIT_AFTER.match(rest) or (clock and _TIME_RANGE.match(rest)) or rest[:1] == "+":
            return False
        head = text[max(0, match.start() - 8) : match.start()]
        if clock and re.search(r"\d{3,4}\s*(?:-|to|->)\s*$", head):
            return False  # "0700-1900" (but "from 1975 to 1988": no clock reads 19:75 or 19:88)
        # 2000-2029 are as often volumes and lab values ("dumped 2000", "CPKs 2010"): need a calendar word
        if match.group("y").startswith("19") or before in _YEAR_WORDS or before.rstrip(".") in _MONTH_WORDS:
            return True
        return bool(EVENT_WORD.fullmatch(before))  # "CVA 2004"


_YEAR_WORDS = frozenset(
    "in since of year yr born dated from until til till circa c. copyright © spring summer fall autumn winter "
    "early late mid during and , the".split()
)
_MONTH_WORDS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_TIME_MARKS = frozenset({"@", "~", "->", ">"})
_NOT_YEAR_BEFORE = frozenset("hob x q for @ ~ at about approx walked ambulated amb ambulating".split())
_VENT_WORDS = frozenset(
    "cpap ps psv peep bipap bi-pap simv imv vent ipap epap prvc settings a/c cpap/psv flowby flow-by".split()
)
_PAIN_WORDS = frozenset("pain c/o discomfort score scale rates rated ache cp angina incisional".split())
_DATE_WORDS = frozenset(
    "on since from dated date until till til starting started last next by before after admitted placed "
    "inserted changed done drawn sent removed pulled intubated extubated transferred seen had "
    "due d/c'd dc'd discharged born dob".split()
)
_MEASURE_WORDS = frozenset("sat sats spo2 sao2 o2 hr bp sbp temp t tmax rr fio2 at of to is was w/ with %".split())


# a date that is no fraction, listed right after or before: "MI x2(1/4, 2/22)", "HD 1/4 or 8/14"
_LIST_JOIN = r"\s*(?:,|;|&|\bor\b|\band\b)\s*"
_DATE_NEXT = re.compile(rf"{_LIST_JOIN}(?P<m>{_MON_NUM})/(?P<d>{_DAY})(?:/\d{{2,4}})?(?![\d/%])", _I)
_DATE_BEFORE = re.compile(rf"(?<![\d/.])(?P<m>{_MON_NUM})/(?P<d>{_DAY})(?:/\d{{2,4}})?{_LIST_JOIN}$", _I)
# a clock time right before: "d/c'd at 0630 3/4", "at 4am 1/3"
_CLOCK_BEFORE = re.compile(r"(?<![\d/.])(?:[01]\d|2[0-3])[0-5]\d,?\s+$|\d(?::\d\d)?\s*(?:am|pm)\.?,?\s+$", _I)


def _listed_with_date(text: str, start: int, end: int) -> bool:
    """A fraction-shaped 'a/b' in a list with a date that can be no fraction ('1/4, 2/22')."""
    for match in (_DATE_NEXT.match(text, end, end + 16), _DATE_BEFORE.search(text[max(0, start - 16) : start])):
        if match and not int(match.group("m")) < int(match.group("d")) <= 4:
            return True
    return False


def _word_before(text: str, index: int) -> str:
    match = re.search(r"([^\s]+)\s*$", text[max(0, index - 30) : index])
    return match.group(1).lower().strip(":,;(") if match else ""


def _setting_before(text: str, index: int) -> bool:
    """A ventilator setting or score word just before: 'PSV/CPAP 15/10/40', 'PS 10/5-12/5'."""
    return _word_before(text, index) in _NOT_DATE_BEFORE or bool(_VENT_WORDS & _words_before(text, index, 3))


def _words_before(text: str, index: int, count: int) -> set[str]:
    """The last ``count`` words before ``index``, lower case, split at '/' and '(' too ("cpap/ps")."""
    words = re.split(r"[\s/()]+", text[max(0, index - 60) : index].lower())
    return {w.strip(":,;.") for w in words[-count - 1 :] if w}


def _words_after(text: str, index: int, count: int) -> set[str]:
    return {w.strip(":,;.()").lower() for w in text[index : index + 60].split()[:count]}


def _word_after(text: str, index: int) -> str:
    match = re.match(r"\s*([^\s]+)", text[index : index + 30])
    return match.group(1).lower().strip(":,;.)") if match else ""
