"""Venous thromboembolism: Wells for DVT (2003 two-tier; 1997 three-tier), Wells for PE (two- or
three-tier), the PE rule-out criteria (PERC) and the Caprini surgical VTE risk score (2005)."""

from __future__ import annotations

from curbside.tools.calculators.kit import (
    Above,
    Band,
    Calculator,
    Choice,
    Criterion,
    Given,
    Number,
    Outcome,
    Recent,
    band_for,
    sum_points,
)

__all__ = ["CALCULATORS"]

# Wells PS et al. Evaluation of D-dimer in the diagnosis of suspected deep-vein thrombosis.
# N Engl J Med 2003;349:1227-35, Table 1 (the 1997 items plus previously documented DVT; two tiers).
_WELLS_2003 = "Wells PS et al. N Engl J Med 2003;349:1227-35 (Table 1)"
# Wells PS et al. Value of assessment of pretest probability of deep-vein thrombosis in clinical
# management. Lancet 1997;350:1795-8, Table 1 (nine items; low <= 0, moderate 1-2, high >= 3).
_WELLS_1997 = "Wells PS et al. Lancet 1997;350:1795-8 (Table 1)"

# aliases: the words a note uses for each item, for reading it from a note (note_criteria.py); each is the
# item itself or a full name of it, never a part ("leg swelling" is not an entire leg swollen)
# A prior DVT or PE, by its common names; "prior DVT or PE" as one phrase, so that "denies prior DVT or PE"
# denies both at once.
_PRIOR_DVT = (
    "previous DVT", "prior DVT", "history of DVT", "previous deep vein thrombosis", "prior deep vein thrombosis",
    "history of deep vein thrombosis",
)  # fmt: skip
_PRIOR_VTE = (
    *_PRIOR_DVT, "prior PE", "previous PE", "history of PE", "prior pulmonary embolism",
    "previous pulmonary embolism", "history of pulmonary embolism", "prior VTE", "previous VTE", "history of VTE",
    "prior DVT or PE", "prior DVT/PE", "prior PE or DVT", "previous DVT or PE", "history of DVT or PE",
    "history of DVT/PE", "history of PE or DVT",
)  # fmt: skip
# The events a "surgery within N weeks" criterion is timed by (note_recent.py reads "… 3 weeks ago"). Major:
# operations done under general anaesthesia with a hospital stay, as PERC, Wells DVT and Caprini ask;
# any surgery counts for Wells PE.
_MAJOR_SURGERY = (
    "major surgery", "arthroplasty", "knee replacement", "hip replacement", "joint replacement", "laparotomy",
    "thoracotomy", "craniotomy", "CABG", "coronary artery bypass",
)  # fmt: skip
_ANY_SURGERY = (*_MAJOR_SURGERY, "surgery", "operation")
_DVT_ITEMS = (
    Criterion(
        "active_cancer",
        "Active cancer (treatment ongoing, within 6 months, or palliative)",
        aliases=("cancer", "malignancy", "carcinoma", "metastatic", "metastases", "chemotherapy", "tumour", "tumor"),
    ),
    Criterion(
        "paralysis_or_cast",
        "Paralysis, paresis, or recent plaster immobilisation of the legs",
        aliases=("paralysis", "paresis", "hemiparesis", "paraplegia", "plaster cast"),
    ),
    Criterion(
        "bedridden_or_surgery",
        "Recently bedridden ≥ 3 days, or major surgery within 12 weeks",
        aliases=("bedridden", "bedbound", "bed rest", "major surgery"),
        recent=Recent(84, 85, events=_MAJOR_SURGERY),  # 12 weeks
    ),
    Criterion(
        "localized_tenderness",
        "Localised tenderness along the deep venous system",
        aliases=("calf tenderness", "tender calf", "deep vein tenderness", "tenderness along the deep veins"),
    ),
    Criterion(
        "entire_leg_swollen",
        "Entire leg swollen",
        aliases=("entire leg swelling", "whole leg swollen", "whole leg swelling"),
    ),
    Criterion(
        "calf_swelling_3cm",
        "Calf swelling ≥ 3 cm more than the other side (10 cm below tibial tuberosity)",
        aliases=("calf swelling", "calf circumference", "calf asymmetry"),
    ),
    Criterion(
        "pitting_edema", "Pitting oedema confined to the symptomatic leg", aliases=("pitting oedema", "pitting edema")
    ),
    Criterion(
        "collateral_veins",
        "Collateral superficial veins (non-varicose)",
        aliases=("collateral veins", "collateral superficial veins"),
    ),
)
_PREVIOUS_DVT = Criterion("previous_dvt", "Previously documented DVT", aliases=_PRIOR_DVT)
_ALTERNATIVE = Criterion(
    "alternative_diagnosis",
    "Alternative diagnosis at least as likely as DVT",
    points=-2,
    aliases=("alternative diagnosis",),
)

