"""The tools layer: declare a tool once (``ToolSpec``), register it, run it through
``ToolExecutor``, which every interface (CLI, HTTP, MCP, the agent) shares.

The built-in tools live in their own modules and are listed in
``curbside.tools.catalog``; ``Curbside.tools`` is the application's executor.
"""

from curbside.tools.base import (
    RiskLevel,
    ToolCaller,
    ToolContext,
    ToolErrorDetail,
    ToolHandler,
    ToolInfo,
    ToolResult,
    ToolSpec,
    ToolStatus,
)
from curbside.tools.executor import ToolExecutor
from curbside.tools.hooks import (
    AuditSink,
    ConfirmationPolicy,
    ExplicitConfirmation,
    InMemoryAuditSink,
    PermissionPolicy,
    RateLimiter,
    RolePermissionPolicy,
    SlidingWindowRateLimiter,
    ToolAuditEvent,
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
    "RateLimiter",
    "RiskLevel",
    "RolePermissionPolicy",
    "SlidingWindowRateLimiter",
    "ToolAuditEvent",
    "ToolCaller",
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
    "ToolStatus",
]
