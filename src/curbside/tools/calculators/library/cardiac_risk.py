"""Cardiac risk: stroke risk in atrial fibrillation (CHA₂DS₂-VASc), bleeding risk on anticoagulation
(HAS-BLED), chest pain in the emergency department (HEART) and perioperative cardiac risk (RCRI)."""

from __future__ import annotations

from curbside.tools.calculators.kit import (
    Band,
    Calculator,
    Choice,
    Criterion,
    Given,
    Number,
    Outcome,
    band_for,
    sum_points,
)

__all__ = ["CALCULATORS"]

_AGE_ALIASES = ("age", "year-old", "yo", "y/o", "years old")

# --- CHA2DS2-VASc ------------------------------------------------------------------------------------
# Lip GYH, Nieuwlaat R, Pisters R, Lane DA, Crijns HJGM. Refining clinical risk stratification for
# predicting stroke and thromboembolism in atrial fibrillation using a novel risk factor-based approach:
# the Euro Heart Survey on atrial fibrillation. Chest 2010;137:263-72, the score's definition (C 1, H 1, A2 2, D 1,
# S2 2, V 1, A 1, Sc 1; maximum 9). Categories 0 low, 1 intermediate, >= 2 high as in the 2010 ESC AF
# guideline (Camm AJ et al. Eur Heart J 2010;31:2369-429) that adopted it.
_CHA2DS2_VASC = "Lip GYH et al. Chest 2010;137:263-72"

_CHA2DS2_VASC_BANDS = (
    Band(float("-inf"), "low", "0: low stroke risk — no antithrombotic therapy"),
    Band(1, "intermediate", "1: intermediate stroke risk — consider oral anticoagulation"),
    Band(2, "high", "≥ 2: high stroke risk — oral anticoagulation recommended"),
)


def _cha2ds2_vasc_age_points(age: float) -> int:
    """A2: age >= 75 years 2 points; A: 65-74 years 1 point."""
    if age >= 75:
        return 2
    if age >= 65:
        return 1
    return 0


def _cha2ds2_vasc(given: Given) -> Outcome:
    points, _ = sum_points(given)  # the criteria and the sex category
    age_points = _cha2ds2_vasc_age_points(given.num("age"))
    total = points + age_points
    band = band_for(total, _CHA2DS2_VASC_BANDS)
    female = given.choice("sex") == "female"
    warnings: list[str] = []
    if female:
        warnings.append(
            "Female sex is a risk modifier rather than a risk factor (2020 ESC AF guideline, Hindricks G et al. "
            "Eur Heart J 2021;42:373-498): oral anticoagulation is recommended at ≥ 3 in women (≥ 2 in men) and "
            "considered at 2 (1 in men); a woman whose only point is her sex is at low risk."
        )
    return Outcome(
        total,
        "points",
        band.category,
        band.meaning,
        warnings=warnings,
        extra={"age_points": float(age_points), "cha2ds2_va": total - (1 if female else 0)},
    )


# --- HAS-BLED ----------------------------------------------------------------------------------------
# Pisters R, Lane DA, Nieuwlaat R, de Vos CB, Crijns HJGM, Lip GYH. A novel user-friendly score (HAS-BLED)
# to assess 1-year risk of major bleeding in patients with atrial fibrillation: the Euro Heart Survey.
# Chest 2010;138:1093-100, the score's table with its definitions (one point each; abnormal renal and
# liver function one each; drugs and alcohol one each; maximum 9; >= 3 'high risk').
_HAS_BLED = "Pisters R et al. Chest 2010;138:1093-100"
_HAS_BLED_AGE = 65  # 'Elderly': age > 65 years

_HAS_BLED_BANDS = (
    Band(float("-inf"), "low to moderate", "0–2: bleeding risk not high"),
    Band(
        3,
        "high",
        "≥ 3: high bleeding risk — caution and regular review; correct the modifiable factors (uncontrolled "
        "blood pressure, labile INR, antiplatelet drugs or NSAIDs, alcohol); not by itself a reason to withhold "
        "anticoagulation",
    ),
)


