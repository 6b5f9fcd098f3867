"""The head anchor: the trail's row count and last MAC, in a small MACed file beside the key.

Deleting the last rows (or all of them) leaves a chain that is valid on its own;
only a record kept outside the table shows that rows are gone. The file is replaced
atomically (write, fsync, rename), so a reader sees the old head or the new one.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from curbside.audit.chain import GENESIS_MAC, head_mac
from curbside.errors import AuditIntegrityError

__all__ = ["EMPTY_HEAD", "Head", "read_head", "write_head"]


@dataclass(frozen=True, slots=True)
class Head:
    count: int  # seq of the last row (rows run 1..count)
    last_mac: str


def read_head(path: Path, key: bytes) -> Head | None:
    """The head in ``path``, None when there is no file; AuditIntegrityError when it is unreadable or forged."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AuditIntegrityError(f"Cannot read the audit head {str(path)!r}: {exc.strerror}.") from exc
    try:
        data = json.loads(text)
        count, last_mac, mac = data["count"], data["last_mac"], data["mac"]
        valid_types = isinstance(count, int) and count >= 0 and isinstance(last_mac, str) and isinstance(mac, str)
    except (ValueError, KeyError, TypeError):
        valid_types = False
    if not valid_types:
        raise AuditIntegrityError(f"The audit head {str(path)!r} is not a head file (it was edited or corrupted).")
    if not hmac.compare_digest(mac, head_mac(key, count, last_mac)):
        raise AuditIntegrityError(
            f"The audit head {str(path)!r} fails its MAC: it was edited, or it was written with another key."
        )
    return Head(count=count, last_mac=last_mac)


def write_head(path: Path, key: bytes, head: Head) -> None:
    data = {
        "count": head.count,
        "last_mac": head.last_mac,
        "updated_at": datetime.now(UTC).isoformat(timespec="microseconds"),
        "mac": head_mac(key, head.count, head.last_mac),
    }
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data) + "\n")
            handle.flush()
            # no directory fsync: after a power cut the old head may reappear, which reads as a head
            # that lags the table by valid rows, a state verify accepts with a warning
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


EMPTY_HEAD = Head(count=0, last_mac=GENESIS_MAC)
