"""The tools layer: declare a tool once (``ToolSpec``), register it, run it through
``ToolExecutor``, which every interface (CLI, HTTP, MCP, the agent) shares.

Tools come in families (``tools/passages.py``, ``coverage/*/tool.py`` …), each with a
``register(registry, deps)`` that declares its tools with the narrow dependencies they need
(``ToolContext.deps``); the application lists the families (``curbside.app.tool_families``).
This package names none of them.
"""

from curbside.tools.base import RiskLevel, ToolContext, ToolErrorDetail, ToolHandler, ToolInfo, ToolResult, ToolSpec
from curbside.tools.executor import ToolExecutor
from curbside.tools.hooks import (
    AuditSink,
    CallLimiter,
    ConfirmationPolicy,
    ExplicitConfirmation,
    InMemoryAuditSink,
    PermissionPolicy,
    RolePermissionPolicy,
    SlidingWindowRateLimiter,
    ToolHooks,
)
from curbside.tools.metrics import ToolMetrics
from curbside.tools.registry import ToolDefinitionError, ToolRegistry

__all__ = [
    "AuditSink",
    "ConfirmationPolicy",
    "ExplicitConfirmation",
    "InMemoryAuditSink",
    "PermissionPolicy",
    "CallLimiter",
    "RiskLevel",
    "RolePermissionPolicy",
    "SlidingWindowRateLimiter",
    "ToolContext",
    "ToolDefinitionError",
    "ToolErrorDetail",
    "ToolExecutor",
    "ToolHandler",
    "ToolHooks",
    "ToolInfo",
    "ToolMetrics",
    "ToolRegistry",
    "ToolResult",
    "ToolSpec",
]