_BANDS_2003 = (
    Band(float("-inf"), "DVT unlikely", "< 2: DVT unlikely — a negative D-dimer can exclude DVT"),
    Band(2, "DVT likely", "≥ 2: DVT likely — imaging (compression ultrasound) indicated"),
)
_BANDS_1997 = (
    Band(float("-inf"), "low", "≤ 0: low pretest probability (about 3 % DVT in the derivation cohort)"),
    Band(1, "moderate", "1–2: moderate pretest probability (about 17 %)"),
    Band(3, "high", "≥ 3: high pretest probability (about 75 %)"),
)


def _points_outcome(bands: tuple[Band, ...]):  # type: ignore[no-untyped-def]
    def compute(given: Given) -> Outcome:
        total, _ = sum_points(given)
        band = band_for(total, bands)
        return Outcome(total, "points", band.category, band.meaning)

    return compute


# --- Wells PE --------------------------------------------------------------------------------------
# Wells PS et al. Derivation of a simple clinical model to categorize patients' probability of pulmonary
# embolism: increasing the model's utility with the SimpliRED D-dimer. Thromb Haemost 2000;83:416-20,
# the simplified point score (seven items; three tiers: low < 2, moderate 2-6, high > 6; and the dichotomy <= 4 / > 4).
# Two tiers as used for management: Wells PS et al. Ann Intern Med 2001;135:98-107 and the Christopher
# study, van Belle A et al. JAMA 2006;295:172-9 ('PE unlikely' <= 4 with a normal D-dimer: no imaging).
_WELLS_PE = "Wells PS et al. Thromb Haemost 2000;83:416-20; two tiers per van Belle A et al. JAMA 2006;295:172-9"

_WELLS_PE_ITEMS = (
    Criterion(
        "clinical_signs_dvt",
        "Clinical signs and symptoms of DVT (at least leg swelling and pain on palpation of the deep veins)",
        points=3,
        aliases=("signs of DVT", "leg swelling", "calf tenderness", "swollen painful leg"),
    ),
    Criterion(
        "pe_most_likely",
        "PE the most likely diagnosis (an alternative diagnosis less likely than PE)",
        points=3,
        aliases=("PE most likely", "PE #1 diagnosis", "alternative diagnosis less likely"),
    ),
    Criterion(
        "heart_rate_over_100",
        "Heart rate > 100 beats/min",
        points=1.5,
        description="True when the measured rate is above 100/min (a rate of exactly 100 does not count).",
        aliases=("tachycardia", "HR > 100", "pulse over 100", "tachycardic"),
        measured=Above("Heart rate", "rate", 100, 10, 300),
    ),
    Criterion(
        "immobilisation_or_surgery",
        "Immobilisation ≥ 3 days or surgery in the previous 4 weeks",
        points=1.5,
        aliases=("immobilization", "bedridden", "recent surgery", "postoperative"),
        recent=Recent(28, 29, events=_ANY_SURGERY),  # 4 weeks
    ),
    Criterion("previous_dvt_pe", "Previous DVT or PE (objectively diagnosed)", points=1.5, aliases=_PRIOR_VTE),
    Criterion("haemoptysis", "Haemoptysis", points=1, aliases=("hemoptysis", "coughing blood")),
    Criterion(
        "malignancy",
        "Malignancy (on treatment, treated within the last 6 months, or palliative)",
        points=1,
        aliases=("cancer", "active cancer", "on chemotherapy", "metastatic"),
    ),
)
_WELLS_PE_TWO = (
    Band(
        float("-inf"),
        "PE unlikely",
        "≤ 4: PE unlikely — a normal D-dimer excludes PE without imaging (Christopher study); "
        "if the D-dimer is raised, CT pulmonary angiography",
    ),
    Band(4.5, "PE likely", "> 4: PE likely — CT pulmonary angiography; a D-dimer is not used to exclude PE"),
)
_WELLS_PE_THREE = (
    Band(float("-inf"), "low", "< 2: low pretest probability of PE"),
    Band(2, "moderate", "2–6: moderate pretest probability of PE"),
    Band(6.5, "high", "> 6: high pretest probability of PE"),
)


