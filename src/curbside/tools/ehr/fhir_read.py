"""FHIR R4 resources turned into the compact rows of ``read_models``: reading, never inventing.

Each ``*_row`` takes one resource as the server sent it (a dict) and keeps what a clinician reads,
following the R4 element definitions (https://hl7.org/fhir/R4/<type>.html). Missing elements stay None.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from curbside.tools.ehr.read_models import (
    AllergyRow,
    Coded,
    ComponentRow,
    ConditionRow,
    EncounterRow,
    MedicationRow,
    ObservationRow,
    PatientRow,
    Value,
)

__all__ = [
    "age_on",
    "allergy_row",
    "coded",
    "condition_row",
    "dose_text",
    "encounter_row",
    "local_date",
    "medication_row",
    "observation_date",
    "observation_row",
    "observation_value",
    "patient_row",
    "status_code",
]

Resource = dict[str, Any]

# short names for the code systems charts use most (https://hl7.org/fhir/R4/terminologies-systems.html)
_SYSTEMS = {
    "http://loinc.org": "LOINC",
    "http://snomed.info/sct": "SNOMED CT",
    "http://www.nlm.nih.gov/research/umls/rxnorm": "RxNorm",
    "http://hl7.org/fhir/sid/icd-10-cm": "ICD-10-CM",
    "http://hl7.org/fhir/sid/icd-10": "ICD-10",
    "http://hl7.org/fhir/sid/cvx": "CVX",
    "http://hl7.org/fhir/sid/ndc": "NDC",
}
# Encounter.class is a v3 ActCode (http://terminology.hl7.org/CodeSystem/v3-ActCode, _ActEncounterCode)
_ENCOUNTER_CLASS = {
    "AMB": "ambulatory",
    "EMER": "emergency",
    "IMP": "inpatient",
    "ACUTE": "inpatient acute",
    "NONAC": "inpatient non-acute",
    "OBSENC": "observation",
    "PRENC": "pre-admission",
    "SS": "short stay",
    "VR": "virtual",
    "HH": "home health",
    "FLD": "field",
}
# Timing.repeat.periodUnit is a UCUM unit of time (https://hl7.org/fhir/R4/valueset-units-of-time.html)
_TIME_UNITS = {"s": "second", "min": "minute", "h": "hour", "d": "day", "wk": "week", "mo": "month", "a": "year"}
_TIMES = {1: "once", 2: "twice"}


def coded(concept: Any) -> Coded:
    """A CodeableConcept as its first coding (system, code, display), the display falling back to its text."""
    if not isinstance(concept, dict):
        return Coded()
    codings = [c for c in concept.get("coding") or () if isinstance(c, dict)]
    first = codings[0] if codings else {}
    system = first.get("system")
    return Coded(
        system=_SYSTEMS.get(system, system) if isinstance(system, str) else None,
        code=first.get("code"),
        display=first.get("display") or concept.get("text"),
    )


def _words(concept: Any) -> str | None:
    """A CodeableConcept as the words a person reads: its text, else its first coding's display or code."""
    if not isinstance(concept, dict):
        return None
    if concept.get("text"):
        return str(concept["text"])
    for coding in concept.get("coding") or ():
        if isinstance(coding, dict) and (coding.get("display") or coding.get("code")):
            return str(coding.get("display") or coding.get("code"))
    return None


def status_code(concept: Any) -> str | None:
    """The code of a status CodeableConcept (Condition.clinicalStatus, AllergyIntolerance.verificationStatus …)."""
    if isinstance(concept, dict):
        for coding in concept.get("coding") or ():
            if isinstance(coding, dict) and coding.get("code"):
                return str(coding["code"])
        return str(concept["text"]) if concept.get("text") else None
    return None


def local_date(value: str | None) -> date | None:
    """The calendar date a FHIR date or dateTime names, as recorded (its own offset, not UTC)."""
    if not value or len(value) < 4:
        return None
    try:
        parts = value[:10].split("-")
        return date(int(parts[0]), int(parts[1]) if len(parts) > 1 else 1, int(parts[2]) if len(parts) > 2 else 1)
    except (ValueError, IndexError):
        return None


