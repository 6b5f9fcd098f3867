"""The SQL path of ``adp.get``: resolve the device against the loaded edition and fetch the rules that apply.

Runs on a worker thread with the reader's per-thread connection, inside one
read transaction, so a load committing meanwhile cannot mix two editions in one
answer. ``Cancel.interrupt`` stops its query when the path times out.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from curbside.coverage.adp.data import Rule
from curbside.coverage.adp.meaning import AdpMeaning, QuestionMeaning
from curbside.coverage.adp.passages import paragraph_ids
from curbside.coverage.adp.policy_quotes import policy_index, subject_words, unanswered
from curbside.coverage.adp.query import AdpRequest, Decision, TermIndex, by_meaning, resolve
from curbside.coverage.adp.store import AdpReader, DeviceRow, ManualEdition
from curbside.coverage.edition_cache import EditionCache
from curbside.coverage.policy_quotes import PolicyIndex, PolicyQuote
from curbside.coverage.reader import Cancel

__all__ = ["ChunkRef", "ManualsCache", "SqlFindings", "applies", "run_sql_path"]

ChunkRef = tuple[
    str, str, str, str, str, int, int | None
]  # chunk_id, doc_key, title, section_path, text, version, page


@dataclass(slots=True)
class SqlFindings:
    editions: list[ManualEdition]
    decision: Decision
    device: DeviceRow | None = None
    not_listed: tuple[str, str, int, str] | None = None  # manual, section, page, quote
    categories: list[tuple[str, int, str | None]] = field(default_factory=list)  # name, page, loaded manual
    rules: list[Rule] = field(default_factory=list)  # every rule that applies to the device (or to all)
    social_rules: list[Rule] = field(default_factory=list)  # every social assistance rule, for by-category figures
    chunks: dict[tuple[str, str], ChunkRef] = field(default_factory=dict)  # (manual, paragraph id) -> passage
    policy: list[PolicyQuote] = field(default_factory=list)  # the manual's sentences a policy question asks for
    unanswered: str | None = None  # what the question asks that no sentence matched and no share answers
    meaning: QuestionMeaning | None = None  # the question against the edition's vectors (None: words alone)

    @property
    def category(self) -> str | None:
        """The one category the answer is about, when it is determined."""
        if self.device is not None:
            return self.device.category
        cats = self.decision.categories
        return cats[0] if len(cats) == 1 else None

    @property
    def records(self) -> int:
        return len(self.rules)


class ManualsCache:
    """The term index and the passage index of the loaded edition, built once per load, shared by threads; and
    the vectors of its sentences and categories (``meaning``), built at load and read back at warm-up
    (``build_meaning``)."""

    def __init__(self, meaning: AdpMeaning | None = None) -> None:
        self._cache: EditionCache[tuple[TermIndex, dict[tuple[str, str], ChunkRef], PolicyIndex]] = EditionCache()
        self.meaning = meaning or AdpMeaning()

    def key(self, reader: AdpReader, editions: list[ManualEdition]) -> Hashable:
        passages = (
            reader.connection()
            .execute("SELECT COALESCE(MAX(current_version_id), 0), COUNT(*) FROM documents WHERE namespace = 'adp'")
            .fetchone()
        )
        return (tuple((e.id, e.loaded_at) for e in editions), tuple(passages or ()))

    def get(
        self, reader: AdpReader, editions: list[ManualEdition]
    ) -> tuple[TermIndex, dict[tuple[str, str], ChunkRef], PolicyIndex]:
        return self._cache.get(
            self.key(reader, editions),
            lambda: (TermIndex(reader.terms()), _chunk_index(reader), policy_index(reader.all_paragraphs())),
        )

    def build_meaning(self, reader: AdpReader, editions: list[ManualEdition]) -> None:
        """Embed the edition's sentences and categories, or read them from the cache (never inside a call)."""
        terms, _, policy = self.get(reader, editions)
        self.meaning.build(self.key(reader, editions), policy.texts(), terms.category_descriptions())


def _chunk_index(reader: AdpReader) -> dict[tuple[str, str], ChunkRef]:
    """(manual, paragraph id) -> the first current passage holding that paragraph's start."""
    rows = reader.connection().execute(
        "SELECT c.chunk_id, d.doc_key, v.title, c.section_path, c.text, v.version, c.page FROM chunks c "
        "JOIN documents d ON d.current_version_id = c.version_id JOIN document_versions v ON v.id = c.version_id "
        "WHERE d.namespace = 'adp' ORDER BY c.id"
    )
    index: dict[tuple[str, str], ChunkRef] = {}
    for row in rows:
        manual = row[1].removeprefix("adp-")
        for paragraph in paragraph_ids(row[4]):
            index.setdefault((manual, paragraph), tuple(row))  # type: ignore[arg-type]
    return index


def applies(rule: Rule, category: str | None, device: DeviceRow | None) -> bool:
    targets = {"all"}
    if category:
        targets.add(category)
    if device is not None:
        targets |= {device.group, device.key}
    return bool(targets & set(rule.applies_to))


def run_sql_path(reader: AdpReader, cache: ManualsCache, request: AdpRequest, cancel: Cancel) -> SqlFindings:
    """Resolve and fetch; raises NotFoundError when nothing is loaded (the caller records it)."""
    with reader.snapshot() as conn:
        cancel.attach(conn)
        editions = reader.editions()
        terms, chunks, policy = cache.get(reader, editions)
        meaning = cache.meaning.question(cache.key(reader, editions), request.question)
        devices: dict[str, DeviceRow | None] = {}

        def device_category(key: str) -> str | None:
            if key not in devices:
                devices[key] = reader.device(key)
            row = devices[key]
            return row.category if row else None

        decision = resolve(terms, request, device_category)
        if meaning is not None:
            decision = by_meaning(decision, request, meaning)
        out = SqlFindings(editions, decision, categories=reader.categories(), chunks=chunks, meaning=meaning)
        out.policy = policy.quotes(
            request.question,
            subject_words(request.question, decision.resolution.matched),
            meaning.sentence_cosines if meaning is not None else None,
        )
        if not out.policy:
            out.unanswered = unanswered(policy, request.question)
        if decision.problem is None:
            r = decision.resolution
            if r.kind == "device" and r.device_key:
                out.device = devices.get(r.device_key) or reader.device(r.device_key)
            elif r.kind == "not_listed" and r.not_listed_key:
                out.not_listed = reader.not_listed(r.not_listed_key)
        every = reader.rules()
        out.rules = [rule for rule in every if applies(rule, out.category, out.device)]
        out.social_rules = [rule for rule in every if rule.kind == "social_assistance"]
        return out
