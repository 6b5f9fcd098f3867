"""Idempotent, versioned ingest: files → section trees → chunks → vectors → store.

Per file: a content hash over the bytes, the parser version and the chunker
settings decides unchanged (skip) or changed (new version). Chunks of several
documents are embedded together in batches (the encoder is the cost); each
document is published in its own transaction as soon as all its vectors are in,
and the hash is recorded only then, so a failed document stays retryable.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from curbside.errors import (
    CurbsideError,
    EmptyDocumentError,
    NotFoundError,
    UnsupportedFormatError,
    ValidationError,
    too_large,
)
from curbside.kb.chunking import Chunk, Chunker, SizeDistribution, size_distribution
from curbside.kb.control import JobControl
from curbside.kb.document import LoadedDocument
from curbside.kb.jobs import Job, JobState, JobStore
from curbside.kb.loaders import (
    DEFAULT_LIMITS,
    PARSER_VERSION,
    SUPPORTED_EXTENSIONS,
    InflateLimits,
    check_upload,
    load_document,
    skip_reason,
)
from curbside.kb.model_guard import ModelGuard
from curbside.kb.runners import RunnerRegistry
from curbside.kb.unit_meaning import embed_units
from curbside.llm.extractive import UNITS_VERSION
from curbside.search.embedders.base import Embedder
from curbside.store.database import Database
from curbside.store.documents import ChunkRow, DocumentStore, NewVersion

log = logging.getLogger(__name__)

__all__ = [
    "DocumentOutcome",
    "IngestOptions",
    "IngestReport",
    "PreparedDocument",
    "ReindexReport",
    "Ingestor",
    "ProgressReporter",
    "doc_key_from_name",
]

EMBED_GROUP = 512
PROGRESS_STEP = 128  # chunks embedded between progress reports (a group is 4 steps)
LABEL_SEPARATOR = " — "  # between a coverage passage's edition label and its title ("OHIP Schedule 2025-03-03 — GP: …")
MAX_NAME_BYTES = 200  # file names are kept on disk (originals/…/NAME.part): well inside the usual 255-byte cap
_DOC_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
Status = Literal["ingested", "unchanged", "skipped", "failed"]


def doc_key_from_name(name: str) -> str:
    """A stable key from a file name: 'CEP Anxiety (2024).html' → 'cep-anxiety-2024'."""
    stem = Path(name).stem.lower()
    key = re.sub(r"[^a-z0-9._-]+", "-", stem).strip("-._")
    return key[:200] or "document"


def validate_doc_key(key: str) -> str:
    if not _DOC_KEY.match(key):
        raise ValidationError(
            f"Invalid doc key {key!r}: use 1-200 letters, digits, '.', '_' or '-', starting with a letter or digit."
        )
    return key


@dataclass(frozen=True, slots=True)
class IngestOptions:
    doc_key: str | None = None
    source_type: str | None = None
    specialty: str | None = None
    namespace: str = "kb"

    def to_dict(self) -> dict[str, str | None]:
        return {"source_type": self.source_type, "specialty": self.specialty, "namespace": self.namespace}


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    """A document already parsed by the caller (e.g. a BEIR corpus row); ``data`` is kept as its original."""

    doc_key: str
    name: str
    data: bytes
    loaded: LoadedDocument


@dataclass(slots=True)
class DocumentOutcome:
    path: str
    doc_key: str
    status: Status
    message: str
    version: int | None = None
    job_id: int | None = None
    chunks: int = 0
    warnings: list[str] = field(default_factory=list)
    error_code: str | None = None


@dataclass(frozen=True, slots=True)
class Submission:
    """An upload accepted for ingest: a pending job, or nothing to do when the content is unchanged."""

    doc_key: str
    status: Literal["queued", "unchanged"]
    message: str
    job: Job | None = None
    version: int | None = None


@dataclass(slots=True)
class IngestReport:
    outcomes: list[DocumentOutcome] = field(default_factory=list)
    sizes: SizeDistribution | None = None
    seconds: float = 0.0
    embed_seconds: float = 0.0
    units_embedded: int = 0  # answer units embedded for the meaning score (kb/unit_meaning.py)
    unit_seconds: float = 0.0

    @property
    def failed(self) -> list[DocumentOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)


@dataclass(slots=True)
class ReindexReport:
    reembedded: int = 0  # documents re-embedded in place
    chunks: int = 0
    rechunked: IngestReport = field(default_factory=IngestReport)  # re-ingested from their originals


class ProgressReporter(Protocol):
    """Receives progress; the CLI draws bars from it. Totals grow as documents are chunked."""

    def files(self, total: int) -> None: ...

    def file_done(self, name: str) -> None: ...

    def chunks_added(self, count: int) -> None: ...

    def chunks_embedded(self, count: int) -> None: ...

    def waiting(self, reason: str) -> None:
        """Nothing moves until ``reason`` ends (another process holds the index); say so."""


class _NoProgress:
    def files(self, total: int) -> None:
        pass

    def file_done(self, name: str) -> None:
        pass

    def chunks_added(self, count: int) -> None:
        pass

    def chunks_embedded(self, count: int) -> None:
        pass

    def waiting(self, reason: str) -> None:
        pass


@dataclass(slots=True)
class _Pending:
    """A chunked document waiting for its vectors."""

    job: Job
    source: Path
    original: Path
    content_hash: str
    options: IngestOptions
    loaded: LoadedDocument
    chunks: list[Chunk]
    vectors: np.ndarray
    filled: int = 0
    failed: bool = False


class Ingestor:
    def __init__(
        self,
        *,
        db: Database,
        documents: DocumentStore,
        jobs: JobStore,
        embedder: Embedder,
        chunker: Chunker,
        originals_dir: Path,
        max_file_bytes: int,
        load_limits: InflateLimits | None = None,
        embed_heads: Mapping[str, int] | None = None,
        keywords_only: Collection[str] = (),
        own_tools: Collection[str] = (),
    ) -> None:
        self.db = db
        self.documents = documents
        self.jobs = jobs
        self.embedder = embedder
        self.chunker = chunker
        self.originals_dir = originals_dir
        self.max_file_bytes = max_file_bytes
        self.load_limits = load_limits or DEFAULT_LIMITS  # zip-bomb caps for the loaders (kb/loaders)
        # chunks embedded per encoder call, across document boundaries: the encoder sorts a call's
        # texts by length, so large groups pad little; each document commits once its group is done
        self.embed_group = EMBED_GROUP
        # namespace -> characters of each chunk's head that are embedded (the whole text stays in the
        # lexical index): structured sources answer from their tables and need only the topic dense
        self.embed_heads = dict(embed_heads or {})
        # namespaces whose passages are indexed for keyword search only (no vector, no encoder time): the
        # coverage sources, whose tools answer from their tables and rank their passages by keywords
        self.keywords_only = frozenset(keywords_only)
        self.own_tools = frozenset(own_tools)  # namespaces whose passages are answered by their own tools
        self.guard = ModelGuard(db, documents.vectors, embedder)
        self.lock_path = originals_dir.parent / "ingest.lock"
        self.runners = RunnerRegistry.for_directory(originals_dir.parent / "runners")

    @contextmanager
    def _writing(self, *, exclusive: bool = False, progress: ProgressReporter | None = None) -> Iterator[None]:
        """Ingests run side by side (a shared lock); a reindex, which replaces every vector, runs alone.

        When the lock is taken, ``progress`` hears why nothing moves before the wait starts.
        """
        self.lock_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        with self.lock_path.open("a") as handle:
            try:
                fcntl.flock(handle, mode | fcntl.LOCK_NB)
            except BlockingIOError:
                reason = (
                    "waiting for running ingests to finish (a reindex runs alone)"
                    if exclusive
                    else "waiting for a reindex to finish (it replaces every vector)"
                )
                log.info("%s: %s", self.lock_path, reason)
                (progress or _NoProgress()).waiting(reason)
                fcntl.flock(handle, mode)
            try:
                self.jobs.fail_interrupted(self.runners.alive)
                if not exclusive:
                    self.guard.claim()
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def recover(self) -> tuple[list[int], list[int]]:
        """After a crash: fail the jobs whose process ended (retryable), and list the pending ones to run."""
        return self.jobs.fail_interrupted(self.runners.alive), self.jobs.pending_ids()

    # --- public ------------------------------------------------------------------------------
    def ingest(
        self,
        paths: Sequence[Path],
        options: IngestOptions = IngestOptions(),
        progress: ProgressReporter | None = None,
    ) -> IngestReport:
        progress = progress or _NoProgress()
        started = time.perf_counter()
        report = IngestReport()
        files = self._expand(paths)
        if options.doc_key is not None and len(files) > 1:
            raise ValidationError("--doc-key names one document; pass a single file with it.")
        with self._writing(progress=progress):
            progress.files(len(files))
            run = _Run(self, report, progress)
            for path in files:
                run.add_file(path, options)
                progress.file_done(path.name)
            run.flush()
        return self._finish(report, run, started)

    def ingest_prepared(
        self,
        documents: Iterable[PreparedDocument],
        options: IngestOptions = IngestOptions(),
        progress: ProgressReporter | None = None,
        total: int | None = None,
    ) -> IngestReport:
        """Ingest documents parsed elsewhere, through the same hashing, jobs, batching and publishing."""
        progress = progress or _NoProgress()
        started = time.perf_counter()
        report = IngestReport()
        with self._writing(progress=progress):
            if total is not None:
                progress.files(total)
            run = _Run(self, report, progress)
            for doc in documents:
                run.add_file(Path(doc.name), replace(options, doc_key=doc.doc_key), prepared=doc)
                progress.file_done(doc.name)
            run.flush()
        return self._finish(report, run, started)

    def submit(self, name: str, data: bytes, options: IngestOptions = IngestOptions()) -> Submission:
        """Check an upload, keep its bytes and queue a pending job; ``run_job`` ingests it.

        Every check runs before anything is written, so a rejected upload changes nothing.
        """
        name = _short_name(Path(name.replace("\\", "/")).name.strip())
        if not name or name in {".", ".."}:
            raise ValidationError("The upload has no file name; send it as a named file (multipart 'file').")
        path = Path(name)
        if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
            supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
            raise UnsupportedFormatError(f"{name}: unsupported file type {path.suffix or '(none)'!r}; supported: {supported}.")
        if len(data) > self.max_file_bytes:
            raise too_large(name, len(data), self.max_file_bytes, "CURBSIDE_MAX_FILE_BYTES")
        reason = skip_reason(path)
        if reason:
            raise ValidationError(f"{name} is not ingested: {reason}.")
        check_upload(name, data, limits=self.load_limits)  # the bytes are what the name says, and no zip bomb
        doc_key = validate_doc_key(options.doc_key or doc_key_from_name(name))
        digest = hashlib.sha256(data).hexdigest()
        content_hash = _content_hash(digest, self.fingerprint(options.namespace))
        current = self.documents.current(doc_key)
        if current is not None and current.content_hash == content_hash:
            return Submission(doc_key, "unchanged", f"unchanged since version {current.version}; nothing to do",
                              version=current.version)
        original = self.store_original(path, digest, data=data)
        job = self.jobs.create(doc_key, name, str(original), options.to_dict())
        return Submission(doc_key, "queued", f"job {job.id} queued", job=job)

    def run_job(
        self,
        job_id: int,
        progress: ProgressReporter | None = None,
        *,
        timeout_s: float | None = None,
        shutdown: threading.Event | None = None,
    ) -> DocumentOutcome | None:
        """Run a pending job (after ``submit`` or ``JobStore.retry``) from its stored original.

        None when another runner claimed it first or it was cancelled while it waited. A job
        running past ``timeout_s``, or asked to cancel, stops at its next step and fails.
        """
        job = self.jobs.get(job_id)
        if job.state is not JobState.PENDING:
            raise ValidationError(f"Job {job_id} is {job.state.value}; only pending jobs run.")
        report = IngestReport()
        with self._writing(progress=progress):
            claimed = self.jobs.claim(job_id, self.runners.runner_id)
            if claimed is None:
                return None
            control = JobControl(
                job_id, timeout_s=timeout_s, cancel_requested=self.jobs.cancel_requested, shutdown=shutdown
            )
            run = _Run(self, report, progress or _NoProgress(), control)
            options = IngestOptions(doc_key=job.doc_key, **{k: v for k, v in job.options.items() if k != "doc_key"})
            original = Path(job.original_path)
            try:
                content_hash = _content_hash(_sha256_file(original), self.fingerprint(options.namespace))
                run.process(claimed, Path(job.original_name), original, content_hash, options)
                run.flush()
            except CurbsideError as exc:  # stopped (or the original is gone): the job fails with the reason
                run.abort()
                run.fail_unfinished(exc)
            except OSError as exc:
                run.abort()
                run.fail_unfinished(CurbsideError(f"Cannot read the stored original: {exc.strerror or exc}.", code="IO_ERROR"))
        return report.outcomes[-1]

    def retry(self, job_id: int, progress: ProgressReporter | None = None) -> DocumentOutcome | None:
        self.jobs.retry(job_id)
        return self.run_job(job_id, progress)

    def remove(self, doc_key: str) -> int:
        """Take a document out of search; returns the version removed."""
        record = self.documents.remove(doc_key)
        if record is None:
            raise NotFoundError(f"No current document {doc_key!r}; `curbside search` or `curbside jobs list` show keys.")
        return record.version

    def reindex(self, progress: ProgressReporter | None = None) -> ReindexReport:
        """Re-embed every current document with the configured model (its chunks and its answer units).

        Chunks that fit the model's input are re-embedded in place; a document with
        a chunk over the new cap is re-chunked from its stored original (a new
        version). Until it finishes, documents not yet done are missing from dense search.
        """
        progress = progress or _NoProgress()
        report = ReindexReport()
        with self._writing(exclusive=True, progress=progress):
            versions = self.documents.list_current()
            self.guard.record()  # new model and dimension; vectors of the old model are gone
            progress.files(len(versions))
            run = _Run(self, report.rechunked, progress)
            for record in versions:
                if record.namespace in self.keywords_only:  # it has no vectors to re-embed
                    progress.file_done(record.doc_key)
                    continue
                rows = self.documents.chunk_rows(record.version_id)
                texts = [text for _, text in rows]
                if max(self.embedder.count_tokens(texts), default=0) > self.chunker.max_tokens:
                    options = IngestOptions(record.doc_key, record.source_type, record.specialty, record.namespace)
                    run.add_file(Path(record.original_path), options)
                else:
                    progress.chunks_added(len(rows))
                    heads = self.embedding_texts(texts, record.namespace)
                    self.documents.replace_vectors(record.version_id, self.embedder.embed_passages(heads))
                    progress.chunks_embedded(len(rows))
                    report.reembedded += 1
                    report.chunks += len(rows)
                    if self.answers_from(record.namespace):
                        run.published.append(record.version_id)  # its answer units too, in this model
                progress.file_done(record.doc_key)
            run.flush()
        return report

    def answers_from(self, namespace: str) -> bool:
        """Whether the extractive answerer quotes units of ``namespace``'s passages, so their vectors are stored:
        not a keywords-only one (no embeddings) nor one answered by its own tools (the coverage sources:
        embedding every Schedule unit would multiply ``coverage load``'s time)."""
        return namespace not in self.keywords_only and namespace not in self.own_tools

    def embedding_texts(self, texts: list[str], namespace: str) -> list[str]:
        """What the encoder sees of ``texts``: the whole text, or its head where the namespace caps it."""
        limit = self.embed_heads.get(namespace)
        if limit is None:
            return texts
        return [_head(text, limit) for text in texts]

    # --- helpers -----------------------------------------------------------------------------
    def _finish(self, report: IngestReport, run: _Run, started: float) -> IngestReport:
        report.sizes = size_distribution(run.all_chunks, self.chunker.max_tokens) if run.all_chunks else None
        report.seconds = time.perf_counter() - started
        return report

    def fingerprint(self, namespace: str) -> str:
        """What else than the bytes decides a version's chunks and vectors: a namespace that changes between
        keywords only and embedded is indexed again."""
        keywords = ";keywords-only" if namespace in self.keywords_only else ""
        # the answer units whose vectors are stored (``kb/unit_meaning.py``) are cut as this version cuts them: a
        # new cut (``extractive.UNITS_VERSION``) indexes the documents again, else units it cuts anew have no vector
        return f"{PARSER_VERSION};{UNITS_VERSION};{self.chunker.fingerprint()}{keywords}"

    def _expand(self, paths: Sequence[Path]) -> list[Path]:
        """Files to ingest: named files as they are, directories walked for supported types."""
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files.extend(
                    p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix.lower() in SUPPORTED_EXTENSIONS
                )
            else:
                files.append(path)
        return files

    def store_original(self, path: Path, digest: str, *, data: bytes | None = None) -> Path:
        """Keep a copy (of ``path``, or ``data`` named like it) for retries; content-addressed."""
        # keep the real file name: loaders take titles and messages from it
        target = self.originals_dir / digest[:2] / digest / _short_name(path.name)
        if target.exists():
            return target
        for folder in (self.originals_dir, target.parent.parent, target.parent):  # clinical files: owner only
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".part")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            if data is None:
                with path.open("rb") as source:
                    shutil.copyfileobj(source, out, 1 << 20)
            else:
                out.write(data)
        tmp.replace(target)
        return target


