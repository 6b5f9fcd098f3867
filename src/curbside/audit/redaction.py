"""The redactor the application's trail uses (``curbside.redaction``, shared with the logs)."""

from __future__ import annotations

from curbside.redaction import phi_redactor

__all__ = ["phi_redactor"]
