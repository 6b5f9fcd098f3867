"""``DavSession``: the few WebDAV (RFC 4918) and CalDAV (RFC 4791) requests the workspace tools send,
over httpx, with each failure turned into a Curbside error that names the setting to fix.

    answer                          error                code
    connection refused / DNS        UpstreamError        UPSTREAM_UNAVAILABLE   is the server running? is the URL right?
    no answer in time               UpstreamError        UPSTREAM_TIMEOUT
    401, 403                        ConfigError          CONFIG_ERROR           Curbside's own user/password were refused
    404, 410                        NotFoundError        NOT_FOUND
    412 (If-None-Match: *)          StateError           CONFLICT               something with that name exists already
    3xx                             ConfigError          CONFIG_ERROR           the URL setting is stale (not followed:
                                                                                 a redirect could carry the password away)
    5xx, anything else              UpstreamError        UPSTREAM_ERROR

No retries: a workspace call is one person's request and its failure is shown to them at once.
One ``httpx.AsyncClient`` per tool call: a call sends one request (calendar) or a few dozen
(a file search), so a pool kept across calls would save little and would have to be tied to
each event loop. Multistatus bodies are parsed by lxml with entities and network access off.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urljoin, urlsplit

import httpx

from curbside.errors import (
    ConfigError,
    CurbsideError,
    FileTooLargeError,
    NotFoundError,
    StateError,
    UpstreamError,
    size_text,
    too_large,
)

if TYPE_CHECKING:
    from datetime import datetime

__all__ = ["DAV", "CALDAV", "DavAnswer", "DavEndpoint", "DavEntry", "DavSession", "parse_multistatus"]

DAV = "DAV:"
CALDAV = "urn:ietf:params:xml:ns:caldav"
_USER_AGENT = "curbside (clinical consult engine; workspace tools)"
# a PROPFIND or REPORT answer larger than this is a calendar or folder too big to list in one call
LISTING_MAX_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class DavEndpoint:
    """A configured server: the collection URL (always ending in '/'), credentials, and for messages
    what it is ('the CalDAV server') and the settings that configure it (CURBSIDE_CALDAV)."""

    url: str
    user: str | None
    password: str | None = field(repr=False)
    timeout_s: float
    what: str
    setting: str  # the prefix of its settings: CURBSIDE_CALDAV → _URL, _USER, _PASSWORD

    @property
    def root_path(self) -> str:
        """The collection's path, decoded: '/dr/clinic/'."""
        return unquote(urlsplit(self.url).path) or "/"

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc

    def url_for(self, relative: str) -> str:
        """The URL of ``relative`` (a checked, '/'-separated path under the collection), each segment quoted."""
        return urljoin(self.url, quote(relative, safe="/"))


@dataclass(frozen=True)
class DavAnswer:
    """A 2xx answer with its whole body."""

    status: int
    headers: httpx.Headers
    body: bytes


@dataclass(frozen=True)
class DavEntry:
    """One ``<response>`` of a multistatus: its decoded path and the properties the server gave (200 propstat)."""

    path: str
    props: Mapping[str, Any]  # Clark name ('{DAV:}getcontentlength') → lxml element

    def text(self, name: str) -> str | None:
        element = self.props.get(name)
        if element is None:
            return None
        value = "".join(element.itertext()).strip()
        return value or None

    @property
    def is_collection(self) -> bool:
        kind = self.props.get(f"{{{DAV}}}resourcetype")
        return kind is not None and kind.find(f"{{{DAV}}}collection") is not None

    @property
    def size(self) -> int | None:
        value = self.text(f"{{{DAV}}}getcontentlength")
        return int(value) if value is not None and value.isdigit() else None

    @property
    def modified(self) -> datetime | None:
        value = self.text(f"{{{DAV}}}getlastmodified")  # an HTTP date (RFC 4918 §15.7)
        if value is None:
            return None
        try:
            return parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None


