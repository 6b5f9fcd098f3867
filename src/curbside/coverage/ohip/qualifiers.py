"""A title's qualifier that the question contradicts rules its code out: '- female' for a man, 'unilateral' for both.

The Schedule lists one service under twin titles told apart by one word of a pair: "K018 Sexual assault
examination - female" and "K021 … - male" (A52), "G536 Sclerotherapy … unilateral" beside bilateral codes,
"H002 Low birth weight baby care (uncomplicated) - initial visit" and "H003 … - subsequent visit" (A11), "K682
Opioid Agonist Maintenance Program monthly management fee - intensive" and "K683 … - maintenance" (A59).
The question's words say which side it is ("on a woman", "both legs", "my first visit", "stable, on
maintenance"); the twin whose title names the other side is not the service asked, and stating it beside the
right one reads as a second answer. A stage or intensity is read in the title's tail only, the words after its
last dash or colon, where twins differ: "maintenance" in K682's program name is not its qualifier. A side a
clerk says loosely ('first', 'clinic') rules a code out only beside a twin that names the side said.

A service the question denies by name ('established pt, specific assessment (not a new consult)') is not the
answer either: codes titled as it (A605 "Consultation", A675 "Limited consultation") are left out.
"""

from __future__ import annotations

import re

__all__ = ["by_negated_service", "by_qualifier", "contradicted", "named_sides", "said_sides", "tail"]

# side -> (how a title says it, how a question says it); each pair's sides are opposites
_SIDES: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "female": (re.compile(r"\bfemales?\b", re.I), re.compile(r"\b(?:wom[ae]n|females?|girls?|lady|ladies)\b", re.I)),
    "male": (re.compile(r"\bmales?\b", re.I), re.compile(r"\b(?:m[ae]n|males?|boys?|gentlem[ae]n)\b", re.I)),
    "unilateral": (
        re.compile(r"\bunilateral\b", re.I),
        re.compile(r"\bunilateral\w*|\bone (?:side|eye|ear|leg|arm|breast|knee|hip|foot)\b", re.I),
    ),
    "bilateral": (
        re.compile(r"\bbilateral\b", re.I),
        re.compile(r"\bbilateral\w*|\bboth (?:sides|eyes|ears|legs|arms|breasts|knees|hips|feet)\b", re.I),
    ),
    # a service's stage: the Schedule's 'initial' / 'initiation', as a clerk says it ('first', 'new', 'starting')
    "initial": (
        re.compile(r"\binitial\b|\binitiation\b", re.I),
        re.compile(r"\b(?:first|initial\w*|initiat\w*|new|start\w*|begin\w*)\b", re.I),
    ),
    "subsequent": (
        re.compile(r"\bsubsequent\b|\bfollow[- ]?up\b|\brenewal\b|\brepeat\b", re.I),
        re.compile(
            r"\b(?:subsequent|follow[- ]?ups?|following up|return\w*|again|repeat\w*|renew\w*|established|ongoing)\b",
            re.I,
        ),
    ),
    "intensive": (re.compile(r"\bintensive\b", re.I), re.compile(r"\bintensive\w*|\bunstable\b", re.I)),
    "maintenance": (re.compile(r"\bmaintenance\b", re.I), re.compile(r"\bmaintenance\b|\bstable\b", re.I)),
    # an injection given as the visit's sole reason (G212 "Hyposensitisation - when sole reason for visit") or
    # beside a visit for something else (G372 "… with visit (each injection)")
    "sole reason": (
        re.compile(r"\bsole reason\b", re.I),
        re.compile(r"\bsole reason\b|\bnothing else\b", re.I),
    ),
    "with visit": (
        re.compile(r"\bwith visit\b", re.I),
        re.compile(
            r"\bwith (?:a |the )?visit\b|\b(?:did|plus|and|also) (?:a |an )?(?:visit|assessment)\b|"
            r"\bvisit for (?:something|anything) else\b",
            re.I,
        ),
    ),
    # the two ends of a physician-to-physician consultation (K730 "… - Referring physician", K731 "… - Consultant
    # physician", A40): the asker's own role, not the other doctor named ('telephone advice to a referring doctor')
    "consultant": (
        re.compile(r"\bconsultant physician\b", re.I),
        re.compile(
            r"\b(?:i'?m|i am|as) (?:the |a )?(?:consultant|specialist)\b|"
            r"\b(?:giving|gave|give|providing|provided) (?:\w+ )?(?:advice|recs|recommendations|an? opinion)\b|"
            r"\b(?:phoned|called|paged|rang) me (?:for|about)\b|\banswering (?:the |their )?e-?consult",
            re.I,
        ),
    ),
    "referring": (
        re.compile(r"\breferring physician\b", re.I),
        re.compile(
            r"\b(?:i'?m|i am|as) (?:the |a )?referring\b|"
            r"\b(?:i|we) (?:called|phoned|paged|rang|contacted) (?:the |a |an )?(?:specialist|consultant|criticall)\b|"
            r"\bto get (?:\w+ )?(?:advice|an? opinion)\b",
            re.I,
        ),
    ),
    "in-patient": (
        re.compile(r"\bin-?patients?\b", re.I),
        re.compile(r"\bin-?patients?\b|\bin-?pts?\b|\badmitted\b|\bon the ward\b", re.I),
    ),
    "out-patient": (
        re.compile(r"\bout-?patients?\b", re.I),
        re.compile(r"\bout-?patients?\b|\bout-?pts?\b|\boffice\b(?! hours)|\bclinic\b", re.I),
    ),
}
_OPPOSITE = {
    "female": "male",
    "male": "female",
    "unilateral": "bilateral",
    "bilateral": "unilateral",
    "initial": "subsequent",
    "subsequent": "initial",
    "intensive": "maintenance",
    "maintenance": "intensive",
    "in-patient": "out-patient",
    "out-patient": "in-patient",
    "consultant": "referring",
    "referring": "consultant",
    "sole reason": "with visit",
    "with visit": "sole reason",
}
# sides read in a title's tail only: twins share the rest, and their program or heading may hold either word
_IN_TAIL = frozenset({"initial", "subsequent", "intensive", "maintenance"})
# sides a clerk's words say loosely ('first', 'clinic'): they rule a code out only for a twin naming the side said
_TWINNED = _IN_TAIL | {"in-patient", "out-patient"}

