"""What the HTTP API, the CLI and the tools put on the trail, and the auditor's routes."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import fake_redact
from click.testing import CliRunner
from fastapi.testclient import TestClient

from curbside.api import create_app
from curbside.app import Curbside
from curbside.auth.access import session_token
from curbside.cli import cli
from curbside.settings import Settings

EPOCH = datetime(2000, 1, 1)
QUESTION = "Can John Smith (416-555-0199) start metformin if eGFR is 35?"


class Api:
    def __init__(self, core: Curbside, client: TestClient) -> None:
        self.core, self.client = core, client
        self.keys = {role: core.users.add(f"u-{role}", role).key for role in ("clinician", "admin", "auditor")}

    def headers(self, role: str, **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[role]}", **extra}

    def rows_after(self, seq: int) -> list[dict[str, Any]]:
        return [r for r in self.core.audit.export(EPOCH) if r["seq"] > seq]

    def last_seq(self) -> int:
        return self.core.audit.count()


@pytest.fixture
def api(kb_home: Path, tmp_path: Path) -> Iterator[Api]:
    home = tmp_path / "home"
    shutil.copytree(kb_home, home)
    core = Curbside(Settings(home=home, rate_limit=None))
    core.audit.redact = fake_redact
    with TestClient(create_app(core, warm_up=False)) as client:
        yield Api(core, client)


def test_ask_records_the_redacted_question_and_the_answers_routing(api: Api) -> None:
    start = api.last_seq()
    response = api.client.post(
        "/v1/ask", json={"question": QUESTION}, headers=api.headers("clinician", **{"X-Session-Id": "visit-7"})
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    (row,) = api.rows_after(start)
    assert row["action"] == "ask" and row["question"] == "Can [PERSON] ([PHONE]) start metformin if eGFR is 35?"
    # the session header is the client's free text: the trail keeps its keyed digest
    session = session_token(api.core.audit.key, "visit-7")
    assert session.startswith("s_") and len(session) == 26
    assert (row["user"], row["role"], row["session"], row["channel"]) == ("u-clinician", "clinician", session, "http")
    assert row["outcome"] == answer["status"] == "answered"
    assert row["sources"] == [c["chunk_id"] for c in answer["citations"]] and row["sources"]
    meta = answer["metadata"]
    assert row["model_used"] == meta.get("model_used")
    assert row["phi"] == meta.get("phi_detected")
    assert row["details"].get("routing_reason") == meta.get("routing_reason")
    assert row["intent"] == meta.get("intent", "question")
    assert "John" not in json.dumps(row) and "416-555-0199" not in json.dumps(row)


def test_a_refused_ask_is_recorded_with_its_code(api: Api) -> None:
    start = api.last_seq()
    response = api.client.post("/v1/ask", json={"question": "x" * 5000}, headers=api.headers("admin"))
    assert response.status_code == 400
    (row,) = api.rows_after(start)
    assert (row["action"], row["outcome"], row["user"]) == ("ask", "VALIDATION_ERROR", "u-admin")


def test_search_and_passages_are_recorded_with_their_sources(api: Api) -> None:
    start = api.last_seq()
    hits = api.client.get(
        "/v1/search", params={"q": "Jane Doe metformin eGFR", "k": 3}, headers=api.headers("clinician")
    ).json()["hits"]
    ids = [h["chunk_id"] for h in hits]
    opened = api.client.get(
        "/v1/passages", params={"chunk_ids": ids[0], "highlight_terms": "eGFR"}, headers=api.headers("clinician")
    )
    missing = api.client.get("/v1/passages", params={"chunk_ids": "gone:v1:0"}, headers=api.headers("clinician"))
    assert opened.status_code == 200 and missing.status_code == 404
    search, passages, not_found = api.rows_after(start)
    assert (search["action"], search["question"], search["sources"], search["outcome"]) == (
        "search",
        "[PERSON] metformin eGFR",
        ids,
        "ok",
    )
    assert search["details"] == {"hits": len(ids), "mode": "hybrid", "namespace": "kb"}
    assert (passages["action"], passages["sources"], passages["details"]) == (
        "passages",
        [ids[0]],
        {"found": 1, "highlight_terms": 1, "requested": 1},
    )
    # ids that name nothing stored are the client's text: counted, never kept
    assert (not_found["sources"], not_found["outcome"]) == ([], "NOT_FOUND")
    assert not_found["details"]["requested"] == 1


def test_tool_calls_run_and_are_recorded_as_the_keys_user(api: Api) -> None:
    start = api.last_seq()
    body = {"chunk_ids": ["sample-hypertension:v1:0"], "highlight_terms": ["ambulatory"]}
    result = api.client.post("/v1/tools/source.passages", json=body, headers=api.headers("admin")).json()
    assert result["status"] == "ok"
    (row,) = api.rows_after(start)
    assert (row["action"], row["user"], row["role"], row["tools"], row["outcome"]) == (
        "tool",
        "u-admin",
        "admin",
        ["source.passages"],
        "ok",
    )
    assert row["details"]["call_id"] == result["call_id"]
    assert row["details"]["argument_names"] == ["chunk_ids", "highlight_terms"]
    plain = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    assert row["details"]["arguments_digest"] != plain


def test_document_changes_are_recorded(api: Api) -> None:
    start = api.last_seq()
    note = b"# Gout\n\nColchicine is used for acute gout flares.\n"
    accepted = api.client.post("/v1/documents", files={"file": ("gout.md", note)}, headers=api.headers("admin"))
    assert accepted.status_code == 202
    removed = api.client.delete("/v1/documents/sample-hypertension", headers=api.headers("admin"))
    assert removed.status_code == 200
    upload, delete = api.rows_after(start)
    assert (upload["action"], upload["sources"], upload["outcome"]) == ("documents.upload", ["gout"], "queued")
    assert upload["details"]["job_id"] == accepted.json()["job_id"]
    assert (delete["action"], delete["sources"], delete["details"]) == (
        "documents.remove",
        ["sample-hypertension"],
        {"removed_version": 1},
    )


def test_the_auditor_exports_jsonl_and_verifies(api: Api) -> None:
    api.client.post("/v1/ask", json={"question": QUESTION}, headers=api.headers("clinician"))
    api.client.get("/v1/search", params={"q": "malaria"}, headers=api.headers("clinician"))
    exported = api.client.get("/v1/audit/export", params={"since": "2000-01-01"}, headers=api.headers("auditor"))
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
    assert exported.headers["x-audit-verified"] == "true"
    rows = [json.loads(line) for line in exported.text.splitlines()]
    assert [r["action"] for r in rows] == ["ask", "search"] and [r["seq"] for r in rows] == [1, 2]
    later = api.client.get("/v1/audit/export", params={"since": rows[1]["at"]}, headers=api.headers("auditor"))
    assert [json.loads(line)["seq"] for line in later.text.splitlines()] == [2, 3]  # 3: the first export's row
    report = api.client.get("/v1/audit/verify", headers=api.headers("auditor")).json()
    assert report["ok"] is True and report["rows"] == 4 and report["first_bad_row"] is None


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"since": "yesterday"}, "since 'yesterday' is not an ISO 8601 time"),
        ({"since": "2025-02-30"}, "not an ISO 8601 time"),
        ({"since": "2025-03-02", "until": "2025-03-01"}, "must be later than since"),
        ({}, "since: Field required"),
    ],
)
def test_malformed_export_arguments(api: Api, params: dict[str, str], message: str) -> None:
    response = api.client.get("/v1/audit/export", params=params, headers=api.headers("auditor"))
    assert response.status_code in (400, 422) and response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert message in response.json()["error"]["message"]


def test_a_tampered_trail_is_flagged_on_export_and_stops_clinical_requests(api: Api) -> None:
    from audit_helpers import hand_edit

    for _ in range(3):
        api.client.get("/v1/search", params={"q": "malaria"}, headers=api.headers("clinician"))
    hand_edit(api.core.audit, "UPDATE audit_log SET user = 'someone' WHERE seq = 2")
    exported = api.client.get("/v1/audit/export", params={"since": "2000-01-01"}, headers=api.headers("auditor"))
    assert exported.headers["x-audit-verified"] == "false" and exported.headers["x-audit-first-bad-row"] == "2"
    assert len(exported.text.splitlines()) >= 3  # still exported: the auditor needs the rows most now
    report = api.client.get("/v1/audit/verify", headers=api.headers("auditor")).json()
    assert report["ok"] is False and report["first_bad_row"] == 2
    # rows deleted from the end: nothing more may run unrecorded
    hand_edit(api.core.audit, f"DELETE FROM audit_log WHERE seq = {api.last_seq()}")
    refused = api.client.post("/v1/ask", json={"question": "metformin and eGFR"}, headers=api.headers("clinician"))
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "AUDIT_INTEGRITY"
    assert "curbside audit acknowledge" in refused.json()["error"]["message"]


def test_the_cli_ask_is_recorded_as_the_operator(
    kb_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    shutil.copytree(kb_home, home)
    monkeypatch.setenv("CURBSIDE_HOME", str(home))
    monkeypatch.setattr("curbside.redaction.phi_redactor", lambda settings, detector=None: fake_redact)
    result = CliRunner().invoke(cli, ["ask", QUESTION, "--json"])
    assert result.exit_code == 0, result.output
    core = Curbside(Settings(home=home))
    try:
        (row,) = core.audit.export(EPOCH)
    finally:
        core.close()
    assert (row["action"], row["user"], row["role"], row["channel"]) == ("ask", "operator", "operator", "cli")
    assert (
        row["question"].startswith("Can [PERSON] ([PHONE])") and row["outcome"] == json.loads(result.stdout)["status"]
    )


def test_the_real_phi_detector_redacts_questions_on_the_trail(tmp_path: Path) -> None:
    import curbside.phi as phi
    from curbside.audit import AuditEntry, AuditTrail

    settings = Settings(home=tmp_path / "home")
    detector = phi.get_detector(settings)
    trail = AuditTrail.from_settings(settings, redact=detector.redact)
    text = "Mr. John Smith, born 02/03/1956, phone 416-555-0199, asks whether he can start metformin."
    try:
        row = trail.append(AuditEntry(action="ask", user="u", role="clinician", outcome="answered", question=text))
        stored = trail.export(EPOCH)
        assert [r["question"] for r in stored] == [row["question"]]
    finally:
        trail.close()
    # what is stored is the detector's redaction, never the text: the detector's own quality is tested in tests/phi
    assert row["question"] == detector.redact(text) != text
    for secret in ("John", "02/03/1956", "416-555-0199"):
        assert secret not in row["question"]
    assert "metformin" in row["question"]