class DavSession:
    """Requests to one endpoint within one tool call (``async with DavSession.open(endpoint) as dav``)."""

    def __init__(self, endpoint: DavEndpoint, client: httpx.AsyncClient) -> None:
        self.endpoint = endpoint
        self._client = client

    @classmethod
    @asynccontextmanager
    async def open(
        cls, endpoint: DavEndpoint, *, transport: httpx.AsyncBaseTransport | None = None
    ) -> AsyncIterator[DavSession]:
        auth = httpx.BasicAuth(endpoint.user, endpoint.password or "") if endpoint.user else None
        timeout = httpx.Timeout(endpoint.timeout_s, connect=min(endpoint.timeout_s, 5.0))
        async with httpx.AsyncClient(
            auth=auth,
            timeout=timeout,
            transport=transport,
            follow_redirects=False,
            headers={"User-Agent": _USER_AGENT},
        ) as client:
            yield cls(endpoint, client)

    async def send(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
        max_bytes: int = LISTING_MAX_BYTES,
        what: str | None = None,
        limit_setting: str | None = None,
    ) -> DavAnswer:
        """Send one request; return the answer when it is a 2xx, its body read up to ``max_bytes``.

        ``what`` names the target in messages ('file notes/a.txt'); past ``max_bytes`` the body is
        dropped with ``FileTooLargeError`` naming ``limit_setting``.
        """
        target = what or unquote(urlsplit(url).path)
        request = self._client.build_request(method, url, headers=headers, content=content)
        try:
            response = await self._client.send(request, stream=True)
        except httpx.TimeoutException as exc:
            raise UpstreamError(
                f"{_capital(self.endpoint.what)} at {self.endpoint.host} did not answer within "
                f"{self.endpoint.timeout_s:g} s; try again later, or check the server.",
                code="UPSTREAM_TIMEOUT",
            ) from exc
        except httpx.TransportError as exc:
            raise UpstreamError(
                f"{_capital(self.endpoint.what)} at {self.endpoint.host} could not be reached ({_reason(exc)}): "
                f"check that it is running and that {self.endpoint.setting}_URL is right.",
                code="UPSTREAM_UNAVAILABLE",
            ) from exc
        try:
            if not 200 <= response.status_code < 300:
                raise self._status_error(method, response, target)  # its body is not read: it could be anything
            declared = response.headers.get("content-length")
            if declared is not None and declared.isdigit() and int(declared) > max_bytes:
                raise too_large(target, int(declared), max_bytes, limit_setting)
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body.extend(chunk)
                if len(body) > max_bytes:  # no (or a false) Content-Length: stop reading at the cap
                    where = f" ({limit_setting})" if limit_setting else ""
                    raise FileTooLargeError(f"{target} is larger than the limit of {size_text(max_bytes)}{where}.")
            return DavAnswer(response.status_code, response.headers, bytes(body))
        except httpx.TransportError as exc:
            raise UpstreamError(
                f"{_capital(self.endpoint.what)} at {self.endpoint.host} broke off its answer ({_reason(exc)}); "
                "try again.",
                code="UPSTREAM_ERROR",
            ) from exc
        finally:
            await response.aclose()

    async def propfind(self, url: str, props: list[str], *, depth: str, what: str | None = None) -> list[DavEntry]:
        """PROPFIND (RFC 4918 §9.1) for the given Clark-named properties."""
        body = _propfind_body(props)
        response = await self.send(
            "PROPFIND",
            url,
            headers={"Depth": depth, "Content-Type": "application/xml; charset=utf-8"},
            content=body,
            what=what,
        )
        return parse_multistatus(response.body, self.endpoint)

    def _status_error(self, method: str, response: httpx.Response, target: str) -> CurbsideError:
        status = response.status_code
        where = f"{self.endpoint.what} at {self.endpoint.host}"
        if status in (401, 403):
            return ConfigError(
                f"{_capital(where)} refused Curbside's credentials (HTTP {status}) for {method} {target}: check "
                f"{self.endpoint.setting}_USER and {self.endpoint.setting}_PASSWORD, and that this user may use it."
            )
        if status in (404, 410):
            return NotFoundError(f"Not found on {where}: {target} (HTTP {status}).")
        if status == 412:
            return StateError(f"{_capital(where)} already holds {target}; nothing was changed.")
        if 300 <= status < 400:
            moved = response.headers.get("location", "another address")
            return ConfigError(
                f"{_capital(where)} redirects {method} {target} to {moved} (HTTP {status}); redirects are not "
                f"followed (they could carry the password elsewhere): set {self.endpoint.setting}_URL to the new address."
            )
        return UpstreamError(f"{_capital(where)} failed {method} {target} with HTTP {status}; try again later.")


def parse_multistatus(body: bytes, endpoint: DavEndpoint) -> list[DavEntry]:
    """The ``<response>`` elements of a 207 body (RFC 4918 §14.16), each with its 200-status properties."""
    from lxml import etree

    # no entities, no DTD, no network: the body comes from a server, not from us
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(body, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise UpstreamError(
            f"{_capital(endpoint.what)} at {endpoint.host} sent a listing that is not XML ({exc}); is "
            f"{endpoint.setting}_URL a WebDAV/CalDAV address?"
        ) from exc
    if root is None or root.tag != f"{{{DAV}}}multistatus":
        raise UpstreamError(
            f"{_capital(endpoint.what)} at {endpoint.host} did not answer with a WebDAV multistatus; is "
            f"{endpoint.setting}_URL a WebDAV/CalDAV address?"
        )
    entries = []
    for response in root.iterfind(f"{{{DAV}}}response"):
        href = response.findtext(f"{{{DAV}}}href")
        if not href:
            continue
        props: dict[str, Any] = {}
        for propstat in response.iterfind(f"{{{DAV}}}propstat"):
            status = propstat.findtext(f"{{{DAV}}}status") or ""
            if " 200 " not in f"{status} ":
                continue  # 404 propstat: properties the server does not have
            prop = propstat.find(f"{{{DAV}}}prop")
            if prop is not None:
                props.update((child.tag, child) for child in prop if isinstance(child.tag, str))
        # an href may be a path or a full URL (RFC 4918 §8.3), percent-encoded
        entries.append(DavEntry(path=unquote(urlsplit(href.strip()).path), props=props))
    return entries


def _propfind_body(props: list[str]) -> bytes:
    """``<propfind><prop>…</prop></propfind>`` naming each Clark-named property with its own namespace."""
    names = []
    for name in props:
        namespace, local = name[1:].split("}", 1)
        names.append(f'<p:{local} xmlns:p="{namespace}"/>')
    return (
        '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop>'
        + "".join(names)
        + "</D:prop></D:propfind>"
    ).encode()


def _reason(exc: httpx.TransportError) -> str:
    """Why a request failed, in a few words: the OS's reason when httpx wraps one ("All connection attempts failed")."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, socket.gaierror):
            return "its host name is unknown"
        cause = cause.__cause__ or cause.__context__
    return " ".join(str(exc).split())[:160] or type(exc).__name__


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
