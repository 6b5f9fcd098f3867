"""``ask`` as events: a model's answer streams as it is written, renumbered as the final answer is, each
source before the text citing it; a refused model answer is retracted; an answer without a model is sent
at once. Over HTTP: ``POST /v1/ask`` with ``Accept: text/event-stream``."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from scripted_llm import Reply, ScriptedLLM
from test_pipeline import DEPRESSION, quoting_model

from curbside.api.app import create_app
from curbside.app import Curbside
from curbside.types import Answer, AskRequest

Events = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def ask_with_events(core: Curbside, question: str) -> tuple[Answer, Events]:
    events: Events = []

    async def sink(kind: str, data: dict[str, Any]) -> None:
        events.append((kind, data))

    answer = asyncio.run(core.asker.ask(AskRequest(question=question), on_event=sink))
    return answer, events


def shown_text(events: Events) -> str:
    text = ""
    for kind, data in events:
        text = "" if kind == "retract" else text + data["text"] if kind == "token" else text
    return text


def test_a_models_answer_streams_with_the_final_numbering(make_core, llm: ScriptedLLM) -> None:
    llm.replies.append(quoting_model(extra=" Also see [9]."))
    core = make_core(local_llm_url=llm.url)
    answer, events = ask_with_events(core, DEPRESSION)
    assert answer.metadata["mode"] == "generated"
    streamed = shown_text(events)
    # the model cited prompt passage [2] first: the stream already called it [1], as the final answer does
    assert re.findall(r"\[\d+\]", streamed) == ["[1]", "[2]"]  # [9] names no passage: dropped
    assert " ".join(streamed.split()).replace(" .", ".") == answer.answer
    sources = [d for k, d in events if k == "source"]
    assert [(s["n"], s["chunk_id"]) for s in sources] == [(c.n, c.chunk_id) for c in answer.citations]
    first_token_citing = next(i for i, (k, d) in enumerate(events) if k == "token" and "[1]" in d["text"])
    assert [k for k, _ in events].index("source") < first_token_citing


def test_a_refused_model_answer_is_retracted(make_core, llm: ScriptedLLM) -> None:
    llm.replies.append(Reply("Metformin is fine for everyone."))
    core = make_core(local_llm_url=llm.url)
    answer, events = ask_with_events(core, DEPRESSION)
    assert answer.status == "degraded" and answer.metadata["mode"] == "extractive"
    kinds = [k for k, _ in events]
    assert "token" in kinds and kinds[-1] == "retract"
    assert events[-1][1] == {"reason": "UNGROUNDED"}


def _sse(response: Any) -> Events:
    blocks = [b for b in response.read().decode().split("\n\n") if b]
    return [
        (b.split("\n")[0].removeprefix("event: "), json.loads(b.split("\n", 1)[1].removeprefix("data: ")))
        for b in blocks
    ]


def test_post_ask_streams_an_extractive_answer_and_a_no_source_one(make_core) -> None:
    core = make_core()
    key = core.users.add("dr-stream", "clinician").key
    client = TestClient(create_app(core, warm_up=False), headers={"Authorization": f"Bearer {key}"})
    headers = {"Accept": "text/event-stream"}
    with client.stream("POST", "/v1/ask", json={"question": DEPRESSION}, headers=headers) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = _sse(response)
    kind, final = events[-1]
    assert kind == "final" and final["status"] == "answered"
    assert shown_text(events).strip() == final["answer"]
    assert [d["n"] for k, d in events if k == "source"] == [c["n"] for c in final["citations"]]
    with client.stream(
        "POST", "/v1/ask", json={"question": "what is the airspeed of an unladen swallow?"}, headers=headers
    ) as response:
        events = _sse(response)
    assert events[-1][0] == "final" and events[-1][1]["status"] == "no_source"
    assert not [k for k, _ in events if k == "source"]
    plain = client.post("/v1/ask", json={"question": DEPRESSION})
    assert plain.headers["content-type"].startswith("application/json") and plain.json()["status"] == "answered"