class _Run:
    """One ingest call: the embedding queue shared by its documents.

    The encoder runs on one worker thread (it releases the GIL) while this thread
    parses, chunks and publishes, so that work hides behind the encoder. Only this
    thread touches SQLite.
    """

    def __init__(
        self, ingestor: Ingestor, report: IngestReport, progress: ProgressReporter, control: JobControl | None = None
    ) -> None:
        self.ing = ingestor
        self.report = report
        self.progress = progress
        self.control = control
        self.running: dict[int, tuple[Job, Path]] = {}  # started and not yet published or failed
        self.queue: list[tuple[_Pending, int]] = []
        self.all_chunks: list[Chunk] = []
        self.published: list[int] = []  # version ids published by this run, whose units are embedded at the end
        self._encoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="curbside-encoder")
        self._inflight: tuple[list[tuple[_Pending, int]], Future[tuple[np.ndarray, float]]] | None = None

    def add_file(self, path: Path, options: IngestOptions, prepared: PreparedDocument | None = None) -> None:
        """Check, hash and register one file, or a ``prepared`` document (``path`` is then only its name)."""
        doc_key = options.doc_key or doc_key_from_name(path.name)
        try:
            validate_doc_key(doc_key)
            if prepared is None:
                self._preflight(path)
                reason = skip_reason(path)
                if reason:
                    self._outcome(path, doc_key, "skipped", f"skipped: {reason}")
                    return
                digest = _sha256_file(path)
            else:
                digest = hashlib.sha256(prepared.data).hexdigest()
            content_hash = _content_hash(digest, self.ing.fingerprint(options.namespace))
            current = self.ing.documents.current(doc_key)
            if current is not None and current.content_hash == content_hash:
                self._outcome(path, doc_key, "unchanged", f"unchanged since version {current.version}; skipped",
                              version=current.version, chunks=current.chunk_count)
                return
            original = self.ing.store_original(path, digest, data=prepared.data if prepared else None)
        except CurbsideError as exc:
            self._outcome(path, doc_key, "failed", exc.message, error_code=exc.code)
            return
        except OSError as exc:
            self._outcome(path, doc_key, "failed", f"Cannot read {path}: {exc.strerror or exc}.", error_code="IO_ERROR")
            return
        with self.ing.db.transaction():  # one commit for a job that starts at once
            job = self.ing.jobs.create(doc_key, path.name, str(original), options.to_dict())
            job = self.ing.jobs.transition(job.id, JobState.RUNNING, runner=self.ing.runners.runner_id)
        self.process(job, path, original, content_hash, options, prepared.loaded if prepared else None)

    def process(
        self,
        job: Job,
        source: Path,
        original: Path,
        content_hash: str,
        options: IngestOptions,
        loaded: LoadedDocument | None = None,
    ) -> None:
        """Parse and chunk a running job's document now; vectors come when the queue fills (or at flush)."""
        self.running[job.id] = (job, source)
        check = self.control.check if self.control is not None else None
        try:
            if loaded is None:
                loaded = load_document(original, max_bytes=self.ing.max_file_bytes, limits=self.ing.load_limits)
            if check is not None:
                check()
            chunks = self.ing.chunker.chunk(loaded, check=check)
            if not chunks:
                raise EmptyDocumentError(f"{source.name} has no text to index.")
        except CurbsideError as exc:
            self._fail(job, source, exc)
            return
        except Exception as exc:  # noqa: BLE001 - a parser bug must fail this job, not the whole ingest
            self._fail(job, source, exc)
            return
        keywords_only = options.namespace in self.ing.keywords_only
        if len(chunks) > self.ing.embed_group and not keywords_only:  # progress is worth a write only when it spans batches
            self.ing.jobs.progress(job.id, 0, len(chunks))
        width = 0 if keywords_only else self.ing.embedder.dim
        pending = _Pending(
            job, source, original, content_hash, options, loaded, chunks,
            np.empty((len(chunks), width), dtype=np.float32),
        )
        self.all_chunks.extend(chunks)
        self.progress.chunks_added(len(chunks))
        if keywords_only:  # nothing to embed: indexed now
            self.progress.chunks_embedded(len(chunks))
            self._publish(pending)
            return
        self.queue.extend((pending, i) for i in range(len(chunks)))
        while len(self.queue) >= self.ing.embed_group:
            self._embed(self.queue[: self.ing.embed_group])
            del self.queue[: self.ing.embed_group]

    def flush(self) -> None:
        """Embed what is queued and publish everything; the run is finished after this."""
        try:
            if self.queue:
                self._embed(self.queue)
                self.queue = []
            self._collect()
        finally:
            self._encoder.shutdown(wait=True)
        self._embed_units()

    def _embed_units(self) -> None:
        """Embed the answer units of the versions this run published (after the chunks: the encoder is free)."""
        if not self.published:
            return
        started = time.perf_counter()
        self.report.units_embedded += embed_units(self.ing.documents, self.ing.embedder, self.published)
        self.report.unit_seconds += time.perf_counter() - started
        self.published = []

    def abort(self) -> None:
        """Stop: drop what is queued and wait for the encoder (its result is discarded)."""
        self.queue = []
        self._inflight = None
        self._encoder.shutdown(wait=True)

    def fail_unfinished(self, exc: BaseException) -> None:
        """Fail every job of this run that has neither been published nor failed yet."""
        for job, source in list(self.running.values()):
            self._fail(job, source, exc)

    def _embed(self, items: list[tuple[_Pending, int]]) -> None:
        """Hand a group to the encoder thread, after collecting the group before it."""
        if self.control is not None:
            self.control.check()
        self._collect()
        heads = self.ing.embed_heads
        texts = [_head(p.chunks[i].text, heads.get(p.options.namespace)) for p, i in items]
        self._inflight = (items, self._encoder.submit(self._encode, texts))

    def _encode(self, texts: list[str]) -> tuple[np.ndarray, float]:
        """Embed a group in steps, saying after each how many chunks are done (on the encoder thread), so a
        bar moves every few seconds instead of once a group."""
        started = time.perf_counter()
        parts = []
        for start in range(0, len(texts), PROGRESS_STEP):
            step = texts[start : start + PROGRESS_STEP]
            parts.append(self.ing.embedder.embed_passages(step))
            self.progress.chunks_embedded(len(step))
        vectors = np.concatenate(parts) if parts else self.ing.embedder.embed_passages(texts)
        return vectors, time.perf_counter() - started

    def _collect(self) -> None:
        """Wait for the group in flight, store its vectors and publish the documents it completes."""
        if self._inflight is None:
            return
        items, future = self._inflight
        self._inflight = None
        try:
            vectors, seconds = future.result()
        except Exception as exc:  # noqa: BLE001 - every document in the group fails with the reason
            for pending in {id(p): p for p, _ in items}.values():
                if not pending.failed:
                    pending.failed = True
                    self._fail(pending.job, pending.source, exc)
            return
        self.report.embed_seconds += seconds
        touched: dict[int, _Pending] = {}
        for (pending, i), vector in zip(items, vectors, strict=True):
            pending.vectors[i] = vector
            pending.filled += 1
            touched[id(pending)] = pending
        for pending in touched.values():
            if pending.filled == len(pending.chunks):
                self._publish(pending)
            else:
                self.ing.jobs.progress(pending.job.id, pending.filled)

    def _publish(self, p: _Pending) -> None:
        if p.failed:  # an earlier group with some of its chunks failed
            return
        new = NewVersion(
            doc_key=p.job.doc_key,
            namespace=p.options.namespace,
            content_hash=p.content_hash,
            title=p.loaded.title,
            format=p.loaded.format,
            source_type=p.options.source_type,
            specialty=p.options.specialty,
            original_name=p.source.name,
            original_path=str(p.original),
            size_bytes=p.original.stat().st_size,
            page_count=p.loaded.page_count,
            warnings=tuple(p.loaded.warnings),
        )
        rows = [ChunkRow(c.ordinal, c.section_path, c.text, c.token_count, c.page, c.page_end) for c in p.chunks]
        try:
            with self.ing.db.transaction():
                record = self.ing.documents.publish_version(new, rows, p.vectors)
                self.ing.jobs.progress(p.job.id, len(rows), len(rows))
                self.ing.jobs.complete(p.job.id, record.version_id)
        except CurbsideError as exc:
            self._fail(p.job, p.source, exc)
            return
        self.running.pop(p.job.id, None)
        if self.ing.answers_from(p.options.namespace):
            self.published.append(record.version_id)
        self._outcome(
            p.source, new.doc_key, "ingested", f"version {record.version}, {len(rows)} chunks",
            version=record.version, job_id=p.job.id, chunks=len(rows), warnings=list(new.warnings),
        )

    def _fail(self, job: Job, source: Path, exc: BaseException) -> None:
        self.running.pop(job.id, None)
        failed = self.ing.jobs.transition(job.id, JobState.FAILED, error=exc)
        code = exc.code if isinstance(exc, CurbsideError) else "INTERNAL_ERROR"
        self._outcome(source, job.doc_key, "failed", failed.error_message or "failed", job_id=job.id, error_code=code)

    def _preflight(self, path: Path) -> None:
        if not path.exists():
            raise NotFoundError(f"No such file: {path}")
        if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
            supported = ", ".join(sorted(SUPPORTED_EXTENSIONS))
            raise UnsupportedFormatError(f"{path.name}: unsupported file type {path.suffix or '(none)'!r}; supported: {supported}.")
        size = path.stat().st_size
        if size > self.ing.max_file_bytes:
            raise too_large(path.name, size, self.ing.max_file_bytes, "CURBSIDE_MAX_FILE_BYTES")

    def _outcome(self, path: Path, doc_key: str, status: Status, message: str, **extra: object) -> None:
        self.report.outcomes.append(DocumentOutcome(str(path), doc_key, status, message, **extra))  # type: ignore[arg-type]


