"""The registry: every tool's declaration, checked once when it is registered.

A clinical tool that is mis-declared (a schema that cannot be generated, a
high-risk tool without confirmation, a sync handler that would block the event
loop) should fail when the application builds its registry, not on the first
call. Problems are collected and raised together; a second tool with a taken
name is refused rather than renamed or silently replacing the first.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Iterator
from typing import Any, get_args

from pydantic import BaseModel, PydanticUserError

from curbside.errors import NotFoundError
from curbside.tools.base import RiskLevel, ToolSpec

__all__ = ["TOOL_NAME", "ToolDefinitionError", "ToolRegistry", "definition_problems"]

# family.action, lower case: "odb.get", "source.passages" (dots are valid MCP tool-name characters)
TOOL_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")
_CATEGORY = re.compile(r"^[a-z][a-z0-9_]*$")
_RISK_LEVELS: tuple[str, ...] = get_args(RiskLevel)


class ToolDefinitionError(ValueError):
    """A tool is declared wrongly: a developer's mistake, raised when the registry is built."""


class ToolRegistry:
    """Tools by name, in registration order."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec[Any, Any]] = {}

    def register(self, spec: ToolSpec[Any, Any]) -> ToolSpec[Any, Any]:
        problems = definition_problems(spec)
        if spec.name in self._tools:
            problems.append(f"the name {spec.name!r} is already registered; tool names must be unique")
        if problems:
            listed = "\n".join(f"  - {p}" for p in problems)
            raise ToolDefinitionError(f"Tool {spec.name!r} cannot be registered:\n{listed}")
        self._tools[spec.name] = spec
        return spec

    def get(self, name: str) -> ToolSpec[Any, Any]:
        try:
            return self._tools[name]
        except KeyError:
            known = ", ".join(sorted(self._tools)) or "none"
            raise NotFoundError(f"No tool named {name!r}. Known tools: {known}.") from None

    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[ToolSpec[Any, Any]]:
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolRegistry({self.names()!r})"


def definition_problems(spec: ToolSpec[Any, Any]) -> list[str]:
    """Everything wrong with ``spec``, each as a sentence that names the fix."""
    problems: list[str] = []
    if not isinstance(spec.name, str) or not TOOL_NAME.match(spec.name):
        problems.append(f"name {spec.name!r} must look like 'family.action' (lower case, e.g. 'odb.get')")
    if not isinstance(spec.description, str) or not spec.description.strip():
        problems.append("description is empty: say what the tool does; MCP clients show it to the model")
    models_ok = True
    for field, model in (
        ("args_model", spec.args_model),
        ("result_model", spec.result_model),
    ):
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            problems.append(f"{field} must be a pydantic BaseModel subclass, got {model!r}")
            models_ok = False
    if models_ok:
        problems.extend(_schema_problems(spec))
    problems.extend(_handler_problems(spec))
    if not isinstance(spec.category, str) or not _CATEGORY.match(spec.category):
        problems.append(f"category {spec.category!r} must be one lower-case word, e.g. 'coverage'")
    for flag, value in (
        ("requires_phi", spec.requires_phi),
        ("requires_confirmation", spec.requires_confirmation),
    ):
        if not isinstance(value, bool):
            problems.append(f"{flag} must be True or False")
    if spec.risk_level not in _RISK_LEVELS:
        problems.append(f"risk_level {spec.risk_level!r} must be one of {', '.join(_RISK_LEVELS)}")
    elif spec.risk_level == "high" and spec.requires_confirmation is not True:
        problems.append("a high-risk tool must set requires_confirmation=True (the user approves each call)")
    timeout = spec.timeout_s
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not math.isfinite(timeout) or timeout <= 0:
        problems.append(f"timeout_s must be a finite number of seconds above 0, got {timeout!r}")
    limit = spec.rate_limit
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        problems.append(
            f"rate_limit must be None (unlimited) or a whole number of calls per minute >= 1, got {limit!r}"
        )
    roles = spec.allowed_roles
    if roles is not None and (
        not isinstance(roles, frozenset) or not roles or not all(isinstance(r, str) and r for r in roles)
    ):
        problems.append("allowed_roles must be None (every role) or a non-empty frozenset of role names")
    if spec.warm_up is not None and not callable(spec.warm_up):
        problems.append("warm_up must be None or a function taking no arguments")
    return problems


def _schema_problems(spec: ToolSpec[Any, Any]) -> list[str]:
    problems: list[str] = []
    for label, build in (
        ("argument", spec.input_schema),
        ("result", spec.output_schema),
    ):
        try:
            schema = build()
        except (
            PydanticUserError,
            TypeError,
            ValueError,
        ) as exc:  # e.g. PydanticInvalidForJsonSchema
            problems.append(f"the {label} model has no JSON schema ({type(exc).__name__}: {exc})")
            continue
        if schema.get("type") != "object":
            problems.append(f"the {label} model's JSON schema must be an object (MCP requires it)")
    return problems


def _handler_problems(spec: ToolSpec[Any, Any]) -> list[str]:
    handler = spec.handler
    if not inspect.iscoroutinefunction(handler):
        return [f"handler {handler!r} must be an 'async def' function taking (ctx, args)"]
    try:
        inspect.signature(handler).bind(object(), object())
    except TypeError:
        return [f"handler {handler.__qualname__} must accept two positional parameters (ctx, args)"]
    return []
