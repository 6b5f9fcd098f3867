"""The OpenAI-compatible client against a scripted server on a real loopback socket."""

from __future__ import annotations

import asyncio
import socket

import pytest
from scripted_llm import Reply, ScriptedLLM

from curbside.errors import UpstreamError
from curbside.llm.client import ChatClient

MESSAGES = [{"role": "user", "content": "hello"}]


def complete(client: ChatClient):
    return asyncio.run(client.complete(MESSAGES, max_tokens=50, temperature=0.0))


@pytest.fixture
def llm():
    with ScriptedLLM() as server:
        yield server


def client_for(url: str, **kwargs: object) -> ChatClient:
    return ChatClient(name="local", base_url=url, model="m", **kwargs)  # type: ignore[arg-type]


def test_streams_text_and_measures_first_token(llm: ScriptedLLM) -> None:
    llm.replies.append(Reply("Metformin is contraindicated below 30 [1].", chunk_delay_s=0.01))
    result = complete(client_for(llm.url, api_key="sk-test"))
    assert result.text == "Metformin is contraindicated below 30 [1]."
    assert result.finish_reason == "stop"
    assert result.model == "scripted-model"
    assert result.ttft_ms is not None and result.ttft_ms < result.total_ms
    sent = llm.requests[0]
    assert sent["body"]["stream"] is True and sent["body"]["model"] == "m" and sent["body"]["max_tokens"] == 50
    assert sent["headers"]["Authorization"] == "Bearer sk-test"


def test_reads_a_plain_json_reply(llm: ScriptedLLM) -> None:
    llm.replies.append(Reply("Plain answer [2].", stream=False, finish_reason="length"))
    result = complete(client_for(llm.url))
    assert (result.text, result.finish_reason, result.ttft_ms) == ("Plain answer [2].", "length", None)
    assert result.prompt_tokens == 10


def test_http_error_becomes_upstream_error(llm: ScriptedLLM) -> None:
    llm.replies.append(Reply(status=500))
    with pytest.raises(UpstreamError) as info:
        complete(client_for(llm.url))
    assert info.value.code == "UPSTREAM_ERROR" and "HTTP 500" in info.value.message


def test_slow_model_times_out(llm: ScriptedLLM) -> None:
    llm.replies.append(Reply("late", delay_s=1.0))
    with pytest.raises(UpstreamError) as info:
        complete(client_for(llm.url, timeout_s=0.2))
    assert info.value.code == "UPSTREAM_TIMEOUT"


def test_stalled_stream_times_out(llm: ScriptedLLM) -> None:
    llm.replies.append(Reply("one two three four five", chunk_delay_s=0.2))
    with pytest.raises(UpstreamError) as info:
        complete(client_for(llm.url, timeout_s=0.3))
    assert info.value.code == "UPSTREAM_TIMEOUT"


@pytest.mark.parametrize(
    ("raw", "stream"),
    [(b"data: {not json\n\n", True), (b"<html>gateway</html>", False), (b'{"choices": []}', False)],
)
def test_malformed_replies_become_upstream_errors(llm: ScriptedLLM, raw: bytes, stream: bool) -> None:
    llm.replies.append(Reply(raw=raw, stream=stream))
    with pytest.raises(UpstreamError):
        complete(client_for(llm.url))


def test_refused_connection_is_an_upstream_error() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(UpstreamError) as info:
        complete(client_for(f"http://127.0.0.1:{port}/v1"))
    assert "Cannot reach the local model" in info.value.message


# --- tool calling ------------------------------------------------------------------------------------
TOOLS = [{"type": "function", "function": {"name": "calc__bmi", "parameters": {"type": "object"}}}]


def call_tools(client: ChatClient):
    return asyncio.run(client.call_tools(MESSAGES, TOOLS, max_tokens=50, temperature=0.0))


def test_tool_calls_are_read_from_the_reply(llm: ScriptedLLM) -> None:
    import json

    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "calc__bmi", "arguments": '{"weight": 80}'}}
        ],
    }
    body = {"model": "m", "choices": [{"message": message}], "usage": {"prompt_tokens": 40, "completion_tokens": 9}}
    llm.replies.append(Reply(raw=json.dumps(body).encode(), stream=False))
    reply = call_tools(client_for(llm.url))
    assert [(c.id, c.name, c.arguments) for c in reply.calls] == [("c1", "calc__bmi", '{"weight": 80}')]
    assert (reply.prompt_tokens, reply.completion_tokens) == (40, 9)
    sent = llm.requests[0]["body"]
    assert sent["tools"] == TOOLS and sent["tool_choice"] == "auto" and "stream" not in sent


def test_a_call_the_model_wrote_as_text_is_a_call(llm: ScriptedLLM) -> None:
    # what llama-cpp-python's server returns for Qwen2.5 without a function-calling chat format (seen here)
    llm.replies.append(Reply('{{"name": "calc__bmi", "arguments": {"weight": 80, "height": 180}}}', stream=False))
    reply = call_tools(client_for(llm.url))
    assert [(c.name, c.arguments) for c in reply.calls] == [("calc__bmi", '{"weight": 80, "height": 180}')]
    assert reply.text == ""


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('<tool_call>\n{"name": "a__b", "arguments": {"x": 1}}\n</tool_call>', ["a__b"]),
        (
            '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{"name": "b", "arguments": "{}"}</tool_call>',
            ["a", "b"],
        ),
        ("The BMI is 24.7 kg/m².", []),
        ('{"route": "lookup", "intents": []}', []),  # JSON, but not a call
        ('[{"name": "a", "arguments": {}}, {"no": "name"}]', []),
    ],
)
def test_calls_in_text(text: str, names: list[str]) -> None:
    from curbside.llm.client import calls_in_text

    assert [c.name for c in calls_in_text(text)] == names
