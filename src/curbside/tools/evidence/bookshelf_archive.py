"""Check a Bookshelf book package and extract its chapter ``.nxml`` safely, within size limits.

Extraction trusts nothing in the archive: every member passes ``tarfile.data_filter`` (no absolute
paths, nothing outside the target, no device files, no links leaving it), plus our own checks (no
absolute or ``..`` names at all, a member count and a total size read from the headers before any
file is written); an archive failing one is rejected whole and deleted. Links are never extracted;
names are flattened to ``<accession>_<basename>.nxml`` (unique doc keys across books, whose
chapters are often all called ``ch1.nxml``), written with exclusive create into a fresh staging
directory that replaces the book's directory only once every file is in.
"""

from __future__ import annotations

import re
import shutil
import tarfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from curbside.errors import size_text
from curbside.kb.loaders import skip_reason

if TYPE_CHECKING:
    from curbside.tools.evidence.bookshelf_fetch import GuidelinePaths

__all__ = ["ArchiveLimits", "ArchiveRejected", "Extracted", "extract_nxml"]

MiB = 1024 * 1024
ARCHIVE_MAX_BYTES = 512 * MiB  # one book's package (PDFs and figures included) as downloaded
MAX_MEMBERS = 2_000  # files in one package; a WHO guideline has tens to a few hundred
MAX_TOTAL_BYTES = 512 * MiB  # the package's contents, as its headers declare them (a gzip bomb stops here)
MAX_NXML_BYTES = 64 * MiB  # one chapter's XML
_COPY_BLOCK = 1 * MiB
_SAFE_CHARS = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    download_bytes: int = ARCHIVE_MAX_BYTES
    members: int = MAX_MEMBERS
    total_bytes: int = MAX_TOTAL_BYTES
    nxml_bytes: int = MAX_NXML_BYTES


class ArchiveRejected(Exception):
    """An archive that fails verification: its book fails with this reason and the archive is deleted.

    Never leaves ``fetch_guidelines`` (it becomes the book's failure), hence not a ``CurbsideError``.
    """


@dataclass(slots=True)
class Extracted:
    files: list[str]
    skipped_parts: int
    notes: list[str]


def extract_nxml(archive: Path, paths: GuidelinePaths, accession: str, limits: ArchiveLimits) -> Extracted:
    """Verify ``archive`` whole, then write its chapter ``.nxml`` into ``paths.book_dir(accession)``."""
    staging = paths.nxml / f".{accession}.part"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        extracted = _extract(archive, staging, accession, limits)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    final = paths.book_dir(accession)
    if final.exists():
        shutil.rmtree(final)
    staging.rename(final)
    return extracted


def _extract(archive: Path, staging: Path, accession: str, limits: ArchiveLimits) -> Extracted:
    try:
        with tarfile.open(archive, "r:gz") as tar:
            chosen, skipped_parts, notes = _verify(tar, staging, limits)
            files: list[str] = []
            taken: set[str] = set()
            for member in sorted(chosen, key=lambda m: m.offset_data):  # forward through the gzip stream
                name = _flat_name(member.name, accession, taken)
                _write(tar, member, staging / name, limits)
                files.append(name)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise ArchiveRejected(f"not a readable gzip tar archive ({type(exc).__name__}: {exc})") from exc
    return Extracted(sorted(files), skipped_parts, notes)


def _verify(tar: tarfile.TarFile, staging: Path, limits: ArchiveLimits) -> tuple[list[tarfile.TarInfo], int, list[str]]:
    """Read every header (nothing written yet): the chapter .nxml members to extract, parts left out, notes."""
    chosen: list[tarfile.TarInfo] = []
    skipped_parts = links = 0
    total = count = 0
    for member in tar:
        count += 1
        if count > limits.members:
            raise ArchiveRejected(f"more than {limits.members:,} members")
        name = member.name
        parts = PurePosixPath(name).parts
        if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name) or ".." in parts or "\\" in name:
            raise ArchiveRejected(f"member {name[:120]!r} has an absolute or '..' path")
        try:
            tarfile.data_filter(member, str(staging))
        except tarfile.FilterError as exc:
            raise ArchiveRejected(f"member {name[:120]!r} is unsafe ({exc})") from exc
        if member.isdir():
            continue
        if not member.isreg():
            links += 1  # links (within the package, else data_filter refused them) are never extracted
            continue
        total += member.size
        if total > limits.total_bytes:
            raise ArchiveRejected(f"its contents exceed {size_text(limits.total_bytes)}")
        basename = PurePosixPath(name).name
        if not basename.lower().endswith(".nxml"):
            continue  # PDFs, figures
        if skip_reason(Path(basename)):
            skipped_parts += 1
            continue
        if member.size > limits.nxml_bytes:
            raise ArchiveRejected(
                f"member {name[:120]!r} is {size_text(member.size)}, over {size_text(limits.nxml_bytes)}"
            )
        chosen.append(member)
    if count == 0:
        raise ArchiveRejected("it is empty")
    notes = [f"{links} link(s) not extracted"] if links else []
    return chosen, skipped_parts, notes


def _flat_name(member_name: str, accession: str, taken: set[str]) -> str:
    """``<accession>_<basename>.nxml``, limited to safe characters, unique within the book."""
    stem = PurePosixPath(member_name).name[: -len(".nxml")]
    stem = _SAFE_CHARS.sub("-", stem).strip("-.") or "part"
    base = f"{accession}_{stem}"[:180]
    name, n = f"{base}.nxml", 2
    while name.lower() in taken:
        name, n = f"{base}-{n}.nxml", n + 1
    taken.add(name.lower())
    return name


def _write(tar: tarfile.TarFile, member: tarfile.TarInfo, dest: Path, limits: ArchiveLimits) -> None:
    source = tar.extractfile(member)
    if source is None:
        raise ArchiveRejected(f"member {member.name[:120]!r} cannot be read")
    written = 0
    with source, dest.open("xb") as out:  # "x": never overwrite, never follow a link planted there
        while block := source.read(_COPY_BLOCK):
            written += len(block)
            if written > min(member.size, limits.nxml_bytes):
                raise ArchiveRejected(f"member {member.name[:120]!r} holds more than its header declares")
            out.write(block)
    if written != member.size:
        raise ArchiveRejected(f"member {member.name[:120]!r} is truncated ({written:,} of {member.size:,} bytes)")
