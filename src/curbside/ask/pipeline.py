"""``ask``: from a question (or a condition with findings) to a cited answer.

Steps: compose and check the query → clarify when under-specified → hybrid
search with the relevance threshold → ``no_source`` when nothing passes and no
passage below it holds the question's rare key words (``ask/below_threshold.py``) →
screen the outgoing prompt for PHI and route it (``llm/endpoints.py``) → a
generated answer from the permitted model (markers checked against the
passages) else the extractive one → assemble with metadata. A failing model
degrades to the extractive answer; it never fails the request.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from curbside.ask.abstain import (
    Evidence,
    abstention_model,
    agreement,
    bracket_names,
    coverage_terms,
    holds_subject,
    key_words,
    lacking_subjects,
    rarity,
    resolve_unknown,
    subject_terms,
    subject_word,
    typed_answer,
    unknown_words,
    warm_word_frequencies,
    weighted_share,
    withheld_payment,
    withheld_value,
)
from curbside.ask.below_threshold import (
    agreed_near_threshold,
    best_key_share,
    best_unit_cosine,
    close_in_meaning,
    holds_key_words,
)
from curbside.ask.clarify import clarifying_question
from curbside.ask.drug_classes import class_warning, drug_classes, with_drug_classes
from curbside.ask.focus import Outline, missing_population, off_subject, one_option, unasked_groups
from curbside.ask.generic_names import generic_names, with_generic_names
from curbside.ask.joined_numbers import joined_numbers
from curbside.ask.keyword_first import keyword_first, quoted_or_found, with_keyword_first
from curbside.ask.named import NAMED_KINDS, named_subject, unnamed, withheld_unnamed, yes_no
from curbside.ask.named_source import named_source
from curbside.ask.neighbours import with_neighbours
from curbside.ask.query import compose_query
from curbside.ask.reserve import RESERVE_PASSAGES, leading_reserve, reserve_passages
from curbside.ask.spelled_abbreviations import spelled_abbreviations
from curbside.ask.stream import EventSink, RenumberingStream
from curbside.errors import UpstreamError, ValidationError
from curbside.llm.extractive import ExtractiveAnswer, Sentence, answer_kind, asked_kind, extractive_answer
from curbside.llm.lay_terms import clinical_words
from curbside.llm.markers import check_markers
from curbside.llm.prompts import answer_messages
from curbside.llm.unit_choice import load_unit_choice
from curbside.sentences import split_sentences
from curbside.types import Answer, AskRequest, Citation, Passage, SearchFilters, SearchResponse

if TYPE_CHECKING:
    from curbside.ask.screening import PromptScreen, ScreenResult
    from curbside.llm.client import Message
    from curbside.llm.endpoints import Endpoint, ModelRouter
    from curbside.search.engine import SearchEngine
    from curbside.settings import Settings

__all__ = ["Asker"]

log = logging.getLogger(__name__)

_MARKER = re.compile(r"\[\d+\]")
_LEADING_MARKERS = re.compile(r"^(?:\s*\[\d+\])+\s*")
# passages of the search within the agreeing margin under the threshold among which the keyword retriever's first is
# looked for (``ask/keyword_first.py``): it is there whatever its dense rank
KEYWORD_FIRST_DEPTH = 20
MIN_ANSWER_WORDS = 3  # fewer words than this beside the markers is no answer (small models emit "[1]" alone)


class Asker:
    def __init__(self, *, engine: SearchEngine, settings: Settings, router: ModelRouter, screen: PromptScreen) -> None:
        self.engine = engine
        self.settings = settings
        self.router = router
        self.screen = screen

    async def ask(self, request: AskRequest, on_event: EventSink | None = None) -> Answer:
        """A cited answer; with ``on_event``, a model's answer streams as it is written (``ask/stream.py``)."""
        answer = await self._ask(request, on_event)
        meta = answer.metadata
        # the question goes through the log formatter's PHI redactor; the patient context is never logged
        log.info(
            "ask %s",
            answer.status,
            extra={
                "event": "ask",
                "question": request.question,
                "status": answer.status,
                "model_used": meta.get("model_used"),
                "phi_detected": meta.get("phi_detected"),
                "took_ms": meta.get("took_ms"),
            },
        )
        return answer

    def check(self, request: AskRequest) -> tuple[str, str | None]:
        """The search text and patient context of ``request``, or ValidationError: sizes before any work."""
        s = self.settings
        text = compose_query(request.question, request.condition, request.findings, max_findings=s.max_findings)
        if not text.strip():
            raise ValidationError("The question is empty. Ask a clinical question, or give --condition with findings.")
        if len(text) > s.max_query_chars:
            raise ValidationError(
                f"The question is {len(text):,} characters long; the limit is {s.max_query_chars:,} "
                "(CURBSIDE_MAX_QUERY_CHARS). Ask it more briefly."
            )
        context = (request.patient_context or "").strip() or None
        if context and len(context) > s.max_patient_context_chars:
            raise ValidationError(
                f"The patient context is {len(context):,} characters long; the limit is "
                f"{s.max_patient_context_chars:,} (CURBSIDE_MAX_PATIENT_CONTEXT_CHARS). "
                "Give the facts that bear on the question."
            )
        return text, context

    async def _ask(self, request: AskRequest, on_event: EventSink | None = None) -> Answer:
        started = time.perf_counter()
        text, context = self.check(request)
        # the user's own words, screened on every path so the answer and the audit trail can say whether they held
        # PHI. The answer is worked out meanwhile (nothing leaves the machine before the screen's verdict): on a
        # cold start the detector's first load overlaps the search and the judging (``phi/child.py``).
        screening = asyncio.ensure_future(
            asyncio.to_thread(self.screen.screen, request.question, request.condition, *request.findings, context)
        )
        try:
            answer = await self._answer(request, text, context, screening, on_event)
        finally:
            screened = await screening  # never fails: a detector that fails reads as PHI found
        answer.metadata = (
            screened.metadata() | {"routing_mode": self.router.mode, "model_used": "extractive"} | answer.metadata
        )
        answer.metadata["took_ms"] = _ms(started)
        return answer

    def _documents(self, namespace: str) -> list[str]:
        """The doc key of every current document of ``namespace``."""
        return [v.doc_key for v in self.engine.documents.list_current(namespace)]

    def _frequencies(self, words: Sequence[str]) -> Mapping[str, int]:
        """How many chunks of the knowledge base hold each word (``SearchEngine.word_frequencies``)."""
        return self.engine.word_frequencies(words)[0]

    async def _answer(
        self,
        request: AskRequest,
        text: str,
        context: str | None,
        screening: asyncio.Future[ScreenResult],
        on_event: EventSink | None,
    ) -> Answer:
        s = self.settings
        # the guards' English word frequencies load while the search runs (the encoder releases the GIL)
        warming = asyncio.ensure_future(asyncio.to_thread(warm_word_frequencies))
        # 'lexapro' where the knowledge base writes only escitalopram: asked as the ingredient (``generic_names``)
        renamed = await asyncio.to_thread(generic_names, text, self._frequencies)
        # 'gad7' where the knowledge base writes 'GAD-7': written apart by the same whole-word replacement
        apart = await asyncio.to_thread(joined_numbers, text, self._frequencies)
        # 'TD' where the knowledge base writes only 'tardive dyskinesia': asked in the words written out
        spelled = await asyncio.to_thread(spelled_abbreviations, text, self._frequencies)
        text = with_generic_names(text, [*renamed, *apart, *spelled])
        # 'amlodipine' where the knowledge base writes only 'calcium channel blocker': asked as the class
        classes = await asyncio.to_thread(drug_classes, text, self._frequencies)
        text = with_drug_classes(text, classes)
        # 'ok per CEP to …?': asked of the document it names, without its name (``named_source``)
        named = None
        if request.doc_key is None:
            named = await asyncio.to_thread(named_source, text, partial(self._documents, request.namespace))
            text = named.question if named is not None else text
        meta: dict[str, object] = {"query": text, "embedder": self.engine.embedder.model_id}
        if renamed:
            meta["generic_names"] = dict(renamed)
        if classes:
            meta["drug_classes"] = {d.written: d.name for d in classes}
        if named is not None:
            meta["named_source"] = {"name": named.name, "doc_key": named.doc_key}
        clarify = clarifying_question(text)
        k = request.k or s.answer_passages
        filters = SearchFilters(
            source_type=request.source_type,
            specialty=request.specialty,
            doc_key=named.doc_key if named is not None else request.doc_key,
            namespace=request.namespace,
        )
        searched = time.perf_counter()
        response = None
        try:
            if clarify is None:
                # symptoms said in everyday words are searched in the monographs' words too ('itchy' -> pruritus)
                lay = clinical_words(text.lower())
                searched_text = f"{text} ({' '.join(lay)})" if lay else text
                response = await asyncio.to_thread(self.engine.search, searched_text, k=k, filters=filters)
            search_ms = _ms(searched)
        finally:
            await warming

        if response is None:  # the question needs a clarification first
            return Answer(status="clarify", answer="", clarifying_question=clarify, metadata=meta)

        meta |= {
            "expanded_query": response.expanded_query,
            "search_ms": search_ms,
            "passages_considered": len(response.hits),
            "relevance_threshold": self.engine.default_threshold(),
        }
        warnings = list(response.warnings)
        if classes:
            warnings.append(class_warning(classes))
        if not response.hits:
            below = await asyncio.to_thread(self._below_threshold, text, k, filters, meta)
            if below is not None:
                response = below
        if not response.hits:
            return await self._no_source(text, filters, warnings, meta)
        hits = response.hits
        found = {h.chunk_id for h in hits}
        if "relevance_floor" not in meta:  # found over the threshold: a passage just under it may join them
            hits = await asyncio.to_thread(self._keyword_first, searched_text, filters, hits)
        meta["top_similarity"] = _round(max((h.similarity or 0.0) for h in hits))
        hits, all_off = await asyncio.to_thread(self._stay_on_question, text, hits, warnings, meta)
        pool = await asyncio.to_thread(with_neighbours, hits, self.engine.neighbours)
        reserve = await asyncio.to_thread(self._reserve, text, filters, pool)
        leading = leading_reserve(text, reserve, pool)
        if leading:  # the passage filed under what the question names, just under the threshold
            pool, reserve = [*leading, *pool], [p for p in reserve if p not in leading]
        cosines: dict[str, float | None] = {}  # each unit's meaning cosine, kept for the abstention evidence

        def meaning(texts: list[str]) -> list[float | None]:
            found = self.engine.unit_similarities(text, texts)
            cosines.update(zip(texts, found, strict=True))
            return found

        extract = await asyncio.to_thread(
            extractive_answer, text, pool, s.answer_max_sentences, meaning, reserve, load_unit_choice()
        )
        # the keyword passage that joined them is evidence only when the answer quotes it: its words alone must not
        # let the guards pass an answer drawn from the others ('reimburse' held by "905 Rebates" for an OT's mileage)
        judged = quoted_or_found(hits, found, extract.sentences, [*pool, *reserve])
        withheld = await asyncio.to_thread(
            self._judge, text, judged, extract, all_off, meta, cosines, [*pool, *reserve]
        )
        if withheld is not None:
            return self._abstained(withheld, warnings, meta)

        if not request.use_llm:
            meta["routing_reason"] = "the request asked for the extractive answer"
            answer = self._extractive(text, pool, warnings, meta, status="answered", extract=extract)
        elif not self.router.has_model:
            meta["routing_reason"] = self.router.route((await screening).phi).reason
            answer = self._extractive(text, pool, warnings, meta, status="answered", extract=extract)
        else:
            shown = hits[: s.llm_passages]  # the fallback below still draws on every hit
            messages = answer_messages(
                _prompt_question(request, text), shown, passage_chars=s.llm_passage_chars, patient_context=context
            )
            answer = await self._routed(messages, await screening, text, hits, shown, warnings, meta, on_event)
        self._check_population(request.question, answer)
        self._check_choice(text, answer, [*pool, *reserve])
        return answer

    # --- stay on the question, abstain honestly ------------------------------------------
    def _stay_on_question(
        self, text: str, hits: list[Passage], warnings: list[str], meta: dict[str, object]
    ) -> tuple[list[Passage], bool]:
        """Drop hits filed under a sibling of what the question names, when others remain; else flag them."""
        outlines: dict[tuple[str, int], Outline] = {}
        verdicts = []
        for hit in hits:
            key = (hit.doc_key, hit.version)
            if key not in outlines:
                outlines[key] = Outline(self.engine.outline(*key))
            verdicts.append(off_subject(text, hit.section_path, outlines[key], hit.body))
        off = [(h, v) for h, v in zip(hits, verdicts, strict=True) if v is not None]
        if not off:
            return hits, False
        meta["off_subject"] = [{"chunk_id": h.chunk_id, "heading": v.heading, "named": v.named} for h, v in off]
        kept = [h for h, v in zip(hits, verdicts, strict=True) if v is None]
        if kept:
            return kept, False
        first = off[0][1]
        warnings.append(
            f"The passages found are about other subjects than the question names: the first is filed under "
            f"'{first.heading}', beside a section on '{first.named}'. Check that the answer applies."
        )
        return hits, True

    def _keyword_first(self, text: str, filters: SearchFilters, hits: Sequence[Passage]) -> list[Passage]:
        """``hits`` with the keyword search's first passage when the threshold cut it by no more than the agreeing
        margin (``ask/keyword_first.py``)."""
        margin, threshold = self.settings.ask_below_threshold_agreeing_margin, self.engine.default_threshold()
        if margin is None or threshold is None:
            return list(hits)
        near = self.engine.search(text, k=KEYWORD_FIRST_DEPTH, filters=filters, min_similarity=threshold - margin)
        if keyword_first(hits, near.hits) is None:
            return list(hits)  # nothing joins them: the key words need not be weighed
        keys, frequencies, idf = self._key_weights(text)
        return with_keyword_first(hits, near.hits, keys, subject_terms(keys, idf, frequencies), coverage_terms)

    def _reserve(self, text: str, filters: SearchFilters, pool: Sequence[Passage]) -> list[Passage]:
        """The reserve passages (``ask/reserve.py``): strong hits just under the similarity threshold."""
        found = self.engine.search(text, k=RESERVE_PASSAGES, filters=filters, min_similarity=None).hits
        return reserve_passages(text, found, pool, self.engine.outline)

    def _below_threshold(
        self, text: str, k: int, filters: SearchFilters, meta: dict[str, object]
    ) -> SearchResponse | None:
        """The best passages below the relevance threshold when one holds the question's rare key words, else
        None (``ask/below_threshold.py``); the check is recorded in ``meta["relevance_floor"]``."""
        min_share = self.settings.ask_below_threshold_key_share
        if min_share is None:
            return None
        below = self.engine.search(text, k=k, filters=filters, min_similarity=None)
        if not below.hits:
            return None
        keys, _, idf = self._key_weights(text)
        share = best_key_share(keys, idf, below.hits, lacking=len(set(key_words(text)) - set(keys)))
        accepted = holds_key_words(share, min_share)
        floor: dict[str, object] = {
            "top_similarity": _round(max((h.similarity or 0.0) for h in below.hits)),
            "key_share": round(share, 4),
            "min_key_share": min_share,
        }
        min_cosine = self.settings.ask_below_threshold_unit_cosine
        if not accepted and min_cosine is not None:
            # the units of the passages the answer would quote (with their neighbours), as the answerer cuts them
            pool = with_neighbours(below.hits, self.engine.neighbours)
            cosine = best_unit_cosine(text, pool, lambda texts: self.engine.unit_similarities(text, texts))
            accepted = close_in_meaning(cosine, min_cosine)
            floor |= {"unit_cosine": round(cosine, 4), "min_unit_cosine": min_cosine}
        margin, threshold = self.settings.ask_below_threshold_agreeing_margin, self.engine.default_threshold()
        if not accepted and margin is not None and threshold is not None:
            near = agreed_near_threshold(below.hits, threshold - margin)
            if near:
                below, accepted = below.model_copy(update={"hits": near}), True
            floor |= {"agreeing_margin": margin, "agreed": bool(near)}
        meta["relevance_floor"] = floor | {"accepted": accepted}
        return below if accepted else None

    def _key_weights(self, text: str) -> tuple[dict[str, str], dict[str, int], dict[str, float]]:
        """The question's key words, their chunk frequencies and rarity weights in the knowledge base."""
        keys = key_words(text)
        frequencies, chunks = self.engine.word_frequencies(list(keys))
        keys, frequencies = resolve_unknown(
            keys, frequencies, lambda words, prefix: self.engine.word_frequencies(words, prefix=prefix)[0]
        )
        return keys, frequencies, rarity(frequencies, chunks)

    def _judge(
        self,
        text: str,
        hits: Sequence[Passage],
        extract: ExtractiveAnswer,
        all_off: bool,
        meta: dict[str, object],
        cosines: Mapping[str, float | None],
        read: Sequence[Passage] = (),
    ) -> str | None:
        """The abstention evidence into ``meta``; the no_source message when the answer should be withheld.
        ``read``: the passages ``extract``'s units were read from, in their ranks' order."""
        model = abstention_model()
        keys, frequencies, idf = self._key_weights(text)
        passages = [f"{h.title} {h.section_path} {h.body}" for h in hits]
        best = max(extract.sentences, key=lambda u: u.score, default=None)
        unit_terms = set(best.terms | best.context) if best is not None else set()
        top = hits[0]
        relevance = [h.relevance for h in hits if h.relevance is not None]
        evidence = Evidence(
            top_relevance=max(relevance, default=0.0),
            key_coverage=weighted_share(coverage_terms(passages), keys, idf),
            unknown=unknown_words(frequencies),
            unit_coverage=weighted_share(unit_terms, keys, idf),
            agreement=agreement(top.dense_rank, top.lexical_rank),
            off_subject=all_off,
            typed_answer=typed_answer(text, extract.candidates, keys, idf, frequencies, read),
            population_missing=bool(missing_population(text, passages)),
            subject_in_answer=holds_subject(extract.sentences, subject_terms(keys, idf, frequencies)),
        )
        judged: dict[str, object] = evidence.as_dict()
        judged["extra"] = _candidate_evidence(
            hits, relevance, best, subject_terms(keys, idf, frequencies), passages
        ) | _meaning_evidence(extract, cosines, subject_terms(keys, idf, frequencies))
        meta["abstention"] = judged
        # the guards' and the model's verdicts are recorded even when abstention is off, so one benchmark run
        # with CURBSIDE_ABSTAIN=false shows what each rule would withhold (benchmarks/fit_abstention.py)
        ruled = self._guard(text, evidence, keys, idf, frequencies, passages, extract)
        if ruled is not None:
            judged |= {"rule": ruled[0], "guard": ruled[1]}
        p = model.probability(evidence) if model is not None and relevance else None
        if model is not None and p is not None:
            judged |= {"p_answerable": round(p, 4), "threshold": model.threshold}
        if not self.settings.abstain:
            return None
        if ruled is not None:
            return ruled[2]
        if model is None or p is None:
            return None  # no calibrated relevance (bm25, an unfitted embedder): never guess
        return _not_answered(evidence.unknown) if p < model.threshold else None

    @staticmethod
    def _guard(
        text: str,
        evidence: Evidence,
        keys: dict[str, str],
        idf: dict[str, float],
        frequencies: dict[str, int],
        passages: list[str],
        extract: ExtractiveAnswer,
    ) -> tuple[str, str, str] | None:
        """The rule that withholds this answer outright, as (rule name, its reason, the no_source message), or None."""
        lacking = lacking_subjects(evidence.unknown)
        if lacking:
            reason = f"the knowledge base never mentions {', '.join(lacking)}"
            return "lacking_subject", reason, _not_answered(evidence.unknown)
        kind = asked_kind(text)
        populations = missing_population(text, passages)
        guard = withheld_value(kind, evidence, subject_word(keys, idf, frequencies), populations)
        if guard is not None:
            # the guard's own reason: the unknown words here are not subjects the knowledge base lacks (those
            # returned above), so "does not mention 'ect'" would name the wrong cause
            return ("value_population" if evidence.typed_answer else "value_untyped"), guard, guard
        if kind in NAMED_KINDS or (kind is None and yes_no(text)):
            subject = named_subject(keys, idf, evidence.unknown)
            missing = unnamed(subject, passages, answer_kind(text), bracket_names(text))
            guard = withheld_unnamed(kind, missing)
            if guard is not None:
                return "unnamed", guard, guard
        guard = withheld_payment(kind, text, extract.candidates)
        return ("payment", guard, guard) if guard is not None else None

    def _abstained(self, message: str, warnings: list[str], meta: dict[str, object]) -> Answer:
        meta |= {"mode": None, "model_used": "extractive", "abstained": True}
        return Answer(status="no_source", answer=message, warnings=warnings, metadata=meta)

    def _check_population(self, question: str, answer: Answer) -> None:
        """Flag an answer whose cited passages never mention the population the question names, or whose lines are
        reserved for a group the question does not name."""
        if not answer.citations:
            return
        missing = missing_population(question, [f"{c.section_path or ''} {c.excerpt}" for c in answer.citations])
        if missing:
            answer.warnings.append(
                f"The question is about {' and '.join(missing)}, but the cited passages do not mention them; "
                "check that the answer applies."
            )
        groups = unasked_groups(question, answer.answer)
        if groups:
            answer.warnings.append(
                f"Part of the answer is for {' and '.join(groups)}, whom the question does not name; "
                "check that it applies to the patient."
            )

    def _check_choice(self, text: str, answer: Answer, passages: Sequence[Passage]) -> None:
        """Flag an answer to a question that chooses or compares ("which SSRI …?", "X vs Y") drawn from the sections
        of options it does not name, or from one of those it compares (``focus.one_option``)."""
        found = {p.chunk_id: p for p in passages}
        cited = [found[c.chunk_id] for c in answer.citations if c.chunk_id in found]
        outlines = {key: Outline(self.engine.outline(*key)) for key in {(p.doc_key, p.version) for p in cited}}
        drawn = one_option(text, [(p.section_path, outlines[p.doc_key, p.version]) for p in cited])
        if drawn is None:
            return
        answer.metadata["one_option"] = {"headings": list(drawn.headings), "parent": drawn.parent}
        quoted = " and ".join(f"'{h}'" for h in drawn.headings)
        answer.warnings.append(
            f"The question chooses among or compares options, but the answer is drawn from the section on {quoted}, "
            f"{'one' if len(drawn.headings) == 1 else 'some'} of the {drawn.options} under '{drawn.parent}', so it "
            "does not compare them; check the others before choosing."
        )

    async def _routed(
        self,
        messages: list[Message],
        screened: ScreenResult,
        text: str,
        hits: Sequence[Passage],
        shown: Sequence[Passage],
        warnings: list[str],
        meta: dict[str, object],
        on_event: EventSink | None = None,
    ) -> Answer:
        phi = screened.phi
        if self.router.needs_screening:
            # the whole outgoing prompt, passages included, before anything may go to the cloud
            prompt = await asyncio.to_thread(self.screen.screen, *(m["content"] for m in messages))
            phi = phi or prompt.phi
            meta |= {
                "phi_detected": phi,
                "phi_types": sorted(set(screened.types) | set(prompt.types)),
                "phi_screen_ms": round(screened.ms + prompt.ms, 2),
            }
            if prompt.error:
                meta["phi_screen_error"] = prompt.error
            if prompt.error or screened.error:
                warnings.append(
                    "PHI screening failed, so the prompt was treated as holding PHI and kept off the cloud."
                )
        route = self.router.route(phi)
        meta["routing_reason"] = route.reason
        if route.endpoint is None:
            return self._extractive(text, hits, warnings, meta, status="answered")
        stream = RenumberingStream(on_event, shown) if on_event is not None else None
        answer = await self._generated(route.endpoint, messages, text, hits, shown, warnings, meta, stream)
        if stream is not None and stream.streamed and answer.metadata.get("mode") != "generated":
            await stream.sink("retract", {"reason": str(meta.get("llm_error") or "the model's answer was not used")})
        return answer

    # --- answer paths --------------------------------------------------------------------------
    def _extractive(
        self,
        text: str,
        hits: Sequence[Passage],
        warnings: list[str],
        meta: dict[str, object],
        *,
        status: str,
        extract: ExtractiveAnswer | None = None,
    ) -> Answer:
        if extract is None:
            extract = extractive_answer(text, hits, self.settings.answer_max_sentences, chooser=load_unit_choice())
        meta |= {"mode": "extractive", "model_used": "extractive"}
        return Answer(
            status=status,  # type: ignore[arg-type]
            answer=extract.text,
            citations=extract.citations,
            warnings=warnings,
            metadata=meta,
        )

    async def _generated(
        self,
        endpoint: Endpoint,
        messages: list[Message],
        text: str,
        hits: Sequence[Passage],
        shown: Sequence[Passage],
        warnings: list[str],
        meta: dict[str, object],
        stream: RenumberingStream | None = None,
    ) -> Answer:
        client = self.router.client(endpoint)
        breaker = self.router.breakers[endpoint]
        meta["llm_endpoint"] = client.name
        if not breaker.allow():
            warnings.append(
                f"The {client.name} model failed {breaker.consecutive_failures} times in a row, so it is skipped "
                f"for {breaker.retry_in():.0f} s more; this is the extractive answer."
            )
            meta["llm_error"] = "CIRCUIT_OPEN"
            return self._extractive(text, hits, warnings, meta, status="degraded")
        try:
            completion = await client.complete(
                messages,
                max_tokens=self.settings.llm_max_tokens,
                temperature=self.settings.llm_temperature,
                on_token=stream.feed if stream is not None else None,
            )
            if stream is not None:
                await stream.close()
        except UpstreamError as exc:
            breaker.record_failure()
            warnings.append(f"The {client.name} model failed ({exc.message}); this is the extractive answer instead.")
            meta["llm_error"] = exc.code
            return self._extractive(text, hits, warnings, meta, status="degraded")
        except BaseException:
            breaker.abandon()  # cancelled mid-call: no verdict on the model, but free the trial slot
            raise
        breaker.record_success()  # the endpoint works, even if this answer turns out ungrounded
        meta |= {"generation_ms": round(completion.total_ms, 1), "ttft_ms": _round(completion.ttft_ms, 1)}
        check = check_markers(completion.text, range(1, len(shown) + 1))
        if check.unknown:
            listed = ", ".join(f"[{n}]" for n in check.unknown)
            warnings.append(f"The model cited {listed}, which match no passage; those markers were removed.")
        prose = re.sub(r"\[\d+\]", " ", check.text).split()
        if not check.cited or len(prose) < MIN_ANSWER_WORDS:
            if not completion.text.strip():
                reason = "was empty"
            elif not check.cited:
                reason = "cited no passage"
            else:
                reason = "had no text beside its markers"
            warnings.append(f"The model's answer {reason}, so it is not shown; this is the extractive answer instead.")
            meta["llm_error"] = "UNGROUNDED"
            return self._extractive(text, hits, warnings, meta, status="degraded")
        uncited = _uncited_sentences(check.text)
        if uncited:
            total = len(split_sentences(check.text))
            warnings.append(
                f"{len(uncited)} of {total} sentences of the model's answer cite no passage; read them as unsupported."
            )
            meta["uncited_sentences"] = uncited
        if completion.finish_reason == "length":
            warnings.append("The model's answer was cut at CURBSIDE_LLM_MAX_TOKENS.")
        citations = [Citation.from_passage(new, shown[old - 1]) for new, old in enumerate(check.cited, 1)]
        meta |= {"mode": "generated", "model_used": endpoint, "llm_model": completion.model}
        return Answer(status="answered", answer=check.text, citations=citations, warnings=warnings, metadata=meta)

    async def _no_source(
        self, text: str, filters: SearchFilters, warnings: list[str], meta: dict[str, object]
    ) -> Answer:
        floor = meta.get("relevance_floor")
        if isinstance(floor, dict):  # the second look below the threshold searched already and found passages
            meta["top_similarity"] = floor["top_similarity"]
            best_found = True
        else:
            best = await asyncio.to_thread(
                self.engine.search, text, k=1, mode="dense", filters=filters, min_similarity=None
            )
            best_found = bool(best.hits)
            if best_found:
                meta["top_similarity"] = _round(best.hits[0].similarity)
        if not best_found:
            message = (
                "The knowledge base holds no documents yet (for these filters), so there is nothing to answer from."
            )
            warnings.append("Ingest sources with `curbside ingest PATH…` or POST /v1/documents.")
        else:
            message = (
                "No passage in the knowledge base is relevant enough to answer this question, so no answer is given. "
                "Rephrase it, or ingest a source that covers it."
            )
        meta |= {"mode": None, "model_used": "extractive"}
        return Answer(status="no_source", answer=message, warnings=warnings, metadata=meta)