def _wells_pe(given: Given) -> Outcome:
    total, _ = sum_points(given)
    bands = _WELLS_PE_TWO if given.choice("tiers") == "two" else _WELLS_PE_THREE
    band = band_for(total, bands)
    return Outcome(total, "points", band.category, band.meaning, digits=1)


# --- PERC -------------------------------------------------------------------------------------------
# Kline JA et al. Clinical criteria to prevent unnecessary diagnostic testing in emergency department
# patients with suspected pulmonary embolism. J Thromb Haemost 2004;2:1247-55 (the eight criteria:
# age >= 50, heart rate >= 100, SaO2 < 95 % on room air, unilateral leg swelling, haemoptysis, recent
# surgery or trauma, prior PE or DVT, hormone use; all absent = PERC negative, applied only when the
# clinician's pretest probability is low). Definitions of the history items as in Kline JA et al.
# J Thromb Haemost 2008;6:772-80 (the prospective multicentre validation).
_PERC = "Kline JA et al. J Thromb Haemost 2004;2:1247-55"
_PERC_AGE = 50  # years; >= 50 is a positive criterion
_PERC_HEART_RATE = 100  # /min; >= 100 is positive
_PERC_SPO2 = 95  # %; < 95 is positive

_PERC_ITEMS = (
    Number("age", "Age", "age", 18, 120, aliases=("age", "year-old", "yo", "y/o")),
    Number(
        "heart_rate",
        "Heart rate",
        "rate",
        20,
        300,
        aliases=("heart rate", "HR", "pulse", "P"),
    ),
    Number(
        "oxygen_saturation",
        "Oxygen saturation (room air)",
        "percent",
        20,
        100,
        description="Pulse oximetry or SaO2 breathing room air.",
        aliases=("SpO2", "SaO2", "O2 sat", "oxygen saturation", "sats"),
    ),
    Criterion(
        "unilateral_leg_swelling",
        "Unilateral leg swelling",
        aliases=("leg swelling", "asymmetric calves", "swollen leg"),
    ),
    Criterion("haemoptysis", "Haemoptysis", aliases=("hemoptysis", "coughing blood")),
    Criterion(
        "recent_surgery_or_trauma",
        "Surgery or trauma within the past 4 weeks (requiring hospitalisation or intubation)",
        aliases=("recent surgery", "recent trauma", "postoperative"),
        recent=Recent(28, 29, events=_MAJOR_SURGERY),  # 4 weeks; trauma is not timed (how severe is unsaid)
    ),
    Criterion("previous_dvt_pe", "Prior PE or DVT", aliases=_PRIOR_VTE),
    Criterion(
        "hormone_use",
        "Exogenous oestrogen use (oral contraceptive, hormone replacement)",
        aliases=("oral contraceptive", "OCP", "estrogen", "HRT", "hormone replacement"),
    ),
)

_PERC_NAMES = {
    "unilateral_leg_swelling": "unilateral leg swelling",
    "haemoptysis": "haemoptysis",
    "recent_surgery_or_trauma": "recent surgery or trauma",
    "previous_dvt_pe": "prior PE or DVT",
    "hormone_use": "oestrogen use",
}


