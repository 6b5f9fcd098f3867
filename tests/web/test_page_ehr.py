"""The page with an EHR (the sandbox FHIR server with the shared Synthea adults): a patient picked by
name, a write the turn proposes put to the clinician in a dialog, approved once and denied once, the
outcome in the timeline. Slow (the sandbox starts in about 10 s), so only these two."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.tools.ehr.conftest import LoadedSandbox, adult_bundles_dir, adult_sandbox  # noqa: F401
from tests.web.conftest import Served, serve_page
from tests.web.pages import ask, expect

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, adult_sandbox: LoadedSandbox) -> Iterator[Served]:  # noqa: F811
    yield from serve_page(tmp_path_factory, CURBSIDE_FHIR_URL=adult_sandbox.url)


def pick_felica(page: Any) -> None:
    page.get_by_test_id("patient-name").fill("Prosacco")
    page.get_by_test_id("patient-find").click()
    page.get_by_test_id("patient-pick").filter(has_text="Felica").first.click()
    expect(page.get_by_test_id("patient-header")).to_contain_text("Prosacco")
    # the compact chart header: her age, and her chart's lists in a few words (she has no allergies recorded)
    summary = page.get_by_test_id("chart-summary")
    expect(summary).to_contain_text("Allergies: none recorded")
    expect(summary).to_contain_text(re.compile(r"Age \d+"))
    expect(summary).to_contain_text("Problems:")


@pytest.mark.parametrize(("decision", "outcome"), [("approve", "approved"), ("deny", "denied")])
def test_a_proposed_write_is_approved_or_denied_in_a_dialog(visit: Any, decision: str, outcome: str) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("clinician")
    pick_felica(page)
    seen.shot("patient-picked")
    ask(page, "record HR 72" if decision == "approve" else "record HR 80")
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("confirm-summary")).to_contain_text("Prosacco")
    expect(dialog.get_by_test_id("confirm-expiry")).to_contain_text("Expires in")
    seen.shot(f"confirmation-{decision}")
    dialog.get_by_test_id(f"confirm-{decision}").click()
    expect(dialog).to_be_hidden()
    note = page.locator("[data-testid=timeline-step][data-step=confirmation]")
    expect(note.get_by_test_id("step-outcome")).to_have_text(outcome)
    pending = httpx.get(f"{seen.served.url}/v1/confirmations", headers=seen.served.headers("clinician")).json()
    assert pending["confirmations"] == []
    seen.shot(f"confirmation-{outcome}")
    # the patient stays with the conversation; clearing it is one button
    page.get_by_test_id("patient-clear").click()
    expect(page.get_by_test_id("patient-search")).to_be_visible()