def age_on(birth_date: str | None, day: date) -> int | None:
    """Whole years from a birth date to ``day``; None when the birth date is missing or later."""
    born = local_date(birth_date)
    if born is None or born > day:
        return None
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


# --- Patient --------------------------------------------------------------------------------------------


def patient_row(patient: Resource) -> PatientRow:
    names = [n for n in patient.get("name") or () if isinstance(n, dict)]
    official = next((n for n in names if n.get("use") == "official"), names[0] if names else None)
    name = None
    if official is not None:
        name = official.get("text") or " ".join([*(official.get("given") or ()), official.get("family") or ""]).strip()
    deceased: str | None = patient.get("deceasedDateTime")
    if deceased is None and patient.get("deceasedBoolean") is True:
        deceased = "yes"
    return PatientRow(
        id=str(patient.get("id")),
        name=name or None,
        birth_date=patient.get("birthDate"),
        sex=patient.get("gender"),
        mrn=_mrn(patient),
        deceased=deceased,
    )


def _mrn(patient: Resource) -> str | None:
    # the MR type of the v2 identifier-type table (http://terminology.hl7.org/CodeSystem/v2-0203)
    for identifier in patient.get("identifier") or ():
        codes = {c.get("code") for c in ((identifier.get("type") or {}).get("coding") or ()) if isinstance(c, dict)}
        if "MR" in codes and identifier.get("value"):
            return str(identifier["value"])
    return None


# --- Condition, AllergyIntolerance, Encounter -------------------------------------------------------------


def condition_row(condition: Resource) -> ConditionRow:
    return ConditionRow(
        id=str(condition.get("id")),
        code=coded(condition.get("code")),
        clinical_status=status_code(condition.get("clinicalStatus")),
        verification_status=status_code(condition.get("verificationStatus")),
        onset=condition.get("onsetDateTime")
        or (condition.get("onsetPeriod") or {}).get("start")
        or condition.get("onsetString"),
        abatement=condition.get("abatementDateTime")
        or (condition.get("abatementPeriod") or {}).get("start")
        or condition.get("abatementString"),
        recorded=condition.get("recordedDate"),
    )


def allergy_row(allergy: Resource) -> AllergyRow:
    reactions = []
    for reaction in allergy.get("reaction") or ():
        for manifestation in reaction.get("manifestation") or ():
            words = _words(manifestation)
            if words:
                severity = reaction.get("severity")
                reactions.append(f"{words} ({severity})" if severity else words)
    return AllergyRow(
        id=str(allergy.get("id")),
        substance=coded(allergy.get("code")),
        type=allergy.get("type"),
        category=[str(c) for c in allergy.get("category") or ()],
        criticality=allergy.get("criticality"),
        clinical_status=status_code(allergy.get("clinicalStatus")),
        verification_status=status_code(allergy.get("verificationStatus")),
        reactions=reactions,
        recorded=allergy.get("recordedDate") or allergy.get("onsetDateTime"),
    )


def encounter_row(encounter: Resource) -> EncounterRow:
    klass = encounter.get("class") or {}
    klass_code = klass.get("code") if isinstance(klass, dict) else None
    types = encounter.get("type") or ()
    reasons = [_words(r) for r in encounter.get("reasonCode") or ()]
    reasons += [r.get("display") for r in encounter.get("reasonReference") or () if isinstance(r, dict)]
    period = encounter.get("period") or {}
    return EncounterRow(
        id=str(encounter.get("id")),
        date=period.get("start"),
        end=period.get("end"),
        encounter_class=_ENCOUNTER_CLASS.get(klass_code, klass_code) if klass_code else None,
        type=_words(types[0]) if types else None,
        reason="; ".join(r for r in reasons if r) or None,
        status=encounter.get("status"),
    )


# --- MedicationRequest ------------------------------------------------------------------------------------


def medication_row(request: Resource, reasons: dict[str, str] | None = None) -> MedicationRow:
    """``reasons`` maps ``Condition/id`` to words, for orders whose reason is a reference to a problem."""
    medication = coded(request.get("medicationCodeableConcept"))
    if medication.display is None and isinstance(request.get("medicationReference"), dict):
        medication = Coded(display=request["medicationReference"].get("display"))
    why = [_words(r) for r in request.get("reasonCode") or ()]
    for ref in request.get("reasonReference") or ():
        if isinstance(ref, dict):
            why.append(ref.get("display") or (reasons or {}).get(str(ref.get("reference"))))
    return MedicationRow(
        id=str(request.get("id")),
        medication=medication,
        status=request.get("status"),
        dose=dose_text(request),
        authored_on=request.get("authoredOn"),
        reason="; ".join(w for w in why if w) or None,
    )


