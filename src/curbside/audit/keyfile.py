"""The audit key: 32 random bytes in a file only its owner may read, outside the database.

Stored as 64 hex characters so it can be copied into a password manager or a
sealed envelope. A key that others could read, that has the wrong length, or that
is missing while rows exist is refused: each would let a forgery pass or make the
trail unverifiable without anyone noticing.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from curbside.errors import ConfigError

__all__ = ["KEY_BYTES", "create_key_file", "read_key_file"]

KEY_BYTES = 32


def read_key_file(path: Path) -> bytes:
    """The key in ``path``; ConfigError when the file is missing, too open or malformed."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise ConfigError(f"The audit key file {str(path)!r} does not exist.") from None
    except OSError as exc:
        raise ConfigError(f"Cannot read the audit key file {str(path)!r}: {exc.strerror}.") from exc
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"The audit key {str(path)!r} is not a regular file.")
    if info.st_mode & 0o077:
        raise ConfigError(
            f"The audit key file {str(path)!r} is readable or writable by group or others "
            f"(mode {stat.S_IMODE(info.st_mode):04o}); whoever reads it can forge the audit trail. "
            f"Run: chmod 600 {path}"
        )
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Cannot read the audit key file {str(path)!r}: {exc}.") from exc
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ConfigError(
            f"The audit key file {str(path)!r} does not hold hexadecimal text; "
            f"it must hold {2 * KEY_BYTES} hex characters ({KEY_BYTES} bytes). Restore it from your backup."
        ) from None
    if len(key) != KEY_BYTES:
        raise ConfigError(
            f"The audit key in {str(path)!r} is {len(key)} bytes long; it must be {KEY_BYTES} bytes "
            f"({2 * KEY_BYTES} hex characters). Restore it from your backup."
        )
    return key


def create_key_file(path: Path) -> bytes:
    """Write a new random key to ``path`` (0600) unless another process just did; return the key in the file.

    The key is written to a private temporary file and linked into place, so no reader
    ever sees a half-written key and two processes starting together agree on one key.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process created it first: use theirs
    finally:
        temporary.unlink(missing_ok=True)
    return read_key_file(path)
