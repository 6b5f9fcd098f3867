"""``GET /metrics``: the application's Prometheus registry in the text exposition format."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from curbside.api.deps import get_curbside
from curbside.app import Curbside

__all__ = ["router"]

router = APIRouter(tags=["health"])


@router.get("/metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
def metrics(core: Annotated[Curbside, Depends(get_curbside)]) -> Response:
    """Tool call counts and durations (tool_calls_total, tool_execution_duration_seconds)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    return Response(generate_latest(core.tools.metrics.registry), media_type=CONTENT_TYPE_LATEST)
