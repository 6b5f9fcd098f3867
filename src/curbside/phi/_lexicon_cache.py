"""The built ``Lexicon``, kept between processes: building it reads and indexes six word lists
(about a second of every cold start); reading it back from one ``marshal`` file takes about half that.

The file lives in the cache directory (``CURBSIDE_CACHE_DIR``, else ``$XDG_CACHE_HOME/curbside``,
else ``~/.cache/curbside``) and its name carries a digest of everything the lexicon is made from:
the code that builds it, the clinical terms, and the identity (size, mtime) of each installed word
list and of wordfreq's reader. A changed input therefore reads as a miss and is rebuilt. Files are
written atomically; one that cannot be read is rebuilt silently, and a directory that cannot be
written only means no cache. Files of earlier inputs are left alone (another checkout may still use
them; each is about 10 MB). The lists are public word lists: the file holds no PHI.

``marshal`` rather than ``pickle``: it can only produce plain values (str, int, float, tuple,
frozenset, dict), never call code, so a tampered file can do no more than fail the checks below.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import logging
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import fields
from importlib.util import find_spec
from pathlib import Path

from curbside.phi._lexicon import Lexicon

__all__ = ["cache_directory", "cached_lexicon"]

log = logging.getLogger(__name__)

_FORMAT = 1  # bump when the file's layout changes without the lexicon's code changing
_FIELDS = tuple(f.name for f in fields(Lexicon))
_PLAIN = (frozenset, dict, tuple, int)

# The installed files the lexicon is built from (package, path inside it); see _lexicon.
_PACKAGE_FILES = (
    ("names", "dist.all.last"),
    ("names", "dist.female.first"),
    ("names", "dist.male.first"),
    ("english_words", "data/web2_alpha.pickle"),
    ("wordfreq", "__init__.py"),  # the reader turns its packed lists into frequencies
    ("wordfreq", "data/large_en.msgpack.gz"),
    ("geotext", "data/nationalities.txt"),
    ("geotext", "data/cities15000.txt"),
    ("geotext", "data/countryInfo.txt"),
)
_OWN_FILES = ("_lexicon.py", "_lexicon_cache.py", "data/clinical_terms.txt")  # hashed: they change in place


def cache_directory() -> Path:
    """Where rebuildable, PHI-free files go: ``CURBSIDE_CACHE_DIR``, else the user's cache directory."""
    configured = os.environ.get("CURBSIDE_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "curbside"


def cached_lexicon(build: Callable[[], Lexicon], directory: Path | None = None) -> Lexicon:
    """The lexicon from the cache file for the current inputs, else ``build()`` (then saved)."""
    try:
        path = (directory or cache_directory()) / f"phi-lexicon-{_inputs_digest()}.marshal"
    except (OSError, ValueError, RuntimeError) as exc:  # an input not found: build without a cache
        log.debug("PHI lexicon cache unavailable (%s)", exc)
        return build()
    lexicon = _read(path)
    if lexicon is None:
        lexicon = build()
        _write(path, lexicon)
    return lexicon


def _inputs_digest() -> str:
    digest = hashlib.blake2b(digest_size=10)
    digest.update(f"{_FORMAT} {marshal.version} {sys.version_info[:2]}".encode())
    for package, name in _PACKAGE_FILES:
        stat = (_package_dir(package) / name).stat()
        digest.update(f"{package}/{name} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    here = Path(__file__).parent
    for name in _OWN_FILES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def _package_dir(package: str) -> Path:
    """The installed package's directory, found without importing it (geotext indexes itself on import)."""
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"package {package!r} is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _read(path: Path) -> Lexicon | None:
    try:
        data = _without_gc(marshal.loads, path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, EOFError, ValueError, TypeError) as exc:
        log.debug("PHI lexicon cache %s unreadable (%s); rebuilding it", path, exc)
        return None
    if not (isinstance(data, dict) and tuple(data) == _FIELDS and all(isinstance(v, _PLAIN) for v in data.values())):
        log.debug("PHI lexicon cache %s is not a lexicon; rebuilding it", path)
        return None
    return Lexicon(**data)


def _without_gc(load: Callable[[bytes], object], blob: bytes) -> object:
    """``load(blob)`` with the cyclic collector paused: a million new strings and tuples would set it off
    again and again, for a third of the time, and none of them can form a cycle."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return load(blob)
    finally:
        if enabled:
            gc.enable()


def _write(path: Path, lexicon: Lexicon) -> None:
    blob = marshal.dumps({name: getattr(lexicon, name) for name in _FIELDS})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".phi-lexicon-")
    except OSError as exc:
        log.debug("PHI lexicon cache not written to %s (%s)", path, exc)
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(blob)
        os.replace(temporary, path)  # readers see no file or the whole file, never half of one
    except OSError as exc:
        log.debug("PHI lexicon cache not written to %s (%s)", path, exc)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
