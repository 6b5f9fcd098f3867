"""The words triage reads a clinician's message by: cue phrases per route and intent, drug names, the
calculators' everyday names, extra lab words, and the typos busy people make.

Only vocabularies live here, as compiled patterns and tables; ``slots`` and ``triage`` apply them.
Patterns run over the *normalised* message (lower case, single spaces, typos fixed: ``normalise``).
"""

from __future__ import annotations

import re

from curbside.clinical_words import DRUG_NAMES, DRUG_STEMS

__all__ = [
    "ADVERSE",
    "ARTICLE_TYPES",
    "CALCULATOR_ALIASES",
    "CALC_EXPLAIN",
    "CALC_VERB",
    "MED_CHANGE",
    "CALENDAR",
    "CAPABILITY",
    "CAPABILITY_SHORT",
    "CASE_SENSITIVE_CALCULATORS",
    "CLINICAL",
    "CURBSIDE_ITSELF",
    "EXTRA_VITALS",
    "OUT_OF_SCOPE",
    "SPECIALTIES",
    "SUMMARY_CHART",
    "UNITS",
    "COVERAGE_ADP",
    "COVERAGE_ANY",
    "COVERAGE_ODB",
    "COVERAGE_OHIP",
    "DATA_REQUEST",
    "DRUG_CLASSES",
    "DRUG_NAMES",
    "DRUG_STEMS",
    "EXTRA_LABS",
    "FILES",
    "GREETING",
    "GUIDELINE",
    "INTERACTION",
    "KNOWLEDGE",
    "LABEL_SECTIONS",
    "LAB_GROUPS",
    "LITERATURE",
    "MED_LIST",
    "NOT_A_READ",
    "PATIENT_REF",
    "PROBLEMS",
    "REASONING",
    "REASONING_ACTION",
    "SAFETY_QUESTION",
    "LABEL_CUE",
    "SEQUENCE",
    "SUMMARY",
    "TRIALS",
    "TYPO_TARGETS",
    "ALLERGY",
    "VITALS_GENERIC",
    "normalise",
]


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# --- normalising ------------------------------------------------------------------------------------

# words a typo is corrected towards (one edit away, or two for long words): the ones whose loss
# would lose an intent. Short words are left alone: one edit turns 'hr' into 'he'.
TYPO_TARGETS: tuple[str, ...] = tuple(
    """
    latest allergies allergy allergic potassium interaction interactions interact prescribe creatinine
    medications medication glucose hemoglobin cholesterol triglycerides magnesium calculate guideline
    guidelines warfarin metformin amoxicillin apixaban rivaroxaban atorvastatin lisinopril ramipril
    contraindications contraindicated pregnancy breastfeeding calendar summarize summary record
    diagnoses problems recruiting trials adverse reported
    """.split()
)

_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lower case, curly quotes and dashes made plain, whitespace single: what every pattern reads."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
    return _SPACES.sub(" ", text).strip()


# --- the direct route -------------------------------------------------------------------------------

