"""Chart writes named in a message: record a vital, add an allergy, prescribe, order, save a note.

Each write owns a span of the message (its verb to the next clause boundary) so the words inside it —
"order an HbA1c", "record BP 132/84" — are its object and not questions about the chart. Words that only
look like a write are left alone: "should I start metformin?" is a question, "the new Rx" a noun.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from curbside.agent import slots as s
from curbside.agent import triage_words as w

__all__ = ["Write", "find_writes", "referral_service"]

_VERB = re.compile(
    r"\b(?:(?<!medical )(?<!health )record(?!s)|document|log|enter|put in|add|save|write|draft|file|create"
    r"|(?<!the )(?<!her )(?<!his )(?<!their )chart(?! for)"
    r"|prescribe|(?<!new )(?<!the )(?<!current )(?<!her )(?<!his )rx|start|begin|initiate|commence|give"
    r"|put (?:her|him|them) on|(?<!in )order|request|arrange|refer|recheck|redraw|send (?:off|for)"
    r"|replace|replete|supplement|switch|change|^note(?=\s*:))\b"
)
# where a write's object ends: the next subtask
_BOUNDARY = re.compile(
    r",?\s*\band then\b|,?\s*\bthen\b|,?\s*\balso\b|;|[.?!](?=\s|$)|,\s*and\b|,?\s*(?=if\b)"
    r"|\s+and\s+(?=(?:then|check|order|record|prescribe|start|refer|book|save|add|find|show|get|calculate|list|what"
    r"|is|are|summari[sz]e|draft|write|give|recheck|also|if|pull|look|document)\b)"
)
# a decision asked about, not made: "should I start …", "is it safe to give …"; or one asked about the past:
# "did they record her temp?"
_ASKED = re.compile(
    r"(?:should (?:i|we)|can (?:i|we)|could (?:i|we)|would you|ok to|okay to|safe to|whether to|reasonable to"
    r"|do i|need to|want to|did|has|have|had|who|was|were|why)\s+(?:\w+\s+)?$"
)
# an object that is only a pronoun or politeness: the thing written came before the verb
_NOTE_END = re.compile(r",?\s*\b(?:and )?then\b|[;.]\s*(?:also|and|then)\b")
# "add it to her vitals", "chart them", "put that in his flowsheet": the destination is not the object either
_PRONOUN_OBJECT = re.compile(
    r"^(?:\s*(?:it|that|this|them|both|all|these|those|please|pls|plz|now|thanks|thx|ty|for me|in|into|to|on|under"
    r"|her|his|their|the|pt'?s|patient'?s|chart|vitals?|flowsheet|flow sheet|record|file|notes?|ehr|emr|obs)\b)*"
    r"\s*[.!?]*\s*$"
)
# a verb's word used as a noun: 'on recheck', 'the order', 'her log' (after an article, a possessive or a
# preposition); 'chart' has its own guards in _VERB
_AS_NOUN = re.compile(r"\b(?:a|an|the|this|that|her|his|their|my|your|our|on|at|after|before|per|from|by|of|in)\s+$")
_NOTE = re.compile(r"\bnote\b|^\s*:")
_IMAGING = re.compile(r"\b(?:x-?rays?|cxr|ct|mri|ultrasound|u/s|echo\w*|scan|mammogram|dexa|imaging|doppler)\b")
_REFERRAL = re.compile(r"\brefer\w*\b|\bconsult\b")
_LAB_ORDER = re.compile(r"\b(?:draw|bloodwork|blood work|labs?|level|panel|recheck|redraw|repeat)\b")
_REACTION = re.compile(
    r"\b(hives|rash|anaphylaxis|angioedema|swelling|itch\w*|nausea|vomiting|diarrh\w*|urticaria|wheez\w*"
    r"|sob|shortness of breath|stevens-johnson|sjs|throat swelling|gi upset)\b"
)
_SUBSTANCE_BEFORE = re.compile(r"(?:a |an )?([a-z][a-z-]*(?: [a-z][a-z-]*)?) allergy")
_SUBSTANCE_AFTER = re.compile(r"\ballerg(?:ic|y) to ([a-z][a-z-]*(?: [a-z][a-z-]*)?)")
_DURATION = re.compile(r"\b(?:for|x|×)\s*(\d+)\s*(days?|d|weeks?|wks?|months?)\b")
_DAYS = {"d": 1, "w": 7, "m": 30}
# words -> the LOINC document type ehr.save_clinical_note takes (its NOTE_TYPES)
_NOTE_TYPES = {
    "progress": "11506-3", "consult": "11488-4", "consultation": "11488-4", "referral": "57133-1",
    "discharge": "18842-5", "procedure": "28570-0", "history and physical": "34117-2", "h&p": "34117-2",
}  # fmt: skip
_ARTICLES = re.compile(r"^(?:(?:her|him|his|them|the|a|an|new|repeat)\s+)+")
_OBJECT_END = re.compile(r"(?:^|\s+)(?:for|in|at|on|by|to be|within|tomorrow|today|next|stat|asap|now)\b.*$")


@dataclass
class Write:
    slots: dict[str, Any]
    start: int
    end: int
    text: str = ""
    items: list[dict[str, Any]] = field(default_factory=list)


def _span_end(low: str, start: int, note: bool) -> int:
    if note:  # a note's text runs on, commas and sentences and all, until a new subtask is announced
        found = _NOTE_END.search(low, start)
        return found.start() if found else len(low)
    found = _BOUNDARY.search(low, start)
    return found.start() if found else len(low)


def find_writes(text: s.Text) -> list[Write]:
    """The writes a message asks for, in order; one per vital recorded and per item ordered."""
    low = text.low
    writes: list[Write] = []
    taken_until = -1
    for verb in _VERB.finditer(low):
        if verb.start() < taken_until or _ASKED.search(low[: verb.start()]):
            continue
        if _AS_NOUN.search(low[: verb.start()]) and not verb[0].startswith(("chart", "put ", "send ")):
            continue
        found = _classify(text, verb)
        if found:
            writes += found
            taken_until = max(x.end for x in found)
    if not writes:
        writes = _recorded_anywhere(text) or _referral_named(text)
    return _fill_by_unit(text, writes)


def _fill_by_unit(text: s.Text, writes: list[Write]) -> list[Write]:
    """'He's 198 pounds, chart that weight': a vital named without a reading takes the one reading in the
    message whose unit names that vital."""
    for write in writes:
        slots = write.slots
        if slots.get("write") != "record_vital" or "value" in slots or "systolic" in slots:
            continue
        same = [r for r in s.readings_by_unit(text) if r["kind"] == slots.get("kind")]
        if len(same) == 1:
            write.slots = {**slots, **same[0]}
    return writes


# a vital with its reading, and a word telling it to go in the chart, in any order: "Sat 93% on room air,
# add it to his flowsheet", "weighs 187 lbs today, add it to her vitals", "put a weight of 210 pounds in her
# chart", "hr 110. chart it pls" — a write verb and a value, not a question ("did they record her temp?")
_RECORD_WORD = re.compile(
    r"\b(?:record|document|log|enter|put|add|save|chart|file|note|jot|input|update)\b(?! (?:for|of)\b)"
)
_NOT_TOLD = re.compile(
    r"(?:\b(?:did|was|were|been|has|have|had|who|what|when|why|whether|how)|\b(?:should|could|can|may|must) (?:i|we))"
    r"\s+(?:\w+\s+)?$"
)


def _recorded_anywhere(text: s.Text) -> list[Write]:
    low = text.low
    told = any(
        not _NOT_TOLD.search(low[: m.start()]) and not _AS_NOUN.search(low[: m.start()])
        for m in _RECORD_WORD.finditer(low)
    )
    if not told:
        return []
    readings = [r for m in s.vitals_in(text) if (r := s.vital_reading(text, m))] or s.readings_by_unit(text)
    return [Write({"write": "record_vital", **r}, 0, len(low), text.orig) for r in readings]


# a referral asked for by its noun or in plain words: "Physio referral for her knee pls", "send a referral",
# "get him in with psychiatry", "send her to the skin clinic" — not a question about one ("what does a sleep
# clinic referral involve?") nor a document ("the referral letter template")
_REFERRAL_ASKED = re.compile(
    r"\breferrals?\b(?! (?:letter|form|template|note|criteria|guideline|process|pathway|wait|times?)s?\b)"
    r"|\bget (?:her|him|them|the patient|this patient) (?:in (?:with|to)|to see|seen by|an appointment with)\b"
    r"|\bsend (?:her|him|them|the patient|this patient) (?:on )?to\b|\b(?:needs|need) to see (?:a|an|the)\b"
    r"|\b(?:her|him|them) (?:seen|assessed|evaluated|reviewed) by\b|\b(?:like|want) (?:her|him|them) to see\b"
)
_QUESTION_START = re.compile(
    r"^(?:what|how|why|when|where|which|who|does|do|did|is|are|was|were|should|would it|has|have|explain|tell me)\b"
)


def _referral_named(text: s.Text) -> list[Write]:
    low = text.low
    found = _REFERRAL_ASKED.search(low)
    if found is None or _QUESTION_START.match(low) or _NOT_TOLD.search(low[: found.start()]):
        return []
    slots = {"write": "order_service", "kind": "referral"}
    if service := referral_service(text.orig):
        slots["display"] = service
    return [Write(slots, 0, len(low), text.orig)]


_SERVICE_BEFORE = re.compile(r"(?:\b(?:an?|the)\s+)?([a-z][a-z ]{2,40}?)\s+referral\b")
_SERVICE_TO = re.compile(
    r"\b(?:to|with|see|by) (?:the |a |an )?([a-z][a-z ]{2,40}?)(?=[,(.;:?!-]| for\b| re\b| about\b| because\b|$)"
)
_NOT_SERVICE = re.compile(
    r"^(?:(?:please|pls|put|in|an?|the|place|make|send|order|do|set up|can you|could you|new|urgent|see|to)\s+)+"
)
# a service named as such ('Sleep clinic', 'endocrinology', 'the hypertension clinic') is kept as written
_FORMAL_SERVICE = re.compile(
    r"(?:clinic|service|department|team|program|programme|centre|center|unit|lab|ology|iatry|ics|surgery|medicine"
    r"|care)$"
)


def referral_service(words: str) -> str | None:
    """The service a referral is to: as written when it names a service ('Sleep clinic', 'endocrinology'),
    else a specialty named in plain words or short ('a heart doctor', 'endo', 'the bone and joint people')
    by its name, else the words before 'referral' or after 'to'."""
    low = w.normalise(words)
    orig = words if len(words) == len(low) else low
    for pattern in (_SERVICE_BEFORE, _SERVICE_TO):
        for found in pattern.finditer(low):
            phrase = found[1]
            cut = len(phrase) - len(_NOT_SERVICE.sub("", phrase))
            written = orig[found.start(1) + cut : found.end(1)].strip(" ,-")
            if not written or re.fullmatch(r"(?:her|him|them|a|an|the|you|me|us)(?: \w+)?", written.lower()):
                continue
            if _FORMAL_SERVICE.search(written.lower()):
                return written
            named = next((name for name, p in w.SPECIALTIES if p.search(written.lower())), None)
            if named:
                return named
    return next((name for name, p in w.SPECIALTIES if p.search(low)), None)


def _classify(text: s.Text, verb: re.Match[str]) -> list[Write]:
    low = text.low
    word = verb[0]
    is_note = word == "note" or bool(_NOTE.search(low[verb.end() : verb.end() + 40])) and word in (
        "save", "write", "draft", "document", "add", "file", "create", "put in", "record", "log", "enter",
    )  # fmt: skip
    end = _span_end(low, verb.end(), is_note)
    start = verb.start()
    obj = low[verb.end() : end]
    if is_note:
        return [Write(_note_slots(text.orig[verb.start() : end]), start, end, text.orig[start:end])]
    if re.match(r"^\s*\?", low[verb.end() :]):
        return []  # "K 3.1 - replace?" asks; it does not order
    if word in ("replace", "replete", "supplement"):
        # "replace if low": what and how much is the clinician's (or a protocol's) to say; the planner asks
        return [Write({"write": "prescribe_medication", "reason": "replacement"}, start, end, text.orig[start:end])]
    if word in ("switch", "change"):
        # "switch metformin to linagliptin 5 mg daily": the new drug is prescribed (stopping the old one is
        # the clinician's: no tool changes an order)
        drugs = [m for m in s.drugs_in(text) if verb.end() <= m.start < end]
        if len(drugs) >= 2 and re.search(r"\bto\b", low[drugs[0].end : drugs[1].start]):
            slots = _prescription_slots(low[drugs[1].start : end], drugs[1].name)
            return [Write({**slots, "note": f"replaces {drugs[0].name}"}, start, end, text.orig[start:end])]
        return []
    if word in ("record", "document", "log", "enter", "put in", "add", "chart") or word.startswith("chart"):
        if _PRONOUN_OBJECT.match(obj):
            start = _clause_start(low, start)  # "… 38.4 just now, please record" / "allergic to sulfa. add it"
            obj = low[start : verb.start()] + obj
        if w.ALLERGY.search(obj):
            return [Write(_allergy_slots(text, obj, start, end), start, end, text.orig[start:end])]
        vitals = _vital_values(text, start, end)
        if vitals:
            return [Write(v, start, end, text.orig[start:end]) for v in vitals]
        if re.match(r"^\s*(?:that|:)", obj):  # "record that she declined the flu vaccine": a note
            end = _span_end(low, verb.end(), True)
            return [Write(_note_slots(text.orig[verb.start() : end]), start, end, text.orig[start:end])]
        return []
    drugs = [m for m in s.drugs_in(text) if verb.end() <= m.start < end]
    if word in ("prescribe", "rx", "start", "begin", "initiate", "commence", "give", "order") or word.startswith(
        "put "
    ):
        # an imperative ("start lisinopril", "ok, give 1 g ceftriaxone") is an order even without a dose
        imperative = re.fullmatch(r"(?:.*[,:;.!?]\s*)?(?:(?:please|ok|okay|now|then|and|so)\s+)*", low[: verb.start()])
        if drugs and drugs[0].start - verb.end() <= 30:
            dosed = s.dose(obj) is not None or s.frequency(obj) is not None
            if dosed or word in ("prescribe", "rx") or imperative:
                return [Write(_prescription_slots(obj, drugs[0].name), start, end, text.orig[start:end])]
        if word in ("prescribe", "rx") and (named := re.match(r"^\s*:?\s*([a-z][a-z-]+)", obj)):
            return [Write(_prescription_slots(obj, named[1]), start, end, text.orig[start:end])]  # a drug we lack
        if word != "order":
            return []
    if word in ("order", "request", "arrange", "refer", "recheck", "redraw", "send off", "send for"):
        items = _order_items(text, verb.end(), end) if word != "refer" else [obj]
        return [Write(_order_slots(text, word, item), start, end, text.orig[start:end]) for item in items or [obj]]
    return []


def _order_items(text: s.Text, start: int, end: int) -> list[str]:
    """The things one order verb asks for: 'a CBC and a lipid panel', 'CBC, BMP and TSH' are several;
    'CT chest and abdomen' is one (an 'and' splits only before an article, a lab or an acronym)."""
    low, orig = text.low, text.orig
    cuts = [start]
    for found in re.finditer(r",\s*(?:and\s+)?|\s+and\s+", low[start:end]):
        after = start + found.end()
        nxt = orig[after:end]
        splits = found[0].strip().startswith(",") or re.match(r"(?:a|an|the|another|some)\b|[A-Z0-9]{2,}\b", nxt)
        if splits or any(m.start == after for m in s.labs_in(text)):
            cuts += [start + found.start(), after]
    cuts.append(end)
    return [low[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=False) if low[a:b].strip()]


def _clause_start(low: str, verb_start: int) -> int:
    """Where a write's object starts when it comes before its verb: the clause holding the verb, or the one
    before when the verb's own clause holds nothing else ("allergic to sulfa - rash. please add it")."""
    ends = [0] + [m.end() for m in _BOUNDARY.finditer(low, 0, verb_start)]
    for clause_start in reversed(ends):
        if re.sub(r"\bplease\b|[\s,.;-]", "", low[clause_start:verb_start]):
            return clause_start
    return 0


