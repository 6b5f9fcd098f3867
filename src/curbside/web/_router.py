"""Serve the page's files from the package: ``/`` (the page), ``/docs`` (the API explorer) and
``/static/{name}`` (its CSS and JavaScript modules).

Only the files shipped in ``web/static`` are served, by exact name (no path is ever joined from the
request). Every response forbids anything from outside the server (``Content-Security-Policy``:
``'self'`` only), so the page cannot load a CDN script or font even by mistake.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fastapi import APIRouter, Request, Response

__all__ = ["ASSETS", "router"]

router = APIRouter(include_in_schema=False)

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


@dataclass(frozen=True)
class Asset:
    body: bytes
    media_type: str
    etag: str


@cache
def _assets() -> dict[str, Asset]:
    folder = resources.files("curbside.web") / "static"
    found: dict[str, Asset] = {}
    for entry in folder.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in _TYPES:
            body = entry.read_bytes()
            found[entry.name] = Asset(body, _TYPES[suffix], '"' + hashlib.sha256(body).hexdigest()[:16] + '"')
    return found


ASSETS = _assets  # the shipped files by name (a function: read on first use, once)


def _serve(name: str, request: Request) -> Response:
    asset = _assets().get(name)
    if asset is None:
        return Response(b"Not found", status_code=404, media_type="text/plain")
    headers = {
        "ETag": asset.etag,
        "Cache-Control": "no-cache",  # revalidate: a changed file is never served stale after an upgrade
        "Content-Security-Policy": _CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)


@router.api_route("/", methods=["GET", "HEAD"])
def page(request: Request) -> Response:
    return _serve("index.html", request)


@router.api_route("/docs", methods=["GET", "HEAD"])
def api_explorer(request: Request) -> Response:
    return _serve("docs.html", request)


@router.api_route("/static/{name}", methods=["GET", "HEAD"])
def static(name: str, request: Request) -> Response:
    return _serve(name, request)