def _candidate_evidence(
    hits: Sequence[Passage], relevance: list[float], best: Sentence | None, subject: set[str], passages: list[str]
) -> dict[str, float]:
    """Cheap evidence the model does not use yet, recorded for benchmarks/fit_abstention.py to try."""
    ranked = sorted(relevance, reverse=True) + [0.0, 0.0]
    return {
        "relevance_margin": round(ranked[0] - ranked[1], 4),
        "best_score": round(best.score, 4) if best is not None else 0.0,
        "subject_in_best": float(best is not None and holds_subject([best], subject)),
        "lexical_top": float(hits[0].lexical_rank == 1),
        "subject_in_passages": float(not subject or bool(subject & coverage_terms(passages))),
    }


def _meaning_evidence(
    extract: ExtractiveAnswer, cosines: Mapping[str, float | None], subject: set[str]
) -> dict[str, float]:
    """The answer units' meaning cosines to the question, recorded for benchmarks/fit_abstention.py to try."""
    known = sorted((c for u in extract.candidates if (c := cosines.get(u.text)) is not None), reverse=True)
    if not known:
        return {}
    top = known[0]
    mean = sum(known) / len(known)
    chosen = [c for u in extract.sentences if (c := cosines.get(u.text)) is not None]
    about = [c for u in extract.candidates if (c := cosines.get(u.text)) is not None and holds_subject([u], subject)]
    return {
        "unit_cos_max": round(top, 4),
        "unit_cos_margin": round(top - mean, 4),
        "unit_cos_gap": round(top - (known[1] if len(known) > 1 else mean), 4),
        "unit_cos_chosen": round(max(chosen, default=0.0), 4),
        "unit_cos_subject": round(max(about, default=0.0), 4),
    }


