"""Specialty names as people say them, mapped to the Schedule's two-digit specialty codes.

The codes and the Schedule's own names come from the Schedule's table of
contents (``Anaesthesia (01)``, A72); this adds the spellings and the
practitioner nouns a question uses ('anesthesiologist', 'internist').
"""

from __future__ import annotations

__all__ = ["SCHEDULE_PHRASES", "SCHEDULE_WORDS", "SPECIALTY_ALIASES"]

# alias (lower case, words separated by one space) -> specialty code in the Schedule's table of contents
SPECIALTY_ALIASES: dict[str, str] = {
    alias: code
    for code, aliases in {
        "00": "family practice|family physician|family doctor|family medicine|general practice|general practitioner"
        "|gp|family practitioner",
        "01": "anaesthesia|anesthesia|anaesthesiology|anesthesiology|anaesthesiologist|anesthesiologist|anaesthetist",
        "02": "dermatology|dermatologist",
        "03": "general surgery|general surgeon",
        "04": "neurosurgery|neurosurgeon",
        "05": "community medicine",
        "06": "orthopaedic surgery|orthopedic surgery|orthopaedic|orthopedic|orthopaedic surgeon|orthopedic surgeon",
        "07": "geriatrics|geriatrician|geriatric medicine",
        "08": "plastic surgery|plastic surgeon",
        "09": "cardiac surgery|cardiac surgeon",
        "11": "critical care medicine|critical care|intensivist",
        "12": "emergency medicine|emergency physician|er physician",
        "13": "internal medicine|internist|occupational medicine|gen im|general im|im doc",
        "15": "endocrinology|endocrinologist",
        "16": "nephrology|nephrologist",
        "17": "vascular surgery|vascular surgeon",
        "18": "neurology|neurologist|neuro",
        "19": "psychiatry|psychiatrist",
        "20": "obstetrics|gynaecology|gynecology|obstetrician|gynaecologist|gynecologist|ob gyn|obgyn",
        "22": "genetics|geneticist|medical genetics",
        "23": "ophthalmology|ophthalmologist",
        "24": "otolaryngology|otolaryngologist|ent",
        "26": "paediatrics|pediatrics|paediatrician|pediatrician",
        "28": "laboratory medicine|pathology|pathologist",
        "31": "physical medicine|physiatry|physiatrist|rehabilitation",
        "33": "diagnostic radiology|radiology|radiologist",
        "34": "radiation oncology|radiation oncologist|rad onc|radonc",
        "35": "urology|urologist",
        "41": "gastroenterology|gastroenterologist|gi office|gi clinic|gi doc|gi specialist",
        "44": "medical oncology|medical oncologist|oncologist",
        "46": "infectious disease|infectious diseases|id doc|id clinic|id physician|id specialist|id team",
        "47": "respiratory disease|respirology|respirologist",
        "48": "rheumatology|rheumatologist",
        "60": "cardiology|cardiologist",
        "61": "haematology|hematology|haematologist|hematologist",
        "62": "clinical immunology|immunology|immunologist|allergist",
        "63": "nuclear medicine|nuc med|nuclear med",
        "64": "general thoracic surgery|thoracic surgery|thoracic surgeon",
    }.items()
    for alias in aliases.split("|")
}