GREETING = _re(
    r"^(?:hi+|hello|hey+|yo|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|morning|evening"
    r"|thanks?|thank you|thx|ty|cheers|appreciated?|appreciate it|great|ok(?:ay)?|perfect|nice|cool|got it"
    r"|bye|goodbye|see you|that'?s (?:all|it|helpful|great)|helpful|awesome|much appreciated|sounds good"
    r"|are you there|help|you there)\b"
)
# asking what Curbside is or can do, not asking it to do something
CAPABILITY = _re(
    r"\bwhat (?:can|could) you do\b|\bwhat (?:kind of |sort of )?(?:questions|things) can i ask\b"
    r"|\bwho are you\b|\bwhat (?:tools|sources|data|features) do you\b|\bwhat are you (?:able|capable)\b"
    r"|\bwhat do you do\b|\bhow do i use (?:this|you|curbside)\b|\bcan you help(?: me)?\s*[?.!]*$"
    r"|\bwhat is curbside\b|\bwhat'?s curbside\b|\bcan you (?:look (?:things|stuff) up|search|access|read)\b"
    r"|\bdo you have access\b|\bare you able to\b|\bwhat can you help(?: me)? with\b"
)
# questions about Curbside itself: what it keeps, where words go, which model it is, how it compares
CURBSIDE_ITSELF = _re(
    r"\b(?:do|does|will|would|can|could) (?:you|curbside|this(?: app| tool| thing)?) (?:\w+ )?(?:store|keep|save|retain|log"
    r"|remember|share|send|sell|see|delete|forget|record|upload|use)\b(?! (?:a|an|her|his|their|this|that|the) "
    r"(?:note|vital|weight|bp|temp|allergy|order|referral|prescription)\b)"
    r"|\bwhat (?:do|does|will|did) (?:you|curbside) (?:keep|store|save|remember|log|retain|know about me)\b"
    r"|\b(?:is|are) (?:my|our|what i (?:type|write|say|enter)|(?:this|the) (?:chat|conversation|session|data))\b"
    r"(?: \w+){0,3} (?:logged|stored|saved|kept|shared"
    r"|private|secure|encrypted|sent|uploaded|recorded|anonymi[sz]ed|deleted)\b"
    r"|\bwho (?:can|could|will|else can) (?:see|read|access)\b"
    r"|\b(?:is|are) (?:this|curbside|it|you)(?: tool| app| thing| service| system)? (?:secure|private|encrypted|compliant)\b"
    r"|\bprivacy\b|\bphipa\b|\bhipaa\b|\bpipeda\b|\bdata retention\b|\bto the cloud\b|\bin the cloud\b"
    r"|\b(?:which|what) (?:ai |language |llm )?model\b|\bare you (?:an ai|a bot|a robot|human|chatgpt|gpt|an llm)\b"
    r"|\bcurbside\b.*\b(?:different|compare[sd]?|vs\.?|versus|better|like)\b"
)
# requests outside what Curbside does (bookings, sport, weather, money, travel, letters, jokes): declined,
# when nothing clinical is named with them
OUT_OF_SCOPE = _re(
    r"\brestaurants?\b|\btable for\b|\b(?:dinner|lunch) reservations?\b|\bpizzas?\b|\btakeout\b|\bsushi\b"
    r"|\bfood delivery\b|\bgames? (?:last night|tonight|today)\b|\bwho won\b|\bscores? (?:of|in) the\b|\bplayoffs?\b"
    r"|\bhockey\b|\bbasketball\b|\bfootball\b|\bsoccer\b|\bbaseball\b|\bnhl\b|\bnba\b|\bnfl\b|\bweather\b"
    r"|\bforecast\b|\brrsp\b|\btfsa\b|\bmortgage\b|\bcredit cards?\b|\bstocks?\b(?! of)|\binvest(?:ing|ments?|ors?|ed)?\b|\bretirement\b"
    r"|\bincome tax\b|\btax returns?\b|\bcrypto\w*\b|\bbitcoin\b|\bhotels?\b|\bflights?\b|\bvacation\b|\bholiday\b"
    r"|\btrip to\b|\blandlord\b|\bcover letter\b|\bpoem\b|\bjokes?\b|\bsong\b|\bmovies?\b|\brecipes?\b"
    r"|\b(?:letter|email|e-mail|essay|speech|story) (?:to|for|about) (?:my|our|the) (?!patient|pt\b|doctor|physician"
    r"|specialist|surgeon|gp|family doctor|referring|colleague)"
)
# words that make a message clinical whatever else it names (an out-of-scope word beside them is incidental)
CLINICAL = _re(
    r"\b(?:patients?|pts?|clinical|clinicians?|medical|medicine|medications?|meds|drugs?|dos(?:e|es|ing)|symptoms?|diseases?"
    r"|diagnos\w*|treat\w*|therap\w*|pain|infections?|pregnan\w*|surgery|surgical|blood|heart|lungs?|kidneys?|liver"
    r"|cancer|diabet\w*|hypertens\w*|dvt|vaccin\w*|fractures?|fever|chart|allerg\w*|referral|consult|prescri\w*"
    r"|admission|discharge|ohip|odb|adp|billing|fee codes?)\b"
)
# a short "can you …?" with nothing in it to act on ("can you prescribe?") asks what Curbside can do
CAPABILITY_SHORT = _re(r"^(?:can|could|will|do) you(?: [\w-]+){1,4}\s*[?.!]*$")

# --- routes beyond a single lookup ------------------------------------------------------------------

