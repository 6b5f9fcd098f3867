"""Every PhysioNet dev note through ``ask`` as patient context, once per session.

Hybrid routing with a recording stand-in for the cloud endpoint and another for
the local one, both on loopback. All assertions read the one run:

- no request to the cloud stand-in holds a gold PHI string of its note
  (4+ characters, whole word, case-insensitive);
- at least 90 % of the notes without PHI do reach it (a detector that flags
  everything fails here);
- the JSON log written and the audit rows recorded during a note's question
  hold none of its PHI strings.

The questions go through ``Curbside.ask``, as the HTTP route and the CLI do.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest
from scripted_llm import Reply, ScriptedLLM

from curbside.app import Curbside
from curbside.logs import configure_logging
from curbside.settings import Settings
from curbside.types import AskRequest, ToolCaller

# the session fixture asks all 1,450 notes (a PHI screen each) inside its first test: minutes on two cores, over
# the suite's 300 s default on a slower or busy machine
pytestmark = pytest.mark.timeout(1800)

NOTES = "phi/physionet-deid-dev/notes.jsonl"
# its passages (the CEP page) hold no PHI of their own, so a note decides where each prompt goes;
# the fixture checks that premise before the notes run
QUESTION = "What are the first-line medication options for depression?"
MIN_PHI_CHARS = 4


@dataclass
class NoteRun:
    note: dict
    cloud_prompts: list[str] = field(default_factory=list)
    local_prompts: list[str] = field(default_factory=list)
    log_text: str = ""
    audit_rows: list[dict] = field(default_factory=list)
    metadata: dict = field(default_factory=dict)

    @property
    def gold_strings(self) -> list[str]:
        return sorted({p["text"] for p in self.note["phi"] if len(p["text"].strip()) >= MIN_PHI_CHARS})


def leaked(strings: list[str], text: str) -> list[str]:
    return [s for s in strings if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text, re.IGNORECASE)]


@pytest.fixture(scope="session")
def leak_run(kb_home: Path, shared_data: Path) -> Iterator[list[NoteRun]]:
    notes = [json.loads(line) for line in (shared_data / NOTES).read_text().splitlines() if line.strip()]
    reply = Reply("Sertraline and other SSRIs are first-line options for depression [1].")
    with ScriptedLLM() as cloud, ScriptedLLM() as local:
        cloud.default = local.default = reply
        settings = Settings(home=kb_home, local_llm_url=local.url, cloud_llm_url=cloud.url, llm_routing="hybrid")
        core = Curbside(settings)
        caller = ToolCaller(user="leak-test", role="clinician", session="leak-session")
        rows_before = core.audit.count()
        stream = io.StringIO()
        handler = configure_logging(settings.model_copy(update={"log_level": "info"}), stream=stream)
        runs: list[NoteRun] = []
        try:
            # the premise: with no patient context this prompt is PHI-free and goes to the cloud
            premise = asyncio.run(core.asker.ask(AskRequest(question=QUESTION)))
            assert premise.metadata["model_used"] == "cloud", premise.metadata
            cloud.requests.clear()
            for note in notes:
                before_cloud, before_local, before_log = len(cloud.requests), len(local.requests), stream.tell()
                request = AskRequest(question=QUESTION, patient_context=note["text"])
                answer = asyncio.run(core.ask(request, caller, channel="http"))
                run = NoteRun(note, metadata=answer.metadata)
                run.cloud_prompts = [json.dumps(r["body"]) for r in cloud.requests[before_cloud:]]
                run.local_prompts = [json.dumps(r["body"]) for r in local.requests[before_local:]]
                stream.seek(before_log)
                run.log_text = stream.read()
                runs.append(run)
            # one row per question, in order (this fixture is the only writer while it runs)
            rows = list(core.audit.export(datetime(2000, 1, 1, tzinfo=UTC)))[rows_before:]
            assert len(rows) == len(runs)
            for run, row in zip(runs, rows, strict=True):
                run.audit_rows = [row]
        finally:
            for name in ("curbside", "uvicorn", "uvicorn.error", "uvicorn.access"):
                logging.getLogger(name).removeHandler(handler)
            core.close()
        yield runs


def test_every_note_was_answered_and_routed(leak_run: list[NoteRun]) -> None:
    assert len(leak_run) > 1000
    for run in leak_run:
        assert run.metadata["model_used"] in ("local", "cloud"), run.metadata
        assert len(run.cloud_prompts) + len(run.local_prompts) == 1


def test_no_gold_phi_string_reaches_the_cloud(leak_run: list[NoteRun]) -> None:
    leaks = {
        f"patient {r.note['patient']} note {r.note['note']}": found
        for r in leak_run
        if r.cloud_prompts and (found := leaked(r.gold_strings, "\n".join(r.cloud_prompts)))
    }
    assert leaks == {}


def test_metadata_says_why_each_prompt_went_where_it_did(leak_run: list[NoteRun]) -> None:
    for run in leak_run:
        meta = run.metadata
        assert meta["routing_mode"] == "hybrid" and meta["routing_reason"]
        # hybrid with both endpoints: PHI found ⇔ the local model answered
        assert meta["phi_detected"] == bool(run.local_prompts) == (meta["model_used"] == "local"), meta


def test_most_notes_without_phi_reach_the_cloud(leak_run: list[NoteRun]) -> None:
    clean = [r for r in leak_run if not r.note["phi"]]
    reached = sum(1 for r in clean if r.cloud_prompts)
    assert len(clean) > 500
    assert reached / len(clean) >= 0.90, f"only {reached} of {len(clean)} PHI-free notes reached the cloud"


def test_logs_hold_no_gold_phi_string(leak_run: list[NoteRun]) -> None:
    assert any(r.log_text for r in leak_run), "the run logged nothing: the check would be empty"
    leaks = {
        f"patient {r.note['patient']} note {r.note['note']}": found
        for r in leak_run
        if (found := leaked(r.gold_strings, r.log_text))
    }
    assert leaks == {}
    for line in leak_run[0].log_text.splitlines():
        json.loads(line)  # one JSON object per line


def test_audit_rows_hold_no_gold_phi_string(leak_run: list[NoteRun]) -> None:
    assert all(len(r.audit_rows) == 1 for r in leak_run)
    assert all(r.audit_rows[0]["phi"] == r.metadata["phi_detected"] for r in leak_run)
    leaks = {
        f"patient {r.note['patient']} note {r.note['note']}": found
        for r in leak_run
        if (found := leaked(r.gold_strings, json.dumps(r.audit_rows)))
    }
    assert leaks == {}
