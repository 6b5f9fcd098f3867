"""The application's registry: built-in tools, and odb.get from the coverage package once it exists."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from pydantic import BaseModel

from curbside.app import Curbside
from curbside.settings import Settings
from curbside.tools.catalog import build_registry

ODB_MODULE = "curbside.coverage.odb.tool"


def _odb_module_exists() -> bool:
    try:
        return importlib.util.find_spec(ODB_MODULE) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def test_source_passages_is_always_registered(tmp_path: Path) -> None:
    assert "source.passages" in build_registry(Settings(home=tmp_path))


def test_the_registry_builds_while_the_odb_module_is_absent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, ODB_MODULE, None)  # None in sys.modules: importing it fails as "not found"
    registry = build_registry(Settings(home=tmp_path))
    assert "source.passages" in registry and "odb.get" not in registry  # other families register alongside


def test_odb_get_is_declared_from_the_coverage_modules_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a stand-in with the agreed interface (OdbGetArgs, OdbGetResult, async run_odb_get(app, args))
    class OdbGetArgs(BaseModel):
        drug: str

    class OdbGetResult(BaseModel):
        covered: bool
        drug: str

    seen: list[object] = []

    async def run_odb_get(app: Curbside, args: OdbGetArgs) -> OdbGetResult:
        seen.append(app)
        return OdbGetResult(covered=True, drug=args.drug)

    module = ModuleType(ODB_MODULE)
    module.__dict__.update(OdbGetArgs=OdbGetArgs, OdbGetResult=OdbGetResult, run_odb_get=run_odb_get)
    monkeypatch.setitem(sys.modules, ODB_MODULE, module)
    monkeypatch.setenv("CURBSIDE_TOOL_ODB_TIMEOUT_S", "1.75")
    app = Curbside(Settings(home=tmp_path / "home"))
    spec = app.tools.registry.get("odb.get")
    assert (spec.category, spec.requires_phi, spec.timeout_s, spec.rate_limit) == (
        "coverage",
        False,
        1.75,
        60,
    )
    assert spec.input_schema() == OdbGetArgs.model_json_schema()
    result = asyncio.run(app.tools.call("odb.get", {"drug": "atorvastatin"}))
    assert result.status == "ok" and result.result == {
        "covered": True,
        "drug": "atorvastatin",
    }
    assert seen == [app]
    app.close()


def test_a_broken_import_inside_the_odb_module_is_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class BrokenOdbModule:
        """Fails the ODB module's import the way a typo in its own imports would."""

        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            if name == ODB_MODULE:
                raise ModuleNotFoundError(f"No module named {TYPO!r}", name=TYPO)

    TYPO = "curbside.coverage.odb.sql_clinet"
    for parent in (
        "curbside.coverage",
        "curbside.coverage.odb",
    ):  # empty stand-ins: the real ones may not exist
        package = ModuleType(parent)
        package.__path__ = []
        monkeypatch.setitem(sys.modules, parent, package)
    monkeypatch.delitem(sys.modules, ODB_MODULE, raising=False)
    monkeypatch.setattr(sys, "meta_path", [BrokenOdbModule(), *sys.meta_path])
    with pytest.raises(ModuleNotFoundError, match="sql_clinet"):
        build_registry(Settings(home=tmp_path))


@pytest.mark.skipif(not _odb_module_exists(), reason=f"{ODB_MODULE} is not written yet")
def test_the_real_odb_get_is_registered(tmp_path: Path) -> None:
    from curbside.coverage.odb.tool import OdbGetArgs, OdbGetResult

    spec = build_registry(Settings(home=tmp_path)).get("odb.get")
    assert spec.args_model is OdbGetArgs and spec.result_model is OdbGetResult
    assert spec.input_schema() == OdbGetArgs.model_json_schema()
