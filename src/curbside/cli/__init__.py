"""The ``curbside`` command line. Heavy parts load inside commands, never at import."""

from __future__ import annotations

import click

from curbside.cli._common import CurbsideGroup

__all__ = ["cli", "main"]


@click.group(cls=CurbsideGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="curbside")
def cli() -> None:
    """Curbside: a clinical consult engine with grounded, cited answers.

    Data lives in CURBSIDE_HOME (default ~/.curbside). Start with
    `curbside ingest FILE…`, then `curbside search "question"`.
    """


def _register() -> None:
    from curbside.cli import (
        ask,
        audit,
        calc,
        chat,
        coverage,
        demo,
        ehr,
        evaluate,
        guidelines,
        jobs,
        kb,
        mcp,
        models,
        search,
        serve,
        sessions,
        tool,
        turn,
        users,
    )

    for command in (
        kb.ingest,
        kb.remove,
        kb.reindex,
        jobs.jobs,
        kb.status,
        search.search,
        ask.ask,
        serve.serve,
        tool.tool,
        turn.turn,
        chat.chat,
        calc.calc,
        mcp.mcp,
        coverage.coverage_group,
        guidelines.guidelines_group,
        ehr.ehr_group,
        demo.demo,
        evaluate.eval_group,
        users.users_group,
        sessions.sessions_group,
        audit.audit_group,
        models.models_group,
    ):
        cli.add_command(command)


_register()


def main() -> None:
    cli()