def _vital_values(text: s.Text, start: int, end: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for mention in s.vitals_in(text):
        if not start <= mention.start < end:
            continue
        reading = s.vital_reading(text, mention, end)
        # a vital named without a reading still asks for one ("record her BP"): the planner asks for the value
        found.append({"write": "record_vital", **(reading or {"kind": s.VITAL_KIND.get(mention.name, mention.name)})})
    return found


_NOT_SUBSTANCE = frozenset("a an new the her his their to list for known severe mild an add of".split())


def _allergy_slots(text: s.Text, obj: str, start: int, end: int) -> dict[str, Any]:
    slots: dict[str, Any] = {"write": "add_allergy"}
    drugs = [m.name for m in s.drugs_in(text) if start <= m.start < end]
    substance = _SUBSTANCE_AFTER.search(obj) or _SUBSTANCE_BEFORE.search(obj)
    if drugs:
        slots["substance"] = drugs[0]
    elif substance:
        words = [x for x in substance[1].split() if x not in _NOT_SUBSTANCE]
        if words:
            slots["substance"] = " ".join(words)
    if reaction := _REACTION.search(obj):
        slots["reaction"] = reaction[1]
    return slots


def _prescription_slots(obj: str, drug: str) -> dict[str, Any]:
    """In ehr.prescribe_medication's argument names; its RxNorm code is the planner's to find."""
    slots: dict[str, Any] = {"write": "prescribe_medication", "medication": drug}
    if found := s.dose(obj):
        slots["dose"], slots["dose_unit"] = found
    elif bare := re.search(rf"\b{re.escape(drug)}\s+(\d+(?:\.\d+)?)\b(?!\s*(?:days?|weeks?|x)\b)", obj):
        slots["dose"] = float(bare[1])  # "amox 500 tid": the unit is for the clinician to confirm
    if spelled := s.route(obj):
        slots["route"] = spelled
    frequency = s.frequency(obj)
    if frequency and frequency != "as needed":
        slots["frequency"] = frequency
    if s.as_needed(obj):
        slots["as_needed"] = True
    if found_duration := _DURATION.search(obj):
        slots["duration_days"] = int(found_duration[1]) * _DAYS[found_duration[2][0]]
    return slots


def _order_slots(text: s.Text, verb: str, item: str) -> dict[str, Any]:
    """In ehr.order_service's argument names: kind, display (the words), priority; a lab the chart's
    vocabulary knows also gets its LOINC code (lab_codes' first code for the name)."""
    slots: dict[str, Any] = {"write": "order_service"}
    labs = [m for m in s.labs_in(s.Text(item, item)) if m.known or m.name in w.EXTRA_LABS.values()]
    if verb == "refer" or _REFERRAL.search(item):
        slots["kind"] = "referral"
    elif _IMAGING.search(item):
        slots["kind"] = "imaging"
    elif labs or _LAB_ORDER.search(item) or verb in ("recheck", "redraw") or s.labs_in(s.Text(item, item)):
        slots["kind"] = "lab"
    else:
        slots["kind"] = "procedure"
    if labs:
        slots["display"] = labs[0].name
        slots.update(s.lab_code(labs[0].name))
    else:
        service = _OBJECT_END.sub("", _ARTICLES.sub("", item.strip(" ,.")))
        if slots["kind"] == "referral":
            to = re.search(r"\bto (?:the )?([a-z][a-z -]+?)(?: clinic| service)?(?: for\b|$)", item)
            service = to[1] if to else service.replace(" referral", "")
            service = referral_service(text.orig[text.low.index(item) :]) or service if item in text.low else service
        if service:
            slots["display"] = service.strip()
    if found := re.search(r"\b(stat|urgent|asap)\b", item):
        slots["priority"] = found[1]
    return slots


def _note_slots(span: str) -> dict[str, Any]:
    """In ehr.save_clinical_note's argument names: the text after a colon (or 'that …'), its LOINC type."""
    slots: dict[str, Any] = {"write": "save_clinical_note"}
    for words, code in _NOTE_TYPES.items():
        if re.search(rf"(?<![\w&]){re.escape(words)} note\b", span.lower()):
            slots["note_type"] = code
            break
    if ":" in span:
        slots["text"] = span.split(":", 1)[1].strip()
    elif found := re.match(r"^\s*\w+\s+that\s+(.+)$", span, re.IGNORECASE | re.DOTALL):
        slots["text"] = found[1].strip()
    return slots
