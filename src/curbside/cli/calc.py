"""`curbside calc NAME key=value … [--note FILE]`: run one calculator (audited, like every tool call)."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any, TextIO

import click

from curbside.cli._common import app_context, echo_json

if TYPE_CHECKING:
    from curbside.tools.base import ToolResult

__all__ = ["calc"]

_QUANTITY = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([^\d\s].*?)\s*$")


@click.command("calc")
@click.argument("name", required=False)
@click.argument("values", nargs=-1, metavar="KEY=VALUE…")
@click.option("--list", "list_calculators", is_flag=True, help="List every calculator with its inputs.")
@click.option(
    "--missing",
    type=click.Choice(["ask", "absent"]),
    default="ask",
    show_default=True,
    help="ask: list criteria you did not give; absent: score them as absent (the result lists them).",
)
@click.option(
    "--note",
    "note_file",
    type=click.File("r", encoding="utf-8"),
    help="Read the inputs from a clinical note (a text file; - for stdin): numbers by parsing, yes/no criteria "
    "by the local model if one is configured. KEY=VALUE inputs win over the note.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the tool result as JSON.")
def calc(
    name: str | None,
    values: tuple[str, ...],
    list_calculators: bool,
    missing: str,
    note_file: TextIO | None,
    as_json: bool,
) -> None:
    """Run calculator NAME with its inputs as KEY=VALUE, or read them from a note (--note FILE).

    Numbers take the canonical unit or a unit written after them (creatinine=106umol/L,
    weight=160lb, temperature=101.3°F); criteria take yes/no; options and dates (YYYY-MM-DD)
    are written as they are. Nothing is assumed: a missing input is listed (exit 2) unless
    --missing absent. Examples:

      curbside calc wells_dvt active_cancer=yes entire_leg_swollen=yes --missing absent

      curbside calc cockcroft_gault age=72 sex=female weight=58 creatinine=110umol/L

      curbside calc cockcroft_gault --note admission.txt weight=61

    With --note, each value found is shown with the sentence it came from; what the note does not
    give is asked for. A note is PHI: it is only ever sent to a local model.
    """
    import asyncio

    from curbside.tools.calculators.catalog import calculator, calculators

    if list_calculators:
        _echo_list(calculators(), as_json)
        return
    if not name:
        raise click.UsageError("Name a calculator (e.g. wells_dvt), or use --list to see them.")
    calc_id = name.removeprefix("calc.")
    calculator(calc_id)  # an unknown name fails here, before the application opens
    arguments: dict[str, Any] = {"missing": missing, **_parse_values(values)}
    if note_file is not None:
        arguments["note"] = _read_note(note_file)
    with app_context() as core:
        result = asyncio.run(core.tools.call(f"calc.{calc_id}", arguments))
    if as_json:
        echo_json(result.model_dump(mode="json"))
    else:
        _echo_text(result, from_note=note_file is not None)
    code = _exit_code(result)
    if code:
        sys.exit(code)


def _read_note(note_file: TextIO) -> str:
    from curbside.tools.calculators import MAX_NOTE_CHARS

    text = note_file.read(MAX_NOTE_CHARS + 1)
    if len(text) > MAX_NOTE_CHARS:
        raise click.BadParameter(
            f"the note is longer than {MAX_NOTE_CHARS:,} characters; give the part with the findings",
            param_hint="--note",
        )
    if not text.strip():
        raise click.BadParameter("the note is empty", param_hint="--note")
    return text


def _parse_values(values: tuple[str, ...]) -> dict[str, Any]:
    parsed: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r}: write inputs as KEY=VALUE, e.g. age=64", param_hint="KEY=VALUE")
        raw = raw.strip()
        match = _QUANTITY.match(raw)
        if match and not re.fullmatch(r"-?\d+(?:\.\d+)?", raw) and not re.fullmatch(r"\d{4}-\d\d-\d\d", raw):
            parsed[key.strip()] = {"value": float(match.group(1)), "unit": match.group(2)}
        else:
            parsed[key.strip()] = raw
    return parsed


def _echo_list(found: dict[str, Any], as_json: bool) -> None:
    from curbside.tools.calculators.kit import Choice, Criterion, Day, Number

    rows = []
    for calc_id, calc in found.items():
        inputs = []
        for item in calc.inputs:
            if isinstance(item, Number):
                inputs.append(f"{item.key} ({item.unit}{'' if item.required else ', optional'})")
            elif isinstance(item, Criterion):
                inputs.append(f"{item.key} (yes/no)")
            elif isinstance(item, Day):
                inputs.append(f"{item.key} (YYYY-MM-DD)")
            elif isinstance(item, Choice):
                inputs.append(f"{item.key} ({'/'.join(item.options)})")
        rows.append(
            {"id": calc_id, "title": calc.title, "summary": calc.summary, "citation": calc.citation, "inputs": inputs}
        )
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        click.echo(f"{row['id']:<22} {row['title']}: {row['summary']}")
        click.echo(f"{'':<22} inputs: {', '.join(row['inputs'])}")


def _echo_text(result: ToolResult, *, from_note: bool = False) -> None:
    if not result.ok or result.result is None:
        message = result.error.message if result.error else result.status
        click.echo(f"Error [{result.error.code if result.error else result.status}]: {message}", err=True)
        return
    data = result.result
    if data.get("extracted"):
        _echo_extracted(data["extracted"])
    if data["status"] == "needs_more_info":
        click.echo(f"{data['title']}: needs more information. Give:")
        for item in data["missing"]:
            hint = item.get("unit") or (
                "yes/no" if item["kind"] == "criterion" else "/".join(item.get("options") or [])
            )
            click.echo(f"  {item['input']}=…  {item['label']} ({hint})")
        click.echo("Or pass --missing absent to score the criteria not given as absent.")
        if from_note:  # what the note could not give, and why
            for warning in data["warnings"]:
                click.echo(f"  ! {warning}")
        return
    headline = f"{data['title']}: {data['display']}"
    if data.get("category"):
        headline += f" — {data['category']}"
    click.echo(headline)
    if data.get("meaning"):
        click.echo(f"  {data['meaning']}")
    for part in data["points"]:
        if part["points"]:
            click.echo(f"  {part['points']:+g}  {part['label']}")
    for note in data["conversions"]:
        click.echo(f"  converted: {note}")
    for key, value in data["conventions"].items():
        click.echo(f"  {key}: {value}")
    shown = {f"{part['input']}_points" for part in data["points"]}  # already a row of the breakdown above
    for key, value in data["extra"].items():
        if key not in shown:
            click.echo(f"  {key}: {value:g}")
    if data["assumed_absent"]:
        click.echo(f"  assumed absent: {'; '.join(data['assumed_absent'])}")
    for warning in data["warnings"]:
        click.echo(f"  ! {warning}")
    click.echo(f"  {data['formula']} — {data['citation']}")


def _echo_extracted(found: list[dict[str, Any]]) -> None:
    click.echo("From the note:")
    for item in found:
        value = f"{item['value']}" + (f" {item['unit']}" if item.get("unit") else "")
        how = "model" if item["method"] == "model" else "parsed"
        flag = "" if item.get("used", True) else " (not used: the argument given was)"
        click.echo(f"  {item['input']} = {value}  [{how}]{flag}")
        click.echo(f"      “{_clip(item['sentence'])}”")
    click.echo("")


def _clip(sentence: str, limit: int = 160) -> str:
    text = " ".join(sentence.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _exit_code(result: ToolResult) -> int:
    from curbside.cli._exit import exit_code_for

    if not result.ok:
        return exit_code_for(result.error.code if result.error else "INTERNAL_ERROR")
    if result.result and result.result.get("status") == "needs_more_info":
        return exit_code_for("VALIDATION_ERROR")
    return 0
