"""The audit trail: append-only rows, each MACed and chained to the one before.

``append`` redacts the question, chains the row to the last one and moves the head
anchor, all under a file lock and an immediate SQLite transaction, so threads and
processes appending together keep one chain. It refuses to append when the table's
end does not match the head (rows deleted from the end, or a replaced head): a new
head over a truncated table would erase the evidence. ``acknowledge`` is the
operator's way past such a stop, and it leaves its own row saying what was found.
"""

from __future__ import annotations

import fcntl
import hmac
import json
import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curbside.audit.chain import COLUMNS, GENESIS_MAC, canonical_json, digest, row_mac
from curbside.audit.head import EMPTY_HEAD, Head, read_head, write_head
from curbside.audit.keyfile import create_key_file, read_key_file
from curbside.audit.verify import VerifyReport, verify_rows
from curbside.errors import AuditIntegrityError, ConfigError, ValidationError
from curbside.redaction import WITHHELD, redact_or_withhold

if TYPE_CHECKING:
    import apsw

    from curbside.settings import Settings
    from curbside.store.database import Database

__all__ = ["QUESTION_KEEP_CHARS", "WITHHELD", "AuditEntry", "AuditTrail", "Redactor", "utc_text"]

log = logging.getLogger("curbside.audit")

Redactor = Callable[[str], str]
_JSON_COLUMNS = ("sources", "tools", "details")
_INSERT = f"INSERT INTO audit_log ({', '.join(COLUMNS)}, mac) VALUES ({', '.join('?' * (len(COLUMNS) + 1))})"


@dataclass(frozen=True)
class AuditEntry:
    """One action to record. ``question`` is raw here; the trail redacts it before it is stored.

    ``details`` must hold no free text from users (it is stored as given): names,
    counts, codes and digests only.
    """

    action: str
    user: str
    role: str
    outcome: str
    channel: str | None = None
    session: str | None = None
    question: str | None = None
    intent: str | None = None
    sources: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    model_used: str | None = None
    phi: bool | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


# an over-long question (which the request was refused for) is kept cut to this many characters
QUESTION_KEEP_CHARS = 2000


