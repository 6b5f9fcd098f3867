"""The EHR write tools' arguments, checked in full before a clinician is asked to confirm anything.

A value that cannot be right (a systolic of 1200, 50000 mg, a LOINC code whose check digit fails, a
note time in the future) is refused here, as a VALIDATION_ERROR naming the range or the format, so
no confirmation is ever created for it. Each model also says its call in words (``describe``) for the
clinician who approves it, and after the write (``summary``). Only the patient's existence needs the
server: the handler reads ``Patient/{id}`` before it writes.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from curbside import clock
from curbside.tools.ehr.write_codes import loinc_problem, rxnorm_problem, snomed_problem
from curbside.tools.ehr.write_vocab import (
    DIASTOLIC_RANGE,
    FREQUENCY_EXAMPLES,
    NOTE_TYPES,
    ROUTES,
    SYSTOLIC_RANGE,
    VITALS,
    DoseUnit,
    Frequency,
    Unit,
    dose_unit,
    parse_frequency,
    route_name,
)

__all__ = [
    "AddAllergyArgs",
    "EhrWriteResult",
    "OrderServiceArgs",
    "PrescribeMedicationArgs",
    "RecordVitalArgs",
    "SaveClinicalNoteArgs",
    "WriteArgs",
    "number_words",
]

NOTE_MAX_CHARS = 50_000
# a clock a little ahead of ours is not a typo; an hour ahead is
_CLOCK_SLACK = timedelta(minutes=5)
_EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
_ORDER_PAST = timedelta(days=1)  # an order may be dated today, in any time zone
_ORDER_AHEAD = timedelta(days=2 * 365)

VitalKindName = Literal[
    "blood_pressure", "heart_rate", "respiratory_rate", "temperature", "spo2", "weight", "height", "bmi"
]
RouteName = Literal[
    "oral", "intravenous", "intramuscular", "subcutaneous", "topical", "inhaled", "sublingual", "buccal", "rectal",
    "vaginal", "transdermal", "nasal", "ophthalmic", "otic", "intradermal",
]  # fmt: skip
assert set(get_args(RouteName)) == set(ROUTES)  # one list of routes: checked at import


def _patient_id(value: Any) -> Any:
    # 'Patient/abc' is how references read: take it as the id it names
    return value.strip().removeprefix("Patient/") if isinstance(value, str) else value


PatientId = Annotated[
    str,
    BeforeValidator(_patient_id),
    StringConstraints(pattern=r"^[A-Za-z0-9\-.]{1,64}$"),
    Field(
        description="The patient's FHIR id, from ehr.search_patient (e.g. 'b71278db-83e5-38f8-e337-9754621aad7b'); "
        "'Patient/<id>' is accepted too."
    ),
]
ShortText = Annotated[str, StringConstraints(min_length=1, max_length=200)]
NoteText = Annotated[str, StringConstraints(min_length=1, max_length=2000)]
Number = Annotated[float, Field(allow_inf_nan=False)]


def _refuse(message: str) -> PydanticCustomError:
    # the message is the whole error; "{why}" keeps braces in it (UCUM's {tablet}) from being read as a template
    return PydanticCustomError("implausible", "{why}", {"why": message})


def number_words(value: float) -> str:
    """120.0 → '120', 98.60 → '98.6': a value as a person writes it."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _in_range(what: str, value: float, unit: Unit, low: float, high: float, reference_unit: str) -> None:
    reference = unit.to_reference(value)
    if low <= reference <= high:
        return
    shown = f"{number_words(value)} {unit.display}"
    if unit.display != reference_unit:
        shown += f" ({number_words(round(reference, 1))} {reference_unit})"
    raise _refuse(
        f"{what[0].upper()}{what[1:]} {shown} is outside the plausible range {number_words(low)}–{number_words(high)} "
        f"{reference_unit}; this range is a typo guard, not a clinical limit: check the value and its unit."
    )


