"""Words that name a clinical subject: a drug (its name or its INN stem), a disease, a procedure, an organ, a cell
or a microbe (their Greek and Latin endings and roots).

Only vocabularies live here; triage (``agent``) reads the drug names in a clinician's message, and ``ask`` tells a
subject the knowledge base lacks ("lamotrigine", "cirrhosis") from a plain word it merely does not use
("outgrew", "sentinel"). No list here was written from the evaluation questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "CHART_SHORTHAND", "DRUG_NAMES", "DRUG_STEMS", "STEM_CLASSES", "StemClass", "clinical_form", "drug_name", "gene_like",
]  # fmt: skip

# a clinician's note shorthand for the patient, a history or a time ("older pts", "a 72 yo", "hx of MI"): it names who
# or when, never the subject asked, and no source writes it, so a source's lacking it says nothing
CHART_SHORTHAND = frozenset("pt pts yo yos yrs hx dx ddx tx rx sx fx fhx pmhx meds wks mos hrs".split())

# common generics and the brand names Canadian clinicians use; kept as written (the tools accept either)
DRUG_NAMES: frozenset[str] = frozenset(
    """
    amox amoxi amox-clav vanco vanc doxy pred
    acetaminophen paracetamol tylenol ibuprofen advil motrin naproxen aleve diclofenac celecoxib celebrex aspirin asa
    ketorolac indomethacin meloxicam
    morphine hydromorphone dilaudid oxycodone percocet fentanyl codeine tramadol tapentadol methadone buprenorphine
    suboxone naloxone
    metformin glyburide gliclazide glipizide insulin glargine lantus detemir degludec lispro humalog aspart
    sitagliptin januvia linagliptin trajenta saxagliptin empagliflozin jardiance dapagliflozin forxiga farxiga
    canagliflozin invokana semaglutide ozempic rybelsus wegovy liraglutide victoza saxenda dulaglutide trulicity
    tirzepatide mounjaro pioglitazone acarbose
    atorvastatin lipitor rosuvastatin crestor simvastatin pravastatin lovastatin ezetimibe ezetrol evolocumab
    repatha alirocumab fenofibrate
    lisinopril ramipril perindopril enalapril captopril trandolapril losartan valsartan candesartan irbesartan
    telmisartan olmesartan sacubitril entresto amlodipine nifedipine diltiazem verapamil metoprolol bisoprolol
    atenolol carvedilol propranolol nadolol labetalol hydrochlorothiazide hctz chlorthalidone indapamide
    furosemide lasix bumetanide torsemide spironolactone eplerenone hydralazine clonidine doxazosin
    nitroglycerin isosorbide digoxin amiodarone sotalol flecainide dronedarone ivabradine
    warfarin coumadin apixaban eliquis rivaroxaban xarelto dabigatran pradaxa edoxaban lixiana heparin
    enoxaparin lovenox dalteparin fragmin tinzaparin clopidogrel plavix ticagrelor brilinta prasugrel
    omeprazole pantoprazole esomeprazole lansoprazole rabeprazole famotidine ranitidine ondansetron zofran
    metoclopramide domperidone dimenhydrinate loperamide lactulose senna docusate
    sertraline zoloft citalopram escitalopram cipralex fluoxetine prozac paroxetine venlafaxine effexor
    duloxetine cymbalta desvenlafaxine bupropion wellbutrin mirtazapine trazodone amitriptyline nortriptyline
    lithium quetiapine seroquel olanzapine risperidone aripiprazole abilify haloperidol clozapine
    lorazepam ativan diazepam valium clonazepam alprazolam zopiclone zolpidem melatonin
    gabapentin pregabalin lyrica carbamazepine lamotrigine levetiracetam keppra phenytoin valproate
    topiramate baclofen tizanidine cyclobenzaprine methocarbamol
    amoxicillin amoxil clavulin amoxicillin-clavulanate augmentin penicillin cephalexin keflex cefazolin
    ceftriaxone cefuroxime cefixime azithromycin zithromax clarithromycin biaxin erythromycin doxycycline
    minocycline tetracycline ciprofloxacin cipro levofloxacin moxifloxacin trimethoprim
    sulfamethoxazole septra bactrim tmp-smx nitrofurantoin macrobid fosfomycin metronidazole flagyl
    clindamycin vancomycin linezolid piperacillin tazobactam meropenem gentamicin rifampin isoniazid
    fluconazole diflucan terbinafine nystatin acyclovir valacyclovir valtrex oseltamivir tamiflu paxlovid
    nirmatrelvir hydroxychloroquine
    prednisone prednisolone dexamethasone hydrocortisone methylprednisolone budesonide fluticasone
    salbutamol ventolin albuterol tiotropium spiriva symbicort advair montelukast singulair ipratropium
    levothyroxine synthroid eltroxin methimazole propylthiouracil
    alendronate fosamax risedronate denosumab prolia zoledronic calcitriol cholecalciferol
    allopurinol febuxostat colchicine methotrexate
    tamsulosin flomax finasteride dutasteride oxybutynin mirabegron sildenafil viagra tadalafil cialis
    estradiol progesterone medroxyprogesterone levonorgestrel
    kcl k-dur slow-k iron
    epinephrine epipen adalimumab humira infliximab etanercept dupilumab dupixent ustekinumab
    rituximab pembrolizumab keytruda nivolumab trastuzumab imatinib tamoxifen letrozole anastrozole
    cyclosporine tacrolimus mycophenolate azathioprine hydroxyurea
    donepezil memantine rivastigmine levodopa carbidopa sumatriptan rizatriptan
    varenicline champix nicotine naltrexone disulfiram acamprosate
    sulfa sulfonamides
    """.split()
)
# WHO INN stems ("The use of stems in the selection of International Nonproprietary Names", 2018): a word
# ending so is a drug even when the list above lacks it
DRUG_STEMS: tuple[str, ...] = (
    "pril", "sartan", "olol", "vastatin", "gliflozin", "gliptin", "glutide", "prazole", "dipine", "xaban",
    "gatran", "parin", "cillin", "mycin", "floxacin", "cycline", "conazole", "tinib", "zumab", "ximab",
    "mumab", "triptan", "dronate", "semide", "thiazide", "lukast", "azepam", "oxetine", "setron", "tidine",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class StemClass:
    """A drug class every member of which ends in one of its INN stems."""

    stems: tuple[str, ...]
    written: tuple[str, ...]  # the ways sources write the class, most specific first; the first is its name
    not_stems: tuple[str, ...] = ()  # other classes' stems that end the same way

    @property
    def name(self) -> str:
        return self.written[0]

    def holds(self, name: str) -> bool:
        """Whether a lower-case drug name ends in one of the class's stems (and in none of its look-alikes)."""
        return name.endswith(self.stems) and not name.endswith(self.not_stems)


