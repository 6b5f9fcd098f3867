"""The clinician's page in Chromium against a real ``curbside serve`` (conftest.py): sign-in per role, a
streamed answer whose marker opens the right passage, a no-source answer, a tool card, the conversation
across a reload, an upload that becomes searchable, a failed job retried, an audit export, keyboard-only
use, and /docs offline. Every test also fails if the page tried to reach any host but the server.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.web.pages import ask, expect

pytestmark = pytest.mark.slow

HYPERTENSION = "What are the first-line drug classes for hypertension?"


@pytest.mark.parametrize(
    ("role", "views"),
    [("clinician", ["consult"]), ("admin", ["consult", "admin"]), ("auditor", ["audit"])],
)
def test_sign_in_shows_the_views_of_the_role(visit: Any, role: str, views: list[str]) -> None:
    seen = visit()
    page = seen.page
    page.goto(seen.served.url + "/")
    page.get_by_test_id("api-key").fill("cs_not-a-real-key")
    page.get_by_test_id("sign-in").click()
    expect(page.get_by_test_id("signin-error")).to_contain_text("not accepted")
    seen.sign_in(role)
    for view in ("consult", "admin", "audit"):
        nav = page.get_by_test_id(f"nav-{view}")
        expect(nav).to_be_visible() if view in views else expect(nav).to_be_hidden()
    expect(page.locator(f"#view-{views[0]}")).to_be_visible()
    # the key is kept for this tab only, and never in the address
    assert seen.served.keys[role] not in page.url
    assert page.evaluate("() => sessionStorage.getItem('curbside.key')") == seen.served.keys[role]
    assert page.evaluate("() => localStorage.length") == 0
    seen.shot(f"signed-in-{role}")
    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("signin-form")).to_be_visible()
    assert page.evaluate("() => sessionStorage.getItem('curbside.key')") is None


def test_a_streamed_answer_whose_marker_opens_the_cited_passage(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("clinician")
    answer = ask(page, HYPERTENSION)
    expect(answer.get_by_test_id("answer")).to_contain_text("thiazide")
    assert answer.get_attribute("data-streamed") is None  # the attribute is on the answer's own node
    assert answer.locator("[data-streamed=true]").count() == 1, "the text came as token events, not only the result"
    markers = answer.locator("button.marker")
    expect(markers).to_have_count(1)
    # only the cited source is listed, under the number of its marker
    expect(answer.get_by_test_id("sources").locator("li")).to_have_count(1)
    expect(answer.get_by_test_id("source-item-1")).to_contain_text("Hypertension")
    expect(page.get_by_test_id("timeline")).to_contain_text("kb.ask")
    expect(page.get_by_test_id("timeline")).not_to_contain_text("use llm")  # plumbing is not shown
    seen.shot("consult-answer")

    answer.get_by_test_id("marker-1").click()
    popover = page.get_by_test_id("marker-popover")
    expect(popover).to_be_visible()
    expect(popover).to_contain_text("Hypertension in adults")
    expect(popover.get_by_test_id("popover-details")).to_contain_text("Passage from the knowledge base")
    expect(popover.get_by_test_id("popover-details")).to_contain_text("1 of 1")
    expect(popover.get_by_test_id("popover-details")).to_contain_text(
        re.compile(r"Relevance\s*(high|medium|low) \(\d+ %\)")
    )
    seen.shot("consult-popover")
    popover.get_by_test_id("popover-open").click()

    panel = page.get_by_test_id("source-panel")
    expect(panel).to_be_visible()
    passage = panel.get_by_test_id("passage-text")
    expect(passage).to_contain_text("First-line drug classes")
    # the words the answer cites are the ones marked in the exact passage
    expect(passage.locator("mark")).to_have_text(re.compile(r"^Single-pill combinations are preferred when two drugs"))
    expect(panel).to_contain_text("sample-hypertension:v1:0")
    seen.shot("consult-passage")


def test_an_answer_with_no_source_says_so(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("clinician")
    answer = ask(page, "What is the capital of France?")
    expect(answer.get_by_test_id("answer")).to_contain_text("nothing relevant")
    expect(answer.locator("button.marker")).to_have_count(0)
    expect(answer.get_by_test_id("sources")).to_be_hidden()
    expect(answer.get_by_test_id("warning")).to_contain_text("No source in the knowledge base was relevant enough")
    seen.shot("consult-no-source")


def test_a_calculator_answer_shows_a_tool_card_and_the_timeline(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("clinician")
    answer = ask(page, "BMI for weight 80 kg height 180 cm")
    expect(answer.get_by_test_id("answer")).to_contain_text("24.7")
    card = page.locator("[data-testid=tool-card][data-tool='calc.bmi']")
    expect(card.get_by_test_id("tool-card-value")).to_have_text("24.7 kg/m²")
    expect(card).to_contain_text("normal")
    expect(card).to_contain_text("WHO Technical Report Series 894")
    steps = page.get_by_test_id("timeline-step")
    expect(steps.filter(has_text="calc.bmi").locator("[data-testid=step-outcome]").first).to_have_text("ok")
    expect(page.get_by_test_id("badge-model")).to_have_attribute("data-model", "none")
    expect(page.get_by_test_id("badge-phi")).to_be_visible()
    # a tool's source opens as its own panel: what computed it and from which reference
    answer.get_by_test_id("marker-1").click()
    page.get_by_test_id("popover-open").click()
    expect(page.get_by_test_id("source-panel")).to_contain_text("Tool result (calc.bmi)")
    expect(page.get_by_test_id("patient-absent")).to_contain_text("No EHR is configured")
    seen.shot("consult-tool-card")


def test_the_conversation_survives_a_reload_until_purged(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("clinician")
    ask(page, HYPERTENSION)
    session_id = page.evaluate("() => sessionStorage.getItem('curbside.session')")
    page.reload()
    expect(page.get_by_test_id("msg-user")).to_have_text(re.compile(re.escape(HYPERTENSION)))
    restored = page.get_by_test_id("msg-assistant").last
    expect(restored.get_by_test_id("marker-1")).to_be_visible()
    expect(restored.get_by_test_id("source-item-1")).to_contain_text("Hypertension")
    seen.shot("sessions-restored")
    page.get_by_test_id("purge-conversation").click()
    expect(page.get_by_test_id("msg-user")).to_have_count(0)
    gone = httpx.get(f"{seen.served.url}/v1/sessions/{session_id}", headers=seen.served.headers("clinician"))
    assert gone.status_code == 404
    page.reload()
    expect(page.get_by_test_id("composer")).to_be_visible()
    expect(page.get_by_test_id("msg-user")).to_have_count(0)


def wait_for_job_state(page: Any, doc_key: str, state: str) -> Any:
    row = page.locator(f"[data-testid^=job-][data-doc='{doc_key}']").first
    expect(row).to_have_attribute("data-state", state, timeout=60_000)
    return row


def test_an_upload_by_drag_and_drop_becomes_searchable(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("admin")
    page.get_by_test_id("nav-admin").click()
    expect(page.get_by_test_id("status-documents")).to_have_text(re.compile(r"^\d+$"))
    notes = {
        "gout-flares.md": "# Gout flares\n\nColchicine is used for acute gout flares in adults.\n",
        "scurvy-note.md": "# Scurvy\n\nVitamin C deficiency causes scurvy with bleeding gums and poor wound healing.\n",
    }
    # two files dropped at once, as a browser's drop event carries them
    transfer = page.evaluate_handle(
        """(files) => { const dt = new DataTransfer();
            for (const [name, text] of Object.entries(files)) dt.items.add(new File([text], name, {type: 'text/markdown'}));
            return dt; }""",
        notes,
    )
    page.get_by_test_id("dropzone").dispatch_event("drop", {"dataTransfer": transfer})
    expect(page.get_by_test_id("upload-item")).to_have_count(2)
    for doc_key in ("gout-flares", "scurvy-note"):
        wait_for_job_state(page, doc_key, "completed")
    expect(page.get_by_test_id("document-gout-flares")).to_be_visible(timeout=10_000)
    seen.shot("admin-uploaded")
    hits = httpx.get(
        f"{seen.served.url}/v1/search",
        params={"q": "colchicine acute gout flare"},
        headers=seen.served.headers("clinician"),
    ).json()["hits"]
    assert hits[0]["doc_key"] == "gout-flares"
    # and a clinician's answer cites it
    page.get_by_test_id("nav-consult").click()
    answer = ask(page, "What is used for acute gout flares?")
    expect(answer.get_by_test_id("answer")).to_contain_text("Colchicine")
    # removed, it is out of search
    page.get_by_test_id("nav-admin").click()
    page.get_by_test_id("remove-scurvy-note").click()
    expect(page.get_by_test_id("document-scurvy-note")).to_have_count(0)


def test_a_failed_job_is_retried_from_the_page(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("admin")
    page.get_by_test_id("nav-admin").click()
    page.get_by_test_id("file-input").set_input_files(
        [{"name": "broken.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.7\nthis is not really a pdf"}]
    )
    row = wait_for_job_state(page, "broken", "failed")
    expect(row.locator(".error-cell")).not_to_be_empty()
    seen.shot("admin-failed-job")
    job_id = row.get_attribute("data-testid").removeprefix("job-")
    page.get_by_test_id(f"retry-{job_id}").click()
    expect(row.get_by_test_id("job-state")).to_contain_text("retry 1/", timeout=60_000)
    job = httpx.get(f"{seen.served.url}/v1/jobs/{job_id}", headers=seen.served.headers("admin")).json()
    assert job["retry_count"] == 1


def test_an_auditor_verifies_browses_and_exports_the_trail(visit: Any) -> None:
    seen = visit()
    page = seen.page
    seen.sign_in("auditor")
    page.get_by_test_id("audit-verify").click()
    expect(page.get_by_test_id("audit-verify-result")).to_contain_text("Intact")
    page.get_by_test_id("audit-browse").click()
    expect(page.get_by_test_id("audit-summary")).to_contain_text("verified")
    expect(page.get_by_test_id("audit-row").first).to_be_visible()
    expect(page.get_by_test_id("audit-summary")).to_contain_text("Rows 1–")
    expect(page.get_by_test_id("audit-prev")).to_be_disabled()  # the first page
    seen.shot("audit")
    with page.expect_download() as download:
        page.get_by_test_id("audit-export").click()
    path = download.value.path()
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    assert rows and {"seq", "at", "action"} <= set(rows[0])
    assert download.value.suggested_filename.endswith(".jsonl")


def test_keyboard_only_sign_in_question_and_source(visit: Any) -> None:
    seen = visit()
    page = seen.page
    page.goto(seen.served.url + "/")
    page.keyboard.press("Tab")  # the skip link comes first
    expect(page.locator(".skip")).to_be_focused()
    page.locator("#api-key").focus()
    page.keyboard.type(seen.served.keys["clinician"])
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("message")).to_be_focused()  # signed in, the message box has the focus
    page.keyboard.type("BMI for weight 80 kg height 180 cm")
    page.keyboard.press("Control+Enter")
    expect(page.get_by_test_id("turn-state")).to_have_text(re.compile(r"^Answered"), timeout=30_000)
    marker = page.get_by_test_id("msg-assistant").last.get_by_test_id("marker-1")
    for _ in range(30):  # Tab from the message box back to the marker, as a keyboard user would
        page.keyboard.press("Shift+Tab")
        if marker.evaluate("(node) => node === document.activeElement"):
            break
    expect(marker).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("marker-popover")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("marker-popover")).to_be_hidden()
    expect(marker).to_be_focused()  # focus goes back where it was
    # the focus ring is visible
    outline = marker.evaluate("(node) => getComputedStyle(node).outlineStyle")
    assert outline == "solid"
    seen.shot("keyboard-focus")


def test_readable_at_200_percent_zoom(visit: Any) -> None:
    # 200 % zoom of a 1280-pixel window: a 640-pixel CSS viewport at twice the pixel density
    seen = visit(device_scale_factor=2)
    page = seen.page
    page.set_viewport_size({"width": 640, "height": 450})
    seen.sign_in("admin")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 200 % zoom"
    seen.shot("zoom-200-consult")
    page.get_by_test_id("nav-admin").click()
    seen.shot("zoom-200-admin")


def test_docs_work_offline(visit: Any) -> None:
    seen = visit()
    page = seen.page
    page.goto(seen.served.url + "/docs")
    expect(page.get_by_test_id("docs-intro")).to_contain_text("Curbside")
    operation = page.locator("[data-testid=operation][data-path='/v1/me']")
    expect(operation).to_have_count(1)
    page.locator("#docs-key").fill(seen.served.keys["auditor"])
    page.locator("#key-form button").click()
    operation.locator("summary").first.click()
    operation.get_by_test_id("try-send").click()
    expect(operation.get_by_test_id("try-response")).to_contain_text('"role": "auditor"')
    seen.shot("docs")
    # the visit fixture asserts no request left the loopback server