def dose_text(request: Resource) -> str | None:
    """MedicationRequest.dosageInstruction in words: its text when given, else dose, route, timing and PRN
    from the structured elements (https://hl7.org/fhir/R4/dosage.html). None when there is no instruction."""
    parts = []
    for dosage in request.get("dosageInstruction") or ():
        if not isinstance(dosage, dict):
            continue
        if dosage.get("text"):
            parts.append(str(dosage["text"]))
            continue
        words = []
        for dose_rate in dosage.get("doseAndRate") or ():
            quantity = dose_rate.get("doseQuantity")
            if isinstance(quantity, dict) and quantity.get("value") is not None:
                words.append(
                    "dose " + " ".join(str(x) for x in (_number(quantity["value"]), quantity.get("unit")) if x)
                )
                break
        route = _words(dosage.get("route"))
        if route:
            words.append(route)
        timing = _timing_text(dosage.get("timing"))
        if timing:
            words.append(timing)
        if dosage.get("asNeededBoolean") is True or dosage.get("asNeededCodeableConcept"):
            need = _words(dosage.get("asNeededCodeableConcept"))
            words.append(f"as needed for {need}" if need else "as needed")
        if words:
            parts.append(", ".join(words))
    return "; ".join(parts) or None


def _timing_text(timing: Any) -> str | None:
    if not isinstance(timing, dict):
        return None
    repeat = timing.get("repeat") or {}
    frequency, period, unit = repeat.get("frequency"), repeat.get("period"), repeat.get("periodUnit")
    if frequency is not None and period is not None and unit in _TIME_UNITS:
        times = _TIMES.get(frequency, f"{_number(frequency)} times")
        name = _TIME_UNITS[unit]
        if float(period) == 1:
            return f"{times} a {name}" if name != "hour" else f"{times} an hour"
        return f"{times} every {_number(period)} {name}s"
    return _words(timing.get("code"))


def _number(value: Any) -> Any:
    """1.0 → 1 for display (dose 1.0 reads as 1); other values unchanged."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# --- Observation ------------------------------------------------------------------------------------------


def observation_date(observation: Resource) -> str | None:
    """When it was observed: effective[x] (dateTime, period start, instant), else when it was issued."""
    return (
        observation.get("effectiveDateTime")
        or (observation.get("effectivePeriod") or {}).get("start")
        or observation.get("effectiveInstant")
        or observation.get("issued")
    )


def observation_value(element: Resource) -> tuple[Value | None, str | None]:
    """The value[x] of an Observation or one of its components, with its unit (None for words)."""
    quantity = element.get("valueQuantity")
    if isinstance(quantity, dict):
        return quantity.get("value"), quantity.get("unit") or quantity.get("code")
    for key in ("valueString", "valueBoolean", "valueInteger", "valueDateTime", "valueTime"):
        if key in element:
            value: Value = element[key]
            return value, None
    if "valueCodeableConcept" in element:
        return _words(element["valueCodeableConcept"]), None
    ranged = element.get("valueRange")
    if isinstance(ranged, dict):
        low, high = (ranged.get("low") or {}), (ranged.get("high") or {})
        return f"{low.get('value', '')}–{high.get('value', '')}", low.get("unit") or high.get("unit")
    return None, None


def observation_row(observation: Resource) -> ObservationRow:
    value, unit = observation_value(observation)
    components = []
    for component in observation.get("component") or ():
        if isinstance(component, dict):
            part, part_unit = observation_value(component)
            components.append(ComponentRow(code=coded(component.get("code")), value=part, unit=part_unit))
    interpretation = [w for w in (status_code(i) for i in observation.get("interpretation") or ()) if w]
    return ObservationRow(
        id=str(observation.get("id")),
        date=observation_date(observation),
        code=coded(observation.get("code")),
        value=value,
        unit=unit,
        status=observation.get("status"),
        interpretation=interpretation,
        components=components,
    )
