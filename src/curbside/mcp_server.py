"""The MCP server: every registered tool, under its spec name, over stdio or streamable HTTP.

Built on the SDK's low-level ``Server`` rather than ``MCPServer``: ``MCPServer``
derives a tool's schema from a Python function signature and validates arguments
itself, while Curbside tools already declare argument and result models and the
executor validates, permits, rate-limits, times out and audits. The low-level
server publishes those schemas exactly as declared and leaves every check to the
executor, so MCP behaves like the CLI and the HTTP API.

Results: ``structuredContent`` is the tool's result (its ``outputSchema``) with the
same JSON as text; anything but ``ok`` is an MCP tool error (``isError``) whose text
is ``CODE: message`` and whose structured content is ``{status, error, call_id}``.
A tool that needs confirmation runs when the request's ``_meta`` carries
``"curbside/confirm": true``.

Who calls: over stdio (or in process) the local operator, who started the server;
over HTTP every request must carry a clinician or admin API key
(``Authorization: Bearer …`` or ``X-API-Key``), checked by ``require_api_key`` before
the MCP app sees the request, and tool calls run as that key's user and role.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import TYPE_CHECKING, Any

from mcp import types
from mcp.server import Server
from mcp.server.context import ServerRequestContext

from curbside import __version__
from curbside.tools.base import ToolResult, ToolSpec
from curbside.types import ToolCaller

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from curbside.app import Curbside

__all__ = [
    "CALLER_SCOPE_KEY",
    "CONFIRM_META_KEY",
    "build_mcp_server",
    "require_api_key",
    "run_http",
    "run_stdio",
    "to_call_tool_result",
    "to_mcp_tool",
]

log = logging.getLogger("curbside.mcp")

CONFIRM_META_KEY = "curbside/confirm"
CALLER_SCOPE_KEY = "curbside.caller"  # where require_api_key leaves the authenticated caller in the ASGI scope
_INSTRUCTIONS = (
    "Curbside clinical tools. Results cite their sources; coverage answers carry the formulary edition. "
    "A tool marked requires_confirmation in _meta does not run when called: it answers "
    "needs_confirmation with a confirmation (id, the call in words, expiry). Show it to the user; their "
    "answer goes to confirmations.decide (approve or deny) — never decide for them. A client that asked the "
    f'user before calling may instead send _meta "{CONFIRM_META_KEY}": true.'
)


def build_mcp_server(core: Curbside, *, caller: ToolCaller | None = None) -> Server[Any]:
    """An MCP server over ``core.tools``.

    Calls over HTTP run as the caller ``require_api_key`` authenticated (and are refused
    without one); otherwise as ``caller`` (default: the local operator).
    """
    executor = core.tools

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[to_mcp_tool(spec) for spec in executor.registry])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        meta = params.meta or {}
        confirm = meta.get(CONFIRM_META_KEY) is True
        who = caller
        if ctx.request is not None:  # HTTP: only ever the authenticated caller, never the operator
            who = _authenticated_caller(ctx.request)
            if who is None:
                return _unauthenticated(params.name)
        result = await executor.call(params.name, params.arguments or {}, caller=who, confirm=confirm)
        return to_call_tool_result(result)

    def input_schema(name: str) -> dict[str, Any] | None:
        return executor.registry.get(name).input_schema() if name in executor.registry else None

    return Server(
        "curbside",
        version=__version__,
        instructions=_INSTRUCTIONS,
        get_tool_input_schema=input_schema,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def to_mcp_tool(spec: ToolSpec[Any, Any]) -> types.Tool:
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema(),
        output_schema=spec.output_schema(),
        _meta={
            "curbside/category": spec.category,
            "curbside/requires_phi": spec.requires_phi,
            "curbside/requires_confirmation": spec.requires_confirmation,
            "curbside/risk_level": spec.risk_level,
            "curbside/rate_limit_per_minute": spec.rate_limit,
            "curbside/timeout_s": spec.timeout_s,
            **({"curbside/citation": spec.citation} if spec.citation else {}),
        },
    )


def to_call_tool_result(result: ToolResult) -> types.CallToolResult:
    if result.ok and result.result is not None:
        text = json.dumps(result.result, ensure_ascii=False)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=result.result,
        )
    error = result.error
    text = f"{error.code}: {error.message}" if error else f"{result.status.upper()}: the tool did not return a result"
    structured = result.model_dump(mode="json", include={"status", "error", "call_id", "confirmation"})
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=structured,
        is_error=True,
    )


async def run_stdio(core: Curbside) -> None:
    """Serve over stdin/stdout until the client closes them. Nothing else may write to stdout."""
    from mcp.server.stdio import stdio_server

    from curbside.auth.access import operator_caller

    server = build_mcp_server(core, caller=operator_caller(core.settings, channel="mcp-stdio"))
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def run_http(core: Curbside, *, host: str, port: int, path: str = "/mcp") -> None:
    """Serve streamable HTTP at ``http://host:port{path}`` (DNS-rebinding protection on loopback),
    to clinician and admin API keys only."""
    import uvicorn

    _ = core.audit.key  # an unusable audit key stops the server here, not at the first call
    if not core.users.list():
        log.warning("no API users: MCP over HTTP answers 401 to everyone; add one with `curbside users add`")
    server = build_mcp_server(core)
    asgi = server.streamable_http_app(streamable_http_path=path, host=host)
    config = uvicorn.Config(require_api_key(asgi, core), host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def require_api_key(asgi: ASGIApp, core: Curbside) -> ASGIApp:
    """``asgi`` behind the API-key check: HTTP requests without a clinician or admin key get the API's
    401/403/429 error bodies; admitted ones carry their caller in ``scope[CALLER_SCOPE_KEY]``."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: the session manager's start and stop
            await asgi(scope, receive, send)
            return
        from starlette.datastructures import Headers

        from curbside.errors import CurbsideError
        from curbside.http_errors import error_response

        headers = Headers(scope=scope)
        try:
            client = scope.get("client")
            caller = await asyncio.to_thread(
                _admit, core, headers, scope.get("method", "POST"), scope.get("path", ""), str(client[0]) if client else "unknown"
            )
        except CurbsideError as exc:
            await error_response(exc)(scope, receive, send)
            return
        scope[CALLER_SCOPE_KEY] = caller
        await asgi(scope, receive, send)

    return guarded


def _admit(core: Curbside, headers: Any, method: str, path: str, client: str) -> ToolCaller:
    from curbside.auth.access import key_from_headers
    from curbside.auth.roles import CLINICAL, role_allows

    # the MCP session header comes from the client too: the trail keeps only its keyed digest
    caller = core.gate.admit(key_from_headers(headers), client=client, session=headers.get("mcp-session-id"), channel="mcp-http")
    if not role_allows(caller.role, CLINICAL):
        core.gate.refuse(caller, CLINICAL, channel="mcp-http", method=method, path=path)
    return caller


def _authenticated_caller(request: Any) -> ToolCaller | None:
    from starlette.requests import Request

    if not isinstance(request, Request):
        return None
    caller = request.scope.get(CALLER_SCOPE_KEY)
    return caller if isinstance(caller, ToolCaller) else None


def _unauthenticated(tool: str) -> types.CallToolResult:
    result = ToolResult(
        tool=tool,
        status="denied",
        error={
            "code": "UNAUTHENTICATED",
            "message": "MCP over HTTP needs a clinician or admin API key; serve it with curbside.mcp_server.run_http.",
        },
        duration_ms=0.0,
        call_id=uuid.uuid4().hex,
    )
    return to_call_tool_result(result)
