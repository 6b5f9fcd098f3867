"""The door of the HTTP API: who is calling, and how much they may send, before any body is read.

FastAPI reads (and, for multipart, spools to disk) a request's whole body before it
resolves a route's dependencies, so a key check in a dependency comes too late for a
1 GB upload. This ASGI layer runs first: it matches the route, checks the API key and the
route's roles from the headers alone, refuses a declared ``Content-Length`` over the
route's limit, and counts the bytes of a body sent without one, stopping at the limit.
Routes keep their own role dependency, which finds the caller this layer admitted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.routing import Match

from curbside.errors import CurbsideError, FileTooLargeError, ValidationError, size_text, too_large
from curbside.http_errors import error_response

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from curbside.app import Curbside

__all__ = ["CALLER_SCOPE_KEY", "RequestGuard", "client_address"]

CALLER_SCOPE_KEY = "curbside.caller"
_UPLOAD_OVERHEAD = 1024 * 1024  # multipart boundaries and form fields around the file itself


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RequestGuard:
    """Admit a request (key, role, declared size) from its headers; cap the body it then streams."""

    def __init__(self, app: ASGIApp, *, core: Curbside, routers: Sequence[APIRouter]) -> None:
        self.app = app
        self.core = core
        self.routes = [route for router in routers for route in router.routes if isinstance(route, APIRoute)]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = self._route(scope)
        try:
            roles = _roles_of(route) if route is not None else None
            if route is not None and roles is not None:  # who first: a stranger learns nothing of the limits
                scope[CALLER_SCOPE_KEY] = await asyncio.to_thread(self._admit, scope, roles, route.path)
            limit = self._body_limit(scope, route)
            self._check_declared_size(scope, limit)
        except CurbsideError as exc:
            await _refusal(exc)(scope, _no_body, send)
            return
        await _CappedBody(self.app, limit).run(scope, receive, send)

    def _route(self, scope: Scope) -> APIRoute | None:
        for route in self.routes:
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return route
        return None

    def _body_limit(self, scope: Scope, route: APIRoute | None) -> int:
        settings = self.core.settings
        if route is not None and route.path == "/v1/documents" and scope.get("method") == "POST":
            return settings.max_file_bytes + _UPLOAD_OVERHEAD
        return settings.max_body_bytes

    @staticmethod
    def _check_declared_size(scope: Scope, limit: int) -> None:
        declared = Headers(scope=scope).get("content-length")
        if declared is None:
            return
        if not declared.strip().isdigit():
            raise ValidationError("The Content-Length header is not a whole number.")
        if int(declared) > limit:
            raise too_large("The request body", int(declared), limit)

    def _admit(self, scope: Scope, roles: frozenset[str], route_path: str) -> Any:
        from curbside.auth.access import key_from_headers
        from curbside.auth.roles import role_allows

        headers = Headers(scope=scope)
        gate = self.core.gate
        caller = gate.admit(key_from_headers(headers), client=client_address(scope), session=headers.get("x-session-id"))
        if not role_allows(caller.role, roles):
            # the route's template, not the request's path: a path parameter is text the client chose
            gate.refuse(caller, roles, channel="http", method=scope["method"], path=route_path)
        return caller


def _roles_of(route: APIRoute) -> frozenset[str] | None:
    """The roles a route's dependencies admit (``require_roles`` marks its dependency); None: public."""
    pending = list(route.dependant.dependencies)
    while pending:
        dependant = pending.pop()
        roles = getattr(dependant.call, "allowed_roles", None)
        if isinstance(roles, frozenset):
            return roles
        pending.extend(dependant.dependencies)
    return None


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


def _refusal(exc: CurbsideError) -> Any:
    """The error response, closing the connection: the server would otherwise read (and drop) the
    rest of a refused body to keep the connection open, a gigabyte of it if that is what was sent."""
    response = error_response(exc)
    response.headers["Connection"] = "close"
    return response


class _CappedBody:
    """Runs the app with a receive that stops at ``limit`` bytes; an over-limit body gets 413 instead."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.received = 0
        self.exceeded = False
        self.started = False

    async def run(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def capped_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                self.received += len(message.get("body", b""))
                if self.received > self.limit:
                    self.exceeded = True
                    raise FileTooLargeError(f"The request body is over this route's limit of {size_text(self.limit)}.")
            return message

        async def guarded_send(message: Message) -> None:
            if self.exceeded and not self.started:  # whatever the app made of the error, the answer is 413
                self.started = True
                error = FileTooLargeError(f"The request body is over this route's limit of {size_text(self.limit)}.")
                await _refusal(error)(scope, _no_body, send)
                return
            if self.exceeded:
                return
            self.started = self.started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, capped_receive, guarded_send)
        except FileTooLargeError:
            if not self.started:
                await guarded_send({"type": "http.response.start"})