def _not_answered(unknown: Sequence[str]) -> str:
    """The no_source message of the abstention model: the words the knowledge base lacks, if any."""
    if unknown:
        quoted = [f"'{w}'" for w in unknown]
        named = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + f" or {quoted[-1]}"
        return (
            f"The knowledge base does not mention {named}, so it cannot answer this question; no answer is given. "
            "Ingest a source that covers it."
        )
    return (
        "The passages found do not answer this question well enough (they miss what the question asks "
        "about), so no answer is given. Rephrase it, or ingest a source that covers it."
    )


def _uncited_sentences(text: str) -> list[str]:
    """Sentences of a generated answer with no [n]; a marker opening the next sentence counts for this one."""
    sentences = split_sentences(text)
    out = []
    for i, sentence in enumerate(sentences):
        own = _LEADING_MARKERS.sub("", sentence)  # markers opening a sentence belong to the one before
        following = sentences[i + 1] if i + 1 < len(sentences) else ""
        if own and not _MARKER.search(own) and not _MARKER.match(following.lstrip()):
            out.append(own)
    return out


def _prompt_question(request: AskRequest, text: str) -> str:
    if not request.condition:
        return text
    lines = [f"Condition: {request.condition.strip()}"]
    if request.findings:
        lines.append("Clinical findings: " + "; ".join(f.strip() for f in request.findings if f.strip()))
    lines.append(request.question.strip() or "What do the guidelines recommend for this patient?")
    return "\n".join(lines)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 1)


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(float(value), digits)