def _short_name(name: str) -> str:
    """``name`` cut to MAX_NAME_BYTES of UTF-8, its extension kept (a longer one cannot be stored)."""
    if len(name.encode()) <= MAX_NAME_BYTES:
        return name
    suffix = Path(name).suffix if len(Path(name).suffix.encode()) <= 16 else ""
    stem = name[: len(name) - len(suffix)] if suffix else name
    budget = MAX_NAME_BYTES - len(suffix.encode())
    cut = stem.encode()[:budget].decode(errors="ignore").rstrip()
    return cut + suffix


def _sha256_file(path: Path) -> str:
    content = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            content.update(block)
    return content.hexdigest()


def _content_hash(digest: str, fingerprint: str) -> str:
    """'<sha256 of the bytes>:<sha256 of bytes + parser + chunker settings>' — the first part names the original."""
    combined = hashlib.sha256(f"{digest}\n{fingerprint}".encode()).hexdigest()
    return f"{digest}:{combined}"


def _head(text: str, limit: int | None) -> str:
    """``text``, or its first ``limit`` characters cut at a word, less the label its first line opens with
    ("OHIP Schedule 2025-03-03 — "). Capped namespaces are coverage sources, whose every passage opens with
    its edition's label: the same words in each passage tell the encoder nothing, and they are about a tenth
    of the tokens a full load embeds."""
    if limit is None:
        return text
    head = text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0]
    first_line = head.split("\n", 1)[0]
    return head[head.index(LABEL_SEPARATOR) + len(LABEL_SEPARATOR) :] if LABEL_SEPARATOR in first_line else head
