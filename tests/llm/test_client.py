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
