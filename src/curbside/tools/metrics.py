"""Prometheus metrics for tool calls, on a registry the application owns.

Never the global default registry: two application objects in one process (tests,
a CLI inside a server) would otherwise share counts or fail on duplicate names.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram

__all__ = ["ToolMetrics"]

# tools answer in milliseconds to a few seconds; odb.get's budget is 1.5-2 s
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 5.0, 10.0, 30.0)


class ToolMetrics:
    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.calls = Counter(
            "tool_calls_total",
            "Tool calls by outcome (ok, error, timeout, denied, rate_limited, needs_confirmation).",
            ["tool", "status"],
            registry=self.registry,
        )
        self.duration = Histogram(
            "tool_execution_duration_seconds",
            "Time spent running a tool's handler (calls refused before running are not observed).",
            ["tool"],
            buckets=_BUCKETS,
            registry=self.registry,
        )

    def count(self, tool: str, status: str) -> None:
        self.calls.labels(tool=tool, status=status).inc()

    def observe(self, tool: str, seconds: float) -> None:
        self.duration.labels(tool=tool).observe(seconds)
