"""CLI plumbing: the app object per invocation, JSON output, and the one place
domain errors become messages and exit codes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from curbside.errors import CurbsideError

__all__ = ["CurbsideGroup", "app_context", "echo_json", "json_option"]

json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


class CurbsideGroup(click.Group):
    """Turns CurbsideError into 'Error [CODE]: message' and its exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CurbsideError as exc:
            if os.environ.get("CURBSIDE_RAISE_ERRORS") == "1":
                raise
            click.echo(f"Error [{exc.code}]: {exc.message}", err=True)
            ctx.exit(exc.exit_code)


@contextmanager
def app_context() -> Iterator[Any]:
    from pydantic import ValidationError as PydanticValidationError

    from curbside.app import Curbside
    from curbside.errors import ConfigError
    from curbside.settings import Settings

    try:
        settings = Settings()
    except PydanticValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"Invalid CURBSIDE_* settings: {problems}") from exc
    _configure_logging_once(settings)
    app = Curbside(settings)
    try:
        yield app
    finally:
        app.close()


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def stderr_is_tty() -> bool:
    return sys.stderr.isatty()


_logging_configured = False


def _configure_logging_once(settings: Any) -> None:
    global _logging_configured
    if not _logging_configured:
        from curbside.logs import configure_logging

        configure_logging(settings)
        _logging_configured = True
