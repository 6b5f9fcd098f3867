"""The data files this project writes about ADP, and their check against the manuals.

``funding_rules.toml`` (funding shares, social assistance, exclusions, eligibility,
funding periods), ``devices.toml`` (categories, listed device types and the words
people use for them) and ``cep_policy.toml`` (the spec's unofficial CEP income
thresholds, and what CEP means in the manuals). ``verify`` checks every quote,
section, page, category and listed device against the parsed manuals: a load
whose manuals do not say what the files claim is refused.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from curbside.coverage.adp.parse import CORE_KEY, PARSER_VERSION, ParsedManual, normalize

__all__ = [
    "CategoryEntry",
    "CepPolicy",
    "DeviceEntry",
    "DeviceVocabulary",
    "NotListedEntry",
    "Rule",
    "RuleKind",
    "cep_policy",
    "data_digest",
    "device_vocabulary",
    "funding_rules",
    "listed_categories",
    "required_manuals",
    "verify",
]

RuleKind = Literal["funding", "social_assistance", "exclusion", "eligibility", "funding_period"]
_FILES = ("funding_rules.toml", "devices.toml", "cep_policy.toml")
_QUOTE_START = 25  # characters of a quote that must sit on its cited page


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Rule(_Strict):
    id: str
    kind: RuleKind
    topic: str
    applies_to: tuple[str, ...]
    funding_model: str | None = None
    adp_percent: float | None = None
    adp_up_to: bool = False
    client_percent: float | None = None
    client_minimum: bool = False
    years: int | None = None
    summary: str
    manual: str
    section: str
    page: int
    quotes: tuple[str, ...] = Field(min_length=1)

    @field_validator("applies_to", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value


class CategoryEntry(_Strict):
    name: str
    keys: tuple[str, ...]
    terms: tuple[str, ...] = ()


class DeviceEntry(_Strict):
    key: str
    name: str
    category: str
    group: str
    manual: str
    section: str
    page: int
    listed_as: str
    terms: tuple[str, ...]
    follow_up: str | None = None


class NotListedEntry(_Strict):
    key: str
    terms: tuple[str, ...]
    manual: str
    section: str
    page: int
    quote: str


class DeviceVocabulary(_Strict):
    category: tuple[CategoryEntry, ...]
    category_groups: dict[str, tuple[str, ...]]
    not_a_category: dict[str, str]
    not_a_category_terms: dict[str, tuple[str, ...]] = Field(default_factory=dict)  # the words a question uses
    device: tuple[DeviceEntry, ...]
    not_listed: tuple[NotListedEntry, ...]


class IncomeThresholds(_Strict):
    name: str
    official: bool
    source: str
    cited_as: str
    as_of: str
    single: float = Field(ge=0)
    family: float = Field(ge=0)
    client_share_percent_if_below: float = Field(ge=0, le=100)
    note: str


class CentralEquipmentPool(_Strict):
    name: str
    official: bool
    manual: str
    section: str
    page: int
    quote: str
    definition_section: str
    definition_page: int
    definition_quote: str


class CepPolicy(_Strict):
    income_thresholds: IncomeThresholds
    central_equipment_pool: CentralEquipmentPool


def _read(name: str) -> str:
    return resources.files("curbside.coverage.adp").joinpath(name).read_text(encoding="utf-8")


@cache
def funding_rules() -> tuple[Rule, ...]:
    return tuple(Rule.model_validate(r) for r in tomllib.loads(_read("funding_rules.toml"))["rule"])


@cache
def device_vocabulary() -> DeviceVocabulary:
    return DeviceVocabulary.model_validate(tomllib.loads(_read("devices.toml")))


@cache
def cep_policy() -> CepPolicy:
    return CepPolicy.model_validate(tomllib.loads(_read("cep_policy.toml")))


def data_digest() -> str:
    """SHA-256 over the three data files and the parser's version: a changed file, or a parser that reads the
    manuals differently, makes the next load re-write the tables."""
    digest = hashlib.sha256(PARSER_VERSION.encode("utf-8"))
    for name in _FILES:
        digest.update(_read(name).encode("utf-8"))
    return digest.hexdigest()


def required_manuals() -> set[str]:
    """Keys of the manuals the data files cite: a load needs every one of them."""
    vocabulary = device_vocabulary()
    cited = {r.manual for r in funding_rules()} | {d.manual for d in vocabulary.device}
    cited |= {n.manual for n in vocabulary.not_listed} | {cep_policy().central_equipment_pool.manual}
    return cited


def listed_categories(core: ParsedManual) -> list[str]:
    """The Categories of Devices of §105.05, as the ADP Manual lists them."""
    paragraph = core.paragraph("105.05")
    if paragraph is None:
        return []
    return [line[1:].strip() for line in paragraph.text.splitlines() if line.startswith("•")]


_CORE_QUOTE = re.compile(r"“([^”]+)” \(ADP Manual §([\d.]+), p\. (\d+)\)")


def _page_text(manual: ParsedManual, section_id: str, page: int) -> str:
    paragraph = manual.paragraph(section_id)
    section = manual.section(section_id)
    paragraphs = [paragraph] if paragraph else (section.paragraphs if section else [])
    return normalize(" ".join(line for p in paragraphs for pg, line in p.lines if pg == page))


def _check_quote(
    manuals: dict[str, ParsedManual], what: str, manual: str, section: str, page: int, quotes: tuple[str, ...]
) -> list[str]:
    parsed = manuals.get(manual)
    if parsed is None:
        return [f"{what} cites the {manual!r} manual, which is not among the files loaded"]
    text = parsed.text_of(section)
    if not text:
        return [f"{what} cites §{section}, which the {parsed.label} does not have"]
    problems = [
        f"{what}: §{section} of the {parsed.label} does not say {q!r}" for q in quotes if normalize(q) not in text
    ]
    if not problems and normalize(quotes[0])[:_QUOTE_START] not in _page_text(parsed, section, page):
        start = quotes[0][:60].rsplit(" ", 1)[0]
        problems.append(f"{what}: {start!r}… is not on page {page} of the {parsed.label}")
    return problems


def verify(manuals: dict[str, ParsedManual], rules: Sequence[Rule] | None = None) -> list[str]:
    """Every claim the data files make that the parsed manuals do not support (empty: all verified).

    ``rules`` replaces ``funding_rules()`` (to check a draft, or in tests).
    """
    problems: list[str] = []
    for rule in funding_rules() if rules is None else rules:
        problems += _check_quote(manuals, f"rule {rule.id!r}", rule.manual, rule.section, rule.page, rule.quotes)
    vocabulary = device_vocabulary()
    core = manuals.get(CORE_KEY)
    categories = listed_categories(core) if core else []
    if core is None:
        problems.append("the ADP Manual (Policies and Procedures Manual for the Assistive Devices Program) is missing")
    else:
        problems += [
            f"category {c.name!r} is not among the Categories of Devices (§105.05) of the {core.label}"
            for c in vocabulary.category
            if c.name not in categories
        ]
    for device in vocabulary.device:
        what = f"device {device.key!r}"
        problems += _check_quote(manuals, what, device.manual, device.section, device.page, (device.listed_as,))
        if categories and device.category not in categories:
            problems.append(f"{what}: category {device.category!r} is not in §105.05")
    for entry in vocabulary.not_listed:
        problems += _check_quote(
            manuals, f"not-listed {entry.key!r}", entry.manual, entry.section, entry.page, (entry.quote,)
        )
    for key, message in vocabulary.not_a_category.items():  # a quote it gives: “…” (ADP Manual §800.00, p. 97)
        for quote, section, page in _CORE_QUOTE.findall(message):
            problems += _check_quote(manuals, f"not-a-category {key!r}", CORE_KEY, section, int(page), (quote,))
    pool = cep_policy().central_equipment_pool
    problems += _check_quote(manuals, "cep_policy.toml", pool.manual, pool.section, pool.page, (pool.quote,))
    problems += _check_quote(
        manuals, "cep_policy.toml", pool.manual, pool.definition_section, pool.definition_page, (pool.definition_quote,)
    )
    return problems
