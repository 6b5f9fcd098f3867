"""`curbside tool NAME [KEY=VALUE …] [--args JSON]`: run one tool and print its ToolResult as JSON."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from curbside.cli._common import JsonCommand, app_context, echo_json

if TYPE_CHECKING:
    from curbside.tools.base import ToolResult

__all__ = ["tool"]


@click.command("tool", cls=JsonCommand)
@click.argument("name", required=False)
@click.argument("pairs", nargs=-1, metavar="[KEY=VALUE]...")
@click.option(
    "--args",
    "args_text",
    default="{}",
    metavar="JSON",
    help="The tool's arguments as a JSON object; @FILE reads them from a file, - from stdin.",
)
@click.option(
    "--yes",
    "--confirm",
    "-y",
    "confirm",
    is_flag=True,
    help="Approve a tool that requires confirmation up front (a scripted run; audited as confirmed). "
    "Without it, at a terminal you are asked; elsewhere the call waits and exits 3.",
)
@click.option(
    "--list",
    "list_tools",
    is_flag=True,
    help="List every tool with its argument and result schemas.",
)
def tool(name: str | None, pairs: tuple[str, ...], args_text: str, confirm: bool, list_tools: bool) -> None:
    """Run tool NAME (e.g. source.passages) and print the result as JSON.

    Exit code 0 when the call is ok; otherwise the code of its error
    (2 bad input or refused, 3 needs confirmation, 4 its data is not loaded,
    5 timed out, 6 the audit trail cannot record, 1 failed). Every call is an
    audit row. Output is JSON, errors before the call too ({"error": {"code", "message"}}).

    Arguments are KEY=VALUE pairs (a VALUE that reads as JSON — a number, true, a list — is taken as
    JSON, anything else as text), or a JSON object with --args; a pair overrides the same key in --args.

    Examples: curbside tool schedule.get q="fee for an intermediate assessment?"
    curbside tool source.passages --args '{"chunk_ids": ["guide:v1:0"], "highlight_terms": ["dose"]}'
    """
    import asyncio

    from curbside.tools.base import ToolInfo

    if list_tools:
        if name:
            raise click.UsageError("Give either --list or a tool NAME, not both.")
        with app_context() as core:
            echo_json([ToolInfo.from_spec(spec).model_dump(mode="json") for spec in core.tools.registry])
        return
    if not name:
        raise click.UsageError("Name a tool (e.g. source.passages), or use --list to see them.")
    arguments = _parse_args(args_text) | _parse_pairs(pairs)
    with app_context() as core:
        executor = core.tools
        result = asyncio.run(executor.call(name, arguments, confirm=confirm))
        if result.confirmation is not None and _interactive():
            approve = click.confirm(f"{result.confirmation.summary}\nApprove?", default=False, err=True)
            result = asyncio.run(executor.decide(result.confirmation.id, approve=approve))
    echo_json(result.model_dump(mode="json"))
    code = _exit_code(result)
    if code:
        sys.exit(code)


def _interactive() -> bool:
    """A person at a terminal can answer a confirmation; a script or a pipe cannot."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def _parse_args(text: str) -> dict[str, Any]:
    if text == "-":
        text = sys.stdin.read()
    elif text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise click.BadParameter(f"cannot read {text[1:]!r}: {exc.strerror}", param_hint="--args") from exc
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(
            f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
            'quote it for the shell, e.g. --args \'{"chunk_ids": ["doc:v1:0"]}\'',
            param_hint="--args",
        ) from exc
    if not isinstance(value, dict):
        raise click.BadParameter(
            f"must be a JSON object of named arguments, not {type(value).__name__}",
            param_hint="--args",
        )
    return value


def _parse_pairs(pairs: tuple[str, ...]) -> dict[str, Any]:
    """KEY=VALUE arguments: JSON where the value reads as a number, a boolean, null, a list or an object
    (k=3, llm=false, ids='["a:v1:0"]'), text otherwise (q=what is the fee?)."""
    parsed: dict[str, Any] = {}
    for item in pairs:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(
                f"{item!r}: write arguments as KEY=VALUE (e.g. q=\"fee for A007?\"), or as JSON with --args",
                param_hint="KEY=VALUE",
            )
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        parsed[key.strip()] = raw if isinstance(value, str) else value
    return parsed


def _exit_code(result: ToolResult) -> int:
    from curbside.cli._exit import exit_code_for

    if result.ok:
        return 0
    if result.status == "needs_confirmation":
        return exit_code_for("CONFIRMATION_REQUIRED")
    if result.status == "timeout":
        return exit_code_for("TIMEOUT")
    return exit_code_for(result.error.code if result.error else "INTERNAL_ERROR")
