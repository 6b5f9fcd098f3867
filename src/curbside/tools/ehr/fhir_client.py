"""The FHIR R4 client the EHR tools use: read, search (paged), create, update and transaction
against the clinic's FHIR server, with its credentials, retries and clear errors.

``FhirClient`` is the protocol tools depend on; ``HttpFhirClient`` speaks FHIR's REST API over
httpx. Every failure is a Curbside error (see ``fhir_errors``): a missing resource
``NOT_FOUND``, refused credentials ``CONFIG_ERROR``, an invalid resource ``VALIDATION_ERROR``
with the server's OperationOutcome in words, a failing server ``UPSTREAM_*``.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urljoin, urlsplit

import httpx

from curbside.errors import ConfigError, ValidationError
from curbside.tools.ehr.fhir_auth import FhirAuth, auth_for
from curbside.tools.ehr.fhir_bundle import SearchPage, SearchResult, read_page
from curbside.tools.ehr.fhir_config import FhirConfig
from curbside.tools.ehr.fhir_errors import FhirServerError, error_for_status
from curbside.tools.ehr.fhir_http import Answer, FhirHttp, FhirStats, Params

__all__ = ["FhirClient", "HttpFhirClient", "SearchParams", "Written"]

Resource = dict[str, Any]
SearchParams = Mapping[str, str | int | float | Sequence[str]] | Sequence[tuple[str, str]]

FHIR_JSON = "application/fhir+json"
_TYPE = re.compile(r"[A-Z][A-Za-z]{1,63}")
_ID = re.compile(r"[A-Za-z0-9\-.]{1,64}")  # FHIR R4 'id'


@dataclass(frozen=True)
class Written:
    """What a create or update left on the server: its id and version, and the resource as stored
    (None when the server sent only a Location)."""

    resource_type: str
    id: str
    version_id: str | None
    location: str | None
    resource: Resource | None


class FhirClient(Protocol):
    """The FHIR operations the EHR tools need."""

    async def read(self, resource_type: str, resource_id: str) -> Resource: ...

    def search_pages(
        self,
        resource_type: str,
        params: SearchParams | None = None,
        *,
        count: int | None = None,
        sort: str | Sequence[str] | None = None,
        include: Sequence[str] = (),
        revinclude: Sequence[str] = (),
        page_limit: int | None = None,
    ) -> AsyncIterator[SearchPage]: ...

    async def search(
        self,
        resource_type: str,
        params: SearchParams | None = None,
        *,
        count: int | None = None,
        sort: str | Sequence[str] | None = None,
        include: Sequence[str] = (),
        revinclude: Sequence[str] = (),
        page_limit: int | None = None,
        max_results: int | None = None,
    ) -> SearchResult: ...

    async def create(self, resource: Resource, *, if_none_exist: str | None = None) -> Written: ...

    async def update(self, resource: Resource, *, version_id: str | None = None) -> Written: ...

    async def transaction(self, bundle: Resource) -> Resource: ...

    async def aclose(self) -> None: ...


class HttpFhirClient:
    """A FHIR R4 server over HTTP. One per application; safe to share across event loops."""

    def __init__(self, config: FhirConfig, *, transport: httpx.AsyncBaseTransport | None = None) -> None:
        if config.base_url is None:
            raise ConfigError("No FHIR server is configured: set CURBSIDE_FHIR_URL (e.g. the sandbox's address).")
        self.config = config
        self.base_url = config.base_url.rstrip("/")
        self._origin = _origin(self.base_url)
        self._http = FhirHttp(config, transport=transport)
        self._auth: FhirAuth = auth_for(config, self._http)

    @classmethod
    def from_settings(cls, settings: object, *, transport: httpx.AsyncBaseTransport | None = None) -> HttpFhirClient:
        return cls(FhirConfig.from_settings(settings), transport=transport)

    @property
    def stats(self) -> FhirStats:
        return self._http.stats

    def __repr__(self) -> str:
        return f"HttpFhirClient(base_url={self.base_url!r}, auth={self.config.auth.value!r})"

    async def __aenter__(self) -> HttpFhirClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # --- reading ----------------------------------------------------------------------------------

    async def read(self, resource_type: str, resource_id: str) -> Resource:
        """The current version of ``resource_type/resource_id``; ``FhirNotFoundError`` when there is none."""
        _check_type(resource_type)
        _check_id(resource_id, resource_type)
        action = f"read {resource_type}/{resource_id}"
        resource = _json_resource(await self._call("GET", f"{resource_type}/{resource_id}", action=action), action)
        if resource.get("resourceType") != resource_type:
            raise FhirServerError(
                f"Asked to {action}, the FHIR server sent a {resource.get('resourceType')!r}.", status=200
            )
        return resource

    async def capabilities(self) -> Resource:
        """The server's CapabilityStatement (``GET metadata``): what it supports; a cheap health check."""
        return _json_resource(await self._call("GET", "metadata", action="describe itself"), "describe itself")

    async def search_pages(
        self,
        resource_type: str,
        params: SearchParams | None = None,
        *,
        count: int | None = None,
        sort: str | Sequence[str] | None = None,
        include: Sequence[str] = (),
        revinclude: Sequence[str] = (),
        page_limit: int | None = None,
    ) -> AsyncGenerator[SearchPage, None]:
        """Each page of a search, following ``Bundle.link[next]`` for at most ``page_limit`` pages
        (default ``CURBSIDE_FHIR_PAGE_LIMIT``). ``count`` is ``_count`` (per page), ``sort`` ``_sort``
        (``-date`` for newest first), ``include`` / ``revinclude`` ``Type:param`` pairs."""
        _check_type(resource_type)
        query: list[tuple[str, str]] | None = _search_query(params, count, sort, include, revinclude)
        limit = page_limit if page_limit is not None else self.config.page_limit
        url: str | None = resource_type
        seen: set[str] = set()
        number = 0
        while url is not None and number < limit:
            number += 1
            action = f"search {resource_type}" + (f" (page {number})" if number > 1 else "")
            bundle = _json_resource(await self._call("GET", url, params=query, action=action), action)
            if bundle.get("resourceType") != "Bundle":
                raise FhirServerError(
                    f"Asked to {action}, the FHIR server sent a {bundle.get('resourceType')!r}, not a Bundle.",
                    status=200,
                )
            page = read_page(bundle, number)
            yield page
            url, query = self._next(page.next_url, resource_type), None
            if url is not None:
                if url in seen:  # a server repeating itself would page forever
                    return
                seen.add(url)

    async def search(
        self,
        resource_type: str,
        params: SearchParams | None = None,
        *,
        count: int | None = None,
        sort: str | Sequence[str] | None = None,
        include: Sequence[str] = (),
        revinclude: Sequence[str] = (),
        page_limit: int | None = None,
        max_results: int | None = None,
    ) -> SearchResult:
        """Every match over the pages read, at most ``max_results``; ``truncated`` says more were left.
        Included resources are kept once each, whichever page brought them."""
        if max_results is not None and max_results < 1:
            raise ValidationError(f"max_results must be 1 or more, not {max_results}.")
        result = SearchResult()
        included: set[str] = set()
        pages = self.search_pages(
            resource_type,
            params,
            count=count,
            sort=sort,
            include=include,
            revinclude=revinclude,
            page_limit=page_limit,
        )
        last: SearchPage | None = None
        async with aclosing(pages):
            async for page in pages:
                last = page
                result.pages = page.number
                if result.total is None:
                    result.total = page.total
                result.warnings.extend(page.warnings)
                for resource in page.included:
                    key = f"{resource.get('resourceType')}/{resource.get('id')}"
                    if key not in included:
                        included.add(key)
                        result.included.append(resource)
                room = None if max_results is None else max_results - len(result.matches)
                result.matches.extend(page.matches if room is None else page.matches[:room])
                if room is not None and len(page.matches) >= room:
                    result.truncated = len(page.matches) > room or page.next_url is not None
                    return result
        result.truncated = last is not None and last.next_url is not None
        return result

    # --- writing ----------------------------------------------------------------------------------

    async def create(self, resource: Resource, *, if_none_exist: str | None = None) -> Written:
        """POST a new resource; the server assigns its id. ``if_none_exist`` (a search query such as
        ``identifier=http://x|123``) makes it conditional — and safe to send again after a timeout."""
        resource_type = _resource_type(resource)
        headers = {"Prefer": "return=representation"}
        if if_none_exist:
            headers["If-None-Exist"] = if_none_exist
        action = f"create {resource_type}"
        answer = await self._call(
            "POST", resource_type, body=resource, headers=headers, action=action, repeatable=bool(if_none_exist)
        )
        return _written(answer, resource_type)

    async def update(self, resource: Resource, *, version_id: str | None = None) -> Written:
        """PUT a resource under its own id; with ``version_id`` only if the server still has that
        version (else ``FhirConflictError``: read it again)."""
        resource_type = _resource_type(resource)
        resource_id = str(resource.get("id") or "")
        _check_id(resource_id, resource_type)
        headers = {"Prefer": "return=representation"}
        if version_id:
            headers["If-Match"] = f'W/"{version_id}"'
        action = f"update {resource_type}/{resource_id}"
        answer = await self._call(
            "PUT", f"{resource_type}/{resource_id}", body=resource, headers=headers, action=action
        )
        return _written(answer, resource_type, resource_id)

    async def transaction(self, bundle: Resource) -> Resource:
        """POST a ``transaction`` (all or nothing) or ``batch`` Bundle; the server's response Bundle, whose
        entries give each resource's status and location (``return=minimal``: not the resources)."""
        kind = bundle.get("type")
        if bundle.get("resourceType") != "Bundle" or kind not in ("transaction", "batch"):
            raise ValidationError(
                f"A transaction needs a Bundle of type 'transaction' or 'batch', not "
                f"{bundle.get('resourceType')!r} of type {kind!r}."
            )
        action = f"run a {kind} of {len(bundle.get('entry') or ())} entries"
        answer = await self._call("POST", "", body=bundle, headers={"Prefer": "return=minimal"}, action=action)
        return _json_resource(answer, action)

    # --- the machinery ----------------------------------------------------------------------------

    async def _call(
        self,
        method: str,
        where: str,
        *,
        action: str,
        params: Params | None = None,
        body: Resource | None = None,
        headers: Mapping[str, str] | None = None,
        repeatable: bool | None = None,
    ) -> Answer:
        """One FHIR interaction: a 2xx answer, or the error its status means. A refused SMART token
        is replaced once (the server may have revoked it early)."""
        url = where if where.startswith(("http://", "https://")) else f"{self.base_url}/{where}".rstrip("/")
        sent = {"Accept": FHIR_JSON, **(headers or {})}
        content = None
        if body is not None:
            content = json.dumps(body, ensure_ascii=False).encode("utf-8")
            sent["Content-Type"] = f"{FHIR_JSON}; charset=utf-8"
        for fresh_token in (False, True):
            authorization = await self._auth.authorization()
            if authorization:
                sent["Authorization"] = authorization
            answer = await self._http.exchange(
                method, url, params=params, headers=sent, content=content, repeatable=repeatable
            )
            if answer.status == 401 and self._auth.refreshable and not fresh_token:
                self._auth.invalidate()
                continue
            break
        if 200 <= answer.status < 300:
            return answer
        if 300 <= answer.status < 400:
            moved = answer.headers.get("location", "elsewhere")
            raise FhirServerError(
                f"The FHIR server redirected the request to {action} to {moved} (HTTP {answer.status}); "
                "Curbside does not follow redirects with credentials: correct CURBSIDE_FHIR_URL.",
                status=answer.status,
            )
        raise error_for_status(
            answer.status,
            answer.body,
            action=action,
            server=f"the FHIR server at {urlsplit(url).netloc}",
            auth_hint=self._auth.hint(answer.status),
            retry_after=answer.retry_after,
            attempts=answer.attempts,
        )

    def _next(self, link: str | None, resource_type: str) -> str | None:
        """The next page's address, refused if it leads off this server (the token must not go elsewhere)."""
        if not link:
            return None
        url = urljoin(self.base_url + "/", link)
        if _origin(url) != self._origin:
            raise FhirServerError(
                f"The FHIR server's next page of {resource_type} is on {_origin(url)}, not {self._origin}; "
                "Curbside does not send credentials elsewhere. Is the server's own base URL set right?",
                status=200,
            )
        return url


