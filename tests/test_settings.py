"""Settings: one class, flat CURBSIDE_* names, blocks where a part reads several at once."""

from __future__ import annotations

import pytest

from curbside.settings import Settings, SourceLimits


def test_a_sources_settings_read_as_one_block_under_their_flat_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURBSIDE_OHIP_SQL_TIMEOUT_MS", "250")
    monkeypatch.setenv("CURBSIDE_TOOL_SCHEDULE_RATE_LIMIT", "9")
    settings = Settings()
    assert settings.coverage_limits("ohip") == SourceLimits(
        sql_timeout_ms=250, search_timeout_ms=1000, total_timeout_ms=1500, search_k=8, tool_timeout_s=2.0, tool_rate_limit=9
    )
    with pytest.raises(ValueError, match="no settings for coverage source 'xyz'"):
        settings.coverage_limits("xyz")