# clinical judgement asked for: the tools serve a decision, not a display
REASONING = _re(
    r"\bshould (?:i|we|she|he|they|it)\b|\bwould you\b|\bwhat would you\b|\bwhat do you (?:make|think)\b"
    r"|\binterpret\w*\b|\bexplain why\b|\bwhy (?:is|might|would|does|has|did|are)\b|\blikely cause\b"
    r"|\b(?:do|does) (?:his|her|the|their) (?:labs?|results?|values?) (?:suggest|show|mean)\b"
    r"|\bdoes (?:she|he|the patient|they) need\b|\bcandidate\b|\bwhat are (?:my|the|our) options\b"
    r"|\bnext step\b|\bbest \w+(?: \w+)? for\b|\bhow should (?:i|we)\b|\bworry\b"
    r"|\bgiven (?:her|his|their|the patient'?s|this patient'?s)\b|\bbased on (?:her|his|their|the|this)\b"
    r"|\bconsidering (?:her|his|their|the)\b|\bin light of\b|\bneed to act\b|\bcontrolled enough\b"
    r"|\bwhat (?:else )?(?:would|should|could) (?:i|we|you) (?:add|do|use|give|try|start)\b|\buptitrate\b"
    r"|\bcan (?:i|we) (?:give|start|use|continue|stop|add|switch|prescribe|restart|hold|combine)\b"
    r"|\bworth (?:starting|adding|trying|checking)\b|\bdo i need to (?:adjust|reduce|change|stop|hold)\b"
    r"|\b(?:ok|okay|safe|reasonable|fine) to (?:continue|start|give|use|add|stop|restart|switch|hold|prescribe)\b"
    r"|\bdue for\b|\bif (?:she|he|they) (?:needs?|should|qualif\w*|is a candidate)\b|\bwhat should (?:her|his|the|i|we)\b"
    r"|\b(?:options|what next|thoughts|next steps?|plan|management|approach)\s*\?\s*$"
    r"|\b(?:replace|treat|hold|stop|continue|start|restart|anticoagulate|admit|transfuse|discharge)\s*\?\s*$"
)
# 'safe', 'ok', 'appropriate' ask for judgement about a particular patient ("for her") or with no tool to
# answer them ("safest antibiotic in pregnancy?"); about a drug in general ("is lisinopril ok in
# pregnancy") one label answers
SAFETY_QUESTION = _re(
    r"\bis (?:it|this|that) (?:safe|ok|okay|reasonable|appropriate|wise|indicated|worth)\b|\bsafest\b"
    r"|\bsafe alternative\b|\bsafe\b|\bappropriate\b|\breasonable\b|\b(?:ok|okay|fine) (?:to|for)\b"
)
# the verbs that make a drug the subject of a decision ("start metformin", "hold the lisinopril")
REASONING_ACTION = _re(
    r"\b(?:start|starting|hold|holding|stop|stopping|continue|continuing|give|giving|add|adding|switch|switching"
    r"|use|using|restart|prescribe|dose of|dosing of|reduce|increase)\s+(?:(?:him|her|them) )?(?:the |her |his |a |an |on )?$"
)
# explicit ordering of subtasks: the multi-step route
SEQUENCE = _re(
    r"\bthen\b|\bafter that\b|\bafterwards\b|\balso\b|;|(?:^|\s)(?:1|2|3)[).]\s|\bfirst\b.*\bthen\b"
    r"|,\s*and\b|\bas well as\b|\bplus\b|[.?!]\s+(?=\S)"
)

# --- the patient ------------------------------------------------------------------------------------

PATIENT_REF = _re(
    r"\b(?:her|his|she|he|him|hers|she'?s|he'?s|this (?:patient|pt|person|lady|man|woman|gentleman)"
    r"|the (?:patient|pt)(?:'s)?|patient'?s|pt'?s|this pt|my pt|our patient|the chart)\b"
)
# a question wanting the chart's own values (not a textbook answer)
DATA_REQUEST = _re(
    r"\b(?:latest|last|lastest|most recent|recent|current|newest|trend\w*|over the|results?|levels?|values?"
    r"|readings?|today|yesterday|since|average|avg|mean|show|pull|list|any|been|doing|checked|drawn)\b"
)
# a lab named as a target, a norm or a criterion is not a read of the chart
NOT_A_READ = _re(r"\b(?:target|goal|normal range|reference range|cut-?off|threshold for|criteria)\b")
SUMMARY = _re(
    r"(?<!discharge )\bsummar(?:y|i[sz]e)\b(?! (?:them|it|that|this note))|\brundown\b|\boverview\b|\bhow old\b|\bage\b"
    r"|\bchart summary\b|\brisk factors\b|\bwho is (?:she|he|this)\b|\bbackground\b"
)
# the chart itself named: a summary only when nothing else is read from it ("the meds on her chart" is a list)
SUMMARY_CHART = _re(r"\b(?:the|her|his|their|this|patient'?s) chart\b(?! (?:a|an|the) )")
MED_LIST = _re(
    r"\b(?:meds|medications?|med list|medication list|drugs? (?:she|he)'?s on|rx list|prescriptions|current rx"
    r"|what (?:is|'s) (?:she|he) (?:on|taking)|(?:is|are) (?:she|he|they) on (?:any|a)|(?:she|he) (?:is|'s) taking"
    r"|what (?:is|'s|are) (?:she|he|they) (?:currently |now )?(?:on|taking)|(?:she|he|they) (?:is|are|'s) (?:currently |now )?"
    r"taking|(?:is|are) (?:she|he|they) on anything)\b"
)
ALLERGY = _re(r"\ballerg(?:y|ies|ic)\b|\bnkda\b|\bnka\b")  # NKDA: "no known drug allergies?" asks the list
PROBLEMS = _re(
    r"\bproblem list\b|\bproblems\b|\bdiagnos[ie]s\b|\bconditions\b|\b(?:hx|history) of\b|\bpmh\b|\bpmhx\b"
    r"|\bcomorbidit(?:y|ies)\b|\bpast medical history\b|\bactive (?:dx|diagnoses|problems)\b"
)
VITALS_GENERIC = _re(r"\bvitals?\b|\bvital signs\b|\bobs\b")

