"""Query enhancement: abbreviation expansion, keyword terms for BM25 and a specialty hint.

Abbreviation matching policy (whole tokens only — ``mi`` inside ``mild`` or ``DM``
inside ``T2DM`` never match; a token is a run of letters/digits, so ``non-HTN`` and
``CKD-associated`` do match):

* Acronyms (keys with capitals: ``HTN``, ``T2DM``, ``eGFR``) match exactly as
  written, plus a plural ``s`` (``UTIs``).
* They also match in any case (``htn``, ``Ckd``) when at least three characters
  long and not an ordinary English word (see ``_WORDLIKE``). So the short,
  ambiguous ones — ``AF``, ``PE``, ``MI``, ``DM`` — and word-like ones — ``CAD``,
  ``CAP``, ``PAD`` — expand only in capitals ("af", "pe", "mi", "cap" are left alone).
* Lower-case shorthand keys (``mgmt``, ``tx``, ``abx``) match in any case.

The specialty list is a *ranking hint* only; the engine never filters by it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "ABBREVIATIONS",
    "SPECIALTY_KEYWORDS",
    "STOPWORDS",
    "EnhancedQuery",
    "enhance_query",
    "spelled_out",
    "tokenize",
]

ABBREVIATIONS: dict[str, str] = {
    # cardiovascular
    "HTN": "hypertension",
    "BP": "blood pressure",
    "CAD": "coronary artery disease",
    "CHF": "congestive heart failure",
    "HF": "heart failure",
    "HFrEF": "heart failure with reduced ejection fraction",
    "HFpEF": "heart failure with preserved ejection fraction",
    "AF": "atrial fibrillation",
    "MI": "myocardial infarction",
    "STEMI": "ST-elevation myocardial infarction",
    "NSTEMI": "non-ST-elevation myocardial infarction",
    "ACS": "acute coronary syndrome",
    "PCI": "percutaneous coronary intervention",
    "CABG": "coronary artery bypass graft",
    "LVEF": "left ventricular ejection fraction",
    "EF": "ejection fraction",
    "PAD": "peripheral artery disease",
    "SVT": "supraventricular tachycardia",
    "VT": "ventricular tachycardia",
    "VF": "ventricular fibrillation",
    "ECG": "electrocardiogram",
    "EKG": "electrocardiogram",
    "DOAC": "direct oral anticoagulant",
    "ACEi": "angiotensin-converting enzyme inhibitor",
    "ARB": "angiotensin receptor blocker",
    # neurology
    "CVA": "cerebrovascular accident, stroke",
    "TIA": "transient ischemic attack",
    # pulmonary / thrombosis
    "COPD": "chronic obstructive pulmonary disease",
    "PE": "pulmonary embolism",
    "DVT": "deep vein thrombosis",
    "VTE": "venous thromboembolism",
    "ARDS": "acute respiratory distress syndrome",
    "OSA": "obstructive sleep apnea",
    "CAP": "community-acquired pneumonia",
    "HAP": "hospital-acquired pneumonia",
    # renal
    "CKD": "chronic kidney disease",
    "AKI": "acute kidney injury",
    "ESRD": "end-stage renal disease",
    "ESKD": "end-stage kidney disease",
    "eGFR": "estimated glomerular filtration rate",
    "GFR": "glomerular filtration rate",
    # endocrine
    "DM": "diabetes mellitus",
    "T1DM": "type 1 diabetes mellitus",
    "T2DM": "type 2 diabetes mellitus",
    "DKA": "diabetic ketoacidosis",
    "HHS": "hyperosmolar hyperglycemic state",
    "HbA1c": "glycated hemoglobin",
    "TSH": "thyroid-stimulating hormone",
    "SGLT2": "sodium-glucose cotransporter 2",
    # infectious disease
    "UTI": "urinary tract infection",
    "HIV": "human immunodeficiency virus",
    "TB": "tuberculosis",
    "MRSA": "methicillin-resistant Staphylococcus aureus",
    "SSTI": "skin and soft tissue infection",
    # gastrointestinal / hepatology
    "GERD": "gastroesophageal reflux disease",
    "GI": "gastrointestinal",
    "IBD": "inflammatory bowel disease",
    "IBS": "irritable bowel syndrome",
    "UGIB": "upper gastrointestinal bleeding",
    "NAFLD": "nonalcoholic fatty liver disease",
    # rheumatology / haematology / other
    "SLE": "systemic lupus erythematosus",
    "OA": "osteoarthritis",
    "INR": "international normalized ratio",
    "NSAID": "nonsteroidal anti-inflammatory drug",
    "PPI": "proton pump inhibitor",
    "SSRI": "selective serotonin reuptake inhibitor",
    "MDD": "major depressive disorder",
    "GAD": "generalized anxiety disorder",
    "SNRI": "serotonin norepinephrine reuptake inhibitor",
    "PTSD": "post-traumatic stress disorder",
    "OCD": "obsessive-compulsive disorder",
    "ADHD": "attention deficit hyperactivity disorder",
    "CBT": "cognitive behavioural therapy",
    "TCA": "tricyclic antidepressant",
    "MAOI": "monoamine oxidase inhibitor",
    "TD": "tardive dyskinesia",  # capitals only: "Td" is the tetanus-diphtheria vaccine
    "BPH": "benign prostatic hyperplasia",
    # lower-case clinical shorthand (matched in any case)
    "mgmt": "management",
    "tx": "treatment",
    "dx": "diagnosis",
    "ddx": "differential diagnosis",
    "hx": "history",
    "abx": "antibiotics",
    "afib": "atrial fibrillation",
    # a clinician's clipped everyday words ("2 hrs", "between appts", "renal fxn")
    "appt": "appointment",
    "fxn": "function",
    "sx": "symptoms",
    "hrs": "hours",
    "yrs": "years",
    "wks": "weeks",
    "mos": "months",
    "thru": "through",
    "mod": "moderate",  # "mild-mod depression", "mild/mod/severe"
    # what the ADP manuals write out (ADP Manual §300.01, §205.00); not 'OT' or 'LTC', whose written-out words
    # pull the manuals' registration and long-term care home passages onto questions merely told by an OT
    "WSIB": "Workplace Safety and Insurance",  # the manuals cite its Act (ADP Manual §300.01)
    "POA": "power of attorney",
    # a device's everyday name, as the ADP Mobility Devices manual writes it ("Adult Wheeled Walker Type 3")
    "rollator": "wheeled walker",
    "rollators": "wheeled walkers",
}

# acronyms whose lower-case form is an ordinary word: capitals only
_WORDLIKE = frozenset({"CAD", "CAP", "PAD", "HAP", "ARB", "OSA", "GAD", "POA"})

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each either else few for from further get
    give given had has have having he her here hers herself him himself his how i if in into is it its itself
    just may me might more most must my myself no nor not now of off on once only or other ought our ours
    ourselves out over own per please same shall she should so some such tell than that the their theirs them
    themselves then there these they this those through to too under until up upon us very via was we were
    what when where which while who whom whose why will with within without would you your yours yourself
    yourselves regarding explain describe whats
    """.split()
)

