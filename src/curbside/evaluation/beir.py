"""Reading a BEIR-format retrieval dataset.

A BEIR directory holds ``corpus.jsonl`` (``{"_id", "title", "text"}`` per line),
``queries.jsonl`` (``{"_id", "text"}``) and ``qrels/<split>.tsv`` (query id,
corpus id, score; the header line is optional). A score > 0 means relevant.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curbside.errors import ValidationError

__all__ = ["BeirDataset", "CorpusRow", "doc_key_for", "load_beir"]

# the same rule as curbside.kb.ingest.validate_doc_key (kept here so reading needs no ingest imports)
_DOC_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")


@dataclass(frozen=True, slots=True)
class CorpusRow:
    id: str
    title: str
    text: str


@dataclass(slots=True)
class BeirDataset:
    name: str
    path: Path
    corpus: list[CorpusRow]
    queries: dict[str, str]  # query id → text, in file order; only queries with a relevant doc
    qrels: dict[str, dict[str, int]]  # query id → corpus id → grade, for the kept queries
    # qrels that name a corpus id absent from corpus.jsonl (unretrievable; they still count as relevant)
    missing_relevant: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def relevant_doc_ids(self) -> set[str]:
        return {d for judged in self.qrels.values() for d, g in judged.items() if g > 0}


def doc_key_for(corpus_id: str) -> str:
    """The store's doc key for a corpus id: the id itself when it is a valid key, else a stable derived one."""
    if _DOC_KEY.match(corpus_id):
        return corpus_id
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", corpus_id).strip("-._")[:150] or "doc"
    return f"{safe}.{hashlib.sha1(corpus_id.encode()).hexdigest()[:12]}"


def load_beir(
    path: Path,
    *,
    split: str = "test",
    limit_queries: int | None = None,
    limit_docs: int | None = None,
) -> BeirDataset:
    """Read a BEIR directory; every problem is a ``ValidationError`` naming the file (and line).

    ``limit_queries``: keep the first N queries (file order) that have a relevant document.
    ``limit_docs``: keep every document relevant to a kept query, then fill up to N
    documents in corpus order; never drops a relevant document, so the corpus may
    exceed N when the kept queries need more.
    """
    path = Path(path)
    if not path.is_dir():
        raise ValidationError(f"{path} is not a directory; expected a BEIR dataset (corpus.jsonl, queries.jsonl, qrels/).")
    corpus_file, queries_file, qrels_file = path / "corpus.jsonl", path / "queries.jsonl", path / "qrels" / f"{split}.tsv"
    for required in (corpus_file, queries_file, qrels_file):
        if not required.is_file():
            raise ValidationError(f"Missing {required}: a BEIR dataset needs corpus.jsonl, queries.jsonl and qrels/{split}.tsv.")
    for limit, flag in ((limit_queries, "--limit-queries"), (limit_docs, "--limit-docs")):
        if limit is not None and limit < 1:
            raise ValidationError(f"{flag} must be at least 1, got {limit}.")

    corpus = _read_corpus(corpus_file)
    all_queries = _read_queries(queries_file)
    all_qrels = _read_qrels(qrels_file)

    queries: dict[str, str] = {}
    for qid, text in all_queries.items():
        if any(g > 0 for g in all_qrels.get(qid, {}).values()):
            queries[qid] = text
            if limit_queries is not None and len(queries) == limit_queries:
                break
    if not queries:
        raise ValidationError(f"No query in {queries_file} has a relevant document (score > 0) in {qrels_file}.")
    qrels = {q: all_qrels[q] for q in queries}
    dataset = BeirDataset(path.resolve().name, path, corpus, queries, qrels)
    unknown = set(all_qrels) - set(all_queries)
    if unknown:
        dataset.notes.append(f"{len(unknown)} query ids in {qrels_file.name} are not in queries.jsonl; ignored")

    relevant = dataset.relevant_doc_ids
    if limit_docs is not None:
        kept = [r for r in corpus if r.id in relevant]
        room = limit_docs - len(kept)
        for row in corpus:
            if room <= 0:
                break
            if row.id not in relevant:
                kept.append(row)
                room -= 1
        order = {r.id: i for i, r in enumerate(corpus)}
        dataset.corpus = sorted(kept, key=lambda r: order[r.id])
        if len(kept) > limit_docs:
            dataset.notes.append(f"kept {len(kept)} documents (> --limit-docs {limit_docs}): all relevant ones stay")
    dataset.missing_relevant = len(relevant - {r.id for r in corpus})
    return dataset


def _jsonl(file: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with file.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValidationError(f"{file}, line {number}: not valid JSON ({exc.msg}).") from exc
            if not isinstance(obj, dict) or "_id" not in obj:
                raise ValidationError(f"{file}, line {number}: expected a JSON object with an \"_id\" field.")
            yield number, obj


def _text_field(obj: dict[str, Any], key: str, file: Path, number: int, *, required: bool) -> str:
    value = obj.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ValidationError(f"{file}, line {number}: \"{key}\" must be a string.")
    return value


def _read_corpus(file: Path) -> list[CorpusRow]:
    rows: list[CorpusRow] = []
    seen: set[str] = set()
    for number, obj in _jsonl(file):
        doc_id = str(obj["_id"])
        if doc_id in seen:
            raise ValidationError(f"{file}, line {number}: duplicate _id {doc_id!r}.")
        seen.add(doc_id)
        title = _text_field(obj, "title", file, number, required=False)
        rows.append(CorpusRow(doc_id, title, _text_field(obj, "text", file, number, required=True)))
    if not rows:
        raise ValidationError(f"{file} holds no documents.")
    return rows


def _read_queries(file: Path) -> dict[str, str]:
    queries: dict[str, str] = {}
    for number, obj in _jsonl(file):
        qid = str(obj["_id"])
        if qid in queries:
            raise ValidationError(f"{file}, line {number}: duplicate _id {qid!r}.")
        queries[qid] = _text_field(obj, "text", file, number, required=True)
    return queries


def _read_qrels(file: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    first = True
    with file.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            fields = [f.strip() for f in (line.rstrip("\n").split("\t") if "\t" in line else line.split())]
            if len(fields) == 4:  # TREC layout: query, iteration, doc, grade
                fields = [fields[0], fields[2], fields[3]]
            if len(fields) != 3:
                raise ValidationError(
                    f"{file}, line {number}: expected 3 tab-separated fields (query-id, corpus-id, score), got {len(fields)}."
                )
            qid, doc_id, score = fields
            try:
                grade = int(float(score))
            except ValueError:
                if first:  # the optional header, e.g. "query-id  corpus-id  score"
                    first = False
                    continue
                raise ValidationError(f"{file}, line {number}: score {score!r} is not a number.") from None
            first = False
            qrels.setdefault(qid, {})[doc_id] = grade
    return qrels
