"""Load the ADP manuals: parse every one completely, check the rule files against them, swap, index.

The manuals load together (the rules cite both): when one file cannot be
parsed, or a rule's quote is not in the manual it cites, nothing changes and
the previous edition keeps answering. The same files again leave the tables as
they are (same SHA-256 of every PDF and of the rule files) and the ingest skips
every unchanged passage document, so the report says ``unchanged``.
"""

from __future__ import annotations

import hashlib
import logging
import time
from pathlib import Path

from curbside.coverage.adp.data import (
    data_digest,
    device_vocabulary,
    funding_rules,
    listed_categories,
    required_manuals,
    verify,
)
from curbside.coverage.adp.meaning import AdpMeaning
from curbside.coverage.adp.parse import CORE_KEY, ParsedManual, parse_manual
from curbside.coverage.adp.passages import DOC_PREFIX, NAMESPACE, SOURCE_TYPE, build_documents, doc_key
from curbside.coverage.adp.sql_path import ManualsCache
from curbside.coverage.adp.store import AdpReader, current_editions, replace_manuals
from curbside.coverage.reports import CoverageStore, LoadProgress, SourceReport
from curbside.coverage.source_load import PassageIndex, PatternLoader, passage_counts
from curbside.errors import CurbsideError

__all__ = ["AdpLoader", "load_adp"]

PATTERN = "*adp*manual*.pdf"
_SHOWN_PROBLEMS = 3
PASSAGES = PassageIndex(NAMESPACE, SOURCE_TYPE, DOC_PREFIX)
log = logging.getLogger("curbside.coverage.adp")


class AdpLoader(PatternLoader):
    name = "adp"
    pattern = PATTERN

    def load(self, store: CoverageStore, paths: list[Path], progress: LoadProgress | None) -> list[SourceReport]:
        return load_adp(store, paths, progress)


def load_adp(store: CoverageStore, paths: list[Path], progress: LoadProgress | None = None) -> list[SourceReport]:
    """Load the newest edition of each manual among ``paths``; failures come back in the reports."""
    started = time.perf_counter()
    parsed: list[tuple[ParsedManual, Path, str]] = []
    failed: list[SourceReport] = []
    for path in paths:
        try:
            if progress is not None:
                progress.reading(path.name, path.stat().st_size)
            data = path.read_bytes()
            parsed.append((parse_manual(path, data), path, hashlib.sha256(data).hexdigest()))
            if progress is not None:
                progress.read(len(data))
        except CurbsideError as exc:
            failed.append(SourceReport("adp", str(path), "failed", exc.message, error_code=exc.code))
        except OSError as exc:
            failed.append(SourceReport("adp", str(path), "failed", f"Cannot read {path}: {exc.strerror or exc}.", error_code="IO_ERROR"))  # fmt: skip
    newest: dict[str, tuple[ParsedManual, Path, str]] = {}
    skipped: list[SourceReport] = []
    for item in sorted(parsed, key=lambda t: (t[0].key, t[0].edition_date, t[1].name)):
        if item[0].key in newest:
            older = newest[item[0].key]
            skipped.append(SourceReport("adp", str(older[1]), "skipped", f"an older edition than {item[1].name}"))
        newest[item[0].key] = item
    chosen = sorted(newest.values(), key=lambda t: (t[0].key != CORE_KEY, t[0].key))
    reports = [
        SourceReport("adp", str(path), "failed", "", edition=manual.label, counts=manual.counts())
        for manual, path, _ in chosen
    ]

    def finish(message: str, code: str) -> list[SourceReport]:
        elapsed = time.perf_counter() - started
        for report in reports:
            report.message, report.error_code, report.seconds = message, code, elapsed
        return failed + skipped + reports

    if failed:
        names = ", ".join(Path(f.path).name for f in failed)
        return finish(
            f"not loaded: the ADP manuals load together and {names} failed; nothing was changed", "PARSE_ERROR"
        )
    missing = sorted(required_manuals() - set(newest))
    if missing:
        return finish(
            f"not loaded: the project's ADP rules cite manuals that are not in the folder ({', '.join(missing)}); "
            "put every ADP manual (PDF) in the folder and load again. Nothing was changed",
            "VALIDATION_ERROR",
        )
    manuals = [m for m, _, _ in chosen]
    problems = verify({m.key: m for m in manuals})
    if problems:
        shown = "; ".join(problems[:_SHOWN_PROBLEMS]) + (f" (and {len(problems) - _SHOWN_PROBLEMS} more)" if len(problems) > _SHOWN_PROBLEMS else "")  # fmt: skip
        return finish(
            f"not loaded: the project's ADP rule files do not match these manuals ({shown}); review "
            "src/curbside/coverage/adp/*.toml against the new edition. Nothing was changed",
            "VALIDATION_ERROR",
        )

    try:
        digest = data_digest()
        before = current_editions(store.db)
        wanted = {(m.key, sha) for m, _, sha in chosen}
        tables_unchanged = {(e.manual, e.source_sha256) for e in before} == wanted and all(
            e.data_sha256 == digest for e in before
        )
        if not tables_unchanged:
            replace_manuals(store.db, [(m, p.name, sha) for m, p, sha in chosen], digest)
        ingest, removed = PASSAGES.ingest(store, build_documents(manuals), progress)
        embed_sentences(store)
    except CurbsideError as exc:
        return finish(exc.message, exc.code)

    elapsed = time.perf_counter() - started
    replaced = {e.manual: e for e in before}
    for report, manual in zip(reports, manuals, strict=True):
        report.seconds = elapsed
        mine = [o for o in ingest.outcomes if o.doc_key == doc_key(manual.key)]
        report.passages = passage_counts(mine, removed if manual.key == CORE_KEY else 0)
        if manual.key == CORE_KEY:
            report.counts |= {
                "categories": len(listed_categories(manual)),
                "rules": len([r for r in funding_rules() if r.manual in newest]),
                "devices": len([d for d in device_vocabulary().device if d.manual in newest]),
            }
        outcome = mine[0] if mine else None  # one passage document per manual
        if outcome is not None and outcome.status == "failed":
            report.status, report.error_code = "failed", outcome.error_code
            report.message = (
                f"the tables hold {manual.label}, but its passages failed ({outcome.message}); run the load again"
            )
        elif tables_unchanged and report.passages["ingested"] == 0 and report.passages["removed"] == 0:
            report.status, report.message = "unchanged", f"{manual.label} is already loaded; nothing to do"
        else:
            report.status = "loaded"
            old = replaced.get(manual.key)
            tail = f", replacing {old.label}" if old is not None and not tables_unchanged else ""
            report.message = (
                f"{manual.label}: {len(manual.sections)} sections, {manual.counts()['paragraphs']} paragraphs{tail}"
            )
    return skipped + reports


def embed_sentences(store: CoverageStore) -> None:
    """Embed the loaded manuals' sentences and categories now and cache them where ``adp.get`` reads them
    (``AdpMeaning``): otherwise a fresh home's first call waits for them, outside its time budget but still."""
    if store.cache_dir is None:
        return
    reader = AdpReader(store.db.path)
    try:
        with reader.snapshot():
            ManualsCache(AdpMeaning(cache_dir=store.cache_dir)).build_meaning(reader, reader.editions())
    except OSError as exc:  # the tables and passages are loaded: the first call embeds them instead
        log.warning("the ADP sentence vectors could not be cached (%s); adp.get's warm-up will embed them", exc)
    finally:
        reader.close()

