"""The clinical word for a symptom a clinician writes in the patient's words.

"pt on trintellix complaining of itchy skin - listed side effect?" is answered by the monograph's "Other: …,
pruritus", and "ankle swelling after starting lyrica" by "peripheral edema": the question and the answer share no
word. Each entry pairs the everyday phrasing with the term drug monographs and guidelines file it under (the lay
names are MedlinePlus's for these adverse effects: "itching" for pruritus, "pins and needles" for paresthesia,
"swelling of the face, lips, tongue or throat" for angioedema). It is a vocabulary of symptoms, not of questions:
no entry names a drug or a document.
"""

from __future__ import annotations

import re

__all__ = ["clinical_words"]

_SWELLING = r"swell\w*|swollen|puffy"
_LAY_SYMPTOMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), words)
    for pattern, words in (
        (r"\bitch(?:y|ing|iness|es)?\b", "pruritus"),
        (r"\bpins and needles\b|\btingl\w*", "paresthesia"),
        (
            rf"\b(?:lips?|face|facial|tongue|throat|eyelids?)\b[^.?!]{{0,20}}\b(?:{_SWELLING})\b"
            rf"|\b(?:{_SWELLING})\b[^.?!]{{0,20}}\b(?:lips?|face|tongue|throat|eyelids?)\b",
            "angioedema",
        ),
        (
            rf"\b(?:ankles?|legs?|feet|foot)\b[^.?!]{{0,20}}\b(?:{_SWELLING})\b"
            rf"|\b(?:{_SWELLING})\b[^.?!]{{0,20}}\b(?:ankles?|legs?|feet)\b",
            "peripheral edema",
        ),
        (
            r"\b(?:light-?headed\w*|dizz\w*|faint\w*)\b[^.?!]{0,30}\b(?:stand\w*|gets? up|getting up)\b"
            r"|\b(?:stand\w*|gets? up|getting up)\b[^.?!]{0,30}\b(?:light-?headed\w*|dizz\w*|faint\w*)",
            "orthostatic hypotension",
        ),
        (r"\b(?:can'?t|cannot|trouble|barely|not|hard to|difficulty) (?:get to )?sleep\w*|\bsleepless\w*", "insomnia"),
        (r"\b(?:sleepy|drowsy|drowsiness)\b", "somnolence sedation"),
        (r"\bhair (?:loss|falling out|thinning)\b|\blosing (?:(?:her|his|their) )?hair\b", "alopecia"),
        (
            r"\b(?:urine|urinary) stream\b|\b(?:hard|trouble|difficult\w*|slow) (?:to )?(?:pee|urinat\w*|void\w*)\b"
            r"|\bhesitan\w* (?:stream|urinat\w*|void\w*)|\bweak stream\b|\b(?:trouble|difficulty|hard|not fully) emptying\b",
            "urinary hesitancy retention",
        ),
        (r"\b(?:racing|fast|pounding) heart\w*|\bheart (?:is )?(?:racing|pounding)\b", "tachycardia palpitations"),
        (r"\blow (?:sodium|na)\b", "hyponatremia"),
        (r"\bcan'?t sit still\b|\binner restlessness\b|\bjittery\b", "akathisia restlessness"),
        (r"\b(?:teeth|tooth) grinding\b|\bgrind\w* (?:(?:his|her|their) )?teeth\b|\bjaw clench\w*", "bruxism"),
        (r"\bringing in (?:(?:the|his|her|their) )?ears?\b", "tinnitus"),
        (r"\bnose ?bleeds?\b", "epistaxis"),
        (r"\bbruis\w*|\bbleeds? easily\b", "bleeding"),
        (r"\bsweat\w*", "sweating hyperhidrosis"),
        (r"\bshak(?:y|ing|es)\b|\bthe shakes\b", "tremor"),
        (r"\bblurry\b", "blurred vision"),
        (
            r"\bforgetful\w*|\bmemory (?:loss|problems?|issues?|lapses?|trouble)\b|\btrouble remembering\b",
            "memory impairment",
        ),
        (r"\bunsteady\b|\bwobbly\b|\boff balance\b|\b(?:balance|coordination) (?:problems?|issues?)\b", "ataxia"),
        # a blood pressure read out: 'high blood pressure' is MedlinePlus's name for hypertension
        (
            r"\bhigh (?:blood pressure|bp)\b|\b(?:bp|blood pressure)\s*(?:of|is|was|=|:)?\s*(?:1[4-9]\d|2\d\d)\s*/\s*\d{2,3}\b",
            "hypertension",
        ),
        (r"\bdouble vision\b|\bseeing double\b", "diplopia"),
        (
            r"\b(?:low|no|decreased|lost) (?:libido|sex drive)\b|\b(?:sexual|sex) (?:problems?|issues?)\b"
            r"|\berectile\b|\banorgasmia\b|\bcan'?t (?:climax|orgasm)\b",
            "sexual dysfunction",
        ),
        (r"\b(?:gain(?:ed|ing)?|put(?:ting)? on) weight\b", "weight gain"),
        (r"\bupset stomach\b|\bqueasy\b", "nausea"),
        (r"\bindigestion\b|\bheartburn\b", "dyspepsia"),
        (r"\bloose stools?\b|\bthe runs\b|\bwatery stools?\b", "diarrhea"),
        # the signs of a stroke as the public campaigns name them (Heart & Stroke FAST: face drooping, arm
        # weakness, speech difficulty)
        (
            r"\b(?:face|facial)\b[^.?!]{0,12}\bdroop\w*|\bdroop\w*[^.?!]{0,12}\b(?:face|mouth|smile)\b"
            r"|\bslurr\w* (?:speech|words)\b|\bspeech (?:is )?slurr\w*|\bcan'?t (?:lift|raise|move) (?:(?:his|her|their|one|an?) )?arm\b",
            "stroke symptoms",
        ),
    )
)


def clinical_words(text: str) -> list[str]:
    """The clinical words for the symptoms ``text`` (lower case) says in everyday words ("itchy skin" ->
    "pruritus"); empty when it says none."""
    return [word for pattern, words in _LAY_SYMPTOMS if pattern.search(text) for word in words.split()]
