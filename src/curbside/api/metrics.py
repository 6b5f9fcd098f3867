"""``GET /metrics`` (admin key): the application's Prometheus registry in the text exposition format."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from curbside.api.deps import Core, admin_caller
from curbside.api.errors import ERROR_RESPONSES

__all__ = ["router"]

router = APIRouter(tags=["health"], responses=ERROR_RESPONSES, dependencies=[Depends(admin_caller)])


@router.get("/metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
def metrics(core: Core) -> Response:
    """Tool call counts and durations (tool_calls_total, tool_execution_duration_seconds)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    return Response(generate_latest(core.tools.metrics.registry), media_type=CONTENT_TYPE_LATEST)
