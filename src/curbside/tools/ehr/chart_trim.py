"""Trim a chart summary to a size in bytes, dropping the least useful entries first and saying what went.

The order, least useful first: encounters past the third, previous values of labs, labs (rarest
first), previous values of vitals, the remaining encounters, vitals, problems that are findings or
situations, other problems (oldest onset first), medications (oldest order first), and allergies last
of all. A section emptied this way reads "left out to fit", never "none recorded".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from curbside.tools.ehr.chart_models import LEFT_OUT, SOFT_TAGS, ChartSummary, ChartValue

__all__ = ["summary_bytes", "trim_to"]

_KEEP_ENCOUNTERS = 3
_WHERE = {
    "labs": "ehr.get_observations",
    "vitals": "ehr.get_observations",
    "problems": "ehr.get_conditions",
    "medications": "ehr.get_medications",
    "allergies": "ehr.get_allergies",
}


def summary_bytes(summary: ChartSummary) -> int:
    """Size of the summary as compact JSON (UTF-8), as a caller receives it."""
    return len(summary.model_dump_json().encode())


Step = Callable[[ChartSummary], str | None]  # removes one entry, says which section it came from


def _pop(section: str, *, keep: int = 0, soft_only: bool = False) -> Step:
    def step(summary: ChartSummary) -> str | None:
        items = getattr(summary, section)
        if not isinstance(items, list) or len(items) <= keep:
            return None
        if soft_only:
            last = items[-1]
            if not (last.problem.display or "").endswith(SOFT_TAGS):
                return None
        items.pop()
        if not items:
            setattr(summary, section, LEFT_OUT)
        return section

    return step


def _drop_previous(section: str) -> Step:
    def step(summary: ChartSummary) -> str | None:
        items = getattr(summary, section)
        if not isinstance(items, list):
            return None
        for item in reversed(items):
            if isinstance(item, ChartValue) and item.previous_date is not None:
                item.previous = item.previous_date = None
                return f"previous {section}"
        return None

    return step


_STEPS: tuple[Step, ...] = (
    _pop("encounters", keep=_KEEP_ENCOUNTERS),
    _drop_previous("labs"),
    _pop("labs"),
    _drop_previous("vitals"),
    _pop("encounters"),
    _pop("vitals"),
    _pop("problems", soft_only=True),
    _pop("problems"),
    _pop("medications"),
    _pop("allergies"),
)


def _note(limit: int, dropped: Counter[str]) -> str:
    parts = []
    for what, count in dropped.items():
        if what.startswith("previous "):
            parts.append(f"the previous value of {count} {what.removeprefix('previous ')}")
        else:
            where = _WHERE.get(what)
            parts.append(f"{count} {what} (ask {where})" if where else f"{count} {what}")
    return f"Trimmed to fit {limit} bytes (CURBSIDE_EHR_CHART_BYTES): left out " + "; ".join(parts) + "."


def trim_to(summary: ChartSummary, limit: int) -> ChartSummary:
    """The summary, entries removed until its JSON fits ``limit`` bytes, with a warning naming them."""
    if summary_bytes(summary) <= limit:
        return summary
    base = list(summary.warnings)
    dropped: Counter[str] = Counter()
    for step in _STEPS:
        while True:
            what = step(summary)
            if what is None:
                break
            dropped[what] += 1
            summary.warnings = [*base, _note(limit, dropped)]
            if summary_bytes(summary) <= limit:
                return summary
    summary.warnings = [*base, _note(limit, dropped), f"Still over {limit} bytes with every optional part left out."]
    return summary
