"""The executor's permission check uses the caller's real role: API roles, the operator, a tool's own roles."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from pydantic import BaseModel

from curbside.app import Curbside
from curbside.settings import Settings
from curbside.tools import ToolContext, ToolSpec
from curbside.types import ToolCaller


class Note(BaseModel):
    text: str


async def _echo(ctx: ToolContext, args: Note) -> Note:
    return Note(text=f"{args.text} by {ctx.caller.user}")


@pytest.fixture
def core(tmp_path: Path) -> Iterator[Curbside]:
    app = Curbside(Settings(home=tmp_path / "home"))
    for name, roles in (("test.open", None), ("test.admin_only", frozenset({"admin"}))):
        app.tools.registry.register(
            ToolSpec(
                name=name,
                description="Echo (test).",
                args_model=Note,
                result_model=Note,
                handler=_echo,
                category="test",
                requires_phi=True,
                timeout_s=1.0,
                allowed_roles=roles,
            )
        )
    yield app
    app.close()


@pytest.mark.parametrize(
    ("tool", "role", "status"),
    [
        ("test.open", "clinician", "ok"),
        ("test.open", "admin", "ok"),
        ("test.open", "auditor", "denied"),
        ("test.open", "nobody", "denied"),
        ("test.open", "operator", "ok"),
        ("test.admin_only", "clinician", "denied"),
        ("test.admin_only", "admin", "ok"),
        ("test.admin_only", "operator", "ok"),
    ],
)
def test_roles(core: Curbside, tool: str, role: str, status: str) -> None:
    result = asyncio.run(core.tools.call(tool, {"text": "hi"}, caller=ToolCaller(user="u", role=role)))
    assert result.status == status
    if status == "denied":
        assert result.error is not None and result.error.code == "PERMISSION_DENIED"
        assert f"Role {role!r} may not call tool {tool!r}" in result.error.message


def test_calls_without_a_caller_run_as_the_operator_and_are_audited(core: Curbside) -> None:
    secret = "Jane Doe, MRN 4451234"
    result = asyncio.run(core.tools.call("test.open", {"text": secret}))
    assert result.ok and result.result == {"text": f"{secret} by operator"}
    (row,) = core.audit.export(datetime(2000, 1, 1))
    assert (row["action"], row["user"], row["role"], row["tools"], row["phi"]) == (
        "tool",
        "operator",
        "operator",
        ["test.open"],
        True,
    )
    assert row["details"]["argument_names"] == ["text"] and "Jane" not in str(row) and "4451234" not in str(row)
    # keyed: the plain SHA-256 of the arguments (guessable for short values) is not what is stored
    plain = hashlib.sha256(json.dumps({"text": secret}, sort_keys=True).encode()).hexdigest()
    assert row["details"]["arguments_digest"] not in (plain, "") and len(row["details"]["arguments_digest"]) == 64


def test_a_trail_that_cannot_record_stops_tool_calls(core: Curbside) -> None:
    asyncio.run(core.tools.call("test.open", {"text": "first"}))
    core.audit.head_path.unlink()
    result = asyncio.run(core.tools.call("test.open", {"text": "unrecorded"}))
    assert result.status == "error" and result.error is not None and result.error.code == "AUDIT_INTEGRITY"
    assert result.result is None
