"""Reading the times an export is asked for (ISO 8601; a time without a zone is UTC)."""

from __future__ import annotations

from datetime import UTC, datetime

from curbside.errors import ValidationError

__all__ = ["parse_range", "parse_time"]


def parse_time(text: str, *, name: str = "time") -> datetime:
    value = text.strip()
    try:
        moment = datetime.fromisoformat(value)  # 3.11: dates, 'T' or ' ', fractions, offsets and 'Z'
    except ValueError:
        raise ValidationError(
            f"{name} {text!r} is not an ISO 8601 time; write e.g. 2025-03-01, 2025-03-01T08:30:00Z "
            "or 2025-03-01T08:30:00-05:00."
        ) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def parse_range(since: str, until: str | None) -> tuple[datetime, datetime | None]:
    start = parse_time(since, name="since")
    end = parse_time(until, name="until") if until else None
    if end is not None and end <= start:
        raise ValidationError(f"until ({until}) must be later than since ({since}).")
    return start, end