def _search_query(
    params: SearchParams | None,
    count: int | None,
    sort: str | Sequence[str] | None,
    include: Sequence[str],
    revinclude: Sequence[str],
) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    items = params.items() if isinstance(params, Mapping) else (params or ())
    for name, value in items:
        if isinstance(value, str | int | float):
            pairs.append((name, str(value)))
        else:
            pairs.extend((name, str(v)) for v in value)  # date=ge2020&date=lt2021: both apply
    if count is not None:
        if count < 0:
            raise ValidationError(f"_count must be 0 or more, not {count}.")
        pairs = [p for p in pairs if p[0] != "_count"] + [("_count", str(count))]
    if sort:
        pairs = [p for p in pairs if p[0] != "_sort"] + [("_sort", sort if isinstance(sort, str) else ",".join(sort))]
    pairs.extend(("_include", value) for value in include)
    pairs.extend(("_revinclude", value) for value in revinclude)
    return pairs


def _json_resource(answer: Answer, action: str) -> Resource:
    try:
        data = json.loads(answer.body)
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("resourceType"), str):
        raise FhirServerError(
            f"Asked to {action}, the FHIR server answered with something that is not a FHIR JSON resource "
            f"({len(answer.body):,} bytes, {answer.headers.get('content-type', 'no content type')}).",
            status=answer.status,
        )
    return data


