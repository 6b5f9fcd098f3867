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
    try:
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00: its UTC form falls before year 1
        raise ValidationError(
            f"{name} {text!r} is outside the calendar once converted to UTC; give a time between years 1 and 9999."
        ) from None


def parse_range(since: str, until: str | None) -> tuple[datetime, datetime | None]:
    start = parse_time(since, name="since")
    end = parse_time(until, name="until") if until else None
    if end is not None and end <= start:
        raise ValidationError(f"until ({until}) must be later than since ({since}).")
    return start, end
