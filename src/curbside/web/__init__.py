"""The clinician's page: plain HTML, CSS and JavaScript modules served at ``/`` (and an API
explorer at ``/docs``), with no build step, no CDN and nothing fetched from outside.

The page is a client of the public HTTP API like any other: it calls ``/v1/...`` with the API key
the user types in (kept in ``sessionStorage``, never in a URL) and holds no logic the API lacks.
"""

from __future__ import annotations

from curbside.web._router import ASSETS, router

__all__ = ["ASSETS", "router"]
