"""The HTTP API: FastAPI routers over the application object (no logic of their own)."""

from curbside.api.app import create_app

__all__ = ["create_app"]
