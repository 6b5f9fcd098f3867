"""Numbers that identify someone: phone/fax/pager numbers, record numbers (MRN and others),
Ontario health card numbers, SIN/SSN, street addresses, postal and ZIP codes.

Ontario health card number: 10 digits, written 4-3-3, with an optional 2-letter version code
(Ontario Ministry of Health, "Health Card Validation" reference; the brief of issue #4).
Canadian SIN: 9 digits (3-3-3) whose last digit is a Luhn check digit (Employment and Social
Development Canada, "Social Insurance Number" page). US SSN: 3-2-4 digits (SSA).
"""

from __future__ import annotations

import re

from presidio_analyzer.nlp_engine import NlpArtifacts

from curbside.phi.recognizers._base import Found, RuleRecognizer
from curbside.phi.recognizers._words import STOPWORDS

__all__ = ["ClinicalNumberRecognizer", "luhn_ok"]

_I = re.IGNORECASE

NANP_PHONE = re.compile(
    r"(?<![\d/.])(?:\+?1[\s.-]?)?(?:(?:\(\d{3}\)\s?|\d{3}[\s.-]?)\d{3}[\s.-]\d{4,5}|\d{3}/\d{3}-\d{4}|\d{3}[.-]\d{7})"
    r"(?![\d/]|\.\d)"
)  # (also "617/555-1234" and "617-5551234")
# whom one calls, between the word and the number: "call me at", "call daughter at 555 1234"
_CALLED = (
    r"(?:me|us|him|her|them|wife|husband|son|daughter|family|mother|mom|father|dad|sister|brother|friend|pt|patient)"
)
PHONE_CONTEXT = re.compile(
    r"\b(?:phone|tel|telephone|cell|cellphone|mobile|home|work|office|pager|pgr|beeper|beep|bpr|pg|fax|contact|"
    rf"number|call|page|ext|extension|reach|callback|voicemail)\b\.?[\s:#)-]*(?:{_CALLED}\s+)?"
    r"(?:no\.?|number|num|is|at|on)?[\s:#-]*"
    r"(?P<num>\(?\d[\d\s().-]{2,16}\d)",
    _I,
)
# a local number without its area code: "555-1234", "555.1234" (an exchange never starts with 0 or 1)
LOCAL_PHONE = re.compile(r"(?<![\d/.,:-])[2-9]\d{2}[-.]\d{4}(?![\d/-]|\.\d)")
# an extension after a number, or alone: "555-1234 x22", "ext. 4321", "x4521" (not "x2", "x10^3")
EXTENSION = re.compile(r"\s*(?:x|ext\.?|extension)\s?\d{1,5}\b", _I)
LONE_EXTENSION = re.compile(r"(?<![\w^])(?:ext\.?\s?\d{2,5}|extension\s\d{2,5}|x\s?\d{4,5})(?![\d^])", _I)
INTERNATIONAL_PHONE = re.compile(
    r"(?<![\w+.])(?:\+\d{1,3}[\s.-]?(?:\(0\)\s?)?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}"
    r"|\(\d{2,4}\)\s?\d{3,4}[\s.-]?\d{3,4}"
    r"|0\d{2,4}[\s.]\d{3}[\s.]\d{3,4}"
    r"|\d{2}[.-]\d{2}[.-]\d{2}[.-]\d{2}(?:[.-]\d{2})?)(?![\d])"
)
SSN = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
SIN = re.compile(r"(?<![\d-])\d{3}[ -]\d{3}[ -]\d{3}(?![\d-])")
SIN_SSN_CONTEXT = re.compile(
    r"\b(?:ssn|sin|social security|social insurance|ss#|ss #)\s*(?:number|no\.?|#)?\s*:?\s*(?P<num>\d[\d -]{7,10}\d)\b",
    _I,
)
HEALTH_CARD = re.compile(r"(?<![\d-])\d{4}[- ]?\d{3}[- ]?\d{3}(?:[- ]?[A-Za-z]{2})?(?![\w-])")
HEALTH_CARD_CONTEXT = re.compile(r"\b(?:hcn|health\s*card|ohip|health\s*number|version\s*code)\b", _I)
RECORD_CONTEXT = re.compile(
    r"\b(?:mrn|mr#|medical\s+record|acct|account|ref|reference|accession|policy|license|licence|passport|member|"
    r"claim|insurance|invoice|requisition|specimen|encounter|identifier|folio)\s*(?:number|num|no\.?|#|id)?\s*[:#]?\s*"
    r"(?P<id>[A-Za-z]{0,4}\d[A-Za-z0-9-]{2,})"
    r"|\b(?:mr|record|chart|case|unit|hospital|patient|pt|file|visit|order|plan|group|health|id)\s*"
    r"(?:number|num|no\.|#|id)\s*[:#]?\s*(?P<id2>[A-Za-z]{0,4}\d[A-Za-z0-9-]{2,})",
    _I,
)
HASH_ID = re.compile(r"#\s*(?P<id>[A-Za-z]{0,4}\d[A-Za-z0-9-]{1,})")
LONG_NUMBER = re.compile(r"(?<![\d.,/#-])\d{7,}(?![\d.,/])")
STREET = re.compile(
    r"(?<![\w.])(?P<num>\d{1,6}[A-Za-z]?)\s+(?:(?:[NSEW]|north|south|east|west)\.?\s+)?"
    r"(?P<name>(?:[^\W\d_][\w'.-]*\s+){1,4})"
    r"(?P<kind>street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct|crescent|cres|place|pl|"
    r"terrace|ter|circle|cir|parkway|pkwy|highway|hwy|square|sq|trail|trl|row|gate|grove|heights|hts|close|"
    r"path|pike|turnpike|alley|plaza|loop|ridge|walk|crossing|landing|green|park)\b\.?",
    _I,
)
FOREIGN_STREET = re.compile(
    r"\b(?:[A-ZÀ-Þ][^\W\d_]+(?:stra(?:ss|ß)e|str\.|gasse|weg|allee|platz|laan|straat|gracht|vej|gade|gatan|vägen|"
    r"gata|katu|tie|kuja|utca|ulica)|(?:[Rr]ue|Via|Viale|Calle|Avenida|Avda\.|Av\.|Rua|Piazza|Plaza|Carrer)"
    r"(?:\s+[^\W\d_][\w'-]*){1,4})\s+\d{1,5}[a-z]?\b"
)
UNIT = re.compile(r"\b(?:apt|apartment|suite|ste)\.?\s*#?\s*\d+[A-Za-z]?\b", _I)
PO_BOX = re.compile(r"\b(?:p\.?\s?o\.?\s*box|post\s*office\s*box|postbox)\s*#?\s*\d+\b", _I)
CA_POSTAL = re.compile(r"\b[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d\b")
ZIP_PLUS4 = re.compile(r"(?<![\d-])\d{5}-\d{4}(?![\d-])")
_STATE_CODES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|"
    "OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC|ON|QC|BC|AB|MB|SK|NS|NB|NL|PE"
)
STATE_ZIP = re.compile(rf",\s*(?:{_STATE_CODES})\.?\s+(?P<zip>\d{{5}})(?![\d-])")
ZIP_CONTEXT = re.compile(
    r"\b(?:zip|zipcode|zip code|postal code|postcode)\s*(?:is\s*)?:?\s*(?P<zip>(?=[A-Z\d -]*\d)[\dA-Z][\dA-Z -]{1,8}[\dA-Z])\b",
    _I,
)
# whatever follows "my address is" / "lives at" up to the end of the sentence or line
ADDRESS_CONTEXT = re.compile(
    r"\b(?:address(?:\s+is)?|addr|lives\s+at|living\s+at|resides\s+at|reside\s+at)\s*:?\s*(?P<addr>[^\n.!?;]{4,80}?\d[^\n!?;]{0,60}?)(?=\s*(?:[\n!?;]|\.\s|\.$|$))",
    _I,
)
# (the local part starts only where a run of its characters starts: trying every position inside
# "1-1-1-1-..." again would make the search quadratic)
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")

