"""The application object: every interface (CLI, HTTP, MCP) is a thin layer over it.

Parts are built lazily from one ``Settings``, so ``curbside --help`` or a job
listing never loads a model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from curbside.errors import ConfigError
from curbside.settings import Settings

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from curbside.agent.models import TurnRequest, TurnResult
    from curbside.agent.turn import ConsultTurn
    from curbside.ask.pipeline import Asker
    from curbside.ask.screening import PromptScreen
    from curbside.audit.trail import AuditTrail
    from curbside.auth.gate import Gate
    from curbside.auth.ratelimit import RateLimiter
    from curbside.auth.users import UserStore
    from curbside.coverage.reports import CoverageStore
    from curbside.coverage.source_service import SourceParts, SourceService
    from curbside.kb.background import BackgroundIngest
    from curbside.kb.chunking import Chunker
    from curbside.kb.ingest import Ingestor
    from curbside.kb.jobs import JobStore
    from curbside.llm.endpoints import ModelRouter
    from curbside.phi import SpanDetector
    from curbside.phi.child import ChildDetector
    from curbside.search.embedders.base import Embedder
    from curbside.search.engine import SearchEngine
    from curbside.sessions import SessionStore
    from curbside.store.database import Database
    from curbside.store.documents import DocumentStore
    from curbside.store.sqlite_indexes import Fts5Index, SqliteVecIndex
    from curbside.tools.ehr.fhir_client import FhirClient
    from curbside.tools.executor import ToolExecutor
    from curbside.tools.outbound import OutboundClient
    from curbside.types import Answer, AskRequest, SearchFilters, SearchResponse, ToolCaller

__all__ = ["Curbside"]


class Curbside:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self._coverage_services: dict[str, SourceService[Any]] = {}
        self._coverage_lock = threading.Lock()
        self._opened: list[Callable[[], None]] = []  # how to close each part holding a resource, in opening order
        self._phi_child: ChildDetector | None = None

    def _holds(self, close: Callable[[], None]) -> None:
        """Remember how to close a part just opened (a file, a pool of threads, connections)."""
        self._opened.append(close)

    @cached_property
    def db(self) -> Database:
        from curbside.store.database import Database

        self.make_home()
        database = Database(self.settings.db_path)
        self._holds(database.close)
        return database

    @cached_property
    def vectors(self) -> SqliteVecIndex:
        from curbside.store.sqlite_indexes import SqliteVecIndex

        return SqliteVecIndex(self.db)

    @cached_property
    def lexical(self) -> Fts5Index:
        from curbside.store.sqlite_indexes import Fts5Index

        return Fts5Index(self.db)

    @cached_property
    def documents(self) -> DocumentStore:
        from curbside.store.documents import DocumentStore

        return DocumentStore(self.db, self.vectors, self.lexical)

    @cached_property
    def jobs(self) -> JobStore:
        from curbside.kb.jobs import JobStore

        return JobStore(self.db, max_retries=self.settings.job_max_retries)

    @cached_property
    def embedder(self) -> Embedder:
        from curbside.search.embedders import make_embedder

        return make_embedder(self.settings)

    @cached_property
    def chunker(self) -> Chunker:
        from curbside.kb.chunking import Chunker

        model_max = self.embedder.max_tokens
        cap = self.settings.chunk_max_tokens or model_max
        if cap > model_max:
            raise ConfigError(
                f"CURBSIDE_CHUNK_MAX_TOKENS={cap} exceeds the embedding model's maximum input ({model_max} tokens); "
                "the model would silently truncate chunks. Lower it or leave it unset."
            )
        return Chunker(cap, self.embedder.count_tokens)

    @cached_property
    def ingestor(self) -> Ingestor:
        from curbside.coverage.sources import SOURCES
        from curbside.kb.ingest import Ingestor
        from curbside.kb.loaders import DEFAULT_LIMITS

        embed_heads, keywords_only = self._coverage_indexing()
        return Ingestor(
            db=self.db,
            documents=self.documents,
            jobs=self.jobs,
            embedder=self.embedder,
            chunker=self.chunker,
            originals_dir=self.settings.originals_dir,
            max_file_bytes=self.settings.max_file_bytes,
            load_limits=DEFAULT_LIMITS.with_overrides(
                zip_max_inflated_bytes=self.settings.max_inflated_bytes, zip_max_ratio=self.settings.max_inflate_ratio
            ),
            embed_heads=embed_heads,
            keywords_only=keywords_only,
            own_tools=[source.name for source in SOURCES],
        )

    def _coverage_indexing(self) -> tuple[dict[str, int], list[str]]:
        """How the coverage sources' passages are indexed, as (embedded heads, namespaces for keywords only):
        each source's own choice (``CoverageSource.embed_chars``), or every source embedded by the same head or
        whole (CURBSIDE_COVERAGE_EMBED_CHARS, 0)."""
        from curbside.coverage.sources import SOURCES

        limit = self.settings.coverage_embed_chars
        if limit == 0:
            return {}, []
        if limit is not None:
            return {source.name: limit for source in SOURCES}, []
        heads = {source.name: source.embed_chars for source in SOURCES if source.embed_chars is not None}
        return heads, [source.name for source in SOURCES if source.embed_chars is None]

    @cached_property
    def search_engine(self) -> SearchEngine:
        from curbside.kb.model_guard import ModelGuard
        from curbside.search.engine import SearchEngine
        from curbside.search.reranker import make_reranker

        ModelGuard(self.db, self.vectors, self.embedder).check()  # another model's vectors would be meaningless
        return SearchEngine(
            embedder=self.embedder,
            vectors=self.vectors,
            lexical=self.lexical,
            documents=self.documents,
            settings=self.settings,
            reranker=make_reranker(self.settings),
        )

    @cached_property
    def models(self) -> ModelRouter:
        """The configured LLM endpoints and the PHI routing policy between them."""
        from curbside.llm.endpoints import ModelRouter

        return ModelRouter(self.settings)

    def llm_description(self) -> str:
        return self.models.description

    @cached_property
    def phi_screen(self) -> PromptScreen:
        """PHI screening of text before it may leave the machine (the detector loads on first use)."""
        from curbside.ask.screening import PromptScreen

        return PromptScreen(self.phi_detector)

    def phi_detector(self) -> SpanDetector:
        """The PHI detector: the child process ``detect_phi_in_child`` started, else this process's own
        (the PHI package loads spaCy: only when text is first screened)."""
        if self._phi_child is not None:
            return self._phi_child
        from curbside.phi import get_detector

        return get_detector(self.settings)

    def detect_phi_in_child(self, child: ChildDetector | None = None) -> None:
        """For a command that runs once: detect PHI in a child process (``phi/child.py``), ``child`` if given
        (started earlier, so it is loading already), else one started now; none when this process has its
        own detector loaded already."""
        from curbside.phi import detector_loaded

        if self._phi_child is not None or detector_loaded():
            if child is not None:
                child.close()
            return
        if child is None:
            from curbside.phi.child import ChildDetector

            child = ChildDetector()
        self._holds(child.close)
        child.configure(self.settings)
        self._phi_child = child

    @cached_property
    def outbound(self) -> OutboundClient:
        """The one client for outside services (evidence tools, guideline downloads): PHI-screened,
        paced, cached, retried; nothing is sent until a tool asks."""
        from curbside.tools.outbound import OutboundClient

        return OutboundClient(self.settings)

    @cached_property
    def fhir(self) -> FhirClient | None:
        """The clinic's FHIR server (CURBSIDE_FHIR_URL), or None when none is configured; connects on first use."""
        if not self.settings.fhir_url:
            return None
        from curbside.tools.ehr.fhir_client import HttpFhirClient

        return HttpFhirClient.from_settings(self.settings)

    @cached_property
    def sessions(self) -> SessionStore:
        """Conversations (CURBSIDE_HOME/sessions.db, 0600): their messages are PHI and stay there."""
        from curbside.sessions import SESSIONS_FILE, SessionStore

        self.make_home()
        store = SessionStore(
            self.settings.home / SESSIONS_FILE,
            max_messages=self.settings.session_messages,
            ttl_days=self.settings.session_ttl_days,
        )
        self._holds(store.close)
        return store

    @cached_property
    def turns(self) -> ConsultTurn:
        """The consult turn over this application's tools: rules triage and plan; a configured model may break a
        triage tie and word the answer, under the PHI routing policy and the route's budgets."""
        from curbside.agent.llm_access import TurnLLM
        from curbside.agent.triage import triage
        from curbside.agent.turn import ConsultTurn
        from curbside.tools.calculators.catalog import calculators

        return ConsultTurn(
            self.tools,
            triage=triage,
            calculators=lambda: {cid: c.title for cid, c in calculators().items()},
            sessions=lambda: self.sessions,
            llm=TurnLLM(self.models, self.phi_screen, self.settings),
            seconds_by_route=self.settings.turn_time_budget_s,
            daily_cost_limit=self.settings.llm_user_daily_cost_limit,
            tool_calling=self.settings.turn_tool_calling,
        )

    @cached_property
    def asker(self) -> Asker:
        from curbside.ask.pipeline import Asker

        return Asker(engine=self.search_engine, settings=self.settings, router=self.models, screen=self.phi_screen)

    @cached_property
    def background(self) -> BackgroundIngest:
        from curbside.kb.background import BackgroundIngest

        s = self.settings
        background = BackgroundIngest(self.ingestor, workers=s.ingest_workers, job_timeout_s=s.ingest_job_timeout_s)
        self._holds(background.close)
        return background

    @cached_property
    def audit(self) -> AuditTrail:
        """The keyed audit trail; questions pass the PHI redactor (loaded on the first one recorded)."""
        from curbside.audit.trail import AuditTrail
        from curbside.redaction import phi_redactor

        self.make_home()
        trail = AuditTrail.from_settings(self.settings, redact=phi_redactor(self.settings, self.phi_detector))
        self._holds(trail.close)
        return trail

    @cached_property
    def users(self) -> UserStore:
        """API users and their hashed keys (rows MACed with the audit key)."""
        from curbside.auth.users import UserStore

        s = self.settings
        anchor = (s.audit_head_path or s.home / "audit.head").with_name("users.anchor")
        return UserStore(self.db, key=self.audit.key, anchor_path=anchor)

    @cached_property
    def rate_limiter(self) -> RateLimiter:
        """Per-user request limits and per-tool limits, in CURBSIDE_RATE_LIMIT_STORAGE."""
        from curbside.auth.ratelimit import RateLimiter

        return RateLimiter.from_settings(self.settings)

    @cached_property
    def gate(self) -> Gate:
        """API keys to callers (and refusals recorded) for the HTTP API and MCP over HTTP."""
        from curbside.auth.gate import Gate

        return Gate(users=lambda: self.users, limiter=lambda: self.rate_limiter, trail=lambda: self.audit)

    @cached_property
    def tools(self) -> ToolExecutor:
        """Every tool family's tools, run through one executor (with this app's own metrics registry),
        under the application's hooks; calls without a caller run as the local operator."""
        from curbside.app.hooks import application_hooks
        from curbside.app.tool_families import build_registry
        from curbside.auth.access import operator_caller
        from curbside.tools.confirmations import ConfirmationStore
        from curbside.tools.executor import ToolExecutor
        from curbside.tools.metrics import ToolMetrics

        return ToolExecutor(
            build_registry(self),
            default_caller=operator_caller(self.settings),
            hooks=application_hooks(lambda: self.audit, lambda: self.rate_limiter),
            metrics=ToolMetrics(),
            confirmations=ConfirmationStore(ttl_s=self.settings.confirmation_ttl_s),
        )

    @cached_property
    def coverage_store(self) -> CoverageStore:
        """Where ``coverage load`` writes and ``coverage status`` reads (the ingestor built when a load needs it)."""
        from curbside.coverage.reports import CoverageStore

        return CoverageStore(
            db=self.db, documents=self.documents, ingestor=lambda: self.ingestor, cache_dir=self.settings.home / "cache"
        )

    @cached_property
    def source_parts(self) -> SourceParts:
        """What the coverage services take from the application, each part resolved on first use."""
        from curbside.coverage.source_service import SourceParts

        return SourceParts(
            settings=self.settings,
            open_store=self.open_store,
            search_engine=lambda: self.search_engine,
        )

    def coverage_service(self, name: str) -> SourceService[Any]:
        """The service of coverage source ``name`` ('odb', 'ohip', 'adp'), built on first use and kept."""
        from curbside.coverage.sources import SOURCES

        with self._coverage_lock:  # one service per source, however many threads ask at once
            if name not in self._coverage_services:
                source = next((s for s in SOURCES if s.name == name), None)
                if source is None:
                    raise KeyError(f"no coverage source {name!r}; the sources are {', '.join(s.name for s in SOURCES)}")
                service = source.service(self.source_parts)
                self._holds(service.close)
                self._coverage_services[name] = service
            return self._coverage_services[name]

    async def ask(
        self,
        request: AskRequest,
        caller: ToolCaller,
        *,
        channel: str,
        on_event: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None,
    ) -> Answer:
        """A cited answer to ``request``, with its audit row (the question redacted; PHI flag and model
        from the answer). Sizes are checked first: an over-long question costs only its cut row. With
        ``on_event``, a model's answer streams as it is written (``ask/stream.py``)."""
        from curbside.ask.record import ask_entry
        from curbside.audit.recording import audited_async
        from curbside.phi import remembered_detections

        with remembered_detections():  # the question is screened, then redacted for its row: analysed once
            async with audited_async(self.audit, ask_entry(caller, request, channel=channel)) as scope:
                self.asker.check(request)
                answer = await self.asker.ask(request, on_event)
                scope.entry = ask_entry(caller, request, channel=channel, answer=answer)
        return answer

    async def turn(
        self,
        request: TurnRequest,
        caller: ToolCaller,
        *,
        channel: str,
        on_event: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None,
    ) -> TurnResult:
        """A consult turn, with its own row on the audit trail beside its tools' rows (the message redacted)."""
        from curbside.agent.record import turn_entry
        from curbside.audit.recording import audited_async
        from curbside.phi import remembered_detections

        with remembered_detections():
            async with audited_async(self.audit, turn_entry(caller, request, channel=channel)) as scope:
                result = await self.turns.run(request, caller, on_event=on_event)
                scope.entry = turn_entry(caller, request, channel=channel, result=result)
        return result

    def search(
        self,
        query: str,
        caller: ToolCaller,
        *,
        channel: str,
        k: int | None = None,
        mode: str = "hybrid",
        filters: SearchFilters | None = None,
    ) -> SearchResponse:
        """Hybrid search of the knowledge base, with its audit row (the query redacted, the hits' ids)."""
        from curbside.audit.entries import search_entry
        from curbside.audit.recording import audited
        from curbside.types import SearchFilters

        filters = filters or SearchFilters()
        namespace = filters.namespace
        with audited(self.audit, search_entry(caller, query, channel=channel, mode=mode, namespace=namespace)) as scope:
            response = self.search_engine.search(query, k=k, mode=mode, filters=filters)
            scope.entry = search_entry(caller, query, channel=channel, mode=mode, namespace=namespace, response=response)
        return response

    def open_store(self) -> Database:
        """The database, opened now: the home exists and migrations are applied before anything reads it."""
        return self.db

    def make_home(self) -> None:
        """CURBSIDE_HOME, owner-only (0700) when Curbside creates it: it holds clinical text and keys."""
        home = self.settings.home
        if not home.exists():
            home.mkdir(mode=0o700, parents=True, exist_ok=True)

    def warm_up(self) -> None:
        """Load models and open the store now, so first requests meet their timeouts."""
        self.embedder.warm_up()
        self.search_engine.warm_up()
        self.models.warm_up()  # logs routing warnings at startup, not at the first question
        self.phi_screen.screen("warm up the PHI detector")
        self.tools.warm_up()

    def close(self) -> None:
        """Close every part that holds a resource, the last opened first (services and jobs before the
        database they use), and forget every part: using the application again builds them anew."""
        opened, self._opened = self._opened, []
        for close in reversed(opened):
            close()
        self._coverage_services = {}
        for name, attribute in vars(type(self)).items():
            if isinstance(attribute, cached_property):
                self.__dict__.pop(name, None)
