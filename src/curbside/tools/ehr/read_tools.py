"""The EHR read tools: find a patient, read the chart at a glance, and read one kind of entry in full.

    ehr.search_patient      name / birth date / MRN → matches ("not found" and "several match" in words)
    ehr.get_patient_chart   demographics, problems, medications, allergies, vitals, labs, encounters
    ehr.get_observations    labs and vitals by LOINC code or common name, in a window, latest or all
    ehr.get_medications     medication orders by status
    ehr.get_conditions      conditions by clinical status
    ehr.get_allergies       allergies and intolerances ("none recorded" when the list is empty)

All read PHI (the chart), so ``requires_phi``; who may call them is the application's tool policy
(clinicians and admins): reading needs no role of its own, writing does (``write_tools``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.tools.base import ToolSpec
from curbside.tools.ehr.chart import GetChartArgs, get_patient_chart
from curbside.tools.ehr.chart_lists import (
    GetAllergiesArgs,
    GetAllergiesResult,
    GetConditionsArgs,
    GetConditionsResult,
    GetMedicationsArgs,
    GetMedicationsResult,
    get_allergies,
    get_conditions,
    get_medications,
)
from curbside.tools.ehr.chart_models import ChartSummary
from curbside.tools.ehr.observations import GetObservationsArgs, GetObservationsResult, get_observations
from curbside.tools.ehr.patient_search import SearchPatientArgs, SearchPatientResult, search_patient

if TYPE_CHECKING:
    from curbside.tools.ehr.deps import EhrDeps
    from curbside.tools.registry import ToolRegistry

__all__ = ["READ_TOOLS", "register_read_tools"]

_CITATION = "HL7 FHIR R4 RESTful API, search (https://hl7.org/fhir/R4/search.html)"

# (name, args model, result model, handler, description)
READ_TOOLS: tuple[tuple[str, Any, Any, Any, str], ...] = (
    (
        "ehr.search_patient",
        SearchPatientArgs,
        SearchPatientResult,
        search_patient,
        "Find a patient in the EHR by name (family and/or given, the start of each word is enough), birth date "
        "and/or MRN; give at least one. Returns each match's id (the patient_id every other ehr tool takes), name, "
        "birth date, sex and MRN. No match: an empty list and what to try. Several matches: all of them and a "
        "message to ask for the birth date or MRN — never pick one by guess.",
    ),
    (
        "ehr.get_patient_chart",
        GetChartArgs,
        ChartSummary,
        get_patient_chart,
        "The patient's chart at a glance: age and sex, active problems with onset, active medications with dose, "
        "allergies, latest vital signs (BP, heart rate, weight, SpO2, temperature, BMI …) and common labs (HbA1c, "
        "creatinine, eGFR, potassium, lipids …) each with unit, date and the previous value, and the last "
        "encounters. A section reads 'none recorded' when the EHR holds nothing, 'could not be read' when the EHR "
        "failed (see warnings), 'left out to fit' when the summary hit its size limit. For more of one kind, call "
        "ehr.get_observations, ehr.get_medications, ehr.get_conditions or ehr.get_allergies.",
    ),
    (
        "ehr.get_observations",
        GetObservationsArgs,
        GetObservationsResult,
        get_observations,
        "A patient's lab results or vital signs, newest first: by LOINC code or a common name ('hba1c', "
        "'creatinine', 'egfr', 'potassium', 'glucose', 'ldl', 'bp', 'weight', 'bmi' …; an unknown name lists the "
        "known ones), optionally between two dates (both included), the latest only or all (up to max_results). "
        "Each has its value and unit, date, interpretation, and components (systolic and diastolic for BP).",
    ),
    (
        "ehr.get_medications",
        GetMedicationsArgs,
        GetMedicationsResult,
        get_medications,
        "A patient's medication orders (MedicationRequest), newest first: active by default, or another status, "
        "or 'all'. Each has the medication (RxNorm code and name), dose in words, status, date written and reason.",
    ),
    (
        "ehr.get_conditions",
        GetConditionsArgs,
        GetConditionsResult,
        get_conditions,
        "A patient's conditions (problem list and diagnoses), latest onset first: active by default (including "
        "recurrence and relapse), or another clinical status, or 'all'. Each has its SNOMED CT code and name, "
        "status, onset and abatement dates.",
    ),
    (
        "ehr.get_allergies",
        GetAllergiesArgs,
        GetAllergiesResult,
        get_allergies,
        "A patient's allergies and intolerances: substance (code and name), type, category, criticality, status "
        "and reactions. An empty list comes with 'None recorded' — the EHR answered and holds none, which is not "
        "a documented 'no known allergies'; a failing EHR is an error, never an empty list.",
    ),
)


def register_read_tools(registry: ToolRegistry, deps: EhrDeps) -> None:
    """Put the six EHR read tools in ``registry``."""
    for name, args_model, result_model, handler, description in READ_TOOLS:
        registry.register(
            ToolSpec(
                name=name,
                description=description,
                args_model=args_model,
                result_model=result_model,
                handler=handler,
                category="ehr",
                requires_phi=True,  # everything read from the chart is PHI
                timeout_s=deps.settings.tool_ehr_timeout_s,
                rate_limit=deps.settings.tool_ehr_rate_limit,
                deps=deps,
                citation=_CITATION,
            )
        )