def _not_future(moment: datetime | None, what: str) -> None:
    if moment is None:
        return
    if moment > clock.now() + _CLOCK_SLACK:
        raise _refuse(
            f"The {what} {moment.isoformat()} is in the future: give when it happened (or leave it out: now)."
        )
    if moment < _EARLIEST:
        raise _refuse(f"The {what} {moment.isoformat()} is before 1900: check the year.")


def _code_problem(system: str, code: str) -> str | None:
    return {"loinc": loinc_problem, "snomed": snomed_problem, "rxnorm": rxnorm_problem}[system](code)


class WriteArgs(BaseModel):
    """What every write names: the patient. Subclasses say their call in words."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    resource_type: ClassVar[str]
    verbs: ClassVar[tuple[str, str]]  # ("Record", "Recorded")

    patient_id: PatientId

    def phrase(self, at: datetime | None = None) -> str:
        """The call's content in a clinician's words; ``at`` is the time the write used for 'now'."""
        raise NotImplementedError

    def describe(self) -> str:
        """The call, for the clinician who approves it."""
        return f"{self.verbs[0]} {self.phrase()} for Patient/{self.patient_id} — {self.resource_type}"

    def summary(self, resource_id: str, at: datetime) -> str:
        return f"{self.verbs[1]} {self.phrase(at)} for Patient/{self.patient_id} as {self.resource_type}/{resource_id}"


def _when(moment: datetime | date | None, at: datetime | None, default: str) -> str:
    chosen = moment or at
    return chosen.isoformat() if chosen is not None else default


class RecordVitalArgs(WriteArgs):
    resource_type = "Observation"
    verbs = ("Record", "Recorded")

    kind: VitalKindName = Field(description="Which vital sign.")
    value: Number | None = Field(
        None, description="The reading, for every kind but blood_pressure: e.g. 72 (heart_rate), 37.2 (temperature)."
    )
    systolic: Number | None = Field(None, description="blood_pressure only: the systolic pressure, e.g. 128.")
    diastolic: Number | None = Field(None, description="blood_pressure only: the diastolic pressure, e.g. 82.")
    unit: str | None = Field(
        None,
        max_length=20,
        description="The value's unit; default by kind: mmHg, /min, Cel (°C), %, kg, cm, kg/m2. Also accepted: "
        "°F for temperature, lb or g for weight, in or m for height.",
    )
    effective: AwareDatetime | None = Field(
        None, description="When it was measured, with a UTC offset (e.g. '2025-03-01T09:30:00-05:00'); default: now."
    )

    @model_validator(mode="after")
    def _plausible(self) -> RecordVitalArgs:
        vital = VITALS[self.kind]
        unit = vital.unit(self.unit)
        if unit is None:
            accepted = ", ".join(sorted({u.display for u in vital.units.values()}))
            raise _refuse(f"{self.unit!r} is not a unit for {vital.name}: use {accepted}.")
        if self.kind == "blood_pressure":
            if self.systolic is None or self.diastolic is None or self.value is not None:
                raise _refuse("A blood pressure needs systolic and diastolic (e.g. 128 and 82), not value.")
            _in_range("systolic blood pressure", self.systolic, unit, *SYSTOLIC_RANGE, "mmHg")
            _in_range("diastolic blood pressure", self.diastolic, unit, *DIASTOLIC_RANGE, "mmHg")
            if self.diastolic >= self.systolic:
                raise _refuse(
                    f"The diastolic ({number_words(self.diastolic)}) must be below the systolic "
                    f"({number_words(self.systolic)}): are they swapped?"
                )
        else:
            if self.value is None or self.systolic is not None or self.diastolic is not None:
                raise _refuse(f"A {vital.name} needs value (systolic and diastolic are for blood_pressure).")
            _in_range(vital.name, self.value, unit, vital.low, vital.high, vital.reference_unit)
        _not_future(self.effective, "measurement time")
        return self

    @property
    def ucum(self) -> Unit:
        unit = VITALS[self.kind].unit(self.unit)
        assert unit is not None  # checked by _plausible
        return unit

    def reading_words(self) -> str:
        if self.kind == "blood_pressure":
            assert self.systolic is not None and self.diastolic is not None
            return f"{number_words(self.systolic)}/{number_words(self.diastolic)} {self.ucum.display}"
        assert self.value is not None
        return f"{number_words(self.value)} {self.ucum.display}"

    def phrase(self, at: datetime | None = None) -> str:
        vital = VITALS[self.kind]
        taken = _when(self.effective, at, "now")
        return f"{vital.name} {self.reading_words()} (LOINC {vital.coding[0].code}), taken {taken},"


class AddAllergyArgs(WriteArgs):
    resource_type = "AllergyIntolerance"
    verbs = ("Add", "Added")

    substance: ShortText = Field(description="What the patient reacts to, in words: 'penicillin', 'peanuts', 'latex'.")
    code_system: Literal["rxnorm", "snomed"] | None = Field(
        None, description="The substance code's system: rxnorm (drugs, e.g. 7980 penicillin G) or snomed."
    )
    code: str | None = Field(None, max_length=18, description="The substance's code in code_system (digits).")
    reaction: ShortText | None = Field(None, description="What happened, in words: 'hives', 'anaphylaxis'.")
    severity: Literal["mild", "moderate", "severe"] | None = Field(None, description="Of the reaction (needs it).")
    criticality: Literal["low", "high", "unable-to-assess"] | None = Field(
        None, description="The risk of a future life-threatening reaction: high for anaphylaxis."
    )
    verification: Literal["confirmed", "unconfirmed", "refuted"] = Field(
        "confirmed", description="confirmed (default), unconfirmed (suspected) or refuted (disproven, e.g. delabelled)."
    )
    kind: Literal["allergy", "intolerance"] | None = Field(
        None, description="Immune allergy or non-immune intolerance."
    )
    category: Literal["food", "medication", "environment", "biologic"] | None = Field(
        None, description="What sort of substance it is."
    )
    note: NoteText | None = Field(None, description="Anything else a reader needs, in words.")

    @model_validator(mode="after")
    def _consistent(self) -> AddAllergyArgs:
        if (self.code is None) != (self.code_system is None):
            raise _refuse("Give code and code_system together (e.g. code_system 'rxnorm', code '7980'), or neither.")
        if self.code is not None and self.code_system is not None:
            if problem := _code_problem(self.code_system, self.code):
                raise _refuse(problem)
        if self.severity is not None and self.reaction is None:
            raise _refuse("severity describes a reaction: give the reaction too (e.g. 'hives').")
        return self

    def phrase(self, at: datetime | None = None) -> str:
        parts = [f"{self.verification} {self.kind or 'allergy'} to {self.substance}"]
        if self.code:
            parts[0] += f" ({'RxNorm' if self.code_system == 'rxnorm' else 'SNOMED CT'} {self.code})"
        if self.reaction:
            parts.append(f"reaction {self.reaction}" + (f" ({self.severity})" if self.severity else ""))
        if self.criticality:
            parts.append(f"criticality {self.criticality}")
        return ", ".join(parts)


class PrescribeMedicationArgs(WriteArgs):
    resource_type = "MedicationRequest"
    verbs = ("Prescribe", "Prescribed")

    medication: ShortText = Field(
        description="The medication as the prescriber names it: 'metformin' (the RxNorm code pins the product)."
    )
    rxnorm: str = Field(max_length=8, description="Its RxNorm code (RxCUI, digits), e.g. '860975'. Required.")
    dose: Number = Field(gt=0, description="The amount per dose, e.g. 500 (with dose_unit 'mg') or 1 ('tablet').")
    dose_unit: str = Field(
        max_length=20,
        description="mg, g, mcg, units, mL, tablet, capsule, puff, drop, spray or patch.",
    )
    route: Annotated[RouteName, BeforeValidator(route_name)] = Field(
        description="How it is taken; PO, IV, IM, SC, SL, PR, 'by mouth' are understood too."
    )
    frequency: str = Field(max_length=60, description=f"How often, in words: {FREQUENCY_EXAMPLES}.")
    as_needed: bool = Field(False, description="Taken as needed (PRN) rather than on schedule.")
    as_needed_for: ShortText | None = Field(None, description="What it is taken for when as needed: 'pain'.")
    duration_days: int | None = Field(None, ge=1, le=365, description="How many days to take it; default: ongoing.")
    quantity: Number | None = Field(None, gt=0, le=10_000, description="Amount to dispense, in quantity_unit.")
    quantity_unit: str | None = Field(None, max_length=20, description="Default: dose_unit (e.g. 60 tablets).")
    refills: int | None = Field(None, ge=0, le=12, description="Refills allowed after the first fill.")
    reason: ShortText | None = Field(None, description="What it treats, in words: 'type 2 diabetes'.")
    reason_snomed: str | None = Field(None, max_length=18, description="The reason's SNOMED CT code, e.g. '44054006'.")
    note: NoteText | None = Field(None, description="Instructions for the patient or pharmacist.")

    @field_validator("rxnorm")
    @classmethod
    def _rxnorm(cls, code: str) -> str:
        if problem := rxnorm_problem(code):
            raise _refuse(problem)
        return code

    @field_validator("reason_snomed")
    @classmethod
    def _reason_code(cls, code: str | None) -> str | None:
        if code is not None and (problem := snomed_problem(code)):
            raise _refuse(problem)
        return code

    @field_validator("frequency")
    @classmethod
    def _frequency(cls, text: str) -> str:
        if parse_frequency(text) is None:
            raise _refuse(f"Frequency {text!r} is not one I can structure: use e.g. {FREQUENCY_EXAMPLES}.")
        return text

    @model_validator(mode="after")
    def _plausible_dose(self) -> PrescribeMedicationArgs:
        unit = dose_unit(self.dose_unit)
        if unit is None:
            raise _refuse(
                f"{self.dose_unit!r} is not a dose unit I know: use mg, g, mcg, units, mL, tablet, capsule, puff, "
                "drop, spray or patch."
            )
        if self.dose > unit.ceiling:
            raise _refuse(
                f"A dose of {number_words(self.dose)} {unit.words(self.dose)} is above {number_words(unit.ceiling)} "
                f"{unit.plural} per dose; this ceiling is a typo guard, not a clinical limit: check the dose and unit."
            )
        if self.quantity_unit is not None and dose_unit(self.quantity_unit) is None:
            raise _refuse(f"{self.quantity_unit!r} is not a unit I know for quantity: use e.g. tablet, mL, mg.")
        if self.as_needed_for is not None:
            self.as_needed = True
        return self

    @property
    def unit(self) -> DoseUnit:
        unit = dose_unit(self.dose_unit)
        assert unit is not None  # checked by _plausible_dose
        return unit

    @property
    def timing(self) -> Frequency:
        parsed = parse_frequency(self.frequency)
        assert parsed is not None  # checked by _frequency
        return parsed

    def dosage_words(self) -> str:
        """'500 mg by mouth twice daily for 30 days' — FHIR's Dosage.text."""
        text = f"{number_words(self.dose)} {self.unit.words(self.dose)} {ROUTES[self.route].words} {self.timing.words}"
        if self.as_needed:
            text += " as needed" + (f" for {self.as_needed_for}" if self.as_needed_for else "")
        if self.duration_days:
            text += f" for {self.duration_days} day{'s' if self.duration_days != 1 else ''}"
        return text

    def phrase(self, at: datetime | None = None) -> str:
        return f"{self.medication} {self.dosage_words()} (RxNorm {self.rxnorm})"


