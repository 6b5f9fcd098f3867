"""Checking the chain: every row's MAC and link in order, then the head anchor.

The first problem found is the answer: rows after it cannot be trusted to mean
anything, and naming one row lets a person start there.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, PrivateAttr

from curbside.audit.chain import row_mac

if TYPE_CHECKING:
    from curbside.audit.head import Head

__all__ = ["VerifyReport", "verify_rows"]


class VerifyReport(BaseModel):
    """The outcome of ``curbside audit verify`` / ``GET /v1/audit/verify``."""

    ok: bool = Field(description="Every row's MAC and link hold, and the head anchor matches the table's end.")
    rows: int = Field(0, description="Rows in the table.")
    first_bad_row: int | None = Field(
        None, description="Row number (seq) of the first problem, when a row is at fault."
    )
    problem: str | None = Field(None, description="What is wrong, in words.")
    last_row: int = Field(0, description="Last row checked in order; record it with last_mac off this machine.")
    last_mac: str | None = Field(None, description="MAC of last_row: a checkpoint a later verify can be compared to.")
    head_count: int | None = Field(None, description="Rows the head anchor records.")
    key_fingerprint: str | None = Field(
        None, description="Names the key that checked (it is not the key); a replaced key file changes it."
    )
    warnings: list[str] = Field(default_factory=list)
    _anchor_mac: str | None = PrivateAttr(None)

    def with_head(self, head: Head | None, head_problem: str | None, head_path: Path) -> VerifyReport:
        """This report with the head anchor checked against the table's end (row problems come first)."""
        report = self.model_copy(deep=True)
        report._anchor_mac = self._anchor_mac
        if head is not None:
            report.head_count = head.count
        if not report.ok:
            return report
        if head_problem is not None:
            return report._fail(None, head_problem)
        if head is None:
            return report._fail(
                None,
                f"The audit head {str(head_path)!r} is missing, so rows deleted from the end could not be detected.",
            )
        last = report.last_row
        if head.count > last:
            lost = f"rows {last + 1}–{head.count} were" if head.count > last + 1 else f"row {head.count} was"
            return report._fail(
                last + 1,
                f"The head records {head.count} rows but the table ends at row {last}: {lost} deleted.",
            )
        if head.count > 0 and not hmac.compare_digest(report._anchor_mac or "", head.last_mac):
            return report._fail(head.count, f"Row {head.count} is not the row the head recorded: it was replaced.")
        if head.count < last:
            report.warnings.append(
                f"The head records {head.count} rows; rows {head.count + 1}–{last} are valid and newer (an append "
                "stopped between its commit and the head, or an older head was restored). The next append moves it."
            )
        return report

    def _fail(self, row: int | None, problem: str) -> VerifyReport:
        self.ok, self.first_bad_row, self.problem = False, row, problem
        return self


def verify_rows(
    rows: Iterable[Mapping[str, Any]],
    key: bytes,
    *,
    first_seq: int,
    prev_mac: str,
    anchor_seq: int | None = None,
) -> VerifyReport:
    """Check ``rows`` (in seq order, as stored) as the chain continuing after ``prev_mac`` from ``first_seq``."""
    expected, previous = first_seq, prev_mac
    report = VerifyReport(ok=True, last_row=first_seq - 1, last_mac=prev_mac)
    for row in rows:
        seq = row["seq"]
        if seq != expected:
            if isinstance(seq, int) and seq > expected:
                return report._fail(
                    expected,
                    f"Row {expected} is missing: the trail goes from row {expected - 1} to row {seq} "
                    "(rows were deleted or renumbered).",
                )
            return report._fail(
                seq if isinstance(seq, int) else expected,
                f"Row {seq!r} is out of sequence after row {expected - 1} (a row was inserted or renumbered).",
            )
        if not hmac.compare_digest(str(row["prev_mac"]), previous):
            where = "does not start the chain" if seq == 1 else f"does not follow row {seq - 1}"
            return report._fail(seq, f"Row {seq} {where}: rows were inserted, deleted or reordered here.")
        if not hmac.compare_digest(str(row["mac"]), row_mac(key, row)):
            return report._fail(seq, f"Row {seq} fails its MAC: it was edited, or written with another key.")
        if row["action"] == "audit.acknowledge":
            report.warnings.append(_acknowledgement(seq, row["details"]))
        if seq == anchor_seq:
            report._anchor_mac = str(row["mac"])
        previous, expected = str(row["mac"]), expected + 1
        report.last_row, report.last_mac = seq, previous
    return report


def _acknowledgement(seq: int, details: Any) -> str:
    try:
        data = json.loads(details)
        return (
            f"Row {seq} acknowledges a problem: {data.get('problem') or 'none found'} (reason: {data.get('reason')})."
        )
    except (TypeError, ValueError, AttributeError):
        return f"Row {seq} acknowledges a problem."
