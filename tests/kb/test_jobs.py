from __future__ import annotations

import itertools

import pytest

from curbside.errors import InvalidTransitionError, NotFoundError, RetryLimitError, UnsupportedFormatError
from curbside.kb.jobs import TRANSITIONS, JobState, JobStore
from curbside.store.database import Database


@pytest.fixture
def jobs(tmp_path) -> JobStore:
    return JobStore(Database(tmp_path / "db.sqlite3"), max_retries=3)


def _job_in(jobs: JobStore, state: JobState) -> int:
    """A job driven to ``state`` through legal transitions."""
    job = jobs.create("doc", "doc.txt", "/tmp/doc.txt", {})
    paths = {
        JobState.PENDING: [],
        JobState.RUNNING: [JobState.RUNNING],
        JobState.COMPLETED: [JobState.RUNNING, JobState.COMPLETED],
        JobState.FAILED: [JobState.FAILED],
        JobState.SUPERSEDED: [JobState.FAILED, JobState.SUPERSEDED],
    }
    for step in paths[state]:
        jobs.transition(job.id, step)
    return job.id


def test_transition_table_matches_the_spec() -> None:
    assert TRANSITIONS[JobState.PENDING] == {JobState.RUNNING, JobState.FAILED}
    assert TRANSITIONS[JobState.RUNNING] == {JobState.COMPLETED, JobState.FAILED}
    assert TRANSITIONS[JobState.COMPLETED] == {JobState.SUPERSEDED}
    assert TRANSITIONS[JobState.FAILED] == {JobState.PENDING, JobState.SUPERSEDED}
    assert TRANSITIONS[JobState.SUPERSEDED] == set()


@pytest.mark.parametrize(("start", "target"), list(itertools.product(JobState, JobState)))
def test_every_pair_is_allowed_exactly_when_the_table_says(jobs: JobStore, start: JobState, target: JobState) -> None:
    job_id = _job_in(jobs, start)
    if target in TRANSITIONS[start]:
        assert jobs.transition(job_id, target).state is target
    else:
        with pytest.raises(InvalidTransitionError, match=f"is {start.value}; it cannot become {target.value}"):
            jobs.transition(job_id, target)
        assert jobs.get(job_id).state is start  # unchanged


def test_timestamps_and_error_are_recorded(jobs: JobStore) -> None:
    job = jobs.create("doc", "doc.pdf", "/x", {"specialty": "cardiology"})
    assert job.state is JobState.PENDING and job.options == {"specialty": "cardiology"}
    running = jobs.transition(job.id, JobState.RUNNING)
    assert running.started_at is not None
    failed = jobs.transition(job.id, JobState.FAILED, error=UnsupportedFormatError("doc.pdf: not a PDF"))
    assert failed.failed_at is not None
    assert failed.error_code == "UNSUPPORTED_FORMAT"
    assert failed.error_message == "doc.pdf: not a PDF"
    crashed = jobs.create("doc2", "d", "/y", {})
    jobs.transition(crashed.id, JobState.RUNNING)
    assert jobs.transition(crashed.id, JobState.FAILED, error=KeyError("x")).error_message == "KeyError: 'x'"


def test_progress_is_stored(jobs: JobStore) -> None:
    job_id = _job_in(jobs, JobState.RUNNING)
    jobs.progress(job_id, 5, 20)
    jobs.progress(job_id, 10)
    job = jobs.get(job_id)
    assert (job.processed_chunks, job.total_chunks) == (10, 20)


def test_retry_counts_and_stops_at_the_limit(jobs: JobStore) -> None:
    job_id = _job_in(jobs, JobState.FAILED)
    for attempt in range(1, 4):
        retried = jobs.retry(job_id)
        assert retried.state is JobState.PENDING and retried.retry_count == attempt
        assert retried.error_message is not None or attempt >= 1
        jobs.transition(job_id, JobState.RUNNING)
        jobs.transition(job_id, JobState.FAILED, error=ValueError("still broken"))
    with pytest.raises(RetryLimitError, match="limit is 3"):
        jobs.retry(job_id)


def test_only_failed_jobs_retry(jobs: JobStore) -> None:
    job_id = _job_in(jobs, JobState.COMPLETED)
    with pytest.raises(InvalidTransitionError, match="Only failed jobs"):
        jobs.retry(job_id)


def test_complete_supersedes_earlier_jobs_of_the_document(jobs: JobStore) -> None:
    old = _job_in(jobs, JobState.COMPLETED)
    old_failed = _job_in(jobs, JobState.FAILED)
    new = jobs.create("doc", "doc.txt", "/tmp/doc.txt", {})
    jobs.transition(new.id, JobState.RUNNING)
    jobs.complete(new.id, version_id=None)  # type: ignore[arg-type]
    assert jobs.get(old).state is JobState.SUPERSEDED
    assert jobs.get(old).superseded_by == new.id
    assert jobs.get(old_failed).state is JobState.SUPERSEDED
    assert jobs.get(new.id).state is JobState.COMPLETED


def test_unknown_job(jobs: JobStore) -> None:
    with pytest.raises(NotFoundError, match="No job with id 999"):
        jobs.get(999)


def test_list_filters(jobs: JobStore) -> None:
    a = _job_in(jobs, JobState.FAILED)
    _job_in(jobs, JobState.COMPLETED)
    assert [j.id for j in jobs.list(state=JobState.FAILED)] == [a]
    assert len(jobs.list(doc_key="doc")) == 2


def test_complete_requires_a_running_job(jobs: JobStore) -> None:
    job_id = _job_in(jobs, JobState.PENDING)
    with pytest.raises(InvalidTransitionError, match="is pending; it cannot become completed"):
        jobs.complete(job_id, version_id=None)  # type: ignore[arg-type]
    assert jobs.get(job_id).state is JobState.PENDING
