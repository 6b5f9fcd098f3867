"""The patient's chart over FHIR R4 (#17): read tools open to clinical roles, write tools that each
need a clinician's confirmation and a role listed in CURBSIDE_EHR_WRITE_ROLES; ``sandbox/`` starts a
local FHIR server to try them on.

``register(registry, deps)`` puts every EHR tool in the registry; nothing connects until a tool is
called, and without CURBSIDE_FHIR_URL each tool says how to configure one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.tools.ehr.deps import EhrDeps

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["EhrDeps", "register"]


def register(registry: ToolRegistry, deps: EhrDeps) -> None:
    from curbside.tools.ehr import read_tools, write_tools

    read_tools.register_read_tools(registry, deps)
    write_tools.register(registry, deps)
