"""``calendar.list_events`` and ``calendar.create_event``: the clinic's calendar over CalDAV (RFC 4791).

Listing is one ``calendar-query`` REPORT with a time range, asking the server to expand repeating
events into their occurrences (§9.6.5); the range is checked again here (§9.9), since servers differ
at its edges. Creating is one PUT of a new calendar object with ``If-None-Match: *``, so nothing
that exists is ever overwritten — and only after a clinician approved the call (the executor holds
it as a pending confirmation until then).
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING, Annotated, Any, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from curbside.errors import ConfigError, NotFoundError, ValidationError
from curbside.tools.base import ToolContext, ToolSpec
from curbside.tools.workspace.dav import CALDAV, DAV, DavSession, parse_multistatus

if TYPE_CHECKING:
    from curbside.tools.workspace.deps import WorkspaceDeps
    from curbside.tools.workspace.ical import EventRecord

__all__ = [
    "CalendarEvent",
    "CreateEventArgs",
    "CreatedEvent",
    "ListEventsArgs",
    "ListEventsResult",
    "describe_create",
    "specs",
]

MAX_WINDOW_DAYS = 92  # a quarter: enough to plan follow-ups, small enough to answer in one call
MAX_EVENT_DAYS = 14
DESCRIPTION_CHARS = 300

_Email = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=254, pattern=r"^[^@\s<>\"]+@[^@\s<>\"]+\.[^@\s<>\"]+$")
]
_ZONE_HELP = (
    "IANA time zone the dates and times are meant in and shown in, e.g. 'America/Toronto'; "
    "default: the clinic's (this server's) zone."
)


def _check_zone(value: str | None) -> str | None:
    if value is not None:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {value!r}: give an IANA name such as 'America/Toronto' or 'UTC'"
            ) from None
    return value


class ListEventsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    start: date | None = Field(None, description="First day to list, ISO (2026-12-03); default: today.")
    end: date | None = Field(
        None, description=f"Last day to list, inclusive; default: the start day. At most {MAX_WINDOW_DAYS} days on."
    )
    max: int = Field(50, ge=1, le=200, description="Most events to return, earliest first.")
    timezone: str | None = Field(None, min_length=1, max_length=64, description=_ZONE_HELP)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        return _check_zone(value)

    @model_validator(mode="after")
    def _window(self) -> Self:
        if self.start is not None and self.end is not None:
            if self.end < self.start:
                raise ValueError(f"end ({self.end}) is before start ({self.start})")
            if (self.end - self.start).days > MAX_WINDOW_DAYS:
                raise ValueError(f"the window is {(self.end - self.start).days} days; list at most {MAX_WINDOW_DAYS}")
        return self


class CalendarEvent(BaseModel):
    uid: str | None = Field(description="The event's UID; occurrences of a repeating event share it.")
    summary: str | None = Field(description="Title; null when the event has none.")
    start: str = Field(description="ISO date-time with offset, in `timezone`; a date (2026-12-03) when all_day.")
    end: str = Field(description="ISO date-time (exclusive); for an all-day event, its last day (inclusive).")
    all_day: bool
    location: str | None
    description: str | None = Field(description=f"Notes, cut to {DESCRIPTION_CHARS} characters (ending '…' when cut).")
    status: str | None = Field(description="TENTATIVE, CONFIRMED or CANCELLED; null when not stated.")
    attendees: list[str] = Field(description="Attendees' addresses (mailto: removed).")
    repeats: bool = Field(description="True for an occurrence of a repeating event.")


class ListEventsResult(BaseModel):
    timezone: str
    window_start: str = Field(description="Start of the window listed (ISO, inclusive).")
    window_end: str = Field(description="End of the window listed (ISO, exclusive: the day after `end`).")
    events: list[CalendarEvent] = Field(description="Events overlapping the window, earliest first.")
    total: int = Field(description="Events in the window; more than len(events) when truncated.")
    truncated: bool = Field(description="True when only the first `max` events are returned.")
    warnings: list[str] = Field(default_factory=list)


class CreateEventArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    summary: str = Field(min_length=1, max_length=200, description="Title, e.g. 'Follow-up: BP check'.")
    start: datetime = Field(
        description="Start, ISO 8601: '2026-12-03T10:00' (read in `timezone`) or with an offset ('…-05:00')."
    )
    end: datetime | None = Field(None, description="End (ISO 8601, after start); give end or duration_minutes.")
    duration_minutes: int | None = Field(None, ge=1, le=24 * 60, description="Length in minutes, instead of end.")
    location: str | None = Field(None, min_length=1, max_length=200, description="Room or address.")
    description: str | None = Field(None, min_length=1, max_length=4000, description="Notes shown with the event.")
    attendees: list[_Email] = Field(
        default_factory=list,
        max_length=20,
        description="Attendees' email addresses; listed on the event (whether the server invites them is its own).",
    )
    timezone: str | None = Field(None, min_length=1, max_length=64, description=_ZONE_HELP)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        return _check_zone(value)

    @model_validator(mode="after")
    def _span(self) -> Self:
        if (self.end is None) == (self.duration_minutes is None):
            raise ValueError("give either end or duration_minutes (one of them)")
        if self.end is not None:
            if (self.start.tzinfo is None) != (self.end.tzinfo is None):
                raise ValueError("give start and end both with an offset, or both without")
            if self.end <= self.start:
                raise ValueError("end must be after start")
            if self.end - self.start > timedelta(days=MAX_EVENT_DAYS):
                raise ValueError(f"the event is longer than {MAX_EVENT_DAYS} days")
        return self


class CreatedEvent(BaseModel):
    uid: str = Field(description="The new event's UID.")
    summary: str
    start: str = Field(description="ISO date-time with offset, in `timezone`.")
    end: str
    timezone: str
    path: str = Field(description="Where the server keeps it, under the calendar collection.")


# ---------------------------------------------------------------- list


async def _list_events(ctx: ToolContext[WorkspaceDeps], args: ListEventsArgs) -> ListEventsResult:
    from curbside.tools.workspace.ical import as_moment, overlaps, parse_events

    deps = ctx.deps
    endpoint = deps.calendar()  # ConfigError before anything is sent
    zone = deps.time_zone(args.timezone)
    first = args.start or deps.current_time().astimezone(zone).date()
    last = args.end or first
    if last < first:
        raise ValidationError(f"end ({last}) is before start ({first}); give a start on or before the end.")
    if (last - first).days > MAX_WINDOW_DAYS:
        raise ValidationError(f"The window is {(last - first).days} days; list at most {MAX_WINDOW_DAYS} at a time.")
    lo = datetime.combine(first, time(0), zone)
    hi = datetime.combine(last + timedelta(days=1), time(0), zone)
    async with DavSession.open(endpoint, transport=deps.transport) as dav:
        try:
            answer = await dav.send(
                "REPORT",
                endpoint.url,
                headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"},
                content=_calendar_query(lo, hi),
                what="the calendar",
            )
        except NotFoundError as exc:  # the configured address is wrong, not the request
            raise ConfigError(f"{exc.message[:-1]}; set CURBSIDE_CALDAV_URL to the calendar's address.") from None
    records: list[EventRecord] = []
    for entry in parse_multistatus(answer.body, endpoint):
        data = entry.text(f"{{{CALDAV}}}calendar-data")
        if data is not None:
            records.extend(r for r in parse_events(data, f"event {entry.path}") if overlaps(r, lo, hi, zone))
    records.sort(key=lambda r: (as_moment(r.start, zone), r.summary or ""))
    warnings = []
    unexpanded = sum(1 for r in records if r.unexpanded)
    if unexpanded:
        warnings.append(
            f"The server did not expand {unexpanded} repeating event(s): only an occurrence that starts the series "
            "is listed for each; later occurrences in the window may be missing."
        )
    shown = records[: args.max]
    return ListEventsResult(
        timezone=_zone_name(zone),
        window_start=lo.isoformat(),
        window_end=hi.isoformat(),
        events=[_event(r, zone) for r in shown],
        total=len(records),
        truncated=len(records) > len(shown),
        warnings=warnings,
    )


def _calendar_query(lo: datetime, hi: datetime) -> bytes:
    start, end = _utc_stamp(lo), _utc_stamp(hi)
    return (
        '<?xml version="1.0" encoding="utf-8"?>'
        f'<C:calendar-query xmlns:D="{DAV}" xmlns:C="{CALDAV}">'
        f'<D:prop><D:getetag/><C:calendar-data><C:expand start="{start}" end="{end}"/></C:calendar-data></D:prop>'
        '<C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">'
        f'<C:time-range start="{start}" end="{end}"/>'
        "</C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"
    ).encode()


def _utc_stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")  # RFC 4791 §9.9: UTC date-time form


def _event(record: EventRecord, zone: tzinfo) -> CalendarEvent:
    from curbside.tools.workspace.ical import as_moment

    if record.all_day:
        start = record.start.isoformat()
        # iCalendar's DTEND of an all-day event is the day after it; people read the last day
        last = record.end - timedelta(days=1) if record.end > record.start else record.start
        end = last.isoformat()
    else:
        start = as_moment(record.start, zone).astimezone(zone).isoformat()
        end = as_moment(record.end, zone).astimezone(zone).isoformat()
    return CalendarEvent(
        uid=record.uid,
        summary=record.summary,
        start=start,
        end=end,
        all_day=record.all_day,
        location=record.location,
        description=_cut(record.description, DESCRIPTION_CHARS),
        status=record.status,
        attendees=list(record.attendees),
        repeats=record.occurrence or record.unexpanded,
    )


# ---------------------------------------------------------------- create


def _span(args: CreateEventArgs, zone: tzinfo) -> tuple[datetime, datetime]:
    start = args.start if args.start.tzinfo is not None else args.start.replace(tzinfo=zone)
    if args.end is not None:
        end = args.end if args.end.tzinfo is not None else args.end.replace(tzinfo=zone)
    else:
        end = start + timedelta(minutes=args.duration_minutes or 0)
    return start, end


def describe_create(args: CreateEventArgs, deps: WorkspaceDeps) -> str:
    """The call in words: "Create calendar event 'Follow-up: BP check' on 2026-12-03 10:00–10:15" (+ where, who)."""
    zone = deps.time_zone(args.timezone)
    start, end = (moment.astimezone(zone) for moment in _span(args, zone))
    until = f"{end:%H:%M}" if end.date() == start.date() else f"{end:%Y-%m-%d %H:%M}"
    text = f"Create calendar event '{args.summary}' on {start:%Y-%m-%d %H:%M}–{until}"
    if args.timezone:
        text += f" ({args.timezone})"
    if args.location:
        text += f" at {args.location}"
    if args.attendees:
        text += " with " + ", ".join(args.attendees)
    return text


async def _create_event(ctx: ToolContext[WorkspaceDeps], args: CreateEventArgs) -> CreatedEvent:
    from curbside.tools.workspace.ical import build_event

    deps = ctx.deps
    endpoint = deps.calendar()
    zone = deps.time_zone(args.timezone)
    start, end = _span(args, zone)
    token = uuid.uuid4().hex
    uid = f"{token}@curbside"
    body = build_event(
        uid=uid,
        summary=args.summary,
        start=start,
        end=end,
        stamp=deps.current_time(),
        location=args.location,
        description=args.description,
        attendees=tuple(args.attendees),
    )
    name = f"{token}.ics"
    async with DavSession.open(endpoint, transport=deps.transport) as dav:
        await dav.send(
            "PUT",
            endpoint.url_for(name),
            # If-None-Match: * — create only, never replace an object of that name (RFC 4791 §5.3.2)
            headers={"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"},
            content=body,
            what=f"event {name}",
        )
    return CreatedEvent(
        uid=uid,
        summary=args.summary,
        start=start.astimezone(zone).isoformat(),
        end=end.astimezone(zone).isoformat(),
        timezone=_zone_name(zone),
        path=endpoint.root_path + name,
    )


# ---------------------------------------------------------------- helpers


def _zone_name(zone: tzinfo) -> str:
    return zone.key if isinstance(zone, ZoneInfo) else str(zone)


def _cut(text: str | None, limit: int) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def specs(deps: WorkspaceDeps) -> list[ToolSpec[Any, Any]]:
    settings = deps.settings
    return [
        ToolSpec(
            name="calendar.list_events",
            description=(
                "List the clinic calendar's events on the days from start to end (inclusive; default today), "
                "earliest first: uid, summary, start and end (ISO, in the time zone given), all_day, location, "
                f"description (cut to {DESCRIPTION_CHARS} characters), status, attendees. Repeating events are "
                "listed once per occurrence. An event ending exactly at the window's start is not listed."
            ),
            args_model=ListEventsArgs,
            result_model=ListEventsResult,
            handler=_list_events,
            category="workspace",
            requires_phi=True,  # a clinic's calendar names patients and their visits
            timeout_s=settings.tool_ehr_timeout_s,
            rate_limit=settings.tool_ehr_rate_limit,
            deps=deps,
        ),
        ToolSpec(
            name="calendar.create_event",
            description=(
                "Create an event in the clinic calendar (start, and end or duration_minutes; optional location, "
                "description, attendees). Needs the clinician's confirmation: the call waits until they approve it. "
                "Returns the new event's uid. Never changes or deletes an existing event."
            ),
            args_model=CreateEventArgs,
            result_model=CreatedEvent,
            handler=_create_event,
            requires_confirmation=True,
            risk_level="medium",
            describe=lambda args: describe_create(args, deps),
            audit_fields=("uid",),  # a random id: no clinical content on the trail
            category="workspace",
            requires_phi=True,
            timeout_s=settings.tool_ehr_timeout_s,
            rate_limit=settings.tool_ehr_rate_limit,
            deps=deps,
        ),
    ]
