"""One reader per domain tool: its result (a dict, as the executor returns it) -> a ``DomainFinding``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from curbside.coverage.answer.findings import DomainFinding
from curbside.coverage.answer.readers.adp import read_adp
from curbside.coverage.answer.readers.odb import read_odb
from curbside.coverage.answer.readers.schedule import read_schedule
from curbside.coverage.answer.routing import PlannedCall

__all__ = ["READERS", "Reader"]

Reader = Callable[[dict[str, Any], PlannedCall], DomainFinding]
READERS: dict[str, Reader] = {"schedule.get": read_schedule, "adp.get": read_adp, "odb.get": read_odb}
