"""The trail through its public methods: rows, redaction, the chain, the head, and every kind of tampering."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import apsw
import pytest
from audit_helpers import entry, fake_redact, fill, hand_edit

from curbside.audit import WITHHELD, AuditTrail
from curbside.audit.chain import COLUMNS, GENESIS_MAC, canonical_json
from curbside.errors import AuditIntegrityError, ConfigError, ValidationError
from curbside.settings import Settings


def test_rows_hold_the_redacted_question_and_every_field(trail: AuditTrail) -> None:
    row = trail.append(
        entry(
            1,
            question="Can John Smith (416-555-0199) take metformin?",
            session="s-1",
            intent="question",
            tools=("odb.get",),
            model_used="local",
            phi=True,
        )
    )
    assert row["question"] == "Can [PERSON] ([PHONE]) take metformin?"
    assert (row["seq"], row["prev_mac"], row["user"], row["role"], row["session"]) == (
        1,
        GENESIS_MAC,
        "dr-a",
        "clinician",
        "s-1",
    )
    assert (row["sources"], row["tools"], row["model_used"], row["phi"], row["details"]) == (
        ["doc:v1:1"],
        ["odb.get"],
        "local",
        True,
        {"n": 1},
    )
    stored = apsw.Connection(str(trail.db_path)).execute("SELECT question FROM audit_log").fetchall()
    assert stored == [("Can [PERSON] ([PHONE]) take metformin?",)]  # the raw text is nowhere in the table


def test_a_failing_redactor_withholds_the_question(trail: AuditTrail) -> None:
    def broken(text: str) -> str:
        raise RuntimeError("model not loaded")

    trail.redact = broken
    assert trail.append(entry(1, question="John Smith, 416-555-0199"))["question"] == WITHHELD


def test_each_mac_is_an_hmac_of_the_canonical_row_chained_to_the_previous(trail: AuditTrail) -> None:
    fill(trail, 3)
    rows = list(trail.export(datetime(2000, 1, 1)))
    key = bytes.fromhex(trail.key_path.read_text().strip())
    previous = GENESIS_MAC
    for row in rows:
        stored = {name: row[name] for name in COLUMNS}
        for name in ("sources", "tools", "details"):
            stored[name] = canonical_json(stored[name])
        stored["phi"] = None if row["phi"] is None else int(row["phi"])
        expected = hmac.new(key, b"curbside-audit-row-v1\n" + canonical_json(stored).encode(), hashlib.sha256)
        assert row["prev_mac"] == previous and row["mac"] == expected.hexdigest()
        previous = row["mac"]
    head = json.loads(trail.head_path.read_text())
    assert (head["count"], head["last_mac"]) == (3, previous)


def test_a_fresh_trail_verifies_and_the_report_names_its_end(trail: AuditTrail) -> None:
    empty = trail.verify()
    assert empty.ok and empty.rows == 0 and empty.head_count == 0
    fill(trail, 5)
    report = trail.verify()
    assert report.ok and report.rows == 5 and report.last_row == 5 and report.head_count == 5
    assert report.first_bad_row is None and report.problem is None and report.warnings == []
    assert report.last_mac == list(trail.export(datetime(2000, 1, 1)))[-1]["mac"]
    assert report.key_fingerprint and len(report.key_fingerprint) == 16


def test_the_table_refuses_updates_and_deletes_through_ordinary_sql(trail: AuditTrail) -> None:
    fill(trail, 2)
    conn = apsw.Connection(str(trail.db_path))
    for sql in ("UPDATE audit_log SET outcome = 'x'", "DELETE FROM audit_log WHERE seq = 2"):
        with pytest.raises(apsw.ConstraintError, match="append-only"):
            conn.execute(sql)
    assert trail.verify().ok


# --- tampering: every kind is detected, and verify names the first bad row -------------------------------
def _swap_rows(a: int, b: int) -> list[str]:
    return [
        f"UPDATE audit_log SET seq = -1 WHERE seq = {a}",
        f"UPDATE audit_log SET seq = {a} WHERE seq = {b}",
        f"UPDATE audit_log SET seq = {b} WHERE seq = -1",
    ]


def _insert_forged(seq: int) -> str:
    columns = ", ".join([*COLUMNS, "mac"])
    values = (
        f"{seq}, '2030-01-01T00:00:00.000000+00:00', 'ask', 'mallory', 'admin', 'http', NULL, 'forged', NULL, "
        f"'[]', '[]', NULL, 0, 'answered', '{{}}', '{GENESIS_MAC}', '{'f' * 64}'"
    )
    return f"INSERT INTO audit_log ({columns}) VALUES ({values})"


@pytest.mark.parametrize(
    ("statements", "first_bad_row", "problem"),
    [
        (["UPDATE audit_log SET outcome = 'no_source' WHERE seq = 3"], 3, "Row 3 fails its MAC"),
        (["UPDATE audit_log SET user = 'someone-else' WHERE seq = 1"], 1, "Row 1 fails its MAC"),
        (["UPDATE audit_log SET question = 'John Smith' WHERE seq = 5"], 5, "Row 5 fails its MAC"),
        (["DELETE FROM audit_log WHERE seq = 3"], 3, "Row 3 is missing"),
        (["DELETE FROM audit_log WHERE seq = 5"], 5, "the table ends at row 4: row 5 was deleted."),
        (["DELETE FROM audit_log WHERE seq >= 4"], 4, "rows 4–5 were deleted"),
        (["DELETE FROM audit_log"], 1, "The head records 5 rows but the table ends at row 0"),
        (_swap_rows(2, 3), 2, "Row 2 does not follow row 1"),
        ([_insert_forged(6)], 6, "Row 6 does not follow row 5"),
        ([_insert_forged(0)], 0, "Row 0 is out of sequence"),
        (
            [
                "UPDATE audit_log SET seq = seq + 100 WHERE seq >= 3",
                "UPDATE audit_log SET seq = seq - 99 WHERE seq >= 103",
            ]
            + [_insert_forged(3).replace(f"'{GENESIS_MAC}'", "(SELECT mac FROM audit_log WHERE seq = 2)")],
            3,
            "Row 3 fails its MAC",
        ),
    ],
    ids=[
        "edit-outcome",
        "edit-user",
        "edit-question",
        "delete-middle",
        "delete-last",
        "delete-last-two",
        "delete-all",
        "reorder",
        "append-forged",
        "insert-before-first",
        "insert-middle",
    ],
)
def test_tampering_is_detected_at_the_first_bad_row(
    trail: AuditTrail, statements: list[str], first_bad_row: int, problem: str
) -> None:
    fill(trail, 5)
    hand_edit(trail, *statements)
    report = trail.verify()
    assert not report.ok
    assert report.first_bad_row == first_bad_row
    assert report.problem is not None and problem in report.problem


def test_a_dropped_table_is_reported_not_raised(trail: AuditTrail) -> None:
    fill(trail, 2)
    hand_edit(trail, "DROP TABLE audit_log")
    report = trail.verify()
    assert not report.ok and "cannot be read" in (report.problem or "")


def test_a_chain_recomputed_with_another_key_is_detected(trail: AuditTrail) -> None:
    """Someone with the database but not the key rebuilds every MAC (and the head) with a key of their own."""
    from curbside.audit.chain import head_mac, row_mac

    fill(trail, 4)
    hand_edit(trail, "UPDATE audit_log SET outcome = 'no_source' WHERE seq = 2")
    their_key = secrets.token_bytes(32)
    conn = apsw.Connection(str(trail.db_path))
    names = [*COLUMNS, "mac"]
    rows = [
        dict(zip(names, r, strict=True)) for r in conn.execute(f"SELECT {', '.join(names)} FROM audit_log ORDER BY seq")
    ]
    previous = GENESIS_MAC
    for row in rows:
        row["prev_mac"] = previous
        previous = row_mac(their_key, row)
        conn.execute(
            "UPDATE audit_log SET prev_mac = ?, mac = ? WHERE seq = ?", (row["prev_mac"], previous, row["seq"])
        )
    conn.close()
    trail.head_path.write_text(
        json.dumps({"count": 4, "last_mac": previous, "mac": head_mac(their_key, 4, previous)}), encoding="utf-8"
    )
    report = trail.verify()
    assert not report.ok and report.first_bad_row == 1 and "Row 1 fails its MAC" in (report.problem or "")


# --- the head anchor ----------------------------------------------------------------------------------
def test_an_edited_head_is_detected_and_stops_appends(trail: AuditTrail) -> None:
    fill(trail, 3)
    head = json.loads(trail.head_path.read_text())
    head["count"] = 2
    trail.head_path.write_text(json.dumps(head))
    report = trail.verify()
    assert not report.ok and "fails its MAC" in (report.problem or "")
    with pytest.raises(AuditIntegrityError, match="fails its MAC"):
        trail.append(entry(4))


@pytest.mark.parametrize("content", ["", "not json", '{"count": "3"}', "[]"])
def test_a_garbled_head_is_an_integrity_error(trail: AuditTrail, content: str) -> None:
    fill(trail, 1)
    trail.head_path.write_text(content)
    assert not trail.verify().ok
    with pytest.raises(AuditIntegrityError, match="not a head file"):
        trail.check_writable()


def test_a_truncated_trail_refuses_appends_until_acknowledged(trail: AuditTrail) -> None:
    fill(trail, 4)
    hand_edit(trail, "DELETE FROM audit_log WHERE seq >= 3")
    with pytest.raises(AuditIntegrityError, match="row 4 is gone"):
        trail.append(entry(5))
    assert trail.count() == 2  # the refused row was not written
    row = trail.acknowledge("restored last night's backup; checked by J. Admin", user="operator", role="operator")
    assert row["seq"] == 3 and row["action"] == "audit.acknowledge"
    assert row["details"]["head_before"]["count"] == 4 and "row 4 is gone" in row["details"]["problem"]
    trail.append(entry(6))
    report = trail.verify()
    assert report.ok and report.rows == 4
    assert any(w.startswith("Row 3 acknowledges a problem") for w in report.warnings)


def test_a_missing_head_is_detected_and_can_be_acknowledged(trail: AuditTrail) -> None:
    fill(trail, 2)
    trail.head_path.unlink()
    report = trail.verify()
    assert not report.ok and "head" in (report.problem or "") and "missing" in (report.problem or "")
    with pytest.raises(AuditIntegrityError, match="missing"):
        trail.append(entry(3))
    with pytest.raises(ValidationError, match="reason"):
        trail.acknowledge("  ", user="operator", role="operator")
    trail.acknowledge("head file deleted by a cleanup script", user="operator", role="operator")
    assert trail.verify().ok


def test_a_head_lagging_by_valid_rows_is_accepted_with_a_warning(trail: AuditTrail) -> None:
    """A crash between a row's commit and the head's rewrite leaves the old head: valid rows after it are fine."""
    fill(trail, 2)
    old_head = trail.head_path.read_bytes()
    trail.append(entry(3))
    trail.head_path.write_bytes(old_head)
    report = trail.verify()
    assert report.ok and report.head_count == 2
    assert report.warnings and "rows 3–3 are valid and newer" in report.warnings[0]
    trail.append(entry(4))  # the next append moves the head past them
    assert trail.verify().warnings == [] and json.loads(trail.head_path.read_text())["count"] == 4


def test_a_lagging_head_does_not_cover_a_forged_row(trail: AuditTrail) -> None:
    fill(trail, 2)
    hand_edit(trail, _insert_forged(3).replace(f"'{GENESIS_MAC}'", "(SELECT mac FROM audit_log WHERE seq = 2)"))
    assert trail.verify().first_bad_row == 3
    with pytest.raises(AuditIntegrityError, match="Row 3 fails its MAC"):
        trail.append(entry(4))


# --- the key file -------------------------------------------------------------------------------------
def test_the_key_is_created_once_as_a_private_file(trail: AuditTrail) -> None:
    fill(trail, 1)
    assert trail.key_path.stat().st_mode & 0o777 == 0o600
    assert len(bytes.fromhex(trail.key_path.read_text().strip())) == 32
    assert trail.head_path.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    ("content", "mode", "message"),
    [
        (secrets.token_hex(32), 0o644, "readable or writable by group or others (mode 0644)"),
        (secrets.token_hex(32), 0o640, "chmod 600"),
        (secrets.token_hex(16), 0o600, "is 16 bytes long; it must be 32 bytes"),
        ("not a key at all", 0o600, "does not hold hexadecimal text"),
        ("", 0o600, "is 0 bytes long"),
    ],
)
def test_an_unsafe_or_malformed_key_file_is_refused(settings: Settings, content: str, mode: int, message: str) -> None:
    key_path = settings.home / "audit.key"
    key_path.parent.mkdir(parents=True)
    key_path.write_text(content)
    key_path.chmod(mode)
    trail = AuditTrail.from_settings(settings, redact=fake_redact)
    try:
        for action in (lambda: trail.append(entry(1)), trail.verify):
            with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
                action()
    finally:
        trail.close()


def test_a_missing_key_is_refused_once_rows_exist(trail: AuditTrail, settings: Settings) -> None:
    fill(trail, 2)
    trail.close()
    trail.key_path.unlink()
    again = AuditTrail.from_settings(settings, redact=fake_redact)
    try:
        with pytest.raises(ConfigError, match="missing, but the trail already has 2 rows"):
            again.verify()
        assert not again.key_path.exists()  # no new key was made over the old rows
    finally:
        again.close()


def test_a_missing_key_with_a_head_but_no_rows_is_refused(trail: AuditTrail, settings: Settings) -> None:
    trail.verify()  # creates the key and an empty head
    trail.close()
    trail.key_path.unlink()
    again = AuditTrail.from_settings(settings, redact=fake_redact)
    try:
        with pytest.raises(ConfigError, match="Restore the key"):
            again.append(entry(1))
    finally:
        again.close()


def test_a_configured_key_and_head_path_are_used(tmp_path: Path) -> None:
    secrets_dir = tmp_path / "secrets"
    settings = Settings(
        home=tmp_path / "home", audit_key_path=secrets_dir / "curbside.key", audit_head_path=secrets_dir / "head"
    )
    trail = AuditTrail.from_settings(settings, redact=fake_redact)
    try:
        fill(trail, 2)
        assert (secrets_dir / "curbside.key").exists() and (secrets_dir / "head").exists()
        assert not (settings.home / "audit.key").exists()
        assert trail.verify().ok
    finally:
        trail.close()


def test_another_key_cannot_verify_the_trail(trail: AuditTrail) -> None:
    fill(trail, 2)
    trail.close()
    trail.key_path.write_text(secrets.token_hex(32))
    report = trail.verify()
    assert not report.ok and report.first_bad_row == 1


# --- export ---------------------------------------------------------------------------------------------
def test_export_filters_by_time(trail: AuditTrail, tmp_path: Path) -> None:
    fill(trail, 3)
    rows = list(trail.export(datetime(2000, 1, 1)))
    middle = datetime.fromisoformat(rows[1]["at"])
    assert [r["seq"] for r in trail.export(middle)] == [2, 3]
    assert [r["seq"] for r in trail.export(datetime(2000, 1, 1), middle)] == [1]
    assert list(trail.export(datetime.now(UTC) + timedelta(days=1))) == []
    naive = middle.astimezone(UTC).replace(tzinfo=None)  # a time without a zone is UTC
    assert [r["seq"] for r in trail.export(naive)] == [2, 3]


def test_export_of_a_hand_broken_json_column_keeps_the_text(trail: AuditTrail) -> None:
    fill(trail, 1)
    hand_edit(trail, "UPDATE audit_log SET details = '{broken' WHERE seq = 1")
    (row,) = trail.export(datetime(2000, 1, 1))
    assert row["details"] == "{broken"


def test_copies_verify_against_their_own_head(trail: AuditTrail, settings: Settings, tmp_path: Path) -> None:
    """A backup of the whole home (database, key, head) is a trail that verifies on its own."""
    fill(trail, 3)
    trail.close()
    copy = tmp_path / "copy"
    shutil.copytree(settings.home, copy)
    again = AuditTrail.from_settings(Settings(home=copy), redact=fake_redact)
    try:
        assert again.verify().ok and again.verify().rows == 3
    finally:
        again.close()


def test_the_packages_public_names_all_resolve() -> None:
    import curbside.audit as audit
    import curbside.auth as auth

    assert sorted(audit.__all__) == sorted(audit._EXPORTS)
    for module in (audit, auth):
        for name in module.__all__:
            assert getattr(module, name) is not None, name
