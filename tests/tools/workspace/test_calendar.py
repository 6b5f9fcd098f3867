"""calendar.list_events and calendar.create_event against Radicale on loopback (user and password on):
the window's edges, repeating and all-day events, time zones, creation only after approval, nothing
after a denial, and the failures a clinic meets (no calendar configured, wrong password, server down)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import httpx
import pytest

from curbside.tools.base import ToolResult
from curbside.tools.workspace import WorkspaceDeps
from tests.tools.workspace.conftest import DR_A, PASSWORD, USER, NoNetwork, executor_for, workspace_settings

T = TypeVar("T")
TORONTO = ZoneInfo("America/Toronto")  # EST, -05:00, all through December

# One calendar object per event, as a calendar app would store them (RFC 5545). The window listed below
# is 2026-12-03 .. 2026-12-05 in Toronto: [2026-12-03T00:00-05:00, 2026-12-06T00:00-05:00).
EVENTS = {
    "ends-at-window-start": ("20261202T234500", "20261203T000000", "Late call"),
    "starts-at-window-start": ("20261203T000000", "20261203T001500", "Midnight med check"),
    "ends-at-window-end": ("20261205T234500", "20261206T000000", "Night review"),
    "starts-at-window-end": ("20261206T000000", "20261206T003000", "Too late"),
}
LONG_NOTES = "Bring the home BP log. " * 20  # 460 characters: cut to 300 in a listing


def _vevent(uid: str, body: str) -> str:
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VEVENT\r\n"
        f"UID:{uid}\r\nDTSTAMP:20261101T120000Z\r\n{body}END:VEVENT\r\nEND:VCALENDAR\r\n"
    )


def _put(calendar_url: str, uid: str, body: str) -> None:
    answer = httpx.put(
        f"{calendar_url}{uid}.ics",
        content=_vevent(uid, body).encode(),
        headers={"Content-Type": "text/calendar; charset=utf-8"},
        auth=(USER, PASSWORD),
    )
    assert answer.status_code == 201, answer.text


def _seed(calendar_url: str) -> None:
    for uid, (start, end, summary) in EVENTS.items():
        _put(
            calendar_url,
            uid,
            f"DTSTART;TZID=America/Toronto:{start}\r\nDTEND;TZID=America/Toronto:{end}\r\nSUMMARY:{summary}\r\n",
        )
    _put(
        calendar_url,
        "bp-follow-up",
        "DTSTART;TZID=America/Toronto:20261204T100000\r\nDTEND;TZID=America/Toronto:20261204T101500\r\n"
        "SUMMARY:Follow-up: BP check\r\nLOCATION:Room 2\r\nSTATUS:CONFIRMED\r\n"
        f"DESCRIPTION:{LONG_NOTES}\r\nATTENDEE;CN=Nurse:mailto:nurse@clinic.example\r\n",
    )
    _put(calendar_url, "all-day", "DTSTART;VALUE=DATE:20261205\r\nDTEND;VALUE=DATE:20261206\r\nSUMMARY:Locum day\r\n")
    # 09:00 every day from 1 to 10 December: three occurrences in the window
    _put(
        calendar_url,
        "huddle",
        "DTSTART;TZID=America/Toronto:20261201T090000\r\nDTEND;TZID=America/Toronto:20261201T091000\r\n"
        "RRULE:FREQ=DAILY;COUNT=10\r\nSUMMARY:Team huddle\r\n",
    )
    # stored in UTC: 04:30Z on the 6th is 23:30 on the 5th in Toronto
    _put(calendar_url, "utc-call", "DTSTART:20261206T043000Z\r\nDTEND:20261206T044000Z\r\nSUMMARY:Overseas call\r\n")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def _deps(tmp_path: Path, calendar_url: str | None, password: str = PASSWORD, **kw: Any) -> WorkspaceDeps:
    settings = workspace_settings(tmp_path, caldav_url=calendar_url, caldav_user=USER, caldav_password=password)
    return WorkspaceDeps(settings, zone=kw.pop("zone", TORONTO), **kw)


def _list(deps: WorkspaceDeps, **args: Any) -> ToolResult:
    return run(executor_for(deps).call("calendar.list_events", args))


def _uids(calendar_url: str) -> set[str]:
    """What the calendar holds, read with a PROPFIND of our own (not through the tools)."""
    answer = httpx.request("PROPFIND", calendar_url, headers={"Depth": "1"}, auth=(USER, PASSWORD))
    assert answer.status_code == 207
    return set(re.findall(r"/([^/<]+)\.ics</", answer.text))


# ---------------------------------------------------------------- listing


def test_lists_the_window_with_its_edges(tmp_path: Path, calendar_url: str) -> None:
    _seed(calendar_url)
    result = _list(_deps(tmp_path, calendar_url), start="2026-12-03", end="2026-12-05", timezone="America/Toronto")
    assert result.ok, result.error
    out = result.result
    assert out is not None
    assert out["timezone"] == "America/Toronto"
    assert out["window_start"] == "2026-12-03T00:00:00-05:00"
    assert out["window_end"] == "2026-12-06T00:00:00-05:00"
    listed = [(e["summary"], e["start"], e["end"]) for e in out["events"]]
    assert listed == [
        ("Midnight med check", "2026-12-03T00:00:00-05:00", "2026-12-03T00:15:00-05:00"),  # starts at the edge: in
        ("Team huddle", "2026-12-03T09:00:00-05:00", "2026-12-03T09:10:00-05:00"),
        ("Team huddle", "2026-12-04T09:00:00-05:00", "2026-12-04T09:10:00-05:00"),
        ("Follow-up: BP check", "2026-12-04T10:00:00-05:00", "2026-12-04T10:15:00-05:00"),
        ("Locum day", "2026-12-05", "2026-12-05"),  # all day: its last day, inclusive
        ("Team huddle", "2026-12-05T09:00:00-05:00", "2026-12-05T09:10:00-05:00"),
        ("Overseas call", "2026-12-05T23:30:00-05:00", "2026-12-05T23:40:00-05:00"),  # stored in UTC
        ("Night review", "2026-12-05T23:45:00-05:00", "2026-12-06T00:00:00-05:00"),  # ends at the edge: in
    ]  # "Late call" ends at the window's start and "Too late" starts at its end: both out (RFC 4791 §9.9)
    assert out["total"] == 8 and out["truncated"] is False and out["warnings"] == []
    follow_up = out["events"][3]
    assert follow_up["uid"] == "bp-follow-up"
    assert follow_up["location"] == "Room 2"
    assert follow_up["status"] == "CONFIRMED"
    assert follow_up["attendees"] == ["nurse@clinic.example"]
    assert follow_up["all_day"] is False and follow_up["repeats"] is False
    assert len(follow_up["description"]) <= 300 and follow_up["description"].endswith("…")
    assert LONG_NOTES.startswith(follow_up["description"][:-1])
    huddles = [e for e in out["events"] if e["summary"] == "Team huddle"]
    assert {e["uid"] for e in huddles} == {"huddle"} and all(e["repeats"] for e in huddles)
    assert out["events"][4]["all_day"] is True


def test_max_truncates_and_says_how_many(tmp_path: Path, calendar_url: str) -> None:
    _seed(calendar_url)
    out = _list(_deps(tmp_path, calendar_url), start="2026-12-03", end="2026-12-05", max=3).result
    assert out is not None
    assert [e["summary"] for e in out["events"]] == ["Midnight med check", "Team huddle", "Team huddle"]
    assert out["total"] == 8 and out["truncated"] is True


def test_days_are_read_in_the_zone_asked_for(tmp_path: Path, calendar_url: str) -> None:
    """In UTC, 6 December is 19:00 on the 5th to 19:00 on the 6th in Toronto: the late events move in."""
    _seed(calendar_url)
    out = _list(_deps(tmp_path, calendar_url), start="2026-12-06", timezone="UTC").result
    assert out is not None
    assert out["window_start"] == "2026-12-06T00:00:00+00:00"
    assert [(e["summary"], e["start"]) for e in out["events"]] == [
        ("Overseas call", "2026-12-06T04:30:00+00:00"),
        ("Night review", "2026-12-06T04:45:00+00:00"),
        ("Too late", "2026-12-06T05:00:00+00:00"),
        ("Team huddle", "2026-12-06T14:00:00+00:00"),
    ]


def test_default_day_is_today_in_the_clinic_zone(tmp_path: Path, calendar_url: str) -> None:
    from datetime import UTC, datetime

    _seed(calendar_url)
    # 03:00 UTC on 5 December is still 4 December in Toronto
    deps = _deps(tmp_path, calendar_url, now=lambda: datetime(2026, 12, 5, 3, 0, tzinfo=UTC))
    out = _list(deps).result
    assert out is not None
    assert out["window_start"] == "2026-12-04T00:00:00-05:00"
    assert [e["summary"] for e in out["events"]] == ["Team huddle", "Follow-up: BP check"]


def test_bad_windows_are_refused_before_sending(tmp_path: Path) -> None:
    transport = NoNetwork()
    deps = _deps(tmp_path, "http://127.0.0.1:9/cal/", transport=transport)
    backwards = _list(deps, start="2026-12-05", end="2026-12-03")
    too_long = _list(deps, start="2026-01-01", end="2026-12-31")
    unknown_zone = _list(deps, start="2026-12-05", timezone="Mars/Olympus")
    for result in (backwards, too_long, unknown_zone):
        assert result.status == "error" and result.error is not None
        assert result.error.code == "VALIDATION_ERROR"
    assert "before start" in backwards.error.message  # type: ignore[union-attr]
    assert "at most 92" in too_long.error.message  # type: ignore[union-attr]
    assert "IANA" in unknown_zone.error.message  # type: ignore[union-attr]
    assert transport.sent == []


# ---------------------------------------------------------------- creating


def test_create_waits_for_approval_then_writes(tmp_path: Path, calendar_url: str) -> None:
    deps = _deps(tmp_path, calendar_url)
    executor = executor_for(deps)
    args = {
        "summary": "Follow-up: BP check",
        "start": "2026-12-03T10:00",
        "duration_minutes": 15,
        "description": "Recheck after amlodipine start.",
        "attendees": ["nurse@clinic.example"],
    }

    async def scenario() -> tuple[ToolResult, set[str], ToolResult]:
        asked = await executor.call("calendar.create_event", args)
        before = _uids(calendar_url)
        assert asked.confirmation is not None
        done = await executor.decide(asked.confirmation.id, approve=True, caller=DR_A)
        return asked, before, done

    asked, before, done = run(scenario())
    assert asked.status == "needs_confirmation"
    assert asked.confirmation is not None
    assert asked.confirmation.summary == (
        "Create calendar event 'Follow-up: BP check' on 2026-12-03 10:00–10:15 with nurse@clinic.example"
    )
    assert before == set()  # nothing written while it waited
    assert done.ok, done.error
    created = done.result
    assert created is not None
    uid = created["uid"]
    assert re.fullmatch(r"[0-9a-f]{32}@curbside", uid)
    assert created["start"] == "2026-12-03T10:00:00-05:00" and created["end"] == "2026-12-03T10:15:00-05:00"
    assert _uids(calendar_url) == {uid.split("@")[0]}

    # the stored object, read without the tools: UTC times (15:00Z is 10:00 in Toronto), the given fields
    stored = httpx.get(calendar_url + created["path"].rsplit("/", 1)[1], auth=(USER, PASSWORD)).text
    assert f"UID:{uid}" in stored
    assert "DTSTART:20261203T150000Z" in stored and "DTEND:20261203T151500Z" in stored
    assert "SUMMARY:Follow-up: BP check" in stored
    assert "mailto:nurse@clinic.example" in stored

    listed = _list(deps, start="2026-12-03").result
    assert listed is not None
    assert [(e["uid"], e["summary"], e["start"]) for e in listed["events"]] == [
        (uid, "Follow-up: BP check", "2026-12-03T10:00:00-05:00")
    ]
    # the audit trail holds the new event's uid, and the call was the approved one
    audit = executor.hooks.audit.events  # type: ignore[attr-defined]  # the default InMemoryAuditSink
    row = [e for e in audit if e.tool == "calendar.create_event" and e.status == "ok"][-1]
    assert row.result_refs == {"uid": uid} and row.confirmed is True
    assert row.confirmation_id == asked.confirmation.id


def test_denied_create_leaves_the_calendar_unchanged(tmp_path: Path, calendar_url: str) -> None:
    _seed(calendar_url)
    before = _uids(calendar_url)
    executor = executor_for(_deps(tmp_path, calendar_url))

    async def scenario() -> ToolResult:
        asked = await executor.call(
            "calendar.create_event",
            {"summary": "Follow-up: BP check", "start": "2026-12-03T10:00", "end": "2026-12-03T10:15"},
        )
        assert asked.status == "needs_confirmation" and asked.confirmation is not None
        return await executor.decide(asked.confirmation.id, approve=False, caller=DR_A)

    denied = run(scenario())
    assert denied.status == "denied"
    assert denied.error is not None and denied.error.code == "CONFIRMATION_DENIED"
    assert _uids(calendar_url) == before


def test_create_with_an_offset_and_a_zone(tmp_path: Path, calendar_url: str) -> None:
    deps = _deps(tmp_path, calendar_url)
    executor = executor_for(deps)

    async def scenario() -> tuple[ToolResult, ToolResult]:
        asked = await executor.call(
            "calendar.create_event",
            {
                "summary": "Telehealth",
                "start": "2026-12-03T16:00:00+00:00",
                "end": "2026-12-03T16:30:00+00:00",
                "timezone": "America/Vancouver",
                "location": "Video",
            },
        )
        assert asked.confirmation is not None
        return asked, await executor.decide(asked.confirmation.id, approve=True, caller=DR_A)

    asked, done = run(scenario())
    assert asked.confirmation is not None
    assert asked.confirmation.summary == (
        "Create calendar event 'Telehealth' on 2026-12-03 08:00–08:30 (America/Vancouver) at Video"
    )
    assert done.ok and done.result is not None
    assert done.result["start"] == "2026-12-03T08:00:00-08:00" and done.result["timezone"] == "America/Vancouver"
    listed = _list(deps, start="2026-12-03").result
    assert listed is not None
    assert [(e["start"], e["location"]) for e in listed["events"]] == [("2026-12-03T11:00:00-05:00", "Video")]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({"summary": "x", "start": "2026-12-03T10:00"}, "either end or duration_minutes"),
        ({"summary": "x", "start": "2026-12-03T10:00", "end": "2026-12-03T09:00"}, "end must be after start"),
        ({"summary": "x", "start": "2026-12-03T10:00", "duration_minutes": 15, "attendees": ["nope"]}, "attendees.0"),
        ({"summary": "", "start": "2026-12-03T10:00", "duration_minutes": 15}, "summary"),
    ],
)
def test_bad_events_are_refused_before_asking(tmp_path: Path, args: dict[str, Any], says: str) -> None:
    transport = NoNetwork()
    executor = executor_for(_deps(tmp_path, "http://127.0.0.1:9/cal/", transport=transport))
    result = run(executor.call("calendar.create_event", args))
    assert result.status == "error" and result.error is not None
    assert result.error.code == "VALIDATION_ERROR" and says in result.error.message
    assert executor.pending_confirmations(DR_A) == [] and transport.sent == []


# ---------------------------------------------------------------- failures


def test_no_calendar_configured_says_which_setting(tmp_path: Path) -> None:
    transport = NoNetwork()
    deps = _deps(tmp_path, None, transport=transport)
    result = _list(deps, start="2026-12-03")
    assert result.status == "error" and result.error is not None
    assert result.error.code == "CONFIG_ERROR" and "CURBSIDE_CALDAV_URL" in result.error.message
    assert transport.sent == []


def test_wrong_password_names_the_credential_settings(tmp_path: Path, calendar_url: str) -> None:
    result = _list(_deps(tmp_path, calendar_url, password="wrong"), start="2026-12-03")
    assert result.status == "error" and result.error is not None
    assert result.error.code == "CONFIG_ERROR"
    assert "HTTP 401" in result.error.message and "CURBSIDE_CALDAV_PASSWORD" in result.error.message
    assert "wrong" not in result.error.message


def test_server_down_is_a_clear_error(tmp_path: Path, closed_url: str) -> None:
    result = _list(_deps(tmp_path, closed_url + "dr-a/clinic/"), start="2026-12-03")
    assert result.status == "error" and result.error is not None
    assert result.error.code == "UPSTREAM_UNAVAILABLE"
    host = closed_url.split("//")[1].rstrip("/")
    assert result.error.message == (
        f"The CalDAV server at {host} could not be reached (connection refused): "
        "check that it is running and that CURBSIDE_CALDAV_URL is right."
    )


def test_a_calendar_url_that_leads_nowhere_is_a_setting_to_fix(tmp_path: Path, radicale_server: Any) -> None:
    result = _list(_deps(tmp_path, f"{radicale_server.base}/{USER}/no-such-calendar/"), start="2026-12-03")
    assert result.status == "error" and result.error is not None
    assert result.error.code == "CONFIG_ERROR"
    assert result.error.message == (
        f"Not found on the CalDAV server at {radicale_server.base[7:]}: the calendar (HTTP 404); "
        "set CURBSIDE_CALDAV_URL to the calendar's address."
    )


def test_specs_declare_phi_confirmation_and_audit(tmp_path: Path) -> None:
    executor = executor_for(_deps(tmp_path, None))
    listing, create = executor.registry.get("calendar.list_events"), executor.registry.get("calendar.create_event")
    settings = workspace_settings(tmp_path)
    for spec in (listing, create):
        assert spec.requires_phi is True and spec.category == "workspace"
        assert spec.timeout_s == settings.tool_ehr_timeout_s and spec.rate_limit == settings.tool_ehr_rate_limit
    assert listing.requires_confirmation is False
    assert create.requires_confirmation is True and create.risk_level == "medium"
    assert create.audit_fields == ("uid",)


def test_a_server_that_does_not_expand_repeats_is_flagged(tmp_path: Path) -> None:
    """Not every server honours <C:expand> (RFC 4791 §9.6.5): a series comes back whole, and the listing says so."""
    series = _vevent(
        "weekly",
        "DTSTART;TZID=America/Toronto:20261203T080000\r\nDTEND;TZID=America/Toronto:20261203T083000\r\n"
        "RRULE:FREQ=WEEKLY\r\nSUMMARY:Weekly rounds\r\n",
    )
    body = (
        '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:response>'
        "<D:href>/cal/weekly.ics</D:href><D:propstat><D:prop><C:calendar-data>"
        f"{series}</C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
        "</D:multistatus>"
    )
    seen: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.content)
        return httpx.Response(207, content=body.encode())

    deps = _deps(tmp_path, "http://cal.test/cal/", transport=httpx.MockTransport(answer))
    out = _list(deps, start="2026-12-03", end="2026-12-05").result
    assert out is not None
    assert [(e["summary"], e["start"], e["repeats"]) for e in out["events"]] == [
        ("Weekly rounds", "2026-12-03T08:00:00-05:00", True)
    ]
    assert len(out["warnings"]) == 1 and "did not expand 1 repeating event" in out["warnings"][0]
    # what was asked: the window in UTC, with expansion
    assert b'<C:expand start="20261203T050000Z" end="20261206T050000Z"/>' in seen[0]
    assert b'<C:time-range start="20261203T050000Z" end="20261206T050000Z"/>' in seen[0]
