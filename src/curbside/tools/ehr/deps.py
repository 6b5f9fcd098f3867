"""What the EHR tools need: settings, the FHIR client (built on first use; None when no EHR is
configured), and the reference time a chart is read at (the clock, or a replayed case's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from curbside import clock
from curbside.errors import ConfigError

if TYPE_CHECKING:
    from curbside.settings import Settings
    from curbside.tools.ehr.fhir_client import FhirClient

__all__ = ["EhrDeps", "NO_EHR"]

NO_EHR = (
    "No EHR is configured: set CURBSIDE_FHIR_URL to the clinic's FHIR R4 server (with CURBSIDE_FHIR_AUTH and its "
    "credentials), or start the sandbox with `curbside ehr sandbox --load DIR` and point CURBSIDE_FHIR_URL at it."
)


@dataclass(frozen=True)
class EhrDeps:
    settings: Settings
    client: Callable[[], FhirClient | None]
    now: Callable[[], datetime] | None = None  # the reference time; default: the UTC clock

    def fhir(self) -> FhirClient:
        """The FHIR client, or a ConfigError saying how to configure one."""
        client = self.client()
        if client is None:
            raise ConfigError(NO_EHR)
        return client

    def reference_time(self) -> datetime:
        return self.now() if self.now is not None else clock.now()