# Drug classes by WHO INN stem (WHO/EMP/RHT/TSN/2018.1, "The use of stems in the selection of INN"): read by the
# guideline answers (a drug the knowledge base lacks, asked as its class) and the ODB tool (an unlisted drug's class)
STEM_CLASSES: dict[str, StemClass] = {
    "dhp_ccb": StemClass(("dipine",), ("dihydropyridine calcium channel blocker", "calcium channel blocker")),
    "acei": StemClass(("pril",), ("ACE inhibitor", "angiotensin-converting enzyme inhibitor")),
    "arb": StemClass(("sartan",), ("angiotensin receptor blocker", "angiotensin II receptor antagonist")),
    # diazepam derivatives; -azolam: alprazolam, midazolam, triazolam
    "benzodiazepine": StemClass(("azepam", "azolam"), ("benzodiazepine",)),
    "thiazide": StemClass(("thiazide",), ("thiazide diuretic", "thiazide")),  # chlorothiazide derivatives
    "thiazide_like": StemClass(("pamide",), ("thiazide-like diuretic", "diuretic")),  # indapamide
    "betablocker": StemClass(("olol", "alol", "ilol"), ("beta blocker", "beta-blocker")),  # -alol, -ilol: labetalol, carvedilol
    "statin": StemClass(("vastatin",), ("statin", "HMG-CoA reductase inhibitor")),
    # '-piprazole' names psychotropics (aripiprazole), not proton pump inhibitors
    "ppi": StemClass(("prazole",), ("proton pump inhibitor",), not_stems=("piprazole",)),
    "triptan": StemClass(("triptan",), ("triptan",)),  # 5-HT1 receptor agonists
    "profen": StemClass(("profen",), ("NSAID", "nonsteroidal anti-inflammatory")),  # ibuprofen derivatives
    "coxib": StemClass(("coxib",), ("NSAID", "COX-2 inhibitor")),  # selective cyclo-oxygenase inhibitors
    "setron": StemClass(("setron",), ("5-HT3 antagonist",)),
    "sglt2": StemClass(("gliflozin",), ("SGLT2 inhibitor",)),
    "dpp4": StemClass(("gliptin",), ("DPP-4 inhibitor",)),
    "glp1": StemClass(("glutide", "enatide"), ("GLP-1 receptor agonist",)),  # -enatide: exenatide
    "doac": StemClass(("xaban", "gatran"), ("direct oral anticoagulant",)),  # factor Xa and thrombin inhibitors
    "bisphosphonate": StemClass(("dronate",), ("bisphosphonate",)),
}  # fmt: skip