def _has_bled(given: Given) -> Outcome:
    points, _ = sum_points(given)
    elderly = 1 if given.num("age") > _HAS_BLED_AGE else 0
    total = points + elderly
    band = band_for(total, _HAS_BLED_BANDS)
    return Outcome(total, "points", band.category, band.meaning, extra={"age_points": float(elderly)})


# --- HEART -------------------------------------------------------------------------------------------
# Six AJ, Backus BE, Kelder JC. Chest pain in the emergency room: value of the HEART score. Neth Heart J
# 2008;16:191-6, the score's table (History, ECG, Age, Risk factors, Troponin, 0-2 each; low 0-3, intermediate
# 4-6, high 7-10). Outcome by band: Backus BE et al. A prospective validation of the HEART score for
# chest pain patients at the emergency department. Int J Cardiol 2013;168:2153-8 (abstract: 6-week MACE
# 1.7 %, 16.6 %, 50.1 %).
_HEART = "Six AJ et al. Neth Heart J 2008;16:191-6; Backus BE et al. Int J Cardiol 2013;168:2153-8"


def _heart_age_points(age: float) -> int:
    """Six 2008: <= 45 years 0, 45-65 years 1, >= 65 years 2 (45 itself scored 0)."""
    if age >= 65:
        return 2
    if age > 45:
        return 1
    return 0


_HEART_BANDS = (
    Band(
        float("-inf"),
        "low",
        "0–3: low risk — 6-week major adverse cardiac events 1.7 % (Backus 2013); early discharge may be considered",
    ),
    Band(
        4,
        "moderate",
        "4–6: moderate risk — 6-week MACE 16.6 % (Backus 2013); admit for observation and further testing",
    ),
    Band(7, "high", "7–10: high risk — 6-week MACE 50.1 % (Backus 2013); early invasive strategy"),
)


def _heart(given: Given) -> Outcome:
    points, _ = sum_points(given)  # history, ECG, risk factors, troponin
    age = given.num("age")
    age_points = _heart_age_points(age)
    total = points + age_points
    band = band_for(total, _HEART_BANDS)
    warnings: list[str] = []
    if age == 45:
        warnings.append("Age 45 lies on the published boundary (≤ 45: 0, 45–65: 1); scored 0 here.")
    return Outcome(
        total, "points", band.category, band.meaning, warnings=warnings, extra={"age_points": float(age_points)}
    )


# --- RCRI --------------------------------------------------------------------------------------------
# Lee TH, Marcantonio ER, Mangione CM, et al. Derivation and prospective validation of a simple index for
# prediction of cardiac risk of major noncardiac surgery. Circulation 1999;100:1043-9 (six
# factors, one point each; classes I-IV for 0, 1, 2, >= 3, rates by class in Table 3) and the abstract's major cardiac complication
# rates in the validation cohort (n = 1422): 0.4 %, 0.9 %, 7 %, 11 %.
_RCRI = "Lee TH et al. Circulation 1999;100:1043-9"
_RCRI_CREATININE = 2.0  # mg/dL: > 2.0 (177 µmol/L) scores

_RCRI_BANDS = (
    Band(float("-inf"), "class I", "0 factors: class I — major cardiac complications 0.4 % (Lee 1999 validation)"),
    Band(1, "class II", "1 factor: class II — major cardiac complications 0.9 %"),
    Band(2, "class III", "2 factors: class III — major cardiac complications 7 %"),
    Band(3, "class IV", "≥ 3 factors: class IV — major cardiac complications 11 %"),
)


def _rcri(given: Given) -> Outcome:
    points, _ = sum_points(given)
    # compared at 2 decimals, so Lee's SI equivalent 177 µmol/L (2.002 mg/dL) sits at, not above, 2.0
    renal = 1 if round(given.num("creatinine"), 2) > _RCRI_CREATININE else 0
    total = points + renal
    band = band_for(total, _RCRI_BANDS)
    return Outcome(total, "points", band.category, band.meaning, extra={"creatinine_points": float(renal)})


