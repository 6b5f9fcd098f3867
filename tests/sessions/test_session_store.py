"""The session store on a real SQLite file: round trips, the last-N window, users kept apart, expiry on
an injected clock, purging, owner-only files, and refused input."""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import apsw
import pytest

from curbside.errors import ConfigError, NotFoundError, ValidationError
from curbside.sessions import SESSION_ID_PATTERN, Preferences, SessionStore

DAY = 86_400.0
T0 = 1_750_000_000.0  # 2025-06-15


class Clock:
    """Time that moves only when a test moves it."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, days: float) -> None:
        self.now += days * DAY


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[SessionStore]:
    s = SessionStore(tmp_path / "home" / "sessions.db", max_messages=10, ttl_days=7, clock=clock)
    yield s
    s.close()


def test_a_session_round_trips_messages_context_patient_and_preferences(store: SessionStore, clock: Clock) -> None:
    opened = store.open("dr.lee")
    sid = opened.session_id
    assert SESSION_ID_PATTERN.fullmatch(sid) and sid.startswith("s_") and len(sid) == 24
    assert opened.messages == [] and opened.context == {} and opened.patient_id is None
    assert opened.preferences == Preferences()

    store.append("dr.lee", sid, "user", "Latest potassium for this patient?")
    clock.advance(0.001)
    payload = {
        "citations": [{"n": 1, "kind": "tool", "tool": "ehr.get_observations"}],
        "tools": ["ehr.get_observations"],
    }
    store.append("dr.lee", sid, "assistant", "Potassium 5.8 mmol/L on 2025-06-14 [1].", payload)
    store.set_patient("dr.lee", sid, "b2f1c9e0-6a1d-4c3e-9f0a-1d2e3f4a5b6c")
    store.set_context("dr.lee", sid, condition="hyperkalaemia", findings=["K 5.8"], meds_proposed=[])
    store.set_preferences("dr.lee", sid, citation_style="AMA", specialty="  Internal\nmedicine ")

    with SessionStore(store.path, clock=clock) as again:  # another store object on the same file
        session = again.get("dr.lee", sid)
    assert [(m.role, m.text) for m in session.messages] == [
        ("user", "Latest potassium for this patient?"),
        ("assistant", "Potassium 5.8 mmol/L on 2025-06-14 [1]."),
    ]
    assert session.messages[0].payload is None and session.messages[1].payload == payload
    assert session.messages[0].at < session.messages[1].at
    assert session.patient_id == "b2f1c9e0-6a1d-4c3e-9f0a-1d2e3f4a5b6c"
    assert session.context == {"condition": "hyperkalaemia", "findings": ["K 5.8"], "meds_proposed": []}
    assert session.preferences == Preferences(
        citation_style="ama", answer_length="normal", specialty="Internal medicine"
    )
    assert session.created_at.timestamp() == T0 and session.updated_at.timestamp() == clock.now
    assert (session.expires_at - session.updated_at).days == 7


def test_open_with_a_client_id_creates_once_then_returns_the_same_session(store: SessionStore) -> None:
    first = store.open("dr.lee", "ward-7:bed.12")
    store.append("dr.lee", "ward-7:bed.12", "user", "hello")
    second = store.open("dr.lee", "ward-7:bed.12")
    assert second.session_id == first.session_id == "ward-7:bed.12"
    assert [m.text for m in second.messages] == ["hello"]
    assert store.open("dr.lee").session_id != store.open("dr.lee").session_id  # fresh ids never collide


def test_only_the_last_n_messages_are_kept(tmp_path: Path, clock: Clock) -> None:
    with SessionStore(tmp_path / "sessions.db", max_messages=3, clock=clock) as store:
        sid = store.open("dr.lee").session_id
        for i in range(1, 8):
            store.append("dr.lee", sid, "user" if i % 2 else "assistant", f"message {i}")
        assert [m.text for m in store.recent("dr.lee", sid)] == ["message 5", "message 6", "message 7"]
        assert [m.text for m in store.recent("dr.lee", sid, n=2)] == ["message 6", "message 7"]
        assert store.recent("dr.lee", sid, n=0) == []
        assert [m.text for m in store.get("dr.lee", sid).messages] == ["message 5", "message 6", "message 7"]
        assert _count(store, "messages") == 3  # trimmed in the file, not only in what is read


def test_another_users_session_is_not_found(store: SessionStore) -> None:
    sid = store.open("dr.lee").session_id
    store.append("dr.lee", sid, "user", "private question")
    for call in (
        lambda: store.get("dr.patel", sid),
        lambda: store.recent("dr.patel", sid),
        lambda: store.append("dr.patel", sid, "user", "intrusion"),
        lambda: store.set_context("dr.patel", sid, condition="x"),
        lambda: store.set_patient("dr.patel", sid, "p1"),
        lambda: store.set_preferences("dr.patel", sid, answer_length="short"),
    ):
        with pytest.raises(NotFoundError, match="No session with this id"):
            call()
    # the same id opened by another user is another, empty session
    theirs = store.open("dr.patel", sid)
    assert theirs.user == "dr.patel" and theirs.messages == []
    assert [i.session_id for i in store.list("dr.patel")] == [sid]
    assert [m.text for m in store.recent("dr.lee", sid)] == ["private question"]


def test_a_session_expires_ttl_days_after_its_last_write(store: SessionStore, clock: Clock) -> None:
    sid = store.open("dr.lee").session_id
    clock.advance(6)
    store.append("dr.lee", sid, "user", "still here")  # a write restarts the clock
    clock.advance(6.9)
    assert store.get("dr.lee", sid).messages[0].text == "still here"
    clock.advance(0.2)  # 7.1 days since the last write
    with pytest.raises(NotFoundError, match="expired after 7 days"):
        store.get("dr.lee", sid)
    assert store.list("dr.lee") == []
    # invisible at once; still in the file until the next open or purge sweeps it
    assert _count(store, "sessions") == 1
    reopened = store.open("dr.lee", sid)
    assert reopened.messages == [] and reopened.created_at.timestamp() == clock.now
    assert _count(store, "messages") == 0


def test_purge_variants(store: SessionStore, clock: Clock) -> None:
    old = store.open("dr.lee").session_id
    store.append("dr.lee", old, "user", "old case")
    clock.advance(3)
    recent = store.open("dr.lee").session_id
    theirs = store.open("dr.patel").session_id
    clock.advance(1)

    assert store.purge(older_than_days=3.5) == 1  # old, last written 4 days ago; every user
    assert [i.session_id for i in store.list("dr.lee")] == [recent]
    assert _count(store, "messages") == 0  # its messages went with it

    with pytest.raises(ValidationError, match="Name the session's user"):
        store.purge(session_id=recent)
    assert store.purge(user="dr.patel", session_id=recent) == 0  # ids are per user
    assert store.purge(user="dr.lee", session_id=recent) == 1
    assert store.list("dr.lee") == []

    store.open("dr.lee")
    assert store.purge(user="dr.lee") == 1  # all of one user's
    assert [i.session_id for i in store.list("dr.patel")] == [theirs]
    store.open("dr.lee")
    assert store.purge() == 2  # everyone's
    assert _count(store, "sessions") == 0

    store.open("dr.lee")
    clock.advance(8)
    assert store.purge_expired() == 1
    with pytest.raises(ValidationError, match="0 or more days"):
        store.purge(older_than_days=-1)


def test_the_file_is_owner_only_and_the_new_home_too(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "fresh-home" / "sessions.db"
    with SessionStore(path, clock=clock) as store:
        store.append("dr.lee", store.open("dr.lee").session_id, "user", "K 5.8")
        for file in [path, *path.parent.glob("sessions.db-*")]:
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.chmod(0o644)  # loosened by hand: the next open tightens it
    SessionStore(path, clock=clock).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_purge_leaves_no_text_in_the_file(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "sessions.db"
    with SessionStore(path, clock=clock) as store:
        sid = store.open("dr.lee").session_id
        store.append("dr.lee", sid, "user", "Jonathan Quixotic-Marrow, born 1950-02-03, creatinine 180")
        store.purge(user="dr.lee", session_id=sid)
        raw = b"".join(p.read_bytes() for p in path.parent.glob("sessions.db*"))
    assert b"Quixotic-Marrow" not in raw


@pytest.mark.parametrize(
    "bad", ["", " ", "has space", "-leading-dash", "_x", "a" * 129, "semi;colon", "slash/es", "ünïcode", 42]
)
def test_invalid_session_ids_are_refused_without_repeating_them(store: SessionStore, bad: object) -> None:
    with pytest.raises(ValidationError) as caught:
        store.open("dr.lee", bad)  # type: ignore[arg-type]  # the refusal of a non-string is the point
    assert "1-128 letters" in caught.value.message
    if isinstance(bad, str) and bad.strip():
        assert bad not in caught.value.message
    with pytest.raises(ValidationError):
        store.get("dr.lee", bad)  # type: ignore[arg-type]


def test_the_longest_valid_client_id_is_accepted(store: SessionStore) -> None:
    sid = "A" + "b.c_d:e-" * 15 + "z" * 7
    assert len(sid) == 128
    assert store.open("dr.lee", sid).session_id == sid


def test_preferences_are_validated(store: SessionStore) -> None:
    sid = store.open("dr.lee").session_id
    with pytest.raises(ValidationError, match="citation_style must be 'ama', 'apa' or 'vancouver'"):
        store.set_preferences("dr.lee", sid, citation_style="harvard")
    with pytest.raises(ValidationError, match="answer_length must be 'short', 'normal' or 'long'"):
        store.set_preferences("dr.lee", sid, answer_length="very long")
    with pytest.raises(ValidationError, match="'font' is not a preference"):
        store.set_preferences("dr.lee", sid, font="serif")
    with pytest.raises(ValidationError, match="specialty: String should have at most 64 characters"):
        store.set_preferences("dr.lee", sid, specialty="x" * 65)
    assert store.preferences("dr.lee", sid) == Preferences()  # nothing refused was half-written

    assert store.set_preferences("dr.lee", sid, answer_length="short", specialty="Nephrology").answer_length == "short"
    kept = store.set_preferences("dr.lee", sid, citation_style="apa")
    assert (kept.citation_style, kept.answer_length, kept.specialty) == ("apa", "short", "Nephrology")
    reset = store.set_preferences("dr.lee", sid, answer_length=None, specialty="")
    assert (reset.citation_style, reset.answer_length, reset.specialty) == ("apa", "normal", None)


def test_messages_and_context_are_checked(store: SessionStore) -> None:
    sid = store.open("dr.lee").session_id
    with pytest.raises(ValidationError, match="role must be 'user' or 'assistant'"):
        store.append("dr.lee", sid, "system", "You are …")
    with pytest.raises(ValidationError, match="a session keeps at most 100,000"):
        store.append("dr.lee", sid, "user", "x" * 100_001)
    with pytest.raises(ValidationError, match="payload must be plain JSON"):
        store.append("dr.lee", sid, "assistant", "ok", {"when": object()})
    with pytest.raises(ValidationError, match="clinical context is .* bytes as JSON; a session keeps at most 32,768"):
        store.set_context("dr.lee", sid, notes="x" * 40_000)
    assert store.recent("dr.lee", sid) == [] and store.context("dr.lee", sid) == {}
    with pytest.raises(ValidationError, match="patient id must be"):
        store.set_patient("dr.lee", sid, "Jane Doe")
    with pytest.raises(ValidationError, match="user name"):
        store.open("")


def test_context_merges_and_changing_patient_clears_it(store: SessionStore) -> None:
    sid = store.open("dr.lee").session_id
    store.set_patient("dr.lee", sid, "Patient/p-1")
    store.set_context("dr.lee", sid, condition="CKD stage 3", findings=["eGFR 42"])
    assert store.set_context("dr.lee", sid, findings=None, meds_proposed=["dapagliflozin 10 mg"]) == {
        "condition": "CKD stage 3",
        "meds_proposed": ["dapagliflozin 10 mg"],
    }
    assert store.set_patient("dr.lee", sid, "Patient/p-1").context  # the same patient keeps the case
    assert store.set_patient("dr.lee", sid, "Patient/p-2").context == {}  # another patient's case starts empty
    store.set_context("dr.lee", sid, condition="gout")
    kept = store.set_patient("dr.lee", sid, None, keep_context=True)
    assert kept.patient_id is None and kept.context == {"condition": "gout"}
    store.clear_context("dr.lee", sid)
    assert store.context("dr.lee", sid) == {}


def test_listing_shows_no_clinical_content(store: SessionStore, clock: Clock) -> None:
    a = store.open("dr.lee").session_id
    store.set_patient("dr.lee", a, "p-1")
    clock.advance(0.5)
    b = store.open("dr.lee", "second")
    store.append("dr.lee", "second", "user", "hello")
    infos = store.list("dr.lee")
    assert [(i.session_id, i.messages, i.has_patient) for i in infos] == [(b.session_id, 1, False), (a, 0, True)]
    assert "p-1" not in json.dumps([i.model_dump(mode="json") for i in infos])


def test_settings_out_of_range_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="CURBSIDE_SESSION_MESSAGES"):
        SessionStore(tmp_path / "s.db", max_messages=0)
    with pytest.raises(ConfigError, match="CURBSIDE_SESSION_TTL_DAYS"):
        SessionStore(tmp_path / "s.db", ttl_days=0)


def test_threads_share_one_store(store: SessionStore) -> None:
    sid = store.open("dr.lee").session_id
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            for i in range(20):
                store.append("dr.lee", sid, "user", f"{worker}-{i}")
                store.recent("dr.lee", sid)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread's assertion
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.recent("dr.lee", sid)) == 10
    assert _count(store, "messages") == 10


def _count(store: SessionStore, table: str) -> int:
    conn = apsw.Connection(str(store.path))
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()
