"""The application's tool families: each registers itself with narrow dependencies, resolved on first use."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from curbside.app import Curbside
from curbside.app.tool_families import build_registry
from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult
from curbside.settings import Settings


def test_every_family_registers_its_tools(tmp_path: Path) -> None:
    app = Curbside(Settings(home=tmp_path / "home"))
    registry = build_registry(app)
    assert [spec.name for spec in registry if not spec.name.startswith("calc.")] == [
        "source.passages",
        "kb.search",
        "kb.ask",
        "evidence.search_pubmed",
        "evidence.search_europepmc",
        "evidence.find_clinical_trials",
        "evidence.check_drug_safety",
        "evidence.check_drug_interactions",
        "evidence.adverse_events",
        "evidence.search_medical_guidelines",
        "evidence.search_web",
        "evidence.search_evidence_service",
        "ehr.search_patient",
        "ehr.get_patient_chart",
        "ehr.get_observations",
        "ehr.get_medications",
        "ehr.get_conditions",
        "ehr.get_allergies",
        "ehr.record_vital",
        "ehr.add_allergy",
        "ehr.prescribe_medication",
        "ehr.order_service",
        "ehr.save_clinical_note",
        "calendar.list_events",
        "calendar.create_event",
        "files.search",
        "files.read",
        "vision.describe_image",
        "confirmations.pending",
        "confirmations.decide",
        "consult.turn",
        "odb.get",
        "schedule.get",
        "adp.get",
        "coverage.answer",
    ]
    calculators = [spec for spec in registry if spec.name.startswith("calc.")]
    assert len(calculators) >= 50 and {"calc.wells_dvt", "calc.meld_na", "calc.ckd_epi_2021"} <= {
        spec.name for spec in calculators
    }
    assert all(spec.category == "calculation" and spec.requires_phi and spec.citation for spec in calculators)
    evidence = [spec for spec in registry if spec.name.startswith("evidence.")]
    assert all(spec.category == "evidence" and not spec.requires_phi for spec in evidence)  # PHI is refused, not sent
    writes = [spec for spec in registry if spec.requires_confirmation]
    assert {spec.name for spec in writes} == {
        "ehr.record_vital",
        "ehr.add_allergy",
        "ehr.prescribe_medication",
        "ehr.order_service",
        "ehr.save_clinical_note",
        "calendar.create_event",
    }
    # writing to the chart is its own permission: admin may read the chart, not write it (default)
    assert all(spec.allowed_roles == {"clinician"} for spec in writes if spec.name.startswith("ehr."))
    assert all(spec.requires_phi for spec in registry if spec.category in ("ehr", "workspace"))
    spec = registry.get("odb.get")
    assert spec.args_model is OdbGetArgs and spec.result_model is OdbGetResult
    assert spec.input_schema() == OdbGetArgs.model_json_schema()


def test_building_the_registry_opens_nothing(tmp_path: Path) -> None:
    """Listing tools must not create the home, the database or the audit key."""
    home = tmp_path / "home"
    app = Curbside(Settings(home=home))
    build_registry(app)
    assert not home.exists()
    assert not {"db", "odb", "ohip", "adp", "audit", "search_engine"} & set(app.__dict__)


def test_a_familys_limits_come_from_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURBSIDE_TOOL_ODB_TIMEOUT_S", "1.75")
    monkeypatch.setenv("CURBSIDE_TOOL_ODB_RATE_LIMIT", "7")
    spec = build_registry(Curbside(Settings(home=tmp_path))).get("odb.get")
    assert (spec.category, spec.requires_phi, spec.timeout_s, spec.rate_limit) == ("coverage", False, 1.75, 7)


def test_a_call_reaches_the_familys_own_service(tmp_path: Path) -> None:
    """odb.get's handler gets ctx.deps (its service), never the application: with nothing loaded it says so."""
    app = Curbside(Settings(home=tmp_path / "home"))
    try:
        result = asyncio.run(app.tools.call("odb.get", {"drug": "atorvastatin"}))
    finally:
        app.close()
    assert result.status == "error" and result.error is not None and result.error.code == "NOT_LOADED"
    assert "curbside coverage load" in result.error.message
