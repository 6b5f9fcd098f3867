"""An OpenAI-compatible chat client (llama.cpp server, Ollama, vLLM or a cloud API).

Streams the completion so the time to the first token is known, and turns every
failure — refused connection, timeout, HTTP error, malformed stream — into an
``UpstreamError`` the caller can degrade on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from curbside.errors import UpstreamError

__all__ = ["ChatClient", "Completion", "LLMClient", "Message", "RequestedCall", "ToolReply", "calls_in_text"]

Message = dict[str, str]
TokenSink = Callable[[str], Awaitable[None]]  # receives each piece of text as the model writes it


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    model: str
    finish_reason: str | None
    ttft_ms: float | None
    total_ms: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class RequestedCall:
    """One tool call a model asked for: its id, the function's name and its arguments as the model wrote them."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class ToolReply:
    """A model's turn in a tool-calling conversation: text, or calls to make (or both)."""

    text: str
    calls: tuple[RequestedCall, ...]
    model: str
    total_ms: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class LLMClient(Protocol):
    """What the answer pipeline needs from a model."""

    name: str  # "local" | "cloud": which configured endpoint this is
    model: str

    async def complete(
        self,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        on_token: TokenSink | None = None,
    ) -> Completion: ...


class ChatClient:
    """``POST {base_url}/chat/completions`` with ``stream: true``."""

    def __init__(
        self,
        *,
        name: str,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        connect_timeout_s: float = 5.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self._timeout = httpx.Timeout(timeout_s, connect=connect_timeout_s)
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._transport = transport

    def describe(self) -> str:
        return f"{self.name}: {self.model} at {self.base_url}"

    async def complete(
        self,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        on_token: TokenSink | None = None,
    ) -> Completion:
        """One completion, streamed; ``on_token`` sees each piece of text as it arrives."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        async with self._upstream():
            return await self._stream(body, on_token)
        raise AssertionError("unreachable")  # _upstream re-raises every failure

    @contextlib.asynccontextmanager
    async def _upstream(self) -> AsyncIterator[None]:
        """The whole call within ``timeout_s``; every transport failure an UpstreamError naming the model."""
        try:
            async with asyncio.timeout(self.timeout_s):
                yield
        except TimeoutError as exc:  # asyncio.timeout raises the builtin
            raise UpstreamError(
                f"The {self.name} model at {self.base_url} did not finish within {self.timeout_s:g} s.",
                code="UPSTREAM_TIMEOUT",
            ) from exc
        except httpx.TimeoutException as exc:
            raise UpstreamError(
                f"The {self.name} model at {self.base_url} timed out ({type(exc).__name__}).", code="UPSTREAM_TIMEOUT"
            ) from exc
        except httpx.HTTPError as exc:
            raise UpstreamError(
                f"Cannot reach the {self.name} model at {self.base_url}: {exc or type(exc).__name__}."
            ) from exc

    async def call_tools(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], *, max_tokens: int, temperature: float
    ) -> ToolReply:
        """One OpenAI-style tool-calling step (not streamed): the model answers or asks for tool calls."""
        body = {
            "model": self.model,
            "messages": messages,
            "tools": tools,
            "tool_choice": "auto",
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        started = time.perf_counter()
        async with self._upstream():
            async with httpx.AsyncClient(
                timeout=self._timeout, headers=self._headers, transport=self._transport
            ) as http:
                response = await http.post(f"{self.base_url}/chat/completions", json=body)
        if response.status_code >= 400:
            raise UpstreamError(
                f"The {self.name} model at {self.base_url} answered HTTP {response.status_code}: {response.text[:300]}"
            )
        payload = _json(response.content, self.name)
        try:
            message = payload["choices"][0]["message"]
        except (KeyError, IndexError, TypeError) as exc:
            raise UpstreamError(f"The {self.name} model's reply has no choices[0].message.") from exc
        calls = []
        for i, call in enumerate(message.get("tool_calls") or ()):
            function = call.get("function") or {}
            arguments = function.get("arguments")
            calls.append(
                RequestedCall(
                    id=str(call.get("id") or f"call_{i}"),
                    name=str(function.get("name") or ""),
                    arguments=arguments if isinstance(arguments, str) else json.dumps(arguments or {}),
                )
            )
        text = str(message.get("content") or "")
        if not calls and (written := calls_in_text(text)):
            calls, text = list(written), ""
        elapsed = (time.perf_counter() - started) * 1000
        return ToolReply(
            text,
            tuple(calls),
            payload.get("model") or self.model,
            elapsed,
            *_usage(payload.get("usage") or {}),
        )

    async def _stream(self, body: dict[str, Any], on_token: TokenSink | None = None) -> Completion:
        started = time.perf_counter()
        first: float | None = None
        parts: list[str] = []
        model = self.model
        finish: str | None = None
        usage: dict[str, Any] = {}
        async with httpx.AsyncClient(timeout=self._timeout, headers=self._headers, transport=self._transport) as http:
            async with http.stream("POST", f"{self.base_url}/chat/completions", json=body) as response:
                if response.status_code >= 400:
                    detail = (await response.aread()).decode("utf-8", "replace")[:300]
                    raise UpstreamError(
                        f"The {self.name} model at {self.base_url} answered HTTP {response.status_code}: {detail}"
                    )
                if "text/event-stream" not in response.headers.get("content-type", ""):
                    # a server that ignores "stream" sends one JSON body
                    payload = _json(await response.aread(), self.name)
                    text, model, finish, usage = _read_message(payload, model, self.name)
                    if on_token is not None and text:
                        await on_token(text)
                    elapsed = (time.perf_counter() - started) * 1000
                    return Completion(text, model, finish, None, elapsed, *_usage(usage))
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    event = _json(data.encode(), self.name)
                    if "error" in event:
                        raise UpstreamError(f"The {self.name} model reported an error: {str(event['error'])[:300]}")
                    model = event.get("model") or model
                    usage = event.get("usage") or usage
                    for choice in event.get("choices") or ():
                        delta = (choice.get("delta") or {}).get("content") or ""
                        if delta:
                            if first is None:
                                first = time.perf_counter()
                            parts.append(delta)
                            if on_token is not None:
                                await on_token(delta)
                        finish = choice.get("finish_reason") or finish
        elapsed = (time.perf_counter() - started) * 1000
        ttft = (first - started) * 1000 if first is not None else None
        return Completion("".join(parts), model, finish, ttft, elapsed, *_usage(usage))


_TOOL_CALL_TAGS = re.compile(r"</?tool_call>")


def calls_in_text(text: str) -> tuple[RequestedCall, ...]:
    """Tool calls a model wrote as text because its server parses none (llama-cpp-python without a
    function-calling chat format; Qwen's ``<tool_call>{…}</tool_call>``; a bare ``{"name", "arguments"}``,
    sometimes with doubled braces). Anything else is not a call: ()."""
    body = _TOOL_CALL_TAGS.sub("\n", text).strip()
    if not body.startswith(("{", "[")):
        return ()
    candidates = [body]
    if body.startswith("{{") and body.endswith("}}"):
        candidates.append(body[1:-1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            try:  # one call per line (several <tool_call> blocks)
                value = [json.loads(line) for line in candidate.splitlines() if line.strip()]
            except ValueError:
                continue
        items = value if isinstance(value, list) else [value]
        calls = []
        for i, item in enumerate(items):
            if not (isinstance(item, dict) and isinstance(item.get("name"), str) and "arguments" in item):
                return ()
            arguments = item["arguments"]
            calls.append(
                RequestedCall(
                    id=f"text_call_{i}",
                    name=item["name"],
                    arguments=arguments if isinstance(arguments, str) else json.dumps(arguments),
                )
            )
        return tuple(calls)
    return ()


def _json(raw: bytes, name: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise UpstreamError(f"The {name} model sent malformed JSON: {raw[:120]!r}") from exc
    if not isinstance(value, dict):
        raise UpstreamError(f"The {name} model sent an unexpected payload: {raw[:120]!r}")
    return value


def _read_message(payload: dict[str, Any], model: str, name: str) -> tuple[str, str, str | None, dict[str, Any]]:
    try:
        choice = payload["choices"][0]
        text = choice["message"]["content"] or ""
    except (KeyError, IndexError, TypeError) as exc:
        raise UpstreamError(f"The {name} model's reply has no choices[0].message.content.") from exc
    return text, payload.get("model") or model, choice.get("finish_reason"), payload.get("usage") or {}


def _usage(usage: dict[str, Any]) -> tuple[int | None, int | None]:
    return usage.get("prompt_tokens"), usage.get("completion_tokens")
