"""Disagreements between the structured (SQL) path and the search passages.

Both paths of a coverage tool read the same official source, so a
disagreement means the search index holds text from another load (an older
edition, or a load whose passage step failed). It is always reported, never
hidden; the structured value wins because it is what the last successful load
committed in one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

__all__ = ["Conflict", "FieldComparison", "detect"]

SQL_WINS = (
    "The formulary tables (committed in one transaction by the last load) take precedence; the search "
    "passages may be stale: run `curbside coverage load DIR` again to re-index them."
)


class Conflict(BaseModel):
    field: str = Field(description="What disagrees, e.g. 'coverage', 'unit_price', 'edition'.")
    subject: str = Field("", description="Which record, e.g. 'DIN 02388839'.")
    sql_value: Any = Field(description="The value in the formulary tables.")
    vector_value: Any = Field(description="The value stated in the indexed passage.")
    chunk_id: str | None = Field(None, description="The passage that states vector_value.")
    resolution: str = Field(SQL_WINS, description="How the answer resolved it.")


class FieldComparison(BaseModel):
    """One value both paths state about the same subject."""

    field: str
    subject: str
    sql_value: Any
    vector_value: Any
    chunk_id: str | None = None


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        try:
            return abs(float(a) - float(b)) < 5e-5  # prices carry 4 decimals
        except (TypeError, ValueError):
            return False
    return bool(a == b)


def detect(comparisons: Iterable[FieldComparison]) -> list[Conflict]:
    """Conflicts among the comparisons, one per (field, subject) pair.

    A value missing on either side is not a conflict: absence is not a contradiction.
    """
    out: dict[tuple[str, str], Conflict] = {}
    for c in comparisons:
        if c.sql_value is None or c.vector_value is None or _same(c.sql_value, c.vector_value):
            continue
        out.setdefault(
            (c.field, c.subject),
            Conflict(
                field=c.field,
                subject=c.subject,
                sql_value=c.sql_value,
                vector_value=c.vector_value,
                chunk_id=c.chunk_id,
            ),
        )
    return list(out.values())