def _perc(given: Given) -> Outcome:
    measured = {
        f"age ≥ {_PERC_AGE}": given.num("age") >= _PERC_AGE,
        f"heart rate ≥ {_PERC_HEART_RATE}": given.num("heart_rate") >= _PERC_HEART_RATE,
        f"SaO2 < {_PERC_SPO2} %": given.num("oxygen_saturation") < _PERC_SPO2,
    }
    present = [name for name, positive in measured.items() if positive]
    present += [name for key, name in _PERC_NAMES.items() if given.flag(key)]
    count = len(present)
    if count == 0:
        category = "PERC negative"
        meaning = (
            "0 of 8 criteria: PERC negative — when the clinical pretest probability is already low, PE is "
            "ruled out without a D-dimer; with a higher pretest probability PERC does not apply"
        )
    else:
        category = "PERC positive"
        meaning = (
            f"{count} of 8 criteria ({', '.join(present)}): PERC positive — PE cannot be ruled out by PERC; "
            "go on to D-dimer or imaging by pretest probability"
        )
    extra = {
        "age_50_or_more": float(measured[f"age ≥ {_PERC_AGE}"]),
        "heart_rate_100_or_more": float(measured[f"heart rate ≥ {_PERC_HEART_RATE}"]),
        "saturation_below_95": float(measured[f"SaO2 < {_PERC_SPO2} %"]),
    }
    return Outcome(count, "criteria", category, meaning, extra=extra)


# --- Caprini -----------------------------------------------------------------------------------------
# Caprini JA. Thrombosis risk assessment as a guide to quality patient care. Dis Mon 2005;51:70-8,
# the 2005 risk assessment form (Figure 1): factors worth 1, 2, 3 or 5 points each, summed.
# Risk levels as validated by Bahl V et al. A validation study of a retrospective venous thromboembolism
# risk scoring method. Ann Surg 2010;251:344-50: 0-1 low, 2 moderate, 3-4 high, >= 5 highest.
_CAPRINI = "Caprini JA. Dis Mon 2005;51:70-8 (2005 form); risk levels per Bahl V et al. Ann Surg 2010;251:344-50"


def _caprini_age_points(age: float) -> int:
    """2005 form: 41-60 years 1 point, 61-74 years 2, >= 75 years 3 (<= 40: none)."""
    if age >= 75:
        return 3
    if age >= 61:
        return 2
    if age >= 41:
        return 1
    return 0