# what the question denies is not said: 'not a new consult' says neither 'new' nor that it is a consultation
_DENIAL = re.compile(
    r"\b(?:not|no|non|never|isn't|wasn't|without)\b(?:[\s-]+(?:a|an|the|new|formal|full|real))*(?:[\s-]+([a-z][\w-]*))?",
    re.I,
)
_AFTER_DASH = re.compile(r"\s[-–]\s(?!.*\s[-–]\s)(.*)$", re.S)
_AFTER_COLON = re.compile(r":\s(?!.*:\s)(.*)$", re.S)


def tail(title: str) -> str:
    """The words after a title's last dash (or, with none, its last colon): where twin titles differ."""
    found = _AFTER_DASH.search(title) or _AFTER_COLON.search(title)
    return found.group(1) if found else ""


def said_sides(question: str) -> set[str]:
    """The sides the question says, less those it denies ('not a new consult' does not say 'initial')."""
    plain = _DENIAL.sub(" ", question)
    return {side for side, (_, in_question) in _SIDES.items() if in_question.search(plain)}


def contradicted(said: set[str]) -> set[str]:
    """The sides opposite those said, when the question does not say both."""
    return {_OPPOSITE[side] for side in said if _OPPOSITE[side] not in said}


def named_sides(title: str) -> set[str]:
    """The sides a title names: stages and intensities in its tail, the others anywhere."""
    end = tail(title)
    return {side for side, (in_title, _) in _SIDES.items() if in_title.search(end if side in _IN_TAIL else title)}


def by_qualifier(codes: list[str], question: str | None, titles: dict[str, str]) -> list[str]:
    """``codes`` without those whose title names one side of a pair when the question names only the other (when
    any code is left)."""
    if not question or not codes:
        return codes
    said = said_sides(question)
    against = contradicted(said)
    if not against:
        return codes

    named = {code: named_sides(titles.get(code, "")) for code in codes}
    beside = set().union(*named.values()) & said  # the sides said that some code's title names

    def ruled_out(code: str) -> bool:
        sides = named[code] & against
        if not sides or named[code] & said:
            return False
        # a loosely said side ('first', 'clinic') rules a code out only beside a twin naming the side said
        return any(side not in _TWINNED or _OPPOSITE[side] in beside for side in sides)

    kept = [code for code in codes if not ruled_out(code)]
    return kept or codes


# the services a question denies by name ('not a new consult', 'no consultation'), and how a title names them
_DENIED_SERVICES = {
    "consultation": (re.compile(r"^consult", re.I), re.compile(r"\bconsultations?\b", re.I)),
}


def by_negated_service(codes: list[str], question: str | None, titles: dict[str, str]) -> list[str]:
    """``codes`` without those titled as a service the question denies ('established pt back, specific
    assessment (not a new consult)': A603, not A605 Consultation or A675 Limited consultation), when any is left."""
    if not question or not codes:
        return codes
    denied = {
        service
        for denial in _DENIAL.finditer(question)
        if denial.group(1)
        for service, (in_question, _) in _DENIED_SERVICES.items()
        if in_question.match(denial.group(1))
    }
    if not denied:
        return codes
    kept = [c for c in codes if not any(_DENIED_SERVICES[s][1].search(titles.get(c, "")) for s in denied)]
    return kept or codes
