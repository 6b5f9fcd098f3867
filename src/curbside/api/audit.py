"""Audit routes (auditor key): export the trail as JSON Lines, browse it a page at a time, and verify it.

Both are recorded on the trail themselves. A trail that fails verification is
still exported (that is when an auditor needs it most), marked by the
``X-Audit-Verified: false`` header and the first bad row in ``X-Audit-First-Bad-Row``.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from curbside.api.deps import AuditorCaller, Core, auditor_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.app import Curbside
from curbside.audit import AuditEntry, VerifyReport, utc_text
from curbside.errors import AuditIntegrityError

__all__ = ["router"]

log = logging.getLogger("curbside.api")

router = APIRouter(
    prefix="/v1/audit", tags=["audit"], responses=ERROR_RESPONSES, dependencies=[Depends(auditor_caller)]
)


@router.get("/verify", response_model=VerifyReport)
def verify(core: Core, caller: AuditorCaller) -> VerifyReport:
    """Check every row's MAC and chain link and the head anchor; ``first_bad_row`` names where it breaks."""
    report = core.audit.verify()
    _record(core, caller, "audit.verify", outcome="ok" if report.ok else "failed", rows=report.rows)
    return report


@router.get(
    "/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}, "description": "One JSON object per row."}},
)
def export(
    core: Core,
    caller: AuditorCaller,
    since: Annotated[str, Query(description="ISO 8601 time or date, e.g. 2025-03-01T00:00:00Z (UTC if no zone).")],
    until: Annotated[str | None, Query(description="End (exclusive), same format; default: now.")] = None,
) -> StreamingResponse:
    """Rows recorded from ``since`` up to ``until``, one JSON object per line, in order."""
    from curbside.audit.timeparse import parse_range

    start, end = parse_range(since, until)
    end = end or datetime.now(UTC)  # the rows up to this request, not the row recording it
    report = core.audit.verify()
    window = {"since": utc_text(start), "until": utc_text(end)}
    _record(core, caller, "audit.export", outcome="ok", verified=report.ok, **window)
    headers = {"X-Audit-Verified": "true" if report.ok else "false"}
    if report.first_bad_row is not None:
        headers["X-Audit-First-Bad-Row"] = str(report.first_bad_row)

    def lines() -> Iterator[str]:
        for row in core.audit.export(start, end):
            yield json.dumps(row, ensure_ascii=False) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=headers)


class AuditPage(BaseModel):
    rows: list[dict[str, Any]]
    offset: int
    limit: int
    more: bool = Field(description="Rows follow this page in the window: ask again with offset + limit.")
    verified: bool = Field(description="Whether the whole trail verified when this page was read.")


@router.get("/rows", response_model=AuditPage)
def browse(
    core: Core,
    caller: AuditorCaller,
    since: Annotated[str, Query(description="ISO 8601 time or date (UTC if no zone).")],
    until: Annotated[str | None, Query(description="End (exclusive), same format; default: now.")] = None,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> AuditPage:
    """A page of the rows recorded from ``since`` up to ``until``, in order (the page's browse view)."""
    from curbside.audit.timeparse import parse_range

    start, end = parse_range(since, until)
    end = end or datetime.now(UTC)
    report = core.audit.verify()
    rows = list(itertools.islice(core.audit.export(start, end), offset, offset + limit + 1))
    window = {"since": utc_text(start), "until": utc_text(end), "offset": offset, "limit": limit}
    _record(core, caller, "audit.browse", outcome="ok", verified=report.ok, **window)
    return AuditPage(rows=rows[:limit], offset=offset, limit=limit, more=len(rows) > limit, verified=report.ok)


def _record(core: Curbside, caller: Any, action: str, *, outcome: str, **details: Any) -> None:
    entry = AuditEntry(
        action=action,
        user=caller.user,
        role=caller.role,
        session=caller.session,
        channel="http",
        outcome=outcome,
        details=details,
    )
    try:
        core.audit.append(entry)
    except AuditIntegrityError as exc:  # a broken trail must still be readable by its auditor
        log.error("could not record %s: %s", action, exc.message)
