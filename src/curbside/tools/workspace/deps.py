"""What the workspace tools need: settings (where the calendar and the files are, and the limits),
the time zone dates and times are meant in, and the clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from curbside.errors import ConfigError, ValidationError
from curbside.tools.workspace.dav import DavEndpoint

if TYPE_CHECKING:
    import httpx

    from curbside.settings import Settings

__all__ = ["NO_CALENDAR", "NO_FILES", "WorkspaceDeps"]

NO_CALENDAR = (
    "No calendar is configured: set CURBSIDE_CALDAV_URL to the clinic's CalDAV calendar collection (e.g. "
    "https://cal.example/dav/calendars/clinic/), with CURBSIDE_CALDAV_USER and CURBSIDE_CALDAV_PASSWORD."
)
NO_FILES = (
    "No shared files are configured: set CURBSIDE_WEBDAV_URL to the clinic's WebDAV folder (e.g. "
    "https://files.example/remote.php/dav/files/clinic/), with CURBSIDE_WEBDAV_USER and CURBSIDE_WEBDAV_PASSWORD."
)


@dataclass(frozen=True)
class WorkspaceDeps:
    """``zone``: what dates and times without an offset mean (default: this machine's local zone);
    ``transport``: an httpx transport for tests that need one (default: the network)."""

    settings: Settings
    zone: tzinfo | None = None
    now: Callable[[], datetime] | None = None
    transport: httpx.AsyncBaseTransport | None = None

    def calendar(self) -> DavEndpoint:
        """The CalDAV calendar collection, or a ConfigError saying which setting to set."""
        s = self.settings
        if not s.caldav_url:
            raise ConfigError(NO_CALENDAR)
        password = s.caldav_password.get_secret_value() if s.caldav_password else None
        return DavEndpoint(
            _collection(s.caldav_url, "CURBSIDE_CALDAV_URL"), s.caldav_user, password, self.request_timeout_s,
            "the CalDAV server", "CURBSIDE_CALDAV",
        )  # fmt: skip

    def files(self) -> DavEndpoint:
        """The WebDAV folder, or a ConfigError saying which setting to set."""
        s = self.settings
        if not s.webdav_url:
            raise ConfigError(NO_FILES)
        password = s.webdav_password.get_secret_value() if s.webdav_password else None
        return DavEndpoint(
            _collection(s.webdav_url, "CURBSIDE_WEBDAV_URL"), s.webdav_user, password, self.request_timeout_s,
            "the WebDAV server", "CURBSIDE_WEBDAV",
        )  # fmt: skip

    @property
    def request_timeout_s(self) -> float:
        # half the call's budget for one request: a dead server gets its own message ("did not answer
        # within …") before the executor's generic timeout would cut the whole call off
        return self.settings.tool_ehr_timeout_s / 2

    def time_zone(self, name: str | None = None) -> tzinfo:
        """The named IANA zone, or the default one."""
        if name:
            try:
                return ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValidationError(
                    f"Unknown time zone {name!r}: give an IANA name such as 'America/Toronto' or 'UTC'."
                ) from None
        if self.zone is not None:
            return self.zone
        local = datetime.now().astimezone().tzinfo
        return local if local is not None else UTC

    def current_time(self) -> datetime:
        return self.now() if self.now is not None else datetime.now(UTC)


def _collection(url: str, setting: str) -> str:
    """The URL as a collection (ending in '/'), so relative paths resolve inside it."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"{setting}={url!r} is not an http(s) URL; set it to the collection's full address.")
    if parts.query or parts.fragment:
        raise ConfigError(f"{setting}={url!r} has a query or fragment; set it to the collection's plain address.")
    return url.strip() if url.strip().endswith("/") else url.strip() + "/"
