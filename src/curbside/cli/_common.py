"""CLI plumbing: the application object (``core``) per invocation, JSON output, and the one place
domain errors become messages and exit codes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from curbside.cli._exit import exit_code_for
from curbside.errors import CurbsideError

__all__ = ["CurbsideGroup", "JsonCommand", "app_context", "echo_json", "json_errors", "json_option"]

_JSON_ERRORS = "curbside.json_errors"  # ctx.meta key (shared by nested contexts): print errors as JSON
_RAW_ARGS = "curbside.raw_args"


def _remember_json(ctx: click.Context, _: click.Parameter, value: bool) -> bool:
    if value:
        json_errors(ctx)
    return value


json_option = click.option(
    "--json",
    "as_json",
    is_flag=True,
    is_eager=True,  # before the other options, so their errors are JSON too
    callback=_remember_json,
    help='Print machine-readable JSON; errors too, as {"error": {"code", "message"}} (the HTTP API\'s shape).',
)


def json_errors(ctx: click.Context) -> None:
    """From here on, errors print as JSON."""
    ctx.meta[_JSON_ERRORS] = True


class JsonCommand(click.Command):
    """A command whose output is always JSON (``curbside tool``): its errors, usage errors included, are JSON too."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        json_errors(ctx)
        return super().parse_args(ctx, args)


class CurbsideGroup(click.Group):
    """Turns CurbsideError into 'Error [CODE]: message' and its exit code; with --json, into
    ``{"error": {"code", "message"}}`` on stdout, usage errors included (VALIDATION_ERROR)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_RAW_ARGS] = list(args)  # a usage error can come before --json is parsed
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CurbsideError as exc:
            if os.environ.get("CURBSIDE_RAISE_ERRORS") == "1":
                raise
            if _wants_json(ctx):
                _echo_error(exc.code, exc.message)
            else:
                click.echo(f"Error [{exc.code}]: {exc.message}", err=True)
            ctx.exit(exit_code_for(exc.code))
        except click.ClickException as exc:
            if not _wants_json(ctx):
                raise  # click prints usage and the message itself
            _echo_error("VALIDATION_ERROR", exc.format_message())
            ctx.exit(exc.exit_code)


def _wants_json(ctx: click.Context) -> bool:
    if ctx.meta.get(_JSON_ERRORS):
        return True
    raw: list[str] = ctx.meta.get(_RAW_ARGS, [])
    options = raw[: raw.index("--")] if "--" in raw else raw
    return "--json" in options


def _echo_error(code: str, message: str) -> None:
    echo_json({"error": {"code": code, "message": message}})


@contextmanager
def app_context(*, phi_in_child: bool = False) -> Iterator[Any]:
    """The application for one command. ``phi_in_child``: its PHI detector loads in a child process, started
    before anything else here, so it loads on the other core while this one imports and works."""
    child = None
    if phi_in_child:
        from curbside.phi import detector_loaded

        if not detector_loaded():
            from curbside.phi.child import ChildDetector

            child = ChildDetector()
    try:
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
        core = Curbside(settings)
    except BaseException:
        if child is not None:
            child.close()
        raise
    try:
        if child is not None:
            core.detect_phi_in_child(child)
        yield core
    finally:
        core.close()


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
