"""Paths inside the shared folder: what a caller may name, and what the server's listings name.

A tool is given a path by a model or a person; it must never reach outside the folder that
CURBSIDE_WEBDAV_URL names. So a path is refused, not repaired, when it climbs ('..'), when it is
absolute outside the folder, or when it holds a backslash or a control character (some servers read
a backslash as a separator). What remains is a '/'-joined run of plain names, quoted segment by
segment when it becomes a URL (``DavEndpoint.url_for``), so '%2e%2e' stays a literal name.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from curbside.errors import ValidationError
from curbside.tools.workspace.dav import DavEndpoint

__all__ = ["inside", "relative_path"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def relative_path(given: str, endpoint: DavEndpoint, *, folder: bool = False) -> str:
    """``given`` as a path under the shared folder ('notes/visit.txt'; a folder ends in '/', the folder
    itself is ''), or a ``ValidationError`` saying why it is refused."""
    text = given.strip()
    root = endpoint.root_path
    if _CONTROL.search(text) or "\\" in text:
        raise ValidationError(f"Path {given!r} holds a backslash or a control character; use '/' between names.")
    if text.lower().startswith(("http://", "https://")):
        if not text.startswith(endpoint.url):
            raise ValidationError(f"{given!r} is not inside the shared folder; give a path such as 'notes/visit.txt'.")
        text = unquote(text[len(endpoint.url) :])
    elif text == "/":
        text = ""  # the top of the shared folder (paths here are relative to it, never to the server)
    elif text.startswith("/"):
        if not (text + "/").startswith(root):
            raise ValidationError(
                f"Path {given!r} is outside the shared folder ({root}); give a path inside it, e.g. 'notes/visit.txt'."
            )
        text = text[len(root) :] if len(text) >= len(root) else ""
    names = [name for name in text.split("/") if name not in ("", ".")]
    if ".." in names:
        raise ValidationError(f"Path {given!r} climbs with '..': refused. Paths stay inside the shared folder.")
    if not names:
        if folder:
            return ""
        raise ValidationError(f"Path {given!r} names the shared folder itself, not a file.")
    return "/".join(names) + ("/" if folder else "")


def inside(server_path: str, endpoint: DavEndpoint) -> str | None:
    """A path from a listing (decoded, absolute) relative to the shared folder; None when it is not under it."""
    root = endpoint.root_path
    path = unquote(urlsplit(server_path).path) if "://" in server_path else server_path
    if not path.startswith(root):
        return None
    rest = path[len(root) :]
    names = [name for name in rest.split("/") if name]
    if ".." in names:
        return None
    return "/".join(names)
