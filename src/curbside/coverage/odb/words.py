"""The vocabulary ``query`` reads requests with: dosage-form words, salt names, stopwords, drug classes.

Drug classes map to ingredients by their WHO INN stems ("-vastatin",
"-gliptin" …; WHO, "The use of stems in the selection of International
Nonproprietary Names", 2018), so a class needs no list of drugs to stay current.
"""

from __future__ import annotations

import re

from curbside.clinical_words import STEM_CLASSES
from curbside.coverage.odb.tool import Check

__all__ = ["CLASS_ALIASES", "CLASS_NAMES", "CLASS_NOT", "CLASS_STEMS", "FORMS", "KEYWORDS", "SALTS", "STOP"]

FORMS = {
    "film": "film", "films": "film",
    "tablet": "tab", "tablets": "tab", "tab": "tab", "tabs": "tab", "capsule": "cap", "capsules": "cap",
    "cap": "cap", "caps": "cap", "injection": "inj", "inj": "inj", "pen": "pen",
    # as the formulary's dosage forms print them ('1% Cr', '667mg/mL O/L', 'Pd for Oral Susp'), matched as words;
    # '|' between spellings of one form (fluconazole's oral suspension is listed as '10mg/mL O/L')
    "cream": "cr", "ointment": "oint", "suppository": "sup", "lotion": "lot", "gel": "gel",
    "liquid": "o/l|oral sol|oral susp|liq", "syrup": "o/l|oral sol|oral susp|liq",
    "suspension": "susp|o/l", "susp": "susp|o/l",
    # an inhaler or puffer is a counted-dose pack ('Metered Dose Inh-200 Dose Pk', 'Inh Pd-Cap', a Respimat's
    # 'Inh Sol-60 Actuation Pk'); nebules are the solutions in mL ('Inh Sol- 2.5mL Pk')
    "inhaler": "dose pk|pd cap|pd inh|actuation pk", "inhalers": "dose pk|pd cap|pd inh|actuation pk",
    "puffer": "dose pk|pd cap|pd inh|actuation pk", "puffers": "dose pk|pd cap|pd inh|actuation pk",
    # ('nebules' is not one: 'Ventolin Nebules P.F.' is a product's name)
    "neb": "inh sol|inh susp", "nebs": "inh sol|inh susp", "nebulizer": "inh sol|inh susp",
    "nebuliser": "inh sol|inh susp",
    # devices (Part IX) are told apart by these words of their dosage form: 'FreeStyle Libre 2 Sensor' is a
    # 'Flash Glucose Monitoring System - Sensor', its reader a '... - Reader', a 'Freestyle' a 'Strip'
    "sensor": "sensor", "sensors": "sensor", "reader": "reader", "receiver": "receiver", "strip": "strip",
    "strips": "strip", "patch": "patch", "patches": "patch",
    # a prefilled syringe or autoinjector as the dosage form prints it ('Inj Sol-2mL Pref Syr', '… Pref Autoinj')
    "syringe": "syr", "syringes": "syr", "autoinjector": "autoinj", "autoinjectors": "autoinj",
}  # fmt: skip

# salt and hydrate words: 'ATORVASTATIN CALCIUM' is asked for as 'atorvastatin'
SALTS = frozenset(
    """
    acetate anhydrous axetil base besilate besylate bitartrate bromide calcium chloride cilexetil
    citrate dihydrate dimesylate dipotassium dipropionate disodium erbumine etexilate fumarate furoate
    hbr hcl hemihydrate hyclate hydrate hydrobromide hydrochloride lysine magnesium malate maleate
    medoxomil mesylate mofetil monohydrate olamine phosphate pivalate potassium propionate sodium
    succinate sulfate sulphate tartrate tosylate trihydrate trometamol tromethamine valerate xinafoate
    """.split()  # noqa: SIM905 - a word list reads better as text
)

# words of a question that never name a drug on their own
STOP = frozenset(
    """
    a alternative alternatives an and any are as at be benefit benefits brand brands by can cap caps
    capsule capsules cheap cheaper cheapest cost costs cover coverage covered covered? covers cream
    criteria daily diabetes do does dose drug drugs equivalent for formulary from fund funded generic
    generics get has have how i in inhaler injection instead interchangeable is it its limited lowest
    lu mcg me mg ml much my name need odb of on ontario option options or other paid patient patients
    pay pays pen per pill pills plan price prices same save savings strength tab tablet tablets than
    the there this to type under unit units use what which with without
    """.split()  # noqa: SIM905
)

# the classes whose INN stem names every member the formulary lists (a 'profen' list would leave out naproxen)
_ODB_CLASSES = (
    "statin",
    "glp1",
    "dpp4",
    "sglt2",
    "ppi",
    "arb",
    "acei",
    "betablocker",
    "doac",
    "bisphosphonate",
    "triptan",
)
CLASS_STEMS: dict[str, tuple[str, ...]] = {key: STEM_CLASSES[key].stems for key in _ODB_CLASSES}
CLASS_NOT: dict[str, tuple[str, ...]] = {key: STEM_CLASSES[key].not_stems for key in _ODB_CLASSES}
CLASS_NAMES: dict[str, str] = {key: STEM_CLASSES[key].name for key in _ODB_CLASSES}
# how people write a class, without spaces, dashes or case -> its CLASS_STEMS key
CLASS_ALIASES: dict[str, str] = {
    alias: key
    for key, aliases in {
        "statin": "statin statins hmgcoareductaseinhibitor hmgcoareductaseinhibitors",
        "glp1": "glp1 glp1ra glp1agonist glp1agonists glp1receptoragonist glp1receptoragonists incretin",
        "dpp4": "dpp4 dpp4i dpp4inhibitor dpp4inhibitors gliptin gliptins",
        "sglt2": "sglt2 sglt2i sglt2inhibitor sglt2inhibitors gliflozin gliflozins",
        "ppi": "ppi ppis protonpumpinhibitor protonpumpinhibitors",
        "arb": "arb arbs sartan sartans angiotensinreceptorblocker angiotensinreceptorblockers",
        "acei": "acei aceinhibitor aceinhibitors",
        "betablocker": "betablocker betablockers",
        "doac": "doac doacs noac noacs directoralanticoagulant directoralanticoagulants",
        "bisphosphonate": "bisphosphonate bisphosphonates",
        "triptan": "triptan triptans",
    }.items()
    for alias in aliases.split()
}

# what a question asks for, by its words
KEYWORDS: tuple[tuple[Check, re.Pattern[str]], ...] = (
    ("lowest_cost", re.compile(r"\b(cheap\w*|lowest[- ]cost|least expensive|lowest price|cost|price\w*|sav(e|es|ing|ings))\b", re.I)),
    ("interchangeable", re.compile(r"\b(generics?|interchangeab\w*|substitut\w*|equivalent)\b", re.I)),
    ("lu_criteria", re.compile(r"\b(lu|limited use|criteria|requirements?|reason for use|lu code)\b", re.I)),
    ("alternatives", re.compile(r"\b(alternatives?|instead|other options?|switch\w*)\b", re.I)),
    ("coverage", re.compile(r"\b(cover\w*|benefits?|fund\w*|pay\w*|odb|listed)\b", re.I)),
)  # fmt: skip
