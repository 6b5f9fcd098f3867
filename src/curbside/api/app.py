"""Build the FastAPI application around one ``Curbside`` object."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from curbside import __version__
from curbside.api.errors import install_error_handlers
from curbside.app import Curbside

__all__ = ["create_app"]

log = logging.getLogger("curbside.api")


def create_app(core: Curbside | None = None, *, warm_up: bool = True) -> FastAPI:
    """The HTTP API over ``core`` (built from the environment when not given).

    ``warm_up`` loads models when the server starts, so first requests meet their timeouts.
    """
    core = core or Curbside()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            core.warm_up()
            _check_access(core)
        _bound_worker_threads(core.settings.server_threads)
        await asyncio.to_thread(core.background.recover)  # jobs a stopped server left behind
        yield
        core.close()

    app = FastAPI(
        title="Curbside",
        version=__version__,
        description="Clinical consult engine: cited answers, search, documents, jobs and tools.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's /docs and /redoc load their scripts from a CDN: the page's own explorer serves /docs
        redoc_url=None,
    )
    app.state.core = core
    install_error_handlers(app)
    from curbside.api import ask, audit, confirmations, health, kb, me, metrics, search, sessions, status, tools, turns
    from curbside.api.guard import RequestGuard

    routers = [
        health.router,
        metrics.router,
        tools.router,
        confirmations.router,
        turns.router,
        ask.router,
        search.router,
        kb.router,
        audit.router,
        me.router,
        sessions.router,
        status.router,
    ]
    for router in routers:
        app.include_router(router)
    # keys, roles and body sizes are checked here, from the headers, before FastAPI reads a body
    app.add_middleware(RequestGuard, core=core, routers=routers)
    from curbside import web

    app.include_router(web.router)  # the clinician's page (/, /docs, /static): files only, a client of the API
    return app


def _bound_worker_threads(count: int) -> None:
    """Run synchronous routes (search, passages, documents …) on ``count`` threads.

    On two cores, forty threads (anyio's default) only take turns at the GIL and the cores:
    at 50 clinicians, 3 threads served more requests (50 against 47 a second) with p95 1.43 s
    instead of 1.7-1.8 s, answering in the order requests came (benchmarks/bench_load.py; 2 and 4
    threads did about as well). Work sent with ``asyncio.to_thread`` (asks, audit rows) keeps the
    loop's own small executor.
    """
    import anyio.to_thread

    anyio.to_thread.current_default_thread_limiter().total_tokens = count


def _check_access(core: Curbside) -> None:
    """At startup: an unusable audit key stops the server now (ConfigError), not at the first request."""
    _ = core.audit.key
    if not core.users.list():
        log.warning(
            "no API users: every route but /healthz answers 401; add one with `curbside users add NAME --role ROLE`"
        )