_STREET_BLOCK = STOPWORDS | frozenset("mg mcg cc ml units unit hr hrs min mins x range".split())


def luhn_ok(digits: str) -> bool:
    """The Luhn (mod 10) check used by SINs and payment card numbers."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return total % 10 == 0


class ClinicalNumberRecognizer(RuleRecognizer):
    ENTITIES = ("PHONE", "ID", "HEALTH_CARD", "SIN_SSN", "ADDRESS", "EMAIL")

    def find(self, text: str, nlp_artifacts: NlpArtifacts | None) -> list[Found]:
        found: list[Found] = []
        hcn_context = bool(HEALTH_CARD_CONTEXT.search(text))
        for match in HEALTH_CARD.finditer(text):
            raw = match.group()
            has_version = raw[-1].isalpha()
            grouped = bool(re.fullmatch(r"\d{4}[- ]\d{3}[- ]\d{3}.*", raw))
            if has_version or grouped or hcn_context:
                found.append((match.start(), match.end(), "HEALTH_CARD", 0.9 if hcn_context or has_version else 0.8))
            else:
                found.append((match.start(), match.end(), "ID", 0.6))
        for match in SSN.finditer(text):
            found.append((match.start(), match.end(), "SIN_SSN", 0.85))
        for match in SIN.finditer(text):
            digits = re.sub(r"\D", "", match.group())
            found.append((match.start(), match.end(), "SIN_SSN", 0.9 if luhn_ok(digits) else 0.7))
        for match in SIN_SSN_CONTEXT.finditer(text):
            if len(re.sub(r"\D", "", match.group("num"))) == 9:
                found.append((match.start("num"), match.end("num"), "SIN_SSN", 0.95))
        for match in NANP_PHONE.finditer(text):
            found.append((match.start(), _with_extension(text, match.end()), "PHONE", 0.8))
        for match in LOCAL_PHONE.finditer(text):
            if _local_phone_ok(text, match):
                found.append((match.start(), _with_extension(text, match.end()), "PHONE", 0.7))
        for match in LONE_EXTENSION.finditer(text):
            if not _looks_like_time_or_measure(text, match.end()):
                found.append((match.start(), match.end(), "PHONE", 0.65))
        for match in INTERNATIONAL_PHONE.finditer(text):
            if len(re.sub(r"\D", "", match.group())) >= 7:
                found.append((match.start(), match.end(), "PHONE", 0.65))
        for match in PHONE_CONTEXT.finditer(text):
            number = match.group("num").rstrip(" .-(")
            if _clock_time(text, match.start("num"), number):
                continue  # "call at 1400", "page by 2100": a time
            if len(re.sub(r"\D", "", number)) >= 4 and not _looks_like_time_or_measure(text, match.end("num")):
                start = match.start("num")
                found.append((start, start + len(number), "PHONE", 0.75))
        for match in RECORD_CONTEXT.finditer(text):
            group = "id" if match.group("id") else "id2"
            if _id_like(match.group(group)):
                found.append((match.start(group), match.end(group), "ID", 0.75))
        for match in HASH_ID.finditer(text):
            if _id_like(match.group("id")):
                found.append((match.start("id"), match.end("id"), "ID", 0.7))
        for match in LONG_NUMBER.finditer(text):
            if not _looks_like_time_or_measure(text, match.end()):
                found.append((match.start(), match.end(), "ID", 0.55))
        for match in STREET.finditer(text):
            if self._street_ok(match):
                found.append((match.start(), match.end(), "ADDRESS", 0.8))
        for pattern in (FOREIGN_STREET, UNIT, PO_BOX, CA_POSTAL, ZIP_PLUS4):
            found += [(m.start(), m.end(), "ADDRESS", 0.75) for m in pattern.finditer(text)]
        for pattern in (STATE_ZIP, ZIP_CONTEXT):
            found += [(m.start("zip"), m.end("zip"), "ADDRESS", 0.75) for m in pattern.finditer(text)]
        found += [(m.start("addr"), m.end("addr"), "ADDRESS", 0.7) for m in ADDRESS_CONTEXT.finditer(text)]
        found += _address_blocks(text, found)
        found += [(m.start(), m.end(), "EMAIL", 0.9) for m in EMAIL.finditer(text)]
        return found

    @staticmethod
    def _street_ok(match: re.Match[str]) -> bool:
        words = match.group("name").split()
        if any(w.lower().strip(".") in _STREET_BLOCK for w in words):
            return False
        kind = match.group("kind")
        mixed_case = not match.group().isupper() and not match.group().islower()
        if mixed_case and not all(w[0].isupper() for w in words):
            return False
        # "St", "Dr", "Ct", "Pl" are also sinus tachycardia, doctor, CT scan, platelets: want a capitalised "St"
        ambiguous = {
            "st",
            "dr",
            "ct",
            "pl",
            "park",
            "green",
            "walk",
            "way",
            "row",
            "close",
            "path",
            "gate",
            "loop",
            "ridge",
            "point",
            "landing",
            "crossing",
            "trail",
            "square",
            "sq",
            "circle",
            "cir",
            "place",
        }
        return not (kind.lower() in ambiguous and not mixed_case)


_ADDRESS_LINE = re.compile(
    r"[ \t]*(?:[^\W\d_][\w'.-]*|\d{3,6}(?:-\d{3,4})?)(?:[ \t,]+(?:[^\W\d_][\w'.-]*|\d{3,6}))*[ \t,]*"
)


def _address_blocks(text: str, found: list[tuple[int, int, str, float]]) -> list[tuple[int, int, str, float]]:
    """The short lines under a street address (town, region, postcode): "Riisa", "Estonia 62488".

    Every search for a line break is bounded (a line that runs on is no such line), so many
    addresses in a text without line breaks cost no more than a few characters each."""
    out: list[tuple[int, int, str, float]] = []
    for _, end, kind, _ in found:
        if kind != "ADDRESS":
            continue
        line_end = text.find("\n", end, end + _REST_OF_LINE + 1)
        if line_end < 0:
            continue  # the address line goes on (or the text ends)
        if text[end:line_end].strip(" ,.") and line_end - end > _REST_OF_LINE:
            continue
        position = line_end + 1
        for _line in range(4):
            line, nxt = _short_line(text, position)
            if line is None:
                break
            if not line.strip():
                if nxt < 0 or _line:
                    break
                position = nxt + 1
                continue
            if not _ADDRESS_LINE.fullmatch(line):
                break
            out.append((position + len(line) - len(line.lstrip()), position + len(line.rstrip()), "ADDRESS", 0.6))
            if nxt < 0:
                break
            position = nxt + 1
    return out


_REST_OF_LINE = 30  # characters after an address before its line may end
_SHORT_LINE = 40  # the longest line under an address (town, region, postcode)


def _short_line(text: str, position: int) -> tuple[str | None, int]:
    """(the line at ``position``, the index of its line break or -1 at the end of the text);
    ``None`` for a line longer than ``_SHORT_LINE``."""
    nxt = text.find("\n", position, position + _SHORT_LINE + 1)
    if nxt >= 0:
        return text[position:nxt], nxt
    if len(text) - position > _SHORT_LINE:
        return None, -1
    return text[position:], -1


def _with_extension(text: str, end: int) -> int:
    match = EXTENSION.match(text, end, end + 16)
    return match.end() if match else end


def _local_phone_ok(text: str, match: re.Match[str]) -> bool:
    """'555-1234' is a phone number unless it is a range: of volumes or times ('500-1000 cc',
    '700-1900': the second number round), or of readings with a unit after it."""
    if match.group().endswith("00") or _looks_like_time_or_measure(text, match.end()):
        return False
    return not re.search(r"(?:\d|[<>~=])\s*$", text[max(0, match.start() - 3) : match.start()])


def _id_like(value: str) -> bool:
    """'8336652', 'rg17', 'MRN-20391' — not a range ('63-70') or a catheter size ('20fr', '20x2')."""
    digits = sum(c.isdigit() for c in value)
    if len(value) < 4 or digits < 2 or re.fullmatch(r"\d{1,3}-\d{1,3}", value):
        return False
    if value[0].isdigit():
        return digits >= 4
    return True


def _clock_time(text: str, start: int, number: str) -> bool:
    """Four digits that read as a clock (HHMM) right after a word of time: 'at 1400', '@ 2100'."""
    if not re.fullmatch(r"[0-2]\d[0-5]\d", number) or int(number[:2]) > 23:
        return False
    return bool(
        re.search(r"(?:\b(?:at|by|until|till|after|before|around|approx)|@)\s*$", text[max(0, start - 10) : start], _I)
    )


def _looks_like_time_or_measure(text: str, end: int) -> bool:
    return bool(
        re.match(r"\s*(?:cc|ml|mg|mcg|units?|u\b|kcal|cal|%|mmhg|hrs?\b|am\b|pm\b|x\b)", text[end : end + 8], _I)
    )