class OrderServiceArgs(WriteArgs):
    resource_type = "ServiceRequest"
    verbs = ("Order", "Ordered")

    kind: Literal["lab", "referral", "imaging", "procedure"] = Field(description="What sort of order.")
    code_system: Literal["loinc", "snomed"] = Field(description="loinc (lab tests, e.g. 4548-4 HbA1c) or snomed.")
    code: str = Field(max_length=18, description="The test or service's code in code_system.")
    display: ShortText = Field(description="Its name: 'Hemoglobin A1c/Hemoglobin.total in Blood'.")
    when: AwareDatetime | date | None = Field(
        None,
        description="When it should happen: a date ('2025-03-14') or a time with a UTC offset; default: unscheduled.",
    )
    priority: Literal["routine", "urgent", "asap", "stat"] = Field("routine", description="FHIR request priority.")
    reason: str | None = Field(None, min_length=1, max_length=500, description="Why, in words.")
    note: NoteText | None = Field(None, description="For whoever performs it.")

    @model_validator(mode="after")
    def _valid(self) -> OrderServiceArgs:
        if problem := _code_problem(self.code_system, self.code):
            raise _refuse(problem)
        if self.when is not None:
            now = clock.now()
            moment = (
                self.when
                if isinstance(self.when, datetime)
                else datetime.combine(self.when, datetime.min.time(), tzinfo=UTC)
            )
            if moment < now - _ORDER_PAST:
                raise _refuse(
                    f"The order's time {self.when.isoformat()} is in the past: an order is for today or later."
                )
            if moment > now + _ORDER_AHEAD:
                raise _refuse(f"The order's time {self.when.isoformat()} is more than two years ahead: check the year.")
        return self

    def phrase(self, at: datetime | None = None) -> str:
        system = "LOINC" if self.code_system == "loinc" else "SNOMED CT"
        when = f", on {self.when.isoformat()}" if self.when is not None else ""
        return f"{self.kind} {self.display} ({system} {self.code}), {self.priority}{when},"


