"""Coverage data commands: ``curbside coverage load DIR`` and ``curbside coverage status``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from curbside.cli._common import app_context, echo_json, json_option, stderr_is_tty

__all__ = ["coverage_group"]


@click.group("coverage")
def coverage_group() -> None:
    """Ontario coverage data: load the ministry's files, show what is loaded."""


@coverage_group.command("load")
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
@json_option
def load(directory: Path, as_json: bool) -> None:
    """Load the coverage files found in DIRECTORY (the ODB formulary XML, odb*formulary*.xml; the OHIP Schedule
    of Benefits text, ohip-schedule-of-benefits-*.txt; ...).

    The file is parsed completely before anything is replaced, so a malformed or
    truncated file leaves the loaded edition in place. Loading the same file again
    changes nothing. The load is one audit row. Exit code 1 when a source failed, 6 when the
    audit trail cannot record (nothing is loaded).
    """
    from curbside.cli._audit import operator_audited, operator_entry
    from curbside.coverage.loading import load_directory

    with app_context() as core:
        with operator_audited(core, operator_entry(core, "coverage.load")) as scope:
            with _load_bars(enabled=stderr_is_tty() and not as_json) as progress:
                report = load_directory(core.coverage_store, directory, progress)
            _record_load(scope, report)
    if as_json:
        echo_json(report.to_dict())
    else:
        _print_load(report)
    if report.failed:
        raise SystemExit(1)


def _record_load(scope: Any, report: Any) -> None:
    """The load's row: each source's status and edition, the sources it changed or failed on."""
    scope.update(
        sources=tuple(s.source for s in report.sources if s.status in ("loaded", "failed")),
        outcome="failed" if report.failed else "ok",
        details={
            "status": {s.source: s.status for s in report.sources},
            "editions": {s.source: s.edition for s in report.sources if s.edition},
            "error_codes": sorted({s.error_code for s in report.failed if s.error_code}),
        },
    )


def _load_bars(*, enabled: bool) -> Any:
    """The ingest bars plus one for reading the source file (built here: rich loads only for a load)."""
    from curbside.cli._progress import RichProgress

    class LoadBars(RichProgress):
        def reading(self, name: str, total_bytes: int) -> None:
            self._reading = self._progress.add_task(f"read {name}", total=total_bytes)

        def read(self, done_bytes: int) -> None:
            self._progress.update(self._reading, completed=done_bytes)

    return LoadBars(enabled=enabled)


def _print_load(report: Any) -> None:
    marks = {"loaded": "+", "unchanged": "=", "skipped": "-", "failed": "!"}
    for s in report.sources:
        click.echo(f"{marks[s.status]} {s.source}: {s.message}", err=s.status == "failed")
        if s.counts:
            counts = ", ".join(f"{v:,} {k.replace('_', ' ')}" for k, v in s.counts.items())
            click.echo(f"    rows: {counts}")
        if s.source == "ohip" and "codes_found" in s.counts:
            click.echo(f"    {_parse_report(s.counts)}")
        if s.passages:
            p = s.passages
            click.echo(
                f"    passages (namespace {s.source}): {p['ingested']} documents indexed, {p['unchanged']} unchanged, "
                f"{p['failed']} failed, {p['removed']} removed; {p['chunks']:,} chunks"
            )
        click.echo(f"    {s.seconds:.1f} s")
    click.echo(f"\n{len(report.sources)} source(s) in {report.seconds:.1f} s")


def _parse_report(r: dict[str, Any]) -> str:
    """The Schedule's parse report in one line: how many codes got a fee the parser could align."""
    share = r["codes_with_fee"] / r["codes_found"] if r.get("codes_found") else 0.0
    text = f"parse report: {r['codes_found']:,} codes found, {r['codes_with_fee']:,} with an aligned fee ({share:.1%}"
    if "codes_fee_read" in r:  # a report from parser version 5 on: a fee read, or I.C (the text prints none)
        read = r["codes_fee_read"] / r["codes_found"] if r.get("codes_found") else 0.0
        text += f": {r['codes_fee_read']:,} read ({read:.1%}), {r['codes_no_fee']:,} I.C or no fee of their own"
    text += f"), {r['codes_fee_unknown']:,} whose fee could not be aligned (marked 'fee unknown', never guessed)"
    if "fees_cross_checked" in r:
        text += (
            f"; {r['fees_cross_checked']:,} fees stated again by the Schedule's Numeric Index, "
            f"{r.get('fee_disagreements', 0)} disagreeing"
        )
    if r.get("listings_on_cross_references"):  # parser version 6 on: their cross-check is not independent
        text += (
            f"; {r['listings_on_cross_references']:,} fees aligned only because the cross-references bear the "
            f"pairing out ({r.get('codes_on_cross_references', 0):,} codes have no other)"
        )
    return text


def _lowest_shares(r: dict[str, Any], count: int = 5) -> list[str]:
    """The sections with the lowest share of codes with a fee (of those listing at least 5 codes)."""
    rows = [x for x in r.get("section_shares", []) if x.get("codes", 0) >= 5]
    return [
        f"{x['section']}: {x['codes_with_fee']}/{x['codes']} codes with a fee"
        + (f" ({x['codes_no_fee']} of them I.C or no fee of their own)" if x.get("codes_no_fee") else "")
        for x in rows[:count]
    ]


@coverage_group.command("status")
@json_option
def status(as_json: bool) -> None:
    """Show the loaded edition of each coverage source and its passages."""
    from curbside.coverage.status import coverage_status

    with app_context() as core:
        data = coverage_status(core.coverage_store)
    if as_json:
        echo_json(data)
        return
    for source in data["sources"]:
        if not source["loaded"]:
            click.echo(f"{source['source']}: not loaded ({source['hint']})")
            continue
        click.echo(f"{source['source']}: {source['edition']}")
        click.echo(f"    file {source['file']} (sha256 {source['sha256'][:12]}…), loaded {source['loaded_at']}")
        click.echo("    rows: " + ", ".join(f"{v:,} {k.replace('_', ' ')}" for k, v in source["counts"].items()))
        if "parse_report" in source:
            click.echo(f"    {_parse_report(source['parse_report'])}")
            for line in _lowest_shares(source["parse_report"]):
                click.echo(f"      lowest: {line}")
        p = source["passages"]
        click.echo(
            f"    passages (namespace {source['namespace']}): {p['documents']} documents, {p['chunks']:,} chunks"
        )