# vital words the chart's vocabulary lacks: verbs and components clinicians say ("weighs 80 kg", "her
# systolic", "resp rate 22"), each -> the chart's vital name
EXTRA_VITALS: dict[str, str] = {
    "weighs": "weight", "weighed": "weight", "weighing": "weight", "weighed in at": "weight", "wgt": "weight",
    "systolic": "bp", "diastolic": "bp", "sbp": "bp", "dbp": "bp", "blood pressures": "bp",
    "resp rate": "respiratory rate", "resp": "respiratory rate", "respirations": "respiratory rate",
    "breathing rate": "respiratory rate", "resps": "respiratory rate",
    "pulse rate": "heart rate", "heartrate": "heart rate",
    "o2 sats": "spo2", "o2 saturation": "spo2", "oxygen sat": "spo2", "oxygen sats": "spo2", "sao2": "spo2",
    "pulse oximetry": "spo2", "oximetry": "spo2", "saturation": "spo2", "saturating": "spo2",
    "temp.": "temperature", "tmax": "temperature", "fever of": "temperature",
    "tall": "height", "stands": "height",
}  # fmt: skip
# a unit as clinicians write it -> as the record tool takes it (write_vocab's spellings)
UNITS: dict[str, str] = {
    "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb", "#": "lb",
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
    "g": "g", "gram": "g", "grams": "g",
    "°f": "f", "f": "f", "degf": "f", "deg f": "f", "degrees f": "f", "degree f": "f", "fahrenheit": "f",
    "degrees fahrenheit": "f", "\u2109": "f",
    "°c": "c", "c": "c", "degc": "c", "deg c": "c", "degrees c": "c", "degree c": "c", "celsius": "c",
    "degrees celsius": "c", "centigrade": "c", "\u2103": "c",
    "%": "%", "percent": "%", "per cent": "%", "pct": "%",
    "bpm": "/min", "/min": "/min", "beats/min": "/min", "beats per minute": "/min", "breaths/min": "/min",
    "breaths per minute": "/min", "per minute": "/min", "a minute": "/min", "per min": "/min",
    "cm": "cm", "centimetres": "cm", "centimeters": "cm", "in": "in", "inches": "in", "inch": "in", '"': "in",
    "m": "m", "metres": "m", "meters": "m", "mmhg": "mmHg", "mm hg": "mmHg",
}  # fmt: skip

# --- labs -------------------------------------------------------------------------------------------

# names lab_codes does not list, read as themselves (the planner decides what to ask the chart for)
EXTRA_LABS: dict[str, str] = {
    "magnesium": "magnesium", "mag": "magnesium", "calcium": "calcium", "phosphate": "phosphate",
    "phos": "phosphate", "albumin": "albumin", "bilirubin": "bilirubin", "bili": "bilirubin",
    "lipase": "lipase", "troponin": "troponin", "trop": "troponin", "bnp": "bnp", "nt-probnp": "nt-probnp",
    "ferritin": "ferritin", "b12": "b12", "vitamin d": "vitamin d", "lactate": "lactate", "ck": "ck",
    "bmp": "bmp", "cmp": "cmp", "urinalysis": "urinalysis", "ua": "urinalysis",
    "psa": "psa", "alk phos": "alp", "alp": "alp", "ggt": "ggt", "urate": "uric acid", "uric acid": "uric acid",
}  # fmt: skip
# words naming several labs at once
LAB_GROUPS: dict[str, tuple[str, ...]] = {
    "lipid panel": ("ldl", "hdl", "total cholesterol", "triglycerides"),
    "lipids": ("ldl", "hdl", "total cholesterol", "triglycerides"),
    "lipid profile": ("ldl", "hdl", "total cholesterol", "triglycerides"),
    "cbc": ("hemoglobin", "wbc", "platelets"),
    "blood count": ("hemoglobin", "wbc", "platelets"),
    "lytes": ("sodium", "potassium"),
    "electrolytes": ("sodium", "potassium"),
    "kidney function": ("egfr", "creatinine"),
    "kidneys": ("egfr", "creatinine"),
    "renal function": ("egfr", "creatinine"),
    "liver enzymes": ("alt", "ast"),
    "lfts": ("alt", "ast"),
    "labs": (),
    "bloodwork": (),
    "blood work": (),
}