class SaveClinicalNoteArgs(WriteArgs):
    resource_type = "DocumentReference"
    verbs = ("Save", "Saved")

    title: ShortText = Field(description="The note's title: 'Diabetes follow-up'.")
    text: str = Field(min_length=1, max_length=NOTE_MAX_CHARS, description="The note itself, plain text.")
    note_type: str = Field(
        "11506-3",
        max_length=10,
        description="Its LOINC document type: 11506-3 progress note (default), 11488-4 consult, 34117-2 history "
        "and physical, 18842-5 discharge summary, 28570-0 procedure, 57133-1 referral.",
    )
    note_type_display: ShortText | None = Field(None, description="The type's name; needed for other LOINC codes.")
    date: AwareDatetime | None = Field(None, description="When it was written, with a UTC offset; default: now.")

    @model_validator(mode="after")
    def _valid(self) -> SaveClinicalNoteArgs:
        if problem := loinc_problem(self.note_type):
            raise _refuse(problem)
        if self.note_type_display is None and self.note_type not in NOTE_TYPES:
            raise _refuse(f"LOINC {self.note_type} is not a note type I know by name: give note_type_display too.")
        _not_future(self.date, "note's date")
        return self

    @property
    def type_display(self) -> str:
        return self.note_type_display or NOTE_TYPES[self.note_type]

    def phrase(self, at: datetime | None = None) -> str:
        preview = " ".join(self.text.split())
        preview = preview if len(preview) <= 120 else preview[:119] + "…"
        return (
            f"{self.type_display.lower()} {self.title!r} (LOINC {self.note_type}, {len(self.text):,} characters, "
            f"dated {_when(self.date, at, 'now')}: {preview!r})"
        )


class EhrWriteResult(BaseModel):
    """What a write left in the chart."""

    resource_type: str = Field(description="The FHIR resource type written, e.g. 'MedicationRequest'.")
    id: str = Field(description="Its id on the FHIR server.")
    version: str | None = Field(None, description="Its version id, when the server keeps versions.")
    reference: str = Field(description="'Type/id', for citing it or reading it back.")
    patient: str = Field(description="'Patient/id': whose chart it is in.")
    summary: str = Field(description="What was written, in words.")
