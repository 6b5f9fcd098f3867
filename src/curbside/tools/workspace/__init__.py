"""The clinic's workspace as tools: its calendar over CalDAV and its shared files over WebDAV.

    calendar.list_events   the events on some days                      read
    calendar.create_event  a new event, after the clinician approves it  write, confirmed, risk medium
    files.search           files by path words, text files by content    read
    files.read             one text file, or a PDF's text                 read

Files are read only, on purpose: the issue asks that nothing be written without a clinician's
confirmation, and there is simply no tool that writes, moves or deletes a file. The only write is
``calendar.create_event``, which waits for approval (``ToolExecutor.decide``) and never replaces an
existing event. Every tool handles PHI (a clinic's calendar and files name patients). Without
CURBSIDE_CALDAV_URL / CURBSIDE_WEBDAV_URL a call ends in a ConfigError naming the setting, and sends nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curbside.tools.workspace.deps import WorkspaceDeps

if TYPE_CHECKING:
    from curbside.tools.registry import ToolRegistry

__all__ = ["WorkspaceDeps", "register"]


def register(registry: ToolRegistry, deps: WorkspaceDeps) -> None:
    """Put the calendar and file tools in ``registry``."""
    from curbside.tools.workspace import calendar, files

    for spec in [*calendar.specs(deps), *files.specs(deps)]:
        registry.register(spec)
