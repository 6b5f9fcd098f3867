"""Yes/no criteria and options read from a note by the local model, with JSON-schema output.

A note is PHI, so it goes where ``ModelRouter.route(phi_detected=True)`` sends a prompt holding PHI:
the local model, or nowhere — never a cloud model, whatever the routing mode. The model answers each
item "yes", "no" (or an option) with a quote copied from the note, or "not stated"; the caller
(``note.py``) keeps an answer only when its quote is found in the note, and shows that sentence.

Criteria are asked one at a time, each with only the sentences of the note that mention it (found by
``note_criteria.py``): a 1.5B model answers a short, focused question far better than a form of twenty
items over a whole note, and a criterion the note never mentions is not asked about at all. Options
(a Glasgow Coma Scale response, a HEART history) are described in words no list of names can find, so
each is asked over the whole note, the note first so that a server reusing a cached prompt prefix
reads it once.

The request asks for OpenAI-style structured output (``response_format`` ``json_schema``: OpenAI,
vLLM, Ollama, llama.cpp's ``llama-server``); a server that refuses that form is asked again with
``{"type": "json_object", "schema": …}`` (``llama-cpp-python``'s server). The reply is validated here
either way, since some servers accept a schema without enforcing it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from curbside.errors import UpstreamError
from curbside.tools.calculators.kit import Calculator, Choice, Criterion

if TYPE_CHECKING:
    import httpx

    from curbside.llm.breaker import CircuitBreaker
    from curbside.llm.endpoints import ModelRouter
    from curbside.settings import Settings

__all__ = [
    "NOT_STATED",
    "NO_MODEL",
    "ChatJsonModel",
    "CriteriaModel",
    "NoteModel",
    "criterion_messages",
    "item_schema",
    "note_model_for",
    "read_criterion",
]

NO_MODEL = "no model configured: only the yes/no criteria the note states plainly were read"
NOT_STATED = "not stated"
QUOTE_CHARS = 160  # longest quote the schema allows: a phrase, not a paragraph

Message = dict[str, str]


class CriteriaModel(Protocol):
    """What reading criteria needs from a model: a JSON text that should match ``schema``."""

    name: str  # "local"

    async def complete_json(self, messages: list[Message], schema: dict[str, Any], *, max_tokens: int) -> str: ...


@dataclass(frozen=True)
class NoteModel:
    """The model criteria are read with, or None with the reason (shown as a warning)."""

    model: CriteriaModel | None
    unavailable: str | None = None


def note_model_for(router: ModelRouter, settings: Settings) -> NoteModel:
    """The local model when the PHI routing lets a note reach it; otherwise why not."""
    if not router.configured:
        return NoteModel(None, NO_MODEL)
    route = router.route(phi_detected=True)  # a note is PHI
    if route.endpoint != "local":
        if "local" not in router.configured:
            why = "no local model is configured (CURBSIDE_LOCAL_LLM_URL) and a note, being PHI, never goes to the cloud model"
        else:
            why = f"routing {router.mode} forbids the local model (CURBSIDE_LLM_ROUTING) and a note, being PHI, never goes to the cloud model"
        return NoteModel(None, f"{why}: only the yes/no criteria the note states plainly were read")
    client = router.client("local")
    key = settings.local_llm_key.get_secret_value() if settings.local_llm_key is not None else None
    return NoteModel(
        ChatJsonModel(
            name=client.name,
            base_url=client.base_url,
            model=client.model,
            api_key=key,
            timeout_s=settings.llm_timeout_s,
            connect_timeout_s=settings.llm_connect_timeout_s,
            breaker=router.breakers.get("local"),
        )
    )


class ChatJsonModel:
    """``POST {base_url}/chat/completions`` (not streamed) asking for JSON matching a schema."""

    def __init__(
        self,
        *,
        name: str,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        connect_timeout_s: float = 5.0,
        breaker: CircuitBreaker | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self.connect_timeout_s = connect_timeout_s
        self.breaker = breaker
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._transport = transport
        self._style: Literal["json_schema", "json_object"] = "json_schema"
        self.last_ms: float | None = None  # the last call's wall time (benchmarks read it)
        self.last_usage: tuple[int | None, int | None] = (None, None)  # prompt and completion tokens, as reported

    async def complete_json(self, messages: list[Message], schema: dict[str, Any], *, max_tokens: int) -> str:
        if self.breaker is not None and not self.breaker.allow():
            raise UpstreamError(
                f"the {self.name} model failed {self.breaker.consecutive_failures} times in a row and is skipped "
                f"for {self.breaker.retry_in():.0f} s more"
            )
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout_s):
                text = await self._post(messages, schema, max_tokens)
        except TimeoutError as exc:
            self._failed()
            raise UpstreamError(
                f"the {self.name} model did not answer within {self.timeout_s:g} s", code="UPSTREAM_TIMEOUT"
            ) from exc
        except UpstreamError:
            self._failed()
            raise
        except BaseException:
            if self.breaker is not None:
                self.breaker.abandon()
            raise
        if self.breaker is not None:
            self.breaker.record_success()
        self.last_ms = (time.perf_counter() - started) * 1000
        return text

    def _failed(self) -> None:
        if self.breaker is not None:
            self.breaker.record_failure()

    async def _post(self, messages: list[Message], schema: dict[str, Any], max_tokens: int) -> str:
        import httpx

        timeout = httpx.Timeout(self.timeout_s, connect=self.connect_timeout_s)
        async with httpx.AsyncClient(timeout=timeout, headers=self._headers, transport=self._transport) as http:
            try:
                response = await http.post(
                    f"{self.base_url}/chat/completions", json=self._body(messages, schema, max_tokens)
                )
                if response.status_code in (400, 422, 500) and self._style == "json_schema":
                    detail = response.text[:400].lower()
                    if "json_schema" in detail or "response_format" in detail:
                        self._style = "json_object"  # llama-cpp-python's server: {"type": "json_object", "schema"}
                        response = await http.post(
                            f"{self.base_url}/chat/completions", json=self._body(messages, schema, max_tokens)
                        )
            except httpx.HTTPError as exc:
                raise UpstreamError(
                    f"cannot reach the {self.name} model at {self.base_url}: {exc or type(exc).__name__}"
                ) from exc
        if response.status_code >= 400:
            raise UpstreamError(f"the {self.name} model answered HTTP {response.status_code}: {response.text[:300]}")
        try:
            payload = response.json()
            content = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise UpstreamError(f"the {self.name} model's reply has no choices[0].message.content") from exc
        usage = payload.get("usage") or {}
        self.last_usage = (usage.get("prompt_tokens"), usage.get("completion_tokens"))
        return str(content or "")

    def _body(self, messages: list[Message], schema: dict[str, Any], max_tokens: int) -> dict[str, Any]:
        if self._style == "json_schema":
            response_format: dict[str, Any] = {
                "type": "json_schema",
                "json_schema": {"name": "calculator_inputs", "strict": True, "schema": schema},
            }
        else:
            response_format = {"type": "json_object", "schema": schema}
        return {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": 0.0,
            "stream": False,
            "response_format": response_format,
        }


Item = Criterion | Choice


def _answers(item: Item) -> list[str]:
    if isinstance(item, Criterion):
        return ["yes", "no", NOT_STATED]
    return [*item.options, NOT_STATED]


def _strip_fence(text: str) -> str:
    """A reply wrapped in a Markdown code fence (```json … ```) by a model that ignored the format."""
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        body = body.rsplit("```", 1)[0]
    return body.strip()


# --- one item at a time -------------------------------------------------------------------------------------

_MAX_TOKENS = 96  # {"answer": …, "quote": <= 160 characters}: about 60 tokens
_FOCUSED_SYSTEM = (
    "You check one item of a clinical calculator against sentences from a patient's note. Answer only from "
    'those sentences. "yes": they say the patient has it. "no": they say the patient does not have it (for '
    f'example "denies", "no history of", "negative for"). "{NOT_STATED}": they do not say, or say it only of '
    'someone else, as a possibility, or as a risk. "quote" is the few words that show the answer, copied '
    f'exactly; "" for "{NOT_STATED}". Do not guess. Reply with JSON only.'
)
_CHOICE_SYSTEM = (
    "You read a clinical note and choose one option of a clinical calculator's item. Answer only from what "
    f'the note says; "{NOT_STATED}" if it does not say. "quote" is the few words of the note that show the '
    f'answer, copied exactly; "" for "{NOT_STATED}". Do not guess. Reply with JSON only.'
)


def item_schema(item: Item) -> dict[str, Any]:
    """{"answer": one of the item's answers, "quote": words from the note}."""
    return {
        "type": "object",
        "properties": {
            "answer": {"type": "string", "enum": _answers(item)},
            "quote": {"type": "string", "maxLength": QUOTE_CHARS},
        },
        "required": ["answer", "quote"],
        "additionalProperties": False,
    }


def _describe(item: Item) -> str:
    text = item.label + (f" ({item.description})" if item.description else "")
    if isinstance(item, Choice):
        text += "\nOptions: " + " | ".join(item.options)
    return text


def criterion_messages(calc: Calculator, item: Item, excerpts: Sequence[str] | str) -> list[Message]:
    """A criterion over the sentences that mention it (a list), or an option over the whole note (a str)."""
    if isinstance(excerpts, str):
        user = (
            f'Note:\n"""\n{excerpts}\n"""\n\nCalculator: {calc.title}\nItem: {_describe(item)}\n\n'
            f'Reply as {{"answer": one of {" | ".join(_answers(item))}, "quote": …}}.'
        )
        return [{"role": "system", "content": _CHOICE_SYSTEM}, {"role": "user", "content": user}]
    shown = "\n".join(f"{n}. {sentence}" for n, sentence in enumerate(excerpts, 1))
    user = (
        f"Calculator: {calc.title}\nItem: {_describe(item)}\n\nSentences from the note:\n{shown}\n\n"
        f'Does the patient have it? Reply as {{"answer": "yes" | "no" | "{NOT_STATED}", "quote": …}}.'
    )
    return [{"role": "system", "content": _FOCUSED_SYSTEM}, {"role": "user", "content": user}]


async def read_criterion(
    model: CriteriaModel, calc: Calculator, item: Item, excerpts: Sequence[str] | str
) -> tuple[tuple[str, str] | None, list[str]]:
    """One item's (answer, quote) as the model gave it (None for "not stated"), and warnings.

    Raises ``UpstreamError`` when the model cannot be reached or its reply is not the JSON asked for.
    """
    text = await model.complete_json(
        criterion_messages(calc, item, excerpts), item_schema(item), max_tokens=_MAX_TOKENS
    )
    try:
        reply = json.loads(_strip_fence(text))
    except ValueError as exc:
        raise UpstreamError(f"the {model.name} model's reply is not JSON: {text[:120]!r}") from exc
    if isinstance(reply, dict) and item.key in reply and isinstance(reply[item.key], dict | str):
        reply = reply[item.key]  # {"<item>": {...}}: the shape of the one-form prompt
    if isinstance(reply, str):
        reply = {"answer": reply, "quote": ""}
    if not isinstance(reply, dict):
        raise UpstreamError(f"the {model.name} model's reply is not a JSON object: {text[:120]!r}")
    answer = str(reply.get("answer", "")).strip()
    quote = str(reply.get("quote") or "").strip()
    allowed = _answers(item)
    match = next((option for option in allowed if option.lower() == answer.lower()), None)
    if match is None:
        return None, [f"{item.label}: the model answered {answer[:40]!r}, not one of {', '.join(allowed)}; not used"]
    if match == NOT_STATED:
        return None, []
    return (match, quote), []