# --- drugs ------------------------------------------------------------------------------------------

# classes are not one drug, but name the patient's medication when said of the patient ("her PPI")
DRUG_CLASSES = _re(
    r"\b(?:statins?|ppis?|proton pump inhibitors?|ace ?inhibitors?|acei|arbs?|beta[- ]?blockers?|doacs?|noacs?"
    r"|anticoagulants?|blood thinners?|nsaids?|ssris?|snris?|antibiotics?|antihypertensives?|diuretics?"
    r"|sglt2(?: inhibitors?)?|sglt-2(?: inhibitors?)?|glp-?1(?: agonists?| ras?)?|dpp-?4(?: inhibitors?)?"
    r"|insulins?|opioids?|benzos?|benzodiazepines?|steroids?|antipsychotics?|antidepressants?)\b"
)

# --- drug safety ------------------------------------------------------------------------------------

# label section -> its cue words (evidence.check_drug_safety's sections)
LABEL_SECTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("boxed_warning", _re(r"\bbox(?:ed)? warnings?\b|\bblack box\b")),
    ("contraindications", _re(r"\bcontraindicat\w*\b")),
    ("pregnancy", _re(r"\bpregnan\w*\b|\btrimester\b")),
    ("lactation", _re(r"\bbreast ?feeding\b|\blactat\w*\b|\bnursing\b|\bbreast milk\b")),
    ("renal", _re(r"\brenal\b|\bkidneys?\b|\bckd\b|\bcrcl\b|\begfr\b|\bdialysis\b")),
    ("hepatic", _re(r"\bhepatic\b|\bliver\b|\bcirrho\w*\b")),
    ("warnings_and_cautions", _re(r"\bwarnings?\b|\bprecautions?\b|\bcautions?\b")),
)
# a drug question one label answers: dosing and the sections above
LABEL_CUE = _re(
    r"\bdos(?:e|es|ing|age)\b|\bdose adjust\w*\b|\bmax(?:imum)? dose\b|\bsafe (?:in|during|while|with)\b"
    r"|\bok (?:in|during|while)\b|\bwarnings?\b|\bprecautions?\b"
)
INTERACTION = _re(r"\binteract\w*\b|\bddis?\b|\bcombin(?:e|ing|ation)\b|\btogether\b|\bco-?administ\w*\b")
ADVERSE = _re(
    r"\badverse (?:events?|reactions?|effects?|drug reactions?)\b|\bside[- ]effects?\b|\bfaers\b"
    r"|\breported\b|\breports? of\b|\bpharmacovigilance\b"
)

# --- evidence ---------------------------------------------------------------------------------------

LITERATURE = _re(
    r"\bpubmed\b|\beurope ?pmc\b|\bpapers?\b|\barticles?\b|\bliterature\b|\brcts?\b|\brandomi[sz]ed\b"
    r"|\bmeta-?analys[ie]s\b|\bsystematic reviews?\b|\bpublications?\b|\bstud(?:y|ies)\b|\bcohort\b"
    r"|\bevidence (?:for|on|about|base)\b|\bresearch on\b|\bcase reports?\b"
)
ARTICLE_TYPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("randomized_controlled_trial", _re(r"\brcts?\b|\brandomi[sz]ed\b")),
    ("meta_analysis", _re(r"\bmeta-?analys[ie]s\b")),
    ("systematic_review", _re(r"\bsystematic reviews?\b")),
    ("review", _re(r"\b(?<!systematic )reviews?\b(?! (?:his|her|the|their) chart)")),
    ("practice_guideline", _re(r"\bpractice guidelines?\b")),
)
TRIALS = _re(
    r"\bclinical ?trials?\b|\bclinicaltrials(?:\.gov)?\b|\brecruiting\b|\benrolling\b|\bnct\d{8}\b"
    r"|\bphase (?:1|2|3|4|i|ii|iii|iv)\b.*\btrials?\b|\btrials? (?:for|of|in|near|recruiting)\b|\bongoing trials?\b"
)
GUIDELINE = _re(
    r"\bguidelines?\b|\brecommendations?\b|\bconsensus statement\b|\bper (?:the )?(?:who|ccs|nice|aha|acc|esc"
    r"|ada|kdigo|gold|gina|idsa|uspstf|diabetes canada|hypertension canada|cdc|canadian)\b"
    r"|\baccording to (?:the )?(?:who|ccs|nice|aha|acc|esc|ada|kdigo|diabetes canada|hypertension canada|cdc)\b"
    r"|\b(?:who|ccs|nice|kdigo|diabetes canada|hypertension canada|uspstf) (?:say|says|recommend\w*)\b"
)
# a clinical question the knowledge base answers (the fallback tool when none other fits)
KNOWLEDGE = _re(
    r"\bfirst[- ]line\b|\btreatment (?:of|for)\b|\btreat(?:ing)?\b|\bmanag(?:e|ed|ing|ement)\b|\bmechanism\b"
    r"|\bcriteria\b|\bdifferential\b|\bddx\b|\bwhat causes\b|\bcauses of\b|\bwhat is\b|\bwhat are\b"
    r"|\bhow (?:does|do|is|are)\b|\bsymptoms?\b|\bsigns of\b|\bwork-?up\b|\bwhen to\b|\bindications?\b"
    r"|\bpathophysiology\b|\bprognosis\b|\bdefinition\b|\bscreening\b|\bdiagnos(?:e|is|ing)\b|\bantibiotic\b"
    r"|\btreatments?\b|\balgorithm\b|\bapproach to\b|\bhow to\b|\bdoses?\b|\bdosing\b|\btargets?\b"
)