_CAPRINI_ITEMS = (
    Number("age", "Age", "age", 18, 120, aliases=("age", "year-old", "yo", "y/o")),
    Choice(
        "surgery",
        "Surgery (this admission)",
        {"none": 0, "minor": 1, "major": 2, "arthroplasty": 5},
        absent="none",
        description=(
            "minor: minor surgery planned (1); major: major surgery > 45 min, laparoscopic surgery > 45 min "
            "or arthroscopic surgery (2); arthroplasty: elective major lower-extremity arthroplasty (5). "
            "One option, so one operation is not counted twice."
        ),
    ),
    Choice(
        "mobility",
        "Mobility",
        {"ambulatory": 0, "bed_rest": 1, "confined_over_72h": 2},
        absent="ambulatory",
        description="bed_rest: medical patient currently at bed rest (1); confined_over_72h: confined to bed > 72 h (2).",
    ),
    # 1 point each
    Criterion(
        "prior_major_surgery",
        "History of prior major surgery (< 1 month)",
        1,
        aliases=("recent major surgery",),
        recent=Recent(27, 31, events=("recent major surgery", *_MAJOR_SURGERY)),  # a month is 28-31 days
    ),
    Criterion("varicose_veins", "Varicose veins", 1, aliases=("varicosities",)),
    Criterion(
        "inflammatory_bowel_disease",
        "History of inflammatory bowel disease",
        1,
        aliases=("IBD", "Crohn's", "ulcerative colitis"),
    ),
    Criterion("swollen_legs", "Swollen legs (current)", 1, aliases=("leg oedema", "leg edema", "swollen legs")),
    Criterion("obesity", "Obesity (BMI > 25)", 1, aliases=("BMI > 25", "overweight", "obese")),
    Criterion("acute_mi", "Acute myocardial infarction", 1, aliases=("MI", "heart attack", "STEMI", "NSTEMI")),
    Criterion("heart_failure", "Congestive heart failure (< 1 month)", 1, aliases=("CHF", "heart failure")),
    Criterion("sepsis", "Sepsis (< 1 month)", 1, aliases=("septic",)),
    Criterion("serious_lung_disease", "Serious lung disease incl. pneumonia (< 1 month)", 1, aliases=("pneumonia",)),
    Criterion("abnormal_pulmonary_function", "Abnormal pulmonary function (COPD)", 1, aliases=("COPD", "emphysema")),
    Criterion(
        "hormones",
        "Oral contraceptives or hormone replacement therapy (women)",
        1,
        aliases=("OCP", "oral contraceptive", "HRT", "hormone replacement"),
    ),
    Criterion(
        "pregnancy_postpartum", "Pregnancy or postpartum (< 1 month) (women)", 1, aliases=("pregnant", "postpartum")
    ),
    Criterion(
        "adverse_pregnancy_history",
        "History of unexplained stillborn infant, recurrent spontaneous abortion (≥ 3), or premature birth "
        "with toxaemia or growth-restricted infant (women)",
        1,
        aliases=("stillbirth", "recurrent miscarriage", "recurrent abortion"),
    ),
    Criterion("other_risk_factor", "Other risk factor (listed on the form)", 1),
    # 2 points each
    Criterion(
        "malignancy", "Malignancy (present or previous)", 2, aliases=("cancer", "history of cancer", "malignancy")
    ),
    Criterion("plaster_cast", "Immobilising plaster cast (< 1 month)", 2, aliases=("cast", "plaster")),
    Criterion("central_venous_access", "Central venous access", 2, aliases=("central line", "CVC", "PICC", "port")),
    # 3 points each
    Criterion("history_vte", "History of DVT/PE", 3, aliases=_PRIOR_VTE),
    Criterion(
        "family_history_thrombosis",
        "Family history of thrombosis",
        3,
        aliases=("family history of VTE", "family history of DVT"),
    ),
    Criterion("factor_v_leiden", "Positive factor V Leiden", 3, aliases=("FVL", "factor V Leiden")),
    Criterion("prothrombin_20210a", "Positive prothrombin 20210A", 3, aliases=("prothrombin gene mutation", "G20210A")),
    Criterion(
        "elevated_homocysteine",
        "Elevated serum homocysteine",
        3,
        aliases=("hyperhomocysteinaemia", "hyperhomocysteinemia"),
    ),
    Criterion("lupus_anticoagulant", "Positive lupus anticoagulant", 3, aliases=("lupus anticoagulant", "LA positive")),
    Criterion(
        "anticardiolipin",
        "Elevated anticardiolipin antibodies",
        3,
        aliases=("anticardiolipin", "aCL", "antiphospholipid"),
    ),
    Criterion("hit", "Heparin-induced thrombocytopenia (HIT)", 3, aliases=("HIT", "heparin-induced thrombocytopenia")),
    Criterion("other_thrombophilia", "Other congenital or acquired thrombophilia", 3, aliases=("thrombophilia",)),
    # 5 points each
    Criterion(
        "hip_pelvis_leg_fracture",
        "Hip, pelvis or leg fracture (< 1 month)",
        5,
        aliases=("hip fracture", "pelvic fracture", "femur fracture"),
        recent=Recent(27, 31),
    ),
    Criterion("stroke", "Stroke (< 1 month)", 5, aliases=("CVA", "stroke"), recent=Recent(27, 31)),
    Criterion("multiple_trauma", "Multiple trauma (< 1 month)", 5, aliases=("polytrauma", "multiple trauma")),
    Criterion(
        "spinal_cord_injury",
        "Acute spinal cord injury (paralysis) (< 1 month)",
        5,
        aliases=("spinal cord injury", "SCI", "paraplegia"),
    ),
)
_CAPRINI_BANDS = (
    Band(float("-inf"), "low", "0–1: low risk of VTE"),
    Band(2, "moderate", "2: moderate risk of VTE"),
    Band(3, "high", "3–4: high risk of VTE"),
    Band(5, "highest", "≥ 5: highest risk of VTE (the risk keeps rising above 5; steepest above 8 in Bahl 2010)"),
)