# a clerk's everyday word -> the word the Schedule uses for the same thing (not a service or a code: the
# Schedule writes 'telephone' where people say 'phone', 'emergency department' where they say 'ER')
SCHEDULE_WORDS: dict[str, tuple[str, ...]] = {
    "phone": ("telephone",),
    "er": ("emergency", "department"),
    # a clinician's shorthand, written as the Schedule spells the word out
    "exam": ("examination",),  # E077 "Identification of patient for a major eye examination", A8
    "exams": ("examination",),
    "lac": ("laceration",),
    "lacs": ("laceration",),
    "bx": ("biopsy",),
    "bxs": ("biopsy",),
    "shot": ("injection",),
    "shots": ("injection",),
    "mgmt": ("management",),
    "resus": ("resuscitation",),
    "pts": ("patients",),
    "stitch": ("suture",),
    "stitches": ("suture",),
    "stitched": ("suture",),
    "glue": ("tissue", "adhesive"),
    # clinical abbreviations, as the Schedule writes the service out
    "cvs": ("chorionic", "villus", "sampling"),  # Z779
    "uvc": ("umbilical", "vein", "catheterization"),  # G282
    "hb": ("haemoglobin",),  # G481
    "hgb": ("haemoglobin",),
    "foley": ("catheterization",),  # an indwelling urinary catheter: Z603 "Catheterization - home"
    "nst": ("non", "stress", "test"),  # P025 "Non stress test"
    "lp": ("lumbar", "puncture"),  # Z804 "Lumbar puncture"
    "iufd": ("intra", "uterine", "fetal", "demise"),  # P001 "… intra-uterine fetal demise …"
    "sti": ("std",),  # K028 "STD management"
    "dexa": ("bone", "mineral", "density"),  # X145 … "Bone Mineral Density (BMD) Measurement"
    "dxa": ("bone", "mineral", "density"),
    "pft": ("pulmonary", "function"),  # J3 "Pulmonary Function Studies"
    "pfts": ("pulmonary", "function"),
    "ekg": ("ecg",),
    "uppp": ("uvulopalatopharyngoplasty",),  # S036
    "tpn": ("parenteral", "alimentation"),  # G510 "… Management of parenteral alimentation …"
    "ductogram": ("ductography",),  # J037 "Mammary ductography"
    "echo": ("echocardiography",),
    "stis": ("std",),
    "unna": ("unna's",),  # Z200 "Application of Unna's paste"
    # the Schedule's 'out-patient' (K197 "Individual out-patient psychotherapy"), one word or clipped
    "outpt": ("out", "patient"),
    "outpts": ("out", "patient"),
    "outpatient": ("out", "patient"),
    "outpatients": ("out", "patient"),
    "glued": ("tissue", "adhesive"),
    # an organ's plain name and the adjective the Schedule titles it by (Z601 "Renal biopsy, needle")
    "kidney": ("kidney", "renal"),
}

# everyday phrases whose words are not the Schedule's one by one (a letter and a slash, a hyphenated short form, a
# plain name for a service the Schedule titles otherwise): the question's text is read as the phrase's Schedule words
_PAIRED = ("side", "leg", "arm", "eye", "ear", "nostril", "breast", "knee", "hip", "foot", "hand", "lung", "kidney")
_PAIRED_PLURAL = (
    "sides",
    "legs",
    "arms",
    "eyes",
    "ears",
    "nostrils",
    "breasts",
    "knees",
    "hips",
    "feet",
    "hands",
    "lungs",
    "kidneys",
)
SCHEDULE_PHRASES: dict[str, str] = {
    "c-section": "caesarean section",
    "c section": "caesarean section",
    "csection": "caesarean section",
    "f/u": "follow-up",
    "w/": "with",
    "w/o": "without",
    "1:1": "individual",  # the Schedule's word for care of one patient (K007 "Psychotherapy: Individual care")
    "one-on-one": "individual",
    "one on one": "individual",
    "e-consult": "e-consultation",
    "econsult": "e-consultation",
    "flu shot": "influenza immunization",  # a vaccine's shot is an immunization, not an injection of a drug
    "flu vaccine": "influenza immunization",
    "annual physical": "periodic health visit",
    "yearly physical": "periodic health visit",
    "annual checkup": "periodic health visit",
    "annual check-up": "periodic health visit",
    "yearly checkup": "periodic health visit",
    "yearly check-up": "periodic health visit",
    # clinical shorthand for a procedure, said as the Schedule names it
    "flex sig": "flexible sigmoidoscopy",
    "ac tap": "anterior chamber paracentesis",  # E175 "Therapeutic paracentesis …"
    "g-tube": "gastrostomy tube",  # Z520 "Change of gastrostomy tube"
    "gtube": "gastrostomy tube",
    "u/s": "ultrasound",
    "pill cam": "capsule endoscopy",
    "pillcam": "capsule endoscopy",
    "pap test": "cervical cancer screening specimen",  # G365 "Collection of cervical cancer screening specimen(s)"
    "pap smear": "cervical cancer screening specimen",
    "cxr": "chest x-ray",
    "tte": "transthoracic echocardiography",
    "allergy shot": "hyposensitisation injection",
    "allergy shots": "hyposensitisation injection",
    "allergy injection": "hyposensitisation injection",
    # where the physician came from or worked, not a visit to the patient's home (B990 … "Special Visits to
    # Patient's Home"): 'called in from home to the emergency department', 'read the CT from home over PACS'
    "from home": "",
    # a side said by the part treated: the Schedule's 'unilateral' / 'bilateral' (G536 "Sclerotherapy …, unilateral")
    **{f"one {part}": f"unilateral {part}" for part in _PAIRED},
    **{f"both {parts}": f"bilateral {parts}" for parts in _PAIRED_PLURAL},
}
