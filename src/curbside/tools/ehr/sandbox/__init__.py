"""The sandbox EHR: Medplum's FHIR router in Node, in memory, on loopback (see ``launcher``)."""

from curbside.tools.ehr.sandbox.launcher import EhrSandbox, LoadReport, SandboxUnavailableError

__all__ = ["EhrSandbox", "LoadReport", "SandboxUnavailableError"]