# more WHO INN and USAN stems, for telling that a word is a drug (triage keeps to the shorter list above)
_MORE_STEMS = tuple(
    """
    mab anib ciclib parib lisib zomib platin taxel rubicin tecan mustine vir virine buvir previr asvir navir vudine
    penem fungin terol tropium sonide olone methasone cortisone zolam barbital triptyline pramine apine peridone
    piprazole perone peridol faxine caine curium curonium profen coxib relin relix orsen siran cept kinra fibrate
    glinide glitazone formin arone afil osin grel trozole lutamide mifene actone pidem plon quine nidazole bendazole
    """.split()
)
STEM_MIN = 6  # letters of a word that may end in a stem: "sartan" is a stem, "tan" in "titan" is not
# a disease, a procedure, a cell, a microbe or an enzyme by its ending: "cirrhosis", "colectomy", "macrophages"
_CLINICAL_ENDING = re.compile(
    r"(?:itis|itides|osis|oses|iasis|iases|a?emias?|omas?|omata|path(?:y|ies|ic)|plasias?|trophy|algia|uria|penia|"
    r"rrh(?:o?ea|age|agia)|plegia|paresis|lepsy|phylaxis|megaly|ectomy|otomy|ostomy|plasty|scopy|iatrics?|iatry|"
    r"ectasis|cytes?|cytic|phages?|cocc(?:us|i)|bacter(?:ia|ium)?|virus(?:es)?|"
    r"(?:kin|lip|prote|peptid|polymer|transfer|reduct|oxid|synth|synthet|hydrol|isomer|lig|nucle|phosphat|ester|"
    r"amyl|lact|transcript|dehydrogen)ases?)$"
)
# an organ, a tissue or a body fluid by its root: "pancreatic", "hepatic", "nephropathy", "lactic"
_CLINICAL_ROOT = re.compile(
    r"^(?:cardi|hepat|nephr|pancrea|gastr|pulmon|neur|dermat|oste|arthr|myel|thyr|adren|prostat|ovari|uter|cervic|"
    r"o?esophag|bronch|laryng|pharyng|retin|cerebr|crani|ha?emat|lymph|splen|thromb|embol|aort|arteri|ventric|"
    r"atri|vagin|urethr|ureter|lact|glyc)"
)


def drug_name(word: str) -> bool:
    """Whether a lower-case word is a drug: a name on the list, or a word ending in an INN stem."""
    return word in DRUG_NAMES or (len(word) >= STEM_MIN and word.endswith(DRUG_STEMS + _MORE_STEMS))


def clinical_form(word: str) -> bool:
    """Whether a lower-case word is built as a disease, procedure, organ, cell, microbe or enzyme is."""
    return bool(_CLINICAL_ENDING.search(word) or _CLINICAL_ROOT.match(word))


def gene_like(word: str) -> bool:
    """Whether a token mixes letters and digits, as a gene, a protein or a strain does ("samhd1", "cd4")."""
    return any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