# --- coverage (Ontario) -----------------------------------------------------------------------------

COVERAGE_OHIP = _re(
    r"\bohip\b|\bbill(?:s|ed|ing|able)?\b|\bfee codes?\b|\bfees?\b|\bschedule of benefits\b|\bpremiums?\b"
    r"|\bmrp\b|\b[a-z]\d{3}[abc]?\b(?= |$|\?|,|\.)"
)
COVERAGE_ODB = _re(
    r"\bodb\b|\bontario drug benefits?\b|\bformulary\b|\blimited use\b|\blu\b|\blu codes?\b|\btrillium\b"
    r"|\bexceptional access\b|\beap\b|\bgenerics?\b|\binterchangeab\w*\b|\bcheapest\b"
)
COVERAGE_ADP = _re(
    r"\badp\b|\bassistive devices?\b|\bwheel ?chairs?\b|\bwalkers?\b|\brollators?\b|\bscooters?\b"
    r"|\bhearing aids?\b|\bcpap\b|\bbipap\b|\bprosthe\w+\b|\borthos[ie]s\b|\binsulin pumps?\b"
    r"|\bglucose monitors?\b|\bcgms?\b|\bcommunication (?:aids?|devices?)\b|\bhome oxygen\b"
)
COVERAGE_ANY = _re(r"\bcover(?:ed|s|age)?\b|\bfund(?:ed|ing|s)?\b|\bpays?\b|\breimburs\w*\b|\beligib\w*\b")

# --- referrals --------------------------------------------------------------------------------------

