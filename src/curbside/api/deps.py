"""Dependencies shared by the routers."""

from __future__ import annotations

from fastapi import Request

from curbside.app import Curbside

__all__ = ["get_curbside"]


def get_curbside(request: Request) -> Curbside:
    core: Curbside = request.app.state.curbside
    return core