# specialty -> keywords on the expanded, lower-cased query; "x*" is a prefix, others allow a plural "s"
SPECIALTY_KEYWORDS: dict[str, tuple[str, ...]] = {
    "cardiology": (
        "heart", "cardi*", "coronary", "atrial", "ventricular", "arrhythmi*", "myocardial", "angina",
        "hypertension", "blood pressure", "anticoagula*", "statin", "electrocardiogram", "tachycardia",
    ),
    "nephrology": ("kidney", "renal", "nephr*", "dialysis", "glomerular", "proteinuria", "albuminuria"),
    "endocrinology": (
        "diabet*", "insulin", "glucose", "thyroid", "glycated", "ketoacidosis", "hyperglycemi*",
        "hypoglycemi*", "metformin", "adrenal", "endocrin*",
    ),
    "pulmonology": (
        "lung", "pulmonary", "asthma", "copd", "respiratory", "bronch*", "pneumothorax", "sleep apnea",
        "inhaler", "obstructive pulmonary",
    ),
    "infectious_disease": (
        "infection", "infectious", "antibiotic", "sepsis", "septic", "bacteri*", "viral", "virus",
        "pneumonia", "tuberculosis", "fever", "staphylococcus",
    ),
    "gastroenterology": (
        "gastr*", "liver", "hepat*", "bowel", "colitis", "crohn", "reflux", "pancrea*", "cirrhosis",
        "heartburn", "esophag*",
    ),
    "neurology": ("stroke", "neuro*", "seizure", "epilep*", "migraine", "dementia", "cerebrovascular", "sclerosis"),
    "hematology": ("anemia", "anaemia", "thrombo*", "embolism", "platelet", "coagulation", "bleeding", "hemoglobin"),
    "oncology": (
        "cancer", "tumor", "tumour", "malignan*", "chemotherap*", "metasta*", "oncolog*", "lymphoma", "carcinoma",
    ),
    "rheumatology": ("arthritis", "lupus", "gout", "rheumat*", "vasculitis"),
    "psychiatry": ("depress*", "anxiety", "psychiatr*", "schizophren*", "bipolar", "antidepressant", "suicid*"),
    "obstetrics_gynecology": ("pregnan*", "obstetric*", "gynecolog*", "postpartum", "preeclampsia", "menopaus*"),
    "pediatrics": ("child", "children", "infant", "neonat*", "pediatric*", "paediatric*"),
    "emergency_medicine": ("emergency", "resuscitation", "trauma", "cardiac arrest", "shock", "overdose"),
    "dermatology": ("skin", "rash", "derma*", "eczema", "psoriasis"),
}

