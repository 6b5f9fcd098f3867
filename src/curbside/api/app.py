"""Build the FastAPI application around one ``Curbside`` object."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from curbside import __version__
from curbside.api.errors import install_error_handlers
from curbside.app import Curbside

__all__ = ["create_app"]

log = logging.getLogger("curbside.api")


def create_app(curbside: Curbside | None = None, *, warm_up: bool = True) -> FastAPI:
    """The HTTP API over ``curbside`` (built from the environment when not given).

    ``warm_up`` loads models when the server starts, so first requests meet their timeouts.
    """
    core = curbside or Curbside()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            core.warm_up()
            _check_access(core)
        yield
        core.close()

    app = FastAPI(
        title="Curbside",
        version=__version__,
        description="Clinical consult engine: cited answers, search, documents, jobs and tools.",
        lifespan=lifespan,
    )
    app.state.curbside = core
    install_error_handlers(app)

    from curbside.api import ask, audit, health, kb, metrics, search, tools

    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(tools.router)
    app.include_router(ask.router)
    app.include_router(search.router)
    app.include_router(kb.router)
    app.include_router(audit.router)
    return app


def _check_access(core: Curbside) -> None:
    """At startup: an unusable audit key stops the server now (ConfigError), not at the first request."""
    _ = core.audit.key
    if not core.users.list():
        log.warning(
            "no API users: every route but /healthz answers 401; add one with `curbside users add NAME --role ROLE`"
        )
