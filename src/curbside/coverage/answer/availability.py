"""Which coverage sources have data, for ``coverage.answer``: no answer from nothing, and no silent gaps.

With no source loaded there is nothing to route to, and with every routed tool
unloaded there is nothing to merge: both are a NOT_LOADED error naming what to
load, never an "ok" answer that only says it could not read anything. With some
loaded, the routed tools that are not answer NOT_LOADED themselves (their part is
a warning); and without the formulary, drug names cannot be recognised, which a
warning says when the question reached no drug tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from curbside.coverage.answer.routing import TOOL_FOR
from curbside.errors import NotLoadedError

if TYPE_CHECKING:
    from curbside.coverage.answer.execution import CallOutcome
    from curbside.coverage.answer.intent import Intent
    from curbside.coverage.source_service import SourceService

__all__ = ["LOAD_HINT", "refuse_all_unloaded", "refuse_none_loaded", "unloaded_sources", "unloaded_warnings"]

LOAD_HINT = (
    "Run `curbside coverage load DIR` with the ministry's files in DIR (ohip-schedule-of-benefits-*.txt, "
    "*adp*manual*.pdf, odb*formulary*.xml); `curbside coverage status` shows what is loaded."
)


def unloaded_sources(sources: dict[str, SourceService[Any]]) -> dict[str, SourceService[Any]]:
    """The registered coverage tools whose source has no loaded edition, by tool name (billing, device, drug)."""
    return {tool: service for tool, service in sources.items() if not service.is_loaded()}


def refuse_none_loaded(sources: dict[str, SourceService[Any]], unloaded: dict[str, SourceService[Any]]) -> None:
    """NOT_LOADED when every registered coverage tool's source is unloaded (and there is one at all)."""
    if sources and len(unloaded) == len(sources):
        titles = _joined([s.title for s in unloaded.values()])
        raise NotLoadedError(f"No coverage data is loaded: not {titles}. {LOAD_HINT}")


def refuse_all_unloaded(outcomes: Sequence[CallOutcome]) -> None:
    """NOT_LOADED when every routed tool answered that its source is not loaded: nothing to merge."""
    if outcomes and all(o.error_code == NotLoadedError.code for o in outcomes):
        raise NotLoadedError(" ".join(dict.fromkeys(o.error or "" for o in outcomes)).strip())


def unloaded_warnings(unloaded: dict[str, SourceService[Any]], intent: Intent, question: str) -> list[str]:
    """Without the formulary, a drug named in the question cannot be recognised: say so when no drug tool ran."""
    drug_tool = TOOL_FOR["drug"]
    if drug_tool not in unloaded or "drug" in intent.domains or not question.strip():
        return []
    title = unloaded[drug_tool].title
    return [
        f"{title[0].upper()}{title[1:]} is not loaded, so drug names in the question were not looked for and no "
        "drug coverage is answered; load it with `curbside coverage load DIR` (odb*formulary*.xml in DIR)."
    ]


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
