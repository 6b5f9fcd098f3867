"""iCalendar (RFC 5545) in and out: the events of a CalDAV answer as plain records, and the one-event
calendar object a new event is stored as. icalendar does the parsing (line unfolding, escapes,
TZID zones, DURATION and the default ends of §3.6.1); it is imported only when a calendar is read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from typing import Any

from curbside.errors import UpstreamError

__all__ = ["EventRecord", "build_event", "overlaps", "parse_events", "as_moment"]

_PRODID = "-//Curbside//workspace calendar//EN"


@dataclass(frozen=True)
class EventRecord:
    """One event, or one occurrence of a repeating event, as the server sent it."""

    uid: str | None
    summary: str | None
    start: date | datetime  # a date: an all-day event; a naive datetime: floating (RFC 5545 §3.3.5 form 1)
    end: date | datetime  # exclusive, as in iCalendar
    location: str | None
    description: str | None
    status: str | None  # TENTATIVE | CONFIRMED | CANCELLED
    attendees: tuple[str, ...]
    occurrence: bool  # one occurrence of a repeating event (it has a RECURRENCE-ID)
    unexpanded: bool  # a repeating event the server did not expand: only its first occurrence is known

    @property
    def all_day(self) -> bool:
        return not isinstance(self.start, datetime)


def parse_events(data: str, where: str) -> list[EventRecord]:
    """Every VEVENT of one calendar object; ``where`` names it in the error if it cannot be read."""
    from icalendar import Calendar, Event
    from icalendar.error import IncompleteComponent, InvalidCalendar

    try:
        calendar = Calendar.from_ical(data)
    except ValueError as exc:
        raise UpstreamError(f"The CalDAV server sent {where} that is not valid iCalendar ({_short(exc)}).") from exc
    records = []
    for event in calendar.walk("VEVENT"):
        if not isinstance(event, Event):
            continue
        try:
            start, end = event.start, event.end
        except (IncompleteComponent, InvalidCalendar):
            continue  # an event without a start is not on the calendar at any time
        records.append(
            EventRecord(
                uid=_text(event.get("UID")),
                summary=_text(event.get("SUMMARY")),
                start=start,
                end=end,
                location=_text(event.get("LOCATION")),
                description=_text(event.get("DESCRIPTION")),
                status=_text(event.get("STATUS")),
                attendees=tuple(_address(a) for a in _many(event.get("ATTENDEE"))),
                occurrence=event.get("RECURRENCE-ID") is not None,
                unexpanded=event.get("RRULE") is not None or event.get("RDATE") is not None,
            )
        )
    return records


def as_moment(value: date | datetime, zone: tzinfo) -> datetime:
    """A point in time: a date is its midnight and a floating time is read in ``zone`` (RFC 4791 §9.9)."""
    if not isinstance(value, datetime):
        return datetime.combine(value, time(0), tzinfo=zone)
    return value.replace(tzinfo=zone) if value.tzinfo is None else value


def overlaps(record: EventRecord, start: datetime, end: datetime, zone: tzinfo) -> bool:
    """RFC 4791 §9.9: an event is in [start, end) when it starts before ``end`` and ends after ``start``;
    an event of no length, when it starts at or after ``start`` and before ``end``."""
    first, last = as_moment(record.start, zone), as_moment(record.end, zone)
    if last <= first:
        return start <= first < end
    return first < end and last > start


def build_event(
    *,
    uid: str,
    summary: str,
    start: datetime,
    end: datetime,
    stamp: datetime,
    location: str | None = None,
    description: str | None = None,
    attendees: tuple[str, ...] = (),
) -> bytes:
    """A VCALENDAR holding one VEVENT, times in UTC (a TZID would need its VTIMEZONE beside it, §3.2.19)."""
    from datetime import UTC

    from icalendar import Calendar, Event, vCalAddress

    event = Event()
    event.add("UID", uid)
    event.add("DTSTAMP", stamp.astimezone(UTC))
    event.add("DTSTART", start.astimezone(UTC))
    event.add("DTEND", end.astimezone(UTC))
    event.add("SUMMARY", summary)
    if location:
        event.add("LOCATION", location)
    if description:
        event.add("DESCRIPTION", description)
    for email in attendees:
        attendee = vCalAddress(f"mailto:{email}")
        attendee.params["ROLE"] = "REQ-PARTICIPANT"
        event.add("ATTENDEE", attendee, encode=False)
    calendar = Calendar()
    calendar.add("PRODID", _PRODID)
    calendar.add("VERSION", "2.0")
    calendar.add_component(event)
    return calendar.to_ical()


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _many(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _address(value: Any) -> str:
    text = str(value).strip()
    return text[7:] if text.lower().startswith("mailto:") else text


def _short(exc: Exception) -> str:
    return " ".join(str(exc).split())[:160] or type(exc).__name__
