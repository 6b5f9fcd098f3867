"""`curbside tool` and `curbside mcp --help` through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from curbside.cli import cli
from curbside.tools.passages import PassagesArgs
from curbside.types import SourcePassages


@pytest.fixture
def runner(sample_home: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("CURBSIDE_HOME", str(sample_home))
    return CliRunner()


def invoke(runner: CliRunner, *args: str, stdin: str | None = None) -> Result:
    result = runner.invoke(cli, list(args), input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_tool_prints_the_tool_result_as_json(runner: CliRunner) -> None:
    args = json.dumps(
        {
            "chunk_ids": ["sample-malaria-guideline:v1:0"],
            "highlight_terms": ["artemisinin"],
        }
    )
    result = invoke(runner, "tool", "source.passages", "--args", args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"tool", "status", "result", "error", "duration_ms", "call_id", "confirmation"}
    assert (data["tool"], data["status"], data["error"]) == (
        "source.passages",
        "ok",
        None,
    )
    passages = SourcePassages.model_validate(data["result"])
    assert [p.chunk_id for p in passages.passages] == ["sample-malaria-guideline:v1:0"]
    assert passages.passages[0].highlights and all("**" in h for h in passages.passages[0].highlights)


def test_arguments_can_come_from_a_file_or_stdin(runner: CliRunner, tmp_path: Path) -> None:
    body = json.dumps({"chunk_ids": ["sample-hypertension:v1:0", "gone:v1:0"]})
    (tmp_path / "args.json").write_text(body, encoding="utf-8")
    for result in (
        invoke(runner, "tool", "source.passages", "--args", f"@{tmp_path / 'args.json'}"),
        invoke(runner, "tool", "source.passages", "--args", "-", stdin=body),
    ):
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["result"]["missing"] == ["gone:v1:0"]


def test_a_failed_call_prints_its_result_and_exits_with_its_code(
    runner: CliRunner,
) -> None:
    result = invoke(runner, "tool", "source.passages", "--args", '{"chunk_ids": []}')
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["status"] == "error" and data["error"]["code"] == "VALIDATION_ERROR"
    unknown = invoke(runner, "tool", "odb.gett")
    assert unknown.exit_code == 2 and json.loads(unknown.stdout)["error"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ('{"chunk_ids": [', "Invalid value for --args: not valid JSON"),
        (
            '["a"]',
            "Invalid value for --args: must be a JSON object of named arguments, not list",
        ),
        (
            "@/nonexistent/args.json",
            "Invalid value for --args: cannot read '/nonexistent/args.json'",
        ),
    ],
)
def test_unusable_args_are_a_usage_error(runner: CliRunner, args: str, message: str) -> None:
    result = invoke(runner, "tool", "source.passages", "--args", args)
    assert result.exit_code == 2 and message in json.loads(result.stdout)["error"]["message"]


def test_list_shows_every_tool_with_its_schemas(runner: CliRunner) -> None:
    result = invoke(runner, "tool", "--list")
    assert result.exit_code == 0, result.output
    tools = {t["name"]: t for t in json.loads(result.stdout)}
    assert "source.passages" in tools
    passages = tools["source.passages"]
    assert passages["input_schema"] == PassagesArgs.model_json_schema()
    assert passages["output_schema"] == SourcePassages.model_json_schema(mode="serialization")
    assert (passages["category"], passages["requires_phi"], passages["timeout_s"]) == (
        "search",
        False,
        2.0,
    )


def test_name_or_list_is_required(runner: CliRunner) -> None:
    assert "Name a tool" in json.loads(invoke(runner, "tool").stdout)["error"]["message"]
    listed = invoke(runner, "tool", "--list", "source.passages")
    assert "either --list or a tool NAME" in json.loads(listed.stdout)["error"]["message"]


def test_help_lists_tool_and_mcp() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert "tool " in result.stdout and "mcp " in result.stdout
    mcp_help = CliRunner().invoke(cli, ["mcp", "--help"])
    assert "--transport [stdio|http]" in mcp_help.stdout


def _with_note_tool(monkeypatch: pytest.MonkeyPatch, saved: list[str]) -> None:
    """Every application the CLI builds gets a test tool that needs confirmation."""
    from pydantic import BaseModel

    import curbside.app.tool_families as families
    from curbside.tools import ToolContext, ToolSpec

    class Note(BaseModel):
        text: str

    async def save(ctx: ToolContext, args: Note) -> Note:
        saved.append(args.text)
        return args

    build = families.build_registry

    def build_with_note(core):  # noqa: ANN001, ANN202
        registry = build(core)
        registry.register(
            ToolSpec(
                name="test.save_note", description="Save a note (test).", args_model=Note, result_model=Note,
                handler=save, category="test", requires_phi=True, timeout_s=2.0, requires_confirmation=True,
                describe=lambda args: f"Save the note {args.text!r}",
            )
        )
        return registry

    monkeypatch.setattr(families, "build_registry", build_with_note)


@pytest.mark.parametrize(("answer", "status", "saved_after"), [("y\n", "ok", ["call back"]), ("n\n", "denied", [])])
def test_at_a_terminal_the_cli_asks_before_a_confirmed_tool_runs(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, answer: str, status: str, saved_after: list[str]
) -> None:
    saved: list[str] = []
    _with_note_tool(monkeypatch, saved)
    monkeypatch.setattr("curbside.cli.tool._interactive", lambda: True)
    result = invoke(runner, "tool", "test.save_note", "--args", '{"text": "call back"}', stdin=answer)
    assert "Save the note 'call back'" in result.stderr and "Approve?" in result.stderr
    assert json.loads(result.stdout)["status"] == status and saved == saved_after


def test_a_script_approves_with_yes_and_without_it_waits_and_exits_3(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved: list[str] = []
    _with_note_tool(monkeypatch, saved)
    waiting = invoke(runner, "tool", "test.save_note", "--args", '{"text": "a"}')
    assert waiting.exit_code == 3 and json.loads(waiting.stdout)["confirmation"]["summary"] == "Save the note 'a'"
    done = invoke(runner, "tool", "test.save_note", "--args", '{"text": "b"}', "--yes")
    assert done.exit_code == 0 and saved == ["b"]