CALCULATORS = (
    Calculator(
        id="cha2ds2_vasc",
        title="CHA₂DS₂-VASc score (stroke risk in atrial fibrillation)",
        summary="annual stroke risk in non-valvular atrial fibrillation: 0 low, 1 intermediate, ≥ 2 high (anticoagulate).",
        formula="CHA₂DS₂-VASc, Lip 2010 (0–9)",
        citation=_CHA2DS2_VASC,
        inputs=(
            Number("age", "Age", "age", 18, 120, aliases=_AGE_ALIASES),
            Choice("sex", "Sex", {"male": 0, "female": 1}, description="Sex category: female 1 point."),
            Criterion(
                "heart_failure",
                "Congestive heart failure or left ventricular dysfunction",
                aliases=("CHF", "heart failure", "HFrEF", "LV dysfunction", "reduced ejection fraction"),
            ),
            Criterion(
                "hypertension",
                "Hypertension",
                aliases=("HTN", "high blood pressure", "on antihypertensives"),
            ),
            Criterion(
                "diabetes",
                "Diabetes mellitus",
                # not bare "diabetes": that would find diabetes insipidus
                aliases=("DM", "T2DM", "T1DM", "type 2 diabetes", "type II diabetes", "type 1 diabetes", "diabetic"),
            ),
            Criterion(
                "stroke_tia_thromboembolism",
                "Prior stroke, TIA or thromboembolism",
                points=2,
                aliases=("stroke", "CVA", "TIA", "transient ischaemic attack", "systemic embolism"),
            ),
            Criterion(
                "vascular_disease",
                "Vascular disease (prior myocardial infarction, peripheral artery disease, aortic plaque)",
                aliases=("prior MI", "PAD", "peripheral arterial disease", "aortic plaque", "CAD"),
            ),
        ),
        compute=_cha2ds2_vasc,
        warnings=(
            "For atrial fibrillation without moderate–severe mitral stenosis or a mechanical valve.",
            "The 2024 ESC AF guideline uses CHA₂DS₂-VA (sex removed), given as extra 'cha2ds2_va': "
            "anticoagulation recommended at ≥ 2 and considered at 1.",
        ),
    ),
    Calculator(
        id="has_bled",
        title="HAS-BLED score (major bleeding risk in atrial fibrillation)",
        summary="1-year major bleeding risk on anticoagulation in atrial fibrillation; ≥ 3 high risk.",
        formula="HAS-BLED, Pisters 2010 (0–9)",
        citation=_HAS_BLED,
        inputs=(
            Criterion(
                "hypertension",
                "Hypertension, uncontrolled (systolic > 160 mmHg)",
                aliases=("uncontrolled hypertension", "SBP > 160", "uncontrolled BP"),
            ),
            Criterion(
                "renal_disease",
                "Abnormal renal function (dialysis, transplant, or creatinine ≥ 200 µmol/L / 2.26 mg/dL)",
                aliases=("dialysis", "renal transplant", "CKD", "renal impairment"),
            ),
            Criterion(
                "liver_disease",
                "Abnormal liver function (cirrhosis, or bilirubin > 2× ULN with AST/ALT/ALP > 3× ULN)",
                aliases=("cirrhosis", "chronic liver disease", "hepatic impairment"),
            ),
            Criterion("stroke", "Prior stroke", aliases=("CVA", "stroke", "prior stroke")),
            Criterion(
                "bleeding",
                "Bleeding history or predisposition (e.g. bleeding diathesis, anaemia)",
                aliases=("prior major bleed", "GI bleed", "anemia", "anaemia", "bleeding diathesis"),
            ),
            Criterion(
                "labile_inr",
                "Labile INR (unstable or high INRs, time in therapeutic range < 60 %)",
                aliases=("labile INR", "low TTR", "unstable INR"),
            ),
            Number("age", "Age", "age", 18, 120, aliases=_AGE_ALIASES, description="Elderly: age > 65 years."),
            Criterion(
                "drugs",
                "Drugs predisposing to bleeding (antiplatelet agents, NSAIDs)",
                aliases=("aspirin", "clopidogrel", "NSAID", "antiplatelet"),
            ),
            Criterion(
                "alcohol",
                "Alcohol excess (≥ 8 drinks a week)",
                description="Pisters 2010: 'alcohol abuse'; ≥ 8 drinks a week is the usual reading (2016 ESC AF guideline).",
                aliases=("alcohol abuse", "heavy drinking", "alcohol use disorder"),
            ),
        ),
        compute=_has_bled,
        warnings=(
            "HAS-BLED flags patients for review and correction of modifiable bleeding risks; a high score is not "
            "by itself a reason to withhold anticoagulation.",
        ),
    ),
    Calculator(
        id="heart",
        title="HEART score (chest pain in the emergency department)",
        summary="6-week major adverse cardiac events in ED chest pain from History, ECG, Age, Risk factors, Troponin.",
        formula="HEART score, Six 2008 (0–10)",
        citation=_HEART,
        inputs=(
            Choice(
                "history",
                "History",
                {"slightly": 0, "moderately": 1, "highly": 2},
                description="How suspicious the history is for acute coronary syndrome: slightly (or not), moderately, highly.",
            ),
            Choice(
                "ecg",
                "ECG",
                {"normal": 0, "nonspecific": 1, "st_depression": 2},
                description=(
                    "nonspecific: non-specific repolarisation disturbance (LBBB, LVH, repolarisation changes, e.g. "
                    "digoxin; paced rhythm); st_depression: significant ST depression."
                ),
            ),
            Number("age", "Age", "age", 18, 120, aliases=_AGE_ALIASES),
            Choice(
                "risk_factors",
                "Risk factors",
                {"none": 0, "one_or_two": 1, "three_or_more": 2},
                absent="none",
                description=(
                    "Count of: hypercholesterolaemia, hypertension, diabetes mellitus, current or recent smoking, "
                    "family history of coronary disease, obesity (BMI > 30). three_or_more also for any history of "
                    "atherosclerotic disease (prior MI, PCI/CABG, stroke/TIA, peripheral arterial disease)."
                ),
            ),
            Choice(
                "troponin",
                "Initial troponin",
                {"normal": 0, "one_to_three_times": 1, "three_times_or_more": 2},
                description=(
                    "Against the local assay's normal limit: normal (≤ the limit), one_to_three_times (above the "
                    "limit, below 3×), three_times_or_more (≥ 3× the limit)."
                ),
            ),
        ),
        compute=_heart,
        warnings=(
            "For undifferentiated chest pain in the emergency department; not for ST-elevation myocardial infarction.",
        ),
    ),
    Calculator(
        id="rcri",
        title="Revised Cardiac Risk Index (Lee)",
        summary="risk of major cardiac complications after non-cardiac surgery from six factors; classes I–IV.",
        formula="Revised Cardiac Risk Index, Lee 1999 (0–6, classes I–IV)",
        citation=_RCRI,
        inputs=(
            Criterion(
                "high_risk_surgery",
                "High-risk surgery (intraperitoneal, intrathoracic, or suprainguinal vascular)",
                aliases=("intraperitoneal surgery", "thoracic surgery", "vascular surgery", "AAA repair"),
            ),
            Criterion(
                "ischaemic_heart_disease",
                "Ischaemic heart disease (prior MI, positive exercise test, angina, nitrate use, pathological Q waves)",
                aliases=("CAD", "coronary artery disease", "prior MI", "angina", "IHD"),
            ),
            Criterion(
                "heart_failure",
                "Congestive heart failure (history, pulmonary oedema, PND, rales or S3, vascular redistribution on CXR)",
                aliases=("CHF", "heart failure", "pulmonary oedema", "pulmonary edema"),
            ),
            Criterion(
                "cerebrovascular_disease",
                "Cerebrovascular disease (prior stroke or TIA)",
                aliases=("stroke", "CVA", "TIA"),
            ),
            Criterion(
                "insulin",
                "Diabetes treated with insulin preoperatively",
                aliases=("insulin-dependent diabetes", "on insulin", "IDDM"),
            ),
            Number(
                "creatinine",
                "Preoperative serum creatinine",
                "creatinine",
                0.1,
                25,
                description="Scores when above 2.0 mg/dL (177 µmol/L).",
                aliases=("creatinine", "Cr", "SCr"),
            ),
        ),
        compute=_rcri,
        warnings=(
            "Derived in patients ≥ 50 years having elective major non-cardiac surgery; it tends to underestimate "
            "risk in vascular surgery.",
        ),
    ),
)