# a specialty as named in plain words, a short form or its own name -> the service's name
SPECIALTIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, _re(pattern))
    for name, pattern in (
        ("cardiology", r"\bcardio(?:logy|logist)?\b|\bheart (?:doctor|specialist|clinic|people|team|failure clinic)s?\b"),
        ("dermatology", r"\bderm(?:atology|atologist|ie)?\b|\bskin (?:doctor|specialist|clinic|people)s?\b"),
        ("nephrology", r"\bnephro(?:logy|logist)?\b|\b(?:kidney|renal) (?:doctor|specialist|clinic|people|team)s?\b"),
        ("gastroenterology", r"\bgi\b|\bgastro(?:enterology|enterologist)?\b|\b(?:gut|stomach|bowel|liver) (?:doctor"
         r"|specialist|clinic|people)s?\b|\bhepatology\b"),
        ("endocrinology", r"\bendo(?:crinology|crinologist|crine)?\b|\b(?:diabetes|thyroid|hormone|sugar) (?:doctor"
         r"|specialist|clinic|people|team)s?\b"),
        ("orthopaedics", r"\bortho(?:pa?edics?|pa?edic surgery|pa?edic surgeon)?\b|\bbone (?:and|&) joint\b"
         r"|\b(?:bone|joint) (?:doctor|specialist|clinic|people)s?\b"),
        ("respirology", r"\brespirology\b|\bpulmonology\b|\bpulmonary clinic\b|\bresp(?:irologist)?\b(?= clinic)"
         r"|\blung (?:doctor|specialist|clinic|people)s?\b|\bchest (?:doctor|specialist|clinic)s?\b"),
        ("neurology", r"\bneuro(?:logy|logist)?\b(?! ?surg)|\b(?:brain|nerve|headache|seizure) (?:doctor|specialist|clinic"
         r"|people)s?\b"),
        ("psychiatry", r"\bpsych(?:iatry|iatrist)?\b|\bmental health\b"),
        ("ophthalmology", r"\bophthalmolog\w*\b|\beye (?:doctor|specialist|clinic|people)s?\b"),
        ("otolaryngology", r"\bent\b|\bear,? nose (?:and|&) throat\b|\botolaryngolog\w*\b"),
        ("urology", r"\burolog\w*\b|\b(?:bladder|prostate) (?:doctor|specialist|clinic)s?\b"),
        ("rheumatology", r"\brheum(?:atology|atologist|y)?\b|\barthritis (?:doctor|specialist|clinic)s?\b"),
        ("hematology", r"\bha?ematolog\w*\b|\bblood (?:doctor|specialist)s?\b"),
        ("oncology", r"\boncolog\w*\b|\bcancer (?:doctor|specialist|clinic|centre|center|team)s?\b"),
        ("obstetrics and gynaecology", r"\bob[/-]?gyn\b|\bgyn(?:a?ecology|a?ecologist|ae|e)?\b|\bobstetric\w*\b"),
        ("general surgery", r"\bgeneral surgery\b|\bgen ?surg\b|\bsurgeon\b"),
        ("physiotherapy", r"\bphysio(?:therapy|therapist)?\b|\bphysical therap\w*\b|\bpt referral\b"),
        ("dietitian", r"\bdietitians?\b|\bdieticians?\b|\bnutrition(?:ist)?\b"),
        ("sleep medicine", r"\bsleep (?:clinic|medicine|study|lab|specialist|doctor)\b"),
        ("physical rehabilitation", r"\brehab(?:ilitation)?\b|\bphysiatry\b"),
        ("geriatrics", r"\bgeriatric\w*\b|\bcare of the elderly\b"),
        ("palliative care", r"\bpalliative\b"),
        ("infectious diseases", r"\binfectious diseases?\b|\bid clinic\b"),
        ("allergy and immunology", r"\ballergist\b|\ballergy clinic\b|\bimmunolog\w*\b"),
        ("podiatry", r"\bpodiatr\w*\b|\bchiropod\w*\b|\bfoot (?:doctor|specialist|clinic)s?\b"),
        ("hypertension clinic", r"\bhypertension clinic\b|\bhtn clinic\b|\bblood pressure clinic\b"),
    )
)  # fmt: skip

# --- workspace --------------------------------------------------------------------------------------

CALENDAR = _re(
    r"\bcalendar\b|\bbook (?:a|an|me|her|him|them|the patient|in)\b|\bfollow-?up appointment\b|\bappointments?\b|\bmeeting\b|\bschedule (?:a|an)\b|\bmy day\b"
    r"|\bclinic (?:today|tomorrow)\b|\bwho am i seeing\b|\bmy schedule\b|\bwho'?s on my\b"
)
# 'file' is a document only as a noun that is not the patient's record: "on file", "in her file", "file it
# in his vitals" are the chart
FILES = _re(
    r"\bshared (?:folder|drive)\b|\btemplates?\b|\bfolder\b|\.pdf\b|\bpdf\b|\.docx?\b|\bspreadsheet\b|\bcsv\b"
    r"|(?<!on )(?<!in )(?<!her )(?<!his )(?<!their )(?<!'s )(?<!chart )"
    r"(?<!from )(?<!to )\bfiles?\b(?! (?:it|that|this|them|these|those|both|all|under|away|in|into|on|to|for|with)\b)"
    r"(?! (?:her|his|their) )"
)

# --- calculators ------------------------------------------------------------------------------------