def _written(answer: Answer, resource_type: str, resource_id: str | None = None) -> Written:
    """The id and version of a written resource: from the body when the server returned it, else from
    ``Location`` (``…/Type/id/_history/vid``) and ``ETag`` (``W/"vid"``)."""
    location = answer.headers.get("location") or answer.headers.get("content-location")
    stored: Resource | None = None
    if answer.body.strip():
        candidate = _json_resource(answer, f"write {resource_type}")
        if candidate.get("resourceType") == resource_type:
            stored = candidate
    new_id = str(stored.get("id") or "") if stored else ""
    version = str((stored or {}).get("meta", {}).get("versionId") or "") or None
    if location:
        found = re.search(rf"{resource_type}/([A-Za-z0-9\-.]{{1,64}})(?:/_history/([A-Za-z0-9\-.]{{1,64}}))?", location)
        if found:
            new_id = new_id or found.group(1)
            version = version or found.group(2)
    if not version and (etag := answer.headers.get("etag")):
        version = etag.removeprefix("W/").strip('"') or None
    new_id = new_id or (resource_id or "")
    if not new_id:
        raise FhirServerError(
            f"The FHIR server accepted the {resource_type} (HTTP {answer.status}) but said neither its id nor "
            "where it is; search for it before writing it again.",
            status=answer.status,
        )
    return Written(resource_type, new_id, version, location, stored)


def _resource_type(resource: Resource) -> str:
    resource_type = resource.get("resourceType")
    if not isinstance(resource_type, str):
        raise ValidationError("The resource has no 'resourceType'; every FHIR resource names its type.")
    _check_type(resource_type)
    return resource_type


def _check_type(resource_type: str) -> None:
    if not _TYPE.fullmatch(resource_type):
        raise ValidationError(f"{resource_type!r} is not a FHIR resource type (e.g. 'Patient', 'Observation').")


def _check_id(resource_id: str, resource_type: str) -> None:
    if not _ID.fullmatch(resource_id):
        raise ValidationError(
            f"{resource_id!r} is not a FHIR id for {resource_type} (1–64 letters, digits, '-' or '.')."
        )


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.lower()}"