def _caprini(given: Given) -> Outcome:
    points, _ = sum_points(given)
    age_points = _caprini_age_points(given.num("age"))
    total = points + age_points
    band = band_for(total, _CAPRINI_BANDS)
    return Outcome(total, "points", band.category, band.meaning, extra={"age_points": float(age_points)})


CALCULATORS = (
    Calculator(
        id="wells_dvt",
        title="Wells score for DVT (2003)",
        summary="pretest probability of deep-vein thrombosis from ten bedside items; ≥ 2 likely, < 2 unlikely.",
        formula="Wells DVT 2003, two-tier",
        citation=_WELLS_2003,
        inputs=(*_DVT_ITEMS, _PREVIOUS_DVT, _ALTERNATIVE),
        compute=_points_outcome(_BANDS_2003),
    ),
    Calculator(
        id="wells_dvt_1997",
        title="Wells score for DVT (1997, three-tier)",
        summary="the original nine-item Wells DVT model: low (≤ 0), moderate (1–2), high (≥ 3) pretest probability.",
        formula="Wells DVT 1997, three-tier",
        citation=_WELLS_1997,
        inputs=(*_DVT_ITEMS, _ALTERNATIVE),
        compute=_points_outcome(_BANDS_1997),
    ),
    Calculator(
        id="wells_pe",
        title="Wells score for pulmonary embolism",
        summary="pretest probability of PE from seven bedside items; two tiers (> 4 likely) or three (low/moderate/high).",
        formula="Wells PE 2000 (7 items); two-tier > 4 / ≤ 4 or three-tier < 2 / 2–6 / > 6",
        citation=_WELLS_PE,
        inputs=(
            *_WELLS_PE_ITEMS,
            Choice(
                "tiers",
                "Interpretation",
                {"two": 0, "three": 0},
                default="two",
                description=(
                    "two (default): 'PE likely' > 4, 'PE unlikely' ≤ 4, the dichotomy used with D-dimer "
                    "(Wells 2001; van Belle 2006); three: low < 2, moderate 2–6, high > 6 (Wells 2000)."
                ),
            ),
        ),
        compute=_wells_pe,
        warnings=(
            "'PE the most likely diagnosis' is the clinician's judgement; the score is only as good as that item.",
        ),
    ),
    Calculator(
        id="perc",
        title="PERC rule (pulmonary embolism rule-out criteria)",
        summary="rules out PE without a D-dimer when pretest probability is low and all 8 criteria are absent.",
        formula="PERC, Kline 2004 (8 criteria)",
        citation=_PERC,
        inputs=_PERC_ITEMS,
        compute=_perc,
        warnings=(
            "Apply PERC only when the clinical pretest probability of PE is already low (gestalt, about < 15 %); "
            "a positive PERC does not mean PE is likely.",
        ),
    ),
    Calculator(
        id="caprini",
        title="Caprini VTE risk score (2005)",
        summary="surgical venous thromboembolism risk from the 2005 Caprini form; low, moderate, high, highest.",
        formula="Caprini risk assessment model, 2005 version; Bahl 2010 risk levels",
        citation=_CAPRINI,
        inputs=_CAPRINI_ITEMS,
        compute=_caprini,
        warnings=(
            "Risk levels here are Bahl 2010's (0–1, 2, 3–4, ≥ 5); the ACCP 2012 guideline (Gould MK et al., "
            "Chest 2012;141:e227S) groups the same score as very low 0, low 1–2, moderate 3–4, high ≥ 5.",
            "Choose prophylaxis with the bleeding risk in view; the score does not weigh bleeding.",
        ),
    ),
)