# asking what a score is, not for its value
CALC_EXPLAIN = _re(
    r"\bexplain\b|\bwhat (?:is|are) (?:the|a)\b|\bcomponents?\b|\bhow (?:is|do you|to) (?:\w+ )?(?:calculated?|scored?|use)\b"
    r"|\bwhat does .* (?:mean|measure)\b|\bvalidated\b|\binterpret\w*\b"
)
# a change to a medication the write tools cannot make (they prescribe anew; they do not stop or modify)
MED_CHANGE = _re(
    r"^(?:(?:please|ok|now|then|and)\s+)*(?:stop|discontinue|d/?c|hold|increase|decrease|reduce|titrate|taper|wean"
    r"|switch|change|up|uptitrate|lower)\b"
)
CALC_VERB = _re(r"\bcalc(?:ulate|ulator)?\b|\bcompute\b|\bwork out\b|\bscore\b|\bconvert\b|\bestimate\b")
# calculator id -> how clinicians name it (normalised text). Ids the catalog lacks are skipped.
CALCULATOR_ALIASES: dict[str, tuple[str, ...]] = {
    "wells_pe": (r"wells(?: score| criteria)?(?: for)? (?:pe|pulmonary embol\w*)", r"wells pe"),
    "wells_dvt": (
        r"wells(?: score| criteria)?(?: for)? (?:dvt|deep vein thromb\w*)",
        r"wells(?: score| criteria)?(?: for)? (?:this |the |her |his |a )?(?:swollen )?(?:leg|calf)",  # "for this leg"
    ),
    "cha2ds2_vasc": (r"cha2?ds2?[- ]?vasc", r"chads[- ]?vasc", r"cha₂ds₂[- ]?vasc", r"chads2? ?-?vasc"),
    "has_bled": (r"has[- ]?bled",),
    "curb65": (r"curb[- ]?65", r"crb[- ]?65"),
    "cockcroft_gault": (r"crcl", r"creatinine clearance", r"cockcroft(?:[- ]gault)?"),
    "ckd_epi_2021": (r"ckd[- ]?epi",),
    "mdrd": (r"mdrd",),
    "meld_na": (r"meld[- ]?na",),
    "meld_3": (r"meld[- ]?3(?:\.0)?",),
    "meld": (r"meld(?![- ]?na)(?![- ]?3)",),
    "child_pugh": (r"child[- ]?(?:turcotte[- ]?)?pugh",),
    "qtc": (r"qtc", r"corrected qt"),
    "anion_gap": (r"(?<!corrected )(?<!delta )anion gap",),
    "albumin_corrected_anion_gap": (r"(?:albumin[- ])?corrected anion gap",),
    "delta_gap": (r"delta gap",),
    "delta_ratio": (r"delta ratio", r"delta-delta"),
    "corrected_calcium": (r"corrected calcium", r"calcium corrected"),
    "sodium_correction": (r"corrected sodium", r"sodium correction"),
    "bmi": (r"bmi", r"body mass index"),
    "bsa": (r"bsa", r"body surface area"),
    "ideal_body_weight": (r"ideal body weight", r"ibw"),
    "adjusted_body_weight": (r"adjusted body weight", r"abw"),
    "map": (r"mean arterial pressure",),
    "gcs": (r"gcs", r"glasgow coma"),
    "due_date": (r"due date", r"edd", r"edc"),
    "gestational_age": (r"gestational age",),
    "conception_date": (r"conception date", r"date of conception"),
    "steroid_conversion": (
        r"steroid (?:dose )?conversion",
        r"convert \d*\s*(?:mg )?(?:of )?(?:prednisone|prednisolone|dexamethasone|hydrocortisone|methylprednisolone)",
        r"(?:prednisone|dexamethasone|hydrocortisone) equivalents?",
    ),
    "mme": (r"mme", r"morphine (?:milligram )?equivalents?", r"opioid conversion", r"morphine equivalent"),
    "caprini": (r"caprini",),
    "centor": (r"centor", r"mcisaac"),
    "feverpain": (r"feverpain", r"fever ?pain score"),
    "fib4": (r"fib[- ]?4",),
    "framingham_hard_chd": (r"framingham",),
    "free_water_deficit": (r"free water deficit", r"water deficit"),
    "glasgow_blatchford": (r"glasgow[- ]blatchford", r"blatchford"),
    "homa_ir": (r"homa(?:[- ]ir)?",),
    "ldl_friedewald": (r"friedewald", r"calculated ldl"),
    "maintenance_fluids": (r"maintenance fluids?", r"holliday[- ]segar", r"4-2-1 rule"),
    "perc": (r"perc(?: rule)?",),
    "psi_port": (r"psi(?:/port)?", r"port score", r"pneumonia severity index"),
    "rcri": (r"rcri", r"revised cardiac risk", r"lee index"),
    "serum_osmolality": (r"(?:serum |calculated )?osmolality", r"osmolal gap", r"serum osm"),
    "sirs": (r"sirs",),
    "sofa": (r"sofa",),
    "apache_ii": (r"apache(?: ?ii| 2)?",),
    "charlson": (r"charlson",),
    "fena": (r"fena", r"fractional excretion of sodium"),
    "target_weight": (r"target weight",),
    "heart": (r"heart score",),
    "grace": (r"grace score",),
}
# acronyms that are ordinary words in lower case: matched on the message as typed
CASE_SENSITIVE_CALCULATORS: dict[str, str] = {"map": r"\bMAP\b", "heart": r"\bHEART\b", "grace": r"\bGRACE\b"}