class AuditTrail:
    """The trail in ``db_path``'s ``audit_log`` table, keyed by ``key_path``, anchored by ``head_path``.

    ``redact`` is the PHI redactor every question passes through; replaceable (e.g. in tests).
    """

    def __init__(self, db_path: Path, *, key_path: Path, head_path: Path, redact: Redactor) -> None:
        self.db_path = db_path
        self.key_path = key_path
        self.head_path = head_path
        self.lock_path = head_path.with_name(head_path.name + ".lock")
        self.redact = redact
        self._thread_lock = threading.Lock()
        self._lock_fd: int | None = None

    @classmethod
    def from_settings(cls, settings: Settings, *, redact: Redactor) -> AuditTrail:
        return cls(
            settings.db_path,
            key_path=settings.audit_key_path or settings.home / "audit.key",
            head_path=settings.audit_head_path or settings.home / "audit.head",
            redact=redact,
        )

    # --- the key -------------------------------------------------------------------------------
    @cached_property
    def key(self) -> bytes:
        """The HMAC key, created (with an empty head) only for a trail that has never recorded anything."""
        if self.key_path.exists():
            return read_key_file(self.key_path)
        with self._locked():
            if self.key_path.exists():  # another process created it while we waited
                return read_key_file(self.key_path)
            rows = self._db.scalar("SELECT COUNT(*) FROM audit_log")
            users = self._db.scalar("SELECT COUNT(*) FROM api_users")
            if rows or users or self.head_path.exists():
                raise ConfigError(
                    f"The audit key file {str(self.key_path)!r} is missing, but the trail already has {rows} rows "
                    f"and {users} API users signed with it. Restore the key from your backup (or point "
                    "CURBSIDE_AUDIT_KEY_PATH at it); a new key could not verify what the old one signed."
                )
            key = create_key_file(self.key_path)
            write_head(self.head_path, key, EMPTY_HEAD)
            log.info("created the audit key %s; keep a copy off this machine", self.key_path)
            return key

    # --- writing ------------------------------------------------------------------------------
    def append(self, entry: AuditEntry) -> dict[str, Any]:
        """Record ``entry``; returns the stored row (as ``export`` gives it). Raises AuditIntegrityError
        when the trail's end does not match its head."""
        values = self._stored_values(entry)  # redaction is the slow part: outside the lock
        key = self.key
        with self._locked():
            head = read_head(self.head_path, key)
            row = self._insert(values, key, lambda last: self._check_tail(head, last, key))
        return _exported(row)

    def check_writable(self) -> None:
        """Raise AuditIntegrityError now if ``append`` would refuse (so work is not done unrecorded)."""
        key = self.key
        with self._locked():
            head = read_head(self.head_path, key)
            last = self._db.one("SELECT seq, mac FROM audit_log ORDER BY seq DESC LIMIT 1")
            self._check_tail(head, last, key)

    def acknowledge(self, reason: str, *, user: str, role: str, channel: str | None = None) -> dict[str, Any]:
        """Record that the operator saw (and accepts) the trail's current state, and re-anchor the head there.

        For a trail ``append`` refuses: rows deleted from its end, a missing or replaced
        head. The row names what was wrong and the head it replaces, so the loss stays
        on the record; rows edited in the middle still fail ``verify``.
        """
        if not reason.strip():
            raise ValidationError("Give a reason for the acknowledgement (what happened, who checked it).")
        screened_reason = self._redacted(reason.strip()[:500])  # free text: screened like a question
        key = self.key
        with self._locked():
            try:
                head: Head | None = read_head(self.head_path, key)
                head_problem = None
            except AuditIntegrityError as exc:
                head, head_problem = None, exc.message
            last = self._db.one("SELECT seq, mac FROM audit_log ORDER BY seq DESC LIMIT 1")
            problem = head_problem
            if problem is None:
                try:
                    self._check_tail(head, last, key)
                except AuditIntegrityError as exc:
                    problem = exc.message
            entry = AuditEntry(
                action="audit.acknowledge",
                user=user,
                role=role,
                channel=channel,
                outcome="acknowledged",
                details={
                    "reason": screened_reason,
                    "problem": problem,
                    "head_before": None if head is None else {"count": head.count, "last_mac": head.last_mac},
                    "table_rows_before": last[0] if last else 0,
                },
            )
            row = self._insert(self._stored_values(entry, redact_question=False), key, lambda last: None)
        return _exported(row)

    def _insert(
        self, values: dict[str, Any], key: bytes, check: Callable[[tuple[Any, ...] | None], None]
    ) -> dict[str, Any]:
        """Chain ``values`` to the last row and store it, then move the head. Caller holds the lock."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")  # the write lock now, so no other connection slips a row in between
        try:
            last = db.one("SELECT seq, mac FROM audit_log ORDER BY seq DESC LIMIT 1")
            check(last)
            row = dict(values)
            row["seq"] = last[0] + 1 if last else 1
            row["prev_mac"] = last[1] if last else GENESIS_MAC
            row["at"] = datetime.now(UTC).isoformat(timespec="microseconds")
            row["mac"] = row_mac(key, row)
            db.execute(_INSERT, [row[name] for name in COLUMNS] + [row["mac"]])
            db.execute("COMMIT")
        except BaseException:
            with suppress(Exception):
                db.execute("ROLLBACK")
            raise
        # after the commit: a crash here leaves a head that lags by valid rows, which verify accepts
        write_head(self.head_path, key, Head(count=row["seq"], last_mac=row["mac"]))
        return row

    def _check_tail(self, head: Head | None, last: tuple[Any, ...] | None, key: bytes) -> None:
        """The table's end must be the head's row, or valid rows chained after it (a head write lost in a crash)."""
        fix = "Run `curbside audit verify`; once the cause is known, `curbside audit acknowledge --reason …` resumes."
        if head is None:
            raise AuditIntegrityError(
                f"The audit head {str(self.head_path)!r} is missing, so rows deleted from the end of the trail "
                f"could not be detected; nothing more is recorded until it is resolved. {fix}"
            )
        if head.count > 0:
            anchored = self._db.one("SELECT mac FROM audit_log WHERE seq = ?", (head.count,))
            if anchored is None:
                have = last[0] if last else 0
                raise AuditIntegrityError(
                    f"The audit head records {head.count} rows but row {head.count} is gone (the table ends at row "
                    f"{have}): rows were deleted from the trail. {fix}"
                )
            if not hmac.compare_digest(str(anchored[0]), head.last_mac):
                raise AuditIntegrityError(
                    f"Row {head.count} is not the row the audit head recorded: it was replaced. {fix}"
                )
        if last is not None and last[0] > head.count:
            cursor = self._db.execute(
                f"SELECT {', '.join(COLUMNS)}, mac FROM audit_log WHERE seq > ? ORDER BY seq", (head.count,)
            )
            report = verify_rows(_named(cursor), key, first_seq=head.count + 1, prev_mac=head.last_mac)
            if not report.ok:
                raise AuditIntegrityError(f"{report.problem} {fix}")

    def _stored_values(self, entry: AuditEntry, *, redact_question: bool = True) -> dict[str, Any]:
        question, cut = entry.question, ""
        if question and len(question) > QUESTION_KEEP_CHARS:  # refused as too long: enough to see what it was
            question, cut = question[:QUESTION_KEEP_CHARS], f" [truncated: {len(question):,} characters in all]"
        if question and redact_question:
            question = self._redacted(question)
        if question and cut and question != WITHHELD:
            question += cut
        return {
            "action": entry.action,
            "user": entry.user,
            "role": entry.role,
            "channel": entry.channel,
            "session": entry.session,
            "question": question,
            "intent": entry.intent,
            "sources": canonical_json(list(entry.sources)),
            "tools": canonical_json(list(entry.tools)),
            "model_used": entry.model_used,
            "phi": None if entry.phi is None else int(entry.phi),
            "outcome": entry.outcome,
            "details": canonical_json(dict(entry.details)),
        }

    def _redacted(self, text: str) -> str:
        redacted, failure = redact_or_withhold(self.redact, text)
        if failure is not None:  # the reason, not the text, goes to the log
            log.warning(
                "PHI redaction failed (%s); the question is withheld from the audit row", type(failure).__name__
            )
        return redacted

    # --- reading --------------------------------------------------------------------------------
    def verify(self) -> VerifyReport:
        """Check every row's MAC and link, and the head; the report names the first bad row."""
        key = self.key
        head: Head | None = None
        head_problem: str | None = None
        try:  # the head first, rows second: an append in between then reads as a lagging head, which is fine
            head = read_head(self.head_path, key)
        except AuditIntegrityError as exc:
            head_problem = exc.message
        with self._reader() as conn:
            try:
                counted = conn.execute("SELECT COUNT(*) FROM audit_log").fetchone()
                total = int(counted[0]) if counted else 0
                cursor = conn.execute(f"SELECT {', '.join(COLUMNS)}, mac FROM audit_log ORDER BY seq")
                anchor = head.count if head is not None else None
                report = verify_rows(_named(cursor), key, first_seq=1, prev_mac=GENESIS_MAC, anchor_seq=anchor)
            except _sql_errors() as exc:
                return VerifyReport(ok=False, rows=0, problem=f"The audit table cannot be read: {exc}.")
        report.rows = total
        report.key_fingerprint = digest(key, "key-fingerprint", "")[:16]
        return report.with_head(head, head_problem, self.head_path)

    def export(self, since: datetime, until: datetime | None = None) -> Iterator[dict[str, Any]]:
        """Rows with ``since <= at < until`` in order, JSON columns decoded; naive times are UTC."""
        low, high = utc_text(since), utc_text(until) if until else None
        sql = f"SELECT {', '.join(COLUMNS)}, mac FROM audit_log WHERE at >= ?"
        params: list[Any] = [low]
        if high is not None:
            sql += " AND at < ?"
            params.append(high)
        with self._reader() as conn:
            try:
                cursor = conn.execute(sql + " ORDER BY seq", params)
                for row in _named(cursor):
                    yield _exported(row)
            except _sql_errors() as exc:
                raise AuditIntegrityError(f"The audit table cannot be read: {exc}.") from exc

    def count(self) -> int:
        return int(self._db.scalar("SELECT COUNT(*) FROM audit_log"))

    # --- plumbing -------------------------------------------------------------------------------
    @cached_property
    def _db(self) -> Database:
        from curbside.store.database import Database

        return Database(self.db_path)  # its own connection: BEGIN IMMEDIATE must not meet another thread's work

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One appender at a time: a thread lock within the process, an flock across processes."""
        with self._thread_lock:
            if self._lock_fd is None:
                self.lock_path.parent.mkdir(parents=True, exist_ok=True)
                self._lock_fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    @contextmanager
    def _reader(self) -> Iterator[apsw.Connection]:
        """A short-lived connection reading one snapshot, so long reads never block appends."""
        import apsw

        conn = apsw.Connection(str(self.db_path), flags=apsw.SQLITE_OPEN_READWRITE)
        conn.set_busy_timeout(10_000)
        try:
            conn.execute("BEGIN")
            yield conn
        finally:
            with suppress(Exception):
                conn.execute("COMMIT")
            conn.close()

    def close(self) -> None:
        self.__dict__.pop("key", None)  # read again (and checked again) if the trail is used after closing
        if "_db" in self.__dict__:
            self._db.close()
            del self.__dict__["_db"]
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def utc_text(moment: datetime) -> str:
    """``moment`` as stored in ``at``: UTC, microseconds, so text order is time order."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _named(cursor: apsw.Cursor) -> Iterator[dict[str, Any]]:
    names = [*COLUMNS, "mac"]
    for values in cursor:
        yield dict(zip(names, values, strict=True))


def _exported(row: Mapping[str, Any]) -> dict[str, Any]:
    """A stored row for readers: JSON columns decoded (kept as text when a hand edit broke them), phi a bool."""
    out = dict(row)
    for name in _JSON_COLUMNS:
        with suppress(TypeError, ValueError):
            out[name] = json.loads(row[name])
    if isinstance(row["phi"], int):
        out["phi"] = bool(row["phi"])
    return out


def _sql_errors() -> tuple[type[Exception], ...]:
    import apsw

    return (apsw.SQLError, apsw.CorruptError, apsw.NotADBError)
