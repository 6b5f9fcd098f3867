"""The package's public names exist, and the tool is declared as the registry expects."""

from __future__ import annotations

import pytest

import curbside.coverage.answer as answer
from curbside.app import Curbside
from curbside.app.tool_families import build_registry
from curbside.errors import ConfigError
from curbside.settings import Settings
from curbside.tools.registry import definition_problems


def test_all_names_exist() -> None:
    assert sorted(answer.__all__) == sorted(n for n in answer.__all__ if hasattr(answer, n))
    assert len(answer.__all__) == len(set(answer.__all__))


def test_registered_with_its_settings() -> None:
    settings = Settings(tool_coverage_timeout_s=4.0, tool_coverage_rate_limit=7)
    spec = build_registry(Curbside(settings)).get("coverage.answer")
    assert definition_problems(spec) == []
    assert (spec.timeout_s, spec.rate_limit, spec.category, spec.requires_phi) == (4.0, 7, "coverage", True)


def test_a_whole_call_timeout_below_the_sub_calls_budget_is_refused() -> None:
    settings = Settings(tool_coverage_timeout_s=2.0, coverage_answer_timeout_ms=2500)
    with pytest.raises(ConfigError, match="CURBSIDE_TOOL_COVERAGE_TIMEOUT_S=2 must be above"):
        answer.coverage_answer_tool(settings)