_TOKEN = re.compile(r"[^\W_]+")  # letters/digits in any script; punctuation, emoji and "_" separate
_INSENSITIVE: dict[str, str] = {
    key.lower(): key
    for key in ABBREVIATIONS
    if key.islower() or (len(key) >= 3 and key not in _WORDLIKE)
}


def _keyword_pattern(keywords: tuple[str, ...]) -> re.Pattern[str]:
    parts = [re.escape(k[:-1]) + r"\w*" if k.endswith("*") else re.escape(k) + r"s?" for k in keywords]
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)")


_SPECIALTY_PATTERNS = {name: _keyword_pattern(kws) for name, kws in SPECIALTY_KEYWORDS.items()}


@dataclass(slots=True)
class EnhancedQuery:
    original: str
    expanded: str  # what the dense retriever embeds
    terms: list[str] = field(default_factory=list)  # BM25 terms, lower-case, stopwords dropped
    specialties: list[str] = field(default_factory=list)  # ranking hint, best match first


def _lookup(token: str) -> str | None:
    """The abbreviation key a token stands for, under the module's case policy."""
    if token in ABBREVIATIONS:
        return token
    if token.endswith("s") and token[:-1] in ABBREVIATIONS and not token[:-1].islower():
        return token[:-1]  # plural acronym: "UTIs"
    lower = token.lower()
    if lower in _INSENSITIVE:
        return _INSENSITIVE[lower]
    if lower.endswith("s") and len(lower) > 3 and lower[:-1] in _INSENSITIVE:
        return _INSENSITIVE[lower[:-1]]
    return None


def spelled_out(token: str) -> str | None:
    """What an abbreviation stands for under the module's case policy ("htn" -> "hypertension"), or None."""
    key = _lookup(token)
    return None if key is None else ABBREVIATIONS[key]


def expand_abbreviations(text: str) -> str:
    """``"HTN in CKD"`` -> ``"HTN (hypertension) in CKD (chronic kidney disease)"``."""
    folded = text.casefold()
    out: list[str] = []
    last = 0
    added: set[str] = set()
    for match in _TOKEN.finditer(text):
        key = _lookup(match.group())
        if key is None:
            continue
        expansion = ABBREVIATIONS[key]
        # skip when the query already spells it out ("hypertension (HTN)") or it was expanded before
        if expansion.casefold() in folded or expansion in added:
            continue
        added.add(expansion)
        out.append(text[last : match.end()])
        out.append(f" ({expansion})")
        last = match.end()
    out.append(text[last:])
    return "".join(out)


def tokenize(text: str) -> list[str]:
    """Lower-case keyword terms: stopwords and single Latin letters dropped, first occurrence kept."""
    terms: list[str] = []
    seen: set[str] = set()
    for raw in _TOKEN.findall(text):
        term = raw.casefold()
        if term in STOPWORDS or (len(term) == 1 and term.isascii() and term.isalpha()) or term in seen:
            continue
        seen.add(term)
        terms.append(term)
    return terms


def infer_specialties(text: str) -> list[str]:
    """Specialties whose keywords occur in ``text``, most keyword hits first."""
    lower = text.casefold()
    counts = {name: len(p.findall(lower)) for name, p in _SPECIALTY_PATTERNS.items()}
    order = list(SPECIALTY_KEYWORDS)
    hits = [name for name, n in counts.items() if n]
    return sorted(hits, key=lambda name: (-counts[name], order.index(name)))


def enhance_query(text: str) -> EnhancedQuery:
    expanded = expand_abbreviations(text)
    return EnhancedQuery(
        original=text,
        expanded=expanded,
        terms=tokenize(expanded),
        specialties=infer_specialties(expanded),
    )
