"""What the extract's flags mean (``flags.toml``, with sources) and the coverage status they decide.

Only flags whose meaning is documented or inferred with evidence decide
coverage; an undocumented flag is shown as written with "meaning not
documented here", and a product whose flags decide nothing is ``undetermined``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["FlagInfo", "FlagSource", "StatusInfo", "benefit_status", "describe_flags", "field_meaning", "flag_table"]

Documentation = Literal["documented", "inferred", "undocumented"]
StatusCode = Literal[
    "general_benefit",
    "limited_use",
    "additional_benefit",
    "not_a_benefit",
    "exceptional_access_only",
    "off_formulary_interchangeable",
    "undetermined",
]
NOT_DOCUMENTED = "Meaning not documented here: the extract has no data dictionary and no source defining it was found."


class FlagSource(BaseModel):
    title: str
    url: str


class FlagInfo(BaseModel):
    """One flag of a product or group, as written in the extract, with what it means and why we think so."""

    name: str = Field(description="Attribute name as written in the XML, e.g. 'sec12'.")
    value: str = Field(description="Attribute value as written, e.g. 'Y'.")
    documentation: Documentation = Field(
        description="documented (a source states it), inferred (matches a formulary part and the data), undocumented."
    )
    meaning: str = Field(description="What it means, or that its meaning is not documented here.")
    sources: list[FlagSource] = Field(default_factory=list)
    evidence: str = Field("", description="What the data show about this flag.")


@dataclass(frozen=True, slots=True)
class StatusInfo:
    code: StatusCode
    covered: bool | None  # None: no documented flag decides it
    label: str
    basis: str


@cache
def flag_table() -> dict[str, Any]:
    """The parsed ``flags.toml`` (sources, flags, fields, status)."""
    text = resources.files("curbside.coverage.odb").joinpath("flags.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _sources(names: list[str]) -> list[FlagSource]:
    table = flag_table()["sources"]
    return [FlagSource(title=table[n]["title"], url=table[n]["url"]) for n in names]


def _info(name: str, value: str, entry: Mapping[str, Any] | None) -> FlagInfo:
    if entry is None:
        return FlagInfo(name=name, value=value, documentation="undocumented", meaning=NOT_DOCUMENTED)
    documentation: Documentation = entry["status"]
    meaning = entry.get("meaning") or ""
    if documentation == "undocumented" or not meaning:
        documentation, meaning = "undocumented", NOT_DOCUMENTED
    return FlagInfo(
        name=name,
        value=value,
        documentation=documentation,
        meaning=meaning,
        sources=_sources(entry.get("sources", [])),
        evidence=entry.get("evidence", ""),
    )


def describe_flags(flags: Mapping[str, str]) -> list[FlagInfo]:
    """Every flag as written, in name order, with its meaning (a flag missing from the table is undocumented)."""
    table = flag_table()["flags"]
    return [_info(name, value, table.get(name)) for name, value in sorted(flags.items())]


def field_meaning(name: str) -> FlagInfo:
    """A field's entry (e.g. 'amountMOHLTCPays') in the same shape, for citing in answers."""
    return _info(name, "", flag_table()["fields"].get(name))


def _status(code: StatusCode, covered: bool | None = None) -> StatusInfo:
    entry = flag_table()["status"][code]
    return StatusInfo(code, entry.get("covered", covered), entry["label"], entry["basis"])


def benefit_status(flags: Mapping[str, str]) -> StatusInfo:
    """Coverage decided by the flags, first rule first (the order of ``[status.*]`` in flags.toml)."""
    on = {name for name, value in flags.items() if value == "Y"}
    if "notABenefit" in on:
        return _status("not_a_benefit")
    if "sec3b" in on:
        return _status("exceptional_access_only" if "sec3bEAP" in on else "off_formulary_interchangeable")
    if "sec12" in on:
        return _status("limited_use")
    if "sec9" in on:
        return _status("additional_benefit")
    if "sec3" in on:
        return _status("general_benefit")
    return _status("undetermined", None)
